"""TrainingRoom: a decision game and team-structure simulator for LLM-training projects."""

__version__ = "0.1.0"
