"""The lab plays its fights in the simulation mode (:func:`kassen.lab.engine.simulate`): every bundled
scenario of every ruleset gives, seed by seed, the very record a :class:`~kassen.core.fight.Fight` played
to its end gives — the same actions, winner, reason and summary (Wounds, uses, attempts, rounds)."""

from __future__ import annotations

import pytest

import kassen
from kassen.core.scenario import bundled_scenarios, read_scenario
from kassen.lab.engine import Opener, Played, play_one, simulate
from kassen.lab.summary import summarize

SCENARIOS = [f"{s.ruleset}/{s.name}" for s in bundled_scenarios() if s.ruleset != "coinflip"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_simulated_fight_is_the_fights_record(scenario: str) -> None:
    opener = Opener(read_scenario(scenario), ())
    for seed in (0, 3, 11):
        fight = kassen.open_fight(scenario, seed=seed)
        fight.autoplay()
        record = play_one(opener, seed)
        assert fight.result is not None
        assert (record.status, record.winner, record.message) == (
            "draw" if fight.result.winner is None else "win",
            fight.result.winner,
            fight.result.reason,
        )
        assert record.actions == len(fight.entries)
        assert record.summary == summarize(fight)
        played = Played(opener.ruleset, opener.content.tables, opener.setup.state, opener.setup.state)
        simulate(opener, seed, 50_000, played)
        assert played.state == fight.state
        assert [e.action for e in played.entries] == list(fight.history)
        assert [e.actor for e in played.entries] == [e.actor for e in fight.entries]


def test_a_fight_cut_short_is_a_timeout_as_before() -> None:
    opener = Opener(read_scenario("sengoku/demo"), ())
    record = play_one(opener, 4, max_actions=3)
    assert (record.status, record.actions, record.summary) == ("timeout", 3, None)
    assert record.message == "no end within 3 actions"
