"""The heuristic's breath weighed on the grouped listing (kassen.sengoku.battle.weigh) is the breath it
picks from the spelled-out legal actions (HeuristicPolicy.breath), at every breath of many battles, with
the units copied so that many targets share a class."""

from __future__ import annotations

import pytest

from kassen.core.scenario import ScenarioSource, open_fight
from kassen.sengoku.battle import HeuristicPolicy
from kassen.sengoku.battle.copies import copied_units
from kassen.sengoku.battle.state import DecisionKind
from kassen.sengoku.battle.weigh import weigh_breath


def _source(name: str) -> str | ScenarioSource:
    base, _, k = name.partition("*")
    return copied_units(base, int(k)) if k else base


@pytest.mark.parametrize(
    ("name", "seeds"),
    [("demo", range(6)), ("burning-temple", range(3)), ("count-example", range(3)), ("demo*3", range(2))],
)
def test_weighing_the_grouped_listing_picks_what_the_legal_list_gives(name: str, seeds: range) -> None:
    # rule: SG.BRT.1  rule: SG.CNT.5  rule: SG.RES.1
    compared = 0
    for seed in seeds:
        fight = open_fight(_source(name), seed=seed)
        fight.autoplay()
        policy = HeuristicPolicy(fight.tables)
        for state in fight.states:
            d = state.decision
            if d is None or d.kind is not DecisionKind.BREATH:
                continue
            unit = state.unit(d.unit)
            legal = fight.ruleset.legal_actions(state, fight.tables)
            assert weigh_breath(policy, state, unit) == policy.breath(state, unit, legal), (seed, state.count)
            compared += 1
    assert compared >= 10


def test_a_fight_played_through_the_legal_list_is_the_same_fight() -> None:
    # rule: SG.BRT.1 — the policy handed a plain list (not the fight's lazily listed one) takes the old
    # way; both fights end with the same log
    grouped = open_fight("demo", seed=11)
    grouped.autoplay()
    plain = open_fight("demo", seed=11)
    policy = HeuristicPolicy(plain.tables)
    while not plain.over:
        plain.play(policy.choose(plain.state, list(plain.legal_actions())))
    assert plain.to_json() == grouped.to_json()


def test_every_target_of_an_attack_group_has_the_same_shapes() -> None:
    # rule: SG.BRT.1 — the heuristic reads the shapes of an attack made from where the unit stands once
    # per attack (weigh._kinds, from the first target's row): every other target's row has the same
    from kassen.sengoku.battle.candidates import _grouped
    from kassen.sengoku.battle.plan import AttackGroup
    from kassen.sengoku.battle.weigh import describe

    fight = open_fight(_source("demo*3"), seed=2)
    fight.autoplay()
    policy = HeuristicPolicy(fight.tables)
    rows = 0
    for state in fight.states[::3]:
        for unit in state.units:
            if not unit.on_battlefield or unit.zone is None:
                continue
            for group in _grouped(fight.tables, state, unit):
                if isinstance(group, AttackGroup) and group.shapes:
                    kinds = [tuple(describe(policy, uses, row[0][0]) for uses in row) for row in group.rows]
                    assert all(k == kinds[0] for k in kinds), (unit.id, group.maneuver)
                    rows += len(kinds)
    assert rows > 100


@pytest.mark.parametrize(("name", "seed"), [("demo", 3), ("demo", 8), ("burning-temple", 1), ("demo*3", 1)])
def test_every_breath_weighed_is_valued_as_the_breath_itself(name: str, seed: int) -> None:
    # rule: SG.BRT.1  rule: SG.AMB.2 — the heuristic values a group's breaths without building them (an
    # attack's shapes from its value alone, a movement or a stance then a blow by the same sums): each
    # weighed breath's rough value is what HeuristicPolicy._rough_value gives for the breath itself, and
    # its exact value what Values.breath_value gives
    from fractions import Fraction

    from kassen.sengoku.battle.candidates import listing_of
    from kassen.sengoku.battle.plan import planner
    from kassen.sengoku.battle.weigh import _MOVE, _STANCE, _exact, _scored, _weighing

    fight = open_fight(_source(name), seed=seed)
    fight.autoplay()
    policy = HeuristicPolicy(fight.tables)
    leads: set[int] = set()
    compared = exacts = 0
    for state in fight.states:
        d = state.decision
        if d is None or d.kind is not DecisionKind.BREATH:
            continue
        unit = state.unit(d.unit)
        listing = listing_of(fight.tables, state, planner(fight.tables, state, unit))
        w = _weighing(policy, listing)
        leads |= {e[5] for e in w.entries if len(e) > 2}
        memo: dict[object, Fraction] = {}
        for entry, value, _ in _scored(policy, state, unit, listing, w, memo):  # type: ignore[arg-type]
            breath = entry if not isinstance(entry, tuple) else listing.breath(*entry)
            assert value == policy._rough_value(state, unit, breath, {}), (state.count, breath)
            compared += 1
            # and its exact value (a near tie's), when read from the group's shape, is breath_value's
            if isinstance(entry, tuple):
                exact = _exact(policy, state, unit, w, entry)
                if exact is not None:
                    assert exact == policy.breath_value(state, unit, breath)[1], (state.count, breath)
                    exacts += 1
    assert compared > 100 and exacts > 100
    assert {_MOVE, _STANCE} <= leads or name == "burning-temple"
