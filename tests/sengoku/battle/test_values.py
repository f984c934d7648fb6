"""The heuristic's values key a target by what its profile reads (BattleRules.profile_reading) instead of
the profile itself: equal readings must mean profiles equal but for the name, for every unit of every
state of many battles (with copied units, so that many readings are met again)."""

from __future__ import annotations

import pytest

from kassen.core.scenario import ScenarioSource, open_fight
from kassen.sengoku.battle.copies import copied_units
from kassen.sengoku.battle.values import guard_of
from kassen.sengoku.evolve import evolve
from kassen.sengoku.profile import CombatProfile


def _source(name: str) -> str | ScenarioSource:
    base, _, k = name.partition("*")
    return copied_units(base, int(k)) if k else base


@pytest.mark.parametrize(("name", "seeds"), [("demo*2", range(3)), ("burning-temple", range(2))])
def test_equal_readings_are_equal_profiles(name: str, seeds: range) -> None:
    # rule: SG.DEF.4  rule: SG.DEF.5 — a profile is the unit's template, Wounds, stances and zone grants,
    # Defenseless (a rout), Defense -N, armor damage, Fate points and side: nothing else of the state
    seen: dict[tuple[object, ...], CombatProfile] = {}
    met_again = 0
    for seed in seeds:
        fight = open_fight(_source(name), seed=seed)
        fight.autoplay()
        rules = fight.tables
        for state in fight.states:
            for unit in state.units:
                if unit.zone is None:
                    continue
                reading = rules.profile_reading(state, unit)
                profile = evolve(rules.profile(state, unit), name="")
                known = seen.setdefault(reading, profile)
                met_again += known is not profile
                assert known == profile, (unit.id, state.round)
                assert guard_of(known) == guard_of(profile)
    assert len(seen) > 20 and met_again > 100
