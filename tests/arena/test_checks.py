"""3d6 checks, criticals, quick contests and their exact odds (AR.CORE.1, AR.CORE.2)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.arena.checks import (
    ScriptedDice,
    check_odds,
    contest_odds,
    effective_target,
    resolve_check,
    resolve_contest,
    roll_check,
)
from kassen.arena.content import load_rules
from kassen.core.errors import KassenError
from kassen.core.explain import Step


def test_roll_under_succeeds_at_or_below_target_with_signed_margin() -> None:
    # rule: AR.CORE.1
    c = resolve_check((3, 4, 5), 12)
    assert (c.roll, c.success, c.margin, c.margin_of_failure) == (12, True, 0, 0)
    c = resolve_check((4, 4, 5), 10)
    assert (c.roll, c.success, c.margin, c.margin_of_failure) == (13, False, -3, 3)
    assert all(s.rule == "AR.CORE.1" for s in c.steps)


@pytest.mark.parametrize(
    ("faces", "target", "success", "critical"),
    [
        ((1, 1, 1), 3, True, True),  # 3 always a critical success
        ((1, 1, 2), -5, True, True),  # 4 succeeds whatever the target
        ((1, 2, 2), 14, True, False),  # 5 is critical only at 15+
        ((1, 2, 2), 15, True, True),
        ((2, 2, 2), 15, True, False),  # 6 only at 16+
        ((2, 2, 2), 16, True, True),
        ((6, 6, 6), 25, False, True),  # 18 always fails, critically
        ((6, 6, 5), 15, False, True),  # 17 critical unless target 16+
        ((6, 6, 5), 16, False, False),
        ((6, 6, 5), 30, False, False),  # 17 always fails
        ((4, 4, 5), 3, False, True),  # failure by 10
        ((4, 4, 4), 3, False, False),  # failure by 9
    ],
)
def test_criticals_follow_the_core_default(
    faces: tuple[int, int, int], target: int, success: bool, critical: bool
) -> None:
    # rule: AR.CORE.1
    c = resolve_check(faces, target)
    assert (c.success, c.critical) == (success, critical)


def test_critical_rows_are_data_and_overridable() -> None:
    # rule: AR.CORE.1 (CORE default kept in data/checks.yaml, overridable)
    rules = load_rules({"checks": {"criticals": {"failure_by_margin": 5}}}).checks
    assert resolve_check((3, 3, 3), 4, rules=rules).critical  # fails by 5
    assert not resolve_check((3, 3, 3), 4).critical
    assert load_rules().checks.criticals.house_default.rule == "AR.CORE.1"


def test_check_needs_three_d6_faces() -> None:
    with pytest.raises(KassenError):
        resolve_check((1, 2), 10)
    with pytest.raises(KassenError):
        resolve_check((1, 2, 7), 10)


def test_effective_target_sums_modifiers_with_their_rules() -> None:
    target, steps = effective_target(12, "DX", [Step(-3, "shock", "AR.INJ.2"), Step(0, "nothing", "")])
    assert target == 9
    assert [s.value for s in steps] == [12, -3, 9]


def test_roll_check_draws_three_faces() -> None:
    dice = ScriptedDice([1, 2, 3, 6])
    assert roll_check(10, dice).roll == 6
    assert dice.remaining == (6,)


def test_odds_are_exact_fractions_over_216_and_match_brute_force() -> None:
    # rule: AR.CORE.1
    for target in range(-2, 22):
        odds = check_odds(target)
        counts = [0, 0, 0]
        for faces in itertools.product(range(1, 7), repeat=3):
            c = resolve_check(faces, target)
            counts[0] += c.success
            counts[1] += c.critical_success
            counts[2] += c.critical_failure
        assert odds.counts[:3] == tuple(counts)
        assert odds.success == Fraction(counts[0], 216)
        assert odds.success + odds.failure == 1
        assert all(
            isinstance(p, Fraction) and (216 % p.denominator == 0)
            for p in (odds.success, odds.critical_success, odds.critical_failure)
        )


def test_known_odds_of_ten_and_sixteen() -> None:
    # rule: AR.CORE.1
    assert check_odds(10).counts == (108, 4, 4, 108)
    assert check_odds(16).counts == (212, 20, 1, 4)
    assert check_odds(3).counts == (4, 4, 56, 212)


def test_quick_contest_compares_margins_and_gives_the_margin_of_loss() -> None:
    # rule: AR.CORE.2
    a = resolve_check((3, 3, 3), 12)  # +3
    b = resolve_check((4, 4, 4), 10)  # -2
    r = resolve_contest(a, b)
    assert (r.winner, r.margin_of_loss) == ("first", 5)
    r = resolve_contest(b, a)
    assert (r.winner, r.margin_of_loss) == ("second", 5)
    both_fail = resolve_contest(resolve_check((6, 6, 1), 10), resolve_check((6, 6, 2), 10))
    assert (both_fail.winner, both_fail.margin_of_loss) == ("first", 1)  # failed by less wins
    tie = resolve_contest(resolve_check((3, 3, 3), 10), resolve_check((2, 2, 2), 7))
    assert (tie.winner, tie.margin_of_loss) == (None, 0)  # house default: nobody wins a tie


def test_contest_odds_are_exact_and_brute_force() -> None:
    # rule: AR.CORE.2
    o = contest_odds(12, 9)
    assert o.first + o.second + o.tie == 1
    wins = 0
    totals = [sum(f) for f in itertools.product(range(1, 7), repeat=3)]
    for a in totals:
        for b in totals:
            wins += (12 - a) > (9 - b)
    assert o.first == Fraction(wins, 216 * 216)
    assert contest_odds(10, 10).first == contest_odds(10, 10).second


@given(st.integers(-5, 25))
def test_odds_are_monotone_in_the_target(target: int) -> None:
    # rule: AR.CORE.1
    assert check_odds(target).success <= check_odds(target + 1).success


def test_checks_judged_by_total_are_the_checks_judged_afresh() -> None:
    # rule: AR.CORE.1 — a check remembered by its total's outcome (success, critical) is the very check
    # judged from its faces, for every roll of 3d6 at every target, in any order of asking

    from kassen.arena.checks import CheckResult as Result
    from kassen.arena.checks import (
        _check_outcomes,
        check_is_critical,
        check_outcomes,
        check_succeeds,
    )
    from kassen.arena.checks import resolve_check as resolve
    from kassen.arena.content import load_rules as rules_of

    r = rules_of().checks
    r.memos.judged.clear()
    for target in range(-4, 26):
        assert check_outcomes(target, rules=r) == _check_outcomes(target, r)
        for faces in itertools.product(range(1, 7), repeat=3):
            roll = sum(faces)
            success = check_succeeds(roll, target, r.criticals)
            critical = check_is_critical(roll, target, success, r.criticals)
            plain = Result(faces, roll, target, success, target - roll, critical, "check")
            assert resolve(faces, target, rules=r) == plain


def test_a_resolved_check_is_the_record_of_its_own_fields() -> None:
    # rule: AR.CORE.1 — the result written over a template (checks._check_result) is the very record the
    # class call makes, for every total against every target, and leaves the template as it was
    from kassen.arena import checks
    from kassen.arena.checks import CheckResult

    criticals = load_rules().checks.criticals
    for faces in itertools.product(range(1, 7), repeat=3):
        for target in (3, 9, 10, 16, 18):
            got = resolve_check(faces, target, label="death check")
            roll = sum(faces)
            success = checks.check_succeeds(roll, target, criticals)
            critical = checks.check_is_critical(roll, target, success, criticals)
            assert type(got) is CheckResult
            assert got == CheckResult(faces, roll, target, success, target - roll, critical, "death check")
    assert CheckResult((), 0, 0, False, 0, False) == checks._CHECK
