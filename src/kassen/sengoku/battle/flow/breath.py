"""A breath at its count (SG.BRT.1): declared and paid at once, then resolved maneuver by maneuver —
attacks (:mod:`~kassen.sengoku.battle.flow.attack`), reservations (SG.RES.1), stances and Kata, movement
(SG.ZON.2) and Retreat (SG.RET.1-3), reloads — and the overload check after it (SG.BRT.2).

Each kind of maneuver has its handler (:data:`_USE_HANDLERS`); a handler returns True when the breath
waits for a decision (a reaction), and a maneuver the situation no longer allows is forfeited.
"""

from __future__ import annotations

__all__ = ["BreathPart"]

from collections.abc import Callable
from typing import Any

from kassen.core.errors import IllegalActionError
from kassen.core.explain import steps_to_json
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.flow.attack import AttackPart
from kassen.sengoku.battle.flow.base import use_json
from kassen.sengoku.battle.plan import check_modifier, destination
from kassen.sengoku.battle.planned import planned_breath
from kassen.sengoku.battle.state import BreathInProgress, Reservation, Unit, Use, bump
from kassen.sengoku.check import TieRule
from kassen.sengoku.entries import Maneuver, ManeuverKind, MovementTo


class BreathPart(AttackPart):
    """Breaths and the maneuvers in them (see the module notes)."""

    __slots__ = ()

    def begin_breath(self, breath: Breath) -> None:
        plan = planned_breath(self.rules, self.state, breath)
        unit = self.action_starts(plan.unit)
        used, limited = unit.used, unit.limited
        for pu in plan.uses:
            m = pu.maneuver
            if m.kind in self.rules.combo.applies_to:
                used = bump(used, m.id)
            for i, limit in enumerate(m.limits):
                if limit.per.value != "breath":
                    limited = bump(limited, f"{m.id}#{i}", since=self.state.round)
        before = unit.energy
        after = before - plan.spent
        paid = replace(
            unit,
            energy=after,
            initiative=0,
            breaths=unit.breaths + 1,
            count_reached=True,
            used=used,
            limited=limited,
            surcharge=0,
        )
        self.log(
            "breath",
            "SG.BRT.1",
            automatic=False,
            unit=unit.id,
            count=self.state.count,
            uses=[use_json(pu.use) for pu in plan.uses],
            costs=list(plan.costs),
            **({"cost_steps": [steps_to_json(pu.steps) for pu in plan.uses]} if self.explain else {}),
            spent=plan.spent,
            limit=plan.limit,
            overload=plan.overload,
        )
        if unit.initiative:
            self.log("initiative_used", "SG.CNT.2", unit=unit.id, initiative=unit.initiative, energy=after)
        self.log("energy_spent", "SG.CNT.5", unit=unit.id, before=before, after=after, spent=plan.spent)
        # the unit paid and the breath under way, in one copy of the state (nothing above reads it)
        self.put_set(
            paid,
            decision=None,
            breath=BreathInProgress(unit.id, breath.uses, plan.costs, plan.spent, self.state.count),
        )

    def continue_breath(self) -> None:
        b = self.state.breath
        assert b is not None
        unit = self.u(b.unit)
        if b.index >= len(b.uses) or not unit.on_battlefield:
            self.finish_breath()
            return
        use = b.uses[b.index]
        m = self.rules.maneuver(use.maneuver)
        paused = _USE_HANDLERS[_use_kind(m)](self, b, use, m)
        if not paused:
            now = self.state.breath
            assert now is not None
            self.set(breath=replace(now, index=now.index + 1))

    def finish_breath(self) -> None:
        """After the breath: the overload check when it spent past the limit (SG.BRT.2)."""
        b = self.state.breath
        assert b is not None
        self.set(breath=None)
        unit = self.u(b.unit)
        limit = self.rules.breath_limit
        if b.spent <= limit or not unit.on_battlefield:
            return
        ov = self.rules.overload
        excess = b.spent - limit
        target = ov.target + ov.per_excess * excess
        modifier = self.rules.attribute(unit, ov.attribute) - self.rules.check_penalty(unit)
        faces = self.faces()
        check = self.rules.check(faces, modifier, target)
        penalty = ov.next_round_penalty * excess
        self.log(
            "overload_check",
            "SG.BRT.2",
            unit=unit.id,
            spent=b.spent,
            limit=limit,
            faces=list(faces),
            modifier=modifier,
            total=check.total,
            target=target,
            success=check.success,
            next_round_penalty=penalty,
            **self.explained(steps=check.steps),
        )
        unit = replace(unit, overload_penalty=unit.overload_penalty + penalty)
        if not check.success:
            if ov.failure_loses_all_energy:
                self.log("energy_lost", "SG.BRT.2", unit=unit.id, before=unit.energy, after=0)
                unit = replace(unit, energy=0)
            self.put(unit)
            if ov.failure_defenseless:
                self.defenseless(unit.id, S_("a failed overload check"), "SG.BRT.2")
            return
        self.put(unit)

    def use_reserve(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        """A defense reservation (SG.RES.1). One declared after the unit became Defenseless in this breath
        (a fumble, a failed movement) is forfeited or kept as SG.RD.11's reading says."""
        unit = self.u(b.unit)
        if unit.defenseless and self.rules.fumble_readings.fumble_forfeits_later_reservation:
            return self.forfeit(
                b, use, S_("{name} became Defenseless: no reservation", name=unit.name), "SG.RD.11"
            )
        res = (*unit.reservations, Reservation(m.id, self.rules.reactions.attacks_per_reservation))
        self.put(replace(unit, reservations=res))
        self.log("reserve", "SG.RES.1", automatic=False, unit=unit.id, maneuver=m.id, energy=unit.energy)
        return False

    def use_stance(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        unit = self.u(b.unit)
        if use.release:
            self.put(replace(unit, stances=tuple(s for s in unit.stances if s != m.id)))
            self.log("stance_released", "SG.BRT.1", automatic=False, unit=unit.id, stances=[m.id])
        else:
            if m.kind is ManeuverKind.STANCE and unit.defenseless:
                return self.forfeit(
                    b, use, S_("{name} became Defenseless: no stance", name=unit.name), "SG.DFL.2"
                )
            kept = tuple(
                s
                for s in unit.stances
                if m.kind is not ManeuverKind.STANCE or self.rules.maneuver(s).kind is not ManeuverKind.STANCE
            )
            self.put(replace(unit, stances=(*kept, m.id)))
            self.log("stance", "SG.BRT.1", automatic=False, unit=unit.id, maneuver=m.id)
        self.set(breath=replace(b, stance_changed=True))
        return False

    def move_check(self, unit: Unit, m: Maneuver) -> tuple[bool, dict[str, Any]]:
        """A movement's check (Stealth Movement, Breakthrough, Core Zone Exit: SG.ZON.2 house default),
        with the zone's check rows (Flank: Infiltration +2)."""
        check = m.check
        if check is None or not isinstance(check.against, int):
            return True, {}
        assert unit.zone is not None
        modifier, steps = check_modifier(self.rules, unit, m, self.state.zone(unit.zone))
        faces = self.faces()
        c = self.rules.check(faces, modifier, check.against)
        return c.success, {
            "faces": list(faces),
            "modifier": modifier,
            "total": c.total,
            "target": check.against,
            "success": c.success,
            **self.explained(steps=(*steps, *c.steps)),
        }

    def use_move(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        unit = self.u(b.unit)
        assert unit.zone is not None and m.movement is not None
        try:
            dest = destination(self.state, unit, m, use, unit.zone)
        except IllegalActionError as exc:
            return self.forfeit(b, use, exc.message, exc.rule)
        assert dest is not None
        success, data = self.move_check(unit, m)
        mv = m.movement
        moves = success or not mv.defenseless_on_failure
        infiltrating = unit.infiltrating
        if "infiltrating" in mv.grants:
            infiltrating = success
        here = unit.zone
        self.put(replace(unit, zone=dest if moves else here, infiltrating=infiltrating))
        self.log(
            "move",
            "SG.ZON.2",
            automatic=False,
            unit=unit.id,
            maneuver=m.id,
            frm=here,
            to=dest if moves else here,
            moved=moves,
            check=data,
            infiltrating=infiltrating,
        )
        if not success and mv.defenseless_on_failure:
            self.defenseless(unit.id, S_("a failed {name}", name=m.name), "SG.DFL.1")
        return False

    def use_retreat(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        """SG.RET.1-3: leave the battlefield from one's own Flank or Rear; a pursuit check if enemies are
        near (where: the SG.RD.9 reading in the catalog); allied squads make a Cohesion check."""
        r = self.rules
        unit = self.u(b.unit)
        here = unit.zone
        assert here is not None
        try:
            destination(self.state, unit, m, use, here)
        except IllegalActionError as exc:
            return self.forfeit(b, use, exc.message, exc.rule)
        rr = r.retreat
        zones = set(self.state.neighbours(here))
        if rr.pursuit_zones == "same-and-adjacent":
            zones.add(here)
        near = [u for u in self.state.units if u.side != unit.side and u.able and u.zone in zones]
        if near:
            pursuer = min(
                near, key=lambda u: (-r.attribute(u, rr.pursuit_attribute), r.tie_key(self.state, u))
            )
            mine, theirs = r.attribute(unit, rr.pursuit_attribute), r.attribute(pursuer, rr.pursuit_attribute)
            f1, f2 = self.faces(), self.faces()
            tie = TieRule.FIRST if rr.tie_goes_to == "retreater" else TieRule.SECOND
            opp = r.opposed(f1, mine, f2, theirs, tie)
            self.log(
                "pursuit",
                "SG.RET.3",
                unit=unit.id,
                pursuer=pursuer.id,
                zones=rr.pursuit_zones,
                reading="SG.RD.9",
                faces=list(f1),
                modifier=mine,
                total=opp.first.total,
                pursuer_faces=list(f2),
                pursuer_modifier=theirs,
                pursuer_total=opp.second.total,
                winner="retreater" if opp.winner == "first" else "pursuer",
            )
            if opp.winner != "first":
                self.retreat_fails(unit.id)
                return False
        self.put(replace(self.u(unit.id), retreated=True, zone=None, reservations=()))
        self.log("retreated", "SG.RET.1", automatic=False, unit=unit.id, frm=here)
        for sid in use.squads:
            s = self.u(sid)
            if not s.on_battlefield or s.zone != here:
                continue
            cc = rr.cohesion_check
            roller = s if rr.cohesion_check_roller == "squad" else self.u(unit.id)
            modifier = r.attribute(roller, cc.attribute) - r.check_penalty(roller)
            faces = self.faces()
            c = r.check(faces, modifier, cc.target)
            self.log(
                "cohesion_check",
                "SG.RET.2",
                unit=sid,
                with_unit=unit.id,
                roller=roller.id,
                faces=list(faces),
                modifier=modifier,
                total=c.total,
                target=cc.target,
                success=c.success,
            )
            if c.success:
                self.put(replace(s, retreated=True, zone=None, reservations=()))
                self.log("retreated", "SG.RET.2", unit=sid, frm=here, with_unit=unit.id)
            else:
                self.rout(sid)
        return False

    def retreat_fails(self, uid: str) -> None:
        """The pursuer wins: Defenseless, all Energy lost, Energy −N next round (SG.RET.3)."""
        rr = self.rules.retreat
        unit = self.u(uid)
        self.log("retreat_failed", "SG.RET.3", unit=uid, energy_before=unit.energy, exhaustion=rr.exhaustion)
        self.put(
            replace(
                unit,
                energy=0 if rr.failure_loses_all_energy else unit.energy,
                exhaustion=unit.exhaustion + rr.exhaustion,
            )
        )
        if rr.failure_defenseless:
            self.defenseless(uid, S_("a failed retreat"), "SG.DFL.1")

    def use_reload(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        unit = self.u(b.unit)
        self.put(replace(unit, unloaded=False))
        self.log("reload", "SG.LUL.2", automatic=False, unit=unit.id, maneuver=m.id)
        return False

    def use_kata(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        self.log("kata", "SG.BRT.1", automatic=False, unit=b.unit, maneuver=m.id, effect=m.description)
        return False

    def use_aid(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        """Bind a bleeding ally's wound (the Bleed house default) or pick up one's weapon (SG.FUM.2)."""
        unit = self.u(b.unit)
        assert m.aid is not None
        if m.aid.ends == "dropped-weapon":
            if not unit.dropped:
                return self.forfeit(
                    b, use, S_("{name} has no weapon on the ground", name=unit.name), "SG.FUM.2"
                )
            self.put(replace(unit, dropped="", pickup_cost=0))
            self.log("weapon_picked_up", "SG.FUM.2", automatic=False, unit=unit.id, weapon=unit.dropped)
            return False
        assert use.target is not None
        t = self.u(use.target)
        if not (t.on_battlefield and t.zone == unit.zone and t.bleeding):
            return self.forfeit(
                b, use, S_("{name} is not bleeding beside {name2}", name=t.name, name2=unit.name), "SG.INP.3"
            )
        self.put(replace(t, bleeding=False))
        self.log("wound_bound", "SG.INP.3", automatic=False, unit=unit.id, target=t.id)
        return False


# ------------------------------------------------------------------------------------------ tables


def _use_kind(m: Maneuver) -> str:
    if m.attacks:
        return "attack"
    if m.aid is not None:
        return "aid"
    if m.kind is ManeuverKind.DEFENSE:
        return "reserve"
    if m.grants is not None:
        return "stance"
    if m.kind is ManeuverKind.MOVEMENT:
        assert m.movement is not None
        return "retreat" if m.movement.to is MovementTo.OFF_BATTLEFIELD else "move"
    if m.kind is ManeuverKind.UPKEEP:
        return "reload"
    return "kata"


_USE_HANDLERS: dict[str, Callable[[BreathPart, BreathInProgress, Use, Maneuver], bool]] = {
    "attack": AttackPart.use_attack,
    "reserve": BreathPart.use_reserve,
    "stance": BreathPart.use_stance,
    "move": BreathPart.use_move,
    "retreat": BreathPart.use_retreat,
    "reload": BreathPart.use_reload,
    "kata": BreathPart.use_kata,
    "aid": BreathPart.use_aid,
}
