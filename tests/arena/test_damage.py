"""The damage pipeline (AR.DMG.1-7), hit locations (AR.GAP.1), falling (AR.FAL.1, AR.RD.4), self-inflicted
damage (AR.SLF.1) and the crippling-cap reading (AR.RD.2)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.arena.content import load_rules
from kassen.arena.damage import (
    Reduction,
    crippling_amount,
    divide_ht,
    fall_modifiers,
    plan_fall,
    resolve_damage,
    strength_damage,
)
from kassen.arena.terms import DamageSource, DamageType, Tier
from kassen.core.errors import KassenError
from kassen.core.explain import Step

RULES = load_rules()


def rules_of(steps: tuple[Step, ...]) -> set[str]:
    return {s.rule for s in steps}


def test_basic_damage_is_the_roll_and_defaults_to_the_torso() -> None:
    # rule: AR.DMG.1
    r = resolve_damage(7, "cr", ht=10)
    assert (r.basic, r.location) == (7, "torso")
    assert any("no location named" in s.reason and s.rule == "AR.DMG.1" for s in r.steps)
    assert resolve_damage(-2, "cr", ht=10).basic == 0  # CORE: a roll below 0 is 0 basic damage


def test_the_default_location_is_data_and_an_override_moves_an_unlocated_hit() -> None:
    # rule: AR.DMG.1 — "no location named" means the data's damage.basic.default_location
    arm = load_rules({"damage": {"basic": {"default_location": "left_arm"}}})
    r = resolve_damage(7, "cr", ht=10, rules=arm)
    assert r.location == "left_arm" and r.crippling_amount is not None  # an arm: it can be crippled
    name = arm.locations.locations["left_arm"].name
    assert any(s.reason == f"applies to the {name} (no location named)" for s in r.steps)
    assert not any("torso" in s.reason for s in r.steps)


def test_two_kinds_of_dr_hard_armor_and_bone_and_soft() -> None:
    # rule: AR.DMG.2
    r = resolve_damage(10, "cr", ht=10, location="skull", armor_dr=3, soft_dr=1)
    assert (r.armor_dr, r.bone_dr, r.soft_dr) == (3, 2, 1)  # skull bone hard DR 2 from the table
    assert "AR.DMG.2" in rules_of(r.steps)


def test_primary_penetration_subtracts_armor_hard_dr_not_below_zero() -> None:
    # rule: AR.DMG.3
    assert resolve_damage(10, "cr", ht=10, armor_dr=4).primary_penetration == 6
    assert resolve_damage(3, "cr", ht=10, armor_dr=4).primary_penetration == 0


def test_penetrating_subtracts_soft_dr_and_bone_hard_dr() -> None:
    # rule: AR.DMG.4
    r = resolve_damage(10, "cr", ht=10, location="torso", armor_dr=2, bone_dr=3, soft_dr=1)
    assert (r.primary_penetration, r.penetrating) == (8, 4)
    assert resolve_damage(4, "cr", ht=10, armor_dr=2, bone_dr=3).penetrating == 0


@pytest.mark.parametrize(
    ("dtype", "penetrating", "final"),
    [
        ("cr", 5, 5),
        ("cut", 5, 7),
        ("imp", 5, 10),
        ("pi-", 5, 2),
        ("pi", 5, 5),
        ("pi+", 5, 7),
        ("pi++", 5, 10),
        ("burn", 5, 5),
        ("pi-", 1, 1),
    ],
)
def test_attack_type_multiplier_rounds_down_but_at_least_one(
    dtype: str, penetrating: int, final: int
) -> None:
    # rule: AR.DMG.5 (GAP: the multiplier table is a house default in data/damage.yaml)
    r = resolve_damage(penetrating, dtype, ht=20, location="torso")
    assert r.penetrating == penetrating
    assert r.final == final


def test_reduction_effects_come_after_the_multiplier() -> None:
    # rule: AR.DMG.5 (damage-reduction effects, AR.GAP.2 house default)
    r = resolve_damage(
        8, "cut", ht=20, reductions=(Reduction("hide", divisor=2), Reduction("ward", subtract=1))
    )
    assert (r.multiplied, r.reduced, r.final) == (12, 5, 5)
    assert resolve_damage(2, "cr", ht=20, reductions=(Reduction("wall", subtract=5),)).final == 0


def test_final_damage_caps_at_two_times_ht_per_hit() -> None:
    # rule: AR.DMG.6
    r = resolve_damage(30, "imp", ht=10)
    assert (r.reduced, r.final, r.capped) == (60, 20, True)


def test_crippling_cap_limits_a_limb_to_its_crippling_amount() -> None:
    # rule: AR.DMG.6 (GAP: crippling thresholds, house default arm over HT/2, hand over HT/3, eye over HT/10)
    arm = resolve_damage(9, "cut", ht=10, location="right_arm")
    assert (arm.crippling_amount, arm.final, arm.crippled, arm.capped) == (6, 6, True, True)
    hand = resolve_damage(9, "cr", ht=10, location="left_hand")
    assert (hand.crippling_amount, hand.final, hand.crippled) == (5, 5, True)  # over ceil(10/3) = 4
    eye = resolve_damage(9, "imp", ht=10, location="left_eye")
    assert (eye.crippling_amount, eye.final) == (2, 2)
    light = resolve_damage(3, "cut", ht=10, location="right_leg")
    assert (light.final, light.crippled, light.capped) == (4, False, False)
    torso = resolve_damage(9, "cut", ht=10, location="torso")
    assert (torso.crippling_amount, torso.final) == (None, 13)


def test_location_wounding_replaces_the_attack_type_multiplier() -> None:
    # rule: AR.DMG.6 (house-default location effects) and AR.GAP.1 (the location table)
    assert resolve_damage(5, "cr", ht=20, location="skull").final == 12  # (5 - bone 2) x4
    assert resolve_damage(4, "imp", ht=20, location="vitals").final == 12  # x3
    assert resolve_damage(4, "cr", ht=20, location="vitals").final == 4  # crushing unchanged
    assert resolve_damage(4, "cut", ht=20, location="neck").final == 8  # x2
    assert resolve_damage(4, "cr", ht=20, location="neck").final == 6  # x1.5
    assert resolve_damage(4, "imp", ht=20, location="right_arm").final == 4  # limbs cap impaling at x1
    assert resolve_damage(4, "pi+", ht=20, location="left_foot").final == 4


def test_hp_divisions_round_up() -> None:
    # rule: AR.DMG.7
    assert divide_ht(11, 2, RULES) == 6
    assert divide_ht(10, 3, RULES) == 4
    assert divide_ht(9, 10, RULES) == 1
    loc = RULES.locations.locations["right_arm"]
    assert crippling_amount(loc, 11, RULES) == 7  # over ceil(11/2) = 6


def test_location_table_has_tiers_brain_vitals_and_aliases() -> None:
    # rule: AR.GAP.1
    t = RULES.locations
    assert t.find("brain").key == t.brain == "skull"
    assert t.find("脳").key == "skull"
    assert [k for k, loc in t.locations.items() if loc.vital_organ] == ["vitals"]
    assert {k for k, loc in t.locations.items() if loc.head} == {"skull", "face", "left_eye", "right_eye"}
    assert t.locations["neck"].tier is Tier.UPPER
    assert t.locations["left_hand"].tier is Tier.MIDDLE
    assert t.locations["right_foot"].tier is Tier.LOWER
    assert t.locations["skull"].bone_dr == 2 and all(loc.soft_dr == 0 for loc in t.locations.values())
    assert t.limb_root("left_hand") == "left_arm"
    with pytest.raises(KassenError, match="unknown hit location"):
        t.find("tail")
    assert t.house_default.rule == "AR.GAP.1" and t.crippling_house_default.rule == "AR.DMG.6"


def test_bad_input_is_a_typed_error() -> None:
    with pytest.raises(KassenError, match="unknown damage type"):
        resolve_damage(5, "zap", ht=10)
    with pytest.raises(KassenError, match="HT must be at least 1"):
        resolve_damage(5, "cr", ht=0)
    with pytest.raises(KassenError, match="cannot be negative"):
        resolve_damage(5, "cr", ht=10, soft_dr=-1)


def test_self_inflicted_damage_ignores_dr_and_cannot_be_reduced() -> None:
    # rule: AR.SLF.1
    r = resolve_damage(
        6,
        "cr",
        ht=10,
        location="skull",
        armor_dr=5,
        reductions=(Reduction("hide", 2, 1),),
        source=DamageSource.SELF,
    )
    assert (r.armor_dr, r.bone_dr, r.primary_penetration, r.penetrating) == (0, 0, 6, 6)
    assert r.final == 20  # 6 x4 = 24, capped at 2 x HT
    assert r.reduced == 24
    assert "AR.SLF.1" in rules_of(r.steps)


def test_falling_damage_counts_dr_at_half_rounded_down_per_layer() -> None:
    # rule: AR.FAL.1, AR.RD.4 (half DR per layer, rounded down)
    r = resolve_damage(8, "cr", ht=10, location="skull", armor_dr=3, soft_dr=1, source=DamageSource.FALLING)
    assert (r.armor_dr, r.bone_dr, r.soft_dr) == (1, 1, 0)
    assert r.final == 20  # (8 - 1 - 1) x4 = 24, capped at 20
    up = load_rules({"falling": {"falling": {"readings": {"dr_rounding": "up"}}}})
    r = resolve_damage(8, "cr", ht=10, armor_dr=3, source=DamageSource.FALLING, rules=up)
    assert r.armor_dr == 2


def test_falling_damage_by_height_weight_and_ground() -> None:
    # rule: AR.FAL.1 (GAP: heights and ground effects are house defaults in data/falling.yaml)
    assert plan_fall(Fraction(1, 2), 80).dice is None  # below 1 m: no falling damage
    assert plan_fall(1, 80).notation == "1d6-2"
    assert plan_fall(4, 199).notation == "1d6+1"  # +1 per full 100 kg
    assert plan_fall(4, 200).notation == "1d6+2"
    assert plan_fall(20, 0, "sand").notation == "2d6-2"  # -1 per die on sand
    assert plan_fall(100, 50).notation == "5d6-1"
    with pytest.raises(KassenError, match="unknown ground"):
        plan_fall(3, 70, "lava")


def test_weight_per_started_100kg_is_the_switchable_reading() -> None:
    # rule: AR.RD.4 (per full 100 kg; alternative per started 100 kg)
    started = load_rules({"falling": {"falling": {"readings": {"weight_rounding": "started"}}}})
    assert fall_modifiers(1, 101, rules=started)[0] == 2
    assert fall_modifiers(1, 101)[0] == 1


def test_thrust_table_is_data() -> None:
    # rule: AR.KNB.3 (CORE thrust by ST)
    assert str(strength_damage(10, "thrust")) == "1d-2"
    assert str(strength_damage(20, "thrust")) == "2d-1"
    assert str(strength_damage(42, "thrust")) == "4d+1"
    assert str(strength_damage(15, "swing")) == "2d+1"


def test_crippling_cap_cumulative_reading() -> None:
    # rule: AR.RD.2 (per hit by default; cumulative is the switchable alternative)
    per_hit = resolve_damage(5, "cr", ht=10, location="left_arm", prior_location_damage=5)
    assert (per_hit.final, per_hit.crippled) == (5, False)
    cumulative = load_rules({"damage": {"crippling": {"cap": "cumulative"}}})
    r = resolve_damage(5, "cr", ht=10, location="left_arm", prior_location_damage=5, rules=cumulative)
    assert (r.final, r.crippled) == (1, True)
    r = resolve_damage(5, "cr", ht=10, location="left_arm", prior_location_damage=6, rules=cumulative)
    assert r.final == 0


def test_every_step_names_a_rule() -> None:
    # rule: AR.DMG.5
    r = resolve_damage(12, "cut", ht=10, location="right_arm", armor_dr=2)
    assert all(s.rule.startswith("AR.") for s in r.steps)
    assert r.steps[-1].value == r.final


DTYPES = st.sampled_from([t.value for t in DamageType])
LOCS = st.sampled_from(list(RULES.locations.keys))


@settings(max_examples=300, deadline=None)
@given(
    basic=st.integers(-5, 120),
    dtype=DTYPES,
    ht=st.integers(1, 25),
    loc=LOCS,
    armor=st.integers(0, 30),
    bone=st.integers(0, 10),
    soft=st.integers(0, 10),
    source=st.sampled_from([DamageSource.ATTACK, DamageSource.FALLING, DamageSource.SELF]),
)
def test_pipeline_properties(
    basic: int, dtype: str, ht: int, loc: str, armor: int, bone: int, soft: int, source: DamageSource
) -> None:
    # rule: AR.DMG.3, AR.DMG.4, AR.DMG.6: primary <= basic, penetrating <= primary, 0 <= final <= 2 x HT,
    # a limb never takes more than its crippling amount from one hit
    r = resolve_damage(
        basic, dtype, ht=ht, location=loc, armor_dr=armor, bone_dr=bone, soft_dr=soft, source=source
    )
    assert 0 <= r.primary_penetration <= r.basic
    assert 0 <= r.penetrating <= r.primary_penetration
    assert 0 <= r.final <= 2 * ht
    assert r.final <= r.reduced
    assert r.capped == (r.final < r.reduced)
    if r.crippling_amount is not None:
        assert r.final <= r.crippling_amount
    if r.penetrating > 0:
        assert r.multiplied >= 1
