"""TrainingRoom: a decision game and team-structure simulator for LLM-training projects.

The names a script needs, imported on first use (PEP 562), so ``import sim`` and
``python -m sim --help`` do not pay for the model, pandas or pydantic until they are used::

    import sim

    scenario = sim.load_scenario("assistant_7b")
    table = sim.run_replications(scenario, 100, seed=0)  # one row per replication
    game = sim.Game(scenario, seed=3)                      # a play, one decision at a time
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name and the module it lives in.
EXPORTS: dict[str, str] = {
    "Scenario": "sim.scenario.spec",
    "ScenarioError": "sim.scenario.problems",
    "load_scenario": "sim.scenario.loading",
    "with_overrides": "sim.scenario.loading",
    "shipped_names": "sim.scenario.catalog",
    "ProjectModel": "sim.engine.model",
    "outcome_row": "sim.engine.outcome",
    "estimate": "sim.engine.compute",
    "run_replications": "sim.runner",
    "run_designs": "sim.runner",
    "summarize_runs": "sim.summary",
    "Game": "sim.play.game",
    "PlayLog": "sim.play.game",
    "replay": "sim.play.game",
    "counterfactual": "sim.play.game",
}
__all__ = ["__version__", *EXPORTS]

if TYPE_CHECKING:  # the same names for type checkers and editors (a test keeps them in step)
    from sim.engine.compute import estimate as estimate
    from sim.engine.model import ProjectModel as ProjectModel
    from sim.engine.outcome import outcome_row as outcome_row
    from sim.play.game import Game as Game
    from sim.play.game import PlayLog as PlayLog
    from sim.play.game import counterfactual as counterfactual
    from sim.play.game import replay as replay
    from sim.runner import run_designs as run_designs
    from sim.runner import run_replications as run_replications
    from sim.scenario.catalog import shipped_names as shipped_names
    from sim.scenario.loading import load_scenario as load_scenario
    from sim.scenario.loading import with_overrides as with_overrides
    from sim.scenario.problems import ScenarioError as ScenarioError
    from sim.scenario.spec import Scenario as Scenario
    from sim.summary import summarize_runs as summarize_runs


def __getattr__(name: str) -> Any:
    module = EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *EXPORTS})
