"""Checks: 2d10 + modifier >= target, doubles, opposed checks, die sources (SG.CHK.*)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.core.errors import KassenError
from kassen.core.rng import Rng
from kassen.dice import roll
from kassen.sengoku.check import (
    CheckKind,
    CheckOutcome,
    ScriptedDice,
    TieRule,
    classify,
    resolve_check,
    resolve_opposed,
    roll_check,
    roll_faces,
    roll_opposed,
)

faces = st.integers(min_value=1, max_value=10)


def test_check_succeeds_when_total_reaches_the_target() -> None:
    # rule: SG.CHK.1
    at = resolve_check((4, 5), 3, 12)
    assert (at.total, at.success) == (12, True)
    below = resolve_check((4, 5), 3, 13)
    assert (below.total, below.success) == (12, False)
    assert any(s.rule == "SG.CHK.1" for s in at.steps)


@given(a=faces, b=faces, modifier=st.integers(-10, 10), target=st.integers(-5, 35))
def test_check_is_2d10_plus_modifier_against_the_target(a: int, b: int, modifier: int, target: int) -> None:
    # rule: SG.CHK.1
    c = resolve_check((a, b), modifier, target)
    assert c.total == a + b + modifier
    assert c.success is (a + b + modifier >= target)


@given(a=faces, b=faces)
def test_a_double_is_two_d10_showing_the_same_face(a: int, b: int) -> None:
    # rule: SG.CHK.2
    c = resolve_check((a, b), 0, 11)
    assert c.double is (a == b)
    assert any(s.rule == "SG.CHK.2" for s in c.steps) is (a == b)


def test_rolled_faces_are_the_dice_engines_faces_and_doubles_agree() -> None:
    # rule: SG.CHK.2 — roll_faces draws like kassen.dice.roll("2d10"), so doubles agree with is_double()
    for seed in range(200):
        mine = roll_faces(Rng(seed))
        theirs = roll("2d10", Rng(seed))
        assert mine == tuple(d.face for d in theirs.dice)
        assert resolve_check(mine, 0, 11).double is theirs.is_double()


def test_roll_check_is_reproducible_from_a_seed() -> None:
    # rule: SG.CHK.1
    assert roll_check(3, 12, Rng(196)).faces == (10, 10)
    assert roll_check(3, 12, Rng(142)).faces == (1, 1)
    assert roll_check(3, 12, Rng(7)) == roll_check(3, 12, Rng(7))


def test_classify_plain_rolls_have_no_double_meaning() -> None:
    # rule: SG.CHK.2
    assert classify(resolve_check((3, 8), 0, 11)).outcome is CheckOutcome.SUCCESS
    assert classify(resolve_check((3, 7), 0, 11)).outcome is CheckOutcome.FAILURE


def test_opposed_check_higher_total_wins() -> None:
    # rule: SG.CHK.3
    r = resolve_opposed((6, 6), 1, (5, 5), 2, tie=TieRule.SECOND)
    assert r.winner == "first" and (r.first.total, r.second.total) == (13, 12)
    r = resolve_opposed((1, 2), 5, (9, 9), 0, tie=TieRule.FIRST)
    assert r.winner == "second"


@pytest.mark.parametrize(
    ("tie", "winner"), [(TieRule.FIRST, "first"), (TieRule.SECOND, "second"), (TieRule.NONE, None)]
)
def test_opposed_check_ties_follow_the_rule_the_caller_states(tie: TieRule, winner: str | None) -> None:
    # rule: SG.CHK.3 — e.g. pursuit: the retreater (first) wins ties
    r = resolve_opposed((5, 5), 1, (6, 4), 1, tie=tie)
    assert r.first.total == r.second.total == 11
    assert r.winner == winner
    assert r.steps[0].rule == "SG.CHK.3"


@given(a=faces, b=faces, c=faces, d=faces, m=st.integers(-5, 5), n=st.integers(-5, 5))
def test_opposed_check_is_two_checks_compared(a: int, b: int, c: int, d: int, m: int, n: int) -> None:
    # rule: SG.CHK.3
    r = resolve_opposed((a, b), m, (c, d), n, tie=TieRule.NONE)
    x, y = a + b + m, c + d + n
    assert r.winner == ("first" if x > y else "second" if y > x else None)
    assert r.first.double is (a == b) and r.second.double is (c == d)


def test_roll_opposed_draws_first_side_then_second() -> None:
    # rule: SG.CHK.3
    r = roll_opposed(0, 0, ScriptedDice([2, 3, 9, 9]), tie=TieRule.FIRST)
    assert r.first.faces == (2, 3) and r.second.faces == (9, 9) and r.winner == "second"


def test_scripted_dice_refuse_missing_or_impossible_faces() -> None:
    with pytest.raises(KassenError, match="no scripted face is left"):
        ScriptedDice([]).die(10)
    with pytest.raises(KassenError, match="not a face of a d10"):
        ScriptedDice([11]).die(10)


def test_bad_faces_are_a_kassen_error() -> None:
    with pytest.raises(KassenError, match="two d10 faces"):
        resolve_check((0, 5), 0, 10)


def test_non_attack_checks_ignore_doubles_by_default() -> None:
    # rule: SG.RD.4 — doubles (critical/fumble) apply to attack checks only (house default)
    c = resolve_check((2, 2), 0, 11)
    assert classify(c, kind=CheckKind.ATTACK).outcome is CheckOutcome.FUMBLE
    for kind in (CheckKind.DEATH, CheckKind.COHESION, CheckKind.PURSUIT, CheckKind.OTHER):
        assert classify(c, kind=kind).outcome is CheckOutcome.FAILURE
