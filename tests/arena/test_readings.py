"""Readings switched from data (AR.RD.3, AR.RD.4, AR.GAP.2), audience effects in the bout (AR.AUD.3), and
the timing of shock (AR.INJ.2 house default)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from kassen.arena.bout import Attack, BoutState, Cheer, Decline, Guts, Wait
from kassen.arena.content import load_rules
from kassen.arena.fighter import Fall, Shock, Weapon
from kassen.arena.terms import Condition, DamageType, Facing, Posture

from .helpers import begun, edit, fighter, find, step

A = fighter("a", "east", dx=12, skill=14, weapon=Weapon("maul", "none", 3, 0, DamageType.CRUSHING))
B = fighter("b", "west", defense=8)
GIANT = fighter("g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING))


def landing(state: BoutState, fall: Fall, altitude: Fraction = Fraction(0)) -> BoutState:
    s = replace(state, slot=len(state.order) - 1)
    return edit(s, "b", posture=Posture.AERIAL, fall=fall, altitude=altitude)


def test_fall_over_landing_without_falling_damage_reading() -> None:
    # rule: AR.RD.3 (alternative: no falling damage on a fall-over landing)
    fall = Fall(True, Facing.FACE_DOWN, Posture.LYING, "torso", Posture.STANDING)
    _, ev = step(
        landing(begun(A, B), fall, Fraction(2)), Wait("b"), [3, 1, 1, 1]
    )  # 2 m: 1d-1 = 2; stun check
    assert find(ev, "damage")[0].data["source"] == "falling"
    no_damage = load_rules({"falling": {"knockback": {"landing": {"fall_over_damage": False}}}})
    off = begun(A, B, rules=no_damage)
    _s, ev = step(landing(off, fall, Fraction(2)), Wait("b"), (), no_damage)
    assert not find(ev, "damage") and find(ev, "landed")


def test_knockback_damage_on_every_landing_reading() -> None:
    # rule: AR.RD.3 (alternative: knockback damage even when the DX check keeps the fighter on its feet)
    kept_feet = Fall(
        False,
        Facing.FACE_UP,
        Posture.STANDING,
        "torso",
        Posture.STANDING,
        knocker_st=20,
        knockback_factor=Fraction(1),
    )
    _, ev = step(landing(begun(A, B), kept_feet), Wait("b"))
    assert not find(ev, "damage")
    every_landing = load_rules({"falling": {"knockback": {"landing": {"knockback_damage": "every_landing"}}}})
    every = begun(A, B, rules=every_landing)
    # 2d-1 = 1 to the torso; stun check
    _s, ev = step(landing(every, kept_feet), Wait("b"), [1, 1, 1, 1, 1], every_landing)
    [hit] = find(ev, "damage")
    assert hit.data["source"] == "knockback" and hit.data["location"] == "torso" and hit.data["final"] == 1


def test_falling_stun_check_attribute_reading() -> None:
    # rule: AR.RD.4 (the higher of HT and Per; alternative: always HT)
    sharp = replace(B, per=14)
    fall = Fall(True, Facing.FACE_UP, Posture.LYING, "torso", Posture.STANDING)
    _, ev = step(landing(begun(A, sharp), fall, Fraction(1)), Wait("b"), [3, 1, 1, 1])  # 1 damage
    assert find(ev, "check", check="fall_stun")[0].data["target"] == 13
    on_ht = load_rules({"falling": {"falling": {"readings": {"stun_check_attribute": "ht"}}}})
    ht = begun(A, sharp, rules=on_ht)
    _s, ev = step(landing(ht, fall, Fraction(1)), Wait("b"), [3, 1, 1, 1], on_ht)
    assert find(ev, "check", check="fall_stun")[0].data["target"] == 9


def test_fp_below_zero_reading() -> None:
    # rule: AR.GAP.2 (below 0 FP: FP stops at 0; alternative: the excess comes off HP)
    s = edit(begun(A, B), "a", fp=0, hp=10)
    s2, ev = step(s, Attack("a", "b", all_out=True), [6, 6, 6])
    assert s2.fighter("a").fp == 0 and s2.fighter("a").hp == 10
    off_hp = load_rules({"injury": {"fatigue": {"below_zero": {"reading": "hp"}}}})
    hp = edit(begun(A, B, rules=off_hp), "a", fp=0, hp=10)
    s3, ev = step(hp, Attack("a", "b", all_out=True), [6, 6, 6], off_hp)
    assert s3.fighter("a").hp == 9 and find(ev, "fatigue_below_zero")


def test_audience_roar_adds_to_the_next_guts_check_and_shake_off_ends_shock() -> None:
    # rule: AR.AUD.3
    s = edit(begun(A, B), "b", audience_points=1)
    s, _ = step(s, Attack("a", "b"), [3, 3, 3, 6, 6, 6, 2, 2, 2])  # 6: stunned, offer
    s, ev = step(s, Cheer("b", "roar_of_the_crowd"))
    assert s.offers and s.fighter("b").audience_points == 0
    s, ev = step(s, Guts("b"), [6, 6, 6, 1, 1, 1])
    check = find(ev, "check", check="guts")[0]
    assert any(x["rule"] == "AR.AUD.3" and x["value"] == 3 for x in check.data["steps"])
    assert not s.fighter("b").check_bonuses
    s = edit(replace(begun(A, B), slot=1), "b", audience_points=1, shocks=(Shock("shock", 4, 2),))
    s, ev = step(s, Cheer("b", "shake_it_off"))
    assert s.fighter("b").shocks == () and find(ev, "shock_cleared")[0].rule == "AR.AUD.3"


def test_shock_does_not_penalize_the_checks_of_its_own_hit() -> None:
    # rule: AR.INJ.2 (house default: shock starts after the hit's effects are resolved)
    s, _ = step(begun(GIANT, B), Attack("g", "b"), [3, 3, 3, 6, 6, 6, 4, 4, 4, 4])  # 16: stunned, 2 m back
    s, ev = step(s, Decline("b"), [1, 1, 1, 1, 1, 1])
    assert find(ev, "check", check="knockback")[0].data["target"] == 10 - 2  # DX - distance, no shock
    assert s.fighter("b").shocks[0].value == 16


def test_an_unconscious_fighter_is_not_stunned_again() -> None:
    # rule: AR.OUT.1
    s = edit(begun(A, B), "b", conditions=(Condition.UNCONSCIOUS,))
    s, ev = step(s, Attack("a", "b"), [3, 3, 3, 2, 2, 2])  # no defence: 6 damage
    assert not find(ev, "stunned") and s.fighter("b").hp == 4
