"""Tabletop exercises: a facilitator runs a scenario with a group of players.

Following established exercise practice: a situation manual for players; a master
scenario events list (MSEL) of injects with expected actions for the facilitator;
players holding roles with decision rights; a hot wash; and an after-action report
with an improvement plan.

- :mod:`sim.tabletop.authoring`: roles from the org graph, the inject list, the manuals.
- :mod:`sim.tabletop.clock`: the play's state derived by replay, and the clock with its
  timed and state-triggered injects.
- :mod:`sim.tabletop.db.models`: the database tables (SQLAlchemy 2.0 ORM).
- :mod:`sim.tabletop.db.credentials`: room codes, keys, their hashes and input limits.
- :mod:`sim.tabletop.errors`: what the service refuses, and why.
- :mod:`sim.tabletop.service`: the exercise service (no UI): every rule is enforced here.
- :mod:`sim.tabletop.views`: what a player and what the facilitator may see.
- :mod:`sim.tabletop.report.report`: the after-action report and improvement plan.
"""
