"""`l5r odds` is exact and agrees with a 200,000-roll Monte Carlo within 4 standard errors.

The sampler below is written from the rule text alone (L5.CORE.1: roll X d10, a 10 is rolled again and
added to the same die, keep the Y highest) and draws from the project's one RNG. It is checked to give
exactly the totals of the shared dice roller for the same seed, so the Monte Carlo also tests the roller.
The full grid (X <= 10, Y <= X, TN 5..45 by 5, with and without explosions) is marked slow; a few cells
run in the default suite, each with the full 200,000 rolls.

For rare events the normal approximation is poor, so the allowed gap is 4 standard errors (from the
exact p) plus one roll's worth (1/n), a continuity correction.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from kassen.core.rng import Rng
from kassen.l5r.calc import roll_odds
from kassen.l5r.pool import Pool, chance, roll_pool

N = 200_000
TNS = range(5, 46, 5)


def sample_totals(rolled: int, kept: int, explode: bool, n: int, seed: int) -> list[int]:
    rng = Rng(seed)
    below = rng.below
    totals = []
    for _ in range(n):
        dice = []
        for _ in range(rolled):
            face = below(10) + 1
            value = face
            while explode and face == 10:
                face = below(10) + 1
                value += face
            dice.append(value)
        dice.sort(reverse=True)
        totals.append(sum(dice[:kept]))
    return totals


def check_cell(totals: list[int], pool: Pool, tn: int) -> None:
    n = len(totals)
    p = chance(pool, tn)
    hits = sum(1 for t in totals if t >= tn)
    se = math.sqrt(float(p * (1 - p)) / n)
    gap = abs(hits / n - float(p))
    assert gap <= 4 * se + 1 / n, f"{pool} TN {tn}: exact {float(p):.6f}, sampled {hits / n:.6f}, se {se:.2e}"


def test_the_sampler_reproduces_the_dice_roller_exactly() -> None:
    # rule: L5.CORE.1 — the roller and the rule-text sampler agree die for die on the same seed.
    for rolled, kept, explode in ((6, 3, True), (10, 4, True), (5, 5, False)):
        rng = Rng(99)
        rolls = [roll_pool(Pool(rolled, kept, explode), rng, "t").total for _ in range(2000)]
        assert rolls == sample_totals(rolled, kept, explode, 2000, 99)


@pytest.mark.parametrize(("rolled", "kept", "explode"), [(7, 3, True), (10, 10, True), (4, 2, False)])
def test_odds_agree_with_monte_carlo_sample(rolled: int, kept: int, explode: bool) -> None:
    # rule: L5.CORE.1 — exact odds with and without explosions agree with 200,000 rolls (a few cells).
    totals = sample_totals(rolled, kept, explode, N, seed=rolled * 100 + kept)
    for tn in (15, 25, 35, 45) if explode else (5, 10, 15):
        check_cell(totals, Pool(rolled, kept, explode), tn)


@pytest.mark.slow
@pytest.mark.parametrize("explode", [True, False])
@pytest.mark.parametrize("rolled", range(1, 11))
def test_odds_agree_with_monte_carlo_full_grid(rolled: int, explode: bool) -> None:
    # rule: L5.CORE.2 — the whole grid X <= 10, Y <= X, TN <= 45, 200,000 rolls per pool.
    for kept in range(1, rolled + 1):
        totals = sample_totals(rolled, kept, explode, N, seed=1000 * rolled + 10 * kept + explode)
        for tn in TNS:
            check_cell(totals, Pool(rolled, kept, explode), tn)


def test_odds_reach_tn_plus_five_per_raise() -> None:
    # rule: L5.CORE.3 — each declared raise adds 5 to the TN the roll must reach.
    r = roll_odds("6k3", 20, raises=2)
    assert r.target == 30
    assert r.fraction == chance(Pool(6, 3), 30)
    assert r.to_json()["fraction"] == f"{r.fraction.numerator}/{r.fraction.denominator}"
    assert roll_odds("6k3", 20, unskilled=True).fraction == chance(Pool(6, 3, False), 20)
    assert roll_odds("1k1", 1).fraction == Fraction(1)
