"""The combat flow of seed 002: round start, count progression, breaths, reactions, the lull, retreat and
combat end, as one working copy of the state that an action and its automatic follow-ups rewrite.

:class:`Battle` is built per ``apply`` from the frozen state, the :class:`BattleRules` and the injected
random source; handlers (one per action type, dispatched by table) validate first and raise
:class:`~kassen.core.errors.IllegalActionError` before anything is drawn or changed; then
:meth:`Battle.advance` runs everything the rules do by themselves until someone must decide (a breath, a
reaction, an upkeep, the GM's environment roll) or the combat is over. Every automatic follow-up is an
:class:`~kassen.core.events.Event` marked ``automatic`` with its rule ID; every die comes from the one
random source. A cap on the steps one action may run keeps the loop finite (DESIGN principle 8).

Order of a round (SG.RND.2): round start (SG.RND.1) → the count (SG.CNT.1-6: the highest acting value
breathes, ties by SG.CNT.4) → each breath resolved maneuver by maneuver (SG.BRT.*, attacks through
:func:`~kassen.sengoku.attack.resolve_attack`, reactions SG.RES.*, movement SG.ZON.2, ambush SG.AMB.*,
retreat SG.RET.*) → the combat-end check after each breath (SG.END.1) → the lull (SG.LUL.1-3) → the next
round, until the combat ends; then the death checks (SG.INP.3) and the honor follow-ups (SG.RET.4).
"""

from __future__ import annotations

__all__ = ["MAX_STEPS_PER_ACTION", "Battle", "upkeep_options", "use_json"]

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.core.rng import DieSource
from kassen.sengoku.aim import aim_focus
from kassen.sengoku.attack import Attack, resolve_attack
from kassen.sengoku.battle.actions import (
    GM,
    Action,
    Begin,
    Breath,
    Decline,
    Environment,
    GmEndCombat,
    GmSetWounds,
    Hold,
    Pass,
    React,
    Upkeep,
)
from kassen.sengoku.battle.plan import (
    acting_value,
    breath_turn,
    check_modifier,
    destination,
    has_breath,
    in_range,
    plan_breath,
    reaction_defenseless,
    situational,
    usable_reservations,
)
from kassen.sengoku.battle.rules import AMBUSH_CONDITIONS, BattleRules
from kassen.sengoku.battle.state import (
    BattleState,
    BreathInProgress,
    DeathRecord,
    Decision,
    DecisionKind,
    HonorFlag,
    Phase,
    Reservation,
    Result,
    Side,
    Unit,
    Use,
    bump,
)
from kassen.sengoku.breakage import apply_break
from kassen.sengoku.check import (
    CheckKind,
    Faces,
    TieRule,
    classify,
    resolve_check,
    resolve_opposed,
    roll_faces,
)
from kassen.sengoku.death import death_check
from kassen.sengoku.defense import compute_defense, end_round_debuffs, trigger_debuff
from kassen.sengoku.entries import HonorClass, Maneuver, ManeuverKind, MovementTo, ReactionKind
from kassen.sengoku.house import ZoneApplies
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import EffectKind
from kassen.sengoku.technique import Technique, attack_modifier
from kassen.sengoku.wounds import AddedWound, Squad, apply_wounds, critical_wounds, hit_wounds, lord_fall

#: At most this many automatic steps inside one action (a queue that cannot loop forever).
MAX_STEPS_PER_ACTION = 10_000
#: The side yoma from the Yoma Encounter Table join (they fight everyone, SG.LUL.3 house default).
INTRUDERS = "intruders"


def use_json(use: Use) -> dict[str, Any]:
    """A maneuver use as short JSON: the maneuver and the fields that are set."""
    out: dict[str, Any] = {"maneuver": use.maneuver}
    if use.target is not None:
        out["target"] = use.target
    if use.aim:
        out["aim"] = use.aim
    if use.to is not None:
        out["to"] = use.to
    if use.squads:
        out["squads"] = list(use.squads)
    if use.release:
        out["release"] = True
    if use.choice is not None:
        out["choice"] = use.choice
    return out


@dataclass(frozen=True, slots=True)
class _Ambush:
    """Whether an attack is an ambush (SG.AMB.1-3): none, basic, the trait's automatic critical, or a
    condition met against an immune target."""

    kind: str
    condition: str = ""
    trait: str = ""


_NO_AMBUSH = _Ambush("none")


def upkeep_options(rules: BattleRules, state: BattleState, unit: Unit) -> list[Upkeep]:
    """The upkeep maneuvers ``unit`` can perform in this lull (SG.LUL.2), each on a target it helps.
    Teppo reloads are automatic in the lull and not offered."""
    out: list[Upkeep] = []
    if not unit.on_battlefield:
        return out
    allies = [unit] + [
        u
        for u in state.units
        if u.side == unit.side and u.id != unit.id and u.zone == unit.zone and u.on_battlefield
    ]
    for mid in rules.known(unit):
        m = rules.maneuver(mid)
        up = m.upkeep
        if m.kind is not ManeuverKind.UPKEEP or up is None or unit.count(unit.used, f"lull:{mid}"):
            continue
        weapon = rules.weapon_for(unit, m)
        if weapon is not None and weapon.reload:
            continue
        if up.wounds_recovered or up.cohesion_gained:
            for t in allies:
                can_w = bool(up.wounds_recovered) and t.wounds < t.wounds_max
                can_c = (
                    bool(up.cohesion_gained) and t.cohesion is not None and t.cohesion < (t.cohesion_max or 0)
                )
                if up.choose_one:
                    if can_w:
                        out.append(Upkeep(unit.id, mid, t.id, "wounds"))
                    if can_c:
                        out.append(Upkeep(unit.id, mid, t.id, "cohesion"))
                elif can_w or can_c:
                    out.append(Upkeep(unit.id, mid, t.id))
        elif up.prevents_collapse:
            out += [Upkeep(unit.id, mid, t.id) for t in allies if t.cohesion is not None and not t.ward]
        else:
            out.append(Upkeep(unit.id, mid, None))
    return out


class Battle:
    """The state being rewritten by one ``apply`` (never the caller's object), with its events."""

    def __init__(self, rules: BattleRules, state: BattleState, rng: DieSource) -> None:
        self.rules = rules
        self.state = state
        self.rng = rng
        self.events: list[Event] = []

    # -- small helpers ---------------------------------------------------------------------------------
    def log(self, kind: str, rule: str, *, automatic: bool = True, **data: Any) -> None:
        self.events.append(Event(kind, data, rule, automatic))

    def u(self, uid: str) -> Unit:
        return self.state.unit(uid)

    def put(self, unit: Unit) -> None:
        self.state = self.state.with_unit(unit)

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def faces(self) -> Faces:
        return roll_faces(self.rng, sides=self.rules.resolution.check.sides)

    def profile(self, unit: Unit, weapon: str | None = None) -> CombatProfile:
        return self.rules.profile(self.state, unit, weapon=weapon)

    # -- applying an action ----------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalActionError(f"not an action of this ruleset: {action!r}", rule="SG.RND.2")
        if self.state.phase is Phase.OVER:
            raise IllegalActionError("the combat is over", rule="SG.END.1")
        handler(self, action)
        self.advance()

    # -- the automatic flow ----------------------------------------------------------------------------
    def advance(self) -> None:
        """Run the rules until someone must decide or the combat is over."""
        for _ in range(MAX_STEPS_PER_ACTION):
            s = self.state
            if s.phase in (Phase.OVER, Phase.START) or s.decision is not None:
                return
            if s.breath is not None:
                self.continue_breath()
                continue
            if s.phase is Phase.COUNT:
                if self.rules.end.checked == "after-each-breath" and self.check_end():
                    continue
                unit = self.next_unit()
                if unit is None:
                    self.begin_lull()
                    continue
                if not has_breath(self.rules, self.state, unit):
                    self.give_up(unit)
                    continue
                self.set(decision=Decision(DecisionKind.BREATH, unit.id))
                return
            if s.queue:
                uid = s.queue[0]
                if upkeep_options(self.rules, s, self.u(uid)):
                    self.set(decision=Decision(DecisionKind.UPKEEP, uid))
                    return
                self.set(queue=s.queue[1:])
                continue
            if s.yoma and not s.environment_done:
                self.set(decision=Decision(DecisionKind.ENVIRONMENT, GM))
                return
            self.end_lull()
        raise KassenError(f"one action ran more than {MAX_STEPS_PER_ACTION} automatic steps")

    # -- round start and count -------------------------------------------------------------------------
    def start_round(self) -> None:
        """SG.RND.1: every unit resets to its maximum Energy (armor, overload and exhaustion penalties
        applied); maintained stances stay; a debuff that triggers each round triggers again."""
        rnd = self.state.round + 1
        self.set(round=rnd, phase=Phase.COUNT, count=0, decision=None, environment_done=False)
        self.log("round", "SG.RND.2", round=rnd)
        for unit in self.state.units:
            if not unit.on_battlefield:
                continue
            base, steps = self.rules.armor_max_energy(unit)
            top = max(0, base - unit.overload_penalty - unit.exhaustion)
            changed = replace(
                unit,
                energy=top,
                max_energy=top,
                passed=False,
                used=(),
                overload_penalty=0,
                exhaustion=0,
                initiative=self.initiative_at(unit, rnd),
            )
            if rnd > 1:
                changed = self.retrigger(changed)
            self.put(changed)
            self.log(
                "energy_reset",
                "SG.RND.1",
                unit=unit.id,
                energy=top,
                zone=unit.zone,
                wounds=unit.wounds,
                wounds_max=unit.wounds_max,
                cohesion=unit.cohesion,
                defenseless=changed.defenseless,
                routed=unit.routed,
                armor=[s.to_json() for s in steps],
                overload=unit.overload_penalty,
                exhaustion=unit.exhaustion,
                stances=list(unit.stances),
                initiative=changed.initiative,
            )

    @staticmethod
    def initiative_at(unit: Unit, rnd: int) -> int:
        """The initiative +N pending for round ``rnd``'s first breath: the combat start's in round 1, or
        one an effect named for the start of round ``initiative_round`` in that round only (SG.CNT.2)."""
        if rnd == 1:
            return unit.initiative
        return unit.initiative_due if rnd == unit.initiative_round else 0

    def retrigger(self, unit: Unit) -> Unit:
        """A Defense −N that triggers each round triggers again (SG.DBF.3, SG.RD.3)."""
        if not unit.debuffs:
            return unit
        p = self.profile(unit)
        for d in unit.debuffs:
            entry = next((e for e in self.rules.catalog.debuffs.values() if e.name == d.source), None)
            if entry is not None and entry.each_round:
                p, _ = trigger_debuff(p, entry.debuff(), rules=self.rules.defense)
        return replace(unit, debuffs=p.debuffs)

    def next_unit(self) -> Unit | None:
        """The unit that breathes now: the highest acting value (Energy + a pending initiative), ties in
        the catalog's order (SG.CNT.1, SG.CNT.3-5)."""
        s = self.state
        eligible = [u for u in s.units if u.on_battlefield and not u.passed and acting_value(u) >= 1]
        if not eligible:
            return None
        count = max(acting_value(u) for u in eligible)
        at = sorted((u for u in eligible if acting_value(u) == count), key=lambda u: self.rules.tie_key(s, u))
        if count != s.count:
            self.log(
                "count",
                "SG.CNT.1" if s.count == 0 else "SG.CNT.5",
                count=count,
                units=[u.id for u in at],
            )
            self.set(count=count)
            if len(at) > 1:
                self.log(
                    "tie", "SG.CNT.4", count=count, order=[u.id for u in at], keys=list(self.rules.tie.order)
                )
        return at[0]

    def give_up(self, unit: Unit) -> None:
        """A unit that cannot pay for any maneuver passes (or holds), as SG.CNT.6's default says."""
        ph = self.rules.pass_hold
        if ph.cannot_spend == "hold" and unit.energy >= ph.hold_cost:
            self.hold(unit, automatic=True)
        else:
            self.put(replace(unit, passed=True))
            self.log(
                "pass", "SG.CNT.6", unit=unit.id, energy=unit.energy, reason="cannot pay for any maneuver"
            )

    def hold(self, unit: Unit, *, automatic: bool) -> None:
        unit = self.action_starts(unit)
        cost = self.rules.pass_hold.hold_cost
        self.put(replace(unit, energy=unit.energy - cost, initiative=0))
        self.log(
            "hold",
            "SG.CNT.6",
            automatic=automatic,
            unit=unit.id,
            before=unit.energy,
            after=unit.energy - cost,
        )

    def action_starts(self, unit: Unit, when: str = "its next action starts") -> Unit:
        """Defenseless ends when the unit's next action starts (SG.DFL.3; whether a React is one is the
        catalog's SG.DFL.3 reading)."""
        if not unit.defenseless:
            return unit
        self.log("defenseless_ends", "SG.DFL.3", unit=unit.id, when=when)
        return replace(unit, defenseless=False)

    # -- breaths ---------------------------------------------------------------------------------------
    def begin_breath(self, breath: Breath) -> None:
        plan = plan_breath(self.rules, self.state, breath)
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
        self.put(
            replace(unit, energy=after, initiative=0, breaths=unit.breaths + 1, used=used, limited=limited)
        )
        self.log(
            "breath",
            "SG.BRT.1",
            automatic=False,
            unit=unit.id,
            count=self.state.count,
            uses=[use_json(pu.use) for pu in plan.uses],
            costs=list(plan.costs),
            cost_steps=[steps_to_json(pu.steps) for pu in plan.uses],
            spent=plan.spent,
            limit=plan.limit,
            overload=plan.overload,
        )
        if unit.initiative:
            self.log("initiative_used", "SG.CNT.2", unit=unit.id, initiative=unit.initiative, energy=after)
        self.log("energy_spent", "SG.CNT.5", unit=unit.id, before=before, after=after, spent=plan.spent)
        self.set(
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
        modifier = self.rules.attribute(unit, ov.attribute)
        faces = self.faces()
        check = resolve_check(faces, modifier, target, sides=self.rules.resolution.check.sides)
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
            steps=steps_to_json(check.steps),
        )
        unit = replace(unit, overload_penalty=unit.overload_penalty + penalty)
        if not check.success:
            if ov.failure_loses_all_energy:
                self.log("energy_lost", "SG.BRT.2", unit=unit.id, before=unit.energy, after=0)
                unit = replace(unit, energy=0)
            self.put(unit)
            if ov.failure_defenseless:
                self.defenseless(unit.id, "a failed overload check", "SG.BRT.2")
            return
        self.put(unit)

    def forfeit(self, b: BreathInProgress, use: Use, why: str, rule: str) -> bool:
        self.log("forfeit", rule, unit=b.unit, use=use_json(use), why=why)
        return False

    # -- statuses --------------------------------------------------------------------------------------
    def defenseless(self, uid: str, cause: str, rule: str, *, logged: bool = False) -> None:
        """The unit becomes Defenseless: any maintained [stance] is released at once (SG.DFL.1-2).
        ``logged``: the resolution already logged it (a fumble)."""
        unit = self.u(uid)
        if unit.defenseless:
            return
        stances = [s for s in unit.stances if self.rules.maneuver(s).kind is ManeuverKind.STANCE]
        kept = tuple(s for s in unit.stances if s not in stances)
        self.put(replace(unit, defenseless=True, stances=kept))
        if not logged:
            self.log("defenseless", rule, unit=uid, cause=cause, released=stances)
        if stances:
            self.log("stance_released", "SG.DFL.2", unit=uid, stances=stances, cause="Defenseless")

    def rout(self, uid: str) -> None:
        unit = self.u(uid)
        if unit.routed:
            return
        self.put(replace(unit, routed=True, routed_round=self.state.round))
        self.log("routed", "SG.RET.5", unit=uid, cohesion=unit.cohesion)

    def wounded(self, uid: str, after: int, fell: bool) -> None:
        """Wounds applied; at 0 the unit is Incapacitated and removed from its zone (SG.INP.1); a Lord's
        fall costs his side's squads Cohesion (SG.INP.2, SG.RD.9)."""
        unit = self.u(uid)
        if not fell:
            self.put(replace(unit, wounds=after))
            return
        self.put(replace(unit, wounds=after, incapacitated=True, zone=None, reservations=(), stances=()))
        self.log("removed", "SG.INP.1", unit=uid, zone=unit.zone, why="Incapacitated: removed from the zone")
        if self.rules.creature(unit).grade is not Grade.LORD:
            return
        squads = [
            Squad(u.id, u.side, u.cohesion)
            for u in self.state.units
            if u.cohesion is not None and u.on_battlefield
        ]
        after_fall, _ = lord_fall(self.profile(self.u(uid)), squads, rules=self.rules.resolution)
        for old, new in zip(squads, after_fall, strict=True):
            if new.cohesion == old.cohesion:
                continue
            self.cohesion(old.name, new.cohesion - old.cohesion, "SG.INP.2", "commander lost")

    def cohesion(self, uid: str, change: int, rule: str, why: str) -> None:
        unit = self.u(uid)
        assert unit.cohesion is not None
        value = unit.cohesion + change
        floor = self.rules.squads.rout_at + 1
        if change < 0 and unit.ward and value < floor <= unit.cohesion:
            value = floor
            self.log("ward_holds", "SG.RET.5", unit=uid, cohesion=value)
        value = max(0, min(value, unit.cohesion_max or value))
        self.put(replace(unit, cohesion=value))
        self.log("cohesion", rule, unit=uid, before=unit.cohesion, after=value, why=why)
        if value <= self.rules.squads.rout_at:
            self.rout(uid)
        elif change > 0 and unit.routed and unit.cohesion <= self.rules.squads.rout_at < value:
            self.put(replace(self.u(uid), routed=False))
            self.log("rallied", "SG.RET.5", unit=uid, cohesion=value)

    # -- attacks ---------------------------------------------------------------------------------------
    def ambush_of(self, attacker: Unit, target: Unit) -> _Ambush:
        """SG.AMB.1: any one condition of the catalog's list; SG.AMB.2: a trait's own [Ambush] replaces
        the basic one; SG.AMB.3: immune traits, and a unit already ambushed once."""
        amb = self.rules.ambush
        met = ""
        for c in amb.conditions:
            test = _AMBUSH_CONDITIONS.get(c.id)
            if test is not None and test(self, attacker, target):
                met = c.id
                break
        if not met:
            return _NO_AMBUSH
        imm = self.rules.immunity
        traits = set(self.rules.creature(target).traits)
        if traits & set(imm.immune_traits) or (imm.once_per_target and target.ambushed):
            return _Ambush("immune", met)
        for tid in self.rules.creature(attacker).traits:
            own = self.rules.catalog.trait(tid).ambush
            if (
                own is not None
                and own.requires == "infiltrating"
                and attacker.infiltrating
                and own.automatic_critical
            ):
                return _Ambush("automatic", met, tid)
        return _Ambush("basic", met)

    def use_attack(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        attacker = self.u(b.unit)
        assert use.target is not None
        target = self.u(use.target)
        if not target.on_battlefield or target.zone is None or attacker.zone is None:
            return self.forfeit(b, use, f"{target.name} is no longer on the battlefield", "SG.INP.1")
        if not in_range(self.state, self.rules.range(attacker, m), attacker.zone, target.zone):
            return self.forfeit(b, use, f"{target.name} is out of reach", "SG.ZON.2")
        ambush = self.ambush_of(attacker, target)
        if ambush.kind == "automatic":
            self.automatic_critical(attacker, target, m, ambush)
            return False
        ambushed = ambush.kind == "basic" and self.rules.ambush.target_defenseless
        if usable_reservations(self.rules, self.state, target, ambushed=ambushed):
            self.set(decision=Decision(DecisionKind.REACTION, target.id, attacker.id, m.id, ambushed))
            self.log("reaction_offered", "SG.RES.2", unit=target.id, attacker=attacker.id, maneuver=m.id)
            return True
        self.resolve(b, use, m, ambush, None)
        return False

    def blow_wounds(self, tech: Technique, critical: bool) -> int:
        """Wounds of a blow before any reaction: hit or Critical Hit, with added effects (SG.WND.6)."""
        r = self.rules.resolution
        base = critical_wounds(tech, r)[0] if critical else hit_wounds(tech, r)[0]
        extra = sum(e.wounds for e in tech.on_hit if e.kind is EffectKind.EXTRA_WOUNDS)
        if critical:
            extra += sum(e.wounds for e in tech.on_critical if e.kind is EffectKind.EXTRA_WOUNDS)
        return base + extra

    def automatic_critical(self, attacker: Unit, target: Unit, m: Maneuver, ambush: _Ambush) -> None:
        """The shinobi's [Ambush]: the first attack while infiltrating is a Critical Hit with no check
        (SG.AMB.2); it replaces the basic ambush and inflicts no Defenseless. No check, so nothing for a
        reaction to answer."""
        tech = self.rules.technique(attacker, m)
        wounds = self.blow_wounds(tech, critical=True)
        change = apply_wounds(
            self.profile(target),
            wounds,
            rules=self.rules.resolution,
            grades=self.rules.grades,
            rule="SG.AMB.2",
        )
        self.log(
            "attack",
            "SG.AMB.2",
            automatic=False,
            attacker=attacker.id,
            target=target.id,
            maneuver=m.id,
            technique=tech.name,
            outcome="critical",
            automatic_critical=True,
            ambush=ambush.condition,
            trait=ambush.trait,
            wounds_before=change.before,
            wounds_after=change.after,
            steps=steps_to_json(change.steps),
        )
        self.events.extend(change.events)
        self.put(replace(attacker, attacks=attacker.attacks + 1, infiltrating=False))
        self.put(replace(self.u(target.id), ambushed=True))
        self.wounded(target.id, change.after, change.incapacitated)
        self.effects(target.id, target.zone, tech, critical=True)

    def effects(self, target: str, zone: str | None, tech: Technique, *, critical: bool) -> None:
        """A hit's Defense −N sources on the target (SG.DBF.1) and Wounds to the enemy behind (SG.CRT.2)."""
        effects = tech.on_hit + (tech.on_critical if critical else ())
        t = self.u(target)
        for e in effects:
            if e.kind is EffectKind.DEBUFF and t.on_battlefield:
                entry = self.rules.catalog.debuff(e.debuff)
                p, _ = trigger_debuff(self.profile(t), entry.debuff(), rules=self.rules.defense)
                t = replace(t, debuffs=p.debuffs)
                self.put(t)
                self.log("debuff", "SG.DBF.1", unit=target, debuff=entry.id, value=entry.value)
        behind = sum(e.wounds for e in effects if e.kind is EffectKind.WOUNDS_BEHIND)
        if behind:
            self.behind(target, zone, behind, "SG.CRT.2" if critical else "SG.WND.3")

    def behind(self, target: str, zone: str | None, wounds: int, rule: str) -> None:
        """House reading: "the enemy behind" is another unit of the target's side in the zone the target
        stood in (first in setup order); with nobody there, the Wounds are lost."""
        t = self.u(target)
        others = [
            u
            for u in self.state.units
            if u.side == t.side and u.id != t.id and u.on_battlefield and u.zone == zone
        ]
        if not others:
            self.log("behind", rule, target=target, wounds=wounds, unit=None)
            return
        hit = others[0]
        change = apply_wounds(
            self.profile(hit), wounds, rules=self.rules.resolution, grades=self.rules.grades, rule=rule
        )
        self.log(
            "behind",
            rule,
            target=target,
            wounds=wounds,
            unit=hit.id,
            before=change.before,
            after=change.after,
        )
        self.events.extend(change.events)
        self.wounded(hit.id, change.after, change.incapacitated)

    def resolve(
        self, b: BreathInProgress, use: Use, m: Maneuver, ambush: _Ambush, reaction: str | None
    ) -> None:
        """One attack through the shared resolution (seed 000), with the state's stances, Defenseless and
        debuffs in the target's Defense, the zone's check rows, and a reaction if one was chosen."""
        r = self.rules
        attacker = self.u(b.unit)
        assert use.target is not None and attacker.zone is not None
        target = self.u(use.target)
        assert target.zone is not None
        weapon = r.weapon_for(attacker, m)
        tech = r.technique(attacker, m)
        tags = tech.tags
        aim_steps: tuple[Step, ...] = ()
        if use.aim:
            af = aim_focus(tech, finesse=r.attribute(attacker, "finesse"), extra=use.aim, rules=r.defense)
            tags, aim_steps = af.tags, af.steps
        pa = self.profile(attacker, weapon.id if weapon is not None and not weapon.natural else None)
        pt = self.profile(target)
        modifier, mod_steps = attack_modifier(pa, tech)
        plain = modifier
        steps = list(mod_steps)
        sit, sit_steps = situational(attacker, m, stance_changed=b.stance_changed)
        modifier += sit
        steps += sit_steps
        for e in r.zone_effects(
            attacker,
            m,
            ZoneApplies.CHECK,
            self.state.zone(attacker.zone),
            target_zone=self.state.zone(target.zone),
            skill=r.check_skill(attacker, m),
        ):
            modifier += e.amount
            steps.append(Step(e.amount, f"{e.zone}: {e.text}", "SG.ZON.1"))
        if ambush.kind == "basic":
            amb = r.ambush
            self.log("ambush", "SG.AMB.1", attacker=attacker.id, target=target.id, condition=ambush.condition)
            if amb.target_defenseless:
                pt = replace(pt, defenseless=True)
            if amb.check_bonus:
                modifier += amb.check_bonus
                steps.append(Step(amb.check_bonus, "ambush: first-attack modifier", "SG.AMB.1"))
        elif ambush.kind == "immune":
            self.log(
                "ambush_immune",
                "SG.AMB.3",
                attacker=attacker.id,
                target=target.id,
                condition=ambush.condition,
            )
        if modifier != plain:
            steps.append(Step(modifier, "attack modifier", "SG.CHK.1"))
        defense = compute_defense(pt, tags, rules=r.defense, grades=r.grades)
        faces = self.faces()
        sides = r.resolution.check.sides
        check = resolve_check(faces, modifier, defense.defense, sides=sides)
        hit = classify(check, kind=CheckKind.ATTACK, rules=r.resolution).outcome.succeeded
        nullified = False
        soft: tuple[AddedWound, ...] = ()
        answer: list[Event] = []
        if reaction is not None:
            mark = len(self.events)
            nullified, soft, attacker = self.react(attacker, target, reaction, tech, check.total, hit, faces)
            answer = self.events[mark:]
            del self.events[mark:]
        base = {
            "attacker": attacker.id,
            "target": target.id,
            "maneuver": m.id,
            "technique": tech.name,
            "aim": use.aim,
            "aim_steps": steps_to_json(aim_steps),
            "modifier": modifier,
            "modifier_steps": steps_to_json(steps),
            "defense": defense.defense,
            "defense_steps": steps_to_json(defense.steps),
            "faces": list(faces),
            "total": check.total,
            "ambush": ambush.condition if ambush.kind == "basic" else "",
            "reaction": reaction or "",
        }
        attacker = replace(
            attacker,
            attacks=attacker.attacks + 1,
            infiltrating=False,
            unloaded=attacker.unloaded or (weapon is not None and weapon.reload),
        )
        self.put(attacker)
        if ambush.kind == "basic":
            self.put(replace(self.u(target.id), ambushed=True))
        if nullified:
            outcome = "critical" if check.double else "hit"
            self.log(
                "attack",
                "SG.CHK.1",
                automatic=False,
                **base,
                outcome=outcome,
                nullified=True,
                wounds_before=target.wounds,
                wounds_after=target.wounds,
            )
            self.events.extend(answer)
            return
        res = resolve_attack(
            pa,
            pt,
            Attack(tech, modifier=modifier, tags=tags, added_wounds=soft),
            defense,
            faces,
            table_dice=self.rng,
            rules=r.resolution,
            grades=r.grades,
        )
        self.log(
            "attack",
            "SG.CHK.1",
            automatic=False,
            **base,
            outcome=res.outcome.value,
            nullified=False,
            wounds_before=res.wounds_before,
            wounds_after=res.wounds_after,
            steps=steps_to_json(res.steps),
        )
        self.events.extend(answer)
        self.events.extend(res.events)
        if res.attacker.defenseless and not pa.defenseless:
            self.defenseless(attacker.id, "a fumble", "SG.FUM.1", logged=True)
        if not res.hit:
            return
        self.wounded(target.id, res.wounds_after, res.incapacitated)
        if tags.break_ and defense.pierce_removed:
            t = self.u(target.id)
            broken, _ = apply_break(pa.weapon_grade, self.profile(t), defense.pierce_removed, rules=r.defense)
            if broken.armor_damage != t.armor_damage:
                self.put(replace(t, armor_damage=broken.armor_damage))
                self.log("armor_broken", "SG.BRK.2", unit=t.id, armor_damage=broken.armor_damage)
        self.effects(target.id, target.zone, tech, critical=res.outcome.value == "critical")

    def react(
        self,
        attacker: Unit,
        target: Unit,
        maneuver: str,
        tech: Technique,
        total: int,
        hit: bool,
        faces: Faces,
    ) -> tuple[bool, tuple[AddedWound, ...], Unit]:
        """The reserved technique answers the attack (SG.RES.1, SG.RES.4 house default): a check against
        the attack's total, ties to the catalog's side; parry and block nullify, a block also costs the
        attacker Energy; an evasion nullifies, or softens the blow when it fails."""
        r = self.rules
        m = r.maneuver(maneuver)
        reaction = m.reaction
        assert reaction is not None
        res = target.reservation(maneuver)
        assert res is not None
        i = target.reservations.index(res)
        spent = replace(res, answers=res.answers - 1)
        left = (
            *target.reservations[:i],
            *((spent,) if spent.answers > 0 else ()),
            *target.reservations[i + 1 :],
        )
        self.put(replace(target, reservations=left))
        if not hit:
            self.log(
                "reaction",
                "SG.RES.1",
                automatic=False,  # the unit chose to react (React); the outcome follows from the dice
                unit=target.id,
                maneuver=maneuver,
                attacker=attacker.id,
                rolled=False,
                success=True,
                effect="the attack missed: the reservation is spent on it",
            )
            return False, (), attacker
        modifier, steps = check_modifier(r, target, m)
        rfaces = self.faces()
        check = resolve_check(rfaces, modifier, total, sides=r.resolution.check.sides)
        success = check.total >= total if r.reactions.tie_goes_to == "defender" else check.total > total
        soft: tuple[AddedWound, ...] = ()
        if success:
            effect = "the attack is nullified"
        elif reaction.kind is ReactionKind.EVASION and reaction.failure_wound_reduction:
            blow = self.blow_wounds(tech, critical=faces[0] == faces[1])
            cut = min(reaction.failure_wound_reduction, max(0, blow - reaction.failure_minimum_wounds))
            soft = (AddedWound(-cut, f"{m.name} failed, still softens the blow"),) if cut else ()
            effect = f"the blow is softened by {cut} Wound(s)" if cut else "the blow lands in full"
        else:
            effect = "the attack goes through"
        self.log(
            "reaction",
            "SG.RES.4",
            automatic=False,  # the unit chose to react (React); the outcome follows from the dice
            unit=target.id,
            maneuver=maneuver,
            attacker=attacker.id,
            rolled=True,
            faces=list(rfaces),
            modifier=modifier,
            total=check.total,
            against=total,
            success=success,
            effect=effect,
            steps=steps_to_json((*steps, *check.steps)),
        )
        if success and reaction.kind is ReactionKind.BLOCK and reaction.attacker_energy_loss:
            lost = min(attacker.energy, reaction.attacker_energy_loss)
            attacker = replace(attacker, energy=attacker.energy - lost)
            self.put(attacker)
            self.log(
                "energy_lost",
                "SG.RES.4",
                unit=attacker.id,
                before=attacker.energy + lost,
                after=attacker.energy,
                cause=m.name,
            )
        return success, soft, attacker

    # -- other maneuvers -------------------------------------------------------------------------------
    def use_reserve(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        unit = self.u(b.unit)
        if unit.defenseless:
            return self.forfeit(b, use, f"{unit.name} became Defenseless: no reservation", "SG.DFL.2")
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
                return self.forfeit(b, use, f"{unit.name} became Defenseless: no stance", "SG.DFL.2")
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
        c = resolve_check(faces, modifier, check.against, sides=self.rules.resolution.check.sides)
        return c.success, {
            "faces": list(faces),
            "modifier": modifier,
            "total": c.total,
            "target": check.against,
            "success": c.success,
            "steps": steps_to_json((*steps, *c.steps)),
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
            self.defenseless(unit.id, f"a failed {m.name}", "SG.DFL.1")
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
            opp = resolve_opposed(f1, mine, f2, theirs, tie=tie)
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
            modifier = r.attribute(roller, cc.attribute)
            faces = self.faces()
            c = resolve_check(faces, modifier, cc.target, sides=r.resolution.check.sides)
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
            self.defenseless(uid, "a failed retreat", "SG.DFL.1")

    def use_reload(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        unit = self.u(b.unit)
        self.put(replace(unit, unloaded=False))
        self.log("reload", "SG.LUL.2", automatic=False, unit=unit.id, maneuver=m.id)
        return False

    def use_kata(self, b: BreathInProgress, use: Use, m: Maneuver) -> bool:
        self.log("kata", "SG.BRT.1", automatic=False, unit=b.unit, maneuver=m.id, effect=m.description)
        return False

    # -- the lull --------------------------------------------------------------------------------------
    def begin_lull(self) -> None:
        """SG.LUL.1 automatic handling: Defenseless removed, reservations expire (SG.RES.3), counters of
        maneuvers limited "N rounds" reset, timed Defense −N count down, teppo reload (SG.LUL.2); then
        upkeep maneuvers and the environment."""
        rnd = self.state.round
        self.set(phase=Phase.LULL, count=0, decision=None)
        self.log("lull", "SG.RND.2", round=rnd)
        for unit in self.state.units:
            if not unit.on_battlefield:
                continue
            new = unit
            if unit.defenseless:
                self.log("defenseless_ends", "SG.LUL.1", unit=unit.id, when="the lull phase")
                new = replace(new, defenseless=False)
            if unit.reservations:
                self.log(
                    "reservations_expire",
                    "SG.RES.3",
                    unit=unit.id,
                    maneuvers=[x.maneuver for x in unit.reservations],
                )
                new = replace(new, reservations=())
            reset = self.reset_limits(unit)
            if reset != unit.limited:
                self.log(
                    "limits_reset",
                    "SG.LUL.1",
                    unit=unit.id,
                    maneuvers=sorted({t.key.split("#")[0] for t in unit.limited if t not in reset}),
                )
                new = replace(new, limited=reset)
            if unit.debuffs:
                p, steps = end_round_debuffs(replace(self.profile(unit), debuffs=unit.debuffs))
                if p.debuffs != unit.debuffs:
                    self.log("debuffs_count_down", "SG.DBF.3", unit=unit.id, ended=[s.reason for s in steps])
                new = replace(new, debuffs=p.debuffs)
            if unit.ward:
                self.log("ward_ends", "SG.RET.5", unit=unit.id)
                new = replace(new, ward=False)
            if unit.unloaded:
                self.log("reload", "SG.LUL.2", unit=unit.id, maneuver="reload", when="the lull")
                new = replace(new, unloaded=False)
            if unit.initiative:
                new = replace(new, initiative=0)
            self.put(new)
        if self.rules.end.checked == "in-the-lull" and self.check_end():
            return
        queue = tuple(u.id for u in self.state.units if u.on_battlefield and not u.routed)
        self.set(queue=queue, environment_done=False)

    def reset_limits(self, unit: Unit) -> tuple[Any, ...]:
        kept = []
        for t in unit.limited:
            mid, _, idx = t.key.partition("#")
            limits = self.rules.maneuver(mid).limits
            limit = limits[int(idx)] if idx.isdigit() and int(idx) < len(limits) else None
            # SG.LUL.1: a limit "every N rounds" first used in round r is open again from round r + N
            if limit is None or limit.per.value != "round":
                kept.append(t)
                continue
            if self.state.round + 1 - t.since >= limit.every:
                continue
            kept.append(t)
        return tuple(kept)

    def end_lull(self) -> None:
        rnd = self.state.round
        if rnd >= self.state.max_rounds:
            self.finish(
                None,
                f"the round limit ({self.state.max_rounds}) is reached: the GM calls the fight off",
                automatic=True,
            )
            return
        self.start_round()

    # -- the end ---------------------------------------------------------------------------------------
    def out(self, unit: Unit) -> bool:
        states = self.rules.end.out_states
        return (
            (unit.incapacitated and "incapacitated" in states)
            or (unit.retreated and "retreated" in states)
            or (unit.routed and "routed" in states)
        )

    def check_end(self) -> bool:
        """SG.END.1 house default: the combat ends when one side has no unit left able to act (with more
        than two sides, when at most one side has)."""
        standing = [
            s.id
            for s in self.state.sides
            if any(u.side == s.id and not self.out(u) for u in self.state.units)
        ]
        if len(standing) == len(self.state.sides) or (len(self.state.sides) > 2 and len(standing) > 1):
            return False
        winner = standing[0] if len(standing) == 1 else None
        out = [s.id for s in self.state.sides if s.id not in standing]
        names = ", ".join(s.name for s in self.state.sides if s.id in out)
        self.finish(winner, f"{names}: no unit left able to act", automatic=True)
        return True

    def finish(self, winner: str | None, reason: str, *, automatic: bool) -> None:
        """The combat is over: death checks for the Incapacitated (SG.INP.3) and the honor follow-up of
        every retreater (SG.RET.4), both automatic."""
        rnd = self.state.round
        self.set(phase=Phase.OVER, decision=None, breath=None, queue=(), result=Result(winner, reason, rnd))
        self.log("combat_over", "SG.END.1", automatic=automatic, winner=winner, reason=reason, round=rnd)
        deaths = []
        for unit in self.state.units:
            if not unit.incapacitated:
                continue
            dc = death_check(
                self.profile(unit), self.rng, rules=self.rules.resolution, grades=self.rules.grades
            )
            deaths.append(DeathRecord(unit.id, dc.check.faces, dc.check.total, dc.survives))
            self.log(
                "death_check",
                "SG.INP.3",
                unit=unit.id,
                faces=list(dc.check.faces),
                modifier=dc.check.modifier,
                total=dc.check.total,
                target=dc.check.target,
                survives=dc.survives,
                outcome=dc.outcome,
                steps=steps_to_json(dc.steps),
            )
        flags = []
        for unit in self.state.units:
            if not unit.retreated:
                continue
            honor = self.rules.creature(unit).honor
            row = self.rules.honor.classes[honor]
            flags.append(HonorFlag(unit.id, honor.value, row.follow_up, row.penalty))
            data: dict[str, Any] = {
                "unit": unit.id,
                "honor": honor.value,
                "follow_up": row.follow_up,
                "penalty": row.penalty,
            }
            if row.follow_up == "check":
                data["check"] = {"attribute": row.attribute, "target": row.target}
            if honor is HonorClass.CONDITIONAL_HONOR:
                data["when"] = "only if its condition applied (GM)"
            self.log("honor_follow_up", "SG.RET.4", **data)
        self.set(deaths=tuple(deaths), honor=tuple(flags))


# ------------------------------------------------------------------------------------------ tables


def _infiltrating(b: Battle, attacker: Unit, target: Unit) -> bool:
    return attacker.infiltrating


def _unseen_from_the_flank(b: Battle, attacker: Unit, target: Unit) -> bool:
    return (
        attacker.zone is not None
        and b.rules.unlocks_ambush(b.state.zone(attacker.zone))
        and target.breaths == 0
        and (attacker.attacks == 0 or not b.rules.ambush.first_attack_only)
    )


#: The ambush conditions the catalog may list (SG.AMB.1), by id; BattleRules refuses any other id.
_AMBUSH_CONDITIONS: dict[str, Callable[[Battle, Unit, Unit], bool]] = {
    "infiltrating": _infiltrating,
    "unseen-from-the-flank": _unseen_from_the_flank,
}
assert set(_AMBUSH_CONDITIONS) == AMBUSH_CONDITIONS


def _use_kind(m: Maneuver) -> str:
    if m.attacks:
        return "attack"
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


_USE_HANDLERS: dict[str, Callable[[Battle, BreathInProgress, Use, Maneuver], bool]] = {
    "attack": Battle.use_attack,
    "reserve": Battle.use_reserve,
    "stance": Battle.use_stance,
    "move": Battle.use_move,
    "retreat": Battle.use_retreat,
    "reload": Battle.use_reload,
    "kata": Battle.use_kata,
}


# ------------------------------------------------------------------------------------------ actions


def _on_begin(b: Battle, action: Any) -> None:
    if b.state.phase is not Phase.START:
        raise IllegalActionError("the battle has already begun", rule="SG.RND.2")
    b.log(
        "battle_begins",
        "SG.RND.2",
        automatic=False,
        name=b.state.name,
        sides=[s.id for s in b.state.sides],
        units=[u.id for u in b.state.units],
    )
    b.start_round()


def _on_breath(b: Battle, action: Any) -> None:
    b.begin_breath(action)


def _on_hold(b: Battle, action: Any) -> None:
    unit = breath_turn(b.state, action.unit)
    cost = b.rules.pass_hold.hold_cost
    if unit.energy < cost:
        raise IllegalActionError(
            f"holding costs {cost} Energy; {unit.name} has {unit.energy}", rule="SG.CNT.6"
        )
    b.set(decision=None)
    b.hold(unit, automatic=False)


def _on_pass(b: Battle, action: Any) -> None:
    unit = breath_turn(b.state, action.unit)
    b.set(decision=None)
    b.put(replace(unit, passed=True))
    b.log(
        "pass",
        "SG.CNT.6",
        automatic=False,
        unit=unit.id,
        energy=unit.energy,
        keeps_for_reactions=b.rules.pass_hold.pass_keeps_energy_for_reactions,
    )


def _reaction_turn(b: Battle, uid: str) -> Decision:
    d = b.state.decision
    if d is None or d.kind is not DecisionKind.REACTION:
        raise IllegalActionError("no attack is waiting for an answer", rule="SG.RES.2")
    if d.unit != uid:
        raise IllegalActionError(f"{d.unit} answers this attack, not {uid}", rule="SG.RES.2")
    return d


def _on_react(b: Battle, action: Any) -> None:
    d = _reaction_turn(b, action.unit)
    unit = b.u(action.unit)
    if not unit.reservations:
        raise IllegalActionError(f"{unit.name} has nothing reserved", rule="SG.RES.1")
    if unit.reservation(action.maneuver) is None:
        held = ", ".join(r.maneuver for r in unit.reservations)
        raise IllegalActionError(
            f"{unit.name} did not reserve {action.maneuver!r} (reserved: {held})", rule="SG.RES.1"
        )
    reaction = b.rules.maneuver(action.maneuver).reaction
    barred = reaction_defenseless(b.rules, b.state, unit, ambushed=d.ambushed)
    if barred and reaction is not None and reaction.kind is ReactionKind.EVASION:
        raise IllegalActionError(f"{unit.name} is Defenseless: no evasion", rule="SG.DFL.2")
    if action.maneuver not in usable_reservations(b.rules, b.state, unit, ambushed=d.ambushed):
        raise IllegalActionError(f"{unit.name} has no Energy left to react with", rule="SG.RD.6")
    _resume(b, action.maneuver)


def _resume(b: Battle, reaction: str | None) -> None:
    breath = b.state.breath
    assert breath is not None
    use = breath.uses[breath.index]
    m = b.rules.maneuver(use.maneuver)
    b.set(decision=None)
    assert use.target is not None
    if reaction is not None and b.rules.dfl_timing.reaction_ends_defenseless:
        b.put(b.action_starts(b.u(use.target), when="its reaction starts"))
    ambush = b.ambush_of(b.u(breath.unit), b.u(use.target))
    b.resolve(breath, use, m, ambush, reaction)
    now = b.state.breath
    assert now is not None
    b.set(breath=replace(now, index=now.index + 1))


def _on_decline(b: Battle, action: Any) -> None:
    d = b.state.decision
    if d is not None and d.unit == action.unit:
        if d.kind is DecisionKind.REACTION:
            b.log("declined", "SG.RES.2", automatic=False, unit=action.unit, attacker=d.attacker)
            _resume(b, None)
            return
        if d.kind is DecisionKind.UPKEEP:
            b.log("upkeep_done", "SG.LUL.2", automatic=False, unit=action.unit)
            b.set(decision=None, queue=b.state.queue[1:])
            return
        if d.kind is DecisionKind.ENVIRONMENT:
            b.log("environment_skipped", "SG.LUL.3", automatic=False)
            b.set(decision=None, environment_done=True)
            return
    raise IllegalActionError(f"{action.unit} has nothing to decline now", rule="SG.RES.2")


def _on_upkeep(b: Battle, action: Any) -> None:
    d = b.state.decision
    if b.state.phase is not Phase.LULL or d is None or d.kind is not DecisionKind.UPKEEP:
        raise IllegalActionError("upkeep maneuvers are performed in the lull phase", rule="SG.LUL.2")
    if d.unit != action.unit:
        raise IllegalActionError(f"{d.unit} performs its upkeep now, not {action.unit}", rule="SG.LUL.2")
    unit = b.u(action.unit)
    if action not in upkeep_options(b.rules, b.state, unit):
        raise IllegalActionError(
            f"{unit.name} cannot perform {action.maneuver!r} on that now", rule="SG.LUL.2"
        )
    m = b.rules.maneuver(action.maneuver)
    up = m.upkeep
    assert up is not None
    b.set(decision=None)
    b.put(replace(unit, used=bump(unit.used, f"lull:{m.id}")))
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


def _on_environment(b: Battle, action: Any) -> None:
    d = b.state.decision
    if d is None or d.kind is not DecisionKind.ENVIRONMENT:
        raise IllegalActionError("the GM rolls for yoma intrusion in the lull phase", rule="SG.LUL.3")
    if action.zone is not None and not b.state.has_zone(action.zone):
        raise IllegalActionError(f"no zone {action.zone!r}", rule="SG.LUL.3")
    table = b.rules.yoma
    roll = b.rng.die(table.die)
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
        b.set(sides=(*b.state.sides, Side(INTRUDERS, "Yoma intruders", "none")))
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
                name=f"{creature.name} {n}",
                zone=zone,
                wounds=top,
                wounds_max=top,
                cohesion=b.rules.cohesion_max(creature),
                cohesion_max=b.rules.cohesion_max(creature),
            )
            b.set(units=(*b.state.units, unit))
            b.log("arrives", "SG.LUL.3", unit=uid, name=unit.name, creature=c.id, zone=zone, side=INTRUDERS)


def _gm_may_act(b: Battle) -> None:
    d = b.state.decision
    if d is not None and d.kind is DecisionKind.REACTION:
        raise IllegalActionError("the GM waits until the attack at hand is resolved", rule="SG.RES.2")


def _on_set_wounds(b: Battle, action: Any) -> None:
    _gm_may_act(b)
    if not b.state.has_unit(action.unit):
        raise IllegalActionError(f"no unit {action.unit!r}", rule="SG.WND.4")
    unit = b.u(action.unit)
    if not unit.on_battlefield:
        raise IllegalActionError(f"{unit.name} is not on the battlefield", rule="SG.INP.1")
    if not 0 <= action.wounds <= unit.wounds_max:
        raise IllegalActionError(
            f"Wounds go from 0 to {unit.wounds_max}, not {action.wounds}", rule="SG.WND.4"
        )
    b.log("gm_set_wounds", "SG.WND.4", automatic=False, unit=unit.id, before=unit.wounds, after=action.wounds)
    fell = action.wounds == 0
    if fell:
        b.log("incapacitated", "SG.WND.4", unit=unit.id)
    b.wounded(unit.id, action.wounds, fell)
    if b.state.phase is not Phase.START:
        b.set(decision=None)


def _on_end_combat(b: Battle, action: Any) -> None:
    _gm_may_act(b)
    if not b.rules.end.gm_may_end:
        raise IllegalActionError("the house rules leave the end of combat to its conditions", rule="SG.END.1")
    if action.winner is not None and not any(s.id == action.winner for s in b.state.sides):
        raise IllegalActionError(f"no side {action.winner!r}", rule="SG.END.1")
    b.finish(action.winner, action.reason, automatic=False)


_HANDLERS: dict[type, Callable[[Battle, Any], None]] = {
    Begin: _on_begin,
    Breath: _on_breath,
    Hold: _on_hold,
    Pass: _on_pass,
    React: _on_react,
    Decline: _on_decline,
    Upkeep: _on_upkeep,
    Environment: _on_environment,
    GmSetWounds: _on_set_wounds,
    GmEndCombat: _on_end_combat,
}
