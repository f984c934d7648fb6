"""One whole attack: Defense from the Defense side, the roll from the injected Rng, the resolution with
its steps and events; replay from a seed; inputs never change."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.rng import Rng
from kassen.sengoku.attack import (
    Attack,
    AttackOutcome,
    FixedDefense,
    attack,
    resolve_attack,
    roll_attack,
)
from kassen.sengoku.check import ScriptedDice, roll_faces
from kassen.sengoku.defense import compute_defense
from kassen.sengoku.profile import (
    ArmorKind,
    Attributes,
    BonusKind,
    CombatProfile,
    DefenseBonus,
    ExorcismRank,
    Grade,
)
from kassen.sengoku.tags import parse_tag
from kassen.sengoku.technique import attack_modifier, technique

SHINOBI = CombatProfile(
    name="Kuro", grade=Grade.PC, attributes=Attributes(finesse=3), skills=(("swordsmanship", 2),)
)
OYOROI = CombatProfile(name="Samurai", grade=Grade.VETERAN, armor=ArmorKind.HEAVY)


def test_attack_modifier_is_attribute_plus_skill_plus_bonus() -> None:
    # rule: SG.CHK.1 — Piercing Arrow: 2d10 + Courage + Archery + 1
    archer = CombatProfile(attributes=Attributes(courage=2), skills=(("archery", 3),))
    m, steps = attack_modifier(archer, technique("piercing-arrow"))
    assert m == 6 and [s.value for s in steps] == [2, 3, 1, 6]


def test_attack_rolls_against_the_defense_computed_for_its_tags() -> None:
    # rule: SG.CHK.1 — Thrust [Pierce 2] with Finesse +3, Swordsmanship +2 vs heavy armor: Defense 12
    r = attack(SHINOBI, OYOROI, Attack(technique("thrust")), Rng(7))
    assert r.defense == compute_defense(OYOROI, parse_tag("Pierce 2")).defense == 12
    assert r.defense_steps == compute_defense(OYOROI, parse_tag("Pierce 2")).steps
    assert r.check.modifier == 5
    assert r.check.faces == roll_faces(Rng(7))
    assert r.check.success is (r.check.total >= 12)


def test_the_same_seed_replays_the_same_attack() -> None:
    # Determinism, not a ledger rule: the same seed gives the same attack, byte for byte.
    action = Attack(technique("thrust"))
    first = attack(SHINOBI, OYOROI, action, Rng(2024))
    again = attack(SHINOBI, OYOROI, action, Rng(2024))
    assert first == again
    assert json.dumps(first.to_json()) == json.dumps(again.to_json())


def test_heavenly_mandate_seed_through_the_whole_pipeline() -> None:
    # rule: SG.CRT.4 — seed 196: 10-10, d100 18; the RNG draws 2d10 then the d100
    r = attack(SHINOBI, OYOROI, Attack(technique("thrust")), Rng(196))
    assert r.outcome is AttackOutcome.CRITICAL and r.table is not None and r.table.roll == 18
    assert (r.wounds_before, r.wounds_after) == (4, 2)


def test_inputs_are_never_changed() -> None:
    # Purity, not a ledger rule: the result carries new profiles; the given ones are untouched.
    target = CombatProfile(name="Mob", grade=Grade.MOB)
    r = resolve_attack(SHINOBI, target, Attack(modifier=0), FixedDefense(8), (4, 6))
    assert r.target.wounds == 0 and target.wounds is None
    assert r.attacker is SHINOBI


def test_every_step_names_a_rule_and_the_result_is_json() -> None:
    # rule: SG.CHK.2
    r = resolve_attack(SHINOBI, OYOROI, Attack(technique("thrust")), FixedDefense(12), (6, 6))
    assert r.outcome is AttackOutcome.CRITICAL
    rules = {s.rule for s in r.steps}
    assert {"SG.CHK.1", "SG.CHK.2", "SG.CRT.1", "SG.WND.2"} <= rules
    assert all(s.rule for s in r.steps)
    data = json.loads(json.dumps(r.to_json()))
    assert data["outcome"] == "critical" and data["faces"] == [6, 6] and data["wounds_after"] == 2
    assert [e["kind"] for e in data["events"]][:2] == ["attack_check", "critical_hit"]


def test_a_fumble_releases_the_attackers_stance() -> None:
    # rule: SG.DFL.1 — the fumbler becomes Defenseless through the Defense side's make_defenseless
    stanced = CombatProfile(name="Kuro", bonuses=(DefenseBonus(BonusKind.STANCE, 2, "Immovable Formation"),))
    r = resolve_attack(stanced, OYOROI, Attack(modifier=0), FixedDefense(14), (3, 3))
    assert r.outcome is AttackOutcome.FUMBLE
    assert r.attacker.defenseless and r.attacker.bonuses == ()
    # The Defense side then sees the fumbler as Defenseless (−4).
    assert compute_defense(r.attacker).defense == compute_defense(CombatProfile()).defense - 4


def test_an_immune_target_cannot_be_affected() -> None:
    monk = CombatProfile(name="Monk", exorcism=ExorcismRank.LICENSED)
    with pytest.raises(IllegalActionError):
        attack(SHINOBI, monk, Attack(modifier=0, tags=parse_tag("Incorporeal")), Rng(1))


def test_roll_attack_draws_from_any_die_source() -> None:
    # rule: SG.CHK.1
    r = roll_attack(SHINOBI, OYOROI, Attack(modifier=0), FixedDefense(14), ScriptedDice([9, 5]))
    assert r.check.faces == (9, 5) and r.outcome is AttackOutcome.HIT


def test_remembered_checks_resolve_the_attack_as_fresh_ones_do() -> None:
    # rule: SG.CHK.1  rule: SG.RD.4  rule: SG.CRT.1  rule: SG.FUM.1  rule: SG.WND.3  rule: SG.CRT.2 — a
    # battle hands resolve_attack its content's remembered attack checks and blows
    # (BattleRules.classified_check, BattleRules.blow): every faces, modifier and Defense give the very
    # result worked out afresh, doubles, Fate's shift and a weapon's own Wounds included
    from kassen.core.scenario import open_fight

    rules = open_fight("demo", seed=0).tables
    defense = compute_defense(OYOROI, parse_tag("Pierce 2"))
    fated = dataclasses.replace(SHINOBI, fate_points=2)  # Fate shifts some rolls (SG.FAT.1)

    def resolved(action: Attack, faces: tuple[int, int], checks: object) -> object:
        try:
            return resolve_attack(
                fated,
                OYOROI,
                action,
                defense,
                faces,
                rules=rules.resolution,
                table_dice=Rng(5),
                checks=checks,  # type: ignore[arg-type]
                blows=rules.blow if checks is not None else None,
            )
        except IllegalActionError as e:  # a Fate shift the roll does not allow: the same refusal
            return e.message

    big = dataclasses.replace(technique("thrust"), wounds=2, critical_wounds=3)  # its own Wounds
    compared = 0
    for first in range(1, 11):
        for second in range(1, 11):
            for tech, fate in ((technique("thrust"), None), (technique("horizontal-cut"), 1), (big, None)):
                action = Attack(tech, fate_die=fate)
                plain = resolved(action, (first, second), None)
                for _ in range(2):  # worked out, then found again
                    assert resolved(action, (first, second), rules.classified_check) == plain
                    compared += 1
    assert compared == 600
