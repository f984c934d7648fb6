"""The shared chronicle: apply, illegal actions change nothing, undo, JSON replay byte for byte."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import (
    Chronicle,
    Event,
    JSONValue,
    canonical_json,
    find_ruleset,
    register_ruleset,
    registered_rulesets,
)
from kassen.core.rng import Rng


@dataclass(frozen=True)
class Race:
    """A toy fight: two runners, each action rolls a d6 and moves one of them; first to 10 wins."""

    positions: tuple[int, int] = (0, 0)
    turn: int = 0


@dataclass(frozen=True)
class Move:
    runner: int


class RaceRules:
    name = "toy-race"

    def legal_actions(self, state: Race) -> Sequence[Move]:
        return [Move(state.turn)]

    def apply(self, state: Race, action: Move, rng: Rng) -> tuple[Race, list[Event]]:
        if action.runner != state.turn:
            raise IllegalActionError(f"runner {action.runner} moves out of turn", rule="TOY.1")
        step = rng.die(6)
        positions = list(state.positions)
        positions[action.runner] += step
        new = replace(state, positions=(positions[0], positions[1]), turn=1 - state.turn)
        events = [Event("moved", {"runner": action.runner, "by": step})]
        if max(new.positions) >= 10:
            events.append(Event("finished", {"winner": action.runner}, automatic=True))
        return new, events

    def is_over(self, state: Race) -> bool:
        return max(state.positions) >= 10

    def state_to_json(self, state: Race) -> JSONValue:
        return {"positions": list(state.positions), "turn": state.turn}

    def state_from_json(self, data: JSONValue) -> Race:
        return Race((data["positions"][0], data["positions"][1]), data["turn"])

    def action_to_json(self, action: Move) -> JSONValue:
        return {"runner": action.runner}

    def action_from_json(self, data: JSONValue) -> Move:
        return Move(data["runner"])


RULES = register_ruleset(RaceRules())


def first_legal(state: Race, legal: Sequence[Move]) -> Move:
    return legal[0]


def test_registry_finds_rulesets_by_name_and_names_the_known_ones() -> None:
    assert find_ruleset("toy-race") is RULES
    assert "toy-race" in registered_rulesets()
    with pytest.raises(KassenError, match="toy-race"):
        find_ruleset("chess")


def test_illegal_action_leaves_the_chronicle_exactly_as_it_was() -> None:
    c = Chronicle(RULES, Race(), seed=1)
    c.apply(Move(0))
    before = (c.state, c.state_id, c.rng_state, c.log_json())
    with pytest.raises(IllegalActionError) as err:
        c.apply(Move(0))  # runner 1's turn
    assert err.value.rule == "TOY.1"
    assert (c.state, c.state_id, c.rng_state, c.log_json()) == before


def test_undo_restores_state_and_rng_so_the_same_action_gives_the_same_result() -> None:
    c = Chronicle(RULES, Race(), seed=5)
    c.apply(Move(0))
    first = c.apply(Move(1))
    state_after = c.state
    c.undo()
    assert c.state_id == 1
    again = c.apply(Move(1))
    assert again == first
    assert c.state == state_after


def test_undo_at_the_start_is_a_typed_error() -> None:
    with pytest.raises(KassenError):
        Chronicle(RULES, Race(), seed=0).undo()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_replay_from_seed_and_actions_reproduces_the_log_byte_for_byte(seed: int) -> None:
    c = Chronicle(RULES, Race(), seed=seed, meta={"content": "none"})
    c.run(first_legal)
    assert c.is_over()
    assert c.events[-1].kind == "finished" and c.events[-1].automatic
    text = c.log_json()
    replayed = Chronicle.replay(json_roundtrip(c.to_json()))
    assert replayed.log_json() == text
    assert replayed.state == c.state


def json_roundtrip(data: JSONValue) -> JSONValue:
    import json

    return json.loads(canonical_json(data))


def test_run_refuses_to_loop_forever() -> None:
    c = Chronicle(RULES, Race(), seed=3)
    with pytest.raises(KassenError, match="did not end"):
        c.run(first_legal, max_actions=1)


def test_states_lists_the_initial_state_and_one_per_action() -> None:
    c = Chronicle(RULES, Race(), seed=2)
    c.apply(Move(0))
    c.apply(Move(1))
    assert len(c.states) == 3
    assert c.states[0] == Race() and c.states[-1] == c.state


def test_find_ruleset_imports_a_bundled_ruleset_package_by_its_name() -> None:
    # A replay names its ruleset; the package kassen.<name> registers it when imported.
    import sys

    assert find_ruleset("arena").name == "arena"
    assert "kassen.arena" in sys.modules


def test_illegal_action_error_keeps_the_bare_message_and_the_rule() -> None:
    err = IllegalActionError("not your count", rule="SG.CNT.3")
    assert err.message == "not your count" and err.rule == "SG.CNT.3"
    assert str(err) == "not your count (SG.CNT.3)"
