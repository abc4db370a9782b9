"""Domain aliases for units, so signatures say what a number measures."""

from typing import TypeAlias

Days: TypeAlias = float
Hours: TypeAlias = float
Minutes: TypeAlias = float
Usd: TypeAlias = float
PersonDays: TypeAlias = float
TeamId: TypeAlias = str
Flops: TypeAlias = float

SECONDS_PER_DAY = 86_400.0
MINUTES_PER_DAY = 1_440.0
HOURS_PER_DAY = 24.0
#: Working hours in a person-day.
WORK_HOURS_PER_PERSON_DAY = 8.0

#: Money and time are compared with a tolerance in their own unit, never with zero: a
#: budget built from thousands of float charges leaves residues (about 1e-9 dollars on a
#: $7M budget) that must not read as a gap and trigger a costly response.
USD_TOLERANCE: Usd = 1.0
DAYS_TOLERANCE: Days = 1e-6  # about a tenth of a second


def over_usd(amount: Usd) -> bool:
    """Whether ``amount`` dollars is a real excess, not float residue."""
    return amount > USD_TOLERANCE


def later_than(day: Days, limit: Days) -> bool:
    """Whether ``day`` is past ``limit`` by more than float residue."""
    return day > limit + DAYS_TOLERANCE
