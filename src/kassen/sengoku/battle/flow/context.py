"""What an attack under way reads from the state (the base :class:`~kassen.sengoku.battle.flow.attack.
AttackPart` builds on): whether it is an ambush (SG.AMB.1-3: the catalog's conditions by id, a trait's
own [Ambush] with its automatic Critical Hit, immune traits and the once-per-target reading), and its
context — the technique and its tags with Aim Focus, both profiles, the modifier with the situation, the
zone's check rows and the battlefield changes, and the target's Defense with its stances, Defenseless
and debuffs (SG.DEF.5) — worked out once while what it reads stays, for the roll, the Fate offer and the
landing in turn.
"""

from __future__ import annotations

__all__ = ["ContextPart"]

from collections.abc import Callable
from dataclasses import dataclass

from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.battle.equipment import condition_modifiers
from kassen.sengoku.battle.flow.effects import EffectsPart
from kassen.sengoku.battle.plan import situational
from kassen.sengoku.battle.rules import AMBUSH_CONDITIONS
from kassen.sengoku.battle.state import Unit, Use
from kassen.sengoku.defense import DefenseResult
from kassen.sengoku.entries import Maneuver, Weapon
from kassen.sengoku.house import ZoneApplies
from kassen.sengoku.profile import AttackTags, CombatProfile
from kassen.sengoku.technique import Technique


@dataclass(frozen=True, slots=True)
class _Ambush:
    """Whether an attack is an ambush (SG.AMB.1-3): none, basic, the trait's automatic critical, or a
    condition met against an immune target."""

    kind: str
    condition: str = ""
    trait: str = ""


_NO_AMBUSH = _Ambush("none")


@fast_init
@dataclass(frozen=True, slots=True)
class _Context:
    """Everything an attack under way reads from the state, recomputed the same way at each stage."""

    attacker: Unit
    target: Unit
    maneuver: Maneuver
    use: Use
    weapon: Weapon | None
    tech: Technique
    tags: AttackTags
    aim_steps: tuple[Step, ...]
    pa: CombatProfile
    pt: CombatProfile
    modifier: int
    steps: tuple[Step, ...]
    defense: DefenseResult


class ContextPart(EffectsPart):
    """Ambush and the attack's context (see the module notes)."""

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

    def context(self) -> _Context:
        """The attack under way as the state has it now: modifier (technique, situation, zone rows,
        battlefield changes, ambush) and the target's Defense (its stances, Defenseless, debuffs).
        Worked out once while what it reads stays (the units, the breath, the battlefield changes, the
        round and the attack's parties): the roll, the Fate offer and the landing ask it in turn."""
        s = self.state
        p, b = s.attack, s.breath
        assert p is not None and b is not None
        reads = (s.units, b, s.conditions, s.round, p.attacker, p.target, p.maneuver, p.weapon, p.ambush)
        memo = self.context_memo
        # a tuple comparison takes each pair of items that are the same object as equal first (one C
        # loop, no equality called for the states' own records): what it reads is as it was
        if memo is not None and memo[0] == reads:
            found = memo[1]
            assert isinstance(found, _Context)
            return found
        ctx = self._context()
        self.context_memo = (reads, ctx)
        return ctx

    def _context(self) -> _Context:
        r = self.rules
        p = self.state.attack
        b = self.state.breath
        assert p is not None and b is not None
        use = b.uses[b.index]
        attacker, target = self.u(p.attacker), self.u(p.target)
        assert attacker.zone is not None and target.zone is not None
        m = r.maneuver(p.maneuver)
        weapon = r.weapon_for(attacker, m, p.weapon or None)
        wid = weapon.id if weapon is not None else None
        tech = r.technique(attacker, m, wid)
        tags = tech.tags
        aim_steps: tuple[Step, ...] = ()
        if use.aim:
            af = r.aim(tech, r.attribute(attacker, "finesse"), use.aim)
            tags, aim_steps = af.tags, af.steps
        pa = self.profile(attacker, wid if weapon is not None and not weapon.natural else None)
        pt = self.profile(target)
        modifier, mod_steps = r.attack_modifier(pa, tech)
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
            weapon=wid,
        ):
            modifier += e.amount
            steps.append(Step(e.amount, S_("{zone}: {text}", zone=e.zone, text=e.text), "SG.ZON.1"))
        for step in condition_modifiers(r, self.state, attacker, m, wid, attacker.zone, target.zone):
            modifier += step.value
            steps.append(step)
        if p.ambush == "basic":
            amb = r.ambush
            if amb.target_defenseless:
                pt = replace(pt, defenseless=True)
            if amb.check_bonus:
                modifier += amb.check_bonus
                steps.append(Step(amb.check_bonus, S_("ambush: first-attack modifier"), "SG.AMB.1"))
        if modifier != plain:
            steps.append(Step(modifier, S_("attack modifier"), "SG.CHK.1"))
        defense = r.defense_of(pt, tags)
        return _Context(
            attacker, target, m, use, weapon, tech, tags, aim_steps, pa, pt, modifier, tuple(steps), defense
        )


# ------------------------------------------------------------------------------------------ tables


def _infiltrating(b: ContextPart, attacker: Unit, target: Unit) -> bool:
    return attacker.infiltrating


def _unseen_from_the_flank(b: ContextPart, attacker: Unit, target: Unit) -> bool:
    """A Flank attacker's first attack on a unit that has not yet taken a breath (SG.RD.10: a Hold or a
    Pass counts as one when the catalog says so)."""
    seen = target.breaths > 0 or (
        target.count_reached and b.rules.ambush_readings.pass_or_hold_counts_as_breath
    )
    return (
        attacker.zone is not None
        and b.rules.unlocks_ambush(b.state.zone(attacker.zone))
        and not seen
        and (attacker.attacks == 0 or not b.rules.ambush.first_attack_only)
    )


#: The ambush conditions the catalog may list (SG.AMB.1), by id; BattleRules refuses any other id.
_AMBUSH_CONDITIONS: dict[str, Callable[[ContextPart, Unit, Unit], bool]] = {
    "infiltrating": _infiltrating,
    "unseen-from-the-flank": _unseen_from_the_flank,
}
assert set(_AMBUSH_CONDITIONS) == AMBUSH_CONDITIONS
