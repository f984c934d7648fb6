"""The attack resolution applies what it can hold itself (kassen.sengoku.attack, table_effects): the d100
rows on the roller and the target (SG.CRT.4, SG.FUM.3), a [Break]'s lasting damage (SG.BRK.2-3), Bleed
(SG.AIM.5); the rest is left to a battle, in words."""

from __future__ import annotations

import json
from dataclasses import replace

from kassen.sengoku.attack import Attack, FixedDefense, resolve_attack
from kassen.sengoku.check import ScriptedDice
from kassen.sengoku.profile import ArmorKind, AttackTags, CombatProfile, Grade
from kassen.sengoku.resolution import TableEffect, TableEffectKind, TableWho, load_resolution
from kassen.sengoku.table_effects import PROFILE_KINDS, apply_effect, describe
from kassen.sengoku.technique import technique

HERO = CombatProfile(name="Hero", grade=Grade.PC, fate_points=0)
OGRE = CombatProfile(name="Ogre", wounds=4, wounds_max=4, armor=ArmorKind.HEAVY)


def test_every_row_of_both_tables_does_something() -> None:
    # rule: SG.CRT.4  rule: SG.FUM.3 — the house rows name their effects as data, at least one each
    r = load_resolution()
    for table in (r.decisive_moment, r.critical_mistake):
        assert all(row.effects for row in table.rows)
    kinds = {e.kind for t in (r.decisive_moment, r.critical_mistake) for row in t.rows for e in row.effects}
    assert kinds == set(TableEffectKind)


def test_a_decisive_blow_from_the_resolution_itself() -> None:
    # rule: SG.CRT.4 — double 10 and d100 95: the target is Incapacitated, in the result's Wounds
    res = resolve_attack(
        HERO, OGRE, Attack(modifier=3), FixedDefense(14), (10, 10), table_dice=ScriptedDice([95])
    )
    assert res.table is not None and res.table.name == "Decisive Blow"
    assert (res.wounds_before, res.wounds_after, res.incapacitated) == (4, 0, True)
    assert res.pending == ()


def test_rows_a_battle_applies_are_left_pending() -> None:
    # rule: SG.CRT.4  rule: SG.FUM.3 — Energy, Cohesion, weapons and other units are the battle's
    res = resolve_attack(
        HERO, OGRE, Attack(modifier=3), FixedDefense(14), (10, 10), table_dice=ScriptedDice([5])
    )
    assert [e.kind for e in res.pending] == [TableEffectKind.ENERGY]
    res = resolve_attack(
        HERO, OGRE, Attack(modifier=0), FixedDefense(14), (1, 1), table_dice=ScriptedDice([70])
    )
    assert [(e.kind, e.who, e.fallback) for e in res.pending] == [
        (TableEffectKind.WOUNDS, TableWho.NEAREST_ALLY, TableWho.ATTACKER)
    ]
    assert res.hit_wounds == 1


def test_the_roller_suffers_its_own_rows() -> None:
    # rule: SG.FUM.3 — Self-Injury (41-60): the roller's profile loses the Wound
    res = resolve_attack(
        HERO, OGRE, Attack(modifier=0), FixedDefense(14), (1, 1), table_dice=ScriptedDice([45])
    )
    assert res.attacker.wounds == 4 and res.attacker.defenseless


def test_apply_effect_holds_the_profile_kinds_only() -> None:
    # rule: SG.CRT.4 — the one function the resolution and the battle both apply rows with
    fate = TableEffect(kind=TableEffectKind.FATE, who=TableWho.ATTACKER, amount=1)
    assert apply_effect(fate, HERO, hit_wounds=1).profile.fate_points == 1
    split = TableEffect(kind=TableEffectKind.BREAK_ARMOR, who=TableWho.TARGET, amount=2)
    assert apply_effect(split, OGRE, hit_wounds=1).profile.armor_damage == 2
    assert apply_effect(split, OGRE, hit_wounds=1, executing_grade="supply").profile.armor_damage == 2
    assert (
        apply_effect(
            split, CombatProfile(armor=ArmorKind.HEAVY, armor_grade="masterwork"), hit_wounds=1
        ).profile.armor_damage
        == 0
    )
    energy = TableEffect(kind=TableEffectKind.ENERGY, who=TableWho.ATTACKER, amount=-2)
    assert energy.kind not in PROFILE_KINDS and describe(energy, "Hero") == "Hero loses 2 Energy"


def test_a_break_hit_keeps_its_pierce_on_the_armor() -> None:
    # rule: SG.BRK.2  rule: SG.BRK.3 — the resolution leaves the paired [Pierce]'s points on the target's
    # armor when the grades allow it; a miss breaks nothing; a higher-grade armor holds
    crush = technique("crushing-blow")
    tags = AttackTags(pierce=3, break_=True)
    hit = resolve_attack(
        HERO, OGRE, Attack(crush, modifier=5, tags=tags), FixedDefense(11, pierce_removed=3), (5, 6)
    )
    assert hit.hit and hit.target.armor_damage == 3
    miss = resolve_attack(
        HERO, OGRE, Attack(crush, modifier=0, tags=tags), FixedDefense(11, pierce_removed=3), (1, 2)
    )
    assert not miss.hit and miss.target.armor_damage == 0
    fine = CombatProfile(name="Lord", wounds=6, armor=ArmorKind.HEAVY, armor_grade="masterwork")
    held = resolve_attack(
        HERO, fine, Attack(crush, modifier=5, tags=tags), FixedDefense(11, pierce_removed=3), (5, 6)
    )
    assert held.target.armor_damage == 0 and "armor_holds" in [e.kind for e in held.events]


def test_pierce_the_vitals_bleeds() -> None:
    # rule: SG.AIM.5 — "2 Wounds. Bleed.": the result says the target bleeds (the battle marks it)
    vitals = technique("pierce-the-vitals")
    res = resolve_attack(HERO, OGRE, Attack(vitals, modifier=6), FixedDefense(12), (5, 6))
    assert res.bleeds and "bleed" in [e.kind for e in res.events]
    fell = resolve_attack(HERO, CombatProfile(wounds=2), Attack(vitals, modifier=6), FixedDefense(10), (5, 6))
    assert not fell.bleeds  # the fallen do not bleed on


def test_a_fate_row_says_what_it_does_not_the_count_it_leaves() -> None:
    # rule: SG.FAT.1 — how many Fate points a unit has is its own side's (the house visibility table);
    # the row's words are read by every side, so they name the change only
    gain = TableEffect(kind=TableEffectKind.FATE, who=TableWho.ATTACKER, amount=1)
    for points in (0, 3):
        done = apply_effect(gain, replace(HERO, fate_points=points), hit_wounds=1)
        assert done.profile.fate_points == points + 1
        assert done.text == "Hero gains 1 Fate point(s)" and str(points) not in json.dumps(
            [e.to_json() for e in done.events]
        )
    loss = TableEffect(kind=TableEffectKind.FATE, who=TableWho.TARGET, amount=-1)
    assert apply_effect(loss, HERO, hit_wounds=1).text == "Hero loses 1 Fate point(s), if any"
    assert apply_effect(loss, HERO, hit_wounds=1).profile.fate_points == 0
