"""Wounds: hit −1, critical −2, special techniques, added Wound effects after the check, 0 → Incapacitated,
a Lord's fall (SG.WND.1-4, SG.WND.6, SG.INP.1-2, SG.RD.9)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.core.errors import IllegalActionError
from kassen.sengoku.attack import Attack, AttackOutcome, FixedDefense, resolve_attack
from kassen.sengoku.check import ScriptedDice
from kassen.sengoku.grades import load_grades
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import load_resolution
from kassen.sengoku.technique import BASE_ATTACK, Technique, technique
from kassen.sengoku.wounds import (
    AddedWound,
    Squad,
    apply_wounds,
    current_wounds,
    is_incapacitated,
    lord_fall,
    max_wounds,
)

ATTACKER = CombatProfile(name="Genzaburo", grade=Grade.PC)


def strike(target: CombatProfile, faces: tuple[int, int], action: Attack | None = None, defense: int = 10):
    return resolve_attack(
        ATTACKER,
        target,
        action or Attack(modifier=0),
        FixedDefense(defense),
        faces,
        table_dice=ScriptedDice([50]),
    )


def test_a_hit_reduces_1_wound() -> None:
    # rule: SG.WND.1
    r = strike(CombatProfile(name="Veteran", grade=Grade.VETERAN), (4, 7))
    assert r.outcome is AttackOutcome.HIT and (r.wounds_before, r.wounds_after) == (4, 3)
    assert r.target.wounds == 3
    assert any(s.rule == "SG.WND.1" for s in r.steps)


def test_a_miss_reduces_nothing() -> None:
    # rule: SG.WND.1
    target = CombatProfile(name="Veteran", grade=Grade.VETERAN)
    r = strike(target, (4, 5))
    assert r.outcome is AttackOutcome.MISS and r.wounds_lost == 0 and r.target == target


def test_a_critical_hit_reduces_2_wounds() -> None:
    # rule: SG.WND.2
    r = strike(CombatProfile(name="Veteran", grade=Grade.VETERAN), (7, 7))
    assert r.outcome is AttackOutcome.CRITICAL and r.wounds_lost == 2


def test_special_techniques_reduce_the_wounds_they_state() -> None:
    # rule: SG.WND.3 — Piercing Arrow: 2 Wounds, 1 Wound to the enemy behind (SG.AIM.5)
    arrow = technique("piercing-arrow")
    r = strike(CombatProfile(name="Veteran", grade=Grade.VETERAN), (4, 7), Attack(arrow, modifier=0))
    assert r.outcome is AttackOutcome.HIT and r.wounds_lost == 2 and r.wounds_behind == 1
    assert any(s.rule == "SG.WND.3" for s in r.steps)
    assert (
        strike(
            CombatProfile(name="V", grade=Grade.VETERAN), (4, 7), Attack(Technique(wounds=3), modifier=0)
        ).wounds_lost
        == 3
    )


def test_wounds_reaching_0_make_the_target_incapacitated() -> None:
    # rule: SG.WND.4
    # rule: SG.INP.1 — cannot act; removed from the zone (a flag and an event in the result)
    mob = CombatProfile(name="Ashigaru", grade=Grade.MOB)  # falls to one cut
    r = strike(mob, (4, 7))
    assert r.incapacitated and r.wounds_after == 0 and is_incapacitated(r.target)
    fell = [e for e in r.events if e.kind == "incapacitated"]
    assert fell and fell[0].data["unit"] == "Ashigaru" and fell[0].automatic
    assert any(s.rule == "SG.INP.1" for s in r.steps)
    # A unit still standing is not incapacitated.
    assert not strike(CombatProfile(name="V", grade=Grade.VETERAN), (4, 7)).incapacitated


def test_an_incapacitated_unit_cannot_act_nor_be_attacked() -> None:
    # rule: SG.INP.1
    fallen = CombatProfile(name="Fallen", wounds=0)
    with pytest.raises(IllegalActionError) as err:
        resolve_attack(fallen, CombatProfile(), Attack(modifier=0), FixedDefense(10), (5, 6))
    assert err.value.rule == "SG.INP.1"
    with pytest.raises(IllegalActionError) as err:
        resolve_attack(ATTACKER, fallen, Attack(modifier=0), FixedDefense(10), (5, 6))
    assert err.value.rule == "SG.INP.1"


def test_wounds_default_to_the_grade_table() -> None:
    # rule: SG.WND.4 — Wounds that were never set are the grade's (SG.WND.5 house default)
    grades = load_grades()
    for grade in Grade:
        p = CombatProfile(grade=grade)
        assert current_wounds(p) == max_wounds(p) == grades.row(grade).wounds
    assert current_wounds(CombatProfile(wounds_max=7)) == 7
    assert current_wounds(CombatProfile(wounds_max=7, wounds=2)) == 2


@given(before=st.integers(0, 12), amount=st.integers(0, 20))
def test_wounds_never_go_below_0(before: int, amount: int) -> None:
    # rule: SG.WND.4
    change = apply_wounds(CombatProfile(wounds=before), amount)
    assert change.after == max(0, before - amount) >= 0
    assert change.incapacitated is (before > 0 and change.after == 0)


@given(
    faces=st.tuples(st.integers(1, 10), st.integers(1, 10)),
    wounds=st.integers(1, 6),
    extra=st.integers(0, 5),
    tech_wounds=st.integers(0, 4),
    defense=st.integers(2, 20),
)
def test_no_attack_takes_wounds_below_0(
    faces: tuple[int, int], wounds: int, extra: int, tech_wounds: int, defense: int
) -> None:
    # rule: SG.WND.4
    action = Attack(Technique(wounds=tech_wounds), modifier=0, added_wounds=(AddedWound(extra, "weakness"),))
    r = strike(CombatProfile(name="T", wounds=wounds), faces, action, defense)
    assert r.wounds_after >= 0 and r.target.wounds == r.wounds_after


def test_added_wound_effects_apply_after_the_check_and_never_change_defense() -> None:
    # rule: SG.WND.6 — weakness / divine item: extra reduction after the check, Defense untouched
    weakness = Attack(modifier=0, added_wounds=(AddedWound(1, "weakness to silver"),))
    target = CombatProfile(name="Kitsune", grade=Grade.LORD)
    with_extra = strike(target, (5, 6), weakness, defense=11)
    without = strike(target, (5, 6), Attack(modifier=0), defense=11)
    assert with_extra.defense == without.defense == 11
    assert with_extra.check == without.check
    assert (with_extra.wounds_lost, without.wounds_lost) == (2, 1)
    assert any(s.rule == "SG.WND.6" for s in with_extra.steps)
    # Added effects need a hit: on a miss they do nothing (the check decides, they do not help it).
    assert strike(target, (5, 5), weakness, defense=11).wounds_lost == 0  # fumble
    assert strike(target, (4, 6), weakness, defense=11).wounds_lost == 0  # miss
    # On a critical they stack after the critical's Wounds.
    assert strike(target, (6, 6), weakness, defense=11).wounds_lost == 3


def test_a_lord_falling_emits_a_cohesion_loss_for_its_faction() -> None:
    # rule: SG.INP.2
    lord = CombatProfile(name="Takeda", grade=Grade.LORD, wounds=1, faction="Takeda")
    r = strike(lord, (4, 7))
    loss = [e for e in r.events if e.kind == "cohesion_loss"]
    assert r.incapacitated and loss and loss[0].data == {"faction": "Takeda", "amount": 1, "scope": "faction"}
    assert loss[0].rule == "SG.INP.2"
    # A fallen Veteran costs nobody Cohesion.
    vet = strike(CombatProfile(name="V", grade=Grade.VETERAN, wounds=1, faction="Takeda"), (4, 7))
    assert not [e for e in vet.events if e.kind == "cohesion_loss"]


SQUADS = (
    Squad("Red Spears", "Takeda", 4),
    Squad("Archers", "Takeda", 3),
    Squad("Broken Line", "Takeda", 0),
    Squad("Uesugi Guard", "Uesugi", 5),
)


def test_a_lords_fall_costs_every_squad_of_the_faction_1_cohesion() -> None:
    # rule: SG.INP.2
    # rule: SG.RD.9 — house reading: every squad of the Lord's faction, never below 0; others untouched
    lord = CombatProfile(name="Takeda Shingen", grade=Grade.LORD, faction="Takeda")
    after, steps = lord_fall(lord, SQUADS)
    assert [s.cohesion for s in after] == [3, 2, 0, 5]
    assert all(s.rule == "SG.INP.2" for s in steps) and len(steps) == 3
    assert load_resolution().lord_fall.scope == "faction"


def test_a_lords_fall_can_be_read_as_one_squad() -> None:
    # rule: SG.RD.9 — alternative: only the squad the Lord led
    rules = load_resolution().override("lord_fall", scope="one_squad")
    lord = CombatProfile(name="Takeda Shingen", grade=Grade.LORD, faction="Takeda")
    assert [s.cohesion for s in lord_fall(lord, SQUADS, led="Archers", rules=rules)[0]] == [4, 2, 0, 5]
    assert [s.cohesion for s in lord_fall(lord, SQUADS, rules=rules)[0]] == [3, 3, 0, 5]


def test_only_a_lord_costs_cohesion() -> None:
    # rule: SG.INP.2
    elite = CombatProfile(name="Captain", grade=Grade.ELITE, faction="Takeda")
    assert lord_fall(elite, SQUADS) == (SQUADS, ())


def test_base_attack_uses_the_base_hit_from_data() -> None:
    # rule: SG.WND.1 — the base hit's 1 Wound is data (wounds.hit)
    rules = load_resolution().override("wounds", hit=2, critical=3)
    r = resolve_attack(
        ATTACKER,
        CombatProfile(name="L", grade=Grade.LORD),
        Attack(BASE_ATTACK, modifier=0),
        FixedDefense(10),
        (4, 7),
        rules=rules,
    )
    assert r.wounds_lost == 2
