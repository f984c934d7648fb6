"""One meaning of legal actions (complete), who decides, and the automatic steps the core drains
(AR.CORE.3: subturns and slots; AR.GUT.1: offers are answered first)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.arena.bout import (
    Action,
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    GiveUp,
    Grapple,
    Guts,
    Move,
    Rise,
    SetGuard,
    Wait,
    validate,
)
from kassen.arena.bout.state import StartSubturn
from kassen.arena.content import bundled_content
from kassen.arena.rules import ArenaRules
from kassen.arena.ruleset import RULESET
from kassen.arena.terms import MatchFormat
from kassen.core.engine import GM, Actor, Snapshot, advance, drain
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.fight import Fight
from kassen.core.rng import Rng, ScriptedDice
from kassen.core.scenario import open_fight

from .helpers import RULES, begun, bout, fighter, step

A = fighter("a", "east", dx=12, skill=14)
B = fighter("b", "west", defense=8)


def candidates(state: BoutState, rules: ArenaRules) -> Iterator[Action]:
    """Every action of every kind, by every fighter and a stranger, at every location and arm, to every
    place within 20 m of the fighters, with unknown names and aliases among them: far more than is ever
    legal."""
    ids = [*state.order, "zed"]
    places = [f.position for f in state.fighters]
    locations = [*rules.locations.keys, "brain", "tail"]
    yield Begin()
    for who in ids:
        for kind in (Rise, Wait, GiveUp, Guts, Decline):
            yield kind(who)
        for effect in (*rules.match.audience.effects, "fireworks"):
            yield Cheer(who, effect)
        for target in ids:
            yield Grapple(who, target)
            for loc in (*locations, None):
                yield Attack(who, target, loc)
                yield Attack(who, target, loc, all_out=True)
        for arm in locations:
            for loc in ("", *locations):
                yield SetGuard(who, arm, loc)
        for to in range(min(places) - 20, max(places) + 21):
            yield Move(who, to)


def _normal(action: Action, rules: ArenaRules) -> Action:
    """An attack naming no location is the attack at the data's default location (AR.DMG.1)."""
    if isinstance(action, Attack) and action.location is None:
        return replace(action, location=rules.damage.basic.default_location)
    return action


def accepted(state: BoutState, action: Action, rules: ArenaRules) -> bool:
    try:
        validate(state, action, rules)
    except IllegalActionError:
        return False
    return True


def check_complete(state: BoutState, rules: ArenaRules, seed: int) -> None:
    legal = list(RULESET.legal_actions(state, rules))
    assert len(set(legal)) == len(legal)
    for action in legal:
        assert accepted(state, action, rules), action
    taken = {_normal(a, rules) for a in candidates(state, rules) if accepted(state, a, rules)}
    assert taken == set(legal)
    # and resolving accepts them: a few, with the dice of the fight
    for action in legal[seed % 7 :: 23]:
        advance(RULESET, rules, Snapshot(state, Rng(seed).state), action)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    name=st.sampled_from(["duel", "melee", "knockback", "pit"]),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=80),
)
def test_legal_actions_are_exactly_what_validation_accepts(seed: int, name: str, picks: list[int]) -> None:
    # rule: AR.CORE.3, AR.GUT.1 — complete: every action listed passes validation (and resolves), and
    # every action validation accepts is listed
    fight = open_fight(f"arena/{name}", seed=seed)
    for pick in picks:
        check_complete(fight.state, fight.tables, seed)
        if fight.over:
            break
        if pick % 3 == 0:  # the scenario's policies reach offers, stuns and falls
            fight.step()
            continue
        legal = [a for a in fight.legal_actions() if not isinstance(a, GiveUp)] or fight.legal_actions()
        fight.apply(legal[pick % len(legal)])


def test_validation_refuses_what_legal_actions_never_listed() -> None:
    # rule: AR.GAP.1 — an attack names a location by its key (an alias is refused, naming the key)
    s = begun(A, B)
    assert Attack("a", "b", "skull") in RULESET.legal_actions(s, RULES)
    with pytest.raises(IllegalActionError, match="'skull'") as err:
        validate(s, Attack("a", "b", "brain"), RULES)
    assert err.value.rule == "AR.GAP.1"
    validate(s, Attack("a", "b"), RULES)  # the default location, listed by its key


def test_a_cheer_for_a_guts_check_needs_a_guts_check_to_pay_for() -> None:
    # rule: AR.GUT.1, AR.AUD.3 — offered a stun at FP 1 (no guts check possible), roar of the crowd
    # (a bonus for the guts check) is not an answer: only declining is
    s, _ = step(
        begun(fighter("a", "east", dx=12, skill=14, weapon=A.weapon), B),
        Attack("a", "b"),
        [3, 3, 3, 6, 6, 6, 6],
    )
    assert s.offers and s.offers[0].condition == "stunned"
    poor = replace(
        s, fighters=tuple(replace(f, fp=1, audience_points=1) if f.id == "b" else f for f in s.fighters)
    )
    assert RULESET.legal_actions(poor, RULES) == [Decline("b")]
    with pytest.raises(IllegalActionError) as err:
        validate(poor, Cheer("b", "roar_of_the_crowd"), RULES)
    assert err.value.rule == "AR.GUT.1"


def test_to_move_is_the_referee_then_the_offered_fighter_or_the_slot() -> None:
    # rule: AR.CORE.3, AR.GUT.1
    s0 = bout(B, A)
    assert RULESET.to_move(s0) == GM and RULESET.legal_actions(s0, RULES) == [Begin()]
    s = begun(A, B)
    assert RULESET.to_move(s) == Actor("unit", "a", "east")
    s, _ = step(s, Attack("a", "b"), [3, 3, 3, 6, 6, 6, 6])  # 6 to b's torso: stunned, offered
    assert s.slot == 1 and s.offers[0].fighter == "b"
    assert RULESET.to_move(s) == Actor("unit", "b", "west")
    s, _ = step(replace(s, slot=0), Decline("b"), [1, 1, 1])  # a's slot again, after b declines
    assert RULESET.to_move(s) == Actor("unit", "a", "east")
    s, _ = step(s, GiveUp("a"))
    assert s.result is not None and RULESET.to_move(s) is None and RULESET.legal_actions(s, RULES) == []
    assert RULESET.result(s) is not None and RULESET.result(s).winner == "west"  # type: ignore[union-attr]


def test_follow_up_is_one_automatic_step_until_someone_decides() -> None:
    # rule: AR.CORE.3, AR.STN.2, AR.HP.2 — Begin schedules subturn 1; its start schedules each fighter's
    # stun recovery and HT-at-0-HP tasks: one step each, then a's slot stops the drain
    turn = RULESET.start(bout(A, B), ScriptedDice([]), RULES)
    RULESET.resolve(turn, Begin())
    assert turn.settled().agenda == (StartSubturn(),)
    steps = 0
    while RULESET.follow_up(turn):
        steps += 1
    assert steps == 1 + 2 * 2  # start of subturn 1, then 2 tasks for each of the 2 fighters
    assert (
        turn.state.subturn == 1
        and not turn.settled().agenda
        and RULESET.to_move(turn.state) == Actor("unit", "a", "east")
    )
    before = (turn.state, list(turn.events))
    assert not RULESET.follow_up(turn)  # nothing more to do: nothing changes
    assert (turn.state, list(turn.events)) == before


def test_an_offer_stops_the_drain_with_tasks_still_scheduled() -> None:
    # rule: AR.GUT.1 — the stunned fighter decides at once; the hit's knockdown check waits for it
    turn = RULESET.start(begun(A, B), ScriptedDice([3, 3, 3, 6, 6, 6, 6]), RULES)
    RULESET.resolve(turn, Attack("a", "b"))
    drain(lambda: RULESET.follow_up(turn))
    assert turn.state.offers and turn.settled().agenda
    assert not RULESET.follow_up(turn)


def test_the_cores_one_cap_bounds_the_automatic_steps() -> None:
    # rule: AR.AUD.2 — a match's Begin schedules the popularity checks and subturn 1: more than 3 steps
    turn = RULESET.start(bout(A, B, format=MatchFormat.MATCH), Rng(1), RULES)
    RULESET.resolve(turn, Begin())
    with pytest.raises(KassenError, match="automatic steps"):
        drain(lambda: RULESET.follow_up(turn), cap=3)


def test_a_turn_of_another_ruleset_is_refused() -> None:
    from kassen.core.engine import Turn

    with pytest.raises(KassenError):
        RULESET.resolve(Turn(bout(A, B), Rng(0), RULES), Begin())


def test_a_fight_over_a_bare_state_plays_and_replays() -> None:
    fight = Fight(RULESET, bundled_content(), begun(A, B), 3)
    fight.autoplay()
    assert fight.over
    assert Fight.from_json(fight.to_json()).log_json() == fight.log_json()
