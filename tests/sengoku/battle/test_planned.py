"""A breath of a unit's listing is planned when it begins by the plan the content remembers for the
listing's key, the breath and the unit's uses this round of its maneuvers (kassen.sengoku.battle.planned):
that plan must be the one a fresh planner on fresh content makes, for every breath of the listing at
every breath of many battles, and a breath the listing does not hold is never remembered."""

from __future__ import annotations

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.scenario import ScenarioSource, open_fight
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.candidates import listing_of
from kassen.sengoku.battle.copies import copied_units
from kassen.sengoku.battle.plan import Planner, planner
from kassen.sengoku.battle.planned import planned_breath
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind


def _source(name: str) -> str | ScenarioSource:
    base, _, k = name.partition("*")
    return copied_units(base, int(k)) if k else base


def _breath_states(name: str, seeds: range) -> list[tuple[BattleRules, BattleState]]:
    out = []
    for seed in seeds:
        fight = open_fight(_source(name), seed=seed)
        fight.autoplay()
        for state in fight.states:
            if state.decision is not None and state.decision.kind is DecisionKind.BREATH:
                out.append((fight.tables, state))
    return out


def _fresh(rules: BattleRules, state: BattleState, breath: Breath) -> object:
    """The plan worked out from nothing (new content tables, a new planner), or its refusal."""
    clean = BattleRules(rules.catalog)
    try:
        return Planner(clean, state, state.unit(breath.unit)).plan(breath.uses)
    except IllegalActionError as e:
        return (e.message, e.rule)


@pytest.mark.parametrize(
    ("name", "seeds"),
    [("demo", range(4)), ("burning-temple", range(2)), ("count-example", range(2)), ("demo*2", range(1))],
)
def test_a_remembered_plan_is_a_fresh_one(name: str, seeds: range) -> None:
    # rule: SG.BRT.1  rule: SG.BRT.3  rule: SG.CNT.5
    compared = remembered = 0
    for rules, state in _breath_states(name, seeds):
        assert state.decision is not None
        unit = state.unit(state.decision.unit)
        listing = listing_of(rules, state, planner(rules, state, unit))
        for breath, _ in listing.flat():
            fresh = _fresh(rules, state, breath)
            for _ in range(2):  # the second time, the plan the first remembered (if it was legal)
                before = len(rules.breath_plans)
                try:
                    got: object = planned_breath(rules, state, breath)
                except IllegalActionError as e:
                    got = (e.message, e.rule)
                assert got == fresh, (state.count, breath)
                compared += 1
            remembered += len(rules.breath_plans) == before and not isinstance(fresh, tuple)
    assert compared > 200
    assert remembered > compared // 4  # plans found in memory were compared too


def test_a_breath_the_listing_does_not_hold_is_planned_afresh() -> None:
    # rule: SG.BRT.1 — the same uses in a breath object of its own (not the listing's) is planned as it
    # comes and never remembered: the listing's key says nothing of breaths outside it
    (rules, state), *_ = _breath_states("demo", range(1))
    assert state.decision is not None
    unit = state.unit(state.decision.unit)
    listing = listing_of(rules, state, planner(rules, state, unit))
    listed, _ = listing.flat()[0]
    alike = Breath(listed.unit, listed.uses)
    assert not listing.has(alike) and listing.has(listed)
    before = dict(rules.breath_plans)
    assert planned_breath(rules, state, alike) == _fresh(rules, state, alike)
    assert dict(rules.breath_plans) == before
