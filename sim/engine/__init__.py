"""The engine: a training project played forward by SimPy processes.

``ENGINE_VERSION`` names the model's numbers: it changes whenever a change to the
engine means the same scenario, seed and decisions give other outcomes, so a saved
play can say that its numbers come from an older model.
"""

#: Bumped when the same play gives other numbers (docs/model.md, "One play").
ENGINE_VERSION = "20"

# A compiled build of these very sources, when there is one, is imported before them
# (sim/native.py; TRAININGROOM_NATIVE=0 runs the sources).
from sim import native as _native  # noqa: E402

_native.attach(__path__)
