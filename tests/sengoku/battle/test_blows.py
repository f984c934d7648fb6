"""What a breath's attacks take from a target (kassen.sengoku.battle.blows): the expectation of the capped
sum of their Wounds, against every joint outcome enumerated, exactly and in floating point."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.sengoku.battle.blows import NOTHING, Blow, blow_of, dealt, rough_dealt
from kassen.sengoku.odds import attack_odds
from kassen.sengoku.technique import technique

#: A chance of each number of Wounds (0 to 3): whole weights out of their sum.
chances = st.lists(st.integers(0, 6), min_size=1, max_size=4).filter(any).map(
    lambda w: tuple(Fraction(x, sum(w)) for x in w)
)
hits = st.tuples(
    chances,
    st.booleans(),  # a reaction ready (half turned away)
    st.sampled_from((Fraction(0), Fraction(1, 1000))),  # the [Pierce] hair
    st.sampled_from((Fraction(0), Fraction(1, 4), Fraction(3, 5))),  # a stealth approach's chance
    st.integers(1, 3),  # that approach's critical Wounds
)


def _outcomes(blow: Blow, sneak: Fraction, critical: int) -> list[tuple[int, Fraction]]:
    """Each number of Wounds the attack takes with its chance: an automatic critical with ``sneak``."""
    out = [(k, (1 - sneak) * p) for k, p in enumerate(blow.chances)]
    return [*out, (critical, sneak)] if sneak else out


@settings(max_examples=200, deadline=None)
@given(st.lists(hits, min_size=1, max_size=3), st.integers(1, 7), st.booleans())
def test_what_the_attacks_take_is_the_expectation_of_their_capped_sum(
    drawn: list[tuple[tuple[Fraction, ...], bool, Fraction, Fraction, int]], wounds: int, same: bool
) -> None:
    # rule: SG.WND.1  rule: SG.WND.4  rule: SG.INP.1 — a target loses no more than the Wounds it has: the
    # breath is worth E[min(X1 + X2 + ..., W)] (plus the hairs), every joint outcome counted
    made = [(blow_of(c, bonus=b, halved=h), s, k) for c, h, b, s, k in drawn]
    if same:  # the same attack again (the weighing's "twice" reading of one blow)
        made = [made[0], (made[0][0], Fraction(0), 0)] if not made[0][1] else made
    want = Fraction(0)
    for joint in itertools.product(*(_outcomes(b, s, k) for b, s, k in made)):
        chance = Fraction(1)
        for _, p in joint:
            chance *= p
        want += chance * min(sum(k for k, _ in joint), wounds)
    want += sum(((1 - s) * b.bonus for b, s, _ in made), Fraction(0))
    assert dealt(made, wounds) == want
    rough = rough_dealt([(b, float(s), k) for b, s, k in made], wounds)
    assert abs(rough - float(want)) <= 1e-12


@settings(max_examples=100, deadline=None)
@given(chances, st.booleans(), st.integers(0, 8))
def test_a_blow_holds_its_mean_and_its_capped_values(
    odds: tuple[Fraction, ...], halved: bool, wounds: int
) -> None:
    # rule: SG.WND.1 — the mean is the expected Wounds (a ready reaction halves it, as the heuristic reads
    # it); at a target with as many Wounds as the blow can take, or more, the cap takes nothing off
    blow = blow_of(odds, halved=halved)
    mean = sum((k * p for k, p in enumerate(odds)), Fraction(0))
    assert blow.mean == (mean / 2 if halved else mean) and blow.rough == float(blow.mean)
    assert sum(blow.chances) == 1
    capped = sum((min(k, wounds) * p for k, p in enumerate(blow.chances)), Fraction(0))
    assert blow.at(wounds) == capped and blow.rough_at(wounds) == float(capped)
    if wounds >= blow.most:
        assert blow.at(wounds) == blow.mean


def test_the_odds_give_each_number_of_wounds() -> None:
    # rule: SG.WND.1  rule: SG.WND.2  rule: SG.CRT.2 — the nodachi (hit 1, critical 3) at need 12: a
    # miss, a hit or a Critical Hit, as the enumeration counts them; NOTHING takes nothing
    odds = attack_odds(0, 12, technique=technique("nodachi"))
    assert odds.wound_chances == (1 - odds.hit, odds.hit - odds.critical, Fraction(0), odds.critical)
    assert sum(k * p for k, p in enumerate(odds.wound_chances)) == odds.expected_wounds
    blow = blow_of(odds.wound_chances)
    assert blow.at(1) == odds.hit and blow.at(3) == odds.expected_wounds
    assert NOTHING.at(5) == 0 and NOTHING.twice_at(1) == 0
