"""Intervals, tests, multiplicity and ranking for numbers drawn from simulated worlds.

A random quantity is summarised as mean, p10, p50, p90 (:func:`sim.stats.summarize`);
this module puts an honest interval or probability on a number drawn from a finite set of
simulated worlds, with the methods the field uses (SciPy and statsmodels do the work;
docs/compare.md says what each one means):

- means and paired differences of means: Student t (:func:`mean_interval`,
  :func:`paired_mean`); a *lumpy* difference (most worlds equal, a few far off) gets a
  t interval whose degrees of freedom are the worlds that differ (:func:`lumpy_t`); when
  every sampled world gives the same difference, an exact binomial bound instead of a
  zero-width interval (:func:`flat_bound`);
- chances: Wilson score intervals (:func:`wilson`); paired differences of chances: Tango's
  score interval and the score test it inverts, so that the interval leaves 0 exactly
  when the test says "clear" (:func:`paired_proportion`; the exact McNemar p-value is
  kept beside it);
- no difference is called clear when fewer than :data:`MIN_DIFFERING` worlds carry it;
- quantiles: distribution-free order-statistic intervals (:func:`quantile_interval`);
  S-curves: the Dvoretzky-Kiefer-Wolfowitz band (:func:`dkw_halfwidth`);
- several comparisons at once: Holm's step-down adjustment (:func:`holm`);
- which design (or lever) ranks first: Bayesian-bootstrap probabilities over the same
  worlds (:func:`chance_best`, :func:`chance_top`);
- how many worlds a question needs (:func:`worlds_needed`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from scipy import optimize
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from sim import names

#: The error rate every interval and verdict is built for (95% intervals).
ALPHA = 0.05
#: Fewer worlds than this and a comparison, a ranking or an interval is refused, not guessed.
MIN_WORLDS = names.MIN_WORLDS
#: Two values whose difference is less than this share of their size (at least 1) count
#: as the same outcome: float rounding of dollars and days, not a difference.
SAME = 1e-9
#: A difference carried by fewer worlds than this (worlds far from the rest for a mean,
#: discordant worlds for a chance) is never called clear: the t and score approximations
#: need about ten informative worlds, the usual events-per-parameter rule.
MIN_DIFFERING = 10
#: A world is "far from the rest" when its difference is further than this share of the
#: differences' range from their median.
FAR_SHARE = 0.1


class TooFewWorlds(ValueError):
    """A statistic asked of fewer worlds than it needs: a refusal with the reason."""

    def __init__(self, n: int, needed: int = MIN_WORLDS, what: str = "an interval") -> None:
        super().__init__(
            f"{n} world{'' if n == 1 else 's'} {'is' if n == 1 else 'are'} too few for "
            f"{what}: at least {needed} are needed (run more replications)"
        )
        self.n, self.needed = n, needed


def require_worlds(n: int, needed: int = MIN_WORLDS, what: str = "an interval") -> None:
    """Refuse (raise :class:`TooFewWorlds`) when ``n`` is below ``needed``."""
    if n < needed:
        raise TooFewWorlds(n, needed, what)


def _array(values: Iterable[float]) -> np.ndarray:
    return np.asarray(list(values) if not isinstance(values, np.ndarray) else values, float)


def tolerance(*samples: Iterable[float]) -> float:
    """Below this, two of these values are the same outcome: :data:`SAME` times their size."""
    arrays = [np.abs(_array(s)) for s in samples]
    size = max((float(a.max()) for a in arrays if a.size), default=0.0)
    return SAME * max(1.0, size if math.isfinite(size) else 1.0)


# --- one sample --------------------------------------------------------------------------------


def wilson(successes: float, n: int, level: float = 1 - ALPHA) -> tuple[float, float]:
    """Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one)."""
    require_worlds(n, 1, "a chance")
    low, high = proportion_confint(successes, n, alpha=1 - level, method="wilson")
    return (max(0.0, float(low)), min(1.0, float(high)))


def mean_interval(values: Iterable[float], level: float = 1 - ALPHA) -> tuple[float, float, float]:
    """Mean with its Student-t interval; a flat sample gets :func:`flat_bound`'s width."""
    x = _array(values)
    require_worlds(x.size, 2, "an interval on a mean")
    mean = float(x.mean())
    sd = float(x.std(ddof=1))
    if sd <= SAME * max(1.0, abs(mean)):
        half = flat_bound(x.size, _scale(x), 1 - level)
    else:
        half = float(sps.t.ppf(1 - (1 - level) / 2, x.size - 1) * sd / math.sqrt(x.size))
    return mean, mean - half, mean + half


def quantile_interval(
    values: Iterable[float], q: float, level: float = 1 - ALPHA
) -> tuple[float | None, float | None]:
    """Distribution-free interval of the ``q`` quantile from order statistics.

    An end that the sample cannot reach at this level (too few worlds beyond the
    quantile) is None: the interval is open on that side.
    """
    x = _array(values)
    require_worlds(x.size, 1, "a quantile")
    ci = sps.quantile_test(x, q=float(np.quantile(x, q)), p=q).confidence_interval(level)
    low, high = float(ci.low), float(ci.high)
    return (low if math.isfinite(low) else None, high if math.isfinite(high) else None)


def dkw_halfwidth(n: int, alpha: float = ALPHA) -> float:
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz band around an empirical CDF.

    With probability 1 - alpha the whole true CDF lies within this distance of the
    empirical one, everywhere at once (Massart's constant).
    """
    require_worlds(n, 1, "a band")
    return math.sqrt(math.log(2 / alpha) / (2 * n))


# --- paired differences ------------------------------------------------------------------------


def _scale(*samples: np.ndarray) -> float:
    """The spread seen in these worlds (max - min), or their size, or 1: a flat bound's unit."""
    pooled = np.concatenate([np.ravel(s) for s in samples])
    spread = float(pooled.max() - pooled.min()) if pooled.size else 0.0
    if spread > SAME:
        return spread
    size = float(np.abs(pooled).max()) if pooled.size else 0.0
    return size if size > SAME else 1.0


def flat_bound(n: int, scale: float, alpha: float, sides: int = 2) -> float:
    """How far a mean could be from a flat sample: n worlds that all gave the same value.

    At most ``1 - (alpha/sides)^(1/n)`` of worlds could give another value (the exact
    binomial bound on a share never seen), each by at most ``scale``, the spread seen
    in these worlds. Never zero for a finite sample.
    """
    share = 1.0 - (alpha / sides) ** (1.0 / n)
    return share * scale


def _flat_p(n: int, distance: float, scale: float, sides: int = 2) -> float:
    """The alpha at which :func:`flat_bound` reaches ``distance`` (its p-value)."""
    if distance >= scale:
        return 0.0
    return min(1.0, sides * (1.0 - max(distance, 0.0) / scale) ** n)


def paired_difference(
    a: Iterable[float], b: Iterable[float], level: float = 1 - ALPHA
) -> dict[str, float]:
    """Mean of b - a over paired worlds with its Student-t interval (``mean, low, high, n``)."""
    d = paired_mean(a, b, level=level)
    return {k: d[k] for k in ("mean", "low", "high", "n")}


def far_worlds(d: np.ndarray) -> int:
    """How many differences lie far from the rest.

    Far is beyond :data:`FAR_SHARE` of their range from their median. In a lumpy sample
    (most worlds equal, a few far off) these few worlds carry the whole difference.
    """
    spread = float(d.max() - d.min()) if d.size else 0.0
    if spread <= 0:
        return 0
    return int((np.abs(d - np.median(d)) > FAR_SHARE * spread).sum())


def _bulk_carries(d: np.ndarray) -> bool:
    """True when the worlds near the median shift together, clearly, carrying the mean.

    They must move in the mean's direction and carry at least half of the total.

    Then the difference is a shift of most worlds, with a few far ones beside it, not a
    lump: the far worlds only widen the sample's sd (which makes the plain t interval
    wider, not narrower), so the plain t holds. A bulk of equal worlds (every near one
    gives the same difference, often none) carries nothing of its own.
    """
    spread = float(d.max() - d.min())
    near = d[np.abs(d - np.median(d)) <= FAR_SHARE * spread]
    if near.size < MIN_DIFFERING:
        return False
    mean, sd = float(near.mean()), float(near.std(ddof=1))
    if sd <= 0 or mean * float(d.mean()) <= 0 or abs(near.sum()) < abs(d.sum()) / 2:
        return False
    t = abs(mean) / (sd / math.sqrt(near.size))
    return bool(t > sps.t.ppf(1 - ALPHA / 2, near.size - 1))


def lumpy_t(d: np.ndarray) -> tuple[float, int, bool]:
    """The spread and degrees of freedom of a paired t interval on differences ``d``.

    When at least half the worlds are far from the rest, or the near ones share a clear
    shift of the mean's sign (:func:`_bulk_carries`), Student t as usual: the sample's
    sd and n - 1 degrees of freedom. Otherwise the sample is *lumpy* and a plain t
    interval under-covers (its sd and mean come from the few worlds that differ, and a
    sample that lacks some of them looks tight): the degrees of freedom become the number
    of far worlds (the information is in them, not in n), and the sd is at least that of
    the sample with one more world at each extreme (the device of Agresti and Caffo's
    interval for proportions, here for a mean). Returns (sd, df, lumpy).
    """
    n = d.size
    sd = float(d.std(ddof=1))
    far = far_worlds(d)
    if far >= n / 2 or _bulk_carries(d):
        return sd, n - 1, False
    padded = np.concatenate([d, [d.min(), d.max()]])
    return max(sd, float(padded.std(ddof=1))), max(1, min(n - 1, far)), True


def paired_mean(
    a: Iterable[float],
    b: Iterable[float],
    margin: float | None = None,
    level: float = 1 - ALPHA,
) -> dict[str, Any]:
    """B - A on the same worlds: mean, t interval, t-test p-value, and TOST within ±margin.

    ``p_value`` tests "no difference" (paired t, :func:`lumpy_t`'s spread and degrees of
    freedom, so the interval leaves 0 exactly when ``p_value`` is below ``1 - level``);
    ``p_equivalent`` tests "differs by ``margin`` or more" (two one-sided t-tests: small
    means alike within ±margin). Differences below :func:`tolerance` are rounding and
    count as none. When every world gives the same difference ``c``, the interval is
    :func:`flat_bound`'s: a share of unseen worlds could differ, by as much as ``c``.
    ``worlds_differing`` counts the worlds that carry the difference; below
    :data:`MIN_DIFFERING` the row is ``rough`` (never clear) and ``worlds_for_t`` says
    about how many worlds would bring that many.
    """
    x, y = _array(a), _array(b)
    tol = tolerance(x, y)
    d = y - x
    d = np.where(np.abs(d) <= tol, 0.0, d)
    n = d.size
    require_worlds(n, 2, "a paired interval")
    mean = float(d.mean())
    alpha = 1 - level
    out: dict[str, Any] = {"mean": mean, "n": n, "level": level, "method": "paired t"}
    if float(d.max() - d.min()) <= tol:
        scale = max(abs(mean), tol)
        half = flat_bound(n, scale, alpha)
        out.update(method="exact bound (every world gave the same difference)",
                   p_value=1.0 if abs(mean) <= tol else _flat_p(n, abs(mean), scale),
                   sd=0.0, worlds_differing=0, rough=False)  # fmt: skip
        if margin is not None:
            out["p_equivalent"] = (
                _flat_p(n, margin - abs(mean), scale, 1) if abs(mean) < margin else 1.0
            )
    else:
        sd, df, lumpy = lumpy_t(d)
        se = sd / math.sqrt(n)
        half = float(sps.t.ppf(1 - alpha / 2, df) * se)
        out["p_value"] = float(2 * sps.t.sf(abs(mean) / se, df))
        far = far_worlds(d)
        out.update(sd=sd, df=df, skew=float(sps.skew(d)), worlds_differing=far)
        if lumpy:
            out["method"] = "paired t on the worlds that differ (lumpy differences)"
        out["rough"] = far < MIN_DIFFERING
        out["worlds_for_t"] = (
            int(math.ceil(n * MIN_DIFFERING / max(far, 1))) if far < MIN_DIFFERING else n
        )
        if margin is not None:
            # TOST: reject "mean <= -margin" and "mean >= +margin", each one-sided.
            p_low = float(sps.t.sf((mean + margin) / se, df))
            p_high = float(sps.t.cdf((mean - margin) / se, df))
            out["p_equivalent"] = max(p_low, p_high)
    out["low"], out["high"] = mean - half, mean + half
    return out


#: The continuity correction of the paired-chance score statistic, in worlds: the
#: discordant count's distance from its expectation is shrunk by half a world (Yates's
#: device). Uncorrected, Tango's interval covered 0.925-0.936 at 50 worlds on the 7B
#: data-work pair (most discordant worlds one way); corrected, 0.956 and up.
CONTINUITY = 0.5


def _tango_z(
    b_only: float, a_only: float, n: float, delta: float, correction: float = 0.0
) -> float:
    """Tango's score statistic for "P(B) - P(A) = delta" from the discordant counts.

    ``b_only``: worlds where B meets the objective and A does not; ``a_only`` the
    reverse. The variance uses the maximum-likelihood cell chance under ``delta``
    (Tango 1998, Statistics in Medicine 17:891). ``correction`` shrinks the numerator's
    distance from 0 by that many worlds (:data:`CONTINUITY`).
    """
    same = n - b_only - a_only
    w = b_only * (1 - delta) + a_only * (1 - 3 * delta) - 2 * same * delta
    q = (w + math.sqrt(max(w * w + 8 * n * a_only * delta * (1 - delta), 0.0))) / (4 * n)
    var = n * (2 * q + delta * (1 - delta))
    top = b_only - a_only - n * delta
    top = math.copysign(max(abs(top) - correction, 0.0), top)
    if var <= 1e-15:
        return 0.0 if abs(top) <= 1e-12 else math.copysign(math.inf, top)
    return top / math.sqrt(var)


def tango_interval(
    b_only: float, a_only: float, n: float, level: float = 1 - ALPHA, correction: float = 0.0
) -> tuple[float, float]:
    """Tango's score interval for P(B) - P(A) on paired worlds (never zero width)."""
    z = float(sps.norm.ppf(1 - (1 - level) / 2))
    est = (b_only - a_only) / n
    edge = 1 - 1e-12

    def root(target: float, lo: float, hi: float) -> float:
        def f(d: float) -> float:
            return _tango_z(b_only, a_only, n, d, correction) - target

        if f(lo) * f(hi) > 0:
            return lo if abs(f(lo)) < abs(f(hi)) else hi
        return float(optimize.brentq(f, lo, hi, xtol=1e-12))

    low = -1.0 if _tango_z(b_only, a_only, n, -edge, correction) < z else root(z, -edge, est)
    high = 1.0 if _tango_z(b_only, a_only, n, edge, correction) > -z else root(-z, est, edge)
    return low, high


def paired_proportion(
    a: Iterable[float],
    b: Iterable[float],
    margin: float | None = None,
    level: float = 1 - ALPHA,
) -> dict[str, Any]:
    """P(B) - P(A) on the same worlds: Tango's interval and test, TOST within ±margin.

    ``b_only`` and ``a_only`` are the discordant worlds (B meets it and A does not, and
    the reverse); only they carry information about the difference. ``p_value`` is
    Tango's score test of no difference (with :data:`CONTINUITY`), the test the interval
    inverts, so the interval
    leaves 0 exactly when ``p_value`` is below ``1 - level`` (one rule for both);
    ``p_exact`` is the exact McNemar test, kept for reference. ``p_equivalent`` is the
    larger of Tango's two one-sided score tests at -margin and +margin. Fewer than
    :data:`MIN_DIFFERING` discordant worlds make the row ``rough`` (never clear).
    """
    x, y = _array(a) > 0.5, _array(b) > 0.5
    n = int(x.size)
    require_worlds(n, 2, "a paired interval")
    b_only, a_only = int((y & ~x).sum()), int((x & ~y).sum())
    low, high = tango_interval(b_only, a_only, n, level, CONTINUITY)
    table = [[0, b_only], [a_only, 0]]
    exact = 1.0 if b_only + a_only == 0 else float(mcnemar(table, exact=True).pvalue)
    z0 = _tango_z(b_only, a_only, n, 0.0, CONTINUITY)
    p_value = 1.0 if b_only == a_only else float(2 * sps.norm.sf(abs(z0)))
    differing = b_only + a_only
    out: dict[str, Any] = {
        "mean": (b_only - a_only) / n, "low": low, "high": high, "n": n, "level": level,
        "method": "Tango score interval and test (continuity-corrected)",
        "b_only": b_only, "a_only": a_only, "p_value": min(1.0, p_value),
        "p_exact": min(1.0, exact), "worlds_differing": differing,
        "rough": differing < MIN_DIFFERING,
        "worlds_for_t": (int(math.ceil(n * MIN_DIFFERING / differing))
                         if 0 < differing < MIN_DIFFERING else n),
    }  # fmt: skip
    if margin is not None:
        p_low = float(sps.norm.sf(_tango_z(b_only, a_only, n, -margin, CONTINUITY)))
        p_high = float(sps.norm.cdf(_tango_z(b_only, a_only, n, margin, CONTINUITY)))
        out["p_equivalent"] = max(p_low, p_high)
    return out


# --- several comparisons, ranking, sample size --------------------------------------------------


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[float]:
    """Holm-adjusted p-values: any-false-claim rate at most ``alpha`` over the family.

    The step-down of statsmodels' ``multipletests(method="holm")`` (a test checks they
    agree), done here because that branch calls ``gc.collect()`` on every call, which
    costs about 0.15 s in a large process such as the app's, and a comparison adjusts
    four families.
    """
    if not p_values:
        return []
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * np.arange(p.size, 0, -1))
    out = np.empty_like(p)
    out[order] = np.minimum(stepped, 1.0)
    return [float(v) for v in out]


def _weights(n: int, draws: int, seed: int) -> np.ndarray:
    """Bayesian-bootstrap weights over the n worlds (flat Dirichlet), one row per draw."""
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.ones(n), size=draws)


def chance_best(
    values: np.ndarray,
    margin: float = 0.0,
    draws: int = 2000,
    seed: int = 0,
    binary: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The chance each column (design) has the highest mean, over the same worlds (rows).

    A Bayesian bootstrap: each draw reweights the worlds, the same weights for every
    design, so the pairing of common random numbers is kept. For chances (``binary``,
    up to ten designs) the weights go to each pattern of who meets the objective, with
    one world's worth of prior spread over every pattern, seen or not: a design that
    never lost in these worlds could still lose in others. Designs tied in a draw share
    its credit. The second array is the chance each design is within ``margin`` of the
    best (an indifference zone: close enough not to matter).
    """
    require_worlds(values.shape[0], MIN_WORLDS, "a ranking")
    rng = np.random.default_rng(seed)
    k = values.shape[1]
    if binary and k <= 10:
        patterns = np.array(list(itertools.product((0.0, 1.0), repeat=k)))
        seen = (values > 0.5).astype(int) @ (2 ** np.arange(k - 1, -1, -1))
        counts = np.bincount(seen, minlength=len(patterns)).astype(float)
        weights = rng.dirichlet(counts + 1.0 / len(patterns), size=draws)
        means = weights @ patterns
    else:
        means = rng.dirichlet(np.ones(values.shape[0]), size=draws) @ values
    top = means.max(axis=1, keepdims=True)
    tol = SAME * np.maximum(1.0, np.abs(top))
    tied = np.abs(means - top) <= tol
    best = (tied / tied.sum(axis=1, keepdims=True)).mean(axis=0)
    near = (means >= top - margin - tol).mean(axis=0)
    return best, near


def chance_top(effects: np.ndarray, k: int = 3, draws: int = 2000, seed: int = 0) -> np.ndarray:
    """The chance each column's mean is among the ``k`` largest in size (|mean|), and not 0.

    ``effects`` holds one row per world and one column per lever (its swing in that
    world); the same Bayesian-bootstrap weights reweight every lever.
    """
    require_worlds(effects.shape[0], MIN_WORLDS, "a ranking")
    size = np.abs(_weights(effects.shape[0], draws, seed) @ effects)
    tol = tolerance(effects)
    larger = (size[:, None, :] > size[:, :, None] + tol).sum(axis=2)
    return ((larger < k) & (size > tol)).mean(axis=0)


def worlds_needed(row: dict[str, Any], target: float, level: float = 1 - ALPHA) -> int | None:
    """About how many worlds a paired interval needs for a half-width of ``target``.

    Projected from what the current worlds show (``row`` is :func:`paired_mean`'s or
    :func:`paired_proportion`'s result): the spread of the per-world differences for
    means and for chances with discordant worlds; for chances without any, the width of
    Tango's interval at zero discordant worlds (z^2 / (n + z^2)); for a flat sample,
    :func:`flat_bound`. None when more than ten million worlds would be needed.
    """
    if target <= 0:
        return None
    n = float(row["n"])
    z = float(sps.norm.ppf(1 - (1 - level) / 2))
    if row.get("kind") == "probability" or "b_only" in row and row.get("kind") is None:
        b_only, a_only = float(row["b_only"]), float(row["a_only"])
        if b_only + a_only > 0:
            var = (b_only + a_only) / n - ((b_only - a_only) / n) ** 2
            need = (z / target) ** 2 * var
        else:
            need = z * z * (1 - target) / target
    elif float(row.get("sd", 0.0)) > 0:
        need = (z * float(row["sd"]) / target) ** 2
        for _ in range(3):  # t instead of z at the projected size
            t = float(sps.t.ppf(1 - (1 - level) / 2, max(need - 1, 1)))
            need = (t * float(row["sd"]) / target) ** 2
    else:
        scale = (
            (float(row["high"]) - float(row["low"]))
            / 2
            / max(1 - ((1 - level) / 2) ** (1 / n), 1e-15)
        )
        if target >= scale:
            return 2
        need = math.log((1 - level) / 2) / math.log(1 - target / scale)
    return None if need > 1e7 else max(2, int(math.ceil(need)))
