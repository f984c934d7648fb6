"""Attacks inside a breath: ambush (SG.AMB.*), reactions (SG.RES.*), Fate (SG.FAT.*), the attack
resolution of seed 000, and what a hit does on the battlefield (Defense −N, the enemy behind, armor
broken, Bleed, the d100 rows).

An attack goes through :func:`~kassen.sengoku.attack.resolve_attack` (the same function
:mod:`kassen.sengoku.odds` enumerates), with the state's stances, Defenseless and debuffs in the
target's Defense and the zone's check rows in the modifier. It may wait on three decisions, kept in
``state.attack`` (:class:`~kassen.sengoku.battle.state.PendingAttack`) meanwhile: the target's reaction
when it holds a usable reservation (before the roll, SG.RES.2), the attacker's Fate Intervention on the
roll when a shift makes a Critical Hit (SG.FAT.1, the catalog's ``fate.intervention_offered``), and the
target's Last Bastion when the hit check would take its last Wounds (SG.FAT.2, before the reaction is
rolled: it acts on the hit check). After a fumble the GM decides its extras (SG.FUM.2). Whether an
attack is an ambush and what it reads from the state (its modifier, the target's Defense) are worked
out by :class:`~kassen.sengoku.battle.flow.context.ContextPart`, which :class:`AttackPart` builds on.
"""

from __future__ import annotations

__all__ = ["AttackPart"]

from typing import Any

from kassen.core.errors import IllegalActionError
from kassen.core.events import Event
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.attack import Attack, AttackOutcome, stated_break_on
from kassen.sengoku.battle.equipment import carrier
from kassen.sengoku.battle.flow.context import ContextPart, _Ambush, _Context
from kassen.sengoku.battle.plan import check_modifier, in_range, usable_reservations
from kassen.sengoku.battle.state import Decision, DecisionKind, PendingAttack, Unit, Use
from kassen.sengoku.check import CheckOutcome, Faces
from kassen.sengoku.entries import Maneuver, ReactionKind
from kassen.sengoku.resolution import EffectKind, TableEffectKind, TableWho
from kassen.sengoku.technique import Technique
from kassen.sengoku.wounds import AddedWound


def _shifted(faces: tuple[int, ...], die: int | None) -> Faces:
    a, b = faces[0], faces[1]
    if die is None:
        return (a, b)
    return (b, b) if die == 0 else (a, a)


class AttackPart(ContextPart):
    """Attacks and reactions (see the module notes)."""

    __slots__ = ()

    # -- the stages of an attack ----------------------------------------------------------------------
    def use_attack(self, b: object, use: Use, m: Maneuver) -> bool:
        """Start an attack of the breath: reach, the weapon, ambush, then the target's reaction decision
        or the roll. True while it waits for a decision."""
        breath = self.state.breath
        assert breath is not None
        attacker = self.u(breath.unit)
        assert use.target is not None
        target = self.u(use.target)
        if not target.on_battlefield or target.zone is None or attacker.zone is None:
            return self.forfeit(
                breath, use, S_("{name} is no longer on the battlefield", name=target.name), "SG.INP.1"
            )
        try:
            weapon = carrier(self.rules, attacker, m, use.weapon)
        except IllegalActionError as exc:
            return self.forfeit(breath, use, exc.message, exc.rule)
        wid = weapon.id if weapon is not None else None
        if not in_range(self.state, self.rules.range(attacker, m, wid), attacker.zone, target.zone):
            return self.forfeit(breath, use, S_("{name} is out of reach", name=target.name), "SG.ZON.2")
        ambush = self.ambush_of(attacker, target)
        if ambush.kind == "automatic":
            self.automatic_critical(attacker, target, m, ambush, wid)
            return False
        status = False
        if ambush.kind == "basic":
            amb = self.rules.ambush
            status = amb.target_defenseless and self.rules.ambush_readings.basic_ambush_releases_stance
            self.log(
                "ambush",
                "SG.AMB.1",
                attacker=attacker.id,
                target=target.id,
                condition=ambush.condition,
                status=status,
            )
            self.put(replace(self.u(target.id), ambushed=True))
            if status:
                self.defenseless(target.id, S_("an ambush"), "SG.AMB.1")
        elif ambush.kind == "immune":
            self.log(
                "ambush_immune",
                "SG.AMB.3",
                attacker=attacker.id,
                target=target.id,
                condition=ambush.condition,
            )
        pending = PendingAttack(attacker.id, target.id, m.id, wid or "", ambush.kind, ambush.condition)
        ambushed = ambush.kind == "basic" and self.rules.ambush.target_defenseless
        target = self.u(target.id)
        if usable_reservations(self.rules, self.state, target, ambushed=ambushed):
            offer = Decision(DecisionKind.REACTION, target.id, attacker.id, m.id, ambushed)
            self.set(attack=pending, decision=offer)
            self.log("reaction_offered", "SG.RES.2", unit=target.id, attacker=attacker.id, maneuver=m.id)
            return True
        return self.roll(None, pending)

    def roll(self, reaction: str | None, pending: PendingAttack | None = None) -> bool:
        """The attack check's two d10 (of ``pending``, the attack just declared, else the one waiting in
        the state); then the attacker's Fate Intervention when it may make a Critical Hit (SG.FAT.1).
        True while it waits for a decision."""
        p = pending if pending is not None else self.state.attack
        assert p is not None
        try:
            faces = tuple(self.faces())
        except BaseException:
            # the dice are not rolled here (typed at the table, a preview): the attack waits declared
            if pending is not None:
                self.set(attack=pending)
            raise
        self.set(attack=replace(p, reaction=reaction or "", faces=faces))
        ctx = self.context()
        p = self.state.attack
        assert p is not None
        dies = self.fate_shifts(ctx, _shifted(p.faces, None))
        if dies:
            a = ctx.attacker
            outcomes = [self.outcome(ctx, _shifted(p.faces, die)) for die in (None, *dies)]
            self.set(
                decision=Decision(DecisionKind.FATE, a.id, a.id, ctx.maneuver.id),
                attack=replace(p, offered=tuple(dies), outcomes=tuple(outcomes)),
            )
            self.log("fate_offered", "SG.FAT.1", dies=dies, **self.roll_data(ctx, _shifted(p.faces, None)))
            return True
        return self.after_fate()

    def roll_data(self, ctx: _Context, faces: Faces) -> dict[str, Any]:
        check, outcome = self.rules.attack_check(faces, ctx.modifier, ctx.defense.defense)
        return {
            "unit": ctx.attacker.id,
            "target": ctx.target.id,
            "technique": ctx.tech.name,
            "faces": list(faces),
            "modifier": ctx.modifier,
            "total": check.total,
            "defense": ctx.defense.defense,
            "outcome": outcome.value,
        }

    def outcome(self, ctx: _Context, faces: Faces) -> str:
        return self.rules.attack_check(faces, ctx.modifier, ctx.defense.defense)[1].value

    def fate_shifts(self, ctx: _Context, faces: Faces) -> list[int]:
        """The dice (0, 1) the attacker may move with Fate Intervention that the catalog offers: legal
        shifts (SG.FAT.1) that make a Critical Hit, or any double (``fate.intervention_offered``)."""
        f = self.rules.resolution.fate
        if ctx.attacker.fate_points < f.intervention_cost or faces[0] == faces[1]:
            return []
        out = []
        for die in (0, 1):
            if abs(faces[0] - faces[1]) > f.max_shift:
                continue
            _, outcome = self.rules.attack_check(_shifted(faces, die), ctx.modifier, ctx.defense.defense)
            if f.intervention_offered == "when-it-makes-a-critical" and outcome is not CheckOutcome.CRITICAL:
                continue
            out.append(die)
        return out

    def fate_intervention(self, die: int | None) -> bool:
        """The attacker's answer to the Fate offer (``None``: declined); then the Last Bastion offer."""
        p = self.state.attack
        assert p is not None
        self.set(decision=None, attack=replace(p, fate_die=die))
        return self.after_fate()

    def after_fate(self) -> bool:
        """The target's Last Bastion when the hit check, as rolled (and shifted), would take its last
        Wounds (SG.FAT.2); else the attack lands. True while it waits for a decision."""
        p = self.state.attack
        assert p is not None
        ctx = self.context()
        faces = _shifted(p.faces, p.fate_die)
        r = self.rules.resolution
        _, outcome = self.rules.attack_check(faces, ctx.modifier, ctx.defense.defense)
        t = ctx.target
        if outcome.succeeded and t.fate_points >= r.fate.last_bastion_cost and t.wounds > 0:
            due = self.blow_wounds(ctx.tech, critical=outcome is CheckOutcome.CRITICAL)
            if t.wounds - due <= 0:
                self.set(decision=Decision(DecisionKind.LAST_BASTION, t.id, ctx.attacker.id, ctx.maneuver.id))
                data = self.roll_data(ctx, faces)
                data["unit"], data["attacker"] = t.id, ctx.attacker.id
                self.log("last_bastion_offered", "SG.FAT.2", wounds=due, wounds_now=t.wounds, **data)
                return True
        self.land()
        return False

    def last_bastion(self, spend: bool) -> None:
        p = self.state.attack
        assert p is not None
        self.set(decision=None, attack=replace(p, last_bastion=spend))
        self.land()

    def attack_done(self) -> None:
        """The attack that waited for a decision is over: the breath goes on with its next maneuver."""
        now = self.state.breath
        assert now is not None
        self.set(breath=replace(now, index=now.index + 1))

    def blow_wounds(self, tech: Technique, critical: bool) -> int:
        """Wounds of a blow before any reaction: hit or Critical Hit, with added effects (SG.WND.6)."""
        return self.rules.blow_wounds(tech, critical)

    def automatic_critical(
        self, attacker: Unit, target: Unit, m: Maneuver, ambush: _Ambush, weapon: str | None
    ) -> None:
        """The shinobi's [Ambush]: the first attack while infiltrating is a Critical Hit with no check
        (SG.AMB.2); it replaces the basic ambush and inflicts no Defenseless. No check, so nothing for a
        reaction, a Fate Intervention or a Last Bastion to answer."""
        tech = self.rules.technique(attacker, m, weapon)
        wounds = self.blow_wounds(tech, critical=True)
        change = self.rules.wound(self.profile(target), wounds, "SG.AMB.2")
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
            **self.explained(steps=change.steps),
        )
        self.events.extend(change.events)
        self.put(replace(attacker, attacks=attacker.attacks + 1, infiltrating=False))
        self.put(replace(self.u(target.id), ambushed=True))
        self.wounded(target.id, change.after, change.incapacitated)
        self.effects(target.id, target.zone, tech, critical=True)
        pa = self.profile(attacker, weapon)
        broken, events, _ = stated_break_on(
            pa,
            change.profile,
            tech,
            critical=True,
            fell=change.incapacitated,
            rules=self.rules.resolution,
            defense_rules=self.rules.defense,
        )
        self.events.extend(events)
        if broken.armor_damage != change.profile.armor_damage:
            self.put(replace(self.u(target.id), armor_damage=broken.armor_damage))
        bleeds = any(e.kind is EffectKind.BLEED for e in tech.on_hit + tech.on_critical)
        if bleeds and not change.incapacitated:
            # as the checked blow says it (the resolution's ``bleed`` event, SG.AIM.5)
            bleed = self.rules.resolution.death_check.bleed
            self.log("bleed", "SG.AIM.5", unit=target.id, effect=bleed.effect)
            self.bleeding(target.id)

    def bleeding(self, uid: str) -> None:
        unit = self.u(uid)
        if unit.on_battlefield and not unit.bleeding:
            self.put(replace(unit, bleeding=True))

    def effects(self, target: str, zone: str | None, tech: Technique, *, critical: bool) -> None:
        """A hit's Defense −N sources on the target (SG.DBF.1) and Wounds to the enemy behind (SG.CRT.2)."""
        effects = tech.on_hit + (tech.on_critical if critical else ())
        t = self.u(target)
        for e in effects:
            if e.kind is EffectKind.DEBUFF and t.on_battlefield:
                entry = self.rules.catalog.debuff(e.debuff)
                p, _ = self.rules.debuffed(self.profile(t), entry.debuff())
                t = replace(t, debuffs=p.debuffs)
                self.put(t)
                total = sum(d.value for d in p.debuffs)
                self.log(
                    "debuff",
                    "SG.DBF.1",
                    unit=target,
                    debuff=entry.id,
                    name=entry.name,
                    value=entry.value,
                    total=total,
                )
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
        change = self.rules.wound(self.profile(hit), wounds, rule)
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

    def land(self) -> None:
        """The attack lands: the reaction's check (SG.RES.4), then the shared resolution (seed 000) with
        the Fate choices made; then its effects on the battlefield, and the GM's fumble decision."""
        r = self.rules
        p = self.state.attack
        assert p is not None
        ctx = self.context()
        attacker, target, m, tech = ctx.attacker, ctx.target, ctx.maneuver, ctx.tech
        faces = _shifted(p.faces, p.fate_die)
        rolled = _shifted(p.faces, None)
        check, checked = r.attack_check(faces, ctx.modifier, ctx.defense.defense)
        hit = checked.succeeded
        if p.last_bastion:
            hit = False
        nullified = False
        soft: tuple[AddedWound, ...] = ()
        answer: list[Event] = []
        if p.reaction:
            mark = len(self.events)
            nullified, soft, attacker = self.react(
                attacker, target, p.reaction, tech, check.total, hit, faces
            )
            answer = self.events[mark:]
            del self.events[mark:]
        base = {
            "attacker": attacker.id,
            "target": target.id,
            "maneuver": m.id,
            "technique": tech.name,
            "aim": ctx.use.aim,
            "modifier": ctx.modifier,
            "defense": ctx.defense.defense,
            **self.explained(
                aim_steps=ctx.aim_steps, modifier_steps=ctx.steps, defense_steps=ctx.defense.steps
            ),
            "faces": list(faces),
            "total": check.total,
            "ambush": p.condition if p.ambush == "basic" else "",
            "reaction": p.reaction,
            "fate_die": p.fate_die,
            "last_bastion": p.last_bastion,
        }
        if ctx.weapon is not None and len(r.carriers(attacker, m)) > 1:
            base["weapon"] = ctx.weapon.id
        weapon = ctx.weapon
        attacker = replace(
            attacker,
            attacks=attacker.attacks + 1,
            infiltrating=False,
            unloaded=attacker.unloaded or (weapon is not None and weapon.reload),
        )
        self.put_set(attacker, attack=None)
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
        pa = ctx.pa
        res = r.resolve_attack(
            pa if pa.fate_points == attacker.fate_points else replace(pa, fate_points=attacker.fate_points),
            ctx.pt,
            Attack(
                tech,
                modifier=ctx.modifier,
                tags=ctx.tags,
                added_wounds=soft,
                fate_die=p.fate_die,
                last_bastion=p.last_bastion,
            ),
            ctx.defense,
            rolled,
            self.dice,
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
            **self.explained(steps=res.steps),
        )
        self.events.extend(answer)
        # the battle says each Defense −N with its value and total (``effects``), not the resolution
        self.events.extend(e for e in res.events if e.kind != "debuff")
        # Fate Points spent and armor damaged by the resolution (most attacks change neither: no copy)
        a = self.u(attacker.id)
        if a.fate_points != res.attacker.fate_points:
            self.put(replace(a, fate_points=res.attacker.fate_points))
        t = self.u(target.id)
        if t.fate_points != res.target.fate_points or t.armor_damage != res.target.armor_damage:
            self.put(replace(t, fate_points=res.target.fate_points, armor_damage=res.target.armor_damage))
        if res.attacker.defenseless and not ctx.pa.defenseless:
            self.defenseless(attacker.id, S_("a fumble"), "SG.FUM.1", logged=True)
        row = res.table.row if res.table is not None else None
        for e in row.effects if row is not None else ():
            if e.kind is TableEffectKind.DEFENSELESS and e.who in (TableWho.ATTACKER, TableWho.TARGET):
                uid = attacker.id if e.who is TableWho.ATTACKER else target.id
                if (res.attacker if e.who is TableWho.ATTACKER else res.target).wounds == 0:
                    continue  # felled by this attack: the row said it does nothing (SG.INP.1)
                self.defenseless(
                    uid, res.table.name if res.table else "", res.table.rule if res.table else "", logged=True
                )
        own = res.attacker.wounds
        if own is not None and own < attacker.wounds:
            self.wounded(attacker.id, own, own == 0)
        if res.wounds_after != target.wounds or res.incapacitated:
            self.wounded(target.id, res.wounds_after, res.incapacitated)
        if res.hit:
            self.effects(target.id, target.zone, tech, critical=res.outcome is AttackOutcome.CRITICAL)
            if res.bleeds:
                self.bleeding(target.id)
        if res.table is not None and res.pending:
            self.table_effects(
                res.pending,
                attacker=attacker.id,
                target=target.id,
                target_zone=target.zone,
                weapon=weapon.id if weapon is not None else "",
                hit_wounds=res.hit_wounds,
                rule=res.table.rule,
            )
        if res.outcome is AttackOutcome.FUMBLE:
            self.offer_fumble(attacker.id, weapon.id if weapon is not None else "")

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
                effect=S_("the attack missed: the reservation is spent on it"),
            )
            return False, (), attacker
        modifier, steps = check_modifier(r, target, m)
        rfaces = self.faces()
        check = r.check(rfaces, modifier, total)
        success = check.total >= total if r.reactions.tie_goes_to == "defender" else check.total > total
        soft: tuple[AddedWound, ...] = ()
        if success:
            effect = S_("the attack is nullified")
        elif reaction.kind is ReactionKind.EVASION and reaction.failure_wound_reduction:
            blow = self.blow_wounds(tech, critical=faces[0] == faces[1])
            cut = min(reaction.failure_wound_reduction, max(0, blow - reaction.failure_minimum_wounds))
            soft = (
                (AddedWound(-cut, S_("{name} failed, still softens the blow", name=m.name)),) if cut else ()
            )
            effect = (
                S_("the blow is softened by {cut} Wound(s)", cut=cut) if cut else S_("the blow lands in full")
            )
        else:
            effect = S_("the attack goes through")
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
            **self.explained(steps=(*steps, *check.steps)),
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
