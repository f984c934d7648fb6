"""The bout over the shared Chronicle: seed replay, undo, JSON round trips and random legal play
(AR.CORE.3: a bout is subturns of actions and automatic follow-ups, replayed from seed + actions)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.arena.bout import RULESET, Attack, BoutState, bout_actor
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.scenario import bundled_scenarios, load_scenario, run_scenario
from kassen.core.errors import IllegalActionError
from kassen.core.events import Chronicle, canonical_json, find_ruleset
from kassen.core.rng import Rng

from .helpers import bout, fighter


def roundtrip(data: Any) -> Any:
    return json.loads(canonical_json(data))


def test_the_ruleset_is_registered_by_name() -> None:
    assert find_ruleset("arena") is RULESET


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(["duel", "melee", "knockback"]))
def test_the_same_seed_replays_the_same_bout(seed: int, name: str) -> None:
    # rule: AR.CORE.3 (replay = initial state + seed + actions; automatic follow-ups recomputed)
    c = run_scenario(load_scenario(name), seed)
    assert c.is_over()
    replayed = Chronicle.replay(roundtrip(c.to_json()))
    assert replayed.log_json() == c.log_json()
    assert replayed.state == c.state
    again = run_scenario(load_scenario(name), seed)
    assert again.log_json() == c.log_json()


def test_scheduled_checks_are_automatic_events_and_actions_are_not() -> None:
    # rule: AR.STN.2, AR.HP.2, AR.FTG.1 (scheduled checks are logged as automatic events)
    c = run_scenario(load_scenario("melee"), 11)
    events = c.events
    scheduled = [
        e
        for e in events
        if e.kind == "check"
        and e.data.get("check")
        in ("stun_recovery", "zero_hp", "death", "knockdown", "fall_stun", "popularity")
    ]
    assert scheduled and all(e.automatic for e in scheduled)
    assert all(not e.automatic for e in events if e.kind in ("attack", "wait", "rise", "declined"))
    assert all(e.rule.startswith("AR.") for e in events)


def test_undo_restores_state_and_rng() -> None:
    # rule: AR.CORE.3
    s = load_scenario("duel")
    c: Chronicle[BoutState, Any] = Chronicle(RULESET, s.state, 5)
    policy = s.policy()
    for _ in range(4):
        c.apply(policy(c.state, c.legal_actions()))
    state, rng, log = c.state, c.rng_state, c.log_json()
    action = policy(c.state, c.legal_actions())
    first = c.apply(action)
    c.undo()
    assert (c.state, c.rng_state, c.log_json()) == (state, rng, log)
    assert c.apply(action) == first


def test_an_illegal_action_through_the_chronicle_changes_nothing() -> None:
    s = load_scenario("duel")
    c: Chronicle[BoutState, Any] = Chronicle(RULESET, s.state, 5)
    c.apply(c.legal_actions()[0])
    before = (c.state, c.state_id, c.rng_state, c.log_json())
    with pytest.raises(IllegalActionError) as err:
        c.apply(Attack("ken", "ryu"))  # ryu's slot
    assert err.value.rule == "AR.CORE.3"
    assert (c.state, c.state_id, c.rng_state, c.log_json()) == before


def test_state_json_round_trips_mid_bout() -> None:
    s = load_scenario("knockback")
    c: Chronicle[BoutState, Any] = Chronicle(RULESET, s.state, 3)
    policy = s.policy()
    while not c.is_over():
        data = roundtrip(RULESET.state_to_json(c.state))
        assert RULESET.state_from_json(data) == c.state
        c.apply(policy(c.state, c.legal_actions()))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=120))
def test_random_legal_play_never_breaks_the_rules(seed: int, picks: list[int]) -> None:
    fighters = [
        fighter("a", "east", dx=12, skill=13, fp=6),
        fighter("b", "west", ht=9, fp=5),
        fighter("c", "west", dx=11, st=16),
    ]
    state = bout(*fighters)
    rng = Rng(seed)
    for pick in picks:
        legal = RULESET.legal_actions(state)
        if not legal:
            assert RULESET.is_over(state)
            break
        action = legal[pick % len(legal)]
        assert RULESET.action_from_json(roundtrip(RULESET.action_to_json(action))) == action
        state, events = RULESET.apply(state, action, rng)
        for f in state.fighters:
            assert 0 <= f.fp <= f.profile.fp
            assert f.hp <= f.profile.hp
            assert all(d >= 0 for _, d in f.location_damage)
        assert all(e.rule.startswith("AR.") for e in events)
        assert state.result is not None or bout_actor(state) is not None
    assert RULESET.state_from_json(roundtrip(RULESET.state_to_json(state))) == state


def test_heuristic_bouts_end() -> None:
    for name in bundled_scenarios():
        for seed in range(3):
            assert run_scenario(load_scenario(name), seed).is_over()


def test_heuristic_picks_the_attack_with_the_best_exact_value() -> None:
    s = load_scenario("duel")
    c: Chronicle[BoutState, Any] = Chronicle(RULESET, s.state, 1)
    c.apply(c.legal_actions()[0])
    legal = c.legal_actions()
    choice = HeuristicPolicy()(c.state, legal)
    assert isinstance(choice, Attack)
    best = max(HeuristicPolicy.value(c.state, a) for a in legal if isinstance(a, Attack) and not a.all_out)
    assert HeuristicPolicy.value(c.state, choice) == best
