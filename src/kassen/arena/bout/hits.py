"""What one hit does to its victim, as data: :func:`hit_plan` is the victim after the hit (HP, damage
tallies, crippling) and the tasks its injury effects schedule, in the order the bout resolves them
(death or death checks, head blow, vital check, stuns, knockdown check, falling stun check, knockback,
shock). The bout applies the plan (:mod:`kassen.arena.bout.tasks`); the odds walk the same plan
(:mod:`kassen.arena.bout.forecast`), so the two cannot drift apart.
"""

from __future__ import annotations

__all__ = ["HitPlan", "hit_plan"]

from dataclasses import dataclass

from kassen.arena.bout.state import (
    AddShock,
    AutoStun,
    Death,
    DeathCheck,
    FallStunCheck,
    HeadBlow,
    HitRecord,
    Knockback,
    KnockdownCheck,
    Task,
    VitalCheck,
)
from kassen.arena.fighter import FighterState
from kassen.arena.injury import Effect, death_thresholds, injury_effects
from kassen.arena.knockback import knockback_metres
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import DamageSource
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace, replacer


@fast_init
@dataclass(frozen=True, slots=True)
class HitPlan:
    """The victim after ``hit`` (``fighter``), whether the hit newly crippled its location, the injury
    ``effects`` and the ``tasks`` they schedule (AR.INJ.1-9, AR.HP.3-4, AR.KNB.1, AR.FAL.2)."""

    fighter: FighterState
    newly_crippled: bool
    effects: tuple[Effect, ...]
    tasks: tuple[Task, ...]


#: The victim's HP and damage tallies after a hit, copied for those fields (fastreplace.replacer).
_with_damage = replacer(FighterState, "hp", "location_damage", "head_damage")


def hit_plan(f: FighterState, hit: HitRecord, rules: ArenaRules) -> HitPlan:
    """``hit`` on ``f`` (not dead): the final damage off its HP and onto the location's and head's tallies,
    a location newly crippled (guards of a crippled arm dropped), and the tasks of its effects."""
    d = hit.damage
    loc = rules.locations.locations[d.location]
    before, after = f.hp, f.hp - d.final
    newly_crippled = d.crippled and d.location not in f.crippled
    damage = dict(f.location_damage)
    damage[d.location] = damage.get(d.location, 0) + d.final
    prior_head = f.head_damage
    f = _with_damage(f, after, tuple(sorted(damage.items())), f.head_damage + (d.final if loc.head else 0))
    if newly_crippled:
        f = replace(
            f, crippled=(*f.crippled, d.location), guards=tuple(g for g in f.guards if g.arm != d.location)
        )
    effects = injury_effects(
        d,
        ht=f.profile.ht,
        painful=hit.painful,
        prior_head_damage=prior_head,
        already_crippled=not newly_crippled,
        rules=rules,
    )
    names = [e.effect for e in effects]
    hp = rules.injury.hp
    tasks: list[Task] = []
    if after <= hp.dead_ht_multiple * f.profile.ht:
        tasks.append(Death(hit))
    else:
        tasks += [
            DeathCheck(hit, t)
            for t in death_thresholds(before, after, f.profile.ht, rules, last_check_hp=f.last_death_check_hp)
            if t not in f.death_checks_done
        ]
    if "unconscious" in names:
        tasks.append(HeadBlow(hit))
    if "unconscious_check" in names:
        tasks.append(VitalCheck(hit))
    tasks += [AutoStun(hit, e.rule) for e in effects if e.effect == "stun"]
    if "knockdown_check" in names:
        tasks.append(KnockdownCheck(hit))
    if "fall_stun_check" in names:
        tasks.append(FallStunCheck(hit))
    if d.source is DamageSource.ATTACK:
        distance = knockback_metres(d.basic, d.damage_type, d.penetrating, f.profile.st, rules)
        if distance >= 1:
            tasks.append(Knockback(hit, distance))
    if d.final >= 1:
        tasks.append(AddShock(hit))
    return HitPlan(f, newly_crippled, effects, tuple(tasks))
