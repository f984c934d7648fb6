"""Attacks inside a breath: ambush (SG.AMB.*), reactions (SG.RES.*), the attack resolution of seed 000,
and what a hit does on the battlefield (Defense −N, the enemy behind, armor broken).

An attack goes through :func:`~kassen.sengoku.attack.resolve_attack` (the same function
:mod:`kassen.sengoku.odds` enumerates), with the state's stances, Defenseless and debuffs in the
target's Defense and the zone's check rows in the modifier; a target holding a usable reservation
decides first (a reaction decision).
"""

from __future__ import annotations

__all__ = ["AttackPart"]

from collections.abc import Callable
from dataclasses import dataclass, replace

from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.sengoku.aim import aim_focus
from kassen.sengoku.attack import Attack, resolve_attack
from kassen.sengoku.battle.flow.base import TurnBase
from kassen.sengoku.battle.plan import check_modifier, in_range, situational, usable_reservations
from kassen.sengoku.battle.rules import AMBUSH_CONDITIONS
from kassen.sengoku.battle.state import BreathInProgress, Decision, DecisionKind, Unit, Use
from kassen.sengoku.breakage import apply_break
from kassen.sengoku.check import CheckKind, Faces, classify, resolve_check
from kassen.sengoku.defense import compute_defense, trigger_debuff
from kassen.sengoku.entries import Maneuver, ReactionKind
from kassen.sengoku.house import ZoneApplies
from kassen.sengoku.resolution import EffectKind
from kassen.sengoku.technique import Technique, attack_modifier
from kassen.sengoku.wounds import AddedWound, apply_wounds, critical_wounds, hit_wounds


@dataclass(frozen=True, slots=True)
class _Ambush:
    """Whether an attack is an ambush (SG.AMB.1-3): none, basic, the trait's automatic critical, or a
    condition met against an immune target."""

    kind: str
    condition: str = ""
    trait: str = ""


_NO_AMBUSH = _Ambush("none")


class AttackPart(TurnBase):
    """Attacks and reactions (see the module notes)."""

    __slots__ = ()

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
            table_dice=self.dice,
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


# ------------------------------------------------------------------------------------------ tables


def _infiltrating(b: AttackPart, attacker: Unit, target: Unit) -> bool:
    return attacker.infiltrating


def _unseen_from_the_flank(b: AttackPart, attacker: Unit, target: Unit) -> bool:
    return (
        attacker.zone is not None
        and b.rules.unlocks_ambush(b.state.zone(attacker.zone))
        and target.breaths == 0
        and (attacker.attacks == 0 or not b.rules.ambush.first_attack_only)
    )


#: The ambush conditions the catalog may list (SG.AMB.1), by id; BattleRules refuses any other id.
_AMBUSH_CONDITIONS: dict[str, Callable[[AttackPart, Unit, Unit], bool]] = {
    "infiltrating": _infiltrating,
    "unseen-from-the-flank": _unseen_from_the_flank,
}
assert set(_AMBUSH_CONDITIONS) == AMBUSH_CONDITIONS
