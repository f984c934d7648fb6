"""One conformance test over every ruleset that ships with kassen (DESIGN principle 13).

Whatever the ruleset, a fight over the shared Chronicle must: end; list legal actions whenever it is not
over; write states that survive their JSON; replay from its seed and actions to the identical log; and
undo to any point, after which the same action gives the same state and the same events.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from kassen.core.events import Chronicle, canonical_json, registered_rulesets


def _sengoku() -> list[tuple[str, Callable[[int], Chronicle[Any, Any]]]]:
    from kassen.sengoku.battle import bundled_scenarios, load_scenario, run_battle

    return [(n, lambda seed, n=n: run_battle(load_scenario(n), seed)) for n in bundled_scenarios()]


def _l5r() -> list[tuple[str, Callable[[int], Chronicle[Any, Any]]]]:
    from kassen.l5r import bundled_scenarios, load_scenario, run_duel

    return [(n, lambda seed, n=n: run_duel(load_scenario(n), seed)) for n in bundled_scenarios()]


def _arena() -> list[tuple[str, Callable[[int], Chronicle[Any, Any]]]]:
    from kassen.arena import bundled_scenarios, load_scenario, run_scenario

    return [(n, lambda seed, n=n: run_scenario(load_scenario(n), seed)) for n in bundled_scenarios()]


# How to start a bundled fight of each ruleset (the only place that knows the rulesets by name).
STARTERS = {"sengoku": _sengoku, "l5r": _l5r, "arena": _arena}
CASES = [
    pytest.param(start, id=f"{ruleset}:{name}")
    for ruleset, starters in STARTERS.items()
    for name, start in starters()
]


def test_every_bundled_ruleset_is_registered_and_covered_here() -> None:
    assert set(STARTERS) <= set(registered_rulesets())
    assert len(CASES) >= len(STARTERS)  # at least one bundled fight each


@pytest.mark.parametrize("start", CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_bundled_fight_conforms(start: Callable[[int], Chronicle[Any, Any]], seed: int) -> None:
    fight = start(seed)
    rules = fight.ruleset
    assert fight.is_over() and fight.entries, "the fight ends, after at least one action"

    # Every state before the end offers at least one legal action, and every state survives its JSON.
    for state in fight.states[:-1]:
        assert not rules.is_over(state)
        assert rules.legal_actions(state)
    for state in fight.states:
        data = json.loads(canonical_json(rules.state_to_json(state)))
        assert rules.state_from_json(data) == state

    # Replay from the seed and the actions reproduces the log byte for byte.
    text = fight.log_json()
    replayed = Chronicle.replay(json.loads(text))
    assert replayed.log_json() == text
    assert replayed.state == fight.state

    # Undo to the middle, then the same action again: the same state and the same events.
    middle = len(fight.entries) // 2
    entry = fight.entries[middle]
    for _ in range(len(fight.entries) - middle):
        fight.undo()
    assert fight.state == replayed.states[middle]
    events = fight.apply(rules.action_from_json(entry.action))
    assert events == entry.events
    assert fight.state == replayed.states[middle + 1]
