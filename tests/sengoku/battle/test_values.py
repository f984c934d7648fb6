"""The heuristic's values key a target by what its profile reads (BattleRules.profile_reading) instead of
the profile itself: equal readings must mean profiles equal but for the name, for every unit of every
state of many battles (with copied units, so that many readings are met again)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from kassen.core.fastreplace import replace
from kassen.core.fight import Fight
from kassen.core.scenario import ScenarioSource, open_fight
from kassen.sengoku.battle.actions import Action
from kassen.sengoku.battle.copies import copied_units
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit
from kassen.sengoku.battle.values import Values, guard_of
from kassen.sengoku.profile import CombatProfile, DefenseBonus, DefenseDebuff
from kassen.sengoku.technique import attack_modifier


def _source(name: str) -> str | ScenarioSource:
    base, _, k = name.partition("*")
    return copied_units(base, int(k)) if k else base


def _played(name: str, seeds: range) -> Iterator[Fight[BattleState, Action]]:
    """The battle ``name`` (``demo*3``: each unit copied three times) played to its end with each seed."""
    for seed in seeds:
        fight = open_fight(_source(name), seed=seed)
        fight.autoplay()
        yield fight


@pytest.mark.parametrize(("name", "seeds"), [("demo*2", range(3)), ("burning-temple", range(2))])
def test_equal_readings_are_equal_profiles(name: str, seeds: range) -> None:
    # rule: SG.DEF.4  rule: SG.DEF.5 — a profile is the unit's template, Wounds, stances and zone grants,
    # Defenseless (a rout), Defense -N, armor damage, Fate points and side: nothing else of the state
    seen: dict[tuple[object, ...], CombatProfile] = {}
    met_again = 0
    for fight in _played(name, seeds):
        rules = fight.tables
        for state in fight.states:
            for unit in state.units:
                if unit.zone is None:
                    continue
                reading = rules.profile_reading(state, unit)
                profile = replace(rules.profile(state, unit), name="", id="")
                known = seen.setdefault(reading, profile)
                met_again += known is not profile
                assert known == profile, (unit.id, state.round)
                assert guard_of(known) == guard_of(profile)
    assert len(seen) > 20 and met_again > 100


@pytest.mark.parametrize(("name", "seeds"), [("demo*2", range(2)), ("burning-temple", range(1))])
def test_a_remembered_profile_is_the_one_built_afresh(name: str, seeds: range) -> None:
    # rule: SG.DEF.4  rule: SG.INC.3  rule: SG.RET.5  rule: SG.DBF.1 — the content remembers a unit's
    # profile by its template's profile and all the unit and the state add to it: for every unit of
    # every state (with each of its weapons, and with a Defense -N) it is the profile new content builds
    compared = 0
    for fight in _played(name, seeds):
        rules = fight.tables
        for state in fight.states[::2]:
            fresh = BattleRules(rules.catalog)  # nothing remembered from another state
            for unit in state.units:
                for weapon in (None, *rules.creature(unit).weapons):
                    got = rules.profile(state, unit, weapon=weapon)
                    assert got == fresh.profile(state, unit, weapon=weapon), (unit.id, weapon, state.round)
                    compared += 1
                # and with a Defense -N on it (SG.DBF.1), after its profile without was remembered
                hurt = state.with_unit(replace(unit, debuffs=(*unit.debuffs, DefenseDebuff(2, "test"))))
                debuffed = hurt.unit(unit.id)
                assert rules.profile(hurt, debuffed) == BattleRules(rules.catalog).profile(hurt, debuffed)
    assert compared > 500


def _plain_grants(rules: BattleRules, state: BattleState, unit: Unit) -> tuple[tuple[DefenseBonus, ...], int]:
    """SG.DEF.4 read plainly: every grant of the unit's own stances and Kata, then the zone-wide ones of
    each ally beside it in the state's order; the Incorporeal Defense of its own (SG.INC.3)."""
    bonuses: list[DefenseBonus] = []
    spirit = 0
    holders = [unit] + [
        u for u in state.units if u.side == unit.side and u.zone == unit.zone and u.id != unit.id
    ]
    for holder in holders if unit.zone is not None else [unit]:
        for sid in holder.stances:
            m = rules.maneuver(sid)
            g = m.grants
            if g is None:
                continue
            own = holder.id == unit.id
            if not own and g.scope.value != "zone-allies":
                continue
            if g.value:
                bonuses.append(DefenseBonus(g.kind, g.value, m.name))
            if own:
                spirit += g.incorporeal_defense
    return tuple(bonuses), spirit


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo*2", range(3)), ("demo*5", range(1)), ("burning-temple", range(2))]
)
def test_the_grants_are_the_units_own_stances_and_its_zone_allies(name: str, seeds: range) -> None:
    # rule: SG.DEF.4  rule: SG.INC.3 — the remembered grants of each set of stances, put together, are
    # the plain reading, in every state, for every unit, also with formations held beside it
    held = shared = 0
    for fight in _played(name, seeds):
        rules = fight.tables
        for n, state in enumerate(fight.states):
            for unit in state.units:
                got = rules.grants(state, unit)
                assert got == _plain_grants(rules, state, unit), (unit.id, state.round)
                held += bool(got[0])
            if n % 5 or not state.units[0].zone:
                continue
            # an ally of the first unit beside it holds a formation (zone-wide), and one another side's
            first = state.units[0]
            for u in state.units[1:]:
                if u.zone == first.zone:
                    formed = replace(u, stances=(*u.stances, "squad-formation", "barrier-formation"))
                    state = state.with_unit(formed)
            for unit in state.units:
                got = rules.grants(state, unit)
                assert got == _plain_grants(rules, state, unit), (unit.id, state.round)
                beside = "squad-formation" not in unit.stances
                shared += beside and any(b.source == "Squad Formation" for b in got[0])
    assert held > 100 and shared > 5


def _plain_threat(values: Values, state: BattleState, unit: Unit) -> Fraction:
    """The heuristic's threat read plainly: every able enemy that has not passed and stands at most one
    zone away strikes its best blow on the unit's profile as often as its Energy pays for, one by one."""
    rules = values.rules
    profile = guard_of(rules.profile(state, unit))
    total = Fraction(0)
    assert unit.zone is not None
    for e in state.units:
        if e.side == unit.side or not e.able or e.zone is None or e.passed:
            continue
        if state.distance(e.zone, unit.zone) > 1:
            continue
        best = values._best_blow(e, profile)
        if best is not None:
            total += best[0] * (e.energy // best[1])
    return total


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo*3", range(2)), ("burning-temple", range(2)), ("demo", range(3))]
)
def test_the_threat_is_every_enemy_in_reach_striking_its_best_blow(name: str, seeds: range) -> None:
    # rule: SG.ZON.2  rule: SG.CNT.5 — the heuristic's threat to a unit (read through the zones in reach,
    # summed by template, the sum remembered by the content) is the plain sum over every enemy of the
    # battle one zone away at most
    threatened = 0
    for fight in _played(name, seeds):
        values = Values(fight.tables)
        for state in fight.states[::3]:
            for unit in state.units:
                if unit.zone is None:
                    continue
                got = values.threat(state, unit)
                assert got == _plain_threat(values, state, unit), (unit.id, state.round)
                threatened += got > 0
    assert threatened > 100


def test_a_squad_routed_last_round_is_read_again_when_the_round_turns() -> None:
    # rule: SG.RET.5 — a routed squad counts as Defenseless from the round after its rout (the bundled
    # reading): the same unit object read in the rout's round and in the next is two readings
    fight = open_fight("demo", seed=1)
    rules = fight.tables
    assert rules.squads.rout_defenseless and rules.squads.rout_pursuit_from_next_round
    state = fight.states[0]
    placed = [u for u in state.units if u.zone is not None]
    target = next((u for u in placed if u.cohesion is not None), placed[0])  # a squad, if the demo has one
    routed = replace(target, routed=True, routed_round=state.round)
    now = state.with_unit(routed)
    later = now.changed(round=state.round + 1)
    values = Values(rules)
    values._fresh(now)
    first = values._target(now, routed, False)
    values._fresh(later)
    second = values._target(later, routed, False)
    fresh = Values(rules)
    fresh._fresh(later)
    assert second == fresh._target(later, routed, False)
    assert first[0] != second[0]  # the profile's reading: Defenseless from the next round


@pytest.mark.parametrize("name", ["demo", "burning-temple"])
def test_remembered_modifiers_and_blows_are_the_ones_worked_out_afresh(name: str) -> None:
    # rule: SG.CHK.1 (attribute + skill + the technique's bonus)  rule: SG.WND.1  rule: SG.WND.3
    # rule: SG.CRT.2 — remembered by what they read of the profile and the technique, each is the
    # rules' own for every attack of every unit in every state looked at, and a profile with other
    # skills is worked out again, not read from the first
    from kassen.sengoku.wounds import critical_wounds, hit_wounds

    fight = open_fight(name, seed=1)
    fight.autoplay()
    rules = fight.tables
    compared = 0
    for state in fight.states[::4]:
        for unit in state.units:
            for mid in rules.known(unit):
                m = rules.maneuver(mid)
                if not m.attacks:
                    continue
                tech = rules.technique(unit, m)
                profile = rules.profile(state, unit)
                assert rules.attack_modifier(profile, tech) == attack_modifier(profile, tech)
                assert rules.blow(tech, False) == hit_wounds(tech, rules.resolution)
                assert rules.blow(tech, True) == critical_wounds(tech, rules.resolution)
                compared += 1
    unit = fight.states[0].units[0]
    m = next(rules.maneuver(k) for k in rules.known(unit) if rules.maneuver(k).attacks)
    tech = rules.technique(unit, m)
    profile = rules.profile(fight.states[0], unit)
    skilled = replace(profile, skills=tuple((s, r + 3) for s, r in profile.skills))
    got = rules.attack_modifier(skilled, tech)
    assert got == attack_modifier(skilled, tech)
    assert tech.skill is None or got[0] == rules.attack_modifier(profile, tech)[0] + 3
    assert compared > 50
