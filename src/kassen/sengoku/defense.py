"""Target Defense in Sengoku (seed 000): grade base, armor, bonuses, bypass tags, debuffs, Exorcism.

The order is SG.DEF.5: grade base (or a stat block's lower Defense, SG.DEF.6) + armor/shield additions
(SG.DEF.2, SG.DEF.3) + non-armor bonuses (SG.DEF.4); then the tags, [Pierce N] (SG.PRC.*) and
[Direct N] (SG.DIR.*), each with its floor; then reductions from other sources after the floors,
Defenseless −4 (SG.DFL.2) and Defense −N (SG.DBF.*), with a final minimum of 2. An [Incorporeal] attack
rolls instead against the target number set by the defender's Exorcism rank (SG.INC.*).

Every number comes from ``data/defense.yaml`` (and ``data/grades.yaml`` for the grade base), loaded once
and cached; pass ``rules=`` / ``grades=`` to use your own. Every result carries its explanation steps.
The data's typed models and their loading are in :mod:`kassen.sengoku.defense_rules`, Defense −N
(SG.DBF.*) in :mod:`kassen.sengoku.defense_debuffs`; both are importable from here.

>>> from kassen.sengoku.profile import ArmorKind, AttackTags, BonusKind, CombatProfile, DefenseBonus
>>> target = CombatProfile(armor=ArmorKind.HEAVY,
...                        bonuses=(DefenseBonus(BonusKind.STANCE, 2, "Immovable Formation"),))
>>> result = compute_defense(target, AttackTags(direct=2))
>>> result.defense
14
>>> for step in result.steps: print(step.value, step.reason, step.rule)
10 base (Veteran) SG.DEF.1
14 +4 heavy armor SG.DEF.2
16 +2 stance (Immovable Formation) SG.DEF.4
14 [Direct 2] removes stance +2 (Immovable Formation) SG.DIR.1
"""

from __future__ import annotations

__all__ = [
    "IMMUNE_DEFENSE",
    "AimFocusRules",
    "ArmorRow",
    "ArmorTable",
    "DebuffReading",
    "DebuffRules",
    "DefenseResult",
    "DefenseRules",
    "EnergyRules",
    "EquipmentGrades",
    "Exemption",
    "ExorcismRow",
    "ExorcismTable",
    "IncorporealRules",
    "NaturalArmorRules",
    "PatchRules",
    "ReductionRules",
    "RepairRow",
    "RepairRules",
    "check_profile",
    "compute_defense",
    "end_round_debuffs",
    "grade_label",
    "ignores_incorporeal_evasion",
    "is_incorporeal_source",
    "load_defense_rules",
    "pierce_reaches_natural_armor",
    "remove_debuff",
    "trigger_debuff",
]

from dataclasses import dataclass
from typing import Any, Literal

from kassen.core.errors import ContentError, ContentIssue
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.i18n import S_
from kassen.sengoku.defense_debuffs import _debuff_text, end_round_debuffs, remove_debuff, trigger_debuff
from kassen.sengoku.defense_rules import (
    AimFocusRules,
    ArmorRow,
    ArmorTable,
    DebuffReading,
    DebuffRules,
    DefenseRules,
    EnergyRules,
    EquipmentGrades,
    Exemption,
    ExorcismRow,
    ExorcismTable,
    IncorporealRules,
    NaturalArmorRules,
    PatchRules,
    ReductionRules,
    RepairRow,
    RepairRules,
    load_defense_rules,
)
from kassen.sengoku.grades import GradeTable, load_grades
from kassen.sengoku.profile import ALL, AttackTags, CombatProfile, DefenseBonus, ExorcismRank, Grade
from kassen.sengoku.tags import check_tags
from kassen.sengoku.words import bonus_reason

#: The ``defense`` of a result that no check can reach: the defender is immune to the attack (a
#: Licensed+ exorcist against [Incorporeal], SG.INC.2). Check :attr:`DefenseResult.immune` and do not
#: roll; the number only makes a careless ``2d10 + mod >= defense`` fail safe.
IMMUNE_DEFENSE = 99


# ------------------------------------------------------------------------------------------ results


@fast_init
@dataclass(frozen=True, slots=True)
class DefenseResult:
    """The Defense an attack rolls against, and how it was reached.

    ``base`` is the grade base (or the stat block's lower Defense, or the [Incorporeal] target number);
    ``armor`` the armor/shield additions before tags (for [Incorporeal], the Incorporeal Defense
    aptitude); ``non_armor`` the non-armor bonuses that count; ``after_tags`` the value after [Pierce] and
    [Direct] and their floors; ``reductions`` what other sources took after that (before the minimum).
    """

    defense: int
    steps: tuple[Step, ...]
    base: int = 0
    armor: int = 0
    non_armor: int = 0
    pierce_removed: int = 0
    direct_removed: int = 0
    after_tags: int = 0
    reductions: int = 0
    incorporeal: bool = False
    immune: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"defense": int, "steps": [{"value", "reason", "rule"}, ...]}``.

        An immune defender has no Defense to roll against: ``"defense"`` is ``null`` and ``"immune"``
        is ``true`` (the sentinel :data:`IMMUNE_DEFENSE` never leaves Python)."""
        steps = [s.to_json() for s in self.steps]
        if self.immune:
            for step in steps:
                if step["value"] == IMMUNE_DEFENSE:
                    step["value"] = None
            return {"defense": None, "immune": True, "steps": steps}
        return {"defense": self.defense, "steps": steps}


class _Trace:
    """Collects steps; each step's value is the running Defense after it."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, value: int, reason: str, rule: str) -> int:
        self.steps.append(Step(value, reason, rule))
        return value


# ------------------------------------------------------------------------------------------- checks


def check_profile(target: CombatProfile, *, source: str = "profile") -> None:
    """Refuse negative armor, bonus and debuff numbers, every problem at once (:class:`ContentError`)."""
    issues: list[ContentIssue] = []

    def at_least(field: str, value: int | None, low: int = 0) -> None:
        if value is not None and value < low:
            issues.append(ContentIssue(source, field, f"must be at least {low}, got {value}"))

    at_least("natural_armor", target.natural_armor)
    at_least("armor_bonus", target.armor_bonus)
    at_least("armor_damage", target.armor_damage)
    at_least("defense_override", target.defense_override)
    at_least("incorporeal_defense", target.incorporeal_defense)
    for i, bonus in enumerate(target.bonuses):
        at_least(f"bonuses.{i}.value", bonus.value)
    for i, debuff in enumerate(target.debuffs):
        at_least(f"debuffs.{i}.value", debuff.value)
    if issues:
        raise ContentError(issues)


def grade_label(grade: Grade) -> str:
    """``Veteran``, ``Mob``... and ``PC``."""
    return "PC" if grade is Grade.PC else grade.value.capitalize()


def _added(bonus: DefenseBonus) -> str:
    """``+2 stance (Immovable Formation)``."""
    return bonus_reason(bonus.kind.value, bonus.value, bonus.source, added=True)


def _bonus_text(bonus: DefenseBonus) -> str:
    """``stance +2 (Immovable Formation)``."""
    return bonus_reason(bonus.kind.value, bonus.value, bonus.source, added=False)


# ------------------------------------------------------------------------------------- the pieces


def pierce_reaches_natural_armor(
    target: CombatProfile, tags: AttackTags, rules: DefenseRules
) -> tuple[bool, str]:
    """Whether [Pierce] reaches natural armor, and who decided (SG.PRC.4, reading SG.RD.9).

    The attack's statement wins, then the creature's natural-armor entry, then the table setting.
    """
    if tags.pierce_natural is not None:
        return tags.pierce_natural, S_("the attack states it")
    if target.natural_armor_pierceable is not None:
        return target.natural_armor_pierceable, S_("the creature's natural armor states it")
    return rules.natural_armor.pierce_default, S_("table setting")


def _base(target: CombatProfile, grades: GradeTable, trace: _Trace) -> tuple[int, int]:
    """(base, grade base): SG.DEF.1, with a stat block's lower Defense taking precedence (SG.DEF.6)."""
    grade_base = grades.row(target.grade).defense
    label = grade_label(target.grade)
    override = target.defense_override
    if override is not None and override < grade_base:
        trace.add(
            override,
            S_(
                "stat-block Defense (below the {label} base {grade_base})", label=label, grade_base=grade_base
            ),
            "SG.DEF.6",
        )
        return override, grade_base
    trace.add(grade_base, S_("base ({label})", label=label), "SG.DEF.1")
    if override is not None:
        trace.add(
            grade_base,
            S_("stat-block Defense {override} is not lower: the grade base stands", override=override),
            "SG.DEF.6",
        )
    return grade_base, grade_base


def _armor(target: CombatProfile, rules: DefenseRules, value: int, trace: _Trace) -> tuple[int, int]:
    """(equipment armor, natural armor) added on top of the base (SG.DEF.2, SG.DEF.3, SG.BRK.2)."""
    row = rules.armor.rows[target.armor]
    equipment = 0
    if row.defense:
        equipment += row.defense
        value = trace.add(
            value + row.defense, S_("+{defense} {label}", defense=row.defense, label=row.label), "SG.DEF.2"
        )
    if target.shield and rules.armor.shield:
        equipment += rules.armor.shield
        value = trace.add(
            value + rules.armor.shield, S_("+{shield} shield", shield=rules.armor.shield), "SG.DEF.2"
        )
    if target.armor_bonus:
        equipment += target.armor_bonus
        value = trace.add(
            value + target.armor_bonus,
            S_("+{armor_bonus} armor technique", armor_bonus=target.armor_bonus),
            "SG.DEF.3",
        )
    damage = min(target.armor_damage, equipment)
    if damage:
        equipment -= damage
        value = trace.add(
            value - damage,
            S_("−{damage} armor damage from [Break] (until repaired)", damage=damage),
            "SG.BRK.2",
        )
    if target.natural_armor:
        trace.add(
            value + target.natural_armor,
            S_("+{natural_armor} natural armor", natural_armor=target.natural_armor),
            "SG.DEF.3",
        )
    return equipment, target.natural_armor


def _bonuses(bonuses: tuple[DefenseBonus, ...], value: int, trace: _Trace) -> int:
    """Non-armor bonuses (SG.DEF.4); returns their sum."""
    total = 0
    for bonus in bonuses:
        if bonus.value:
            total += bonus.value
            value = trace.add(
                value + bonus.value,
                _added(bonus),
                "SG.DEF.4",
            )
    return total


def _pierce(
    amount: int | Literal["all"], pierceable: int, value: int, floor: int, trace: _Trace
) -> tuple[int, int]:
    """[Pierce N] removes up to N armor/shield points (SG.PRC.1), floored at the base Defense (SG.PRC.2)."""
    removed = pierceable if amount == ALL else min(amount, pierceable)
    start = value
    if removed == 0:
        reason = S_("[Pierce {amount}] finds no armor to remove", amount=amount)
    elif removed == pierceable:
        reason = (
            S_("[Pierce {amount}] removes all {removed} armor point", amount=amount, removed=removed)
            if removed == 1
            else S_("[Pierce {amount}] removes all {removed} armor points", amount=amount, removed=removed)
        )
    else:
        reason = S_(
            "[Pierce {amount}] removes {removed} of {pierceable} armor points",
            amount=amount,
            removed=removed,
            pierceable=pierceable,
        )
    value = trace.add(value - removed, reason, "SG.PRC.1")
    if removed and (amount == ALL or amount >= pierceable):
        value = trace.add(
            min(start, max(floor, value)),
            S_("floor {floor}: the base Defense remains", floor=floor),
            "SG.PRC.2",
        )
    return value, removed


def _direct(
    amount: int | Literal["all"],
    bonuses: tuple[DefenseBonus, ...],
    value: int,
    floor: int,
    trace: _Trace,
) -> tuple[int, int]:
    """[Direct N] removes up to N non-armor points (SG.DIR.1), floored at base + armor (SG.DIR.2)."""
    available = sum(b.value for b in bonuses)
    removed = available if amount == ALL else min(amount, available)
    left = removed
    parts: list[str] = []
    partial: tuple[int, DefenseBonus] | None = None
    for bonus in bonuses:
        if left <= 0:
            break
        take = min(left, bonus.value)
        if take <= 0:
            continue
        left -= take
        parts.append(_bonus_text(bonus) if take == bonus.value else f"{take} of {_bonus_text(bonus)}")
        partial = (take, bonus) if take != bonus.value else None
    start = value
    if len(parts) == 1 and partial is not None:
        # a part of one bonus: said whole, so the catalog finds "N of ..." in its place
        take, bonus = partial
        value = trace.add(
            value - removed,
            S_(
                "[Direct {amount}] removes {take} of {bonus}",
                amount=amount,
                take=take,
                bonus=_bonus_text(bonus),
            ),
            "SG.DIR.1",
        )
    elif parts:
        value = trace.add(
            value - removed,
            S_("[Direct {amount}] removes {value}", amount=amount, value=", ".join(parts)),
            "SG.DIR.1",
        )
    else:
        value = trace.add(
            value, S_("[Direct {amount}] finds no non-armor bonus to remove", amount=amount), "SG.DIR.1"
        )
    if amount == ALL or amount > available:
        floored = min(start, max(floor, value))
        value = trace.add(floored, S_("floor {floor}: base + armor remain", floor=floor), "SG.DIR.2")
    return value, removed


def _reductions(target: CombatProfile, rules: DefenseRules, value: int, trace: _Trace) -> tuple[int, int]:
    """Other sources after the floors (SG.DEF.5): Defenseless, Defense −N; then the minimum (SG.DBF.2)."""
    red = rules.reductions
    start = value
    if target.defenseless and red.defenseless:
        value = trace.add(
            value - red.defenseless, S_("Defenseless −{defenseless}", defenseless=red.defenseless), "SG.DFL.2"
        )
    after_defenseless = value
    debuff_total = 0
    for debuff in target.debuffs:
        if debuff.value:
            debuff_total += debuff.value
            value = trace.add(value - debuff.value, _debuff_text(debuff), "SG.DBF.1")
    taken = start - value
    if red.minimum_covers_defenseless:
        if value < red.minimum:
            rule = "SG.DBF.2" if debuff_total else "SG.RD.5"
            value = trace.add(red.minimum, S_("minimum Defense {minimum}", minimum=red.minimum), rule)
    elif debuff_total and value < red.minimum:
        bounded = min(after_defenseless, red.minimum)
        value = trace.add(
            bounded,
            S_("Defense −N stops at {minimum} (Defenseless does not)", minimum=red.minimum),
            "SG.RD.5",
        )
    return value, taken


# --------------------------------------------------------------------------------------- the whole


def compute_defense(
    target: CombatProfile,
    tags: AttackTags = AttackTags(),  # noqa: B008 - frozen, never mutated
    *,
    rules: DefenseRules | None = None,
    grades: GradeTable | None = None,
) -> DefenseResult:
    """The Defense ``tags`` roll against on ``target``, in the order of SG.DEF.5, with its steps.

    Raises :class:`~kassen.core.errors.ContentError` for negative armor/bonus numbers on the profile and
    :class:`~kassen.sengoku.tags.TagError` for impossible tag values.
    """
    rules = rules if rules is not None else load_defense_rules()
    grades = grades if grades is not None else load_grades()
    check_profile(target)
    check_tags(tags)
    if tags.incorporeal:
        row = rules.exorcism.ranks[target.exorcism]
        if row.target_number is Exemption.IMMUNE:
            return _immune(target)
        if not isinstance(row.target_number, Exemption):
            return _incorporeal(target, tags, row.target_number, rules)
    return _physical(target, tags, rules, grades)


def _physical(
    target: CombatProfile, tags: AttackTags, rules: DefenseRules, grades: GradeTable
) -> DefenseResult:
    trace = _Trace()
    base, grade_base = _base(target, grades, trace)
    floor_base = base if rules.reductions.override_lowers_floors else grade_base
    equipment, natural = _armor(target, rules, base, trace)
    armor = equipment + natural
    non_armor = _bonuses(target.bonuses, base + armor, trace)
    value = base + armor + non_armor
    if tags.incorporeal:
        rank = target.exorcism.value.capitalize()
        trace.add(
            value,
            S_("[Incorporeal] is void against {rank} Exorcism: physical Defense", rank=rank),
            "SG.INC.4",
        )

    pierce_removed = 0
    if tags.pierce is not None:
        reach, why = pierce_reaches_natural_armor(target, tags, rules)
        if natural:
            said = S_("reaches") if reach else S_("does not reach")
            trace.add(
                value,
                S_("[Pierce] {said} natural armor +{natural} ({why})", said=said, natural=natural, why=why),
                "SG.PRC.4",
            )
        pierceable = equipment + (natural if reach else 0)
        value, pierce_removed = _pierce(tags.pierce, pierceable, value, floor_base, trace)
        if non_armor:
            trace.add(value, S_("non-armor bonuses +{non_armor} remain", non_armor=non_armor), "SG.PRC.3")

    direct_removed = 0
    if tags.direct is not None:
        floor = floor_base + armor - pierce_removed
        value, direct_removed = _direct(tags.direct, target.bonuses, value, floor, trace)

    after_tags = value
    value, taken = _reductions(target, rules, value, trace)
    return DefenseResult(
        defense=value,
        steps=tuple(trace.steps),
        base=base,
        armor=armor,
        non_armor=non_armor,
        pierce_removed=pierce_removed,
        direct_removed=direct_removed,
        after_tags=after_tags,
        reductions=taken,
    )


def _incorporeal(
    target: CombatProfile, tags: AttackTags, target_number: int, rules: DefenseRules
) -> DefenseResult:
    """[Incorporeal]: the Exorcism target number replaces physical Defense (SG.INC.1, SG.INC.4)."""
    trace = _Trace()
    rank = "no" if target.exorcism is ExorcismRank.NONE else target.exorcism.value.capitalize()
    value = trace.add(
        target_number,
        S_(
            "[Incorporeal] bypasses physical Defense: target number {target_number} ({rank} Exorcism)",
            target_number=target_number,
            rank=rank,
        ),
        "SG.INC.4",
    )
    aptitude = target.incorporeal_defense
    if aptitude:
        value = trace.add(
            value + aptitude, S_("+{aptitude} Incorporeal Defense (aptitude)", aptitude=aptitude), "SG.INC.3"
        )
    counted_kinds = set(rules.incorporeal.counted_bonus_kinds)
    counted = tuple(b for b in target.bonuses if b.kind in counted_kinds and b.value)
    for bonus in target.bonuses:
        if not bonus.value:
            continue
        if bonus.kind in counted_kinds:
            reason = S_("{bonus} counts against [Incorporeal]", bonus=_added(bonus))
            value = trace.add(value + bonus.value, reason, "SG.RD.7")
        else:
            trace.add(
                value, S_("{bonus} does not count against [Incorporeal]", bonus=_bonus_text(bonus)), "SG.RD.7"
            )
    non_armor = sum(b.value for b in counted)
    if tags.pierce is not None:
        trace.add(
            value,
            S_("[Pierce {pierce}] finds no armor: [Incorporeal] bypasses it", pierce=tags.pierce),
            "SG.INC.1",
        )
    direct_removed = 0
    if tags.direct is not None:
        value, direct_removed = _direct(tags.direct, counted, value, target_number + aptitude, trace)
    after_tags = value
    value, taken = _reductions(target, rules, value, trace)
    return DefenseResult(
        defense=value,
        steps=tuple(trace.steps),
        base=target_number,
        armor=aptitude,
        non_armor=non_armor,
        direct_removed=direct_removed,
        after_tags=after_tags,
        reductions=taken,
        incorporeal=True,
    )


def _immune(target: CombatProfile) -> DefenseResult:
    rank = target.exorcism.value.capitalize()
    step = Step(
        IMMUNE_DEFENSE,
        S_("{rank} Exorcism: full exemption from [Incorporeal] attacks (no check)", rank=rank),
        "SG.INC.2",
    )
    return DefenseResult(
        defense=IMMUNE_DEFENSE,
        steps=(step,),
        base=IMMUNE_DEFENSE,
        after_tags=IMMUNE_DEFENSE,
        incorporeal=True,
        immune=True,
    )


# ------------------------------------------------------------------------- Exorcism and [Incorporeal]


def ignores_incorporeal_evasion(rank: ExorcismRank, *, rules: DefenseRules | None = None) -> bool:
    """Novice and above fight spirits normally: exempt from incorporeal evasion (SG.INC.2, SG.RD.7).

    An attacker-side benefit; it never changes the defender's target number.
    """
    rules = rules if rules is not None else load_defense_rules()
    return rules.exorcism.ranks[rank].evasion_exempt


def is_incorporeal_source(kind: str, *, rules: DefenseRules | None = None) -> bool:
    """Whether attacks of this kind carry [Incorporeal] (SG.INC.5): spirit talismans, onmyoji spells..."""
    rules = rules if rules is not None else load_defense_rules()
    wanted = " ".join(kind.lower().split())
    return wanted in {s.lower() for s in rules.incorporeal.sources}
