"""What the exercise service refuses, and why; each carries a message fit to show a person."""

from __future__ import annotations


class TabletopError(Exception):
    """Something a person asked for that the exercise cannot do."""


class NotFound(TabletopError):
    """No exercise with that room code or id (or no such role, inject or player)."""


class Forbidden(TabletopError):
    """The key is wrong, or the person does not hold the role this needs."""


class Refused(TabletopError):
    """Not possible in the exercise's current state (paused, ended, nothing waiting)."""


class Conflict(TabletopError):
    """Others kept changing the exercise while this action tried to commit; try again."""


class Unavailable(TabletopError):
    """The database did not answer (down, unreachable, refused the credentials)."""


class InputError(TabletopError, ValueError):
    """Text that breaks a limit, or a value that is not one of the choices."""


class Barred(Forbidden):
    """A join from the browser of a seat the facilitator removed (under any name)."""


class OldCode(NotFound):
    """A room code the facilitator has replaced: it admits nobody new."""
