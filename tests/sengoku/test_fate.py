"""Fate Intervention and Last Bastion (SG.FAT.1, SG.FAT.2): costs and shift from data, illegal uses
raise IllegalActionError naming the rule and change nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.core.errors import IllegalActionError
from kassen.sengoku.attack import Attack, AttackOutcome, FixedDefense, resolve_attack
from kassen.sengoku.check import ScriptedDice
from kassen.sengoku.fate import fate_intervention, last_bastion
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import load_resolution

HERO = CombatProfile(name="Kuro", grade=Grade.PC, fate_points=2)
MOB = CombatProfile(name="Ashigaru", grade=Grade.MOB)


def test_fate_turns_4_5_into_4_4() -> None:
    # rule: SG.FAT.1 — the seed's example; cost and shift are house defaults (1 point, 1 face)
    shift = fate_intervention((4, 5), HERO, die=1)
    assert shift.faces_after == (4, 4) and shift.user.fate_points == 1 and HERO.fate_points == 2
    assert fate_intervention((4, 5), HERO, die=0).faces_after == (5, 5)
    fate = load_resolution().fate
    assert (fate.intervention_cost, fate.max_shift, fate.house_default.rule) == (1, 1, "SG.FAT.1")


def test_fate_on_a_successful_attack_makes_a_critical_hit() -> None:
    # rule: SG.FAT.1
    vet = CombatProfile(name="Veteran", grade=Grade.VETERAN)
    r = resolve_attack(HERO, vet, Attack(modifier=3, fate_die=1), FixedDefense(10), (4, 5))
    assert r.faces_rolled == (4, 5) and r.check.faces == (4, 4)
    assert r.outcome is AttackOutcome.CRITICAL and r.wounds_lost == 2
    assert r.attacker.fate_points == 1
    assert [e.data["purpose"] for e in r.events if e.kind == "fate_spent"] == ["intervention"]


def test_the_shift_changes_the_total_too() -> None:
    # rule: SG.FAT.1 — 4-5 → 4-4 loses a point: against Defense 12 with +3 it now fails, and fumbles
    r = resolve_attack(HERO, MOB, Attack(modifier=3, fate_die=1), FixedDefense(12), (4, 5))
    assert r.check.total == 11 and r.outcome is AttackOutcome.FUMBLE


@pytest.mark.parametrize(
    ("faces", "user", "die", "why"),
    [
        ((4, 5), CombatProfile(name="Poor", fate_points=0), 1, "Fate point"),
        ((3, 5), HERO, 1, "shift of 2"),
        ((6, 6), HERO, 0, "already a double"),
        ((4, 5), HERO, 2, "die 0 or 1"),
    ],
)
def test_illegal_fate_interventions_raise_and_change_nothing(
    faces: tuple[int, int], user: CombatProfile, die: int, why: str
) -> None:
    # rule: SG.FAT.1
    before = user
    with pytest.raises(IllegalActionError, match=why) as err:
        fate_intervention(faces, user, die=die)
    assert err.value.rule == "SG.FAT.1" and user == before
    with pytest.raises(IllegalActionError):
        resolve_attack(user, MOB, Attack(modifier=0, fate_die=die), FixedDefense(10), faces)


def test_a_larger_shift_is_a_data_change() -> None:
    # rule: SG.FAT.1 — the GAP's values are overridable
    rules = load_resolution().override("fate", max_shift=2, intervention_cost=2)
    shift = fate_intervention((3, 5), HERO, die=1, rules=rules)
    assert shift.faces_after == (3, 3) and shift.user.fate_points == 0


@given(a=st.integers(1, 10), b=st.integers(1, 10), die=st.integers(0, 1))
def test_a_legal_intervention_always_makes_a_double(a: int, b: int, die: int) -> None:
    # rule: SG.FAT.1
    if a == b or abs(a - b) > 1:
        with pytest.raises(IllegalActionError):
            fate_intervention((a, b), HERO, die=die)
    else:
        after = fate_intervention((a, b), HERO, die=die).faces_after
        assert after[0] == after[1] and after[1 - die] == (a, b)[1 - die]


def test_last_bastion_makes_the_fatal_hit_miss() -> None:
    # rule: SG.FAT.2
    hero = CombatProfile(name="Kuro", grade=Grade.PC, wounds=1, fate_points=1)
    r = resolve_attack(
        MOB,
        hero,
        Attack(modifier=0, last_bastion=True),
        FixedDefense(10),
        (6, 6),
        table_dice=ScriptedDice([]),
    )
    assert r.outcome is AttackOutcome.MISS and r.wounds_after == 1 and not r.incapacitated
    assert r.target.fate_points == 0 and r.target.wounds == 1
    assert any(s.rule == "SG.FAT.2" for s in r.steps)
    assert [e.data["purpose"] for e in r.events if e.kind == "fate_spent"] == ["last_bastion"]


def test_last_bastion_when_the_attack_would_not_reduce_wounds_to_0_is_illegal() -> None:
    # rule: SG.FAT.2
    hero = CombatProfile(name="Kuro", grade=Grade.PC, wounds=3, fate_points=1)
    for faces in ((6, 5), (2, 3)):  # a survivable hit; a miss
        with pytest.raises(IllegalActionError, match="reduce Wounds to 0") as err:
            resolve_attack(MOB, hero, Attack(modifier=0, last_bastion=True), FixedDefense(10), faces)
        assert err.value.rule == "SG.FAT.2"
    assert hero.fate_points == 1 and hero.wounds == 3


def test_last_bastion_needs_fate_points() -> None:
    # rule: SG.FAT.2
    hero = CombatProfile(name="Kuro", grade=Grade.PC, wounds=1, fate_points=0)
    with pytest.raises(IllegalActionError, match="Fate point") as err:
        last_bastion(hero, wounds_before=1, reduction=1)
    assert err.value.rule == "SG.FAT.2"
    assert last_bastion(CombatProfile(fate_points=1), wounds_before=2, reduction=5).user.fate_points == 0
