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
