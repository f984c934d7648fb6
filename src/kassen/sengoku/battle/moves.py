"""Where a movement takes a unit and whom a maneuver reaches (SG.ZON.2 and its house defaults), for
:mod:`~kassen.sengoku.battle.plan`, which re-exports them: :func:`route` says why not without raising,
so that candidate movements the zones refuse cost no exception (:func:`destination` raises)."""

from __future__ import annotations

__all__ = ["breakthrough_needed", "core_exit_needed", "destination", "in_range", "route"]

from kassen.core.errors import IllegalActionError
from kassen.i18n import S_
from kassen.sengoku.battle.state import BattleState, Unit, Use
from kassen.sengoku.entries import Maneuver, MovementTo, Range


def _enemy_in(state: BattleState, unit: Unit, zone: str) -> bool:
    # the one reading of where the others stand that a route makes (routes are remembered by it)
    return zone in state.held_against(unit.side)


def breakthrough_needed(state: BattleState, unit: Unit, dest: str) -> bool:
    """Entering a zone of the other side that holds an enemy able to act (SG.ZON.2 house default)."""
    z = state.zone(dest)
    view = state.side(unit.side).view
    return z.side != "none" and z.side != view and _enemy_in(state, unit, dest)


def core_exit_needed(state: BattleState, unit: Unit, zone: str) -> bool:
    """Leaving the Core while it holds an enemy able to act (SG.ZON.2 house default)."""
    return state.zone(zone).kind == "core" and _enemy_in(state, unit, zone)


def destination(state: BattleState, unit: Unit, m: Maneuver, use: Use, here: str) -> str | None:
    """Where a movement takes the unit (``None``: off the battlefield), or the rule it breaks."""
    found = route(state, unit, m, use, here)
    if isinstance(found, tuple):
        raise IllegalActionError(found[0], rule=found[1])
    return found


def route(state: BattleState, unit: Unit, m: Maneuver, use: Use, here: str) -> str | tuple[str, str] | None:
    """:func:`destination` without raising: the zone, ``None``, or why not (message, rule) — a cheap
    test for candidate movements, most of which go nowhere (SG.ZON.2)."""
    mv = m.movement
    assert mv is not None
    zone = state.zone(here)
    if mv.to is MovementTo.OFF_BATTLEFIELD:
        view = state.side(unit.side).view
        kinds = {k.value for k in mv.from_zones}
        if zone.side != view or (kinds and zone.kind not in kinds):
            where = S_("the Core Zone") if zone.kind == "core" else f"{zone.id}"
            named = sorted(kinds)
            if len(named) == 2:  # the whole sentence, so "flank or rear" is found word by word
                said = S_(
                    "{name} is in {where}: {name2} only from its own side's {first} or {second} zone"
                    " (move there first)",
                    name=unit.name,
                    where=where,
                    name2=m.name,
                    first=named[0],
                    second=named[1],
                )
            else:
                said = S_(
                    "{name} is in {where}: {name2} only from its own side's {value} zone (move there first)",
                    name=unit.name,
                    where=where,
                    name2=m.name,
                    value=" or ".join(named),
                )
            return (said, "SG.RET.1")
        for sid in use.squads:
            if not state.has_unit(sid):
                return (S_("no unit {sid} to retreat with", sid=f"{sid!r}"), "SG.RET.2")
            s = state.unit(sid)
            if s.side != unit.side or s.zone != here or not s.on_battlefield or s.cohesion is None:
                return (S_("{name} is not an allied squad in {here}", name=s.name, here=here), "SG.RET.2")
        return None
    if use.to is None:
        return (S_("{name} names the zone it goes to", name=m.name), "SG.ZON.2")
    if not state.has_zone(use.to):
        return (S_("no zone {to}", to=f"{use.to!r}"), "SG.ZON.2")
    dest = use.to
    if mv.from_zones and zone.kind not in {k.value for k in mv.from_zones}:
        return (
            S_(
                "{name} starts only from {value}",
                name=m.name,
                value=", ".join(k.value for k in mv.from_zones),
            ),
            "SG.ZON.2",
        )
    neighbours = state.neighbours(here)
    if mv.to is MovementTo.ENEMY_HELD_ZONE:
        if dest not in neighbours or not breakthrough_needed(state, unit, dest):
            return (S_("{dest} is not an adjacent zone the enemy holds: walk", dest=dest), "SG.ZON.2")
        return dest
    if mv.to is MovementTo.OUT_OF_CORE:
        if not core_exit_needed(state, unit, here):
            return (S_("no enemy holds the Core: no exit check is needed, walk"), "SG.ZON.2")
        if dest not in neighbours or breakthrough_needed(state, unit, dest):
            return (
                S_("{name} leads to an adjacent zone that needs no Breakthrough", name=m.name),
                "SG.ZON.2",
            )
        return dest
    if core_exit_needed(state, unit, here):
        return (S_("an enemy holds {here}: leaving it needs a Core Zone Exit", here=here), "SG.ZON.2")
    if dest in neighbours:
        if breakthrough_needed(state, unit, dest):
            return (S_("an enemy holds {dest}: entering it needs a Breakthrough", dest=dest), "SG.ZON.2")
        return dest
    if mv.to is MovementTo.UP_TO_TWO_ZONES and mv.zones >= 2:
        for middle in neighbours:
            if middle in state.neighbours(dest) and not breakthrough_needed(state, unit, middle):
                if core_exit_needed(state, unit, middle) or breakthrough_needed(state, unit, dest):
                    continue
                return dest
    return (S_("{name} cannot reach {dest} from {here}", name=m.name, dest=dest, here=here), "SG.ZON.2")


def in_range(state: BattleState, rng: Range, here: str, there: str) -> bool:
    """Whether a maneuver of range ``rng`` used from ``here`` reaches ``there`` (SG.ZON.2 house default)."""
    if rng is Range.BATTLEFIELD:
        return True
    d = state.distance(here, there)
    return d == 0 if rng in (Range.SAME_ZONE, Range.SELF) else d <= 1
