"""The lab's statistics, each a small pure function: intervals for rates and means, an interval for a
rate of attempts *clustered by fight*, paired and unpaired differences, and the anytime-valid test
that lets a run stop as soon as its question is decided.

* :func:`wilson`: the Wilson score interval of k successes in n independent trials (a side's wins over
  fights: each fight is one trial).
* :func:`clustered`: a rate of attempts made within fights (an attack's success). Attempts in one fight
  are not independent — the same fighters, wounded or not, the same stances — so the variance of the
  rate is estimated from the fights (the cluster-robust, "sandwich" variance of a ratio); the Wilson
  interval is then taken on the *effective* number of attempts (attempts over the design effect,
  never more than the attempts themselves).
* :func:`mean_interval`: the mean of a per-fight count (Wounds dealt) with its normal 95% interval
  over fights, cut at the least value a count takes (0).
* :func:`paired` and :func:`unpaired`: the difference of two win rates measured on the same seeds,
  with the paired interval (Newcombe's score interval for paired proportions, which uses how often
  the two outcomes agree) and, for comparison, the interval that ignores the pairing (Newcombe's
  hybrid score interval for independent proportions). Both are built from Wilson intervals, so they
  stay within -1..1 (-100..100 points) and are not degenerate at 0 or n wins.
* :class:`Decide`: does a rate lie above or below a given value? A *confidence sequence* (the
  beta-binomial mixture martingale, after Robbins) answers it at error at most ``alpha`` however
  often the run looks, so a run may stop at the first look that decides.
"""

from __future__ import annotations

__all__ = [
    "DIGITS",
    "Z95",
    "Decide",
    "Diff",
    "clustered",
    "confidence_sequence",
    "mean_interval",
    "paired",
    "unpaired",
    "wilson",
]

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Digits kept in rates and means (so JSON stays readable; the same fights always give the same digits).
DIGITS = 6


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (``(0, 1)`` when ``n`` is 0)."""
    lo, hi = _wilson(k, n, z)
    return max(0.0, round(lo, DIGITS)), min(1.0, round(hi, DIGITS))


def _wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, k / n))
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


def clustered(
    attempts: float, successes: float, clusters: int, sq_attempts: float, sq_successes: float, cross: float
) -> tuple[tuple[float, float], float]:
    """The 95% interval of a rate of ``successes`` in ``attempts`` made in ``clusters`` fights, from the
    fights' sums (``sq_attempts`` = Σaᵢ², ``sq_successes`` = Σsᵢ², ``cross`` = Σaᵢsᵢ), and the design
    effect (the variance over the variance independent attempts would have, at least 1)."""
    if attempts <= 0:
        return (0.0, 1.0), 1.0
    p = successes / attempts
    deff = 1.0
    if clusters > 1 and 0 < p < 1:
        # Σ(sᵢ - p aᵢ)², the residuals of the ratio estimator, over the clusters
        resid = sq_successes - 2 * p * cross + p * p * sq_attempts
        var = clusters / (clusters - 1) * max(0.0, resid) / (attempts * attempts)
        deff = max(1.0, var / (p * (1 - p) / attempts))
    return wilson(successes / deff, attempts / deff), round(deff, 4)


def mean_interval(
    total: float, squares: float, n: int, least: float = 0.0
) -> tuple[float | None, tuple[float, float] | None]:
    """The mean of a per-fight quantity over ``n`` fights (Σx = ``total``, Σx² = ``squares``) and its
    normal 95% interval (None with fewer than two fights), cut at ``least``, the least value the
    quantity takes (0 for a count: a mean of Wounds is never negative, however few fights had any)."""
    if n <= 0:
        return None, None
    mean = total / n
    if n < 2:
        return round(mean, DIGITS), None
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(var / n)
    return round(mean, DIGITS), (round(max(least, mean - half), DIGITS), round(mean + half, DIGITS))


@dataclass(frozen=True, slots=True)
class Diff:
    """A difference of two rates over ``n`` seeds, with its 95% interval; ``significant`` when the
    interval excludes 0."""

    n: int
    difference: float
    ci95: tuple[float, float]

    @property
    def significant(self) -> bool:
        lo, hi = self.ci95
        return lo > 0 or hi < 0

    @property
    def half_width(self) -> float:
        return (self.ci95[1] - self.ci95[0]) / 2


def paired(a: Sequence[float], b: Sequence[float]) -> Diff | None:
    """``mean(a) - mean(b)`` of outcomes on the same seeds (``a[i]`` and ``b[i]`` come from seed i, each 1
    for a win and 0 otherwise), with Newcombe's score interval for a difference of paired proportions
    (1998, method 10): the two rates' Wilson intervals, combined with the correlation of the outcomes
    on a seed, so the more often a change leaves a fight's outcome as it was, the narrower the interval.
    It never leaves -1..1. None when no seed is shared."""
    n = min(len(a), len(b))
    if n == 0:
        return None
    x, y = a[:n], b[:n]
    if any(v not in (0, 1) for v in (*x, *y)):
        raise ValueError("paired() takes outcomes of 0 or 1")
    both = sum(1 for u, v in zip(x, y, strict=True) if u and v)
    only_a = sum(1 for u, v in zip(x, y, strict=True) if u and not v)
    only_b = sum(1 for u, v in zip(x, y, strict=True) if v and not u)
    neither = n - both - only_a - only_b
    pa, pb = (both + only_a) / n, (both + only_b) / n
    (la, ua), (lb, ub) = _wilson(both + only_a, n), _wilson(both + only_b, n)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    below = (pa - la) ** 2 - 2 * phi * (pa - la) * (ub - pb) + (ub - pb) ** 2
    above = (ua - pa) ** 2 - 2 * phi * (ua - pa) * (pb - lb) + (pb - lb) ** 2
    return _diff(n, pa - pb, below, above)


def unpaired(a: Sequence[float], b: Sequence[float]) -> Diff | None:
    """The same difference with the interval of two independent samples (the pairing ignored):
    Newcombe's hybrid score interval (1998, method 10), from the two rates' Wilson intervals."""
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        return None
    pa, pb = sum(a) / na, sum(b) / nb
    (la, ua), (lb, ub) = _wilson(sum(a), na), _wilson(sum(b), nb)
    below = (pa - la) ** 2 + (ub - pb) ** 2
    above = (ua - pa) ** 2 + (pb - lb) ** 2
    return _diff(min(na, nb), pa - pb, below, above)


def _diff(n: int, d: float, below: float, above: float) -> Diff:
    """A difference ``d`` and its interval ``d - sqrt(below) .. d + sqrt(above)``, within -1..1."""
    lo = max(-1.0, d - math.sqrt(max(0.0, below)))
    hi = min(1.0, d + math.sqrt(max(0.0, above)))
    return Diff(n, round(d, DIGITS), (round(lo, DIGITS), round(hi, DIGITS)))


# -- deciding as the fights come ---------------------------------------------------------------------
def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _log_likelihood(k: int, n: int, p: float) -> float:
    return (k * math.log(p) if k else 0.0) + ((n - k) * math.log(1 - p) if n - k else 0.0)


def _evidence(k: int, n: int) -> float:
    """log of the mixture's evidence: the likelihood under a uniform prior, B(1 + k, 1 + n - k)."""
    return math.lgamma(1 + k) + math.lgamma(1 + n - k) - math.lgamma(2 + n)


def confidence_sequence(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The anytime-valid ``1 - alpha`` interval of a rate after ``k`` successes in ``n`` trials: every
    ``p`` at which the beta-binomial mixture martingale (a uniform prior over the rate, divided by the
    likelihood at ``p``) stays below ``1/alpha``. By Ville's inequality the true rate leaves it with
    probability at most ``alpha`` at *any* time, so it may be looked at after every batch. The
    likelihood is unimodal in ``p``, so the set is an interval around ``k/n``."""
    if n <= 0:
        return 0.0, 1.0
    floor = _evidence(k, n) - math.log(1 / alpha)  # p is inside while its log-likelihood is above this

    def inside(p: float) -> bool:
        return _log_likelihood(k, n, p) > floor

    eps = 1e-12
    centre = min(1 - eps, max(eps, k / n))

    def edge(outer: float, end: float) -> float:
        if inside(outer):
            return end
        lo, hi = centre, outer  # inside at lo, outside at hi
        for _ in range(60):
            mid = (lo + hi) / 2
            if inside(mid):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    return max(0.0, round(edge(eps, 0.0), DIGITS)), min(1.0, round(edge(1 - eps, 1.0), DIGITS))


@dataclass(frozen=True, slots=True)
class Decide:
    """Is a rate above or below ``rate``? Decided when ``rate`` leaves the anytime-valid confidence
    sequence (:func:`confidence_sequence`): the answer is wrong with probability at most ``alpha``,
    whatever the true rate and however many looks (a true rate equal to ``rate`` is never decided but
    with probability ``alpha``)."""

    rate: float
    alpha: float = 0.05

    def verdict(self, k: int, n: int) -> str | None:
        """``above``, ``below`` or None (not decided yet)."""
        if n <= 0 or not 0 < self.rate < 1:
            return None
        if _log_likelihood(k, n, self.rate) > _evidence(k, n) - math.log(1 / self.alpha):
            return None  # the rate is still inside the confidence sequence
        return "above" if k / n > self.rate else "below"
