"""Target Defense (seed 000): base, armor, bonuses, [Pierce], [Direct], Defense −N, in SG.DEF.5 order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from kassen.core.errors import ContentError
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.defense import (
    DebuffReading,
    DefenseRules,
    compute_defense,
    end_round_debuffs,
    load_defense_rules,
    remove_debuff,
    trigger_debuff,
)
from kassen.sengoku.profile import (
    ALL,
    ArmorKind,
    AttackTags,
    BonusKind,
    CombatProfile,
    DefenseBonus,
    DefenseDebuff,
    Grade,
)
from kassen.sengoku.tags import TagError

CATALOG = load_catalog()
HEAVY = CombatProfile(armor=ArmorKind.HEAVY)
HEAVY_BATTLE = CombatProfile(armor=ArmorKind.HEAVY_BATTLE)
UNARMORED = CombatProfile()


def stance(value: int = 2, source: str = "Immovable Formation") -> DefenseBonus:
    return DefenseBonus(BonusKind.STANCE, value, source)


def barrier(value: int = 2, source: str = "onmyoji barrier") -> DefenseBonus:
    return DefenseBonus(BonusKind.BARRIER, value, source)


def defense(target: CombatProfile, tags: AttackTags = AttackTags(), **kw: Any) -> int:  # noqa: B008
    return compute_defense(target, tags, **kw).defense


def reading(section: str, **changes: Any) -> DefenseRules:
    """The bundled rules with one section's switches changed."""
    rules = load_defense_rules()
    part = getattr(rules, section).model_copy(update=changes)
    return rules.model_copy(update={section: part})


# ----------------------------------------------------------------------------------------- SG.DEF


@pytest.mark.parametrize(
    ("grade", "base"),
    [
        (Grade.MOB, 8),
        (Grade.MINION, 9),
        (Grade.VETERAN, 10),
        (Grade.ELITE, 10),
        (Grade.LORD, 10),
        (Grade.PC, 10),
    ],
)
def test_grade_base_defense(grade: Grade, base: int) -> None:
    # rule: SG.DEF.1 — Mob 8, Minion 9, Veteran/Elite/Lord and PC 10, unarmored.
    result = compute_defense(CombatProfile(grade=grade))
    assert result.defense == base
    assert result.steps[0].value == base
    assert result.steps[0].rule == "SG.DEF.1"


def test_base_step_reads_in_the_games_words() -> None:
    # rule: SG.DEF.1
    assert compute_defense(UNARMORED).steps[0].reason == "base (Veteran)"
    assert compute_defense(CombatProfile(grade=Grade.PC)).steps[0].reason == "base (PC)"


@pytest.mark.parametrize(
    ("armor", "expected"),
    [(ArmorKind.NONE, 10), (ArmorKind.LIGHT, 12), (ArmorKind.HEAVY, 14), (ArmorKind.HEAVY_BATTLE, 16)],
)
def test_armor_rows_add_to_the_grade_base(armor: ArmorKind, expected: int) -> None:
    # rule: SG.DEF.2 — light +2, heavy +4, heavy battle +6 on top of the grade base.
    assert defense(CombatProfile(armor=armor)) == expected
    # The same addition on a Mob's lower base.
    assert defense(CombatProfile(grade=Grade.MOB, armor=armor)) == expected - 2


def test_shield_is_part_of_armor_for_pierce_and_the_direct_floor() -> None:
    # rule: SG.DEF.2 — shield +1, treated as armor by [Pierce] and by the [Direct] floor.
    shielded = CombatProfile(shield=True)
    assert defense(shielded) == 11
    assert compute_defense(shielded).steps[-1].reason == "+1 shield"
    assert defense(shielded, AttackTags(pierce=1)) == 10
    with_stance = CombatProfile(shield=True, bonuses=(stance(),))
    assert defense(with_stance, AttackTags(direct=ALL)) == 11  # floor 10 + shield 1


def test_armor_techniques_and_natural_armor_are_armor() -> None:
    # rule: SG.DEF.3 — armor-attached technique bonuses and natural armor are in the armor category.
    oyoroi = CATALOG.outfit("o-yoroi")  # heavy armor with the shoulder catch +1
    assert defense(oyoroi) == 15
    assert defense(oyoroi, AttackTags(pierce=ALL)) == 10  # [Pierce] takes the technique bonus too
    assert defense(oyoroi, AttackTags(direct=ALL)) == 15  # [Direct] leaves armor alone
    oni = CombatProfile(natural_armor=3, natural_armor_pierceable=True)
    assert defense(oni) == 13
    assert defense(oni, AttackTags(direct=ALL)) == 13
    assert defense(oni, AttackTags(pierce=ALL)) == 10


@pytest.mark.parametrize("kind", list(BonusKind))
def test_every_bonus_kind_is_non_armor(kind: BonusKind) -> None:
    # rule: SG.DEF.4 — evasion, stance, barrier, terrain, spell: non-armor, removed by [Direct] only.
    target = CombatProfile(armor=ArmorKind.LIGHT, bonuses=(DefenseBonus(kind, 3, "x"),))
    assert defense(target) == 15
    assert defense(target, AttackTags(direct=ALL)) == 12
    assert defense(target, AttackTags(pierce=ALL)) == 13
    assert compute_defense(target).steps[-1].rule == "SG.DEF.4"


def test_order_base_armor_bonuses_tags_then_other_reductions() -> None:
    # rule: SG.DEF.5 — base + armor + non-armor, then [Pierce]/[Direct], then Defenseless and Defense −N.
    target = CombatProfile(
        armor=ArmorKind.HEAVY,
        bonuses=(stance(),),
        defenseless=True,
        debuffs=(DefenseDebuff(1, "parasitism"),),
    )
    result = compute_defense(target, AttackTags(pierce=ALL, direct=1))
    assert [s.value for s in result.steps if s.rule in ("SG.DEF.1", "SG.DEF.2", "SG.DEF.4")] == [10, 14, 16]
    rules = [s.rule for s in result.steps]
    order = ["SG.DEF.1", "SG.DEF.2", "SG.DEF.4", "SG.PRC.1", "SG.DIR.1", "SG.DFL.2", "SG.DBF.1"]
    assert [rules.index(r) for r in order] == sorted(rules.index(r) for r in order)
    # 16 → [Pierce all] 12 → [Direct 1] 11 → Defenseless 7 → Defense −1 6
    assert result.after_tags == 11
    assert result.defense == 6
    assert result.reductions == 5


def test_the_reading_of_a_full_breakdown() -> None:
    # rule: SG.DEF.5
    target = CombatProfile(armor=ArmorKind.HEAVY, bonuses=(stance(),))
    result = compute_defense(target, AttackTags(direct=2))
    assert [(s.value, s.reason, s.rule) for s in result.steps] == [
        (10, "base (Veteran)", "SG.DEF.1"),
        (14, "+4 heavy armor", "SG.DEF.2"),
        (16, "+2 stance (Immovable Formation)", "SG.DEF.4"),
        (14, "[Direct 2] removes stance +2 (Immovable Formation)", "SG.DIR.1"),
    ]


def test_stat_block_lower_defense_takes_precedence() -> None:
    # rule: SG.DEF.6 — an intentionally weak creature's lower Defense replaces the grade base.
    slug = CombatProfile(grade=Grade.MOB, defense_override=6)
    result = compute_defense(slug)
    assert result.defense == 6
    assert result.steps[0].rule == "SG.DEF.6"
    # A stat block that is not lower does not raise the grade base.
    assert defense(CombatProfile(grade=Grade.MOB, defense_override=11)) == 8


def test_negative_profile_numbers_are_refused_all_at_once() -> None:
    # rule: SG.DEF.2 — armor additions are never negative; every problem is reported together.
    bad = CombatProfile(natural_armor=-1, armor_bonus=-2, bonuses=(stance(-1),))
    with pytest.raises(ContentError) as info:
        compute_defense(bad)
    fields = [i.field for i in info.value.issues]
    assert fields == ["natural_armor", "armor_bonus", "bonuses.0.value"]


def test_impossible_tag_values_are_refused() -> None:
    # rule: SG.PRC.1
    with pytest.raises(TagError):
        compute_defense(HEAVY, AttackTags(pierce=-1))


# ----------------------------------------------------------------------------------------- SG.PRC


def test_pierce_removes_up_to_n_armor_points_for_this_check_only() -> None:
    # rule: SG.PRC.1 — up to N points of armor/shield additions, for this one attack check.
    assert defense(HEAVY, AttackTags(pierce=1)) == 13
    assert defense(HEAVY, AttackTags(pierce=3)) == 11
    result = compute_defense(HEAVY, AttackTags(pierce=3))
    assert result.pierce_removed == 3
    assert defense(HEAVY) == 14  # the target itself is unchanged: the next attack sees full armor


def test_pierce_never_below_the_grade_base() -> None:
    # rule: SG.PRC.2 — floor at the grade base; armor additions cannot go below 0.
    assert defense(HEAVY, AttackTags(pierce=9)) == 10
    assert defense(CombatProfile(grade=Grade.MOB, armor=ArmorKind.HEAVY), AttackTags(pierce=ALL)) == 8
    result = compute_defense(CombatProfile(grade=Grade.MINION, armor=ArmorKind.LIGHT), AttackTags(pierce=5))
    assert result.pierce_removed == 2
    assert result.defense == 9
    assert result.steps[-1].rule == "SG.PRC.2"


def test_pierce_leaves_non_armor_bonuses_and_other_reductions_stack_after_the_floor() -> None:
    # rule: SG.PRC.3 — non-armor bonuses remain; Defenseless stacks separately after the floor.
    target = CombatProfile(armor=ArmorKind.HEAVY, bonuses=(stance(), barrier()))
    assert defense(target, AttackTags(pierce=ALL)) == 14
    fallen = CombatProfile(armor=ArmorKind.HEAVY, bonuses=(barrier(),), defenseless=True)
    result = compute_defense(fallen, AttackTags(pierce=ALL))
    assert result.after_tags == 12
    assert result.defense == 8  # below the Pierce floor of 10: Defenseless comes after it


def test_natural_armor_pierce_reading() -> None:
    # rule: SG.PRC.4 — [Pierce] reaches natural armor when stated, else the GM's table setting.
    # rule: SG.RD.9 — the statement may be on the attack or the creature; the attack's wins.
    oni = CombatProfile(natural_armor=4)
    assert defense(oni, AttackTags(pierce=ALL)) == 14  # nobody states it: table default (false)
    assert defense(oni, AttackTags(pierce=ALL, pierce_natural=True)) == 10  # the attack states it
    shell = CombatProfile(natural_armor=4, natural_armor_pierceable=True)
    assert defense(shell, AttackTags(pierce=2)) == 12  # the creature's entry states it
    assert defense(shell, AttackTags(pierce=2, pierce_natural=False)) == 14  # the attack's statement wins
    table_yes = reading("natural_armor", pierce_default=True)
    assert defense(oni, AttackTags(pierce=ALL), rules=table_yes) == 10
    # Armor worn over natural armor: unreachable natural armor is never removed.
    armored_oni = CombatProfile(armor=ArmorKind.HEAVY, natural_armor=2)
    result = compute_defense(armored_oni, AttackTags(pierce=ALL))
    assert (result.pierce_removed, result.defense) == (4, 12)
    assert any(s.rule == "SG.PRC.4" and "does not reach" in s.reason for s in result.steps)


def test_seed_examples_pierce() -> None:
    # rule: SG.PRC.5 — the seed's four examples, with its numbers, from catalog entries.
    heavy, heavy_battle, unarmored = (CATALOG.outfit(a) for a in ("heavy-armor", "heavy-battle-armor", None))
    thrust = CATALOG.technique("thrust").tags
    assert thrust == AttackTags(pierce=2)
    assert defense(heavy) == 14
    assert defense(heavy, thrust) == 12
    assert defense(unarmored, thrust) == 10
    home_province = CATALOG.technique("one-stroke-of-the-home-province").tags
    assert defense(heavy_battle) == 16
    assert defense(heavy_battle, home_province) == 10
    assert defense(unarmored, home_province) == 10
    teppo = CATALOG.technique("teppo").tags
    assert defense(heavy, teppo) == 10
    covered = CATALOG.outfit("heavy-armor", stances=["immovable-formation", "barrier-formation"])
    covered = replace(covered, bonuses=(DefenseBonus(BonusKind.TERRAIN, 1, "cover"), *covered.bonuses))
    assert defense(covered, teppo) == 10 + 1 + 2 + 2  # cover, stance and barrier bonuses remain
    fallen = replace(heavy, defenseless=True)
    result = compute_defense(fallen, teppo)
    assert (result.after_tags, result.defense) == (10, 6)


# ----------------------------------------------------------------------------------------- SG.DIR


def test_direct_removes_up_to_n_non_armor_points() -> None:
    # rule: SG.DIR.1 — up to N points of non-armor bonuses, for this attack.
    target = CombatProfile(bonuses=(stance(2), barrier(2)))
    assert defense(target, AttackTags(direct=1)) == 13
    assert defense(target, AttackTags(direct=3)) == 11
    result = compute_defense(target, AttackTags(direct=3))
    assert result.direct_removed == 3
    assert "stance +2 (Immovable Formation), 1 of barrier +2 (onmyoji barrier)" in result.steps[-1].reason
    assert defense(target) == 14


def test_direct_floor_is_base_plus_armor() -> None:
    # rule: SG.DIR.2 — the floor is grade base + armor/shield additions: armor protection remains.
    target = CombatProfile(armor=ArmorKind.LIGHT, shield=True, bonuses=(stance(3),))
    result = compute_defense(target, AttackTags(direct=10))
    assert result.defense == 13
    assert result.steps[-1].rule == "SG.DIR.2"
    # With [Pierce] too, the floor is what armor is left after it.
    assert defense(target, AttackTags(pierce=2, direct=ALL)) == 11


def test_direct_then_other_reductions_stack_separately() -> None:
    # rule: SG.DIR.3 — Defenseless and Defense −N come after the [Direct] floor.
    target = CombatProfile(armor=ArmorKind.LIGHT, bonuses=(barrier(),), defenseless=True)
    result = compute_defense(target, AttackTags(direct=ALL))
    assert (result.after_tags, result.defense) == (12, 8)
    debuffed = CombatProfile(armor=ArmorKind.LIGHT, bonuses=(barrier(),), debuffs=(DefenseDebuff(3),))
    assert defense(debuffed, AttackTags(direct=ALL)) == 9


def test_seed_examples_direct() -> None:
    # rule: SG.DIR.4 — the seed's three examples, with its numbers, from catalog entries.
    formation = CATALOG.outfit("heavy-armor", stances=["immovable-formation"])
    shuriken = CATALOG.technique("precise-shuriken-throw").tags
    assert defense(formation) == 16
    assert defense(formation, shuriken) == 14  # shuriken: stance gone, armor remains
    warded = CATALOG.outfit("light-armor", stances=["barrier-formation"])
    assassination = CATALOG.technique("ninjutsu-assassination").tags
    assert defense(warded) == 14
    assert defense(warded, assassination) == 12  # ninjutsu assassination
    bare = CATALOG.outfit(stances=["barrier-formation"])
    assert defense(bare) == 12
    assert defense(bare, assassination) == 10  # floor = 10 + armor 0


# ----------------------------------------------------------------------------------------- SG.DBF


def test_defense_minus_n_is_a_status_every_attacker_rolls_against() -> None:
    # rule: SG.DBF.1 — while it lasts, every attacker rolls against Defense − N.
    poisoned = CombatProfile(armor=ArmorKind.HEAVY, debuffs=(DefenseDebuff(2, "snake poison", rounds=2),))
    for tags in (AttackTags(), AttackTags(pierce=2), AttackTags(direct=ALL)):
        assert defense(poisoned, tags) == defense(HEAVY, tags) - 2
    assert compute_defense(poisoned).steps[-1].reason == "Defense −2 (snake poison)"


def test_defense_minus_n_reduces_every_source_with_a_minimum_of_2() -> None:
    # rule: SG.DBF.2 — it goes below the [Pierce]/[Direct] floors (all sources); final minimum 2.
    target = CombatProfile(armor=ArmorKind.HEAVY, debuffs=(DefenseDebuff(3),))
    assert defense(target, AttackTags(pierce=ALL)) == 7  # below the Pierce floor of 10
    crushed = CombatProfile(grade=Grade.MOB, debuffs=(DefenseDebuff(5), DefenseDebuff(4)))
    result = compute_defense(crushed)
    assert result.defense == 2
    assert result.steps[-1].rule == "SG.DBF.2"


def test_debuff_durations() -> None:
    # rule: SG.DBF.3 — "next round" expires; "until removed" lasts until removed.
    bloodflower = DefenseDebuff(2, "Bloodflower Dance", rounds=1)
    parasitism = DefenseDebuff(1, "parasitism", rounds=None)
    target = CombatProfile(debuffs=(bloodflower, parasitism))
    assert defense(target) == 7
    after, steps = end_round_debuffs(target)
    assert after.debuffs == (parasitism,)
    assert steps[0].rule == "SG.DBF.3"
    assert defense(after) == 9
    longer, _ = end_round_debuffs(CombatProfile(debuffs=(DefenseDebuff(1, "fear", rounds=3),)))
    assert longer.debuffs[0].rounds == 2
    assert remove_debuff(after, "parasitism").debuffs == ()


def test_each_round_debuff_accumulates_by_default() -> None:
    # rule: SG.RD.3 — house reading: "Defense −1 each round" accumulates (−1, −2, −3...).
    target = CombatProfile(armor=ArmorKind.LIGHT)
    seen = []
    for _ in range(3):
        target, steps = trigger_debuff(target, DefenseDebuff(1, "parasitism"))
        seen.append(defense(target))
    assert seen == [11, 10, 9]
    assert steps[0].rule == "SG.RD.3"
    assert load_defense_rules().debuffs.each_round is DebuffReading.ACCUMULATE


def test_each_round_debuff_renewed_reading() -> None:
    # rule: SG.RD.3 — the alternative reading, switchable in data: one −1, refreshed.
    renew = reading("debuffs", each_round=DebuffReading.RENEW)
    target = CombatProfile(armor=ArmorKind.LIGHT)
    for _ in range(3):
        target, _steps = trigger_debuff(target, DefenseDebuff(1, "parasitism", rounds=1), rules=renew)
    assert target.debuffs == (DefenseDebuff(1, "parasitism", rounds=1),)
    assert defense(target) == 11
    # Distinct effects always stack separately.
    both, _ = trigger_debuff(target, DefenseDebuff(2, "snake poison"), rules=renew)
    assert defense(both) == 9


# ------------------------------------------------------------------------------------------ SG.RD.5


def test_minimum_2_also_bounds_defenseless() -> None:
    # rule: SG.RD.5 — house reading (a): the final minimum 2 also stops Defenseless −4.
    weak = CombatProfile(grade=Grade.MOB, defense_override=5, defenseless=True)
    result = compute_defense(weak)
    assert result.defense == 2
    assert result.steps[-1].rule == "SG.RD.5"
    literal = reading("reductions", minimum_covers_defenseless=False)
    assert defense(weak, rules=literal) == 1
    # Under the alternative, Defense −N still stops at 2 but does not lift what Defenseless did.
    worse = CombatProfile(grade=Grade.MOB, defense_override=5, defenseless=True, debuffs=(DefenseDebuff(2),))
    assert defense(worse, rules=literal) == 1
    assert defense(CombatProfile(grade=Grade.MOB, debuffs=(DefenseDebuff(7),)), rules=literal) == 2


def test_stat_block_defense_lowers_the_floors() -> None:
    # rule: SG.RD.5 — house reading (b): a stat block's lower Defense is the base for the floors too.
    carapace = CombatProfile(
        grade=Grade.MOB, defense_override=5, natural_armor=4, natural_armor_pierceable=True
    )
    assert defense(carapace) == 9
    assert defense(carapace, AttackTags(pierce=ALL)) == 5
    grade_floor = reading("reductions", override_lowers_floors=False)
    assert defense(carapace, AttackTags(pierce=ALL), rules=grade_floor) == 8
    # A tag never raises Defense above its untagged value, whatever the floor.
    soft = CombatProfile(grade=Grade.MOB, defense_override=5, natural_armor=1, natural_armor_pierceable=True)
    assert defense(soft, AttackTags(pierce=ALL), rules=grade_floor) == 6
