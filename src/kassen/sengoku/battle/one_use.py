"""One maneuver of a breath checked and priced on the breath simulated so far (SG.BRT.1, SG.BRT.3,
SG.RD.2, SG.AIM.1-2, SG.LUL.1-2, SG.RES.1, SG.DFL.2, SG.FUM.2-3, SG.RET.1-2, SG.RET.5, SG.ZON.1-2):
:func:`_plan_use`, for :class:`~kassen.sengoku.battle.plan.Planner`, which walks a breath through it
maneuver by maneuver and re-exports :class:`PlannedUse`."""

from __future__ import annotations

__all__ = ["PlannedUse", "attack_refused_as_is", "barring_stance"]

from collections.abc import Iterable
from dataclasses import dataclass

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.i18n import S_
from kassen.sengoku.battle.equipment import armed_for, carrier
from kassen.sengoku.battle.moves import destination
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit, Use, Zone
from kassen.sengoku.battle.targets import target_refusal
from kassen.sengoku.entries import LimitPer, Maneuver, ManeuverKind, MovementTo


def _illegal(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule=rule)


@fast_init
@dataclass(frozen=True, slots=True)
class PlannedUse:
    """One maneuver of a planned breath: what it costs and where the unit stands when it starts."""

    use: Use
    maneuver: Maneuver
    cost: int
    zone: str
    steps: tuple[Step, ...]


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
    steps = [Step(base, S_("{name}: {base} Energy", name=m.name, base=base), "SG.BRT.1")]
    cost, effects = rules.zone_cost(unit, m, base, zone, use.weapon)
    for e in effects:
        steps.append(
            Step(
                cost,
                S_("{zone}: {text} ({amount} Energy)", zone=e.zone, text=e.text, amount=f"{e.amount:+d}"),
                "SG.RD.2",
            )
        )
    fatigue = rules.combo
    if before >= 0 and before + 1 > fatigue.free_uses:
        cost += fatigue.extra_cost
        steps.append(
            Step(
                cost,
                S_("combo fatigue: use {value} this {per}", value=before + 1, per=fatigue.per),
                "SG.BRT.3",
            )
        )
    if use.aim:
        cost += use.aim
        steps.append(Step(cost, S_("Aim Focus +{aim} Energy", aim=use.aim), "SG.AIM.2"))
    return cost, tuple(steps)


def _check_aid_target(state: BattleState, unit: Unit, m: Maneuver, use: Use, here: str) -> None:
    """Bind Wound: a bleeding ally (not the unit itself) in the unit's zone (the Bleed house default)."""
    if use.target is None or not state.has_unit(use.target):
        raise _illegal(S_("{name} names the ally it helps", name=m.name), "SG.INP.3")
    t = state.unit(use.target)
    if t.id == unit.id or t.side != unit.side:
        raise _illegal(S_("{name} helps an ally, not {name2}", name=m.name, name2=t.name), "SG.INP.3")
    if not t.on_battlefield or t.zone != here:
        raise _illegal(S_("{name} is not beside {name2}", name=t.name, name2=unit.name), "SG.INP.3")
    if not t.bleeding:
        raise _illegal(S_("{name} is not bleeding", name=t.name), "SG.INP.3")


def _limits(m: Maneuver, unit: Unit, sim: _Sim) -> None:
    for i, limit in enumerate(m.limits):
        key = f"{m.id}#{i}"
        if limit.per is LimitPer.BREATH:
            used = sim.in_breath.get(m.id, 0)
        else:
            used = sim.limited.get(key, unit.count(unit.limited, key))
        if used + 1 > limit.uses:
            said = (
                S_(
                    "{name} is limited to {uses} use(s) per {per} every {every} rounds",
                    name=m.name,
                    uses=limit.uses,
                    per=limit.per.value,
                    every=limit.every,
                )
                if limit.every > 1
                else S_(
                    "{name} is limited to {uses} use(s) per {per}",
                    name=m.name,
                    uses=limit.uses,
                    per=limit.per.value,
                )
            )
            raise _illegal(said, "SG.LUL.1")
        if limit.per is not LimitPer.BREATH:
            sim.limited[key] = used + 1


def barring_stance(rules: BattleRules, held: Iterable[str], m: Maneuver, use: Use) -> str | None:
    """The first of the ``held`` stances that forbids ``use`` of ``m`` while maintained (SG.BRT.1:
    releasing that very stance is allowed), or None. It reads only the use's maneuver and release."""
    for stance in held:
        g = rules.maneuver(stance).grants
        if g is not None and m.kind in g.forbids and not (use.release and use.maneuver == stance):
            return stance
    return None


def attack_refused_as_is(rules: BattleRules, unit: Unit, m: Maneuver, weapon: str | None) -> bool:
    """Whether the attack ``m`` (with ``weapon``) is refused at whatever target, as the unit's first
    maneuver of a breath or after a movement or a stance, by what :func:`_plan_use` checks of the unit
    alone: its uses up to its limit (SG.LUL.1), its weapon on the ground or broken (SG.FUM.2-3), a weapon
    to reload (SG.LUL.2). None of these is changed by a movement or a stance before it; a pick-up is."""
    sim = _Sim(unit.zone or "", list(unit.stances), {}, {}, False)
    try:
        _limits(m, unit, sim)
        carried = carrier(rules, unit, m, weapon)
    except IllegalActionError:
        return True
    return carried is not None and carried.reload and bool(unit.unloaded)


def _plan_use(rules: BattleRules, state: BattleState, unit: Unit, use: Use, sim: _Sim) -> PlannedUse:
    if sim.left:
        raise _illegal(S_("nothing follows a Retreat: the unit has left the battlefield"), "SG.RET.1")
    m = rules.catalog.maneuvers.get(use.maneuver)
    if m is None:
        raise _illegal(S_("unknown maneuver {maneuver}", maneuver=f"{use.maneuver!r}"), "SG.BRT.1")
    if m.id not in rules.known(unit):
        raise _illegal(S_("{name} does not know {name2}", name=unit.name, name2=m.name), "SG.BRT.1")
    if unit.routed and m.id not in rules.squads.rout_allowed:
        raise _illegal(
            S_("{name} is routed: only {value}", name=unit.name, value=", ".join(rules.squads.rout_allowed)),
            "SG.RET.5",
        )
    here = sim.zone
    zone = state.zone(here)
    if not rules.unlocked(unit, m, zone):
        raise _illegal(S_("{name} is not unlocked in {here}", name=m.name, here=here), "SG.ZON.1")
    barring = barring_stance(rules, sim.held, m, use)
    if barring is not None:
        raise _illegal(
            S_(
                "{name} forbids {kind} while maintained", name=rules.maneuver(barring).name, kind=m.kind.value
            ),
            "SG.BRT.1",
        )
    if use.aim and not (m.attacks and m.kind in (ManeuverKind.ATTACK, ManeuverKind.KATA)):
        raise _illegal(S_("{name} is not a technique Aim Focus can scale", name=m.name), "SG.AIM.1")
    if use.squads and (m.movement is None or m.movement.to is not MovementTo.OFF_BATTLEFIELD):
        raise _illegal(S_("only a Retreat takes squads along"), "SG.RET.2")
    _limits(m, unit, sim)
    base = m.cost
    kind = m.kind
    if kind is ManeuverKind.UPKEEP:
        assert m.upkeep is not None
        if m.upkeep.count_cost is None:
            raise _illegal(S_("{name} is an upkeep maneuver of the lull phase", name=m.name), "SG.LUL.2")
        base = m.upkeep.count_cost
        weapon = rules.weapon_for(unit, m)
        if weapon is not None and weapon.reload and not (unit.unloaded or sim.fired):
            raise _illegal(S_("{name} is loaded: nothing to reload", name=weapon.name), "SG.LUL.2")
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
                raise _illegal(S_("{name} must be reloaded first", name=weapon.name), "SG.LUL.2")
            sim.fired = True
        if use.aim:
            rules.aim(rules.technique(unit, m, use.weapon), rules.attribute(unit, "finesse"), use.aim)
    elif kind is ManeuverKind.DEFENSE:
        if not m.reservable or m.reaction is None:
            raise _illegal(S_("{name} cannot be reserved", name=m.name), "SG.RES.1")
        if sim.defenseless:
            raise _illegal(
                S_("{name} is Defenseless: it cannot reserve defense techniques", name=unit.name), "SG.DFL.2"
            )
        if not armed_for(rules, unit, m, picked=sim.picked):
            raise _illegal(S_("{name} needs the weapon in hand: pick it up first", name=m.name), "SG.FUM.2")
    elif m.aid is not None:
        if use.weapon is not None:
            raise _illegal(S_("{name} takes no weapon", name=m.name), "SG.BRT.1")
        if m.aid.ends == "dropped-weapon":
            if not unit.dropped or sim.picked:
                raise _illegal(S_("{name} has no weapon on the ground", name=unit.name), "SG.FUM.2")
            if use.target not in (None, unit.id):
                raise _illegal(S_("{name} is for {name2} itself", name=m.name, name2=unit.name), "SG.FUM.2")
            base = unit.pickup_cost
            sim.picked = True
        else:
            _check_aid_target(state, unit, m, use, here)
    elif m.grants is not None:
        if use.release:
            if m.id not in sim.held:
                raise _illegal(
                    S_("{name} does not maintain {name2}", name=unit.name, name2=m.name), "SG.BRT.1"
                )
            base = 0
            sim.held.remove(m.id)
        else:
            if kind is ManeuverKind.STANCE and sim.defenseless:
                raise _illegal(
                    S_("{name} is Defenseless: it cannot declare a stance", name=unit.name), "SG.DFL.2"
                )
            if m.id in sim.held:
                raise _illegal(
                    S_("{name} already maintains {name2}", name=unit.name, name2=m.name), "SG.BRT.1"
                )
            if kind is ManeuverKind.STANCE:
                sim.held[:] = [h for h in sim.held if rules.maneuver(h).kind is not ManeuverKind.STANCE]
            sim.held.append(m.id)
    elif kind is ManeuverKind.MOVEMENT:
        if rules.servant(unit):
            raise _illegal(
                S_("{name} moves only when its onmyoji repositions it in the lull", name=unit.name),
                "SG.LUL.2",
            )
        dest = destination(state, unit, m, use, here)
        if dest is None:
            sim.left = True
        else:
            sim.zone = dest
    if use.release and m.grants is None:
        raise _illegal(S_("{name} is not a stance to release", name=m.name), "SG.BRT.1")
    if use.weapon is not None and not m.attacks:
        raise _illegal(S_("{name} is not an attack: it names no weapon", name=m.name), "SG.BRT.1")
    if use.target is not None and not m.attacks and m.aid is None:
        raise _illegal(S_("{name} names no target", name=m.name), "SG.BRT.1")
    cost, steps = _cost(rules, unit, m, use, zone, sim, base)
    if m.kind in rules.combo.applies_to or m.limits:
        sim.in_breath[m.id] = sim.in_breath.get(m.id, 0) + 1
    sim.spent += cost
    return PlannedUse(use, m, cost, here, steps)
