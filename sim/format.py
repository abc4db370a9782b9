"""How every number reads: money, days, shares and quality points, for the CLI and the app.

One rule for each quantity, so a figure reads the same in a terminal, a card, a chart and
a sentence:

- **Money is short** wherever a person reads it at a glance (summaries, cards, charts,
  sentences, the CLI's tables): three significant figures, ``$6.18M``, ``$150k``,
  ``$950``, ``$2.50``. It is **exact** (``$149,821``) only where figures must add up to
  the dollar: a ledger, a budget's lines (:func:`usd_exact`). JSON keeps the raw number.
- **Signed** forms (:func:`usd_signed`, :func:`days_signed`, :func:`points_signed`,
  :func:`pp_signed`) write ``+`` or an ASCII ``-``, never the Unicode minus, so that a
  reader, a test and ``st.metric`` (which reads the sign of a delta string) agree on it.
- **Quality is in points out of 100** everywhere it is shown (a score of 0.713 is
  ``71.3 pts``); a difference in quality is in points too (``-0.7 pts``).
- **A probability is a percent** (``57%``); a difference between two is in percentage
  points (``+3.0 pp``).
- **Days** carry one decimal (``154.2 days``), or none when whole.

Numbers that are not finite read as ``—``.

The thresholds under which a change reads as "no change" are here too, once
(:data:`NO_CHANGE`).
"""

from __future__ import annotations

import math

DASH = "—"
#: Changes smaller than these read as "no change" in words (interview, debrief, cards).
#: A quality ``score`` is in [0, 1] (0.002 is 0.2 points).
NO_CHANGE: dict[str, float] = {"USD": 5_000.0, "days": 0.5, "score": 0.002, "probability": 0.005}


def _finite(value: float) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def _sign(value: float) -> str:
    return "-" if value < 0 else ""


def usd(value: float) -> str:
    """Dollars, short: ``$1.20B``, ``$6.18M``, ``$150k``, ``$9,500``, ``$950``, ``$2.50``."""
    if not _finite(value):
        return DASH
    sign, v = _sign(value), abs(value)
    if v >= 1e9:
        return f"{sign}${v / 1e9:,.2f}B"
    if v >= 1e6:
        return f"{sign}${v / 1e6:,.2f}M"
    if v >= 1e4:
        return f"{sign}${v / 1e3:,.0f}k"
    if v >= 100 or v == 0:
        return f"{sign}${v:,.0f}"
    return f"{sign}${v:,.2f}"


def usd_exact(value: float) -> str:
    """Dollars to the dollar (cents under $100): ``$149,821``, ``-$24,294``, ``$2.50``."""
    if not _finite(value):
        return DASH
    sign, v = _sign(value), abs(value)
    return f"{sign}${v:,.0f}" if v >= 100 or v == 0 else f"{sign}${v:,.2f}"


def usd_signed(value: float) -> str:
    """A change in dollars, short, always signed: ``+$1.19M``, ``-$1.19M``, ``+$0``."""
    if not _finite(value):
        return DASH
    return usd(value) if value < 0 else f"+{usd(value)}"


def days(value: float) -> str:
    """``154.2 days``, ``60 days``, ``1 day``."""
    if not _finite(value):
        return DASH
    text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
    return f"{text} {'day' if text in ('1', '-1') else 'days'}"


def days_signed(value: float) -> str:
    """A change in days, always signed: ``+15.7 days``, ``-3 days``."""
    if not _finite(value):
        return DASH
    return days(value) if value < 0 else f"+{days(value)}"


def percent(share: float, digits: int = 0) -> str:
    """A share or probability as a percent: ``57%``, ``55.5%`` (``digits=1``)."""
    if not _finite(share):
        return DASH
    return f"{100 * share:.{digits}f}%"


def pp_signed(diff: float, digits: int = 1) -> str:
    """A difference between two probabilities, in percentage points: ``+3.0 pp``."""
    if not _finite(diff):
        return DASH
    return f"{'+' if diff >= 0 else '-'}{100 * abs(diff):.{digits}f} pp"


def points(score: float, digits: int = 1) -> str:
    """A quality score in [0, 1] as points out of 100: ``71.3 pts``."""
    if not _finite(score):
        return DASH
    return f"{100 * score:.{digits}f} pts"


def points_signed(diff: float, digits: int = 1) -> str:
    """A difference in quality score, in points out of 100: ``-0.7 pts``, ``+2.0 pts``."""
    if not _finite(diff):
        return DASH
    return f"{'+' if diff >= 0 else '-'}{100 * abs(diff):.{digits}f} pts"


def tokens(n: float) -> str:
    """Tokens as people write them: ``4.00T``, ``3.55T``; under a trillion ``5B``, ``2.5B``.

    Trillions keep two decimals (a budget cut of 1% shows); billions keep three
    significant figures, so an adaptation's 5B is not "0.01T".
    """
    if not _finite(n):
        return DASH
    if abs(n) >= 1e12:
        return f"{n / 1e12:.2f}T"
    return f"{float(f'{n / 1e9:.3g}'):,g}B"


def no_change(value: float, unit: str) -> bool:
    """Whether a change of ``value`` in ``unit`` is too small to read as one."""
    return abs(value) < NO_CHANGE[unit]


def count(n: float, noun: str, plural: str | None = None) -> str:
    """``n`` things in words: ``1 loss spike``, ``0 interruptions``, ``3 rounds``."""
    word = noun if n == 1 else (plural or f"{noun}s")
    return f"{n:,.0f} {word}" if float(n).is_integer() else f"{n:,.1f} {word}"
