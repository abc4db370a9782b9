"""The names and defaults the model and its commands share, in a module that loads nothing.

``CMD --help`` and ``CMD --version`` read them without the engine, pandas or SciPy. The
defaults (``compare --max-reps``, ``debrief --worlds``, ``report --reps``, what
``compare`` is about) are the model's own: its modules import them from here. The lists of
names are the model's catalogues (GPUs, policies, presets, objectives, choice families),
which live with their entries; tests/test_cli_forgiving.py keeps each list here equal to
its catalogue, and a command checks what it is given against the catalogue itself.
"""

from __future__ import annotations

#: :data:`sim.engine.compute.GPUS`: the GPU catalogue's names (``compute --gpu``).
GPU_NAMES: tuple[str, ...] = ("a100", "h100", "h800", "h200", "b200")
#: :data:`sim.engine.decisions.POLICY_NAMES`: the deciders ``--policy`` accepts.
POLICY_NAMES: tuple[str, ...] = (
    "playbook", "ad_hoc", "cautious", "aggressive", "overreact", "textbook",
)  # fmt: skip
#: :data:`sim.designs.PRESETS_BY_KEY`: the preset designs ``--design`` accepts.
PRESET_KEYS: tuple[str, ...] = (
    "small_core", "large_siloed", "evergreen_apart", "research_in_core", "many_variants",
)  # fmt: skip
#: :data:`sim.compare.inference.DEFAULT_PRIMARY`: what ``compare`` is about by default.
DEFAULT_PRIMARY = "success"
#: :data:`sim.intervals.MIN_WORLDS`: the fewest worlds an interval or a verdict is built on.
MIN_WORLDS = 10
#: :data:`sim.compare.sequential.MAX_WORLDS`: the default of ``compare --max-reps``.
SEQUENTIAL_MAX_WORLDS = 12_800
#: :data:`sim.compare.search.OBJECTIVE_COLUMNS`: what ``optimize --objective`` maximises.
OBJECTIVES: tuple[str, ...] = ("p_success", "p_on_time", "p_on_budget", "p_quality_met")
#: :data:`sim.compare.space.CHOICE_FAMILIES`: the families ``optimize --only`` names.
CHOICE_FAMILIES: tuple[str, ...] = ("headcount", "right", "owner", "gate", "levers", "playbook")
#: :data:`sim.play.lessons.check.NEIGHBOUR_WORLDS`: the default of ``debrief --worlds``.
NEIGHBOUR_WORLDS = 30
#: :data:`sim.tabletop.report.montecarlo.REPS`: the default of ``report --reps``.
TABLETOP_REPS = 100
