"""The mean of a roll-and-keep pool, counted (``kassen.l5r.pool._kept_mean``), is exactly the mean of the
dice engine's table of the same pool (one icepool pool evaluation each, which is why the counting
exists): the heuristic weighs every declaration by these means."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kassen.core.errors import DiceLimitError
from kassen.dice import distribution
from kassen.dice.limits import DEFAULT_LIMITS, DiceLimits
from kassen.l5r.pool import Pool, chance, mean, outcomes, pool_dice

# corners of the domain: one die, all dice kept, one kept of ten, the middle, unskilled (no explosion)
CORNERS = [
    (1, 1, True),
    (2, 1, True),
    (4, 4, True),
    (10, 1, True),
    (6, 3, True),
    (3, 2, False),
    (10, 10, False),
]


#: The engine's limits with room for the largest pools' tables (8k6 and up, exploding, need ~1.1M steps).
ROOMY = DiceLimits(
    **{n: getattr(DEFAULT_LIMITS, n) for n in DiceLimits.__match_args__} | {"max_exact_work": 10**8}
)


def _table_mean(rolled: int, kept: int, explode: bool) -> Fraction:
    try:
        return distribution(pool_dice(rolled, kept, explode)).mean
    except DiceLimitError:  # refused under the default limits: the same table, built with more room
        return distribution(pool_dice(rolled, kept, explode), limits=ROOMY).mean


@pytest.mark.parametrize(("rolled", "kept", "explode"), CORNERS)
def test_the_counted_mean_is_the_tables(rolled: int, kept: int, explode: bool) -> None:
    # rule: L5.CORE.1 — roll X dice, keep the Y highest, tens explode (not unskilled): the expected total
    assert mean(Pool(rolled, kept, explode)) == _table_mean(rolled, kept, explode)


def test_a_pool_too_large_for_the_table_has_its_mean() -> None:
    # rule: L5.CORE.1 — a damage pool of 8k6 (a strong blow with raises) is a pool like any other: the
    # table of its total is refused under the default limits (so the heuristic's mean used to raise),
    # the counted mean is exact
    with pytest.raises(DiceLimitError):
        distribution(pool_dice(8, 6, True))
    assert mean(Pool(8, 6, True)) == distribution(pool_dice(8, 6, True), limits=ROOMY).mean


def test_the_bonus_adds_and_plain_means_are_known() -> None:
    # rule: L5.CORE.1 — unskilled: plain d10s, so 3k3 is 3 x 5.5 and 1k1 is 5.5; a bonus adds to the total
    assert mean(Pool(3, 3, False)) == Fraction(33, 2)
    assert mean(Pool(1, 1, False, 4)) == Fraction(11, 2) + 4
    # keeping the highest of two plain d10s: E[max] = sum over v of P(max >= v) = sum (1 - ((v-1)/10)^2)
    assert mean(Pool(2, 1, False)) == sum(1 - Fraction(v - 1, 10) ** 2 for v in range(1, 11))
    # an exploding d10 (compounding, capped at the engine's depth) is worth a little more than 5.5 * 10/9
    assert abs(float(mean(Pool(1, 1, True))) - 55 / 9) < 1e-11


@pytest.mark.slow
@pytest.mark.parametrize("explode", [True, False])
@pytest.mark.parametrize("rolled", range(1, 11))
def test_every_pool_of_ten_dice(rolled: int, explode: bool) -> None:
    # rule: L5.CORE.1 — every pool the ten dice rule allows, every number kept, both ways of rolling
    for kept in range(1, rolled + 1):
        assert mean(Pool(rolled, kept, explode)) == _table_mean(rolled, kept, explode), (rolled, kept)


def test_the_largest_pools_have_their_tables() -> None:
    # rule: L5.CORE.1 — the ten dice rule bounds a pool at ten dice, and every such pool has its exact
    # distribution (an attack's menu preview reads the damage pool's): 8k6, whose table the engine's
    # default work limit refuses, sums to 1 and has the counted mean; its chance of a high TN is read
    big = Pool(8, 6, True)
    table = outcomes(big)
    assert sum(q for _, q in table) == 1
    assert sum(v * q for v, q in table) == mean(big)
    assert 0 < chance(big, 150) < chance(big, 60) < 1
