"""The battle over the core's Fight: seed replay to the identical log, undo, JSON save and load,
automatic follow-ups marked automatic (DESIGN principles 1-3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import kassen
from kassen.content.content import ContentMismatchError
from kassen.core.codec import Codec
from kassen.core.events import canonical_json
from kassen.core.fight import Fight
from kassen.core.ruleset import find_ruleset
from kassen.sengoku.battle import RULESET, Action, BattleState, load_scenario, run_battle
from kassen.sengoku.catalog import load_catalog

from .helpers import catalog_with


def roundtrip(data: Any) -> Any:
    return json.loads(canonical_json(data))


def test_the_ruleset_is_registered_by_name() -> None:
    assert find_ruleset("sengoku") is RULESET
    assert load_scenario("demo").fight().ruleset is RULESET
    assert kassen.open_fight("demo").ruleset is RULESET


@pytest.mark.parametrize("name", ["demo", "count-example", "burning-temple"])
@pytest.mark.parametrize("seed", range(15))
def test_a_battle_replays_from_its_seed_and_actions_byte_for_byte(name: str, seed: int) -> None:
    # rule: SG.RND.2 — replay = initial state + seed + actions; automatic follow-ups are recomputed
    c = run_battle(load_scenario(name), seed)
    assert c.over
    data = roundtrip(c.to_json())
    assert data["meta"]["content"]["hash"] == RULESET.load_content([]).hash == load_catalog().content_hash
    replayed = Fight.from_json(data)
    assert replayed.log_json() == c.log_json()
    assert replayed.state == c.state


@pytest.mark.slow
def test_replay_over_many_seeds() -> None:
    for seed in range(100):
        c = run_battle(load_scenario("demo"), seed)
        assert Fight.from_json(roundtrip(c.to_json())).log_json() == c.log_json()


def test_undo_then_the_same_action_gives_the_same_state() -> None:
    # rule: SG.RND.2 — undo steps back one action, the random position included
    c = load_scenario("demo").fight(5)
    for _ in range(25):
        if c.over:
            break
        action = c.decide()
        state, rng, log = c.state, c.snapshot.rng, c.log_json()
        events = c.apply(action)
        after, rng_after = c.state, c.snapshot.rng
        c.undo()
        assert (c.state, c.snapshot.rng, c.log_json()) == (state, rng, log)
        assert c.apply(action) == events
        assert (c.state, c.snapshot.rng) == (after, rng_after)


def test_a_battle_saves_to_and_loads_from_json() -> None:
    # rule: SG.RND.2 — the state is plain data: every state of a battle round-trips through JSON, and
    # so does every action
    states: Codec[BattleState] = Codec(BattleState)
    actions: Codec[Action] = Codec(Action)
    c = load_scenario("demo").fight(2)
    while True:
        data = roundtrip(states.dump(c.state))
        assert states.load(data) == c.state
        if c.over:
            break
        action = c.decide()
        assert actions.load(roundtrip(actions.dump(action))) == action
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
    catalog_with(
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
    s = load_scenario("count-example", [tmp_path])
    c = run_battle(s, 3)
    data = roundtrip(c.to_json())
    assert Fight.from_json(data, content=[tmp_path]).log_json() == c.log_json()
    with pytest.raises(ContentMismatchError, match="other content"):
        Fight.from_json(data)
