"""[Break]: the paired [Pierce] reduction stays on the armor until repaired (SG.BRK.*).

[Break] carries no N: it keeps what the attack's own [Pierce N] removed (SG.BRK.1), but only when the
executing equipment grade is at least the target armor's grade (SG.BRK.2, SG.BRK.3); the grade order is a
house default in ``data/defense.yaml`` (SG.BRK.5). The kept reduction is ``CombatProfile.armor_damage``,
which :func:`~kassen.sengoku.defense.compute_defense` subtracts from the armor/shield additions. Natural
armor is not equipment: [Break] never damages it.

>>> from kassen.sengoku.profile import ArmorKind, CombatProfile
>>> target = CombatProfile(armor=ArmorKind.HEAVY, armor_grade="ordinary")
>>> broken, steps = apply_break("masterwork", target, pierce_removed=3)
>>> broken.armor_damage
3
"""

from __future__ import annotations

__all__ = [
    "BreakTrigger",
    "Repair",
    "UnknownGradeError",
    "apply_break",
    "break_triggers",
    "don_armor",
    "emergency_patch",
    "equipment_armor",
    "equipment_damage",
    "equipment_rank",
    "repair",
]

from enum import StrEnum

from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.defense import DefenseRules, load_defense_rules
from kassen.sengoku.profile import ArmorKind, CombatProfile


class UnknownGradeError(KassenError):
    """An equipment grade the grade order (SG.BRK.5) does not list."""

    code = "sengoku.equipment_grade"


class BreakTrigger(StrEnum):
    """When a source's [Break] fires (SG.BRK.4); the source states which."""

    ON_HIT = "on-hit"  # heavy weapons that state it: tetsubo, zweihander, kanabo...
    ON_CRITICAL = "on-critical"  # "on critical hit, [Pierce N] + [Break]"
    ON_DECISIVE = "on-decisive"  # high-rank secret arts and divine items, on a decisive blow


class Repair(StrEnum):
    """Repairs after the emergency patch is spent (SG.BRK.6)."""

    CAMP = "camp"
    FORGE = "forge"


def equipment_rank(grade: str, *, rules: DefenseRules | None = None) -> int:
    """The rank of an equipment grade in the house order (SG.BRK.5); higher breaks lower or equal."""
    rules = rules if rules is not None else load_defense_rules()
    ranks = rules.equipment_grades.ranks
    key = " ".join(grade.lower().split())
    if key not in ranks:
        known = ", ".join(ranks)
        raise UnknownGradeError(f"unknown equipment grade {grade!r}; known grades: {known} (SG.BRK.5)")
    return ranks[key]


def equipment_armor(target: CombatProfile, *, rules: DefenseRules | None = None) -> int:
    """Armor/shield points still on the target's equipment: armor row + shield + armor technique − damage."""
    rules = rules if rules is not None else load_defense_rules()
    total = rules.armor.rows[target.armor].defense + target.armor_bonus
    if target.shield:
        total += rules.armor.shield
    return max(0, total - target.armor_damage)


def break_triggers(
    trigger: BreakTrigger, *, hit: bool, critical: bool = False, decisive: bool = False
) -> bool:
    """Whether a source's [Break] fires on this attack (SG.BRK.4).

    A [Break] needs a hit (it shatters what the blow struck); then it fires as its source states: on
    every hit, on a Critical Hit, or on the decisive blow the source names.
    """
    if not hit:
        return False
    if trigger is BreakTrigger.ON_CRITICAL:
        return critical
    if trigger is BreakTrigger.ON_DECISIVE:
        return decisive
    return True


def apply_break(
    attacker_grade: str,
    target: CombatProfile,
    pierce_removed: int,
    *,
    rules: DefenseRules | None = None,
) -> tuple[CombatProfile, tuple[Step, ...]]:
    """Leave the paired [Pierce] reduction on the target's armor/shield until repaired (SG.BRK.1-3).

    ``pierce_removed`` is what this attack's [Pierce] took (``DefenseResult.pierce_removed``). The damage
    stays only if ``attacker_grade`` (the executing equipment, or the grade the technique states) ranks
    at least ``target.armor_grade``; otherwise only the [Break] is void and the target is returned
    unchanged. Each step's value is the armor damage the target carries afterwards.
    """
    rules = rules if rules is not None else load_defense_rules()
    attacker_rank = equipment_rank(attacker_grade, rules=rules)
    armor_rank = equipment_rank(target.armor_grade, rules=rules)
    damage = target.armor_damage
    if pierce_removed <= 0:
        return target, (Step(damage, S_("[Break] with no [Pierce] removes nothing"), "SG.BRK.1"),)
    if attacker_rank < armor_rank:
        reason = S_(
            "{armor_grade} armor is immune to a {attacker_grade} [Break];"
            " the [Pierce] still applied to this attack",
            armor_grade=target.armor_grade,
            attacker_grade=attacker_grade,
        )
        return target, (Step(damage, reason, "SG.BRK.3"),)
    kept = min(pierce_removed, equipment_armor(target, rules=rules))
    if kept == 0:
        return target, (Step(damage, S_("[Break] finds no armor or shield to damage"), "SG.BRK.2"),)
    reason = (
        S_(
            "{attacker_grade} ≥ {armor_grade}: {kept} armor point gone until repaired",
            attacker_grade=attacker_grade,
            armor_grade=target.armor_grade,
            kept=kept,
        )
        if kept == 1
        else S_(
            "{attacker_grade} ≥ {armor_grade}: {kept} armor points gone until repaired",
            attacker_grade=attacker_grade,
            armor_grade=target.armor_grade,
            kept=kept,
        )
    )
    return replace(target, armor_damage=damage + kept), (Step(damage + kept, reason, "SG.BRK.2"),)


def equipment_damage(
    target: CombatProfile, points: int, *, rules: DefenseRules | None = None
) -> tuple[CombatProfile, tuple[Step, ...]]:
    """The text effect "equipment damage N points": corrosion written as text, not [Break] (SG.BRK.8).

    It needs no paired [Pierce] and no grade comparison; it takes ``points`` from the armor/shield (as
    ``rules`` rate them), never below 0.
    """
    if points < 0:
        raise IllegalActionError(
            S_("equipment damage cannot be negative, got {points}", points=points), rule="SG.BRK.8"
        )
    kept = min(points, equipment_armor(target, rules=rules))
    reason = (
        S_("equipment damage {points}: {kept} armor point corroded", points=points, kept=kept)
        if kept == 1
        else S_("equipment damage {points}: {kept} armor points corroded", points=points, kept=kept)
    )
    damaged = replace(target, armor_damage=target.armor_damage + kept)
    return damaged, (Step(damaged.armor_damage, reason, "SG.BRK.8"),)


def _restore(damage: int, restores: int | str) -> int:
    return damage if restores == "all" else min(damage, int(restores))


def emergency_patch(
    target: CombatProfile, *, rules: DefenseRules | None = None
) -> tuple[CombatProfile, tuple[Step, ...]]:
    """Patch broken armor in the field: once per armor (SG.BRK.6).

    Restores what the house default says (all damage). Refused with
    :class:`~kassen.core.errors.IllegalActionError` (rule SG.BRK.6) when this armor's patch is spent
    (camp or forge repair is needed) or when it carries no damage.
    """
    rules = rules if rules is not None else load_defense_rules()
    if target.emergency_patch_used:
        raise IllegalActionError(
            S_(
                "{name}'s armor has had its one emergency patch; camp or forge repair is needed",
                name=target.name,
            ),
            rule="SG.BRK.6",
        )
    if target.armor_damage == 0:
        raise IllegalActionError(
            S_("{name}'s armor has no [Break] damage to patch", name=target.name), rule="SG.BRK.6"
        )
    restored = _restore(target.armor_damage, rules.repair.emergency_patch.restores)
    patched = replace(target, armor_damage=target.armor_damage - restored, emergency_patch_used=True)
    reason = (
        S_("emergency patch restores {restored} armor point (once per armor)", restored=restored)
        if restored == 1
        else S_("emergency patch restores {restored} armor points (once per armor)", restored=restored)
    )
    return patched, (Step(patched.armor_damage, reason, "SG.BRK.6"),)


def repair(
    target: CombatProfile, kind: Repair, *, rules: DefenseRules | None = None
) -> tuple[CombatProfile, tuple[Step, ...]]:
    """Camp or forge repair (SG.BRK.6): restores damage as the house default says; a forge makes the
    armor as new, so its emergency patch is available again."""
    rules = rules if rules is not None else load_defense_rules()
    row = rules.repair.camp if kind is Repair.CAMP else rules.repair.forge
    restored = _restore(target.armor_damage, row.restores)
    patch_used = target.emergency_patch_used and not row.resets_patch
    repaired = replace(target, armor_damage=target.armor_damage - restored, emergency_patch_used=patch_used)
    reason = (
        S_("{kind} repair restores {restored} armor point", kind=kind.value, restored=restored)
        if restored == 1
        else S_("{kind} repair restores {restored} armor points", kind=kind.value, restored=restored)
    )
    if row.resets_patch:
        reason += "; the armor is as new (emergency patch available)"
    return repaired, (Step(repaired.armor_damage, reason, "SG.BRK.6"),)


def don_armor(
    target: CombatProfile, armor: ArmorKind, grade: str, *, rules: DefenseRules | None = None
) -> CombatProfile:
    """New armor (SG.BRK.2 "until repair, maintenance or new armor"): no damage, a fresh patch."""
    equipment_rank(grade, rules=rules)
    return replace(target, armor=armor, armor_grade=grade, armor_damage=0, emergency_patch_used=False)
