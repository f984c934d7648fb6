"""The readings AR.RD.8 (guts against a stun hit twice; death checks after the first) and AR.RD.9 (which way
a fighter lands; a defender's critical success in the quick contest), each pinned by playing it out, and
each switchable in data: the other reading is played out too."""

from __future__ import annotations

import pytest

from kassen.arena.bout import Attack, Decline, Guts, Wait
from kassen.arena.checks import resolve_attack, resolve_check
from kassen.arena.content import load_rules
from kassen.arena.fighter import Cause, Weapon
from kassen.arena.terms import Condition, DamageType, Facing, Posture
from kassen.core.errors import ContentError

from .helpers import begun, edit, fighter, find, kinds, step

MAUL = Weapon("maul", "none", 3, 0, DamageType.CRUSHING)
A = fighter("a", "east", dx=12, skill=14, weapon=MAUL)
B = fighter("b", "west", defense=8)  # HT 10, HP 10, Will 10
GIANT = fighter("g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING))
ATTACK_HITS = [3, 3, 3, 6, 6, 6]  # attack 9 vs 14 (margin +5); defence 18 vs 8 (margin -10): wins by 15
LATEST = load_rules({"injury": {"guts": {"stun_cause": "latest_hit"}}})
SINCE_LAST = load_rules({"injury": {"hp": {"further_checks": "since_last_check"}}})
OUTRIGHT = load_rules({"checks": {"contest": {"defender_critical": "wins_outright"}}})
BY_TIER = load_rules({"falling": {"knockback": {"facing": {"incapacity_fall": "by_hit_tier"}}}})
KNOCKDOWN = load_rules(
    {"falling": {"knockback": {"facing": {"knockdown_and_failed_knockback": "knockdown"}}}}
)


def test_the_readings_are_house_defaults_in_data() -> None:
    # rule: AR.RD.8  rule: AR.RD.9 — each with its rationale naming the other reading
    r = load_rules()
    blocks = {
        "guts": (r.injury.guts.stun_cause_house_default, r.injury.guts.stun_cause, "first_hit"),
        "hp": (r.injury.hp.further_checks_house_default, r.injury.hp.further_checks, "fixed_thresholds"),
        "contest": (
            r.checks.contest.defender_critical_house_default,
            r.checks.contest.defender_critical,
            "compared_by_margin",
        ),
    }
    for block, value, expected in blocks.values():
        assert block.rule in {"AR.RD.8", "AR.RD.9"} and "Alternative" in block.rationale
        assert value == expected
    facing = r.falling.knockback.facing
    assert facing.house_default.rule == "AR.RD.9" and "Alternative" in facing.house_default.rationale
    assert (facing.incapacity_fall, facing.knockdown_and_failed_knockback) == ("face_up", "knockback")


@pytest.mark.parametrize(
    "override",
    [
        {"injury": {"guts": {"stun_cause": "second_hit"}}},
        {"injury": {"hp": {"further_checks": "every_hit"}}},
        {"checks": {"contest": {"defender_critical": "rerolled"}}},
        {"falling": {"knockback": {"facing": {"incapacity_fall": "face_down"}}}},
        {"falling": {"knockback": {"facing": {"knockdown_and_failed_knockback": "both"}}}},
    ],
)
def test_a_reading_neither_house_nor_other_is_refused(override: dict[str, object]) -> None:
    # rule: AR.RD.8  rule: AR.RD.9 — each switch takes the house reading or the other one, nothing else
    with pytest.raises(ContentError):
        load_rules(override)


# ------------------------------------------------------------------------------------------ AR.RD.8


def test_a_second_stunning_hit_keeps_the_first_hits_guts_penalties() -> None:
    # rule: AR.RD.8 — b is stunned by a 5 (HT/2, AR.INJ.5) after losing the contest by 15, declines the
    # override, stays stunned, and is hit again for 7 after losing by 10: nothing new is caused or offered,
    # and b's own guts check against the stun (AR.GUT.1) takes the FIRST hit's penalties (AR.GUT.2): -1 for
    # 5 damage and -15, not -10 for the latest contest
    s = begun(A, B)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 2, 1])  # 5 crushing to the torso
    first = Cause(uncapped_final=5, margin_of_loss=15, hit_id=1, location="torso")
    assert find(ev, "stunned") and s.fighter("b").stun_cause == first
    s, _ = step(s, Decline("b"), [1, 1, 2])  # the knockdown check passes
    s, _ = step(s, Wait("b"), [6, 6, 6])  # subturn 2: stun recovery fails
    assert s.subturn == 2 and s.fighter("b").stunned
    s, ev = step(s, Attack("a", "b"), [3, 3, 3, 1, 1, 2, 2, 2, 3, 1, 1, 2])  # wins by 10; 7 crushing
    assert find(ev, "quick_contest")[0].data["margin_of_loss"] == 10
    assert find(ev, "damage")[0].data["final"] == 7
    assert not find(ev, "stunned") and not find(ev, "override_offered")
    assert s.fighter("b").stun_cause == first
    s, ev = step(s, Guts("b"), [1, 1, 1])
    [check] = find(ev, "check", check="guts")
    penalties = [(x["value"], x["reason"]) for x in check.data["steps"] if x["rule"] == "AR.GUT.2"]
    assert penalties == [
        (-1, "final damage 5 (pass-through ignored): -1 per 5"),
        (-15, "lost the quick contest by 15"),
    ]
    assert check.data["target"] == 10 - 1 - 15


def test_a_stun_overridden_is_gone_and_the_next_stunning_hit_is_a_new_cause() -> None:
    # rule: AR.RD.8 — the contrast: once the first stun is overridden (AR.GUT.1), the next stunning hit is
    # a new state, with its own cause and a new offer
    s = begun(A, B)
    s, _ = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 2, 1])
    s, ev = step(s, Guts("b"), [1, 1, 1, 1, 1, 2])  # a 3 always succeeds; then the knockdown check
    assert find(ev, "overridden") and not s.fighter("b").stunned
    s, _ = step(s, Wait("b"))
    s, ev = step(s, Attack("a", "b"), [3, 3, 3, 1, 1, 2, 2, 2, 3])  # defence 8 - shock 5: loses by 6; 7
    assert find(ev, "stunned") and s.offers and s.offers[0].condition == "stunned"
    assert find(ev, "quick_contest")[0].data["margin_of_loss"] == 6
    assert s.fighter("b").stun_cause == Cause(uncapped_final=7, margin_of_loss=6, hit_id=2, location="torso")


def test_death_checks_after_the_first_come_at_fixed_thresholds() -> None:
    # rule: AR.RD.8 — HT 10: the first check at -10 (AR.HP.3), made when a hit takes b to -12; the next
    # hit takes b to -16, only 4 HP later, and calls for the check at -15 (a fixed threshold), not at -17
    # (5 HP after the last check)
    s = edit(begun(A, B), "b", hp=-8)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 1, 1, 1, 1, 1])  # 4 damage: -12; the check passes
    assert [e.data["threshold"] for e in find(ev, "death_check_due")] == [-10]
    assert s.fighter("b").hp == -12
    s, _ = step(s, Wait("b"), [1, 1, 1])  # subturn 2: the HT check at 0 HP or less passes (AR.HP.2)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 1, 1, 1, 1, 1])  # 4 damage: -16
    assert [e.data["threshold"] for e in find(ev, "death_check_due")] == [-15]
    assert s.fighter("b").hp == -16 and s.fighter("b").death_checks_done == (-10, -15)
    assert not s.fighter("b").has(Condition.DEAD)


# ------------------------------------------------------------------------------------------ AR.RD.9


def test_death_after_a_torso_hit_lands_face_up() -> None:
    # rule: AR.RD.9 — the torso is the middle tier, but the fall comes from death (AR.HP.3), not from the
    # damage: it lands face up (AR.KNB.7 "any other fall"); the knockdown that would have been face down
    # never comes
    s = edit(begun(A, B), "b", hp=-8)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 3, 3, 3, 1, 1, 1, 6, 6, 6])  # 9: -17; -15 fails
    assert find(ev, "damage")[0].data["location"] == "torso"
    [falls] = find(ev, "falls")
    assert falls.rule == "AR.KNB.7" and falls.data["facing"] == Facing.FACE_UP.value
    assert s.fighter("b").has(Condition.DEAD) and not find(ev, "check", check="knockdown")
    fall = s.fighter("b").fall
    assert fall is not None and fall.facing is Facing.FACE_UP


def test_unconsciousness_after_a_vitals_hit_lands_face_up() -> None:
    # rule: AR.RD.9 — crushing to the vitals (middle tier) and a failed HT check: unconscious (AR.INJ.8);
    # not overridden, the fighter falls face up
    s, _ = step(begun(A, B), Attack("a", "b", "vitals"), [3, 3, 3, 6, 6, 6, 1, 1, 1, 6, 6, 5])
    assert s.offers and s.offers[0].condition == "unconscious"
    s, ev = step(s, Decline("b"))
    [falls] = find(ev, "falls")
    assert falls.rule == "AR.KNB.7" and falls.data["facing"] == Facing.FACE_UP.value


def test_a_knockdown_and_a_failed_knockback_from_one_hit_land_as_the_knockback() -> None:
    # rule: AR.RD.9 — a 16 to the torso: the knockdown check fails (AR.INJ.6: middle tier, face down), then
    # the knockback DX check fails too (AR.KNB.2): the knockback's fall replaces it, face up on the brain
    # location (the skull here, AR.GAP.1), and lands there with knockback damage (AR.KNB.3)
    s = begun(GIANT, B)
    s, _ = step(s, Attack("g", "b"), [*ATTACK_HITS, 4, 4, 4, 4])  # 16 basic: knockback 2 m
    s, ev = step(s, Decline("b"), [6, 6, 6, 6, 6, 6])  # knockdown check fails, DX-2 check fails
    assert find(ev, "lands_facing")[0].data["facing"] == Facing.FACE_DOWN.value  # the knockdown's
    assert kinds(ev).index("lands_facing") < kinds(ev).index("aerial")
    fall = s.fighter("b").fall
    assert fall is not None and fall.falls and fall.facing is Facing.FACE_UP and fall.location == "skull"
    s, ev = step(s, Wait("b"), [2, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1])
    [landed] = find(ev, "landed")
    assert landed.data["facing"] == Facing.FACE_UP.value and landed.data["location"] == "skull"
    assert find(ev, "damage", source="knockback")[0].data["location"] == "skull"
    b = s.fighter("b")
    assert b.posture is Posture.LYING and b.facing is Facing.FACE_UP


def test_a_defenders_critical_success_is_still_compared_by_margin() -> None:
    # rule: AR.RD.9 — attack 6 vs 14 (a success by 8, not critical); defence 4 vs 8: a critical success
    # (AR.CORE.1) by 4. The contest compares margins (AR.CORE.2): +8 beats +4, the attack hits
    s, ev = step(begun(A, B), Attack("a", "b"), [3, 1, 2, 1, 1, 2, 1, 1, 1])
    attack, defense = find(ev, "check")[:2]
    assert attack.data["check"] == "attack" and not attack.data["critical"] and attack.data["margin"] == 8
    assert defense.data["check"] == "defense" and defense.data["critical"] and defense.data["success"]
    contest = find(ev, "quick_contest")[0]
    assert contest.data["winner"] == "first" and contest.data["margin_of_loss"] == 4
    assert find(ev, "attack")[0].data["hit"] and s.fighter("b").hp == 10 - 3


def test_a_defenders_critical_success_with_the_larger_margin_wins_as_any_success() -> None:
    # rule: AR.RD.9 — the contrast: against a weaker attack (a success by 2) the same critical defence wins
    # by its margin, as any success would
    s, ev = step(begun(A, B), Attack("a", "b"), [4, 4, 4, 1, 1, 2])
    assert find(ev, "quick_contest")[0].data["winner"] == "second"
    assert not find(ev, "attack")[0].data["hit"] and s.fighter("b").hp == 10


# ------------------------------------------------------------------------- the other readings, played out


def test_latest_hit_a_second_stunning_hit_renews_the_stuns_cause() -> None:
    # rule: AR.RD.8 (other reading, stun_cause: latest_hit) — the same bout as the house reading's test: the
    # second hit (7 damage, margin 10) becomes the stun's cause, logged, still with no new offer; b's guts
    # check takes -1 for 7 damage and -10
    s = begun(A, B, rules=LATEST)
    s, _ = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 2, 1], LATEST)
    s, _ = step(s, Decline("b"), [1, 1, 2], LATEST)
    s, _ = step(s, Wait("b"), [6, 6, 6], LATEST)
    s, ev = step(s, Attack("a", "b"), [3, 3, 3, 1, 1, 2, 2, 2, 3, 1, 1, 2], LATEST)
    [renewed] = find(ev, "stun_renewed")
    assert renewed.rule == "AR.RD.8" and renewed.data["hit"] == 2 and renewed.data["final"] == 7
    assert not find(ev, "override_offered")
    assert s.fighter("b").stun_cause == Cause(uncapped_final=7, margin_of_loss=10, hit_id=2, location="torso")
    s, ev = step(s, Guts("b"), [1, 1, 1], LATEST)
    [check] = find(ev, "check", check="guts")
    assert check.data["target"] == 10 - 1 - 10


def test_since_last_check_death_checks_count_from_the_hp_of_the_last_check() -> None:
    # rule: AR.RD.8 (other reading, further_checks: since_last_check) — the first check at -10 is rolled at
    # -12; -16 is only 4 HP later: no check (the house reading checks at -15); -17 is 5 HP later: a check
    s = edit(begun(A, B, rules=SINCE_LAST), "b", hp=-8)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 1, 1, 1, 1, 1], SINCE_LAST)
    assert [e.data["threshold"] for e in find(ev, "death_check_due")] == [-10]
    assert s.fighter("b").last_death_check_hp == -12
    s, _ = step(s, Wait("b"), [1, 1, 1], SINCE_LAST)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 2, 1, 1], SINCE_LAST)  # 4 damage: -16
    assert s.fighter("b").hp == -16 and not find(ev, "death_check_due")
    s, _ = step(s, Wait("b"), [1, 1, 1], SINCE_LAST)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 1, 1, 1, 1, 1, 1], SINCE_LAST)  # 3 damage: -19
    assert [e.data["threshold"] for e in find(ev, "death_check_due")] == [-17]
    assert s.fighter("b").last_death_check_hp == -19


def test_wins_outright_a_defenders_critical_success_stops_any_attack() -> None:
    # rule: AR.RD.9 (other reading, defender_critical: wins_outright) — the house reading's first bout: the
    # attack succeeds by 8, the defence is a critical success by 4: the attack misses, no contest
    s, ev = step(begun(A, B, rules=OUTRIGHT), Attack("a", "b"), [3, 1, 2, 1, 1, 2], OUTRIGHT)
    assert not find(ev, "quick_contest")
    [attack] = find(ev, "attack")
    assert not attack.data["hit"] and "critical success" in attack.data["reason"]
    assert s.fighter("b").hp == 10
    # and the odds walk the same rule: the defence's criticals (3-4 against defence 8) all stop the attack
    defence = resolve_check((1, 1, 2), 8)
    assert resolve_attack(resolve_check((3, 1, 2), 14), lambda: defence, rules=OUTRIGHT.checks).hit is False
    assert resolve_attack(resolve_check((3, 1, 2), 14), lambda: defence).hit is True


def test_by_hit_tier_death_after_a_torso_hit_lands_face_down() -> None:
    # rule: AR.RD.9 (other reading, incapacity_fall: by_hit_tier) — the house reading's death test: the
    # torso is the middle tier, so the fall lands face down
    s = edit(begun(A, B, rules=BY_TIER), "b", hp=-8)
    s, ev = step(s, Attack("a", "b"), [*ATTACK_HITS, 3, 3, 3, 1, 1, 1, 6, 6, 6], BY_TIER)
    [falls] = find(ev, "falls")
    assert falls.rule == "AR.KNB.7" and falls.data["facing"] == Facing.FACE_DOWN.value
    assert s.fighter("b").has(Condition.DEAD)


def test_knockdown_reading_the_knockdowns_fall_stands_and_the_knockback_adds_its_damage() -> None:
    # rule: AR.RD.9 (other reading, knockdown_and_failed_knockback: knockdown) — the house reading's bout:
    # both checks fail; the knockdown's fall (face down, on the torso) stands, with knockback damage
    s = begun(GIANT, B, rules=KNOCKDOWN)
    s, _ = step(s, Attack("g", "b"), [*ATTACK_HITS, 4, 4, 4, 4], KNOCKDOWN)
    s, ev = step(s, Decline("b"), [6, 6, 6, 6, 6, 6], KNOCKDOWN)
    assert not find(ev, "check", check="knockback")[0].data["success"]
    fall = s.fighter("b").fall
    assert fall is not None and fall.falls and fall.facing is Facing.FACE_DOWN and fall.location == "torso"
    assert fall.knocker_st == 20
