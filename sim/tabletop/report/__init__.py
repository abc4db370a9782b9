"""A tabletop exercise's after-action report.

The findings and their Monte Carlo replays, the HSEEP AAR/IP, the wrap-up the facilitator
edits, and the document export.
"""
