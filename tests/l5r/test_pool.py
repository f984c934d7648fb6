"""Roll-and-keep pools (L5.CORE.1): keeping, exploding 10s, unskilled rolls, the ten dice rule."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.core.errors import DiceLimitError, DiceSyntaxError
from kassen.l5r.content import bundled_tables
from kassen.l5r.pool import Pool, chance, parse_pool, roll_pool, ten_dice
from kassen.l5r.tables import L5Tables

from .conftest import ScriptedRng


def test_roll_and_keep_keeps_the_highest_and_sums_them() -> None:
    # rule: L5.CORE.1 — XkY rolls X d10, keeps the Y highest, the result is their sum.
    r = roll_pool(Pool(5, 2), ScriptedRng([3, 9, 1, 7, 2]), "test")
    assert r.total == 16
    assert [d.kept for d in r.dice] == [False, True, False, True, False]


def test_a_ten_explodes_into_the_same_die_repeatedly() -> None:
    # rule: L5.CORE.1 — a 10 is rolled again and added, repeatedly, to the same die before keeping.
    r = roll_pool(Pool(3, 1), ScriptedRng([10, 10, 4, 9, 8]), "test")
    assert r.total == 24
    assert r.dice[0].faces == (10, 10, 4)
    assert r.next_highest() == 9  # the highest dropped die (a head Critical reads it: L5.HED.1)


def test_an_unskilled_roll_does_not_reroll_tens() -> None:
    # rule: L5.CORE.1 — unskilled rolls do not reroll 10s.
    r = roll_pool(Pool(2, 2, explode=False), ScriptedRng([10, 10]), "test")
    assert r.total == 20
    assert not any(d.exploded for d in r.dice)
    assert chance(Pool(2, 2, explode=False), 21) == 0
    assert chance(Pool(2, 2), 21) > 0


def test_exact_odds_match_the_known_roll_and_keep_value() -> None:
    # rule: L5.CORE.1 — 7k3 >= 25 is 60154863/10^8 with compounding explosions (DESIGN dice facts).
    assert chance(Pool(7, 3), 25) == Fraction(60154863, 100_000_000)
    assert chance(Pool(1, 1), 11) == Fraction(1, 10) * Fraction(1, 1)  # needs the 10 and then >= 1
    assert chance(Pool(1, 1), 12) == Fraction(1, 10) * Fraction(9, 10)


def test_a_pool_reduced_below_its_kept_dice_keeps_what_is_rolled() -> None:
    # rule: L5.CORE.1 — a pool never keeps more dice than it rolls; no dice rolls nothing.
    assert Pool(1, 2).normalized() == Pool(1, 1)
    r = roll_pool(Pool(0, 2), ScriptedRng([]), "test")
    assert r.total == 0 and chance(Pool(0, 2), 1) == 0


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("12k4", "10k5"),
        ("13k9", "10k10+2"),
        ("10k12", "10k10+4"),
        ("14k12", "10k10+12"),
        ("11k4", "10k4"),
        ("10k10", "10k10"),
        ("6k3", "6k3"),
    ],
)
def test_ten_dice_rule_house_default(given: str, expected: str, tables: L5Tables) -> None:
    # rule: L5.CORE.1 — the ten dice rule (house default, in core.yaml): no roll above ten dice.
    pool, _ = ten_dice(parse_pool(given), tables.core.ten_dice)
    assert pool.expression() == expected


def test_ten_dice_rule_can_be_switched_off(tables: L5Tables) -> None:
    # rule: L5.CORE.1 — the house default is data: enabled: false rolls every die.
    off = tables.core.ten_dice.model_copy(update={"enabled": False})
    assert ten_dice(Pool(12, 4), off)[0] == Pool(12, 4)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40))
def test_ten_dice_rule_never_rolls_or_keeps_more_than_ten(rolled: int, kept: int) -> None:
    # rule: L5.CORE.1 — whatever the pool, the rule leaves at most 10k10, and never lowers the bonus.
    t = bundled_tables().core.ten_dice
    kept = min(kept, max(rolled, 10))
    pool, _ = ten_dice(Pool(rolled, kept), t)
    assert pool.rolled <= 10 and pool.kept <= 10 and pool.bonus >= 0
    assert pool.kept >= min(kept, 10)
    if rolled <= 10 and kept <= 10:
        assert pool == Pool(rolled, kept)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.data())
def test_exact_chance_falls_as_the_tn_rises(rolled: int, data: st.DataObject) -> None:
    # rule: L5.CORE.2 — success is total >= TN, so the chance cannot rise with the TN.
    kept = data.draw(st.integers(1, rolled))
    tn = data.draw(st.integers(1, 50))
    explode = data.draw(st.booleans())
    pool = Pool(rolled, kept, explode)
    assert chance(pool, tn + 1) <= chance(pool, tn)
    assert chance(pool, kept) == 1


def test_parse_pool_errors_are_dice_errors() -> None:
    for bad in ("6x3", "0k1", "3k5", "k3", ""):
        with pytest.raises(DiceSyntaxError):
            parse_pool(bad)
    assert parse_pool("10k12") == Pool(10, 12)
    assert parse_pool("6k3+2", unskilled=True) == Pool(6, 3, False, 2)


def _fast_and_plain(rolled: int, kept: int, explode: bool, tns: range) -> None:
    from kassen.dice import probability_at_least
    from kassen.l5r.pool import _chance_plain, _kept_at_least, _kept_group, pool_dice

    expr = pool_dice(rolled, kept, explode)
    group = _kept_group(expr)
    assert group is not None
    deepest = tns[-1]
    plain_table = probability_at_least(expr, deepest)
    assert plain_table.error_bound == 0
    for tn in tns:
        # the deepest table reads every lower TN exactly (its cap is past each of them)
        assert _kept_at_least(group, tn) == (plain_table.at_least(tn), 0), (rolled, kept, explode, tn)
    for tn in (tns[0], (tns[0] + deepest) // 2, deepest):  # and the plain path at its own depth
        assert _kept_at_least(group, tn) == _chance_plain(expr, tn), (rolled, kept, tn)


@pytest.mark.parametrize("explode", [True, False])
def test_counted_chance_is_the_dice_engines_table_for_every_pool_up_to_ten_dice(explode: bool) -> None:
    # rule: L5.CORE.1, L5.CORE.2 — the counted chance (the fast path) is the dice engine's exact
    # table of the same expression, for every pool of the ten dice rule and every TN of up to two
    # explosions
    for rolled in range(1, 11):
        for kept in range(1, rolled + 1):
            _fast_and_plain(rolled, kept, explode, range(kept + 1, 30 + kept))


@pytest.mark.parametrize(("rolled", "kept"), [(1, 1), (3, 2), (6, 3), (10, 5), (10, 9), (10, 10)])
def test_counted_chance_holds_to_the_deepest_explosion_of_its_domain(rolled: int, kept: int) -> None:
    # rule: L5.CORE.1, L5.CORE.2 — at the corners of the fast path's domain (FAST_MAX_DEPTH), the dice
    # engine's table is exact and within its limits, and the counted chance is that table's; beyond
    # it, the chance is the dice engine's (its answer, or its refusal)
    from kassen.l5r.pool import FAST_MAX_DEPTH, _chance, _chance_plain, _depth, _kept_group, pool_dice

    expr = pool_dice(rolled, kept, True)
    group = _kept_group(expr)
    assert group is not None
    top = 10 * (FAST_MAX_DEPTH + 1) + kept - 1  # the highest TN of the domain
    assert _depth(group, top) == FAST_MAX_DEPTH and _depth(group, top + 1) == FAST_MAX_DEPTH + 1
    _fast_and_plain(rolled, kept, True, range(top - 12, top + 1))
    try:
        beyond = _chance_plain(expr, top + 1)
    except DiceLimitError:
        with pytest.raises(DiceLimitError):
            _chance.__wrapped__(rolled, kept, True, top + 1)
    else:
        assert _chance.__wrapped__(rolled, kept, True, top + 1) == beyond


def test_pools_beyond_ten_dice_are_the_dice_engines_table() -> None:
    # rule: L5.CORE.1 — a pool the counting does not cover (more than ten dice) reads the engine's table
    from kassen.l5r.pool import _chance, _chance_plain, _kept_group, pool_dice

    assert _kept_group(pool_dice(11, 3, True)) is None
    assert _chance.__wrapped__(11, 3, True, 30) == _chance_plain(pool_dice(11, 3, True), 30)


def test_a_tn_past_the_exact_range_is_a_bound_never_an_exact_zero() -> None:
    # rule: L5.CORE.1 — 10s explode without end: 6k3 can reach any TN. Past the dice engine's work limit
    # the chance is read within a bound, and said so (it was reported as an exact 0 at TN 500).
    from kassen.l5r.pool import chance, error_bound

    pool = parse_pool("6k3")
    assert error_bound(pool, 480) == 0 and chance(pool, 480) > 0  # still exact: 3.98e-43
    bound = error_bound(pool, 500)
    assert bound > 0 and chance(pool, 500) < chance(pool, 480) <= bound
