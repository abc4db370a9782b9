"""The debrief's lessons.

The catalogue of interventions, the arms that replay them, the check that keeps what moved
beyond noise, its measures and its words.
"""
