"""Every check takes the penalties in force on its attribute (AR.INJ.2-4 shock and pain on DX and IQ, the
grapple's -4 DX, AR.FTG.2 on ST): the knockback DX check (AR.KNB.2) included, which once ignored shock left
from an earlier hit and the grapple (issue 13: `arena bout knockback --seed 1` checked at 10, not 3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import kassen
from kassen.arena.bout import (
    Attack,
    BoutState,
    Decline,
    Grapple,
    attack_target,
    attribute_modifiers,
    guts_target,
)
from kassen.arena.content import load_rules
from kassen.arena.fighter import Cause, Shock, Weapon
from kassen.arena.terms import DamageType
from kassen.core.events import Event

from .helpers import RULES, begun, edit, fighter, find, step

GIANT = fighter("g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING))
B = fighter("b", "west", defense=8)  # DX 10, HT 10, ST 10
HOLDER = fighter("c", "east", dx=9)  # acts last; stands with g at 0 m
EARLIER = Shock("shock", 3, 2)  # 3 of shock from an earlier hit, in force until the end of subturn 2


def held_in_shock() -> BoutState:
    """b (1 m from g and c) carries shock 3 from an earlier hit and is held by c."""
    s = begun(GIANT, B, HOLDER)
    s = edit(s, "b", shocks=(EARLIER,))
    return edit(s, "c", grappling="b")


def steps_of(event: Event) -> list[tuple[int, str]]:
    return [(x["value"], x["rule"]) for x in event.data["steps"]]


def test_the_knockback_check_of_the_knockback_bout_seed_1_takes_the_standing_shock() -> None:
    # rule: AR.KNB.2, AR.INJ.2 — the hand-checkable value: Tetsu (DX 11) took 7 in subturn 1 (shock
    # until the end of subturn 2) and is knocked back 1 m in subturn 2: DX - metres - standing shock =
    # 11 - 1 - 7 = 3 (it was 10)
    fight = kassen.open_fight("arena/knockback", seed=1)
    fight.autoplay()
    first = next(e for e in fight.events if e.kind == "check" and e.data["check"] == "knockback")
    assert first.data["target"] == 3
    assert steps_of(first)[:3] == [(11, "AR.KNB.2"), (-1, "AR.KNB.2"), (-7, "AR.INJ.4")]


def test_a_knockback_check_takes_shock_from_an_earlier_hit_and_the_grapple() -> None:
    # rule: AR.KNB.2, AR.INJ.2, AR.INJ.4 — a 16 to b's torso: 2 m of knockback; the check is at DX 10 - 2 -
    # shock 3 (earlier hit; this hit's 16 comes after its effects) - 4 (held) = 1
    s, ev = step(held_in_shock(), Attack("g", "b"), [3, 3, 3, 6, 6, 6, 4, 4, 4, 4])
    s, ev = step(s, Decline("b"), [1, 1, 1, 1, 1, 1])  # the knockdown check, then the knockback check
    [check] = find(ev, "check", check="knockback")
    assert check.data["target"] == 10 - 2 - 3 - 4
    reasons = [x["reason"] for x in check.data["steps"]]
    assert "grappled: DX" in reasons and any("shock/pain -3" in r for r in reasons)
    # the HT check of the same hit (knockdown) takes none of them: HT is not penalized
    [knockdown] = find(ev, "check", check="knockdown")
    assert knockdown.data["target"] == 10
    assert not any(x["rule"] == "AR.INJ.4" for x in knockdown.data["steps"])
    # pushed 2 m away after the check: the hold (reach 1 m) is released
    assert s.fighter("b").position == 3 and s.fighter("c").grappling is None
    assert find(ev, "grapple_released")[0].rule == "AR.GAP.2"


def test_the_defence_attack_and_grapple_of_a_held_fighter_in_shock() -> None:
    # rule: AR.INJ.2, AR.INJ.4 — the DX-based checks: defence, attack and grapple skill all take -3 -4
    s = held_in_shock()
    assert attack_target(s, "b", "g", "torso", False, rules=RULES)[0] == 10 - 3 - 4
    assert attack_target(s, "b", "g", "skull", False, rules=RULES)[0] == 10 - 7 - 3 - 4
    _, ev = step(s, Attack("g", "b"), [3, 3, 3, 6, 6, 6, 1, 1, 1, 1])  # a 4: no stun, no knockback
    [defence] = find(ev, "check", check="defense")
    assert defence.data["target"] == 8 - 3 - 4
    s = edit(s, "g", grappling="b")  # g holds b too; b's slot: the grapple is rolled at the same skill
    s = edit(s, "c", grappling=None)
    s, ev = step(replace(s, slot=1), Grapple("b", "g"), [1, 1, 1])
    [grapple] = find(ev, "check", check="grapple")
    assert grapple.data["target"] == 10 - 3 - 4


def test_attribute_modifiers_by_attribute() -> None:
    # rule: AR.INJ.2, AR.FTG.2 — one place says which penalties each attribute's checks take
    s = edit(held_in_shock(), "b", fp=4)
    by: dict[str, Any] = {a: [m.value for m in attribute_modifiers(s, "b", a, RULES)] for a in RULES_ATTRS}
    assert by == {"dx": [-3, -4], "iq": [-3], "st": [-3], "ht": [], "per": [], "will": []}
    # the guts check is on Will: no shock (Per and Will are attributes of their own in the seed)
    target, _ = guts_target(s.fighter("b"), Cause(), RULES)
    assert target == s.fighter("b").profile.will


RULES_ATTRS = ("dx", "iq", "st", "ht", "per", "will")


def test_the_limb_knockback_st_check_takes_fatigue_not_shock() -> None:
    # rule: AR.KNB.5, AR.FTG.2 — ST - metres - 3 at FP 5 or less; the shock in force does not touch ST
    weak = fighter("b", "west", defense=8, st=6, ht=16, hp=20)
    s = edit(begun(GIANT, weak), "b", fp=5, shocks=(EARLIER,))
    _, ev = step(s, Attack("g", "b", "left_leg"), [1, 1, 2, 1, 1, 1, 1, 1, 1, 1])  # 4: 1 m
    [check] = find(ev, "check", check="limb_knockback")
    assert check.data["target"] == 6 - 1 - 3
    assert not any(x["rule"] == "AR.INJ.4" for x in check.data["steps"])


def test_per_and_will_take_shock_only_by_the_other_reading() -> None:
    # rule: AR.INJ.2 (house reading: Per and Will are attributes of their own; alternative: IQ-based) — the
    # guts check (Will) and every check's attribute follow the data's `shock.attributes`
    s = held_in_shock()
    assert guts_target(s.fighter("b"), Cause(), RULES)[0] == 10
    iq_based = load_rules({"injury": {"shock": {"attributes": ["dx", "iq", "per", "will"]}}})
    assert guts_target(s.fighter("b"), Cause(), iq_based)[0] == 10 - 3
    assert [m.value for m in attribute_modifiers(s, "b", "per", iq_based)] == [-3]
    assert attribute_modifiers(s, "b", "per", RULES) == ()


def test_modifiers_remembered_by_what_they_read_follow_fp_the_grapple_and_the_shocks() -> None:
    # rule: AR.GAP.2, AR.FTG.2, AR.INJ.4 — the memo is keyed by the shocks, FP and grapple: fighters and
    # states that share them share an answer, and a change in any of them is a new one
    s = held_in_shock()
    assert [m.value for m in attribute_modifiers(s, "b", "dx", RULES)] == [-3, -4]
    freed = edit(s, "c", grappling=None)
    assert [m.value for m in attribute_modifiers(freed, "b", "dx", RULES)] == [-3]
    assert attribute_modifiers(s, "b", "st", RULES) == ()
    tired = edit(s, "b", fp=4)
    assert [(m.value, m.rule) for m in attribute_modifiers(tired, "b", "st", RULES)] == [(-3, "AR.FTG.2")]
    later = edit(s, "b", shocks=(Shock("pain", 2, 3),))
    assert [(m.value, m.rule) for m in attribute_modifiers(later, "b", "dx", RULES)] == [
        (-2, "AR.INJ.4"),
        (-4, "AR.GAP.2"),
    ]
    # another fighter in the same condition reads the same penalties
    other = edit(edit(freed, "g", shocks=(EARLIER,)), "b", shocks=(EARLIER,))
    assert attribute_modifiers(other, "g", "dx", RULES) == attribute_modifiers(other, "b", "dx", RULES)
