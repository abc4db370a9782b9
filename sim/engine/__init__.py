"""The engine: a training project played forward by SimPy processes.

``ENGINE_VERSION`` names the model's numbers: it changes whenever a change to the
engine means the same scenario, seed and decisions give other outcomes, so a saved
play can say that its numbers come from an older model.
"""

#: Bumped when the same play gives other numbers (docs/model.md, "One play").
ENGINE_VERSION = "20"
