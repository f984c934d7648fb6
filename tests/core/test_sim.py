"""The simulator plays the fight's own rules: the same actions on the same seed give the same states,
dice and result as a :class:`~kassen.core.fight.Fight`, for every bundled scenario of every registered
ruleset (the coin-flip duel included); the events it records are the fight's, without explanations."""

from __future__ import annotations

from typing import Any

import coinflip
import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.events import Event, canonical_json
from kassen.core.rng import Rng
from kassen.core.ruleset import register_ruleset
from kassen.core.scenario import open_fight
from kassen.core.sim import Simulator

register_ruleset(coinflip.RULESET)  # collected before the session fixture runs

from test_fight_conformance import CASES  # noqa: E402  (needs the coin-flip duel registered)


@pytest.mark.parametrize(("ruleset", "name"), [c.values for c in CASES], ids=[c.id for c in CASES])
@pytest.mark.parametrize("seed", [1, 7, 40, 1234, 2**40 + 3])
def test_simulated_fight_is_the_fights_own(ruleset: str, name: str, seed: int) -> None:
    fight = open_fight(f"{ruleset}/{name}", seed=seed)
    fight.autoplay()
    sim: Simulator[Any, Any] = Simulator(fight.ruleset, fight.tables)
    rng, recorded = Rng(seed), Rng(seed)
    state = played = fight.initial_state
    for entry, after in zip(fight.entries, fight.states[1:], strict=True):
        assert sim.to_move(state) == fight.ruleset.to_move(state)
        assert sim.is_legal(state, entry.action)
        state = sim.step(state, rng, entry.action)
        assert state == after, f"action {entry.index} gives another state"
        played, events = sim.play(played, recorded, entry.action)
        assert played == after
        _same_events_unexplained(events, entry.events, entry.index)
    assert sim.result(state) == fight.result
    assert rng.state == recorded.state == fight.snapshot.rng


def _same_events_unexplained(got: tuple[Event, ...], fights: tuple[Event, ...], index: int) -> None:
    """The simulation's events are the fight's, one for one (kind, rule, automatic), each one's data a
    part of the fight's (:func:`_part_of`): only explanations are left out."""
    assert [(e.kind, e.rule, e.automatic) for e in got] == [(e.kind, e.rule, e.automatic) for e in fights]
    for mine, theirs in zip(got, fights, strict=True):
        assert _part_of(mine.to_json()["data"], theirs.to_json()["data"]), (index, mine.kind)


def _part_of(mine: Any, theirs: Any) -> bool:
    """Whether the JSON ``mine`` is ``theirs`` with some keys of its objects left out: every key it has,
    with a value that is a part of theirs (lists item by item, anything else equal)."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return all(k in theirs and _part_of(v, theirs[k]) for k, v in mine.items())
    if isinstance(mine, list) and isinstance(theirs, list):
        return len(mine) == len(theirs) and all(_part_of(a, b) for a, b in zip(mine, theirs, strict=True))
    return canonical_json(mine) == canonical_json(theirs)


def test_an_illegal_action_leaves_the_state_and_raises() -> None:
    fight = open_fight("coinflip/best-of-three", seed=3)
    sim: Simulator[Any, Any] = Simulator(fight.ruleset, fight.tables)
    state = fight.initial_state
    with pytest.raises(IllegalActionError):
        sim.step(state, Rng(3), coinflip.Flip("nobody", "heads"))  # the GM begins the duel first
    assert state == fight.initial_state
    assert not sim.is_legal(state, coinflip.Flip("nobody", "heads"))


def test_a_fight_explains_what_a_simulation_leaves_out() -> None:
    # the explanations are left out, not lost: the fight's own events carry them
    fight = open_fight("sengoku/demo", seed=3)
    fight.autoplay()
    sim: Simulator[Any, Any] = Simulator(fight.ruleset, fight.tables)
    rng, state, left_out = Rng(3), fight.initial_state, 0
    for entry in fight.entries:
        state, events = sim.play(state, rng, entry.action)
        for mine, theirs in zip(events, entry.events, strict=True):
            left_out += len(theirs.data) - len(mine.data)
    assert left_out > 100
