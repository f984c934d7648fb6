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
    "AttackGroup",
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
    "route",
    "situational",
    "target_refusal",
    "usable_reservations",
]

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.checks import (
    check_modifier,
    reaction_defenseless,
    situational,
    usable_reservations,
)
from kassen.sengoku.battle.equipment import armed_for, carrier
from kassen.sengoku.battle.moves import breakthrough_needed, core_exit_needed, destination, in_range, route
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase, Unit, Use, Zone
from kassen.sengoku.battle.targets import _strikable, target_refusal
from kassen.sengoku.entries import (
    LimitPer,
    Maneuver,
    ManeuverKind,
    MovementTo,
)
from kassen.sengoku.evolve import evolve


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


#: Why a run of maneuvers is illegal: the message and rule of the IllegalActionError it raises.
_Refusal = tuple[str, str]


@dataclass(frozen=True, slots=True)
class AttackGroup:
    """Candidate breaths of one attack (``maneuver`` with ``weapon``, none: its first carrier) at each
    of ``targets`` in turn: ``rows[i]`` are those at ``targets[i]``, the same shapes in the same order
    for every target, every attack in them made from ``zone`` and the first shape's ``lead``-th use
    being the attack. :meth:`Planner.breaths` checks the shapes at one target and, at the others, only
    the target (everything else an attack's check reads is the same, SG.BRT.1)."""

    maneuver: str
    weapon: str | None
    targets: tuple[str, ...]
    rows: tuple[tuple[tuple[Use, ...], ...], ...]
    #: Where the attack is in the first shape (after a movement, a stance or a pick-up: 1), and the zone
    #: it is made from.
    lead: int = 0
    zone: str = ""


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
    refused = target_refusal(rules, state, unit, m, use.target, here, weapon)
    if refused is not None:
        raise _illegal(*refused)


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


@dataclass(frozen=True, slots=True)
class _Walked:
    """A legal run of maneuvers from the start of the breath: each planned, and the simulated breath
    after the last (``after``: its number in the planner's :attr:`Planner._sims`)."""

    planned: tuple[PlannedUse, ...]
    after: int
    spent: int


class Planner:
    """Plans breaths of one unit in one state (whose turn it is is not checked here), remembering every
    run of maneuvers it walked by the maneuvers themselves, so candidate breaths that share their first
    maneuvers check them once and a longer breath only checks its last maneuver; an illegal one is
    refused without building an exception (:meth:`legal`), and raises the same error afresh
    (:meth:`plan`). Everything it remembers is a pure reading of its state and the content:
    :func:`planner` keeps the last few, found by value."""

    __slots__ = (
        "_defenseless",
        "_plans",
        "_prefixes",
        "_sim_ids",
        "_sims",
        "_situation",
        "_spent",
        "_steps",
        "_walks",
        "candidates",
        "listing",
        "listing_key",
        "rules",
        "state",
        "unit",
    )

    def __init__(self, rules: BattleRules, state: BattleState, unit: Unit) -> None:
        self.rules = rules
        self.state = state
        self.unit = unit
        self._plans: dict[tuple[Use, ...], Plan | _Refusal] = {}
        self._prefixes: dict[tuple[Use, ...], Plan | _Refusal] = {}
        self._walks: dict[tuple[Use, ...], _Walked | _Refusal] = {}
        # the Energy of each breath :meth:`breaths` listed (the heuristic weighs attacks by it)
        self._spent: dict[tuple[Use, ...], int] = {}
        # each maneuver after each simulated breath, and an attack's checks but its target's
        self._steps: dict[tuple[Use, int], _Refusal | tuple[PlannedUse, int]] = {}
        self._defenseless = unit.defenseless and rules.dfl_timing.restrictions_apply_to_next_breath
        self._situation: tuple[object, ...] | None = None
        #: The candidates listed from this state (:mod:`~kassen.sengoku.battle.candidates`), once made.
        self.candidates: Iterable[tuple[Use, ...] | AttackGroup] | None = None
        #: Every legal breath of the candidates with its price, Energy aside (``candidates._listing``),
        #: and what it depends on (``candidates.listing_key``), once made.
        self.listing: tuple[tuple[Breath, int], ...] | None = None
        self.listing_key: tuple[object, ...] | None = None
        # the simulated breaths met so far, numbered (0: the breath's start) so memo keys stay small
        start: _After = (unit.zone or "", tuple(unit.stances), (), (), False, False, False)
        self._sims: list[_After] = [start]
        self._sim_ids: dict[_After, int] = {start: 0}

    def plan(self, uses: tuple[Use, ...]) -> Plan:
        """Validate and price ``uses`` as the unit's breath now; IllegalActionError naming the rule."""
        found = self._verdict(uses)
        if isinstance(found, tuple):
            raise _illegal(*found)
        return found

    def legal(self, uses: tuple[Use, ...]) -> bool:
        """Whether ``uses`` is a legal breath now (a refusal builds no exception)."""
        try:
            found = self._verdict(uses)
        except IllegalActionError:
            return False
        return not isinstance(found, tuple)

    def breaths(self, candidates: Iterable[tuple[Use, ...] | AttackGroup]) -> list[Breath]:
        """The legal breaths among ``candidates``, each once, in their order."""
        return self.affordable(self.entries(candidates))

    def affordable(self, entries: Iterable[tuple[Breath, int]]) -> list[Breath]:
        """The breaths of ``entries`` (each with the Energy it costs) the unit can pay for now (SG.CNT.5),
        remembered with their cost (the heuristic weighs attacks by it)."""
        energy, listed = self.unit.energy, self._spent
        out: list[Breath] = []
        for breath, spent in entries:
            if spent <= energy:
                out.append(breath)
                listed[breath.uses] = spent
        return out

    def entries(self, candidates: Iterable[tuple[Use, ...] | AttackGroup]) -> list[tuple[Breath, int]]:
        """Each of ``candidates`` that is a legal breath now but perhaps for its price, once, in their
        order, with the Energy it costs (at least 1, SG.CNT.6): :meth:`breaths` before the unit's Energy
        is read (SG.CNT.5), which is all the state it reads of the unit's Energy."""
        unit = self.unit
        uid, surcharge = unit.id, unit.surcharge
        if unit.zone is None or not unit.on_battlefield:
            return []
        walks = self._walks
        seen: set[tuple[Use, ...]] = set()
        out: list[tuple[Breath, int]] = []
        for uses in candidates:
            if isinstance(uses, AttackGroup):
                self._group(uses, seen, out)
                continue
            before = len(seen)
            seen.add(uses)
            if len(seen) == before or not uses:
                continue
            # what :meth:`_plan` checks, without building the Plan (the policy asks for the few it needs)
            try:
                walked = walks.get(uses) or self._walk(uses)
            except IllegalActionError:
                continue
            if isinstance(walked, tuple):
                continue
            spent = walked.spent + surcharge
            if spent >= 1:
                out.append((Breath(uid, uses), spent))
        return out

    def _listed(self, uses: tuple[Use, ...]) -> int:
        """What :meth:`entries` keeps ``uses`` for: the Energy it costs, 0 if illegal (the unit is on the
        battlefield; its Energy is not read)."""
        try:
            walked = self._walks.get(uses) or self._walk(uses)
        except IllegalActionError:
            return 0
        if isinstance(walked, tuple):
            return 0
        spent = walked.spent + self.unit.surcharge
        return spent if spent >= 1 else 0

    def _group(self, group: AttackGroup, seen: set[tuple[Use, ...]], out: list[tuple[Breath, int]]) -> None:
        """:meth:`entries` of an :class:`AttackGroup`: every shape planned at the first target the
        attack alone may strike (which shows its checks but the target's pass), and at each later
        target the same verdicts if that target may be struck, none if not."""
        unit, state = self.unit, self.state
        zone = group.zone or unit.zone
        assert zone is not None
        m = self.rules.catalog.maneuvers.get(group.maneuver)
        found: list[int] | None = None
        strikable: Callable[[str], bool] | None = None
        uid, add = unit.id, seen.add
        for target, row in zip(group.targets, group.rows, strict=True):
            if found is None or m is None:
                verdicts: list[int] | None = [self._listed(uses) for uses in row]
                first = self._walks.get(row[0])
                if isinstance(first, _Walked):
                    lead = first.planned[group.lead]
                    if lead.use.target == target and lead.zone == zone and m is not None:
                        found = verdicts
                        strikable = _strikable(self.rules, state, unit, m, zone, lead.use.weapon)
            else:
                assert strikable is not None
                verdicts = found if strikable(target) else None
            for i, uses in enumerate(row):
                before = len(seen)
                add(uses)
                if verdicts is not None and len(seen) != before:
                    spent = verdicts[i]
                    if spent:
                        out.append((Breath(uid, uses), spent))

    def spent(self, uses: tuple[Use, ...]) -> int:
        """The Energy the breath ``uses`` costs (:attr:`Plan.spent`; IllegalActionError if illegal): as
        :meth:`breaths` listed it, else planned."""
        found = self._spent.get(uses)
        return found if found is not None else self.plan(uses).spent

    def _verdict(self, uses: tuple[Use, ...]) -> Plan | _Refusal:
        found = self._plans.get(uses)
        if found is None:
            found = self._plans[uses] = self._plan(uses)
        return found

    def prefix(self, uses: tuple[Use, ...]) -> Plan:
        """Validate and price ``uses`` as the start of a breath being built (a menu's prefix): every
        check of :meth:`plan` but the last, that a finished breath spends Energy (SG.CNT.6) — releasing
        a stance costs nothing and may open a breath. An illegal prefix cannot be extended into a legal
        breath: each maneuver is checked on the ones before it, and none costs less than nothing."""
        found = self._prefixes.get(uses)
        if found is None:
            found = self._prefixes[uses] = self._plan(uses, whole=False)
        if isinstance(found, tuple):
            raise _illegal(*found)
        return found

    def _plan(self, uses: tuple[Use, ...], *, whole: bool = True) -> Plan | _Refusal:
        rules, unit = self.rules, self.unit
        if not uses and whole:
            return ("a breath chooses at least one maneuver (or Hold, or Pass)", "SG.BRT.1")
        if unit.zone is None or not unit.on_battlefield:
            return (f"{unit.name} is not on the battlefield", "SG.INP.1")
        planned: tuple[PlannedUse, ...] = ()
        spent = 0
        if uses:
            walked = self._walk(uses)
            if isinstance(walked, tuple):
                return walked
            planned, spent = walked.planned, walked.spent
        if unit.surcharge and planned:
            head = planned[0]
            extra = Step(
                head.cost + unit.surcharge,
                f"stance collapse: next action +{unit.surcharge} Energy",
                "SG.FUM.2",
            )
            planned = (
                evolve(head, cost=head.cost + unit.surcharge, steps=(*head.steps, extra)),
                *planned[1:],
            )
            spent += unit.surcharge
        if spent < 1 and whole:
            return ("a breath spends Energy; to give it up, Hold or Pass", "SG.CNT.6")
        if spent > unit.energy:
            return (f"{unit.name}'s breath costs {spent} Energy but only {unit.energy} is left", "SG.CNT.5")
        return Plan(unit, planned, spent, rules.breath_limit)

    def _walk(self, uses: tuple[Use, ...]) -> _Walked | _Refusal:
        """:func:`_plan_use` of the last of ``uses`` on the simulated breath after the others (walked
        first, and remembered: the breath's first use starts from the unit itself)."""
        found = self._walks.get(uses)
        if found is not None:
            return found
        if len(uses) == 1:
            before: tuple[PlannedUse, ...] = ()
            sim = spent = 0
        else:
            prior = self._walk(uses[:-1])
            if isinstance(prior, tuple):
                self._walks[uses] = prior
                return prior
            before, sim, spent = prior.planned, prior.after, prior.spent
        # the same maneuver after the same simulated breath (a reservation after a cut at any target)
        # is checked once
        use = uses[-1]
        key = (use, sim)
        step = self._steps.get(key)
        if step is None:
            step = self._steps[key] = self._aimed(use, sim)
        if isinstance(step[0], str):
            refused = self._walks[uses] = step
            return refused
        planned, later = step
        walked = self._walks[uses] = _Walked((*before, planned), later, spent + planned.cost)
        return walked

    def _aimed(self, use: Use, sim: int) -> _Refusal | tuple[PlannedUse, int]:
        """:meth:`_step` through the content's memo of maneuvers that read nothing of the state but the
        unit (:meth:`_template_key`): an attack planned before, in any state, by a unit in the same
        situation after the same simulated breath, is planned at another target by checking only the
        target (everything else an attack's check reads is the same); a reservation, a stance or a Kata
        is the same plan. A refusal is always worked out in full, for its exact message."""
        rules = self.rules
        m = rules.catalog.maneuvers.get(use.maneuver)
        if m is None or m.kind is ManeuverKind.MOVEMENT or m.aid is not None:
            return self._step(use, sim)  # they read where the others stand
        attack = m.attacks
        if attack and use.target is None:
            return self._step(use, sim)  # refused: an attack names its target
        key = self._template_key(use, m, sim, attack)
        template = rules.planned.get(key)
        if template is None:
            step = self._step(use, sim)
            if not isinstance(step[0], str):
                rules.planned[key] = (step[0], self._sims[step[1]])
            return step
        planned, after = template
        found = self._sim_ids.get(after)
        if found is None:
            found = self._sim_ids[after] = len(self._sims)
            self._sims.append(after)
        number = found
        if not attack:
            return PlannedUse(use, m, planned.cost, planned.zone, planned.steps), number
        # the same use at another target (with the weapon the first one was found to be made with)
        weapon = planned.use.weapon
        if target_refusal(rules, self.state, self.unit, m, use.target, planned.zone, weapon) is not None:
            return self._step(use, sim)  # refused: worked out in full, for the exact message
        aimed = use if weapon == use.weapon else evolve(planned.use, target=use.target)
        return PlannedUse(aimed, m, planned.cost, planned.zone, planned.steps), number

    def _template_key(self, use: Use, m: Maneuver, sim: int, attack: bool) -> tuple[object, ...]:
        """Everything :func:`_plan_use` reads for ``use`` after simulated breath ``sim`` but the target
        and where the other units stand (movements and aid are never keyed by it): the use (its target
        only when it is no attack's), the simulated breath, and of the unit its template, the uses of
        this maneuver this round (combo fatigue, SG.BRT.3), its limited uses, rout, reload, dropped and
        broken weapons, Defenseless, and the zones of the battlefield (SG.ZON.1)."""
        situation = self._situation
        if situation is None:
            u = self.unit
            situation = self._situation = (
                u.creature,
                u.spec,
                u.routed,
                u.limited,
                u.unloaded,
                u.dropped,
                u.broken,
                self._defenseless,
                self.rules.number(self.state.zones),
            )
        return (
            use.maneuver,
            None if attack else use.target,
            use.aim,
            use.to,
            use.squads,
            use.release,
            use.choice,
            use.weapon,
            self._sims[sim],
            self.unit.uses_this_round(m.id),
            situation,
        )

    def _step(self, use: Use, sim: int) -> _Refusal | tuple[PlannedUse, int]:
        zone, held, in_breath, limited, left, fired, picked = self._sims[sim]
        walk = _Sim(zone, list(held), dict(in_breath), dict(limited), self._defenseless, left, fired, picked)
        try:
            planned = _plan_use(self.rules, self.state, self.unit, use, walk)
        except IllegalActionError as e:
            if type(e) is not IllegalActionError:
                raise
            return (e.message, e.rule)
        after: _After = (
            walk.zone,
            tuple(walk.held),
            tuple(walk.in_breath.items()),
            tuple(walk.limited.items()),
            walk.left,
            walk.fired,
            walk.picked,
        )
        number = self._sim_ids.get(after)
        if number is None:
            number = self._sim_ids[after] = len(self._sims)
            self._sims.append(after)
        return planned, number


def planner(rules: BattleRules, state: BattleState, unit: Unit) -> Planner:
    """The :class:`Planner` of ``unit`` in ``state``: one of the last few the content's rules made,
    found by value (the same state and unit price the same breaths), else a new one."""
    # the same state object asks first (legal_actions, then the policy): found without hashing it
    last = rules.last_planner
    if last is not None and last.state is state and last.unit.id == unit.id:
        return last
    key = (state, unit.id)
    found = rules.planners.get(key)
    if found is None:
        found = rules.planners[key] = Planner(rules, state, unit)
    rules.last_planner = found
    return found


def plan_uses(rules: BattleRules, state: BattleState, unit: Unit, uses: tuple[Use, ...]) -> Plan:
    """Validate and price ``uses`` as ``unit``'s breath now (whose turn it is is not checked here)."""
    return planner(rules, state, unit).plan(uses)


def plan_breath(rules: BattleRules, state: BattleState, breath: Breath) -> Plan:
    """Validate ``breath`` completely (its turn, SG.CNT.3-4; its maneuvers; its Energy, SG.CNT.5) and
    price it; raises IllegalActionError naming the rule."""
    unit = breath_turn(state, breath.unit)
    return plan_uses(rules, state, unit, breath.uses)
