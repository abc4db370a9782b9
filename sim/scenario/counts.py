"""Counts written with a unit, as people write them: ``7B``, ``4T``, ``16k``, ``7e9``, ``１２B``.

The command line's size flags (:mod:`sim.cli.sizes`) and the scenario loader's hints (a
``tokens_b: 4T`` in a file) read them the same way, and share the range a training run's
size falls in.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: Unit suffixes, case-insensitive; G (giga) reads as B, and bn/tn as B/T.
UNITS: dict[str, float] = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_WORDS = {"thousand": "k", "million": "m", "billion": "b", "bn": "b", "trillion": "t", "tn": "t"}
#: A number: digits (``_`` between them, or ``,`` between groups of three), a fraction and an
#: exponent; then a unit of letters.
_COUNT = re.compile(
    r"^([-+]?)((?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:_[0-9]+)*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
    r"|\.[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-zA-Z]*)$"
)
#: A decimal comma (``7,5B``): digits, a comma, digits not in groups of three.
_DECIMAL_COMMA = re.compile(r"^[-+]?[0-9]+(,[0-9]+)+(\.[0-9]*)?\s*[a-zA-Z]*$")
#: Signs and separators that normalisation (NFKC) leaves as they are.
_SIGNS = str.maketrans({"\u2212": "-", "\u066b": ".", "\u066c": ","})

#: The most parameters and tokens any training run has (100T and 10,000T): the scenario's
#: ``params_b`` and ``tokens_b`` and the command line's ``--params`` and ``--tokens`` stop here.
MAX_PARAMETERS = 1e14
MAX_TOKENS = 1e16


@dataclass(frozen=True)
class Count:
    """A count as written: its sign, its number and its unit's lower-case letter."""

    negative: bool
    number: float
    unit: str

    @property
    def value(self) -> float:
        """The count itself (``7B`` is 7e9)."""
        return (-1 if self.negative else 1) * self.number * UNITS[self.unit]


def ascii_digits(text: str) -> str:
    """``text`` in ASCII digits and signs: full-width forms (NFKC), any script's digits."""
    plain = unicodedata.normalize("NFKC", text).translate(_SIGNS).strip()
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in plain)


def read_count(text: str) -> Count | None:
    """The count ``text`` writes, or None when it is not one."""
    match = _COUNT.match(ascii_digits(text))
    if not match:
        return None
    unit = match.group(3).lower()
    unit = _WORDS.get(unit, unit)
    if unit not in UNITS:
        return None
    number = float(match.group(2).replace("_", "").replace(",", ""))
    return Count(match.group(1) == "-", number, unit)


def decimal_comma(text: str) -> str | None:
    """``7.5B`` for a ``7,5B`` (a comma used as the decimal point), else None."""
    plain = ascii_digits(text)
    return plain.replace(",", ".", 1) if _DECIMAL_COMMA.match(plain) else None
