"""One chance rule (DESIGN principle 4): the odds walk every outcome through the functions the bout
resolves rolls with, so they follow the data's tie reading in the quick contest (AR.CORE.2) and cannot
drift from the engine (AR.CORE.1, AR.GAP.2)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from kassen.arena.bout import Attack
from kassen.arena.checks import check_outcomes, contest_odds, resolve_attack, resolve_check, resolve_contest
from kassen.arena.content import load_rules
from kassen.arena.odds import AttackRollOdds, _rolled, hit_chance
from kassen.arena.rules import CheckRules

from .helpers import begun, fighter, find, step

FACES = list(itertools.product(range(1, 7), repeat=3))  # the 216 equally likely rolls of 3d6
TIES = ["none", "first", "second"]


def tie_rules(tie: str):  # type: ignore[no-untyped-def]
    return load_rules({"checks": {"contest": {"tie_winner": tie}}})


def test_check_outcomes_are_resolve_check_for_every_roll() -> None:
    # rule: AR.CORE.1
    for target in (-3, 5, 10, 16, 25):
        by_total = {c.roll: (c.success, c.critical, c.margin) for c, _ in check_outcomes(target)}
        counts = Counter(sum(f) for f in FACES)
        assert {c.roll: n for c, n in check_outcomes(target)} == counts
        for f in FACES:
            c = resolve_check(f, target)
            assert by_total[c.roll] == (c.success, c.critical, c.margin)


@pytest.mark.parametrize("tie", TIES)
def test_contest_odds_are_the_engines_contests_over_all_216_x_216_outcomes(tie: str) -> None:
    # rule: AR.CORE.2 — the tie goes where contest.tie_winner says, in the odds as in the engine
    rules = tie_rules(tie).checks
    for first_target, second_target in [(12, 9), (10, 10), (10, 8)]:
        firsts = [resolve_check(f, first_target, rules=rules) for f in FACES]
        seconds = [resolve_check(f, second_target, rules=rules) for f in FACES]
        wins = Counter(resolve_contest(a, b, rules=rules).winner for a in firsts for b in seconds)
        odds = contest_odds(first_target, second_target, rules=rules)
        total = len(FACES) ** 2
        assert (odds.first, odds.second, odds.tie) == (
            Fraction(wins["first"], total),
            Fraction(wins["second"], total),
            Fraction(wins[None], total),
        )
        assert odds.tie == 0 if tie != "none" else odds.tie > 0


@pytest.mark.parametrize("tie", TIES)
def test_hit_chance_is_the_engines_attack_over_all_216_x_216_outcomes(tie: str) -> None:
    # rule: AR.CORE.2, AR.GAP.2 — the attack's hit rule (criticals, defence, the quick contest) as the
    # bout resolves it, for every attack roll and every defence roll
    rules = tie_rules(tie)
    for attack, defense in [(12, 10), (14, 8), (9, 12)]:
        attacks = [resolve_check(f, attack, rules=rules.checks) for f in FACES]
        defences = [resolve_check(f, defense, rules=rules.checks) for f in FACES]
        hits = sum(
            resolve_attack(a, lambda d=d: d, rules=rules.checks).hit for a in attacks for d in defences
        )
        assert hit_chance(attack, defense, rules) == Fraction(hits, len(FACES) ** 2)
        undefended = sum(resolve_attack(a, None, rules=rules.checks).hit for a in attacks)
        assert hit_chance(attack, None, rules) == Fraction(undefended, len(FACES))


def test_the_tie_reading_moves_the_odds_it_used_to_ignore() -> None:
    # rule: AR.CORE.2 — the odds once hard-coded "the higher margin wins": 4445/7776 whatever the data
    assert hit_chance(12, 10, tie_rules("none")) == Fraction(4445, 7776)
    assert hit_chance(12, 10, tie_rules("first")) == Fraction(4883, 7776)
    assert contest_odds(10, 8, rules=tie_rules("first").checks).first == Fraction(11207, 15552)


@pytest.mark.parametrize(("tie", "hit"), [("none", False), ("first", True), ("second", False)])
def test_the_bout_resolves_a_tied_contest_by_the_same_reading(tie: str, hit: bool) -> None:
    # rule: AR.CORE.2 — skill 14 rolls 12 (+2), defence 8 rolls 6 (+2): a tie
    rules = tie_rules(tie)
    a, b = fighter("a", "east", dx=12, skill=14), fighter("b", "west", defense=8)
    faces = [4, 4, 4, 2, 2, 2, *([1] if hit else [])]  # a hit rolls the club's 1d6
    _, events = step(begun(a, b, rules=rules), Attack("a", "b", "torso"), faces, rules)
    [contest] = find(events, "quick_contest")
    assert contest.data["winner"] == (None if tie == "none" else tie)
    assert find(events, "attack")[0].data["hit"] is hit


@pytest.mark.parametrize(
    "layer",
    [
        {"contest": {"tie_winner": "none"}},
        {"contest": {"tie_winner": "first"}},
        {"contest": {"tie_winner": "second"}},
        {"contest": {"defender_critical": "wins_outright"}},
        {"contest": {"defender_critical": "wins_outright", "tie_winner": "first"}},
    ],
)
def test_attack_roll_tallies_by_pair_class_are_every_pair_resolved(layer: dict[str, object]) -> None:
    # rule: AR.CORE.2, AR.GAP.2, AR.RD.9 — the fast path (one resolve_attack per class of pair) gives
    # the very fractions of resolving every pair, at every attack and defence target (and no defence)
    from kassen.arena.odds import _attack_rolls

    rules = load_rules({"checks": layer}).checks
    for attack in range(-4, 24):
        for defense in (None, *range(-4, 24)):
            assert _attack_rolls.__wrapped__(attack, defense, rules) == _attack_rolls_plain(
                attack, defense, rules
            ), (attack, defense)


def _attack_rolls_plain(attack: int, defense: int | None, r: CheckRules) -> AttackRollOdds:
    """:func:`_attack_rolls` with every pair of outcomes resolved in full (the reference of its test)."""
    hits = crits = defended = missed = total = 0
    defences = check_outcomes(defense, rules=r) if defense is not None else ()
    for a, na in check_outcomes(attack, rules=r):
        if not defences:
            total += na
            hit = resolve_attack(a, None, rules=r).hit
            hits += na if hit else 0
            crits += na if hit and a.critical_success else 0
            missed += 0 if hit else na
            continue
        for d, nd in defences:
            n = na * nd
            total += n
            hit = resolve_attack(a, _rolled(d), rules=r).hit
            hits += n if hit else 0
            crits += n if hit and a.critical_success else 0
            missed += n if not a.success else 0
            defended += n if a.success and not hit else 0
    return AttackRollOdds(
        Fraction(hits, total), Fraction(crits, total), Fraction(defended, total), Fraction(missed, total)
    )


@pytest.mark.parametrize(
    "layer",
    [
        {},
        {"criticals": {"automatic_success_at_most": 6, "automatic_failure_at_least": 15}},
        {"criticals": {"automatic_success_at_most": 2, "automatic_failure_at_least": 19}},
    ],
)
def test_a_success_chance_is_the_check_odds_at_its_own_target(layer: dict[str, object]) -> None:
    # rule: AR.CORE.1 — 3-4 always succeed, 17-18 always fail: the chance read at the nearest target
    # with the same chance is the chance of the target itself, however far out (a guts check's)
    from kassen.arena.checks import check_odds, success_chance

    rules = load_rules({"checks": layer}).checks
    for _ in range(2):  # the second pass reads the memo
        for target in range(-45, 45):
            assert success_chance(target, rules=rules) == check_odds(target, rules=rules).success, target


@pytest.mark.parametrize("layer", [{}, {"criticals": {"automatic_success_at_most": 6}}])
def test_an_undefended_hit_chance_is_every_attack_roll_resolved(layer: dict[str, object]) -> None:
    # rule: AR.GAP.2 — no defence: a failed roll misses, any success hits, at every attack target
    from kassen.arena.odds import attack_roll_odds

    rules = load_rules({"checks": layer})
    for attack in range(-40, 41):
        assert hit_chance(attack, None, rules) == attack_roll_odds(attack, None, rules).hit, attack
