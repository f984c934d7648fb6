"""The battle over the shared Chronicle: seed replay to the identical log, undo, JSON save and load,
automatic follow-ups marked automatic (DESIGN principles 1-3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kassen.core.errors import KassenError
from kassen.core.events import Chronicle, canonical_json, find_ruleset
from kassen.sengoku.battle import (
    RULESET,
    BattleState,
    load_scenario,
    new_chronicle,
    replay_battle,
    run_battle,
)
from kassen.sengoku.catalog import load_catalog

from .helpers import catalog_with


def roundtrip(data: Any) -> Any:
    return json.loads(canonical_json(data))


def test_the_ruleset_is_registered_by_name() -> None:
    assert find_ruleset("sengoku") is RULESET
    assert load_scenario("demo").ruleset is RULESET


@pytest.mark.parametrize("name", ["demo", "count-example"])
@pytest.mark.parametrize("seed", range(15))
def test_a_battle_replays_from_its_seed_and_actions_byte_for_byte(name: str, seed: int) -> None:
    # rule: SG.RND.2 — replay = initial state + seed + actions; automatic follow-ups are recomputed
    c = run_battle(load_scenario(name), seed)
    assert c.is_over()
    data = roundtrip(c.to_json())
    assert data["meta"]["content_hash"] == load_catalog().content_hash
    replayed = Chronicle.replay(data)
    assert replayed.log_json() == c.log_json()
    assert replayed.state == c.state


@pytest.mark.slow
def test_replay_over_many_seeds() -> None:
    for seed in range(100):
        c = run_battle(load_scenario("demo"), seed)
        assert Chronicle.replay(roundtrip(c.to_json())).log_json() == c.log_json()


def test_undo_then_the_same_action_gives_the_same_state() -> None:
    # rule: SG.RND.2 — undo steps back one action, the random position included
    s = load_scenario("demo")
    c = new_chronicle(s, 5)
    policy = s.policy()
    for _ in range(25):
        if c.is_over():
            break
        action = policy(c.state, c.legal_actions())
        state, rng, log = c.state, c.rng_state, c.log_json()
        events = c.apply(action)
        after, rng_after = c.state, c.rng_state
        c.undo()
        assert (c.state, c.rng_state, c.log_json()) == (state, rng, log)
        assert c.apply(action) == events
        assert (c.state, c.rng_state) == (after, rng_after)


def test_a_battle_saves_to_and_loads_from_json() -> None:
    # rule: SG.RND.2 — the state is plain data: every state of a battle round-trips through JSON, and
    # so does every action
    s = load_scenario("demo")
    c = new_chronicle(s, 2)
    policy = s.policy()
    while True:
        data = roundtrip(RULESET.state_to_json(c.state))
        assert RULESET.state_from_json(data) == c.state
        if c.is_over():
            break
        action = policy(c.state, c.legal_actions())
        assert RULESET.action_from_json(roundtrip(RULESET.action_to_json(action))) == action
        c.apply(action)
    assert isinstance(c.state, BattleState)


def test_follow_ups_are_automatic_and_cite_rules() -> None:
    # rule: SG.LUL.1 — the lull's resets, like every automatic follow-up, are logged automatic with a rule
    c = run_battle(load_scenario("demo"), 1)
    events = c.events
    assert all(e.rule.startswith("SG.") for e in events)
    automatic = {
        "energy_reset",
        "count",
        "tie",
        "lull",
        "reservations_expire",
        "removed",
        "death_check",
        "combat_over",
        "defenseless_ends",
        "reaction_offered",
        "energy_spent",
        "overload_check",
    }
    for e in events:
        if e.kind in automatic and e.kind != "combat_over":
            assert e.automatic, e
        if e.kind in ("breath", "hold", "reserve", "stance", "move", "retreated", "upkeep"):
            assert not e.automatic or e.kind == "retreated", e


def test_replay_on_user_content_checks_the_content_hash(tmp_path: Path) -> None:
    # rule: SG.RND.2 — the initial state records the content used; another catalog refuses the replay
    cat = catalog_with(
        tmp_path,
        {
            "creatures": [
                {
                    "id": "oni",
                    "name": "Big Oni",
                    "grade": "veteran",
                    "weapons": ["kanabo"],
                    "max_energy": 9,
                    "attributes": {"physique": 3},
                }
            ]
        },
    )
    s = load_scenario("count-example", cat)
    c = run_battle(s, 3)
    data = roundtrip(c.to_json())
    assert replay_battle(data, cat).log_json() == c.log_json()
    with pytest.raises(KassenError, match="other content"):
        replay_battle(data)
