"""The shortcuts of the speed issue (15) give what the plain ways give: the heuristic's floating-point
ranking picks the breath the exact rule picks, the planner's listing keeps exactly the candidates a full
plan accepts, the core's ``replace`` builds what ``dataclasses.replace`` builds, a state's cached
readings stay out of its value, and the demo's units copied k times make a battle of k times the units."""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator
from fractions import Fraction

import pytest

from kassen.core.errors import ContentError
from kassen.core.fastreplace import replace
from kassen.core.fight import state_codec
from kassen.core.scenario import ScenarioSource, open_fight
from kassen.sengoku.battle import Breath, HeuristicPolicy
from kassen.sengoku.battle.blows import standing_of
from kassen.sengoku.battle.candidates import _grouped
from kassen.sengoku.battle.copies import copied_units
from kassen.sengoku.battle.one_use import attack_refused_as_is
from kassen.sengoku.battle.plan import AttackGroup, Planner
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Unit, Use
from kassen.sengoku.entries import ManeuverKind


def _source(name: str) -> str | ScenarioSource:
    """A bundled battle, or ``NAME*K``: its units copied K times."""
    base, _, k = name.partition("*")
    return copied_units(base, int(k)) if k else base


def _raw_candidates(rules: object, state: BattleState, unit: object) -> Iterator[tuple[Use, ...]]:
    """Every candidate breath in order (each :class:`AttackGroup` spelled out)."""
    for item in _grouped(rules, state, unit):  # type: ignore[arg-type]
        if isinstance(item, AttackGroup):
            for row in item.rows:
                yield from row
        else:
            yield item


def _breath_states(name: str, seed: int) -> list[BattleState]:
    """Every state of a bundled battle at which a unit chooses its breath."""
    fight = open_fight(_source(name), seed=seed)
    fight.autoplay()
    return [s for s in fight.states if s.decision is not None and s.decision.kind is DecisionKind.BREATH]


def _deciding(battles: tuple[tuple[str, int], ...]) -> Iterator[tuple[BattleRules, BattleState, Unit]]:
    """The content, state and unit at every breath of these bundled battles (name, seed)."""
    for name, seed in battles:
        rules = open_fight(name, seed=seed).tables
        for state in _breath_states(name, seed):
            assert state.decision is not None
            yield rules, state, state.unit(state.decision.unit)


@pytest.mark.parametrize(("name", "seed"), [("demo", 0), ("burning-temple", 1)])
def test_the_rough_ranking_picks_the_exact_best_breath(name: str, seed: int) -> None:
    # rule: SG.BRT.1 — at every breath of the battle, the breath the float ranking settles on is the one
    # the exact Fractions choose among the same scored breaths
    fight = open_fight(name, seed=seed)
    policy = HeuristicPolicy(fight.tables)
    compared = 0
    for state in _breath_states(name, seed):
        assert state.decision is not None
        unit = state.unit(state.decision.unit)
        legal = fight.ruleset.legal_actions(state, fight.tables)
        plans = Planner(fight.tables, state, unit)
        exact: list[tuple[Breath, Fraction, int]] = []
        rough: list[tuple[Breath, float, int]] = []
        for b in legal:
            if not isinstance(b, Breath) or not any(
                fight.tables.maneuver(u.maneuver).attacks for u in b.uses
            ):
                continue
            plan = plans.plan(b.uses)
            if plan.overload or any(u.release or fight.tables.maneuver(u.maneuver).aid for u in b.uses):
                continue
            _, value = policy.breath_value(state, unit, b, spent=plan.spent)
            exact.append((b, value, plan.spent))
            rough.append((b, policy._rough_value(state, unit, b, {}), plan.spent))
        standing = standing_of(state, (u.target for b, _, _ in exact for u in b.uses if u.target is not None))
        assert policy._best_of(state, unit, rough, {}, standing) == policy._best(unit, exact, standing)
        compared += bool(exact)
    assert compared > 5


@pytest.mark.parametrize(
    ("name", "seed"), [("demo", 2), ("burning-temple", 3), ("count-example", 4), ("demo*3", 5)]
)
def test_the_listing_keeps_exactly_the_breaths_a_full_plan_accepts(name: str, seed: int) -> None:
    # rule: SG.BRT.1  rule: SG.CNT.5 — the planner's listing (walked runs, each attack's shapes planned at
    # one target and only the target checked at the others) against a fresh planner's plan of each
    # candidate on its own
    fight = open_fight(_source(name), seed=seed)
    for state in _breath_states(name, seed)[:40]:
        assert state.decision is not None
        unit = state.unit(state.decision.unit)
        listed = Planner(fight.tables, state, unit).breaths(_grouped(fight.tables, state, unit))
        wanted: list[Breath] = []
        for uses in dict.fromkeys(_raw_candidates(fight.tables, state, unit)):
            if Planner(fight.tables, state, unit).legal(uses):
                wanted.append(Breath(unit.id, uses))
        assert listed == wanted


def test_the_cores_replace_builds_what_dataclasses_replace_builds_and_starts_cached_readings_afresh() -> None:
    fight = open_fight("demo", seed=4)
    for _ in range(30):
        fight.step()
    state = fight.state
    state.unit(state.units[-1].id)  # builds the state's unit index
    changed = replace(state, count=state.count + 1, units=state.units[1:])
    assert changed == dataclasses.replace(state, count=state.count + 1, units=state.units[1:])
    assert not changed.has_unit(state.units[0].id)
    unit = state.units[0]
    assert replace(unit, wounds=1, zone=None) == dataclasses.replace(unit, wounds=1, zone=None)
    # a unit put back: the kept readings answer with the new unit, the value is replace's
    hurt = replace(unit, wounds=1)
    put = state.with_unit(hurt)
    assert put.unit(unit.id) is hurt and put.units[0] is hurt
    assert put == dataclasses.replace(state, units=(hurt, *state.units[1:]))
    assert put.changed(count=7).unit(unit.id) is hurt
    with pytest.raises(TypeError):
        replace(unit, woonds=1)


def test_cached_readings_stay_out_of_a_states_value_and_json() -> None:
    fight = open_fight("demo", seed=5)
    fight.autoplay()
    state = fight.state
    fresh = state_codec(BattleState).load(state_codec(BattleState).dump(state))
    state.unit(state.units[0].id)
    state.distance("own-front", "enemy-rear")
    assert fresh == state and hash(fresh) == hash(state)
    assert "_by_id" not in state_codec(BattleState).dump(state)
    use = Use("straight-cut", "kuro")
    hash(use)
    again = pickle.loads(pickle.dumps(use))
    assert again == use and hash(again) == hash(Use("straight-cut", "kuro"))
    zone = state.zone("own-front")
    hash(zone)
    copy = pickle.loads(pickle.dumps(zone))
    assert copy == zone and hash(copy) == hash(dataclasses.replace(zone))
    assert "_hash" not in state_codec(BattleState).dump(state)["zones"][0]


def test_every_fight_of_a_content_stands_on_the_same_zone_records() -> None:
    # rule: SG.ZON.2 — the zones are the scenario's, equal in every fight; the very same records (the
    # content's memos find them by identity)
    first, second = open_fight("demo", seed=1), open_fight("demo", seed=2)
    assert first.tables is second.tables
    assert all(a is b for a, b in zip(first.state.zones, second.state.zones, strict=True))


def test_the_demo_copied_k_times_fields_k_times_its_units() -> None:
    one = open_fight("demo", seed=0).units()
    eight = open_fight(copied_units("demo", 8), seed=0).units()
    assert len(eight) == 8 * len(one) == 72
    assert set(one) < set(eight)
    assert eight["genzaburo-8"] == one["genzaburo"]
    with pytest.raises(ContentError):
        copied_units("demo", 0)
    with pytest.raises(ContentError):
        copied_units("count-example", 2)  # its units play scripts that name their targets


def test_every_fight_of_a_scenario_plays_the_same_script_step_objects() -> None:
    # rule: SG.BRT.1 (a scripted breath is a legal breath or it waits), SG.LUL.3 (the GM's choices)
    first = open_fight("sengoku/count-example", seed=1)
    again = open_fight("sengoku/count-example", seed=2)
    temple = open_fight("sengoku/burning-temple", seed=1)
    scripts = first.policy.scripts  # type: ignore[union-attr]
    assert scripts and all(len(steps) > 0 for steps in scripts.values())
    for actor, steps in scripts.items():
        other = again.policy.scripts[actor]  # type: ignore[union-attr]
        # the very objects (the codec knows them by identity), and still equal to a fresh build
        assert all(a is b for a, b in zip(steps, other, strict=True))
    assert "gm" in temple.policy.scripts  # type: ignore[union-attr]
    # the steps are played as written, and read back from the log as equal actions
    first.autoplay()
    played = [a for a in first.history if any(a is s for steps in scripts.values() for s in steps)]
    assert played and [first.action(first.action_json(a)) for a in played] == played


def test_every_legal_aid_alone_is_a_candidate_and_no_aid_for_nobody_is() -> None:
    # rule: SG.INP.3 (an aid names the ally it helps)  rule: SG.FUM.2 (picking up a dropped weapon)
    # aids are generated with their ally (or alone, for a pick-up with a weapon on the ground), never
    # alone for nobody: whatever aid alone a fresh planner accepts is still among the candidates, and
    # an aid alone that it refuses is not one
    legal = refused = 0
    for rules, state, unit in _deciding((("burning-temple", 1), ("burning-temple", 2), ("demo", 3))):
        aids = [rules.maneuver(a) for a in rules.aids]
        assert aids
        candidates = set(_raw_candidates(rules, state, unit))
        for m in aids:
            assert m.aid is not None
            # a pick-up is the unit's own (naming itself is the same breath): alone, or nothing
            whom = (None,) if m.aid.ends == "dropped-weapon" else (None, *(u.id for u in state.units))
            for target in whom:
                uses = (Use(m.id, target),)
                if Planner(rules, state, unit).legal(uses):
                    assert uses in candidates, (unit.id, uses)
                    legal += 1
                else:
                    assert uses not in candidates, (unit.id, uses)
                    refused += 1
    assert legal > 0 and refused > 0


def test_a_stance_that_forbids_movement_leaves_no_movement_candidate_and_no_legal_breath_out() -> None:
    # rule: SG.BRT.1 (a maintained stance may forbid a kind of maneuver; releasing it is allowed)
    barred = 0
    for rules, state, unit in _deciding((("demo", 1), ("demo", 2), ("burning-temple", 1))):
        grants = [rules.maneuver(s).grants for s in unit.stances]
        if not any(g is not None and ManeuverKind.MOVEMENT in g.forbids for g in grants):
            continue
        barred += 1
        firsts = [rules.maneuver(c[0].maneuver) for c in _raw_candidates(rules, state, unit)]
        # no candidate starts with a movement (releasing the stance first is one that may) ...
        assert not any(m.kind is ManeuverKind.MOVEMENT for m in firsts)
        # ... and none that did could be legal: the planner refuses a movement first, to anywhere
        moves = [rules.maneuver(k) for k in rules.known(unit)]
        for m in (m for m in moves if m.kind is ManeuverKind.MOVEMENT):
            for to in (None, *(z.id for z in state.zones)):
                assert not Planner(rules, state, unit).legal((Use(m.id, to=to),))
        assert any(m.kind is ManeuverKind.STANCE for m in firsts)  # it may still let the stance go
    assert barred > 0


def test_an_attack_refused_at_anyone_has_no_candidate_and_no_legal_target() -> None:
    # rule: SG.LUL.1 (limited uses)  rule: SG.LUL.2 (reload)  rule: SG.FUM.2 (a weapon on the ground)
    refused = 0
    for rules, state, unit in _deciding((("demo", 0), ("demo", 3), ("burning-temple", 2))):
        candidates = list(_raw_candidates(rules, state, unit))
        for k in rules.known(unit):
            m = rules.maneuver(k)
            if not m.attacks or not attack_refused_as_is(rules, unit, m, None):
                continue
            refused += 1
            # never generated alone, twice, reserved or after a movement or a stance ...
            assert not any(
                u.maneuver == m.id and rules.maneuver(c[0].maneuver).aid is None
                for c in candidates
                for u in c
            ), (unit.id, m.id)
            # ... and no plan of it at any unit is legal
            for t in state.units:
                assert not Planner(rules, state, unit).legal((Use(m.id, t.id),)), (unit.id, m.id, t.id)
    assert refused > 0
