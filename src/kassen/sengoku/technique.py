"""Attacks as resolution and Aim Focus see them: one :class:`Technique` type, built from the catalog.

The single source of truth for a technique is its catalog entry (:class:`~kassen.sengoku.entries.Maneuver`,
in ``data/catalog/maneuvers.yaml``). :func:`from_maneuver` turns it, with the weapon it is used with,
into a :class:`Technique`: the parts of its check modifier (attribute + skill + bonus, SG.CHK.1), its
Energy cost, its tags, its Wounds on a hit (SG.WND.1, SG.WND.3), its own or its weapon's critical Wounds
(nodachi 3, teppo 2: SG.CRT.2), its extra effects on a hit or a critical (SG.CRT.3) and what Aim Focus it
allows (SG.AIM.1). Attack resolution (:mod:`kassen.sengoku.attack`) and Aim Focus
(:mod:`kassen.sengoku.aim`) both read this one type.

>>> technique("nodachi").critical_wounds
3
>>> vitals = technique("pierce-the-vitals")
>>> vitals.cost, vitals.aim_focus.value, vitals.weapon
(2, 'pierce', 'tanto')
"""

from __future__ import annotations

__all__ = [
    "BASE_ATTACK",
    "Effect",
    "StatedBreak",
    "Technique",
    "attack_modifier",
    "from_maneuver",
    "technique",
    "technique_names",
]

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kassen.core.explain import Step
from kassen.i18n import S_
from kassen.sengoku.breakage import BreakTrigger
from kassen.sengoku.profile import AimFocus, AttackTags, CombatProfile
from kassen.sengoku.resolution import EffectKind
from kassen.sengoku.words import modifier_reason

if TYPE_CHECKING:
    from kassen.sengoku.catalog import Catalog
    from kassen.sengoku.entries import EffectData, Maneuver, Weapon


@dataclass(frozen=True, slots=True)
class Effect:
    """An extra effect of an attack: ``extra_wounds`` (added Wound reduction after the check, SG.WND.6),
    ``wounds_behind`` (Wounds to the enemy behind), ``debuff`` (a catalog Defense −N source, SG.DBF.1)
    or ``note`` (text for the GM)."""

    kind: EffectKind
    wounds: int = 0
    text: str = ""
    debuff: str = ""


@dataclass(frozen=True, slots=True)
class StatedBreak:
    """A weapon's stated "[Pierce N] + [Break]" and when it fires (SG.BRK.4): on a hit, a Critical Hit
    or a decisive blow. ``grade`` is the executing equipment's grade (SG.BRK.2-3), ``source`` its name."""

    trigger: BreakTrigger
    pierce: int
    grade: str
    source: str


@dataclass(frozen=True, slots=True)
class Technique:
    """One attack. ``wounds`` is what a hit reduces (``None``: the base hit from data, SG.WND.1);
    ``critical_wounds`` (when set) replaces the Critical Hit reading for this attack, as the weapon
    states it (SG.CRT.2). ``energy`` is its Energy cost (``None`` for an attack outside the breath
    economy); ``aim_focus`` is what its text allows (SG.AIM.1); ``id`` names its catalog entry."""

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
    aim_focus: AimFocus = AimFocus.NONE
    id: str = ""
    #: The weapon's stated [Pierce N] + [Break] (Muramasa on a Critical Hit, SG.BRK.4), if any.
    stated_break: StatedBreak | None = None

    @property
    def cost(self) -> int:
        """The base Energy cost Aim Focus adds to (SG.AIM.2); 0 when the attack states none."""
        return self.energy if self.energy is not None else 0


#: A plain attack: the base hit and the base Critical Hit from data (SG.WND.1, SG.CRT.1).
BASE_ATTACK = Technique()


def _effect(data: EffectData) -> Effect:
    return Effect(data.effect, data.wounds, data.text, data.debuff or "")


def from_maneuver(maneuver: Maneuver, weapon: Weapon | None = None) -> Technique:
    """The technique of catalog entry ``maneuver`` used with ``weapon``.

    The maneuver's own critical Wounds win over the weapon's special critical (SG.CRT.2); the weapon's
    critical effects (teppo: 1 Wound to the enemy behind) are added to the maneuver's own (SG.CRT.3).
    The caller checks that the maneuver attacks (``maneuver.attacks``).
    """
    check = maneuver.check
    critical = weapon.critical if weapon is not None else None
    own_critical = maneuver.critical_wounds
    return Technique(
        name=maneuver.name,
        weapon=weapon.id if weapon is not None else (maneuver.weapon or ""),
        attribute=check.attribute if check else None,
        skill=check.skill if check else None,
        bonus=check.bonus if check else 0,
        energy=maneuver.cost,
        tags=maneuver.attack_tags,
        wounds=maneuver.wounds,
        critical_wounds=own_critical if own_critical is not None else (critical.wounds if critical else None),
        on_hit=tuple(_effect(e) for e in maneuver.on_hit),
        on_critical=tuple(
            _effect(e) for e in (*maneuver.on_critical, *(critical.effects if critical else ()))
        ),
        aim_focus=maneuver.aim_focus,
        id=maneuver.id,
        stated_break=_stated_break(weapon),
    )


def _stated_break(weapon: Weapon | None) -> StatedBreak | None:
    """The weapon's ``armor_break`` (SG.BRK.4): its trigger and the N of its paired [Pierce N]."""
    if weapon is None or weapon.armor_break is None:
        return None
    pierce = weapon.armor_break.attack_tags.pierce
    n = pierce if isinstance(pierce, int) else 100  # [Pierce all]: all it finds (apply_break caps it)
    return StatedBreak(BreakTrigger(weapon.armor_break.trigger), n, weapon.grade, weapon.name)


def _catalog(catalog: Catalog | None) -> Catalog:
    from kassen.sengoku.catalog import load_catalog  # the catalog builds techniques: imported late

    return catalog if catalog is not None else load_catalog()


def technique_names(catalog: Catalog | None = None) -> tuple[str, ...]:
    """Every key :func:`technique` accepts: the attacking maneuvers, then the weapons, in catalog order."""
    return _catalog(catalog).technique_keys()


def technique(key: str, catalog: Catalog | None = None) -> Technique:
    """The attack ``key`` names: a maneuver (``thrust``, ``pierce-the-vitals``) with the weapon whose
    license it is, or a weapon (``nodachi``, ``teppo``) with its Attack A. A
    :class:`~kassen.core.errors.KassenError` names the known keys when ``key`` is neither."""
    return _catalog(catalog).technique(key)


def serious_injury_step(penalty: int) -> Step:
    """The step a lasting check penalty adds to every check (SG.INP.3's serious injury, house default)."""
    return Step(
        -penalty,
        S_("serious injury {penalty} on every check until a full day's rest", penalty=f"{-penalty:+d}"),
        "SG.INP.3",
    )


def attack_modifier(attacker: CombatProfile, tech: Technique) -> tuple[int, tuple[Step, ...]]:
    """The attack modifier of ``tech`` for ``attacker``: attribute + skill + the technique's bonus
    (SG.CHK.1; e.g. Piercing Arrow ``2d10 + Courage + Archery + 1``)."""
    steps: list[Step] = []
    total = 0
    if tech.attribute is not None:
        value = getattr(attacker.attributes, tech.attribute)
        total += value
        steps.append(
            Step(
                value,
                modifier_reason(tech.attribute, value),
                "SG.CHK.1",
            )
        )
    if tech.skill is not None:
        rank = attacker.skill(tech.skill)
        total += rank
        steps.append(Step(rank, modifier_reason(tech.skill, rank), "SG.CHK.1"))
    if tech.bonus:
        total += tech.bonus
        steps.append(
            Step(tech.bonus, S_("{name} bonus {bonus}", name=tech.name, bonus=f"{tech.bonus:+d}"), "SG.CHK.1")
        )
    if attacker.check_penalty:
        total -= attacker.check_penalty
        steps.append(serious_injury_step(attacker.check_penalty))
    steps.append(Step(total, S_("attack modifier"), "SG.CHK.1"))
    return total, tuple(steps)
