"""Attacks as plain data: a weapon's attack or a technique, with its Wounds and critical overrides.

A :class:`Technique` is what the resolution needs to know about an attack: the parts of its check
modifier (attribute + skill + bonus, SG.CHK.1), its tags, its Wounds on a hit (SG.WND.1, SG.WND.3), its
own critical Wounds where it states them (nodachi 3, teppo 2: SG.CRT.2) and its extra effects on a hit
or on a critical (SG.CRT.3). The bundled catalog is small (``techniques`` in ``resolution.yaml``).

>>> technique("nodachi").critical_wounds
3
"""

from __future__ import annotations

__all__ = ["BASE_ATTACK", "Effect", "Technique", "attack_modifier", "technique", "technique_names"]

from dataclasses import dataclass, field

from kassen.core.errors import KassenError
from kassen.core.explain import Step
from kassen.sengoku.profile import AttackTags, CombatProfile
from kassen.sengoku.resolution import EffectData, EffectKind, ResolutionRules, TechniqueData, load_resolution


@dataclass(frozen=True, slots=True)
class Effect:
    """An extra effect of an attack: ``extra_wounds`` (added Wound reduction after the check, SG.WND.6),
    ``wounds_behind`` (Wounds to the enemy behind) or ``note`` (text for the GM)."""

    kind: EffectKind
    wounds: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class Technique:
    """One attack. ``wounds`` is what a hit reduces (``None``: the base hit from data, SG.WND.1);
    ``critical_wounds`` (when set) replaces the Critical Hit reading for this attack, as the weapon
    states it (SG.CRT.2)."""

    name: str = "attack"
    weapon: str = ""
    attribute: str | None = None
    skill: str | None = None
    bonus: int = 0
    energy: int | None = None
    tags: AttackTags = field(default_factory=AttackTags)
    wounds: int | None = None
    critical_wounds: int | None = None
    on_hit: tuple[Effect, ...] = ()
    on_critical: tuple[Effect, ...] = ()


#: A plain attack: the base hit and the base Critical Hit from data (SG.WND.1, SG.CRT.1).
BASE_ATTACK = Technique()


def _effect(data: EffectData) -> Effect:
    return Effect(data.effect, data.wounds, data.text)


def _from_data(data: TechniqueData) -> Technique:
    return Technique(
        name=data.name,
        weapon=data.weapon,
        attribute=data.attribute,
        skill=data.skill,
        bonus=data.bonus,
        energy=data.energy,
        tags=AttackTags(
            pierce=data.pierce, direct=data.direct, incorporeal=data.incorporeal, break_=data.break_
        ),
        wounds=data.wounds,
        critical_wounds=data.critical_wounds,
        on_hit=tuple(_effect(e) for e in data.on_hit),
        on_critical=tuple(_effect(e) for e in data.on_critical),
    )


def technique_names(rules: ResolutionRules | None = None) -> tuple[str, ...]:
    """The catalog's keys, in file order."""
    return tuple((rules or load_resolution()).techniques)


def technique(key: str, rules: ResolutionRules | None = None) -> Technique:
    """The catalog entry ``key`` (``nodachi``, ``teppo``, ``thrust``...); a KassenError names the known
    ones when ``key`` is not in the catalog."""
    data = (rules or load_resolution()).techniques.get(key.strip().lower())
    if data is None:
        known = ", ".join(technique_names(rules))
        raise KassenError(f"unknown weapon or technique {key!r} (known: {known})")
    return _from_data(data)


def attack_modifier(attacker: CombatProfile, tech: Technique) -> tuple[int, tuple[Step, ...]]:
    """The attack modifier of ``tech`` for ``attacker``: attribute + skill + the technique's bonus
    (SG.CHK.1; e.g. Piercing Arrow ``2d10 + Courage + Archery + 1``)."""
    steps: list[Step] = []
    total = 0
    if tech.attribute is not None:
        value = getattr(attacker.attributes, tech.attribute)
        total += value
        steps.append(Step(value, f"{tech.attribute.capitalize()} {value:+d}", "SG.CHK.1"))
    if tech.skill is not None:
        rank = attacker.skill(tech.skill)
        total += rank
        steps.append(Step(rank, f"{tech.skill.capitalize()} {rank:+d}", "SG.CHK.1"))
    if tech.bonus:
        total += tech.bonus
        steps.append(Step(tech.bonus, f"{tech.name} bonus {tech.bonus:+d}", "SG.CHK.1"))
    steps.append(Step(total, "attack modifier", "SG.CHK.1"))
    return total, tuple(steps)
