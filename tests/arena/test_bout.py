"""The bout engine: scheduled checks fire by themselves, offers, match losses, knockback and landings,
illegal actions (AR.CORE.3, AR.INJ.*, AR.HP.*, AR.FTG.*, AR.STN.*, AR.OUT.1, AR.GUT.*, AR.KNB.*, AR.AUD.2)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from kassen.arena.bout import (
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    GiveUp,
    Grapple,
    Guts,
    Rise,
    SetGuard,
    Wait,
    attack_target,
    defense_target,
)
from kassen.arena.content import load_rules
from kassen.arena.fighter import Cause, Fall, Guard, GutsBonusPlan, Shock, Weapon
from kassen.arena.ruleset import RULESET
from kassen.arena.scenario import script_steps
from kassen.arena.terms import CheckKind, Condition, DamageType, Facing, MatchFormat, Posture
from kassen.core.errors import IllegalActionError
from kassen.core.fight import state_codec

from .helpers import RULES, actor, begun, bout, edit, fighter, find, kinds, legal, step

MAUL = Weapon("maul", "none", 3, 0, DamageType.CRUSHING)
A = fighter("a", "east", dx=12, skill=14, weapon=MAUL)
B = fighter("b", "west", defense=8)

ATTACK_HITS = [3, 3, 3, 6, 6, 6]  # attack 9 vs 14 (margin +5); defence 18 vs 8: a hits
SUMMED = load_rules({"injury": {"shock": {"combine": "max_each_summed"}}})  # AR.RD.1's other reading


def fight(**kw: object) -> BoutState:
    return begun(A, B, **kw)


def at_end_of_subturn(state: BoutState, subturn: int) -> BoutState:
    """The last slot of ``subturn`` (b's), nothing scheduled."""
    return replace(state, subturn=subturn, slot=len(state.order) - 1)


# -- subturns, order, shock timing ---------------------------------------------------------------------------
def test_begin_orders_by_dx_and_starts_subturn_one() -> None:
    # rule: AR.CORE.3
    s0 = bout(B, A)
    assert legal(s0) == [Begin()]
    s, events = step(s0, Begin())
    assert s.order == ("a", "b") and s.subturn == 1 and actor(s) == "a"
    assert find(events, "subturn", subturn=1)[0].automatic


def test_hit_stuns_offers_guts_then_knockdown_check_and_shock_until_end_of_next_subturn() -> None:
    # rule: AR.INJ.1, AR.INJ.5, AR.INJ.6, AR.INJ.2, AR.CORE.3, AR.GUT.1
    s = fight()
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 2, 2])  # 6 crushing to the torso
    assert s.fighter("b").hp == 4  # AR.INJ.1: HP - final
    assert find(ev, "injury")[0].data["hp_after"] == 4
    assert s.fighter("b").stunned and find(ev, "stunned")[0].rule == "AR.INJ.5"
    assert actor(s) == "b" and s.offers[0].condition == "stunned"
    assert legal(s) == [Guts("b"), Decline("b")]
    s, ev = step(s, Decline("b"), [1, 1, 2])  # the knockdown HT check (AR.INJ.6) passes
    assert find(ev, "check", check="knockdown")[0].automatic
    shock = s.fighter("b").shocks
    assert shock == (Shock("shock", 6, 2),)  # until the end of subturn 2
    assert actor(s) == "b"  # b's slot: stunned, may only defend
    s, ev = step(s, Wait("b"), [6, 6, 6])  # end of subturn 1; subturn 2: stun recovery fails
    assert s.subturn == 2 and s.fighter("b").shocks and s.fighter("b").stunned
    assert find(ev, "check", check="stun_recovery")[0].rule == "AR.STN.2"
    s, _ = step(s, Wait("a"))
    s, ev = step(s, Wait("b"), [1, 2, 3])  # end of subturn 2: the shock ends; subturn 3: recovery
    [expired] = find(ev, "shock_expired")
    assert expired.automatic and expired.data["subturn"] == 2
    assert kinds(ev).index("shock_expired") < kinds(ev).index("subturn")
    assert not s.fighter("b").shocks and not s.fighter("b").stunned
    assert find(ev, "stun_ended")[0].rule == "AR.STN.2"


def test_shock_penalizes_dx_based_rolls_and_only_the_largest_counts() -> None:
    # rule: AR.INJ.2, AR.INJ.3, AR.INJ.4, AR.RD.1
    penalties = (Shock("shock", 3, 2), Shock("pain", 5, 2), Shock("shock", 4, 2))
    s = edit(replace(fight(), slot=1), "b", shocks=penalties)
    target, steps = defense_target(s, "b", rules=RULES)
    assert target == B.defense - 5  # the pain is the largest: it alone sets the penalty
    assert [x.value for x in steps if x.rule == "AR.INJ.4"] == [-5]
    skill, _ = attack_target(s, "b", "a", None, False, rules=RULES)
    assert skill == B.skill - 5  # skill is DX-based too
    summed = edit(replace(fight(rules=SUMMED), slot=1), "b", shocks=penalties)
    # the other reading: the largest of each kind, summed
    assert defense_target(summed, "b", rules=SUMMED)[0] == B.defense - (4 + 5)


def test_a_painful_hit_adds_pain_of_the_final_damage_beside_shock() -> None:
    # rule: AR.INJ.3 — pain is -(final damage), separate from the shock, for the same span
    whip = replace(A, weapon=Weapon("whip", "none", 1, 0, DamageType.CRUSHING, painful=True))
    s, ev = step(begun(whip, B), Attack("a", "b"), [*ATTACK_HITS, 3])
    final = find(ev, "damage")[0].data["final"]
    assert final == 3
    assert s.fighter("b").shocks == (Shock("shock", final, 2), Shock("pain", final, 2))
    [pain] = find(ev, "pain")
    assert pain.rule == "AR.INJ.3" and pain.data["penalty"] == final
    assert pain.data["until_end_of_subturn"] == find(ev, "shock")[0].data["until_end_of_subturn"]
    plain = replace(whip, weapon=replace(whip.weapon, painful=False))
    s, ev = step(begun(plain, B), Attack("a", "b"), [*ATTACK_HITS, 3])
    assert not find(ev, "pain") and s.fighter("b").shocks == (Shock("shock", final, 2),)


@pytest.mark.parametrize(("reading", "penalty"), [("one_max", 3), ("max_each_summed", 3 + 3)])
def test_the_pain_of_a_hit_sets_the_dx_penalty_by_the_reading_in_data(reading: str, penalty: int) -> None:
    # rule: AR.INJ.4, AR.RD.1 — b carries an earlier shock of 1 when a painful hit of 3 lands. One
    # maximum over both kinds: the new pain (and its shock) set the penalty, 3, the pain adding nothing;
    # the largest of each kind summed: shock 3 + pain 3.
    whip = replace(A, weapon=Weapon("whip", "none", 1, 0, DamageType.CRUSHING, painful=True))
    over = load_rules({"injury": {"shock": {"combine": reading}}})
    s = edit(begun(whip, B, rules=over), "b", shocks=(Shock("shock", 1, 2),))
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 3], over)
    assert find(ev, "pain")[0].data["penalty"] == 3
    target, steps = defense_target(s, "b", rules=over)
    assert target == B.defense - penalty
    assert [x.value for x in steps if x.rule == "AR.INJ.4"] == [-penalty]
    assert attack_target(s, "b", "a", None, False, rules=over)[0] == B.skill - penalty


# -- stun ----------------------------------------------------------------------------------------------------
def test_stunned_fighter_may_only_defend_at_minus_four() -> None:
    # rule: AR.STN.1
    s = edit(replace(fight(), slot=1), "b", conditions=(Condition.STUNNED,))
    allowed = legal(s)
    assert not any(isinstance(x, Attack) for x in allowed) and Wait("b") in allowed
    with pytest.raises(IllegalActionError) as err:
        step(s, Attack("b", "a"))
    assert err.value.rule == "AR.STN.1"
    target, steps = defense_target(s, "b", rules=RULES)
    assert target == 4 and any(x.rule == "AR.STN.1" and x.value == -4 for x in steps)


def test_being_stunned_releases_a_grapple() -> None:
    # rule: AR.STN.1
    s = edit(replace(fight(), slot=1), "a", grappling="b")
    s, ev = step(s, Attack("b", "a"), [1, 1, 2, 6])  # grappled b criticals; club: 6 to a's torso
    assert s.fighter("a").grappling is None
    assert find(ev, "grapple_released")[0].rule == "AR.STN.1"


def test_a_grapple_holds_and_penalizes_the_held() -> None:
    # rule: AR.GAP.2 (grapple house default)
    s, _ev = step(fight(), Grapple("a", "b"), [3, 3, 3, 6, 6, 6])
    assert s.fighter("a").grappling == "b"
    assert defense_target(s, "b", rules=RULES)[0] == 8 - 4


def test_stun_recovery_each_subturn_acts_normally_from_that_subturn() -> None:
    # rule: AR.STN.2
    s = edit(at_end_of_subturn(fight(), 1), "b", conditions=(Condition.STUNNED,))
    s, _ev = step(s, Wait("b"), [2, 2, 2])
    assert not s.fighter("b").stunned
    s, _ = step(s, Wait("a"))
    assert any(isinstance(x, Attack) for x in legal(s))


# -- HP thresholds -------------------------------------------------------------------------------------------
def test_zero_hp_ht_check_every_subturn_failure_knocks_out() -> None:
    # rule: AR.HP.2, AR.OUT.1
    s = edit(at_end_of_subturn(fight(), 1), "b", hp=0)
    s, ev = step(s, Wait("b"), [6, 6, 5])
    check = find(ev, "check", check="zero_hp")[0]
    assert check.automatic and check.rule == "AR.HP.2" and not check.data["success"]
    assert s.fighter("b").has(Condition.UNCONSCIOUS)


def test_zero_hp_check_is_rolled_again_next_subturn() -> None:
    # rule: AR.HP.2
    s = edit(at_end_of_subturn(fight(), 1), "b", hp=-1)
    s, ev = step(s, Wait("b"), [1, 2, 3])
    s, _ = step(s, Wait("a"))
    s, ev = step(s, Wait("b"), [2, 2, 2])
    assert len(find(ev, "check", check="zero_hp")) == 1 and s.subturn == 3


def test_death_checks_at_each_threshold_and_death_on_failure() -> None:
    # rule: AR.HP.3
    s = edit(fight(), "b", hp=-8)  # HT 10: thresholds -10, -15
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 3, 3, 3, 1, 1, 1, 6, 6, 6])  # 9 damage: -17
    due = [e.data["threshold"] for e in find(ev, "death_check_due")]
    assert due == [-10, -15]
    assert s.fighter("b").has(Condition.DEAD)
    assert find(ev, "dead")[0].rule == "AR.HP.3"
    assert s.result is not None and s.result.winner == "east"


def test_minus_five_times_ht_is_death_without_a_check() -> None:
    # rule: AR.HP.4
    s = edit(fight(), "b", hp=-45, death_checks_done=(-10, -15, -20, -25, -30, -35, -40, -45))
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 2, 1])
    assert s.fighter("b").has(Condition.DEAD) and find(ev, "dead")[0].rule == "AR.HP.4"
    assert not find(ev, "check", check="death")


def test_move_halving_is_logged_when_hp_drops_to_three() -> None:
    # rule: AR.HP.1
    s = edit(fight(), "b", hp=5)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 1, 1, 1])  # 3 damage: HP 2
    assert find(ev, "move_halved")[0].rule == "AR.HP.1"


# -- injury effects in the bout ------------------------------------------------------------------------------
def test_crushing_to_vitals_checks_ht_or_falls_unconscious() -> None:
    # rule: AR.INJ.8
    s, ev = step(fight(), Attack("a", "b", "vitals"), [3, 3, 3, 6, 6, 6, 1, 1, 1, 6, 6, 5])  # 3 cr; HT fails
    check = find(ev, "check", check="vital")[0]
    assert check.rule == "AR.INJ.8" and check.automatic and not check.data["success"]
    assert s.fighter("b").has(Condition.UNCONSCIOUS)
    s, ev = step(fight(), Attack("a", "b", "vitals"), [3, 3, 3, 6, 6, 6, 1, 1, 1, 2, 2, 2])
    assert not s.fighter("b").incapacitated


def test_head_blow_of_ht_knocks_out_and_offers_guts() -> None:
    # rule: AR.INJ.9
    s, ev = step(fight(), Attack("a", "b", "skull"), [1, 1, 2, 3, 3, 3, 1, 1, 1])  # crit; 9: (9-2) x4
    assert s.fighter("b").hp == -10 and find(ev, "death_check_due")  # then the death check at -HT
    assert s.fighter("b").has(Condition.UNCONSCIOUS)
    assert find(ev, "incapacitated")[0].rule == "AR.INJ.9"
    assert s.offers[0].automatic


def test_crippling_a_limb_stuns_and_drops_its_guard() -> None:
    # rule: AR.INJ.7, AR.DMG.6
    s = edit(fight(), "b", guards=(Guard("left_arm", "skull"),))
    s, ev = step(s, Attack("a", "b", "left_arm"), [1, 1, 2, 2, 2, 2])  # crit, 6 to the left arm
    b = s.fighter("b")
    assert "left_arm" in b.crippled and b.guards == ()
    assert find(ev, "stunned")[0].rule == "AR.INJ.7"
    assert find(ev, "crippled")[0].rule == "AR.DMG.6"


def test_overriding_an_automatic_stun_exempts_the_other_stuns_of_that_damage() -> None:
    # rule: AR.INJ.10, AR.GUT.1
    s, ev = step(
        fight(), Attack("a", "b", "left_arm"), [1, 1, 2, 2, 2, 2]
    )  # crippled (INJ.7) and HT/2 (INJ.5)
    assert s.offers[0].rule == "AR.INJ.7"
    s, ev = step(s, Guts("b"), [1, 2, 3, 1, 1, 1])  # Will 10 - 1 = 9: 6 succeeds; then the knockdown check
    assert not s.fighter("b").stunned
    [exempt] = find(ev, "exempted")
    assert exempt.rule == "AR.INJ.10" and exempt.data["exempted"] == 1
    assert not find(ev, "stunned")


def test_overriding_an_automatic_unconsciousness_exempts_that_damages_unconsciousness_checks() -> None:
    # rule: AR.INJ.10 (the knockback landing on the brain: a head blow and a falling stun check)
    fall = Fall(
        True,
        Facing.FACE_UP,
        Posture.LYING,
        "skull",
        Posture.STANDING,
        knocker_st=20,
        knockback_factor=Fraction(1),
    )
    s = edit(at_end_of_subturn(fight(), 1), "b", posture=Posture.AERIAL, fall=fall)
    s, ev = step(
        s, Wait("b"), [6, 6, 1, 1, 1]
    )  # knockback 2d-1 = 11 to the skull: (11-1) x4 -> 20; death check
    assert s.offers[0].condition == "unconscious" and s.offers[0].rule == "AR.INJ.9"
    # Will 10 - 8 = 2: a 3 always succeeds; subturn 2: stun recovery, HT check at -10 HP
    s, ev = step(s, Guts("b"), [1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert find(ev, "overridden")[0].data["now"] == "stunned instead"
    assert not s.fighter("b").has(Condition.UNCONSCIOUS)
    assert find(ev, "exempted")[0].rule == "AR.INJ.10"
    assert not find(ev, "check", check="fall_stun")


# -- knockback and landings ----------------------------------------------------------------------------------
GIANT = fighter("g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING))


def test_knockback_failed_dx_check_falls_and_lands_on_the_brain_with_knockback_damage() -> None:
    # rule: AR.KNB.1, AR.KNB.2, AR.KNB.3, AR.KNB.6, AR.RD.3
    s = begun(GIANT, B)
    s, ev = step(s, Attack("g", "b"), [*ATTACK_HITS, 4, 4, 4, 4])  # 16 basic: knockback 2 m
    assert s.offers and s.offers[0].condition == "stunned"
    s, ev = step(s, Decline("b"), [6, 6, 6, 6, 6, 6])  # knockdown check fails, DX-2 check fails
    b = s.fighter("b")
    assert b.posture is Posture.AERIAL and b.fall is not None and b.fall.location == "skull"
    assert find(ev, "knocked_back")[0].data["metres"] == 2
    assert find(ev, "check", check="knockback")[0].rule == "AR.KNB.2"
    # lands: thrust 2d-1 for ST 20 = 2 -> skull (2 - 1) x4 = 4: HP -10; death check, falling stun check;
    # subturn 2: stun recovery fails, HT check at 0 HP passes
    s, ev = step(s, Wait("b"), [2, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1])
    [landed] = find(ev, "landed")
    assert (
        landed.rule == "AR.KNB.6" and landed.data["posture"] == "lying" and landed.data["facing"] == "face_up"
    )
    kb = next(e for e in find(ev, "damage") if e.data["source"] == "knockback")
    assert kb.data["location"] == "skull" and kb.data["bone_dr"] == 1  # half the skull's DR 2
    assert find(ev, "damage_roll")[0].rule == "AR.KNB.3"
    assert find(ev, "check", check="fall_stun")[0].rule == "AR.FAL.2"


def test_knockback_passed_dx_check_lands_on_its_feet_without_knockback_damage() -> None:
    # rule: AR.KNB.2, AR.RD.3
    tough = replace(B, ht=20, hp=30, dx=14, st=10)
    s = begun(replace(GIANT, dx=16), tough)
    s, ev = step(s, Attack("g", "b"), [*ATTACK_HITS, 4, 4, 4, 4])  # 16 to the torso: stunned, 2 m
    s, ev = step(s, Decline("b"), [1, 1, 1, 1, 1, 1])  # knockdown check and DX check pass
    assert s.fighter("b").fall is not None and not s.fighter("b").fall.falls
    s, ev = step(s, Wait("b"), [1, 1, 1])  # lands; subturn 2: stun recovery
    assert find(ev, "landed")[0].data.get("on_its_feet")
    assert not find(ev, "damage")
    assert s.fighter("b").posture is Posture.STANDING


def test_knockback_from_lying_at_ground_level_does_no_knockback_damage() -> None:
    # rule: AR.KNB.4
    s = edit(begun(GIANT, B), "b", posture=Posture.LYING)
    s, ev = step(s, Attack("g", "b"), [3, 3, 3, 6, 6, 6, 4, 4, 4, 4])
    s, ev = step(s, Decline("b"), [6, 6, 6])  # knockdown skipped (lying); DX check fails
    assert s.fighter("b").fall is not None and s.fighter("b").fall.knockback_factor == 0
    s, ev = step(s, Wait("b"), [3, 3, 6, 6, 6, 1, 1, 1])  # 2d-1 = 5, x0; subturn 2: stun, HT at -6 HP
    assert find(ev, "knockback_damage")[0].data["basic"] == 0


def test_leg_knockback_checks_st_instead_and_failing_by_three_falls_face_down() -> None:
    # rule: AR.KNB.5, AR.KNB.7
    weak = replace(B, st=4, ht=16, hp=20)
    s = begun(GIANT, weak)
    s, ev = step(s, Attack("g", "b", "left_leg"), [1, 1, 2, 2, 2, 2, 2])  # crit; 8 basic: stunned, 4 m
    s, ev = step(s, Decline("b"), [1, 1, 1, 6, 6, 6])  # knockdown check passes; ST 4 - 4 fails by 18
    [check] = find(ev, "check", check="limb_knockback")
    assert check.rule == "AR.KNB.5" and check.data["target"] == 0
    assert not find(ev, "check", check="knockback")  # no DX check: a limb checks ST instead
    b = s.fighter("b")
    assert b.rooted_until == 1 and find(ev, "rooted")[0].rule == "AR.KNB.5"
    assert b.fall is not None and b.fall.facing is Facing.FACE_DOWN


def test_leg_knockback_failing_by_less_than_three_only_roots() -> None:
    # rule: AR.KNB.5
    s = begun(GIANT, replace(B, st=6, ht=16, hp=20))
    s, _ = step(s, Attack("g", "b", "left_leg"), [1, 1, 2, 2, 2, 2, 2])  # 8 basic // 4 = 2 m
    s, _ev = step(s, Decline("b"), [1, 1, 1, 2, 2, 2])  # ST 6 - 2 = 4 vs 6: failed by 2
    assert s.fighter("b").rooted_until == 1 and s.fighter("b").fall is None


def test_arm_knockback_failure_drops_that_arms_guard() -> None:
    # rule: AR.KNB.5
    weak = replace(B, st=4, ht=16, hp=20)
    s = edit(begun(GIANT, weak), "b", guards=(Guard("left_arm", "skull"),))
    s, ev = step(s, Attack("g", "b", "left_hand"), [1, 1, 2, 1, 1, 1, 1, 6, 6, 6])  # crit; 4 basic: 2 m
    assert s.fighter("b").guards == ()
    assert find(ev, "guard_dropped")[0].data["arm"] == "left_arm"


def test_fp_five_penalizes_limb_knockback_st_checks_in_the_bout() -> None:
    # rule: AR.FTG.2
    s = edit(begun(GIANT, replace(B, st=4, ht=16, hp=20)), "b", fp=5)
    s, ev = step(s, Attack("g", "b", "left_hand"), [1, 1, 2, 1, 1, 1, 1, 6, 6, 6])
    steps = find(ev, "check", check="limb_knockback")[0].data["steps"]
    assert any(x["rule"] == "AR.FTG.2" and x["value"] == -3 for x in steps)


def test_an_attack_naming_no_location_aims_where_the_data_says() -> None:
    # rule: AR.DMG.1 — an attack without a location takes damage.basic.default_location from the rules
    s, ev = step(fight(), Attack("a", "b"), [*ATTACK_HITS, 1, 1, 1])
    assert find(ev, "attack")[0].data["location"] == RULES.damage.basic.default_location
    moved = load_rules({"damage": {"basic": {"default_location": "left_arm"}}})
    s = fight(rules=moved)
    # a script step naming no location is stored as the attack it will apply (core Scripted compares)
    assert script_steps("a", [{"kind": "attack", "target": "b"}], moved) == (Attack("a", "b", "left_arm"),)
    assert Attack("a", "b", "left_arm") in legal(s, moved)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 1, 1, 1], moved)  # 3 crushing
    [attack] = find(ev, "attack")
    assert attack.data["location"] == "left_arm" and find(ev, "damage")[0].data["location"] == "left_arm"
    arm = moved.locations.locations["left_arm"]
    assert {"value": arm.to_hit, "reason": f"aimed at the {arm.name}", "rule": "AR.GAP.1"} in attack.data[
        "target_steps"
    ]
    assert s.fighter("b").location_damage == (("left_arm", 3),)


def test_guard_redirects_an_attack_to_the_arm() -> None:
    # rule: AR.GAP.2 (guards)
    s, _ = step(replace(fight(), slot=1), SetGuard("b", "left_arm", "skull"))
    s = replace(s, slot=0, subturn=2)
    s, ev = step(s, Attack("a", "b", "skull"), [1, 1, 2, 1, 1, 1])
    assert find(ev, "guarded")[0].data["arm"] == "left_arm"
    assert find(ev, "damage")[0].data["location"] == "left_arm"


def test_knockdown_failure_from_middle_tier_falls_face_down_and_lands_at_end_of_subturn() -> None:
    # rule: AR.INJ.6, AR.KNB.6, AR.KNB.7
    s, _ = step(fight(), Attack("a", "b"), [*ATTACK_HITS, 2, 2, 2])
    s, _ = step(s, Decline("b"), [6, 6, 6])
    b = s.fighter("b")
    assert b.posture is Posture.AERIAL and b.fall is not None and b.fall.facing is Facing.FACE_DOWN
    s, _ev = step(s, Wait("b"), [4, 4, 4])
    assert s.fighter("b").posture is Posture.LYING and s.fighter("b").facing is Facing.FACE_DOWN


def test_falling_from_height_then_stun_check_on_higher_of_ht_and_per() -> None:
    # rule: AR.FAL.1, AR.FAL.2, AR.RD.4
    perceptive = replace(B, per=14)
    s = edit(
        at_end_of_subturn(begun(A, perceptive), 1),
        "b",
        altitude=Fraction(4),
        posture=Posture.AERIAL,
        fall=Fall(True, Facing.FACE_UP, Posture.LYING, "torso", Posture.STANDING),
    )
    s, ev = step(s, Wait("b"), [6])  # falling 4 m: 1d = 6 to the torso: stunned (HT/2) first
    s, ev = step(s, Decline("b"), [6, 6, 5])  # no knockdown check (already lying); the stun check
    fall_check = find(ev, "check", check="fall_stun")[0]
    assert fall_check.data["target"] == 8 and fall_check.rule == "AR.FAL.2"
    assert s.fighter("b").has(Condition.UNCONSCIOUS)  # failed by 9
    assert s.fighter("b").altitude == 0


def test_falling_stun_check_failed_by_one_stuns() -> None:
    # rule: AR.FAL.2
    s = edit(
        at_end_of_subturn(fight(), 1),
        "b",
        altitude=Fraction(1),
        posture=Posture.AERIAL,
        fall=Fall(True, Facing.FACE_UP, Posture.LYING, "torso", Posture.STANDING),
    )
    s, ev = step(s, Wait("b"), [5, 3, 3, 3])  # 1d-2 = 3; stun check 10-3 = 7 vs 9: failed by 2?
    check = find(ev, "check", check="fall_stun")[0]
    assert check.data["margin"] == -2 and s.fighter("b").has(Condition.UNCONSCIOUS)
    s = edit(
        at_end_of_subturn(fight(), 1),
        "b",
        altitude=Fraction(1),
        posture=Posture.AERIAL,
        fall=Fall(True, Facing.FACE_UP, Posture.LYING, "torso", Posture.STANDING),
    )
    s, ev = step(s, Wait("b"), [5, 2, 3, 3])
    assert find(ev, "check", check="fall_stun")[0].data["margin"] == -1
    assert s.fighter("b").stunned and not s.fighter("b").incapacitated


# -- fatigue -------------------------------------------------------------------------------------------------
def test_fatigue_every_ten_subturns_at_the_start_of_the_next() -> None:
    # rule: AR.FTG.1
    loaded = replace(B, encumbrance=2)
    s = at_end_of_subturn(begun(A, loaded), 10)
    s, ev = step(s, Wait("b"))
    assert s.subturn == 11
    assert [e.data["fp_after"] for e in find(ev, "fatigue")] == [9, 7]
    assert all(e.automatic and e.rule == "AR.FTG.1" for e in find(ev, "fatigue"))
    s = at_end_of_subturn(begun(A, loaded), 9)
    s, ev = step(s, Wait("b"))
    assert not find(ev, "fatigue")


def test_all_out_attack_costs_one_fp_and_gives_up_defence() -> None:
    # rule: AR.FTG.1
    s, ev = step(fight(), Attack("a", "b", all_out=True), [6, 6, 6])  # misses
    assert s.fighter("a").fp == 9 and s.fighter("a").no_defense
    s, ev = step(s, Attack("b", "a"), [3, 3, 3, 1])  # a cannot defend: no defence roll
    assert find(ev, "attack")[0].data["hit"] and "cannot defend" in find(ev, "attack")[0].data["reason"]


def test_fp_one_loses_a_match_unless_overridden_by_an_audience_point() -> None:
    # rule: AR.FTG.4, AR.RD.6
    s = begun(A, B, format=MatchFormat.MATCH, faces=[6, 6, 6, 6, 6, 6])
    s = edit(s, "a", fp=2)
    s, ev = step(s, Attack("a", "b", all_out=True), [6, 6, 6])
    assert find(ev, "helpless")[0].rule == "AR.FTG.4"
    assert s.fighter("a").lost and s.result is not None and s.result.winner == "west"
    s = edit(begun(A, B, format=MatchFormat.MATCH, faces=[6, 6, 6, 6, 6, 6]), "a", fp=2, audience_points=1)
    s, ev = step(s, Attack("a", "b", all_out=True), [6, 6, 6])
    assert s.offers[0].condition == "helpless"
    assert Guts("a") not in legal(s)
    s, ev = step(s, Cheer("a", "second_wind"))
    assert s.fighter("a").fp == 3 and not s.fighter("a").lost and not s.offers
    assert find(ev, "overridden")[0].rule == "AR.RD.6"


def test_fp_one_in_a_fight_cannot_act() -> None:
    # rule: AR.FTG.4
    s = edit(begun(A, B, fighter("c", "west")), "b", fp=1)
    s, _ = step(s, Wait("a"))
    assert actor(s) == "c"  # b, conscious at FP 1, takes no slot
    s = edit(begun(A, B), "b", fp=1)
    s, _ev = step(s, Wait("a"))
    assert s.result is not None and s.result.winner == "east"  # west can no longer act


def test_fp_zero_is_unconscious() -> None:
    # rule: AR.FTG.5
    s = edit(fight(), "a", fp=1)
    s, ev = step(s, Attack("a", "b", all_out=True), [6, 6, 6])
    assert s.fighter("a").has(Condition.UNCONSCIOUS)
    assert find(ev, "incapacitated")[0].rule == "AR.FTG.5"


# -- guts ----------------------------------------------------------------------------------------------------
def test_guts_check_costs_two_fp_and_overrides_unconsciousness_with_a_stun() -> None:
    # rule: AR.GUT.1, AR.GUT.2
    s, _ = step(
        fight(), Attack("a", "b", "skull"), [1, 1, 2, 3, 3, 3, 1, 1, 1]
    )  # 9: (9-2) x4 -> 20; death check
    offer = s.offers[0]
    assert offer.cause.uncapped_final == 28
    # Will 10 - 5 (28 // 5) = 5: 3 succeeds; then the knockdown check and the 1 m knockback DX check
    s, ev = step(s, Guts("b"), [1, 1, 1, 1, 1, 1, 1, 1, 1])
    [check] = find(ev, "check", check="guts")
    assert check.data["target"] == 5
    assert any(x["rule"] == "AR.GUT.2" for x in check.data["steps"])
    b = s.fighter("b")
    assert (
        b.fp == 7 and b.guts_checks == 1 and b.stunned and not b.has(Condition.UNCONSCIOUS)
    )  # 1 FP: guts bonus


def test_guts_penalty_counts_checks_already_made_and_the_contest_margin() -> None:
    # rule: AR.GUT.2
    s = edit(fight(), "b", guts_checks=2)
    s, _ = step(s, Attack("a", "b"), [3, 3, 3, 5, 5, 5, 2, 2, 2])  # margins +5 vs -7: lost by 12
    assert s.offers[0].cause.margin_of_loss == 12
    s, ev = step(s, Guts("b"), [6, 6, 6, 1, 1, 1])
    check = find(ev, "check", check="guts")[0]
    assert check.data["target"] == 10 - 1 - 12 - 2
    assert not check.data["success"] and s.fighter("b").stunned


def test_guts_is_not_possible_without_two_fp_or_against_death() -> None:
    # rule: AR.GUT.1
    s = edit(fight(), "b", fp=1, hp=-45, death_checks_done=(-10, -15, -20, -25, -30, -35, -40, -45))
    s, ev = step(s, Attack("a", "b", "skull"), [1, 1, 2, 3, 3, 3])
    assert not find(ev, "override_offered")


def test_guts_bonus_on_planned_ht_checks_and_one_per_check() -> None:
    # rule: AR.GUT.3, AR.RD.6
    planner = replace(B, guts_bonus=GutsBonusPlan((CheckKind.STUN_RECOVERY,), 3))
    s = edit(at_end_of_subturn(begun(A, planner), 1), "b", conditions=(Condition.STUNNED,))
    s, ev = step(s, Wait("b"), [4, 4, 5])  # 13 vs HT 10 + 3
    check = find(ev, "check", check="stun_recovery")[0]
    assert check.data["target"] == 13 and check.data["success"]
    assert s.fighter("b").fp == 9 and find(ev, "fatigue")[0].rule == "AR.GUT.3"
    assert sum(x["rule"] == "AR.GUT.3" for x in check.data["steps"]) == 1
    # with an audience bonus of +2: guts_only reading adds both (+5)
    s = edit(at_end_of_subturn(begun(A, planner), 1), "b", conditions=(Condition.STUNNED,), audience_points=1)
    s = replace(s, slot=1)
    s, _ = step(s, Cheer("b", "stand_tall"))
    s, ev = step(s, Wait("b"), [5, 5, 5])
    assert find(ev, "check", check="stun_recovery")[0].data["target"] == 15


def test_one_bonus_of_any_kind_reading() -> None:
    # rule: AR.RD.6 (alternative: one bonus of any kind per check)
    planner = replace(B, guts_bonus=GutsBonusPlan((CheckKind.STUN_RECOVERY,), 3))
    any_bonus = load_rules({"injury": {"guts": {"one_bonus_per_check": "any"}}})
    s = begun(A, planner, rules=any_bonus)
    s = edit(replace(s, slot=1), "b", conditions=(Condition.STUNNED,), audience_points=1)
    s, _ = step(s, Cheer("b", "stand_tall"), (), any_bonus)
    s, ev = step(s, Wait("b"), [5, 5, 5], any_bonus)
    check = find(ev, "check", check="stun_recovery")[0]
    assert check.data["target"] == 13 and s.fighter("b").fp == 9  # the larger guts bonus (+3) only
    assert s.fighter("b").check_bonuses  # the audience bonus waits for another check


# -- match format --------------------------------------------------------------------------------------------
def test_popularity_check_at_match_start_gives_an_audience_point() -> None:
    # rule: AR.AUD.2
    champ = replace(A, champion=True, matches=12)
    s, ev = step(bout(champ, B, format=MatchFormat.MATCH), Begin(), [4, 4, 4, 4, 4, 4])
    assert [e.data["popularity"] for e in find(ev, "popularity")] == [12, 10]
    assert [e.data["success"] for e in find(ev, "check", check="popularity")] == [True, False]
    assert s.fighter("a").audience_points == 1 and s.fighter("b").audience_points == 0
    s2, _ = step(s, Cheer("a", "shake_it_off"))
    assert s2.fighter("a").audience_points == 0
    with pytest.raises(IllegalActionError) as err:
        step(s2, Cheer("a", "shake_it_off"))
    assert err.value.rule == "AR.AUD.2"


def test_incapacitated_state_not_overridden_loses_the_match() -> None:
    # rule: AR.OUT.1
    s = begun(A, B, format=MatchFormat.MATCH, faces=[6, 6, 6, 6, 6, 6])
    s, _ = step(s, Attack("a", "b", "skull"), [1, 1, 2, 3, 3, 3, 1, 1, 1])
    s, ev = step(s, Decline("b"))
    assert s.fighter("b").lost and find(ev, "match_lost")[0].rule == "AR.OUT.1"
    assert s.result is not None and s.result.winner == "east"
    assert legal(s) == [] and RULESET.result(s) is not None and RULESET.to_move(s) is None


def test_giving_up_is_incapacitating() -> None:
    # rule: AR.OUT.1
    s = begun(A, B, format=MatchFormat.MATCH, faces=[6, 6, 6, 6, 6, 6])
    s, _ev = step(s, GiveUp("a"))
    assert s.fighter("a").has(Condition.GAVE_UP) and s.result is not None and s.result.winner == "west"


def test_idle_fighter_loses_the_will_to_fight() -> None:
    # rule: AR.OUT.1, AR.GAP.2 (lost the will to fight: house default, idle slots)
    # b stands within reach: a could attack, and its third idle slot in a row loses the will to fight
    s = edit(fight(), "a", idle_slots=2)
    s, _ev = step(s, Wait("a"))
    assert s.fighter("a").has(Condition.LOST_WILL) and s.offers[0].condition == "lost_will"
    s, _ev = step(s, Decline("a"))
    assert s.result is not None and s.result.winner == "west"  # fight format: the other side alone acts


def test_incapacitated_fighters_take_no_slot() -> None:
    # rule: AR.OUT.1
    s = edit(fight(), "b", conditions=(Condition.UNCONSCIOUS,))
    assert s.result is None
    s = begun(A, B, fighter("c", "west"))
    s = edit(s, "b", conditions=(Condition.UNCONSCIOUS,))
    s, _ = step(s, Wait("a"))
    assert actor(s) == "c"


# -- illegal actions -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Attack("b", "a"), "AR.CORE.3"),  # out of turn
        (Attack("a", "a"), "AR.GAP.2"),  # own side
        (Attack("a", "b", "tail"), "AR.GAP.1"),
        (Attack("a", "zed"), "AR.GAP.2"),
        (Begin(), "AR.CORE.3"),
        (Guts("a"), "AR.GUT.1"),
        (Decline("a"), "AR.GUT.1"),
        (Cheer("a", "second_wind"), "AR.AUD.2"),
        (Rise("a"), "AR.GAP.2"),
        (SetGuard("a", "left_leg", "skull"), "AR.GAP.2"),
        (SetGuard("a", "left_arm", "right_arm"), "AR.GAP.2"),
    ],
)
def test_illegal_actions_name_the_rule_and_change_nothing(action: object, rule: str) -> None:
    s = fight()
    before = state_codec(BoutState).dump(s)  # step() has no die to roll: it must raise before rolling
    with pytest.raises(IllegalActionError) as err:
        step(s, action)
    assert err.value.rule == rule
    assert state_codec(BoutState).dump(s) == before


def test_crippled_arm_cannot_guard() -> None:
    # rule: AR.DMG.6
    s = edit(fight(), "a", crippled=("left_arm",))
    with pytest.raises(IllegalActionError) as err:
        step(s, SetGuard("a", "left_arm", "skull"))
    assert err.value.rule == "AR.DMG.6"


def test_offer_must_be_answered_first() -> None:
    # rule: AR.GUT.1
    s, _ = step(fight(), Attack("a", "b"), [*ATTACK_HITS, 2, 2, 2])
    with pytest.raises(IllegalActionError) as err:
        step(s, Attack("a", "b"))
    assert err.value.rule == "AR.GUT.1"
    with pytest.raises(IllegalActionError):
        step(s, Wait("b"))


def test_lying_fighter_rises_in_two_steps() -> None:
    # rule: AR.GAP.2 (postures)
    s = edit(fight(), "a", posture=Posture.LYING, facing=Facing.FACE_UP)
    s, _ = step(s, Rise("a"))
    assert s.fighter("a").posture is Posture.SITTING and s.fighter("a").facing is None


def test_cause_defaults() -> None:
    assert Cause() == Cause(0, 0, 0)
