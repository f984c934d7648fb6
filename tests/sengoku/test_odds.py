"""Exact attack odds: fractions, brute force through the same resolution, properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.dice import at_least
from kassen.sengoku.attack import Attack, AttackOutcome, FixedDefense, resolve_attack
from kassen.sengoku.check import ScriptedDice
from kassen.sengoku.odds import ODDS_KEYS, attack_odds
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import load_resolution
from kassen.sengoku.technique import technique

modifiers = st.integers(-8, 12)
defenses = st.integers(0, 26)
ALL_FACES = [(a, b) for a in range(1, 11) for b in range(1, 11)]
ATTACKER = CombatProfile(name="A", grade=Grade.PC)
TARGET = CombatProfile(name="T", grade=Grade.LORD, wounds_max=10)


def brute_force(modifier: int, defense: int, rules=None) -> dict[str, Fraction]:
    """Every one of the 100 rolls through the full attack resolution."""
    counts = dict.fromkeys(ODDS_KEYS, Fraction(0))
    for faces in ALL_FACES:
        r = resolve_attack(
            ATTACKER,
            TARGET,
            Attack(modifier=modifier),
            FixedDefense(defense),
            faces,
            table_dice=ScriptedDice([1]),
            rules=rules,
        )
        counts["hit"] += r.hit
        counts["critical"] += r.outcome is AttackOutcome.CRITICAL
        counts["fumble"] += r.outcome is AttackOutcome.FUMBLE
        counts["heavenly_mandate"] += r.table is not None and r.table.table == "decisive_moment"
        counts["karmic_retribution"] += r.table is not None and r.table.table == "critical_mistake"
        counts["expected_wounds"] += r.wounds_lost
    return {k: v / 100 for k, v in counts.items()}


@given(modifier=modifiers, defense=defenses)
def test_odds_are_fractions_that_agree_with_brute_force(modifier: int, defense: int) -> None:
    # rule: SG.CHK.1
    # rule: SG.CRT.1
    # rule: SG.FUM.1
    odds = attack_odds(modifier, defense)
    assert all(isinstance(v, Fraction) for v in odds.fractions().values())
    assert odds.fractions() == brute_force(modifier, defense)


@pytest.mark.parametrize(
    "reading", [{"double_ten_failure": "miss"}, {"double_one_success": "karmic_retribution"}]
)
def test_odds_follow_the_switched_readings(reading: dict[str, str]) -> None:
    # rule: SG.RD.4
    rules = load_resolution().override("doubles", **reading)
    for modifier, defense in [(0, 2), (5, 2), (-3, 21), (-5, 25), (3, 12)]:
        assert attack_odds(modifier, defense, rules=rules).fractions() == brute_force(
            modifier, defense, rules
        )


@given(modifier=modifiers, defense=defenses)
def test_hit_is_critical_plus_ordinary_hit_and_fumbles_are_misses(modifier: int, defense: int) -> None:
    # rule: SG.CRT.1
    # rule: SG.FUM.1
    odds = attack_odds(modifier, defense)
    assert odds.hit == odds.critical + odds.ordinary_hit
    assert odds.fumble <= odds.miss
    assert odds.heavenly_mandate <= odds.critical and odds.karmic_retribution <= odds.fumble
    assert odds.hit + odds.miss == 1
    assert odds.critical + odds.fumble <= Fraction(1, 10)  # ten doubles in 100 rolls
    assert odds.hit == at_least("2d10", defense - modifier)  # no SG.RD.4 edge changes the hit chance


def test_a_worked_example() -> None:
    # rule: SG.CHK.1 — Thrust with Finesse +3, Swordsmanship +2 vs heavy armor [Pierce 2] → Defense 12
    odds = attack_odds(5, 12)
    assert odds.hit == Fraction(85, 100)  # 2d10 >= 7
    assert odds.critical == Fraction(7, 100)  # 4-4 .. 10-10
    assert odds.fumble == Fraction(3, 100)  # 1-1, 2-2, 3-3
    assert odds.heavenly_mandate == odds.karmic_retribution == Fraction(1, 100)
    assert odds.expected_wounds == Fraction(78 * 1 + 7 * 2, 100)


def test_edges_of_the_double_readings() -> None:
    # rule: SG.RD.4 — against Defense 2 every roll hits: 1-1 is a critical, no Karmic Retribution
    easy = attack_odds(0, 2)
    assert easy.hit == 1 and easy.critical == Fraction(1, 10) and easy.karmic_retribution == 0
    # Against an unreachable Defense every double fumbles, 10-10 too, with no Heavenly Mandate.
    hopeless = attack_odds(0, 21)
    assert hopeless.hit == 0 and hopeless.fumble == Fraction(1, 10) and hopeless.heavenly_mandate == 0
    assert hopeless.karmic_retribution == Fraction(1, 100)


def test_expected_wounds_of_a_technique() -> None:
    # rule: SG.CRT.2 — nodachi: 1 on a hit, 3 on a critical
    odds = attack_odds(0, 11, technique=technique("nodachi"))
    assert odds.expected_wounds == Fraction((55 - 5) * 1 + 5 * 3, 100)


def test_to_json_has_exactly_the_six_keys_as_floats() -> None:
    data = attack_odds(3, 12).to_json()
    assert set(data) == {
        "hit",
        "critical",
        "fumble",
        "heavenly_mandate",
        "karmic_retribution",
        "expected_wounds",
    }
    assert all(isinstance(v, float) for v in data.values())
    assert data["hit"] == pytest.approx(0.72)


def test_odds_depend_only_on_defense_minus_modifier() -> None:
    a, b = attack_odds(2, 12), attack_odds(7, 17)
    assert a.fractions() == b.fractions()
    assert attack_odds(-40, 60).hit == 0 and attack_odds(40, -60).hit == 1
