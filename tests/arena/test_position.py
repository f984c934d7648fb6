"""The position model (AR.GAP.2 house default, `match.position`): reach, closing and retreating, and every
Move effect restricting something real — Move halved by injury (AR.HP.1) or fatigue (AR.FTG.3), no move
while a leg knockback roots the fighter (AR.KNB.5), knockback pushing the target away (AR.KNB.1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import kassen
from kassen.arena.bout import (
    Attack,
    BoutState,
    Decline,
    Grapple,
    Move,
    Rise,
    Wait,
    move_allowance,
    validate,
)
from kassen.arena.content import load_rules
from kassen.arena.fighter import Weapon
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.ruleset import RULESET
from kassen.arena.terms import Condition, DamageType, Posture
from kassen.core.engine import Actor
from kassen.core.errors import IllegalActionError
from kassen.core.policy import Decision

from .helpers import RULES, begun, bout, edit, fighter, find, legal, step

A = fighter("a", "east", dx=12, skill=14)  # Move (12 + 10) / 4 = 5
B = fighter("b", "west", defense=8)  # Move 5
GIANT = fighter("g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING))
STEP = load_rules({"match": {"position": {"attack_step": 1}}})


def apart(metres: int) -> BoutState:
    return begun(A, B, positions={"a": 0, "b": metres})


def moves(state: BoutState, fid: str) -> list[int]:
    return sorted(a.to for a in legal(state) if isinstance(a, Move) and a.actor == fid)


def test_the_position_model_is_a_house_default_in_data() -> None:
    # rule: AR.GAP.2 — data, with its rationale naming the alternative
    p = RULES.match.position
    assert p.house_default.rule == "AR.GAP.2" and "Alternative" in p.house_default.rationale
    assert (p.start_distance, p.default_reach, p.grapple_reach, p.attack_step) == (1, 1, 1, 0)
    assert A.reach == 1  # a weapon without a reach gets the data's


def test_sides_start_start_distance_apart_unless_placed() -> None:
    # rule: AR.GAP.2
    s = bout(A, B, fighter("c", "west"))
    assert [f.position for f in s.fighters] == [0, 1, 1]
    s = bout(A, B, start_distance=6, positions={"a": -2})
    assert [f.position for f in s.fighters] == [-2, 6]
    pit = kassen.open_fight("arena/pit", seed=1).state
    assert {f.id: f.position for f in pit.fighters} == {"oni": 0, "sora": 6, "kai": 6}


def test_an_attack_needs_its_target_within_reach() -> None:
    # rule: AR.GAP.2 — at 2 m a fist (reach 1) cannot attack or grapple; a staff (reach 2) can
    s = apart(2)
    assert not [x for x in legal(s) if isinstance(x, Attack | Grapple)]
    with pytest.raises(IllegalActionError, match="beyond its reach of 1 m") as err:
        validate(s, Attack("a", "b", "torso"), RULES)
    assert err.value.rule == "AR.GAP.2"
    staff = fighter(
        "a", "east", dx=12, skill=14, weapon=Weapon("staff", "none", 1, 0, DamageType.CRUSHING, reach=2)
    )
    s = begun(staff, B, positions={"a": 0, "b": 2})
    assert Attack("a", "b", "torso") in legal(s) and Grapple("a", "b") not in legal(s)


def test_closing_and_retreating_up_to_the_effective_move() -> None:
    # rule: AR.GAP.2 — Move 5: from 0 m anywhere in -5..5; closing to 4 m brings b within reach
    s = apart(5)
    assert moves(s, "a") == [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]
    with pytest.raises(IllegalActionError, match="can move 5 m"):
        validate(s, Move("a", 6), RULES)
    s, ev = step(s, Move("a", 4))
    [moved] = find(ev, "moved")
    assert moved.data["why"] == "closing" and moved.data["distance"] == 1 and s.fighter("a").position == 4
    assert s.slot == 1  # the move is the slot
    s, ev = step(s, Move("b", 8))
    assert find(ev, "moved")[0].data["why"] == "retreating"


@pytest.mark.parametrize(
    ("changes", "metres", "rule"),
    [({"hp": 3}, 3, "AR.HP.1"), ({"fp": 3}, 3, "AR.FTG.3"), ({"hp": 2, "fp": 2}, 3, "AR.FTG.3")],
)
def test_halved_move_limits_how_far_a_fighter_moves(changes: dict[str, int], metres: int, rule: str) -> None:
    # rule: AR.HP.1, AR.FTG.3 — Move 5 halved (rounded up) is 3: 4 m is out of one slot's reach; halved by
    # injury and fatigue together, it is halved once (the fatigue halving is ignored)
    s = edit(apart(5), "a", **changes)
    assert moves(s, "a") == [d for d in range(-metres, metres + 1) if d]
    with pytest.raises(IllegalActionError, match="can move 3 m") as err:
        validate(s, Move("a", 4), RULES)
    assert err.value.rule == rule


def test_a_rooted_leg_cannot_move_until_the_next_subturn() -> None:
    # rule: AR.KNB.5 — a 4 to b's leg pushes 1 m: ST 6 - 1 = 5, rolled 6: fails by 1, rooted (not fallen);
    # at b's slot of the same subturn it cannot move; in the next it can
    weak = fighter("b", "west", defense=8, st=6, ht=16, hp=20)
    s, ev = step(begun(GIANT, weak), Attack("g", "b", "left_leg"), [1, 1, 2, 1, 1, 1, 1, 2, 2, 2])
    assert find(ev, "rooted") and s.fighter("b").posture is Posture.STANDING
    assert s.fighter("b").position == 1  # a limb is not pushed
    assert moves(s, "b") == []
    with pytest.raises(IllegalActionError) as err:
        validate(s, Move("b", 2), RULES)
    assert err.value.rule == "AR.KNB.5"
    s, _ = step(s, Wait("b"))  # subturn 2: b's slot again
    s = replace(s, slot=1)
    assert moves(s, "b") and move_allowance(s, s.fighter("b"), RULES)[0] == (10 + 16) // 4


def test_a_fighter_with_move_0_cannot_close() -> None:
    # rule: AR.GAP.2 — chained: Move 0, nothing within reach, nothing to do but wait (not idling: nobody to
    # attack, AR.OUT.1)
    chained = fighter("a", "east", dx=12, skill=14, move=0)
    s = begun(chained, B, positions={"a": 0, "b": 3})
    assert moves(s, "a") == [] and not [x for x in legal(s) if isinstance(x, Attack)]
    for _ in range(4):
        s, _ = step(replace(s, slot=0), Wait("a"))
    assert not s.fighter("a").has(Condition.LOST_WILL) and s.fighter("a").idle_slots == 0


def test_lying_stunned_or_held_fighters_do_not_move() -> None:
    # rule: AR.GAP.2, AR.STN.1 — lying rises first; stunned may only defend; held cannot move away
    s = apart(3)
    assert moves(edit(s, "a", posture=Posture.LYING), "a") == []
    assert Rise("a") in legal(edit(s, "a", posture=Posture.LYING))
    assert moves(edit(s, "a", conditions=(Condition.STUNNED,)), "a") == []
    held = edit(begun(A, B), "b", grappling="a")
    assert moves(held, "a") == []


def test_knockback_pushes_the_target_away_from_the_attacker() -> None:
    # rule: AR.KNB.1 — 16 basic against ST 10: 2 m, away from the giant, whichever side it stands on
    for g_at, b_at, lands in ((0, 1, 3), (5, 4, 2)):
        s = begun(GIANT, B, positions={"g": g_at, "b": b_at})
        s, _ = step(s, Attack("g", "b"), [3, 3, 3, 6, 6, 6, 4, 4, 4, 4])
        s, ev = step(s, Decline("b"), [1, 1, 1, 1, 1, 1])
        [pushed] = find(ev, "knocked_back")
        assert (pushed.data["position_from"], pushed.data["position_to"]) == (b_at, lands)
        assert s.fighter("b").position == lands
        assert not [x for x in RULESET.legal_actions(replace(s, slot=0), RULES) if isinstance(x, Attack)]


def test_the_step_with_an_attack_is_the_other_reading() -> None:
    # rule: AR.GAP.2 (alternative: attack_step 1) — at 2 m the fist steps in and attacks; rooted, it cannot
    s = begun(A, B, positions={"a": 0, "b": 2}, rules=STEP)
    assert Attack("a", "b", "torso") in legal(s, STEP)
    s2, ev = step(s, Attack("a", "b"), [6, 6, 6], STEP)
    assert find(ev, "moved")[0].data["why"] == "a step with the attack" and s2.fighter("a").position == 1
    rooted = edit(s, "a", rooted_until=1)
    assert not [x for x in legal(rooted, STEP) if isinstance(x, Attack)]


def test_idling_counts_only_when_someone_could_be_attacked() -> None:
    # rule: AR.OUT.1, AR.GAP.2 — moving away from an opponent within reach passes a slot without attacking
    s = edit(begun(A, B), "a", idle_slots=2)
    s, ev = step(s, Move("a", -3))
    assert s.fighter("a").has(Condition.LOST_WILL) and find(ev, "moved")[0].data["why"] == "retreating"


def test_the_heuristic_closes_just_within_its_reach() -> None:
    # rule: AR.GAP.2 — nobody within reach: it closes on the opponent, stopping at its own reach
    policy = HeuristicPolicy(RULES)
    spear = fighter(
        "a", "east", dx=12, skill=14, weapon=Weapon("spear", "none", 1, 0, DamageType.IMPALING, reach=2)
    )
    for who, stop in ((A, 4), (spear, 3)):
        s = begun(who, B, positions={"a": 0, "b": 5})
        options = tuple(RULESET.legal_actions(s, RULES))
        decision = Decision(s, Actor("unit", "a", "east"), options, (), 0, RULES, options.__contains__)
        assert policy(decision) == Move("a", stop)


def test_in_the_pit_fighters_close_are_pushed_away_and_close_again_at_their_move() -> None:
    # rule: AR.GAP.2, AR.HP.1, AR.KNB.1, AR.KNB.3 — the bundled pit, auto-played: every bout opens with
    # closing moves, knockback pushes fighters out of reach, wounded fighters close at halved Move, and
    # Oni's knockback damage counts his +2 ST
    seen = {"closing": 0, "pushed": 0, "halved": 0, "st bonus": 0}
    for seed in range(1, 11):
        fight = kassen.open_fight("arena/pit", seed=seed)
        fight.autoplay()
        moved = [e for e in fight.events if e.kind == "moved"]
        assert moved and moved[0].data["why"] == "closing"
        seen["closing"] += 1
        seen["pushed"] += sum(e.kind == "knocked_back" and "position_to" in e.data for e in fight.events)
        seen["halved"] += sum(any(x["rule"] == "AR.HP.1" for x in e.data["steps"]) for e in moved)
        seen["st bonus"] += sum(
            e.kind == "damage_roll" and "ST 22 (ST 20 +2 in bonuses)" in e.data["what"] for e in fight.events
        )
    assert all(seen.values()), seen


def _closed_on_by_weighing(
    policy: HeuristicPolicy, state: kassen.arena.bout.BoutState, fid: str, moves: list[Move]
) -> Move:
    """The heuristic's closing move with every standing opponent weighed (fewest slots, then the value
    of an attack at the default location, then the first listed), even when only one stands."""
    from kassen.arena.bout import Attack, active_targets

    f = state.fighter(fid)
    step = max(abs(m.to - f.position) for m in moves)
    foes = active_targets(state, f)
    standing = [t for t in foes if not t.incapacitated] or foes
    ranked = sorted(
        range(len(standing)),
        key=lambda i: (
            -(-max(0, abs(standing[i].position - f.position) - f.profile.reach) // step),
            -policy.value(state, Attack(fid, standing[i].id, None), RULES),
            i,
        ),
    )
    target = standing[ranked[0]]
    reach = f.profile.reach
    return min(
        moves, key=lambda m: (max(0, abs(target.position - m.to) - reach), abs(m.to - f.position), m.to)
    )


@pytest.mark.parametrize("name", ["arena/knockback", "arena/pit", "arena/melee"])
def test_the_heuristic_closes_on_the_opponent_it_would_weigh_first(name: str) -> None:
    # rule: AR.GAP.2 — a fighter with no attack in reach moves toward the opponent fewest slots away
    # (then the one it would hurt most): with one opponent standing it is not weighed, with several it
    # is, and either way the move is the one weighing every opponent picks
    from kassen.arena.bout import Attack, Rise

    policy = HeuristicPolicy(RULES)
    compared = 0
    for seed in range(24):
        fight = kassen.open_fight(name, seed=seed)
        fight.autoplay()
        for state in fight.states:
            actor = RULESET.to_move(state)
            if actor is None or actor.kind != "unit" or state.offers:
                continue
            legal = list(RULESET.legal_actions(state, RULES))
            moves = [a for a in legal if isinstance(a, Move)]
            f = state.fighter(actor.id)
            if not moves or f.stunned or any(isinstance(a, (Attack, Rise)) for a in legal):
                continue  # the heuristic attacks, rises or waits: it does not close
            chosen = policy._close(state, actor.id, moves, RULES)
            if isinstance(chosen, Move):
                assert chosen == _closed_on_by_weighing(policy, state, actor.id, moves), (name, seed)
                compared += 1
    assert compared > 4
