"""Planning a breath: full validation and Energy costs before anything changes (SG.BRT.1, SG.CNT.3-5).

:func:`plan_breath` checks a declared breath against the state and returns its :class:`Plan` (each
maneuver's cost with the zone's Energy rows, combo fatigue and Aim Focus; the total; whether it
overloads) or raises :class:`~kassen.core.errors.IllegalActionError` naming the rule. Movement inside the
breath is simulated (a Stealth Movement then a cut in the new zone), assuming each movement succeeds; at
resolution a maneuver the situation no longer allows is forfeited.

:class:`Planner` does the same for many breaths of one unit in one state, checking each maneuver
they share once (:mod:`~kassen.sengoku.battle.candidates` lists the sensible breaths through it).

Reading (SG.DFL.3 with SG.DFL.2, the catalog's ``SG.DFL.3`` house default): by default a breath is
declared while Defenseless still holds and Defenseless ends as the action starts, so the breath right
after a fumble cannot declare a stance nor reserve a defense technique
(``restrictions_apply_to_next_breath``); and a React is not the unit's next action
(``reaction_ends_defenseless``). Evasion is barred by any Defenseless the unit counts as having against
the attack: its own, a rout's (SG.RET.5) or an ambush's (SG.AMB.1).
"""

from __future__ import annotations

__all__ = [
    "Plan",
    "PlannedUse",
    "Planner",
    "acting_value",
    "breakthrough_needed",
    "breath_turn",
    "check_modifier",
    "core_exit_needed",
    "destination",
    "in_range",
    "plan_breath",
    "plan_uses",
    "planner",
    "reaction_defenseless",
    "situational",
    "usable_reservations",
]

from dataclasses import dataclass, replace

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.equipment import armed_for, carrier
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase, Unit, Use, Zone
from kassen.sengoku.defense import Exemption
from kassen.sengoku.entries import (
    LimitPer,
    Maneuver,
    ManeuverKind,
    MovementTo,
    Range,
    ReactionKind,
    Situation,
)
from kassen.sengoku.house import ZoneApplies


@dataclass(frozen=True, slots=True)
class PlannedUse:
    """One maneuver of a planned breath: what it costs and where the unit stands when it starts."""

    use: Use
    maneuver: Maneuver
    cost: int
    zone: str
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """A valid breath: its maneuvers, total Energy and whether it overloads (SG.BRT.2)."""

    unit: Unit
    uses: tuple[PlannedUse, ...]
    spent: int
    limit: int

    @property
    def overload(self) -> bool:
        return self.spent > self.limit

    @property
    def costs(self) -> tuple[int, ...]:
        return tuple(p.cost for p in self.uses)


def _illegal(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule=rule)


# ------------------------------------------------------------------------------------------ whose turn


def acting_value(unit: Unit) -> int:
    """The count a unit acts at: its Energy, plus a pending initiative modifier (SG.CNT.2, SG.CNT.3)."""
    return unit.energy + unit.initiative


def breath_turn(state: BattleState, uid: str) -> Unit:
    """The unit, if it is the one to breathe now; else the rule that says why not."""
    if state.phase is Phase.OVER:
        raise _illegal("the combat is over", "SG.END.1")
    if state.phase is Phase.START:
        raise _illegal("the battle has not begun: the GM begins it", "SG.RND.2")
    if not state.has_unit(uid):
        raise _illegal(f"no unit {uid!r} in this battle", "SG.CNT.3")
    d = state.decision
    if d is not None and d.kind is DecisionKind.REACTION:
        raise _illegal(f"{d.unit} must first answer {d.attacker}'s attack", "SG.RES.2")
    if state.phase is Phase.LULL:
        raise _illegal("the count is over: this is the lull phase", "SG.RND.2")
    unit = state.unit(uid)
    if d is None or d.kind is not DecisionKind.BREATH:
        raise _illegal("no breath is due now", "SG.CNT.3")
    if d.unit != uid:
        if unit.on_battlefield and not unit.passed and acting_value(unit) >= state.count:
            raise _illegal(
                f"{unit.name} is at count {state.count} too, but {d.unit} acts first (ties)", "SG.CNT.4"
            )
        raise _illegal(
            f"count {state.count}: {d.unit} breathes now, not {unit.name} (Energy {unit.energy})", "SG.CNT.3"
        )
    return unit


# ------------------------------------------------------------------------------------------ zones


def _enemy_in(state: BattleState, unit: Unit, zone: str) -> bool:
    return any(u.side != unit.side and u.able and u.zone == zone for u in state.units)


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
    mv = m.movement
    assert mv is not None
    zone = state.zone(here)
    if mv.to is MovementTo.OFF_BATTLEFIELD:
        view = state.side(unit.side).view
        kinds = {k.value for k in mv.from_zones}
        if zone.side != view or (kinds and zone.kind not in kinds):
            where = "the Core Zone" if zone.kind == "core" else f"{zone.id}"
            raise _illegal(
                f"{unit.name} is in {where}: {m.name} only from its own side's "
                f"{' or '.join(sorted(kinds))} zone (move there first)",
                "SG.RET.1",
            )
        for sid in use.squads:
            if not state.has_unit(sid):
                raise _illegal(f"no unit {sid!r} to retreat with", "SG.RET.2")
            s = state.unit(sid)
            if s.side != unit.side or s.zone != here or not s.on_battlefield or s.cohesion is None:
                raise _illegal(f"{s.name} is not an allied squad in {here}", "SG.RET.2")
        return None
    if use.to is None:
        raise _illegal(f"{m.name} names the zone it goes to", "SG.ZON.2")
    if not state.has_zone(use.to):
        raise _illegal(f"no zone {use.to!r}", "SG.ZON.2")
    dest = use.to
    if mv.from_zones and zone.kind not in {k.value for k in mv.from_zones}:
        raise _illegal(f"{m.name} starts only from {', '.join(k.value for k in mv.from_zones)}", "SG.ZON.2")
    neighbours = state.neighbours(here)
    if mv.to is MovementTo.ENEMY_HELD_ZONE:
        if dest not in neighbours or not breakthrough_needed(state, unit, dest):
            raise _illegal(f"{dest} is not an adjacent zone the enemy holds: walk", "SG.ZON.2")
        return dest
    if mv.to is MovementTo.OUT_OF_CORE:
        if not core_exit_needed(state, unit, here):
            raise _illegal("no enemy holds the Core: no exit check is needed, walk", "SG.ZON.2")
        if dest not in neighbours or breakthrough_needed(state, unit, dest):
            raise _illegal(f"{m.name} leads to an adjacent zone that needs no Breakthrough", "SG.ZON.2")
        return dest
    if core_exit_needed(state, unit, here):
        raise _illegal(f"an enemy holds {here}: leaving it needs a Core Zone Exit", "SG.ZON.2")
    if dest in neighbours:
        if breakthrough_needed(state, unit, dest):
            raise _illegal(f"an enemy holds {dest}: entering it needs a Breakthrough", "SG.ZON.2")
        return dest
    if mv.to is MovementTo.UP_TO_TWO_ZONES and mv.zones >= 2:
        for middle in neighbours:
            if middle in state.neighbours(dest) and not breakthrough_needed(state, unit, middle):
                if core_exit_needed(state, unit, middle) or breakthrough_needed(state, unit, dest):
                    continue
                return dest
    raise _illegal(f"{m.name} cannot reach {dest} from {here}", "SG.ZON.2")


def in_range(state: BattleState, rng: Range, here: str, there: str) -> bool:
    """Whether a maneuver of range ``rng`` used from ``here`` reaches ``there`` (SG.ZON.2 house default)."""
    if rng is Range.BATTLEFIELD:
        return True
    d = state.distance(here, there)
    return d == 0 if rng in (Range.SAME_ZONE, Range.SELF) else d <= 1


# ------------------------------------------------------------------------------------------ one use


#: The simulated breath after one maneuver: zone, stances held, uses in the breath, limited uses,
#: whether the unit has left and whether it has fired.
_After = tuple[
    str, tuple[str, ...], tuple[tuple[str, int], ...], tuple[tuple[str, int], ...], bool, bool, bool
]


@dataclass(slots=True)
class _Sim:
    """The breath as simulated so far."""

    zone: str
    held: list[str]
    in_breath: dict[str, int]
    limited: dict[str, int]
    defenseless: bool
    left: bool = False
    fired: bool = False
    picked: bool = False
    spent: int = 0


def _check_target(
    rules: BattleRules, state: BattleState, unit: Unit, m: Maneuver, use: Use, here: str, weapon: str | None
) -> None:
    if use.target is None:
        raise _illegal(f"{m.name} names the unit it attacks", "SG.BRT.1")
    if not state.has_unit(use.target):
        raise _illegal(f"no unit {use.target!r} in this battle", "SG.BRT.1")
    t = state.unit(use.target)
    if t.side == unit.side:
        raise _illegal(f"{t.name} fights on {unit.name}'s side", "SG.BRT.1")
    if t.incapacitated:
        raise _illegal(f"{t.name} is Incapacitated, removed from the zone", "SG.INP.1")
    if not t.on_battlefield:
        raise _illegal(f"{t.name} has left the battlefield", "SG.RET.1")
    assert t.zone is not None
    if not in_range(state, rules.range(unit, m, weapon), here, t.zone):
        raise _illegal(f"{t.name} in {t.zone} is out of {m.name}'s reach from {here}", "SG.ZON.2")
    tech = rules.technique(unit, m, weapon)
    if tech.tags.incorporeal:
        row = rules.defense.exorcism.ranks[rules.creature(t).exorcism]
        if row.target_number is Exemption.IMMUNE:
            raise _illegal(f"{t.name} is immune to [Incorporeal] attacks: no check", "SG.INC.2")


def _cost(
    rules: BattleRules, unit: Unit, m: Maneuver, use: Use, zone: Zone, sim: _Sim, base: int
) -> tuple[int, tuple[Step, ...]]:
    """Base cost, the zone's Energy rows (SG.RD.2), combo fatigue (SG.BRT.3), Aim Focus (SG.AIM.2)."""
    fatigue = rules.combo
    before = -1
    if m.kind in fatigue.applies_to:
        before = sim.in_breath.get(m.id, 0) + (unit.uses_this_round(m.id) if fatigue.per == "round" else 0)
    key = (unit.creature, unit.spec, m.id, zone, base, before, use.aim, use.weapon)
    found = rules.costs.get(key)
    if found is None:
        found = rules.costs[key] = _priced(rules, unit, m, use, zone, base, before)
    return found


def _priced(
    rules: BattleRules, unit: Unit, m: Maneuver, use: Use, zone: Zone, base: int, before: int
) -> tuple[int, tuple[Step, ...]]:
    """:func:`_cost` for a unit's template (``before``: earlier uses counted for combo fatigue, -1 when
    it does not apply)."""
    steps = [Step(base, f"{m.name}: {base} Energy", "SG.BRT.1")]
    cost, effects = rules.zone_cost(unit, m, base, zone, use.weapon)
    for e in effects:
        steps.append(Step(cost, f"{e.zone}: {e.text} ({e.amount:+d} Energy)", "SG.RD.2"))
    fatigue = rules.combo
    if before >= 0 and before + 1 > fatigue.free_uses:
        cost += fatigue.extra_cost
        steps.append(Step(cost, f"combo fatigue: use {before + 1} this {fatigue.per}", "SG.BRT.3"))
    if use.aim:
        cost += use.aim
        steps.append(Step(cost, f"Aim Focus +{use.aim} Energy", "SG.AIM.2"))
    return cost, tuple(steps)


def _check_aid_target(state: BattleState, unit: Unit, m: Maneuver, use: Use, here: str) -> None:
    """Bind Wound: a bleeding ally (not the unit itself) in the unit's zone (the Bleed house default)."""
    if use.target is None or not state.has_unit(use.target):
        raise _illegal(f"{m.name} names the ally it helps", "SG.INP.3")
    t = state.unit(use.target)
    if t.id == unit.id or t.side != unit.side:
        raise _illegal(f"{m.name} helps an ally, not {t.name}", "SG.INP.3")
    if not t.on_battlefield or t.zone != here:
        raise _illegal(f"{t.name} is not beside {unit.name}", "SG.INP.3")
    if not t.bleeding:
        raise _illegal(f"{t.name} is not bleeding", "SG.INP.3")


def _limits(m: Maneuver, unit: Unit, sim: _Sim) -> None:
    for i, limit in enumerate(m.limits):
        key = f"{m.id}#{i}"
        if limit.per is LimitPer.BREATH:
            used = sim.in_breath.get(m.id, 0)
        else:
            used = sim.limited.get(key, unit.count(unit.limited, key))
        if used + 1 > limit.uses:
            every = f" every {limit.every} rounds" if limit.every > 1 else ""
            raise _illegal(
                f"{m.name} is limited to {limit.uses} use(s) per {limit.per.value}{every}", "SG.LUL.1"
            )
        if limit.per is not LimitPer.BREATH:
            sim.limited[key] = used + 1


def _plan_use(rules: BattleRules, state: BattleState, unit: Unit, use: Use, sim: _Sim) -> PlannedUse:
    if sim.left:
        raise _illegal("nothing follows a Retreat: the unit has left the battlefield", "SG.RET.1")
    m = rules.catalog.maneuvers.get(use.maneuver)
    if m is None:
        raise _illegal(f"unknown maneuver {use.maneuver!r}", "SG.BRT.1")
    if m.id not in rules.known(unit):
        raise _illegal(f"{unit.name} does not know {m.name}", "SG.BRT.1")
    if unit.routed and m.id not in rules.squads.rout_allowed:
        raise _illegal(f"{unit.name} is routed: only {', '.join(rules.squads.rout_allowed)}", "SG.RET.5")
    here = sim.zone
    zone = state.zone(here)
    if not rules.unlocked(unit, m, zone):
        raise _illegal(f"{m.name} is not unlocked in {here}", "SG.ZON.1")
    for held in sim.held:
        g = rules.maneuver(held).grants
        if g is not None and m.kind in g.forbids and not (use.release and use.maneuver == held):
            raise _illegal(f"{rules.maneuver(held).name} forbids {m.kind.value} while maintained", "SG.BRT.1")
    if use.aim and not (m.attacks and m.kind in (ManeuverKind.ATTACK, ManeuverKind.KATA)):
        raise _illegal(f"{m.name} is not a technique Aim Focus can scale", "SG.AIM.1")
    if use.squads and (m.movement is None or m.movement.to is not MovementTo.OFF_BATTLEFIELD):
        raise _illegal("only a Retreat takes squads along", "SG.RET.2")
    _limits(m, unit, sim)
    base = m.cost
    kind = m.kind
    if kind is ManeuverKind.UPKEEP:
        assert m.upkeep is not None
        if m.upkeep.count_cost is None:
            raise _illegal(f"{m.name} is an upkeep maneuver of the lull phase", "SG.LUL.2")
        base = m.upkeep.count_cost
        weapon = rules.weapon_for(unit, m)
        if weapon is not None and weapon.reload and not (unit.unloaded or sim.fired):
            raise _illegal(f"{weapon.name} is loaded: nothing to reload", "SG.LUL.2")
        sim.fired = False
    elif m.attacks:
        weapon = carrier(rules, unit, m, use.weapon, picked=sim.picked)
        if use.weapon is None and weapon is not None and weapon.id != rules.carriers(unit, m)[0].id:
            use = Use(
                use.maneuver, use.target, use.aim, use.to, use.squads, use.release, use.choice, weapon.id
            )
        _check_target(rules, state, unit, m, use, here, use.weapon)
        if weapon is not None and weapon.reload:
            if unit.unloaded or sim.fired:
                raise _illegal(f"{weapon.name} must be reloaded first", "SG.LUL.2")
            sim.fired = True
        if use.aim:
            rules.aim(rules.technique(unit, m, use.weapon), rules.attribute(unit, "finesse"), use.aim)
    elif kind is ManeuverKind.DEFENSE:
        if not m.reservable or m.reaction is None:
            raise _illegal(f"{m.name} cannot be reserved", "SG.RES.1")
        if sim.defenseless:
            raise _illegal(f"{unit.name} is Defenseless: it cannot reserve defense techniques", "SG.DFL.2")
        if not armed_for(rules, unit, m, picked=sim.picked):
            raise _illegal(f"{m.name} needs the weapon in hand: pick it up first", "SG.FUM.2")
    elif m.aid is not None:
        if use.weapon is not None:
            raise _illegal(f"{m.name} takes no weapon", "SG.BRT.1")
        if m.aid.ends == "dropped-weapon":
            if not unit.dropped or sim.picked:
                raise _illegal(f"{unit.name} has no weapon on the ground", "SG.FUM.2")
            if use.target not in (None, unit.id):
                raise _illegal(f"{m.name} is for {unit.name} itself", "SG.FUM.2")
            base = unit.pickup_cost
            sim.picked = True
        else:
            _check_aid_target(state, unit, m, use, here)
    elif m.grants is not None:
        if use.release:
            if m.id not in sim.held:
                raise _illegal(f"{unit.name} does not maintain {m.name}", "SG.BRT.1")
            base = 0
            sim.held.remove(m.id)
        else:
            if kind is ManeuverKind.STANCE and sim.defenseless:
                raise _illegal(f"{unit.name} is Defenseless: it cannot declare a stance", "SG.DFL.2")
            if m.id in sim.held:
                raise _illegal(f"{unit.name} already maintains {m.name}", "SG.BRT.1")
            if kind is ManeuverKind.STANCE:
                sim.held[:] = [h for h in sim.held if rules.maneuver(h).kind is not ManeuverKind.STANCE]
            sim.held.append(m.id)
    elif kind is ManeuverKind.MOVEMENT:
        if rules.servant(unit):
            raise _illegal(f"{unit.name} moves only when its onmyoji repositions it in the lull", "SG.LUL.2")
        dest = destination(state, unit, m, use, here)
        if dest is None:
            sim.left = True
        else:
            sim.zone = dest
    if use.release and m.grants is None:
        raise _illegal(f"{m.name} is not a stance to release", "SG.BRT.1")
    if use.weapon is not None and not m.attacks:
        raise _illegal(f"{m.name} is not an attack: it names no weapon", "SG.BRT.1")
    if use.target is not None and not m.attacks and m.aid is None:
        raise _illegal(f"{m.name} names no target", "SG.BRT.1")
    cost, steps = _cost(rules, unit, m, use, zone, sim, base)
    if m.kind in rules.combo.applies_to or m.limits:
        sim.in_breath[m.id] = sim.in_breath.get(m.id, 0) + 1
    sim.spent += cost
    return PlannedUse(use, m, cost, here, steps)


class Planner:
    """Plans breaths of one unit in one state (whose turn it is is not checked here), remembering each
    maneuver it checked by the simulated breath before it, so candidate breaths that share their first
    maneuvers check them once; an illegal one raises the same error afresh. Everything it remembers is
    a pure reading of its state and the content: :func:`planner` keeps the last few, found by value."""

    __slots__ = ("_plans", "_prefixes", "_refused", "_uses", "rules", "state", "unit")

    def __init__(self, rules: BattleRules, state: BattleState, unit: Unit) -> None:
        self.rules = rules
        self.state = state
        self.unit = unit
        self._plans: dict[tuple[Use, ...], Plan] = {}
        self._prefixes: dict[tuple[Use, ...], Plan | tuple[str, str]] = {}
        self._uses: dict[tuple[object, ...], tuple[PlannedUse, _After]] = {}
        self._refused: dict[tuple[object, ...], tuple[str, str]] = {}

    def plan(self, uses: tuple[Use, ...]) -> Plan:
        """Validate and price ``uses`` as the unit's breath now; IllegalActionError naming the rule."""
        found = self._plans.get(uses)
        if found is None:
            found = self._plans[uses] = self._plan(uses)
        return found

    def legal(self, uses: tuple[Use, ...]) -> bool:
        try:
            self.plan(uses)
        except IllegalActionError:
            return False
        return True

    def prefix(self, uses: tuple[Use, ...]) -> Plan:
        """Validate and price ``uses`` as the start of a breath being built (a menu's prefix): every
        check of :meth:`plan` but the last, that a finished breath spends Energy (SG.CNT.6) — releasing
        a stance costs nothing and may open a breath. An illegal prefix cannot be extended into a legal
        breath: each maneuver is checked on the ones before it, and none costs less than nothing."""
        found = self._prefixes.get(uses)
        if found is None:
            try:
                found = self._plan(uses, whole=False)
            except IllegalActionError as e:
                if type(e) is not IllegalActionError:
                    raise
                found = (e.message, e.rule)
            self._prefixes[uses] = found
        if isinstance(found, tuple):
            raise _illegal(*found)
        return found

    def _plan(self, uses: tuple[Use, ...], *, whole: bool = True) -> Plan:
        rules, unit = self.rules, self.unit
        if not uses and whole:
            raise _illegal("a breath chooses at least one maneuver (or Hold, or Pass)", "SG.BRT.1")
        if unit.zone is None or not unit.on_battlefield:
            raise _illegal(f"{unit.name} is not on the battlefield", "SG.INP.1")
        restricted = unit.defenseless and rules.dfl_timing.restrictions_apply_to_next_breath
        sim = _Sim(unit.zone, list(unit.stances), {}, {}, restricted)
        planned = tuple(self._use(use, sim, first=i == 0) for i, use in enumerate(uses))
        if unit.surcharge and planned:
            head = planned[0]
            extra = Step(
                head.cost + unit.surcharge,
                f"stance collapse: next action +{unit.surcharge} Energy",
                "SG.FUM.2",
            )
            planned = (
                replace(head, cost=head.cost + unit.surcharge, steps=(*head.steps, extra)),
                *planned[1:],
            )
        spent = sum(p.cost for p in planned)
        if spent < 1 and whole:
            raise _illegal("a breath spends Energy; to give it up, Hold or Pass", "SG.CNT.6")
        if spent > unit.energy:
            raise _illegal(
                f"{unit.name}'s breath costs {spent} Energy but only {unit.energy} is left", "SG.CNT.5"
            )
        return Plan(unit, planned, spent, rules.breath_limit)

    def _use(self, use: Use, sim: _Sim, *, first: bool) -> PlannedUse:
        """:func:`_plan_use`, remembered by the use and the simulated breath before it (the breath's
        ``first`` use starts from the unit itself)."""
        key: tuple[object, ...] = (
            (use,)
            if first
            else (
                use,
                sim.zone,
                tuple(sim.held),
                tuple(sim.in_breath.items()),
                tuple(sim.limited.items()),
                sim.defenseless,
                sim.left,
                sim.fired,
                sim.picked,
            )
        )
        found = self._uses.get(key)
        if found is not None:
            planned, (zone, held, in_breath, limited, left, fired, picked) = found
            sim.zone, sim.held, sim.in_breath, sim.limited = zone, list(held), dict(in_breath), dict(limited)
            sim.left, sim.fired, sim.picked = left, fired, picked
            sim.spent += planned.cost
            return planned
        refused = self._refused.get(key)
        if refused is not None:
            raise _illegal(*refused)
        try:
            planned = _plan_use(self.rules, self.state, self.unit, use, sim)
        except IllegalActionError as e:
            if type(e) is IllegalActionError:
                self._refused[key] = (e.message, e.rule)
            raise
        after: _After = (
            sim.zone,
            tuple(sim.held),
            tuple(sim.in_breath.items()),
            tuple(sim.limited.items()),
            sim.left,
            sim.fired,
            sim.picked,
        )
        self._uses[key] = (planned, after)
        return planned


def planner(rules: BattleRules, state: BattleState, unit: Unit) -> Planner:
    """The :class:`Planner` of ``unit`` in ``state``: one of the last few the content's rules made,
    found by value (the same state and unit price the same breaths), else a new one."""
    key = (state, unit.id)
    found = rules.planners.get(key)
    if found is None:
        found = rules.planners[key] = Planner(rules, state, unit)
    return found


def plan_uses(rules: BattleRules, state: BattleState, unit: Unit, uses: tuple[Use, ...]) -> Plan:
    """Validate and price ``uses`` as ``unit``'s breath now (whose turn it is is not checked here)."""
    return planner(rules, state, unit).plan(uses)


def plan_breath(rules: BattleRules, state: BattleState, breath: Breath) -> Plan:
    """Validate ``breath`` completely (its turn, SG.CNT.3-4; its maneuvers; its Energy, SG.CNT.5) and
    price it; raises IllegalActionError naming the rule."""
    unit = breath_turn(state, breath.unit)
    return plan_uses(rules, state, unit, breath.uses)


# ------------------------------------------------------------------------------------------ checks


def check_modifier(
    rules: BattleRules, unit: Unit, m: Maneuver, zone: Zone | None = None
) -> tuple[int, tuple[Step, ...]]:
    """A non-attack check's modifier: attribute + skill (or the weapon in hand's) + bonus, and the zone's
    check rows (Infiltration +2 in the Flank, SG.ZON.1/SG.RD.2)."""
    check = m.check
    if check is None:
        return 0, ()
    steps: list[Step] = []
    total = 0
    if check.attribute:
        v = rules.attribute(unit, check.attribute)
        total += v
        steps.append(Step(v, f"{check.attribute.capitalize()} {v:+d}", "SG.CHK.1"))
    skill = rules.check_skill(unit, m)
    if skill:
        v = rules.skill(unit, skill)
        total += v
        steps.append(Step(v, f"{skill.capitalize()} {v:+d}", "SG.CHK.1"))
    if check.bonus:
        total += check.bonus
        steps.append(Step(check.bonus, f"{m.name} {check.bonus:+d}", "SG.CHK.1"))
    if zone is not None:
        for e in rules.zone_effects(unit, m, ZoneApplies.CHECK, zone, skill=skill):
            total += e.amount
            steps.append(Step(e.amount, f"{e.zone}: {e.text}", "SG.ZON.1"))
    return total, tuple(steps)


def situational(unit: Unit, m: Maneuver, *, stance_changed: bool) -> tuple[int, tuple[Step, ...]]:
    """A technique's situational check bonuses (Quick Draw after a stance change...)."""
    if m.check is None:
        return 0, ()
    total = 0
    steps: list[Step] = []
    for s in m.check.situational:
        applies = (
            (s.when is Situation.AFTER_STANCE_CHANGE and stance_changed)
            or (s.when is Situation.INFILTRATING and unit.infiltrating)
            or (s.when is Situation.FIRST_ATTACK and unit.attacks == 0)
        )
        if applies:
            total += s.bonus
            steps.append(Step(s.bonus, f"{m.name}: {s.text or s.when.value} {s.bonus:+d}", "SG.MAN.1"))
    return total, tuple(steps)


def reaction_defenseless(
    rules: BattleRules, state: BattleState, unit: Unit, *, ambushed: bool = False
) -> bool:
    """Whether Defenseless bars the unit's evasion against an attack now (SG.DFL.2): its own Defenseless
    (unless SG.DFL.3's reading ends it as the reaction starts and lets the reaction be chosen free of
    it), a routed squad's (SG.RET.5), or the ambush's when the attack is one (``ambushed``, SG.AMB.1)."""
    timing = rules.dfl_timing
    own = unit.defenseless and not (
        timing.reaction_ends_defenseless and not timing.restrictions_apply_to_next_breath
    )
    return own or ambushed or rules.rout_defenseless(state, unit)


def usable_reservations(
    rules: BattleRules, state: BattleState, unit: Unit, *, ambushed: bool = False
) -> tuple[str, ...]:
    """The reserved techniques the unit can execute now: at 0 Energy only if SG.RD.6 says so (SG.RES.2;
    a unit that passed counts its Energy only if SG.CNT.6's default keeps it for reactions), and no
    evasion while it counts as Defenseless against the attack (SG.DFL.2, :func:`reaction_defenseless`)."""
    if not unit.on_battlefield or not unit.reservations:
        return ()
    energy = 0 if unit.passed and not rules.pass_hold.pass_keeps_energy_for_reactions else unit.energy
    if energy <= 0 and not rules.at_zero.usable_at_zero_energy:
        return ()
    barred = reaction_defenseless(rules, state, unit, ambushed=ambushed)
    out = []
    for r in unit.reservations:
        m = rules.maneuver(r.maneuver)
        reaction = m.reaction
        if reaction is None or (barred and reaction.kind is ReactionKind.EVASION):
            continue
        if not armed_for(rules, unit, m):
            continue
        out.append(r.maneuver)
    return tuple(dict.fromkeys(out))
