"""Effects of a hit (AR.INJ.2-9), HP thresholds (AR.HP.1-4), Move and ST under fatigue (AR.FTG.2-3),
shock and pain (AR.RD.1), head blows (AR.RD.5) and the guts penalties (AR.GUT.2) — as pure functions."""

from __future__ import annotations

from kassen.arena.content import load_rules
from kassen.arena.damage import resolve_damage
from kassen.arena.injury import (
    death_thresholds,
    effective_move,
    guts_penalties,
    hp_effects,
    injury_effects,
    shock_penalty,
    st_check_modifier,
)
from kassen.arena.terms import DamageSource


def effects(basic: int, dtype: str, location: str, ht: int = 10, **kw: object) -> list[tuple[str, str]]:
    hit = resolve_damage(basic, dtype, ht=ht, location=location)
    return [(e.effect, e.rule) for e in injury_effects(hit, ht=ht, **kw)]  # type: ignore[arg-type]


def test_shock_equals_final_damage() -> None:
    # rule: AR.INJ.2
    hit = resolve_damage(3, "cr", ht=10)
    [shock] = [e for e in injury_effects(hit, ht=10) if e.effect == "shock"]
    assert (shock.value, shock.rule) == (3, "AR.INJ.2")
    assert not injury_effects(resolve_damage(2, "cr", ht=10, armor_dr=5), ht=10)


def test_pain_is_separate_from_shock_for_painful_sources() -> None:
    # rule: AR.INJ.3 — a painful source adds, beside the shock, a pain penalty of the final damage
    for basic, location in ((3, "torso"), (4, "skull"), (9, "torso")):
        hit = resolve_damage(basic, "cr", ht=10, location=location)
        got = injury_effects(hit, ht=10, painful=True)
        [pain] = [e for e in got if e.effect == "pain"]
        [shock] = [e for e in got if e.effect == "shock"]
        assert hit.final > 1 and (pain.value, pain.rule) == (hit.final, "AR.INJ.3")
        assert shock.value == hit.final  # separate from the shock, not instead of it
        assert "pain" not in [e.effect for e in injury_effects(hit, ht=10)]
    assert not injury_effects(resolve_damage(2, "cr", ht=10, armor_dr=5), ht=10, painful=True)  # no damage


def test_only_the_largest_penalty_applies() -> None:
    # rule: AR.INJ.4, AR.RD.1 (one maximum over shock and pain together)
    assert shock_penalty([2, 5], [4]) == 5
    assert shock_penalty([], []) == 0
    summed = load_rules({"injury": {"shock": {"combine": "max_each_summed"}}})
    assert shock_penalty([2, 5], [4], summed) == 9


def test_half_ht_stuns_and_calls_for_a_knockdown_check() -> None:
    # rule: AR.INJ.5, AR.INJ.6
    assert ("stun", "AR.INJ.5") in effects(5, "cr", "torso", ht=10)
    assert ("knockdown_check", "AR.INJ.6") in effects(5, "cr", "torso", ht=10)
    assert ("stun", "AR.INJ.5") not in effects(4, "cr", "torso", ht=10)
    assert ("knockdown_check", "AR.INJ.6") not in effects(5, "cr", "torso", ht=11)  # HT/2 rounds up to 6


def test_crippling_stuns() -> None:
    # rule: AR.INJ.7
    assert effects(6, "cr", "right_arm", ht=10)[:3] == [
        ("shock", "AR.INJ.2"),
        ("crippled", "AR.DMG.6"),
        ("stun", "AR.INJ.7"),
    ]
    hit = resolve_damage(6, "cr", ht=10, location="right_arm")
    assert ("stun", "AR.INJ.7") not in [
        (e.effect, e.rule) for e in injury_effects(hit, ht=10, already_crippled=True)
    ]


def test_crushing_primary_penetration_to_vitals_calls_for_an_unconsciousness_check() -> None:
    # rule: AR.INJ.8
    assert ("unconscious_check", "AR.INJ.8") in effects(1, "cr", "vitals")
    assert ("unconscious_check", "AR.INJ.8") not in effects(1, "imp", "vitals")
    assert ("unconscious_check", "AR.INJ.8") not in effects(1, "cr", "torso")
    # primary penetration counts, even if soft DR stops it all afterwards
    hit = resolve_damage(2, "cr", ht=10, location="vitals", soft_dr=5)
    assert hit.primary_penetration == 2 and hit.final == 0
    assert [e.effect for e in injury_effects(hit, ht=10)] == ["unconscious_check"]


def test_head_blow_of_ht_knocks_out() -> None:
    # rule: AR.INJ.9
    assert ("unconscious", "AR.INJ.9") in effects(5, "cr", "skull", ht=12)  # (5-2) x4 = 12
    assert ("unconscious", "AR.INJ.9") not in effects(4, "cr", "skull", ht=12)  # 8
    assert ("unconscious", "AR.INJ.9") in effects(12, "cr", "face", ht=12)
    assert ("unconscious", "AR.INJ.9") not in effects(20, "cr", "neck", ht=12)


def test_head_blow_reading_per_hit_or_cumulative() -> None:
    # rule: AR.RD.5
    hit = resolve_damage(4, "cr", ht=12, location="skull")  # 8
    assert "unconscious" not in [e.effect for e in injury_effects(hit, ht=12, prior_head_damage=8)]
    cumulative = load_rules({"injury": {"head_blow": {"reading": "cumulative"}}})
    got = injury_effects(hit, ht=12, prior_head_damage=8, rules=cumulative)
    assert "unconscious" in [e.effect for e in got]


def test_falling_damage_calls_for_a_stun_check() -> None:
    # rule: AR.FAL.2
    hit = resolve_damage(3, "cr", ht=10, source=DamageSource.FALLING)
    assert ("fall_stun_check", "AR.FAL.2") in [(e.effect, e.rule) for e in injury_effects(hit, ht=10)]
    none = resolve_damage(0, "cr", ht=10, source=DamageSource.FALLING)
    assert not injury_effects(none, ht=10)


def test_hp_three_or_less_halves_move_rounding_up() -> None:
    # rule: AR.HP.1
    assert effective_move(5, hp=3, fp=10)[0] == 3
    assert effective_move(5, hp=4, fp=10)[0] == 5
    assert ("move_halved", "AR.HP.1") in [(e.effect, e.rule) for e in hp_effects(5, 3, 10)]


def test_fp_three_or_less_halves_move_unless_injury_did() -> None:
    # rule: AR.FTG.3
    assert effective_move(7, hp=10, fp=3)[0] == 4
    move, steps = effective_move(7, hp=2, fp=2)
    assert move == 4  # halved once, not twice
    assert any(s.rule == "AR.FTG.3" and "ignored" in s.reason for s in steps)


def test_encumbrance_and_leg_knockback_change_move() -> None:
    # rule: AR.GAP.2 (encumbrance levels), AR.KNB.5 (cannot move until the next subturn)
    assert effective_move(5, encumbrance=2, hp=10, fp=10)[0] == 3
    assert effective_move(5, hp=10, fp=10, rooted=True)[0] == 0


def test_fp_five_or_less_penalizes_st_checks() -> None:
    # rule: AR.FTG.2
    step = st_check_modifier(5)
    assert step is not None and (step.value, step.rule) == (-3, "AR.FTG.2")
    assert st_check_modifier(6) is None


def test_zero_hp_calls_for_ht_checks_every_subturn() -> None:
    # rule: AR.HP.2
    assert ("ht_check_each_subturn", "AR.HP.2") in [(e.effect, e.rule) for e in hp_effects(3, 0, 10)]
    assert ("ht_check_each_subturn", "AR.HP.2") not in [(e.effect, e.rule) for e in hp_effects(3, 1, 10)]


def test_death_checks_at_minus_ht_and_every_five_more() -> None:
    # rule: AR.HP.3
    assert death_thresholds(0, -10, 10) == (-10,)
    assert death_thresholds(0, -9, 10) == ()
    assert death_thresholds(-10, -15, 10) == (-15,)
    assert death_thresholds(-11, -14, 10) == ()
    assert death_thresholds(5, -26, 10) == (-10, -15, -20, -25)
    assert [e.value for e in hp_effects(5, -16, 10) if e.effect == "death_check"] == [-10, -15]


def test_minus_five_times_ht_is_death() -> None:
    # rule: AR.HP.4
    assert ("dead", "AR.HP.4") in [(e.effect, e.rule) for e in hp_effects(0, -50, 10)]
    assert ("dead", "AR.HP.4") not in [(e.effect, e.rule) for e in hp_effects(0, -49, 10)]
    assert death_thresholds(0, -60, 10) == (-10, -15, -20, -25, -30, -35, -40, -45)


def test_guts_penalties_three_kinds() -> None:
    # rule: AR.GUT.2
    steps = guts_penalties(14, 3, 2)
    assert [(s.value, s.rule) for s in steps] == [(-2, "AR.GUT.2"), (-3, "AR.GUT.2"), (-2, "AR.GUT.2")]
    assert guts_penalties(4, 0, 0) == ()
