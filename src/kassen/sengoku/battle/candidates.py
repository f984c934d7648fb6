"""The breaths ``legal_actions`` lists: a bounded set of sensible ones (SG.BRT.1), each validated.

A breath is any sequence of maneuvers within the unit's Energy, too many to list; :func:`candidate_breaths`
lists single maneuvers, a technique twice, an attack with a reservation, a move then an attack, Aim Focus
up to the breath limit, a stance (or its release then a move), a technique with each weapon that carries it
(when more than one can), picking up a dropped weapon (then an attack), binding a bleeding ally's wound,
Retreat with or without the squads in the zone, and keeps the legal ones (through the state's
:class:`~kassen.sengoku.battle.plan.Planner`, so the maneuvers they share are checked once). Any other
legal breath is still accepted when applied.
:func:`has_breath` says whether the unit can pay for any maneuver at all (SG.CNT.6).
"""

from __future__ import annotations

__all__ = ["candidate_breaths", "has_breath"]

from collections.abc import Iterator
from functools import lru_cache

from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.plan import in_range, planner
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit, Use
from kassen.sengoku.entries import Maneuver, ManeuverKind, MovementTo
from kassen.sengoku.profile import AimFocus


def _targets_from(
    rules: BattleRules, state: BattleState, unit: Unit, m: Maneuver, here: str, weapon: str | None = None
) -> list[Unit]:
    rng = rules.range(unit, m, weapon)
    return [
        t
        for t in state.units
        if t.side != unit.side
        and t.on_battlefield
        and t.zone is not None
        and in_range(state, rng, here, t.zone)
    ]


@lru_cache(maxsize=4096)
def _use(
    maneuver: str,
    target: str | None = None,
    *,
    aim: int = 0,
    to: str | None = None,
    squads: tuple[str, ...] = (),
    release: bool = False,
    weapon: str | None = None,
) -> Use:
    """A candidate's :class:`Use`, built once (a frozen dataclass of eight fields is slow to build and
    the same few recur in every state)."""
    return Use(maneuver, target, aim=aim, to=to, squads=squads, release=release, weapon=weapon)


def _weapons(rules: BattleRules, unit: Unit, m: Maneuver) -> tuple[str | None, ...]:
    """Which weapon a candidate names: none (the first that can carry it) unless more than one of the
    unit's weapons in hand can, then each of them."""
    usable = [w.id for w in rules.carriers(unit, m) if not unit.lacks(w.id)]
    return tuple(usable) if len(usable) > 1 else (None,)


def _raw_candidates(rules: BattleRules, state: BattleState, unit: Unit) -> Iterator[tuple[Use, ...]]:
    assert unit.zone is not None
    here = unit.zone
    known = [rules.maneuver(k) for k in rules.known(unit)]
    attacks = [m for m in known if m.attacks]
    reserves = [m for m in known if m.kind is ManeuverKind.DEFENSE and m.reservable]
    stances = [m for m in known if m.grants is not None]
    moves = [m for m in known if m.kind is ManeuverKind.MOVEMENT]
    finesse = rules.attribute(unit, "finesse")
    reachable: dict[tuple[str, str], list[Unit]] = {}

    def _targets(m: Maneuver, zone: str) -> list[Unit]:
        key = (m.id, zone)
        found = reachable.get(key)
        if found is None:
            found = reachable[key] = _targets_from(rules, state, unit, m, zone)
        return found

    for m in attacks:
        for w in _weapons(rules, unit, m):
            for t in _targets(m, here):
                one = _use(m.id, t.id, weapon=w)
                yield (one,)
                yield (one, one)
                for r in reserves:
                    yield (one, _use(r.id))
                    yield (one, one, _use(r.id))
                if m.aim_focus is not AimFocus.NONE:
                    extra = rules.aim_room(rules.technique(unit, m, w), finesse)
                    for n in range(extra, 0, -1):
                        yield (_use(m.id, t.id, aim=n, weapon=w),)
    for aid in (rules.maneuver(a) for a in rules.aids):
        assert aid.aid is not None
        if aid.aid.ends == "dropped-weapon":
            if unit.dropped:
                pick = _use(aid.id)
                yield (pick,)
                for m in attacks:
                    if any(w.id == unit.dropped for w in rules.carriers(unit, m)):
                        for t in _targets(m, here):
                            yield (pick, _use(m.id, t.id, weapon=unit.dropped))
            continue
        for ally in state.units:
            if ally.side == unit.side and ally.id != unit.id and ally.zone == here and ally.bleeding:
                yield (_use(aid.id, ally.id),)
    for r in reserves:
        yield (_use(r.id),)
    for s in stances:
        if s.id in unit.stances:
            for mv in moves:
                for dest in state.neighbours(here):
                    yield (_use(s.id, release=True), _use(mv.id, to=dest))
        else:
            yield (_use(s.id),)
            for m in attacks:
                for t in _targets(m, here):
                    yield (_use(s.id), _use(m.id, t.id))
    for mv in moves:
        assert mv.movement is not None
        if mv.movement.to is MovementTo.OFF_BATTLEFIELD:
            yield (_use(mv.id),)
            squads = tuple(
                s.id
                for s in state.units
                if s.side == unit.side
                and s.id != unit.id
                and s.zone == here
                and s.cohesion is not None
                and s.on_battlefield
            )
            if squads:
                yield (_use(mv.id, squads=squads),)
            continue
        reach = mv.movement.zones
        for z in state.zones:
            if z.id == here or state.distance(here, z.id) > reach:
                continue
            step = _use(mv.id, to=z.id)
            yield (step,)
            if reach == 1:
                for m in attacks:
                    for t in _targets(m, z.id):
                        yield (step, _use(m.id, t.id))
    for m in known:
        if m.kind is ManeuverKind.KATA and not m.attacks and m.grants is None:
            yield (_use(m.id),)
        if m.kind is ManeuverKind.UPKEEP and m.upkeep is not None and m.upkeep.count_cost is not None:
            yield (_use(m.id),)


def candidate_breaths(rules: BattleRules, state: BattleState, unit: Unit) -> list[Breath]:
    """A bounded list of legal breaths for ``unit`` now (each validated by its :class:`Planner`)."""
    plans = planner(rules, state, unit)
    seen: set[tuple[Use, ...]] = set()
    out: list[Breath] = []
    for uses in _raw_candidates(rules, state, unit):
        before = len(seen)
        seen.add(uses)
        if len(seen) == before:
            continue
        if plans.legal(uses):
            out.append(Breath(unit.id, uses))
    return out


def has_breath(rules: BattleRules, state: BattleState, unit: Unit) -> bool:
    """Whether the unit can pay for any maneuver now (SG.CNT.6: a unit that cannot, passes)."""
    plans = planner(rules, state, unit)
    return any(len(uses) == 1 and plans.legal(uses) for uses in _raw_candidates(rules, state, unit))
