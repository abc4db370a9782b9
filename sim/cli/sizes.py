"""Sizes on the command line: ``7B``, ``7e9``, ``4T``, ``1.5T``, ``300B``, ``7,000,000,000``.

Each size flag knows what it counts and the range a real training run falls in. A
number outside it is refused with the reading it would have had and the reading
the user most likely meant: ``--params 7`` is seven parameters, not seven billion.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.cli.common import UserError
from sim.scenario.counts import (
    MAX_PARAMETERS,
    MAX_TOKENS,
    Count,
    decimal_comma,
    read_count,
)

_SCALE = (
    (1e12, "trillion", "T"),
    (1e9, "billion", "B"),
    (1e6, "million", "M"),
    (1e3, "thousand", "k"),
)


@dataclass(frozen=True)
class SizeKind:
    """What a size flag counts, and the range a training run's size falls in."""

    noun: str
    low: float
    high: float
    #: The unit a too-small bare number most likely left out, by how large the number is.
    likely_units: tuple[tuple[float, str], ...]


PARAMETERS = SizeKind("parameters", 1e6, MAX_PARAMETERS, ((2_000.0, "B"), (math.inf, "M")))
TOKENS = SizeKind("tokens", 1e6, MAX_TOKENS, ((100.0, "T"), (math.inf, "B")))


def words(value: float) -> str:
    """A count in words: ``7 billion``, ``1.5 trillion``, ``300 billion``, ``4,096``."""
    for scale, name, _ in _SCALE:
        if value >= scale:
            return f"{value / scale:.4g} {name}"
    return f"{value:,.4g}"


def short(value: float) -> str:
    """A count with a unit suffix: ``7B``, ``1.5T``, ``300B``, ``500M``, ``10,000T``."""
    for scale, _, unit in _SCALE:
        if value >= scale:
            scaled = value / scale
            return f"{scaled:,.0f}{unit}" if scaled >= 1e4 else f"{scaled:.4g}{unit}"
    return f"{value:.4g}"


def _read(text: str, flag: str, kind: SizeKind) -> Count:
    """The count ``text`` gives, or a :class:`UserError` saying why it is none."""
    count = read_count(text)
    if count is None:
        meant = decimal_comma(text)
        if meant is not None:
            raise UserError(
                f"--{flag}: cannot read {text!r}: a comma separates thousands (7,000,000); "
                f"a decimal takes a point ({meant})"
            )
        raise UserError(
            f"--{flag}: cannot read {text!r} as a number of {kind.noun} "
            "(write 7B, 1.5T, 300M or 7e9)"
        )
    if count.negative:
        raise UserError(f"--{flag}: must be a positive number of {kind.noun}, got {text!r}")
    return count


def parse_size(text: str, flag: str, kind: SizeKind) -> float:
    """The count ``text`` gives for ``--flag``, or a :class:`UserError` saying why not."""
    count = _read(text, flag, kind)
    value = count.value
    if not math.isfinite(value):
        raise UserError(
            f"--{flag} {text.strip()}: more than any training run ({short(kind.high)} "
            f"{kind.noun} at most)"
        )
    if value <= 0:
        raise UserError(f"--{flag}: must be a positive number of {kind.noun}, got {text!r}")
    if value < kind.low:
        number = count.number
        likely = next(u for limit, u in kind.likely_units if number < limit)
        raise UserError(
            f"--{flag} {text.strip()} reads as {words(value)} {kind.noun}; "
            f"did you mean {number:g}{likely}? (a run has {short(kind.low)} to "
            f"{short(kind.high)} {kind.noun})"
        )
    if value > kind.high:
        raise UserError(
            f"--{flag} {text.strip()} reads as {words(value)} {kind.noun}, more than any "
            f"training run ({short(kind.high)} at most)"
        )
    return value
