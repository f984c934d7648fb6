"""The bout on the core's Fight: seed replay, undo, JSON round trips and random legal play (AR.CORE.3: a
bout is subturns of actions and automatic follow-ups, replayed from seed + actions)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.arena.bout import Attack, Begin, BoutState
from kassen.arena.content import bundled_content
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.ruleset import RULESET
from kassen.core.errors import IllegalActionError
from kassen.core.events import canonical_json
from kassen.core.fight import Fight, state_codec
from kassen.core.ruleset import find_ruleset
from kassen.core.scenario import bundled_scenarios, open_fight

from .helpers import RULES, bout, fighter

NAMES = ["duel", "melee", "knockback", "pit", "crusher"]


def roundtrip(data: Any) -> Any:
    return json.loads(canonical_json(data))


def test_the_ruleset_is_registered_by_name() -> None:
    assert find_ruleset("arena") is RULESET
    assert {s.name for s in bundled_scenarios("arena")} == set(NAMES)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(NAMES))
def test_the_same_seed_replays_the_same_bout(seed: int, name: str) -> None:
    # rule: AR.CORE.3 (replay = initial state + seed + actions; automatic follow-ups recomputed)
    c = open_fight(f"arena/{name}", seed=seed)
    c.autoplay()
    assert c.over
    replayed = Fight.from_json(roundtrip(c.to_json()))
    assert replayed.log_json() == c.log_json()
    assert replayed.state == c.state
    again = open_fight(f"arena/{name}", seed=seed)
    again.autoplay()
    assert again.log_json() == c.log_json()


def test_scheduled_checks_are_automatic_events_and_actions_are_not() -> None:
    # rule: AR.STN.2, AR.HP.2, AR.FTG.1 (scheduled checks are logged as automatic events)
    c = open_fight("arena/melee", seed=11)
    c.autoplay()
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
    c = open_fight("arena/duel", seed=5)
    for _ in range(4):
        c.step()
    state, rng, sid, log = c.state, c.snapshot.rng, c.state_id, c.log_json()
    action = c.decide()
    first = c.apply(action)
    c.undo()
    assert (c.state, c.snapshot.rng, c.state_id, c.log_json()) == (state, rng, sid, log)
    assert c.apply(action) == first


def test_an_illegal_action_through_the_fight_changes_nothing() -> None:
    c = open_fight("arena/duel", seed=5)
    c.apply(c.legal_actions()[0])
    before = (c.state, c.state_id, c.snapshot.rng, c.log_json())
    with pytest.raises(IllegalActionError) as err:
        c.apply(Attack("ken", "ryu"))  # ryu's slot
    assert err.value.rule == "AR.CORE.3"
    assert (c.state, c.state_id, c.snapshot.rng, c.log_json()) == before


def test_state_json_round_trips_mid_bout() -> None:
    c = open_fight("arena/knockback", seed=3)
    codec = state_codec(BoutState)
    while not c.over:
        assert codec.load(roundtrip(codec.dump(c.state))) == c.state
        c.step()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=120))
def test_random_legal_play_never_breaks_the_rules(seed: int, picks: list[int]) -> None:
    fighters = [
        fighter("a", "east", dx=12, skill=13, fp=6),
        fighter("b", "west", ht=9, fp=5),
        fighter("c", "west", dx=11, st=16),
    ]
    c = Fight(RULESET, bundled_content(), bout(*fighters), seed)
    for pick in picks:
        legal = c.legal_actions()
        if not legal:
            assert c.over and c.to_move is None
            break
        action = legal[pick % len(legal)]
        assert c.action(roundtrip(c.action_json(action))) == action
        events = c.apply(action)
        for f in c.state.fighters:
            assert 0 <= f.fp <= f.profile.fp
            assert f.hp <= f.profile.hp
            assert all(d >= 0 for _, d in f.location_damage)
        assert all(e.rule.startswith("AR.") for e in events)
        assert c.state.result is not None or c.to_move is not None
    codec = state_codec(BoutState)
    assert codec.load(roundtrip(codec.dump(c.state))) == c.state


def test_heuristic_bouts_end() -> None:
    for s in bundled_scenarios("arena"):
        for seed in range(3):
            c = open_fight(f"arena/{s.name}", seed=seed)
            c.autoplay()
            assert c.over


def test_heuristic_picks_the_attack_with_the_best_exact_value() -> None:
    c = open_fight("arena/duel", seed=1)
    c.apply(Begin())
    decision = c.decision()
    policy = HeuristicPolicy(RULES)
    choice = policy(decision)
    assert isinstance(choice, Attack)
    weights = [policy.weigh(c.state, a, RULES) for a in decision.legal if isinstance(a, Attack)]
    best = max(w for w in weights if w is not None)
    assert policy.weigh(c.state, choice, RULES) == best
    assert RULESET.heuristic(RULES)(decision) == choice
