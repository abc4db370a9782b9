"""Sizes on the command line: ``7B``, ``7e9``, ``4T``, ``1.5T``, ``300B``, ``7,000,000,000``.

Each size flag knows what it counts and the range a real training run falls in. A
number outside it is refused with the reading it would have had and the reading
the user most likely meant: ``--params 7`` is seven parameters, not seven billion.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from sim.cli.common import UserError

#: Unit suffixes, case-insensitive; G (giga) reads as B, and bn/tn as B/T.
UNITS: dict[str, float] = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_WORDS = {"thousand": "k", "million": "m", "billion": "b", "bn": "b", "trillion": "t", "tn": "t"}
#: A number: digits (``_`` between them, or ``,`` between groups of three), a fraction and an
#: exponent; then a unit of letters.
_SIZE = re.compile(
    r"^([-+]?)((?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:_[0-9]+)*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
    r"|\.[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-zA-Z]*)$"
)
#: Signs and separators that normalisation (NFKC) leaves as they are.
_SIGNS = str.maketrans({"\u2212": "-", "\u066b": ".", "\u066c": ","})
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


PARAMETERS = SizeKind("parameters", 1e6, 1e14, ((2_000.0, "B"), (math.inf, "M")))
TOKENS = SizeKind("tokens", 1e6, 1e16, ((100.0, "T"), (math.inf, "B")))


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


def _ascii(text: str) -> str:
    """``text`` in ASCII digits and signs: full-width forms (NFKC), any script's digits."""
    plain = unicodedata.normalize("NFKC", text).translate(_SIGNS).strip()
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in plain)


def _read(text: str, flag: str, kind: SizeKind) -> tuple[float, str]:
    """The number and the unit letter of ``text``, or a :class:`UserError` saying why not."""
    plain = _ascii(text)
    match = _SIZE.match(plain)
    unit = match.group(3).lower() if match else ""
    unit = _WORDS.get(unit, unit)
    if not match or unit not in UNITS:
        if re.fullmatch(r"[-+]?[0-9]+(,[0-9]+)+(\.[0-9]*)?\s*[a-zA-Z]*", plain):
            raise UserError(
                f"--{flag}: cannot read {text!r}: a comma separates thousands (7,000,000); "
                f"a decimal takes a point ({plain.replace(',', '.', 1)})"
            )
        raise UserError(
            f"--{flag}: cannot read {text!r} as a number of {kind.noun} "
            "(write 7B, 1.5T, 300M or 7e9)"
        )
    if match.group(1) == "-":
        raise UserError(f"--{flag}: must be a positive number of {kind.noun}, got {text!r}")
    return float(match.group(2).replace("_", "").replace(",", "")), unit


def parse_size(text: str, flag: str, kind: SizeKind) -> float:
    """The count ``text`` gives for ``--flag``, or a :class:`UserError` saying why not."""
    number, unit = _read(text, flag, kind)
    value = number * UNITS[unit]
    if not math.isfinite(value):
        raise UserError(
            f"--{flag} {text.strip()}: more than any training run ({short(kind.high)} "
            f"{kind.noun} at most)"
        )
    if value <= 0:
        raise UserError(f"--{flag}: must be a positive number of {kind.noun}, got {text!r}")
    if value < kind.low:
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
