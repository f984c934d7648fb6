"""The simulator plays the fight's own rules: the same actions on the same seed give the same states,
dice and result as a :class:`~kassen.core.fight.Fight`, for every bundled scenario of every registered
ruleset (the coin-flip duel included)."""

from __future__ import annotations

from typing import Any

import coinflip
import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.rng import Rng
from kassen.core.ruleset import register_ruleset
from kassen.core.scenario import open_fight
from kassen.core.sim import Simulator

register_ruleset(coinflip.RULESET)  # collected before the session fixture runs

from test_fight_conformance import CASES  # noqa: E402  (needs the coin-flip duel registered)


@pytest.mark.parametrize(("ruleset", "name"), [c.values for c in CASES], ids=[c.id for c in CASES])
@pytest.mark.parametrize("seed", [1, 7, 40])
def test_simulated_fight_is_the_fights_own(ruleset: str, name: str, seed: int) -> None:
    fight = open_fight(f"{ruleset}/{name}", seed=seed)
    fight.autoplay()
    sim: Simulator[Any, Any] = Simulator(fight.ruleset, fight.tables)
    rng = Rng(seed)
    state = fight.initial_state
    for entry, after in zip(fight.entries, fight.states[1:], strict=True):
        assert sim.to_move(state) == fight.ruleset.to_move(state)
        state = sim.step(state, rng, entry.action)
        assert state == after, f"action {entry.index} gives another state"
    assert sim.result(state) == fight.result
    assert rng.state == fight.snapshot.rng


def test_an_illegal_action_leaves_the_state_and_raises() -> None:
    fight = open_fight("coinflip/best-of-three", seed=3)
    sim: Simulator[Any, Any] = Simulator(fight.ruleset, fight.tables)
    state = fight.initial_state
    with pytest.raises(IllegalActionError):
        sim.step(state, Rng(3), coinflip.Flip("nobody", "heads"))  # the GM begins the duel first
    assert state == fight.initial_state
