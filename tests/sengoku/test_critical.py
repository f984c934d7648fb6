"""Critical Hit: double + success, base 2 Wounds, weapon overrides, technique hooks, Heavenly Mandate,
and the SG.RD.1 reading (SG.CRT.*, SG.RD.1)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kassen.core.errors import ContentError
from kassen.core.rng import Rng
from kassen.sengoku.attack import Attack, AttackOutcome, FixedDefense, resolve_attack, roll_attack
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.check import ScriptedDice
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import EffectKind, load_resolution
from kassen.sengoku.technique import BASE_ATTACK, Effect, Technique, technique
from kassen.sengoku.wounds import critical_wounds

ATTACKER = CombatProfile(name="Genzaburo", grade=Grade.PC)
VETERAN = CombatProfile(name="Oni", grade=Grade.VETERAN)  # 4 Wounds by the grade table
D10 = FixedDefense(10)


def hit(
    tech: Technique,
    faces: tuple[int, int],
    *,
    modifier: int = 0,
    dice: list[int] | None = None,
    target: CombatProfile = VETERAN,
    **kw: object,
):
    return resolve_attack(
        ATTACKER,
        target,
        Attack(tech, modifier=modifier),
        D10,
        faces,
        table_dice=ScriptedDice(dice or []),
        **kw,
    )  # type: ignore[arg-type]


def test_a_double_on_a_success_is_a_critical_hit_for_2_wounds() -> None:
    # rule: SG.CRT.1
    r = hit(BASE_ATTACK, (6, 6))
    assert r.outcome is AttackOutcome.CRITICAL
    assert (r.wounds_before, r.wounds_after) == (4, 2)
    assert any(s.rule == "SG.CRT.1" for s in r.steps)
    assert [e.kind for e in r.events if e.kind == "critical_hit"] == ["critical_hit"]


def test_a_double_that_fails_is_no_critical_and_a_success_without_double_is_a_plain_hit() -> None:
    # rule: SG.CRT.1
    assert hit(BASE_ATTACK, (4, 4)).outcome is AttackOutcome.FUMBLE
    plain = hit(BASE_ATTACK, (4, 7))
    assert plain.outcome is AttackOutcome.HIT and plain.wounds_lost == 1


def test_nodachi_critical_is_3_wounds_and_its_hit_is_1() -> None:
    # rule: SG.CRT.2 — the nodachi's catalog entry states its critical
    nodachi = load_catalog().technique("nodachi")
    assert hit(nodachi, (7, 7)).wounds_lost == 3
    assert hit(nodachi, (7, 4)).wounds_lost == 1


def test_teppo_critical_is_2_wounds_and_1_wound_to_the_enemy_behind() -> None:
    # rule: SG.CRT.2 — the teppo's catalog entry states its critical
    teppo = load_catalog().technique("teppo")
    crit = hit(teppo, (8, 8))
    assert crit.wounds_lost == 2 and crit.wounds_behind == 1
    behind = [e for e in crit.events if e.kind == "wounds_behind"]
    assert behind and behind[0].data["wounds"] == 1 and behind[0].rule == "SG.CRT.2"
    plain = hit(teppo, (8, 3))
    assert plain.wounds_lost == 1 and plain.wounds_behind == 0


def test_weapon_overrides_hold_under_every_reading() -> None:
    # rule: SG.CRT.2 — a weapon's own critical Wounds are not subject to SG.RD.1
    for reading in ("plus_one", "double", "flat"):
        rules = load_resolution().override("wounds", critical_reading=reading)
        assert critical_wounds(technique("nodachi"), rules)[0] == 3
        assert critical_wounds(technique("teppo"), rules)[0] == 2


def test_technique_effects_on_a_critical_apply_only_on_a_critical() -> None:
    # rule: SG.CRT.3 — effects on a critical are data on the technique
    tech = Technique(
        name="Dragon Fang",
        on_critical=(
            Effect(EffectKind.EXTRA_WOUNDS, 1),
            Effect(EffectKind.NOTE, text="[Pierce 2] + [Break]"),
        ),
    )
    crit = hit(tech, (9, 9), target=CombatProfile(name="Lord", grade=Grade.LORD))
    assert crit.wounds_lost == 3  # 2 for the critical + 1 added after the check
    assert any(s.rule == "SG.CRT.3" for s in crit.steps)
    assert [e.data["text"] for e in crit.events if e.kind == "effect"] == ["[Pierce 2] + [Break]"]
    plain = hit(tech, (9, 2), target=CombatProfile(name="Lord", grade=Grade.LORD))
    assert plain.wounds_lost == 1 and not [e for e in plain.events if e.kind == "effect"]


def test_technique_critical_hooks_load_from_a_content_file(tmp_path: Path) -> None:
    # rule: SG.CRT.3 — a user's catalog replaces a technique with one that has effects on a critical
    maneuver = {
        "id": "heavy-blow",
        "name": "Heavy Blow",
        "kind": "attack",
        "cost": 3,
        "weapon": "kanabo",
        "wounds": 1,
        "on_critical": [{"effect": "extra_wounds", "wounds": 2}, {"effect": "note", "text": "armor dented"}],
    }
    (tmp_path / "maneuvers.yaml").write_text(yaml.safe_dump({"maneuvers": [maneuver]}), encoding="utf-8")
    catalog = load_catalog([tmp_path])
    kanabo = technique("heavy-blow", catalog)
    r = resolve_attack(ATTACKER, VETERAN, Attack(kanabo, modifier=0), D10, (5, 5))
    assert r.outcome is AttackOutcome.CRITICAL and r.wounds_lost == 4 and r.target.wounds == 0
    assert technique("heavy-blow").on_critical == ()  # the bundled catalog is untouched


def test_double_10_critical_rolls_the_decisive_moment_table() -> None:
    # rule: SG.CRT.4 — Heavenly Mandate: d100 on the decisive moment table (house default, in data)
    table = load_resolution().decisive_moment
    for roll in (1, 57, 100):
        r = hit(BASE_ATTACK, (10, 10), dice=[roll], target=CombatProfile(name="Lord", grade=Grade.LORD))
        assert r.outcome is AttackOutcome.CRITICAL
        assert r.table is not None and r.table.table == "decisive_moment" and r.table.roll == roll
        assert r.table.name == table.row(roll).name and r.table.rule == "SG.CRT.4"
        assert any(e.kind == "decisive_moment" for e in r.events)


def test_other_criticals_roll_no_table() -> None:
    # rule: SG.CRT.4
    assert hit(BASE_ATTACK, (9, 9)).table is None


def test_heavenly_mandate_pinned_to_a_seed() -> None:
    # rule: SG.CRT.4 — seed 196 rolls 10-10 then d100 18 (the RNG's output is pinned)
    r = roll_attack(ATTACKER, VETERAN, Attack(modifier=0), D10, Rng(196))
    assert r.check.faces == (10, 10) and r.table is not None and r.table.roll == 18


def test_the_decisive_moment_table_covers_1_to_100_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    # rule: SG.CRT.4 — the house table is data; a gap in a user's table is a content error
    rules = load_resolution()
    rows = rules.decisive_moment.rows
    covered = sorted(n for row in rows for n in range(row.low, row.high + 1))
    assert covered == list(range(1, 101))  # every d100 result falls on exactly one row
    data = rules.model_dump(mode="json", by_alias=True)
    data["decisive_moment"]["rows"] = data["decisive_moment"]["rows"][1:]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ContentError, match="decisive_moment"):
        load_resolution(path)


# -- SG.RD.1: critical Wounds of a technique with its own Wounds ------------------------------------------
PIERCING_ARROW = technique("piercing-arrow")  # 2 Wounds (SG.AIM.5)


@pytest.mark.parametrize(("reading", "wounds"), [("plus_one", 3), ("double", 4), ("flat", 2)])
def test_critical_wounds_of_a_2_wound_technique_follow_the_reading(reading: str, wounds: int) -> None:
    # rule: SG.RD.1
    rules = load_resolution().override("wounds", critical_reading=reading)
    assert critical_wounds(PIERCING_ARROW, rules)[0] == wounds
    lord = CombatProfile(name="Lord", grade=Grade.LORD)  # 6 Wounds
    r = hit(PIERCING_ARROW, (6, 6), target=lord, rules=rules)
    assert r.wounds_lost == wounds


@pytest.mark.parametrize("reading", ["plus_one", "double", "flat"])
def test_every_reading_gives_2_for_a_base_critical(reading: str) -> None:
    # rule: SG.RD.1 — the readings only differ for techniques with their own Wounds
    rules = load_resolution().override("wounds", critical_reading=reading)
    assert critical_wounds(BASE_ATTACK, rules)[0] == 2


def test_house_reading_is_plus_one() -> None:
    # rule: SG.RD.1 — pinned house default: the critical adds 1 after the check
    rules = load_resolution()
    assert rules.wounds.critical_reading == "plus_one"
    assert rules.wounds.house_default.rule == "SG.RD.1"
    n, steps = critical_wounds(PIERCING_ARROW)
    assert n == 3 and steps[0].rule == "SG.RD.1"
    assert critical_wounds(Technique(wounds=3), rules.override("wounds", critical_reading="flat"))[0] == 3
