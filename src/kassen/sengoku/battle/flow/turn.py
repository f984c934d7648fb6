"""One action of a Sengoku battle on the core's skeleton: :class:`BattleTurn`.

:meth:`BattleTurn.apply` sends the action to its handler (one per action type, :data:`_HANDLERS`), which
validates first — raising :class:`~kassen.core.errors.IllegalActionError` naming the rule before anything
is rolled or changed — then applies it. :meth:`BattleTurn.step` is one automatic step of the flow (a
maneuver of the breath being resolved, the combat-end check, the next unit at the count, the lull, the
next round); the core (:func:`kassen.core.engine.advance`) runs it until someone must decide (a breath,
a reaction, an upkeep, the GM's environment roll) or the combat is over, under its one cap.

Order of a round (SG.RND.2): round start (SG.RND.1) → the count (SG.CNT.1-6: the highest acting value
breathes, ties by SG.CNT.4) → each breath resolved maneuver by maneuver (SG.BRT.*, attacks through
:func:`~kassen.sengoku.attack.resolve_attack`, reactions SG.RES.*, movement SG.ZON.2, ambush SG.AMB.*,
retreat SG.RET.*) → the combat-end check after each breath (SG.END.1) → the lull (SG.LUL.1-3) → the next
round, until the combat ends; then the death checks (SG.INP.3) and the honor follow-ups (SG.RET.4).
"""

from __future__ import annotations

__all__ = ["INTRUDERS", "BattleTurn", "upkeep_options", "upkeep_problem"]


from kassen.core.engine import Handlers
from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.battle.actions import (
    GM,
    Action,
    BattlefieldChange,
    Begin,
    Breath,
    Decline,
    Environment,
    FateIntervention,
    FumbleExtras,
    GmAddDebuff,
    GmAddStatus,
    GmEndCombat,
    GmRemoveDebuff,
    GmRemoveStatus,
    GmSetWounds,
    Hold,
    LastBastion,
    Pass,
    React,
    Upkeep,
)
from kassen.sengoku.battle.candidates import has_breath
from kassen.sengoku.battle.flow import gm
from kassen.sengoku.battle.flow.rounds import RoundPart
from kassen.sengoku.battle.plan import breath_turn, reaction_defenseless, usable_reservations
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import (
    BattleState,
    Decision,
    DecisionKind,
    Phase,
    Side,
    Unit,
    bump,
    distinct_name,
)
from kassen.sengoku.entries import ManeuverKind, ReactionKind

#: The side yoma from the Yoma Encounter Table join (they fight everyone, SG.LUL.3 house default).
INTRUDERS = "intruders"


def _allies(state: BattleState, unit: Unit) -> list[Unit]:
    """The unit and its allies on the battlefield in its zone (whom an upkeep maneuver may help)."""
    return [unit] + [
        u
        for u in state.units
        if u.side == unit.side and u.id != unit.id and u.zone == unit.zone and u.on_battlefield
    ]


def _shikigami(rules: BattleRules, state: BattleState, unit: Unit) -> list[Unit]:
    """The unit's side's shikigami on the battlefield (SG.LUL.2)."""
    return [u for u in state.units if u.side == unit.side and u.on_battlefield and rules.servant(u)]


def _used_key(m_id: str, action: Upkeep) -> str:
    """Once per lull: each maneuver, and a repositioning once per shikigami."""
    return f"lull:{m_id}:{action.target}" if action.to is not None else f"lull:{m_id}"


def _reposition_problem(rules: BattleRules, state: BattleState, unit: Unit, action: Upkeep) -> str | None:
    servants = {u.id: u for u in _shikigami(rules, state, unit)}
    t = servants.get(action.target or "")
    if t is None:
        return S_(
            "{target} is not a shikigami of {name}'s side on the battlefield",
            target=f"{action.target!r}",
            name=unit.name,
        )
    assert unit.zone is not None
    allowed = {unit.zone, *state.neighbours(unit.zone)}
    if action.to not in allowed:
        return S_(
            "a shikigami goes to {name}'s zone or an adjacent one, not {to}",
            name=unit.name,
            to=f"{action.to!r}",
        )
    if action.to == t.zone:
        return S_("{name} is already in {zone}", name=t.name, zone=t.zone)
    if action.choice is not None:
        return "a repositioning makes no choice"
    return None


def upkeep_problem(rules: BattleRules, state: BattleState, unit: Unit, action: Upkeep) -> str | None:
    """Why ``unit`` cannot perform ``action`` in this lull (SG.LUL.2), or None: a known upkeep maneuver
    not used yet this lull (a teppo reload is automatic), on itself or an ally in its zone that it helps
    (the Wounds or Cohesion it restores, or a ward against collapse), with the choice a choose-one
    upkeep needs; a repositioning moves one of the side's shikigami (each once) to the unit's zone or
    an adjacent one."""
    if not unit.on_battlefield:
        return S_("{name} is not on the battlefield", name=unit.name)
    m = rules.catalog.maneuvers.get(action.maneuver)
    if m is None or m.id not in rules.known(unit):
        return S_("{name} does not know {maneuver}", name=unit.name, maneuver=f"{action.maneuver!r}")
    up = m.upkeep
    if m.kind is not ManeuverKind.UPKEEP or up is None:
        return S_("{name} is not an upkeep maneuver", name=m.name)
    if unit.count(unit.used, _used_key(m.id, action)):
        return S_("{name} has performed {name2} in this lull", name=unit.name, name2=m.name)
    if up.moves_shikigami:
        if action.to is None:
            return S_("{name} names the zone the shikigami goes to", name=m.name)
        return _reposition_problem(rules, state, unit, action)
    if action.to is not None:
        return S_("{name} moves nobody", name=m.name)
    weapon = rules.weapon_for(unit, m)
    if weapon is not None and weapon.reload:
        return S_("{name} happens by itself in the lull", name=m.name)
    allies = {u.id: u for u in _allies(state, unit)}
    if not (up.wounds_recovered or up.cohesion_gained or up.prevents_collapse):
        if action.target is not None or action.choice is not None:
            return S_("{name} names no target and no choice", name=m.name)
        return None
    t = allies.get(action.target or "")
    if t is None:
        return S_(
            "{name} helps {name2} or an ally in its zone, not {target}",
            name=m.name,
            name2=unit.name,
            target=f"{action.target!r}",
        )
    if up.wounds_recovered or up.cohesion_gained:
        can = {
            "wounds": bool(up.wounds_recovered) and t.wounds < t.wounds_max,
            "cohesion": bool(up.cohesion_gained)
            and t.cohesion is not None
            and t.cohesion < (t.cohesion_max or 0),
        }
        if up.choose_one:
            if action.choice is None or not can.get(action.choice, False):
                needs = " or ".join(k for k, ok in can.items() if ok) or "nothing"
                return S_(
                    "{name} restores Wounds or Cohesion, one of them: {name2} needs {needs}",
                    name=m.name,
                    name2=t.name,
                    needs=needs,
                )
            return None
        if action.choice is not None:
            return S_("{name} makes no choice", name=m.name)
        return None if any(can.values()) else f"{t.name} needs neither Wounds nor Cohesion"
    if action.choice is not None:
        return S_("{name} makes no choice", name=m.name)
    if t.cohesion is None or t.ward:
        return S_("{name} is not a squad without a ward", name=t.name)
    return None


def upkeep_options(rules: BattleRules, state: BattleState, unit: Unit) -> list[Upkeep]:
    """The upkeep maneuvers ``unit`` can perform in this lull (SG.LUL.2), each on a target it helps
    (:func:`upkeep_problem` says which). Teppo reloads are automatic in the lull and not offered."""
    if not unit.on_battlefield:
        return []
    allies = [t.id for t in _allies(state, unit)]
    out: list[Upkeep] = []
    for mid in rules.known(unit):
        up = rules.maneuver(mid).upkeep
        if up is None:
            continue
        if up.moves_shikigami:
            assert unit.zone is not None
            zones = (unit.zone, *state.neighbours(unit.zone))
            for servant in _shikigami(rules, state, unit):
                for z in zones:
                    action = Upkeep(unit.id, mid, servant.id, None, z)
                    if upkeep_problem(rules, state, unit, action) is None:
                        out.append(action)
            continue
        targets: list[str | None] = (
            list(allies) if up.wounds_recovered or up.cohesion_gained or up.prevents_collapse else [None]
        )
        choices = ("wounds", "cohesion") if up.choose_one else (None,)
        for t in targets:
            for c in choices:
                action = Upkeep(unit.id, mid, t, c)
                if upkeep_problem(rules, state, unit, action) is None:
                    out.append(action)
    return out


class BattleTurn(RoundPart):
    """The whole battle flow over one action's working copy (see the module notes)."""

    __slots__ = ()

    def apply(self, action: Action) -> None:
        """Validate ``action`` and apply it (its handler raises before anything changes)."""
        if type(action) not in _HANDLERS:
            raise IllegalActionError(
                S_("not an action of this ruleset: {action}", action=f"{action!r}"), rule="SG.RND.2"
            )
        if self.state.phase is Phase.OVER:
            raise IllegalActionError(S_("the combat is over"), rule="SG.END.1")
        _HANDLERS(self, action)

    def step(self) -> bool:
        """One automatic step of the flow; False when someone must decide or the combat is over."""
        s = self.state
        if s.phase in (Phase.OVER, Phase.START) or s.decision is not None:
            return False
        if s.breath is not None:
            self.continue_breath()
            return True
        if s.phase is Phase.COUNT:
            if self.rules.end.checked == "after-each-breath" and self.check_end():
                return True
            unit = self.next_unit()
            if unit is None:
                self.begin_lull()
                return True
            # asked of the state with the breath due, whose planner then lists the breath (the decision
            # is not something a maneuver's check reads): the maneuvers checked here are not checked again
            due = self.state.changed(decision=Decision(DecisionKind.BREATH, unit.id))
            if not has_breath(self.rules, due, unit):
                self.give_up(unit)
                return True
            self.state = due
            return False
        if s.queue:
            uid = s.queue[0]
            if upkeep_options(self.rules, s, self.u(uid)):
                self.set(decision=Decision(DecisionKind.UPKEEP, uid))
                return False
            self.set(queue=s.queue[1:])
            return True
        if (s.yoma or s.changes) and not s.environment_done:
            self.set(decision=Decision(DecisionKind.ENVIRONMENT, GM))
            return False
        self.end_lull()
        return True


# ------------------------------------------------------------------------------------------ actions


def _on_begin(b: BattleTurn, action: Begin) -> None:
    if b.state.phase is not Phase.START:
        raise IllegalActionError(S_("the battle has already begun"), rule="SG.RND.2")
    b.log(
        "battle_begins",
        "SG.RND.2",
        automatic=False,
        name=b.state.name,
        sides=[s.id for s in b.state.sides],
        units=[u.id for u in b.state.units],
    )
    b.start_round()


def _on_breath(b: BattleTurn, action: Breath) -> None:
    b.begin_breath(action)


def _on_hold(b: BattleTurn, action: Hold) -> None:
    unit = breath_turn(b.state, action.unit)
    cost = b.rules.pass_hold.hold_cost + unit.surcharge
    if unit.energy < cost:
        raise IllegalActionError(
            S_(
                "holding costs {cost} Energy; {name} has {energy}",
                cost=cost,
                name=unit.name,
                energy=unit.energy,
            ),
            rule="SG.CNT.6",
        )
    b.set(decision=None)
    b.hold(unit, automatic=False)


def _on_pass(b: BattleTurn, action: Pass) -> None:
    unit = breath_turn(b.state, action.unit)
    b.set(decision=None)
    b.put(replace(unit, passed=True, count_reached=True))
    b.log(
        "pass",
        "SG.CNT.6",
        automatic=False,
        unit=unit.id,
        energy=unit.energy,
        keeps_for_reactions=b.rules.pass_hold.pass_keeps_energy_for_reactions,
    )


def _reaction_turn(b: BattleTurn, uid: str) -> Decision:
    d = b.state.decision
    if d is None or d.kind is not DecisionKind.REACTION:
        raise IllegalActionError(S_("no attack is waiting for an answer"), rule="SG.RES.2")
    if d.unit != uid:
        raise IllegalActionError(
            S_("{unit} answers this attack, not {uid}", unit=d.unit, uid=uid), rule="SG.RES.2"
        )
    return d


def _on_react(b: BattleTurn, action: React) -> None:
    d = _reaction_turn(b, action.unit)
    unit = b.u(action.unit)
    if not unit.reservations:
        raise IllegalActionError(S_("{name} has nothing reserved", name=unit.name), rule="SG.RES.1")
    if unit.reservation(action.maneuver) is None:
        held = ", ".join(r.maneuver for r in unit.reservations)
        raise IllegalActionError(
            S_(
                "{name} did not reserve {maneuver} (reserved: {held})",
                name=unit.name,
                maneuver=f"{action.maneuver!r}",
                held=held,
            ),
            rule="SG.RES.1",
        )
    reaction = b.rules.maneuver(action.maneuver).reaction
    barred = reaction_defenseless(b.rules, b.state, unit, ambushed=d.ambushed)
    if barred and reaction is not None and reaction.kind is ReactionKind.EVASION:
        raise IllegalActionError(S_("{name} is Defenseless: no evasion", name=unit.name), rule="SG.DFL.2")
    if action.maneuver not in usable_reservations(b.rules, b.state, unit, ambushed=d.ambushed):
        raise IllegalActionError(
            S_("{name} has no Energy left to react with", name=unit.name), rule="SG.RD.6"
        )
    b.set(decision=None)
    if b.rules.dfl_timing.reaction_ends_defenseless:
        b.put(b.action_starts(b.u(unit.id), when=S_("its reaction starts")))
    if not b.roll(action.maneuver):
        b.attack_done()


def _decided(b: BattleTurn, kind: DecisionKind, uid: str, rule: str) -> Decision:
    d = b.state.decision
    if d is None or d.kind is not kind:
        raise IllegalActionError(
            S_("no {value} decision is open now", value=kind.value.replace("_", " ")), rule=rule
        )
    if d.unit != uid:
        raise IllegalActionError(S_("{unit} decides this, not {uid}", unit=d.unit, uid=uid), rule=rule)
    return d


def _on_fate(b: BattleTurn, action: FateIntervention) -> None:
    _decided(b, DecisionKind.FATE, action.unit, "SG.FAT.1")
    p = b.state.attack
    assert p is not None
    if action.die not in (0, 1):
        raise IllegalActionError(
            S_("Fate Intervention moves die 0 or 1, not {die}", die=action.die), rule="SG.FAT.1"
        )
    if action.die not in p.offered:
        raise IllegalActionError(
            S_(
                "moving die {die} of {faces} makes no Critical Hit (catalog: fate)",
                die=action.die,
                faces=list(p.faces),
            ),
            rule="SG.FAT.1",
        )
    b.log("fate_intervention", "SG.FAT.1", automatic=False, unit=action.unit, die=action.die)
    if not b.fate_intervention(action.die):
        b.attack_done()


def _on_bastion(b: BattleTurn, action: LastBastion) -> None:
    _decided(b, DecisionKind.LAST_BASTION, action.unit, "SG.FAT.2")
    b.log("last_bastion", "SG.FAT.2", automatic=False, unit=action.unit)
    b.last_bastion(True)
    b.attack_done()


def _on_fumble(b: BattleTurn, action: FumbleExtras) -> None:
    b.fumble_extras(action)


def _on_change(b: BattleTurn, action: BattlefieldChange) -> None:
    b.battlefield_change(action)


def _on_decline(b: BattleTurn, action: Decline) -> None:
    d = b.state.decision
    if d is not None and d.unit == action.unit:
        if d.kind is DecisionKind.REACTION:
            b.log("declined", "SG.RES.2", automatic=False, unit=action.unit, attacker=d.attacker)
            b.set(decision=None)
            if not b.roll(None):
                b.attack_done()
            return
        if d.kind is DecisionKind.FATE:
            b.log("fate_declined", "SG.FAT.1", automatic=False, unit=action.unit)
            if not b.fate_intervention(None):
                b.attack_done()
            return
        if d.kind is DecisionKind.LAST_BASTION:
            b.log("fate_declined", "SG.FAT.2", automatic=False, unit=action.unit)
            b.last_bastion(False)
            b.attack_done()
            return
        if d.kind is DecisionKind.FUMBLE:
            b.log("fumble_extras_none", "SG.FUM.2", automatic=False, unit=d.attacker)
            b.set(decision=None)
            return
        if d.kind is DecisionKind.UPKEEP:
            b.log("upkeep_done", "SG.LUL.2", automatic=False, unit=action.unit)
            b.set(decision=None, queue=b.state.queue[1:])
            return
        if d.kind is DecisionKind.ENVIRONMENT:
            b.log(
                "environment_skipped", "SG.LUL.3", automatic=False, yoma=b.state.yoma, changes=b.state.changes
            )
            b.set(decision=None, environment_done=True)
            return
    raise IllegalActionError(S_("{unit} has nothing to decline now", unit=action.unit), rule="SG.RES.2")


def _on_upkeep(b: BattleTurn, action: Upkeep) -> None:
    d = b.state.decision
    if b.state.phase is not Phase.LULL or d is None or d.kind is not DecisionKind.UPKEEP:
        raise IllegalActionError(S_("upkeep maneuvers are performed in the lull phase"), rule="SG.LUL.2")
    if d.unit != action.unit:
        raise IllegalActionError(
            S_("{unit} performs its upkeep now, not {unit2}", unit=d.unit, unit2=action.unit), rule="SG.LUL.2"
        )
    unit = b.u(action.unit)
    problem = upkeep_problem(b.rules, b.state, unit, action)
    if problem is not None:
        raise IllegalActionError(problem, rule="SG.LUL.2")
    m = b.rules.maneuver(action.maneuver)
    up = m.upkeep
    assert up is not None
    b.set(decision=None)
    b.put(replace(unit, used=bump(unit.used, _used_key(m.id, action))))
    b.log(
        "upkeep",
        "SG.LUL.2",
        automatic=False,
        unit=unit.id,
        maneuver=m.id,
        target=action.target,
        choice=action.choice,
        effect=up.effect,
    )
    if up.moves_shikigami and action.target is not None and action.to is not None:
        servant = b.u(action.target)
        b.put(replace(servant, zone=action.to))
        b.log("shikigami_moved", "SG.LUL.2", unit=servant.id, frm=servant.zone, to=action.to)
        return
    if action.target is None:
        return
    t = b.u(action.target)
    wounds = up.wounds_recovered and (not up.choose_one or action.choice == "wounds")
    cohesion = up.cohesion_gained and (not up.choose_one or action.choice == "cohesion")
    if wounds and t.wounds < t.wounds_max:
        after = min(t.wounds_max, t.wounds + up.wounds_recovered)
        b.put(replace(t, wounds=after))
        b.log("wounds_recovered", "SG.LUL.2", unit=t.id, before=t.wounds, after=after)
    if cohesion and t.cohesion is not None:
        b.cohesion(t.id, up.cohesion_gained, "SG.LUL.2", m.name)
    if up.prevents_collapse:
        b.put(replace(b.u(t.id), ward=True))
        b.log("ward", "SG.RET.5", unit=t.id, until="the next lull")


def _on_environment(b: BattleTurn, action: Environment) -> None:
    d = b.state.decision
    if d is None or d.kind is not DecisionKind.ENVIRONMENT or not b.state.yoma:
        raise IllegalActionError(
            S_("the GM rolls for yoma intrusion in the lull phase, when the scenario allows"), rule="SG.LUL.3"
        )
    if action.zone is not None and not b.state.has_zone(action.zone):
        raise IllegalActionError(S_("no zone {zone}", zone=f"{action.zone!r}"), rule="SG.LUL.3")
    table = b.rules.yoma
    roll = b.dice.die(table.die)
    row = table.row(roll)
    b.set(decision=None, environment_done=True)
    zone = action.zone
    if zone is None and row.zone is not None:
        zone = next((z.id for z in b.state.zones if z.kind == row.zone.value), b.state.zones[0].id)
    b.log(
        "yoma_roll",
        "SG.LUL.3",
        automatic=False,
        roll=roll,
        name=row.name,
        effect=row.effect,
        creatures=[{"id": c.id, "count": c.count} for c in row.creatures],
        zone=zone,
    )
    if not row.creatures or zone is None:
        return
    if not any(s.id == INTRUDERS for s in b.state.sides):
        b.set(sides=(*b.state.sides, Side(INTRUDERS, S_("Yoma intruders"), "none")))
    for c in row.creatures:
        for _ in range(c.count):
            n = 1
            while b.state.has_unit(f"{c.id}-{n}"):
                n += 1
            uid = f"{c.id}-{n}"
            template = Unit(uid, "", INTRUDERS, len(b.state.units), c.id)
            creature = b.rules.creature(template)
            top = b.rules.wounds_max(template)
            unit = replace(
                template,
                name=distinct_name(f"{creature.name} {n}", {u.name for u in b.state.units}),
                zone=zone,
                wounds=top,
                wounds_max=top,
                cohesion=b.rules.cohesion_max(creature),
                cohesion_max=b.rules.cohesion_max(creature),
            )
            b.set(units=(*b.state.units, unit))
            b.log("arrives", "SG.LUL.3", unit=uid, name=unit.name, creature=c.id, zone=zone, side=INTRUDERS)


_WAITS = (DecisionKind.REACTION, DecisionKind.FATE, DecisionKind.LAST_BASTION, DecisionKind.FUMBLE)


def _gm_may_act(b: BattleTurn) -> None:
    d = b.state.decision
    if b.state.attack is not None or (d is not None and d.kind in _WAITS):
        raise IllegalActionError(S_("the GM waits until the attack at hand is resolved"), rule="SG.RES.2")


def _on_set_wounds(b: BattleTurn, action: GmSetWounds) -> None:
    _gm_may_act(b)
    if not b.state.has_unit(action.unit):
        raise IllegalActionError(S_("no unit {unit}", unit=f"{action.unit!r}"), rule="SG.WND.4")
    unit = b.u(action.unit)
    if not unit.on_battlefield:
        raise IllegalActionError(S_("{name} is not on the battlefield", name=unit.name), rule="SG.INP.1")
    if not 0 <= action.wounds <= unit.wounds_max:
        raise IllegalActionError(
            S_(
                "Wounds go from 0 to {wounds_max}, not {wounds}",
                wounds_max=unit.wounds_max,
                wounds=action.wounds,
            ),
            rule="SG.WND.4",
        )
    b.log("gm_set_wounds", "SG.WND.4", automatic=False, unit=unit.id, before=unit.wounds, after=action.wounds)
    fell = action.wounds == 0
    if fell:
        b.log("incapacitated", "SG.WND.4", unit=unit.id)
    b.wounded(unit.id, action.wounds, fell)
    if b.state.phase is not Phase.START:
        b.set(decision=None)


def _on_end_combat(b: BattleTurn, action: GmEndCombat) -> None:
    _gm_may_act(b)
    if not b.rules.end.gm_may_end:
        raise IllegalActionError(
            S_("the house rules leave the end of combat to its conditions"), rule="SG.END.1"
        )
    if action.winner is not None and not any(s.id == action.winner for s in b.state.sides):
        raise IllegalActionError(S_("no side {winner}", winner=f"{action.winner!r}"), rule="SG.END.1")
    b.finish(action.winner, action.reason, automatic=False)


_HANDLERS: Handlers[BattleTurn] = (
    Handlers[BattleTurn]()
    .add(Begin, _on_begin)
    .add(Breath, _on_breath)
    .add(Hold, _on_hold)
    .add(Pass, _on_pass)
    .add(React, _on_react)
    .add(Decline, _on_decline)
    .add(FateIntervention, _on_fate)
    .add(LastBastion, _on_bastion)
    .add(FumbleExtras, _on_fumble)
    .add(BattlefieldChange, _on_change)
    .add(Upkeep, _on_upkeep)
    .add(Environment, _on_environment)
    .add(GmSetWounds, _on_set_wounds)
    .add(GmEndCombat, _on_end_combat)
    .add(GmAddStatus, gm.on_add_status)
    .add(GmRemoveStatus, gm.on_remove_status)
    .add(GmAddDebuff, gm.on_add_debuff)
    .add(GmRemoveDebuff, gm.on_remove_debuff)
)
