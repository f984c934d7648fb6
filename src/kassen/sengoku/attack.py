"""Attack resolution: one attack check from the faces to Wounds, Critical Hit, Fumble and the d100 tables.

Order (docs/sengoku/resolution.md):

1. the attack modifier (attribute + skill + bonus, or given) and the target's Defense (given: the core
   never computes Defense; :func:`attack` gets it from :func:`kassen.sengoku.defense.compute_defense`);
2. the two d10 faces; the attacker's Fate Intervention may move one die to make a double (SG.FAT.1);
3. ``2d10 + modifier >= Defense`` (SG.CHK.1) and the double's meaning (SG.CHK.2, SG.CRT.1, SG.FUM.1,
   SG.RD.4);
4. on a hit: the hit's or the Critical Hit's Wounds (SG.WND.1-3, SG.CRT.1-2, SG.RD.1), then added Wound
   effects after the check (SG.CRT.3, SG.WND.6);
5. the target's Last Bastion may turn a fatal hit into a miss (SG.FAT.2);
6. Wounds applied, never below 0; at 0 the target is Incapacitated, a Lord's fall costs Cohesion
   (SG.WND.4, SG.INP.1-2);
7. a hit with [Break] leaves its [Pierce] on the target's armor until repaired, when the grades allow
   (SG.BRK.1-3); a hit that bleeds marks the target (Bleed, SG.AIM.5);
8. a critical with double 10 rolls the decisive moment table (SG.CRT.4); a fumble makes the attacker
   Defenseless (SG.FUM.1, SG.DFL.1), adds the GM's chosen extras (SG.FUM.2), and with double 1 rolls the
   critical mistake table (SG.FUM.3). The row's effects on the attacker and the target are applied here
   (:mod:`kassen.sengoku.table_effects`); the others (Energy, Cohesion, weapons, other units) are left in
   :attr:`AttackResult.pending` for the battle.

:func:`resolve_attack` is pure over its inputs (faces given; a die source only for a d100 table);
:func:`roll_attack` and :func:`attack` draw the faces from the one injected :class:`~kassen.core.rng.Rng`.
The attack action and its result (:class:`Attack`, :class:`AttackOutcome`, :class:`AttackResult`...) are
defined in :mod:`kassen.sengoku.attack_types` and importable from here.
"""

from __future__ import annotations

__all__ = [
    "Attack",
    "AttackOutcome",
    "AttackResult",
    "DefenseLike",
    "FixedDefense",
    "TableResult",
    "attack",
    "resolve_attack",
    "roll_attack",
    "stated_break_on",
]

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.i18n import S_
from kassen.sengoku.attack_types import (
    _FROM_CHECK,
    Attack,
    AttackOutcome,
    AttackResult,
    DefenseLike,
    FixedDefense,
    TableResult,
)
from kassen.sengoku.breakage import BreakTrigger, apply_break, break_triggers
from kassen.sengoku.check import (
    CheckKind,
    CheckResult,
    Classified,
    DieSource,
    Faces,
    classify,
    resolve_check,
    roll_faces,
)
from kassen.sengoku.defense import DefenseRules, compute_defense
from kassen.sengoku.defenseless import make_defenseless
from kassen.sengoku.fate import fate_intervention, last_bastion
from kassen.sengoku.grades import GradeTable
from kassen.sengoku.profile import AttackTags, CombatProfile
from kassen.sengoku.resolution import (
    D100Table,
    DecisiveBlow,
    EffectKind,
    ResolutionRules,
    TableEffect,
    load_resolution,
)
from kassen.sengoku.table_effects import RowApplied
from kassen.sengoku.technique import StatedBreak, Technique, attack_modifier
from kassen.sengoku.wounds import (
    AddedWound,
    WoundsChange,
    apply_wounds,
    critical_wounds,
    current_wounds,
    hit_wounds,
    is_incapacitated,
)


def _consult(table: D100Table, key: str, rule: str, dice: DieSource | None) -> TableResult:
    if dice is None:
        raise KassenError(
            S_("the {key} table needs a d{die}: pass table_dice", key=key.replace("_", " "), die=table.die)
        )
    roll = dice.die(table.die)
    row = table.row(roll)
    return TableResult(key, roll, row.name, row.effect, rule, row)


def _validate(
    attacker: CombatProfile,
    target: CombatProfile,
    action: Attack,
    rules: ResolutionRules,
    grades: GradeTable | None,
) -> None:
    if is_incapacitated(attacker, grades):
        raise IllegalActionError(
            S_("{name} is Incapacitated and cannot act", name=attacker.name), rule="SG.INP.1"
        )
    if is_incapacitated(target, grades):
        raise IllegalActionError(
            S_("{name} is Incapacitated, removed from the zone", name=target.name), rule="SG.INP.1"
        )
    unknown = [x for x in action.fumble_extras if x not in rules.fumble.extras]
    if unknown:
        known = ", ".join(rules.fumble.extras)
        raise IllegalActionError(
            S_("unknown fumble extra {unknown} (known: {known})", unknown=f"{unknown[0]!r}", known=known),
            rule="SG.FUM.2",
        )


class _Log:
    """Collects the explanation steps and events of one attack, in order."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.events: list[Event] = []

    def step(self, value: int, reason: str, rule: str) -> None:
        self.steps.append(Step(value, reason, rule))

    def event(self, kind: str, data: dict[str, Any], rule: str, *, automatic: bool = False) -> None:
        self.events.append(Event(kind, data, rule, automatic))


@fast_init
@dataclass(frozen=True, slots=True)
class _Blow:
    """What a hit does before Last Bastion and before it lands: Wounds to the target (with added effects),
    Wounds to the enemy behind, notes for the GM, Defense −N sources put on the target (catalog ids)."""

    wounds: int
    rule: str
    behind: int
    notes: tuple[str, ...]
    debuffs: tuple[str, ...] = ()
    bleeds: bool = False


_NO_BLOW = _Blow(0, "SG.WND.1", 0, ())


def _blow(
    tech: Technique,
    outcome: AttackOutcome,
    action: Attack,
    rules: ResolutionRules,
    log: _Log,
    blows: Callable[[Technique, bool], tuple[int, tuple[Step, ...]]] | None = None,
) -> _Blow:
    """The blow's Wounds (SG.WND.1-3, SG.CRT.1-2, SG.RD.1; ``blows`` gives them when the caller
    remembers them), then added Wound effects after the check (SG.CRT.3, SG.WND.6)."""
    critical = outcome is AttackOutcome.CRITICAL
    if blows is not None:
        wounds, wound_steps = blows(tech, critical)
    else:
        wounds, wound_steps = critical_wounds(tech, rules) if critical else hit_wounds(tech, rules)
    log.steps.extend(wound_steps)
    on_critical = tech.on_critical if critical else ()
    added = [
        (AddedWound(e.wounds, S_("{name} on a hit", name=tech.name)), "SG.WND.6")
        for e in tech.on_hit
        if e.kind is EffectKind.EXTRA_WOUNDS
    ]
    added += [
        (AddedWound(e.wounds, S_("{name} on a Critical Hit", name=tech.name)), "SG.CRT.3")
        for e in on_critical
        if e.kind is EffectKind.EXTRA_WOUNDS
    ]
    added += [(a, "SG.WND.6") for a in action.added_wounds]
    for a, rule in added:
        wounds += a.wounds
        log.step(
            wounds,
            S_(
                "{source}: {wounds} Wound(s) after the check, Defense unchanged",
                source=a.source,
                wounds=f"{a.wounds:+d}",
            ),
            rule,
        )
    effects = tech.on_hit + on_critical
    rule = "SG.WND.2" if critical else wound_steps[-1].rule  # SG.WND.1 or SG.WND.3, from the technique
    return _Blow(
        wounds,
        rule,
        sum(e.wounds for e in effects if e.kind is EffectKind.WOUNDS_BEHIND),
        tuple(e.text for e in effects if e.kind is EffectKind.NOTE),
        tuple(e.debuff for e in effects if e.kind is EffectKind.DEBUFF),
        any(e.kind is EffectKind.BLEED for e in effects),
    )


def _land(
    target: CombatProfile,
    blow: _Blow,
    outcome: AttackOutcome,
    rules: ResolutionRules,
    grades: GradeTable | None,
    log: _Log,
) -> WoundsChange:
    """The blow lands: Wounds never below 0, Incapacitated at 0, a Lord's fall (SG.WND.4, SG.INP.1-2)."""
    critical = outcome is AttackOutcome.CRITICAL
    log.event(
        "critical_hit" if critical else "hit",
        {"target": target.key, "wounds": blow.wounds},
        "SG.CRT.1" if critical else "SG.WND.1",
    )
    change = apply_wounds(target, blow.wounds, rules=rules, grades=grades, rule=blow.rule)
    log.steps.extend(change.steps)
    if blow.wounds > 0:  # a hit that wounds nobody (a bind, a curse) changes no Wounds: nothing to say
        log.events.extend(change.events)
    if blow.behind:
        rule = "SG.CRT.2" if critical else "SG.WND.3"
        log.step(
            blow.behind,
            S_("{behind} Wound(s) to the enemy behind {name}", behind=blow.behind, name=target.name),
            rule,
        )
        log.event("wounds_behind", {"behind": target.key, "wounds": blow.behind}, rule)
    for note in blow.notes:
        log.event("effect", {"target": target.key, "text": note}, "SG.CRT.3" if critical else "SG.WND.3")
    for debuff in blow.debuffs:
        # The engine puts the Defense −N source on the target (kassen.sengoku.defense.trigger_debuff).
        log.event("debuff", {"target": target.key, "debuff": debuff}, "SG.DBF.1")
    if blow.bleeds and not change.incapacitated:
        bleed = rules.death_check.bleed
        log.event("bleed", {"unit": target.key, "effect": bleed.effect}, "SG.AIM.5")
    return change


def _fumble(
    attacker: CombatProfile,
    action: Attack,
    rules: ResolutionRules,
    defense_rules: DefenseRules | None,
    log: _Log,
) -> CombatProfile:
    """The fumbler becomes Defenseless (SG.FUM.1, SG.DFL.1; its Defense −N from ``defense_rules``) and
    takes the GM's extras (SG.FUM.2)."""
    log.event("fumble", {"attacker": attacker.key}, "SG.FUM.1")
    if rules.fumble.defenseless:
        log.step(0, S_("Fumble: {name} becomes Defenseless", name=attacker.name), "SG.DFL.1")
        attacker, dfl_steps = make_defenseless(attacker, rules=defense_rules)
        log.steps.extend(dfl_steps)
        log.event("defenseless", {"unit": attacker.key, "cause": "fumble"}, "SG.DFL.1", automatic=True)
    for key in action.fumble_extras:
        extra = rules.fumble.extras[key]
        log.step(
            extra.energy,
            S_("Fumble, GM's extra: {name}: {effect}", name=extra.name, effect=extra.effect),
            "SG.FUM.2",
        )
        log.event(
            "fumble_extra",
            {"unit": attacker.key, "extra": key, "energy": extra.energy, "effect": extra.effect},
            "SG.FUM.2",
        )
    return attacker


def resolve_attack(
    attacker: CombatProfile,
    target: CombatProfile,
    action: Attack,
    defense: DefenseLike,
    faces: Faces,
    *,
    table_dice: DieSource | None = None,
    rules: ResolutionRules | None = None,
    grades: GradeTable | None = None,
    defense_rules: DefenseRules | None = None,
    checks: Callable[[Faces, int, int], tuple[CheckResult, Classified]] | None = None,
    blows: Callable[[Technique, bool], tuple[int, tuple[Step, ...]]] | None = None,
) -> AttackResult:
    """Resolve ``action`` by ``attacker`` on ``target`` against ``defense`` with the rolled ``faces``.

    ``table_dice`` rolls the d100 of a Heavenly Mandate or Karmic Retribution (needed only then);
    ``defense_rules`` are the grades a [Break] compares (SG.BRK.2-3) and a fumble's Defenseless
    (SG.DFL.2). ``rules``, ``grades`` and ``defense_rules`` left out are the bundled data (a calculator's
    convenience); a battle passes its content's (``BattleRules.resolve_attack``), and ``checks``: the
    attack check (SG.CHK.1) and what its double means (SG.RD.4) of its faces, modifier and Defense, as
    :func:`~kassen.sengoku.check.resolve_check` and :func:`~kassen.sengoku.check.classify` give them
    with ``rules`` (remembered: a check is a frozen value of those alone), and ``blows``: the Wounds of
    a hit or a Critical Hit with a technique and their steps, as :func:`~kassen.sengoku.wounds.
    hit_wounds` and :func:`~kassen.sengoku.wounds.critical_wounds` give them with ``rules``.
    Raises :class:`~kassen.core.errors.IllegalActionError` (nothing changes) when the attacker or target
    is Incapacitated (SG.INP.1) or a Fate use is illegal (SG.FAT.1, SG.FAT.2).
    """
    r = rules or load_resolution()
    _validate(attacker, target, action, r, grades)
    tech = action.technique
    log = _Log()

    if action.modifier is not None:
        modifier = action.modifier
        log.step(modifier, S_("attack modifier (given)"), "SG.CHK.1")
    else:
        modifier, mod_steps = attack_modifier(attacker, tech)
        log.steps.extend(mod_steps)
    log.steps.extend(defense.steps)
    log.step(defense.defense, S_("{name}'s Defense", name=target.name), "SG.CHK.1")

    attacker_after, rolled = attacker, faces
    if action.fate_die is not None:
        shift = fate_intervention(faces, attacker, die=action.fate_die, rules=r)
        faces, attacker_after = shift.faces_after, shift.user
        log.steps.extend(shift.steps)
        log.events.extend(shift.events)

    if checks is not None:
        check, kind = checks(faces, modifier, defense.defense)
    else:
        check = resolve_check(faces, modifier, defense.defense, sides=r.check.sides)
        kind = classify(check, kind=CheckKind.ATTACK, rules=r)
    log.steps.extend(check.steps + kind.steps)
    outcome = _FROM_CHECK[kind.outcome]
    log.event(
        "attack_check",
        {
            "attacker": attacker.key,
            "target": target.key,
            "faces": list(faces),
            "modifier": modifier,
            "total": check.total,
            "defense": defense.defense,
            "outcome": outcome.value,
        },
        "SG.CHK.1",
    )

    before = current_wounds(target, grades)
    blow = _blow(tech, outcome, action, r, log, blows) if outcome.hit else _NO_BLOW

    target_after = target
    if action.last_bastion:
        lb = last_bastion(target, wounds_before=before, reduction=blow.wounds, rules=r)
        target_after = lb.user
        log.steps.extend(lb.steps)
        log.events.extend(lb.events)
        outcome, blow = AttackOutcome.MISS, _NO_BLOW

    after, fell = before, False
    if outcome.hit:
        change = _land(target_after, blow, outcome, r, grades, log)
        target_after, after, fell = change.profile, change.after, change.incapacitated
        stated = _stated(tech, outcome, kind.heavenly_mandate, fell, r)
        target_after = _break(attacker, target_after, action, defense, defense_rules, log, stated)
    elif outcome is AttackOutcome.MISS:
        log.event("miss", {"target": target.key}, "SG.CHK.1")

    table: TableResult | None = None
    if outcome is AttackOutcome.CRITICAL and kind.heavenly_mandate:
        table = _consult(r.decisive_moment, "decisive_moment", "SG.CRT.4", table_dice)
    if outcome is AttackOutcome.FUMBLE:
        attacker_after = _fumble(attacker_after, action, r, defense_rules, log)
        if kind.karmic_retribution:
            table = _consult(r.critical_mistake, "critical_mistake", "SG.FUM.3", table_dice)
    pending: tuple[TableEffect, ...] = ()
    hit_wounds = blows(tech, False)[0] if blows is not None else hit_wounds_of(tech, r)
    if table is not None:
        log.step(
            table.roll,
            S_("d100 {roll}: {name}: {effect}", roll=table.roll, name=table.name, effect=table.effect),
            table.rule,
        )
        log.event(table.table, table.to_json(), table.rule)
        assert table.row is not None
        applied = RowApplied(attacker_after, target_after, hit_wounds, attacker.weapon_grade)
        pending = applied.row(table.row, table.rule, r, defense_rules, grades, log.steps, log.events)
        attacker_after, target_after = applied.attacker, applied.target
        if target_after.wounds is not None and target_after.wounds != after:
            after = target_after.wounds
            fell = fell or (before > 0 and after == 0)

    return AttackResult(
        attacker=attacker_after,
        target=target_after,
        technique=tech,
        defense=defense.defense,
        defense_steps=tuple(defense.steps),
        faces_rolled=rolled,
        check=check,
        outcome=outcome,
        wounds_before=before,
        wounds_after=after,
        incapacitated=fell,
        wounds_behind=blow.behind,
        table=table,
        events=tuple(log.events),
        steps=tuple(log.steps),
        pending=pending,
        bleeds=blow.bleeds and outcome.hit and not fell,
        hit_wounds=hit_wounds,
    )


def hit_wounds_of(tech: Technique, rules: ResolutionRules) -> int:
    """What the technique's plain hit reduces (SG.WND.1, SG.WND.3)."""
    return hit_wounds(tech, rules)[0]


def _stated(
    tech: Technique, outcome: AttackOutcome, heavenly: bool, fell: bool, r: ResolutionRules
) -> tuple[StatedBreak, str] | None:
    """The weapon's stated [Pierce N] + [Break] when this blow fires it (SG.BRK.4), with the blow's name:
    on a hit, on a Critical Hit, or on a decisive blow as ``stated_break.decisive_blow`` reads it."""
    sb = tech.stated_break
    if sb is None or not outcome.hit:
        return None
    critical = outcome is AttackOutcome.CRITICAL
    reading = r.stated_break.decisive_blow
    if reading is DecisiveBlow.HEAVENLY_MANDATE:
        decisive, blow = critical and heavenly, "a decisive blow (Heavenly Mandate)"
    elif reading is DecisiveBlow.CRITICAL:
        decisive, blow = critical, "a decisive blow (a Critical Hit)"
    else:
        decisive, blow = fell, "a decisive blow (it fells the target)"
    if not break_triggers(sb.trigger, hit=True, critical=critical, decisive=decisive):
        return None
    if sb.trigger is BreakTrigger.ON_CRITICAL:
        blow = "a Critical Hit"
    elif sb.trigger is BreakTrigger.ON_HIT:
        blow = "a hit"
    return sb, blow


def _break(
    attacker: CombatProfile,
    target: CombatProfile,
    action: Attack,
    defense: DefenseLike,
    defense_rules: DefenseRules | None,
    log: _Log,
    stated: tuple[StatedBreak, str] | None = None,
) -> CombatProfile:
    """A hit with [Break] leaves its paired [Pierce] on the target's armor until repaired, when the
    executing grade is at least the armor's (SG.BRK.1-3). A weapon's stated [Pierce N] + [Break] that
    this blow fires (``stated``, SG.BRK.4) comes after the check: its [Pierce N] cannot change a check
    already made, so what it does is the armor it breaks — N points, or the attack's own [Pierce] with a
    [Break] if that took more (one blow, one reduction kept)."""
    removed = defense.pierce_removed if action.attack_tags.break_ else 0
    grade = attacker.weapon_grade
    source: dict[str, str] = {}
    if stated is not None:
        sb, blow = stated
        log.step(
            sb.pierce,
            S_(
                "{source} on {blow}: [Pierce {pierce}] + [Break]",
                source=sb.source,
                blow=blow,
                pierce=sb.pierce,
            ),
            "SG.BRK.4",
        )
        said = (
            S_("{source} on a Critical Hit", source=sb.source)
            if blow == "a Critical Hit"
            else S_("{source} on a hit", source=sb.source)
        )
        source = {"source": said}
        if sb.pierce > removed:
            removed, grade = sb.pierce, sb.grade
    if removed <= 0:
        return target
    broken, steps = apply_break(grade, target, removed, rules=defense_rules)
    log.steps.extend(steps)
    if broken.armor_damage == target.armor_damage:
        log.event("armor_holds", {"unit": target.key, "why": steps[-1].reason, **source}, steps[-1].rule)
        return target
    log.event(
        "armor_broken",
        {
            "unit": target.key,
            "armor_damage": broken.armor_damage,
            "lost": broken.armor_damage - target.armor_damage,
            **source,
        },
        "SG.BRK.2",
    )
    return broken


def stated_break_on(
    attacker: CombatProfile,
    target: CombatProfile,
    tech: Technique,
    *,
    critical: bool,
    fell: bool,
    rules: ResolutionRules,
    defense_rules: DefenseRules | None = None,
) -> tuple[CombatProfile, tuple[Event, ...], tuple[Step, ...]]:
    """The weapon's stated [Pierce N] + [Break] on a blow that had no check (an [Ambush]'s automatic
    Critical Hit, SG.AMB.2): it fires as on a checked blow (SG.BRK.4; no double, so never a Heavenly
    Mandate). The target after, and the events and steps it made (none when it does not fire)."""
    outcome = AttackOutcome.CRITICAL if critical else AttackOutcome.HIT
    stated = _stated(tech, outcome, False, fell, rules)
    if stated is None:
        return target, (), ()
    log = _Log()
    plain = Attack(tech, tags=AttackTags())
    after = _break(attacker, target, plain, FixedDefense(0), defense_rules, log, stated)
    return after, tuple(log.events), tuple(log.steps)


def roll_attack(
    attacker: CombatProfile,
    target: CombatProfile,
    action: Attack,
    defense: DefenseLike,
    dice: DieSource,
    *,
    rules: ResolutionRules | None = None,
    grades: GradeTable | None = None,
    defense_rules: DefenseRules | None = None,
) -> AttackResult:
    """Roll the two d10 (then a d100 if a table is consulted) from ``dice`` and resolve."""
    r = rules or load_resolution()
    faces = roll_faces(dice, sides=r.check.sides)
    return resolve_attack(
        attacker,
        target,
        action,
        defense,
        faces,
        table_dice=dice,
        rules=r,
        grades=grades,
        defense_rules=defense_rules,
    )


def attack(
    attacker: CombatProfile,
    target: CombatProfile,
    action: Attack,
    rng: DieSource,
    *,
    rules: ResolutionRules | None = None,
    grades: GradeTable | None = None,
    defense_rules: DefenseRules | None = None,
) -> AttackResult:
    """One whole attack: the target's Defense against the attack's tags
    (:func:`~kassen.sengoku.defense.compute_defense`, SG.DEF.5), then the roll and its resolution.

    ``rng`` is the one injected random source (an :class:`~kassen.core.rng.Rng`): two d10, then a d100
    only if a table is consulted. A target immune to the attack (a Licensed or higher exorcist against
    [Incorporeal], SG.INC.2) cannot be affected: IllegalActionError, nothing rolled.

    >>> from kassen.core.rng import Rng
    >>> from kassen.sengoku.profile import ArmorKind
    >>> from kassen.sengoku.technique import technique
    >>> oni = CombatProfile(name="Oni", armor=ArmorKind.HEAVY)
    >>> r = attack(CombatProfile(name="Kuro"), oni, Attack(technique("thrust"), modifier=5), Rng(7))
    >>> r.defense  # heavy armor 14, [Pierce 2] → 12 (SG.PRC.5)
    12
    """
    d = compute_defense(target, action.attack_tags, rules=defense_rules, grades=grades)
    if d.immune:
        raise IllegalActionError(
            S_("{name} is immune to this attack: no check is rolled", name=target.name), rule="SG.INC.2"
        )
    return roll_attack(
        attacker, target, action, d, rng, rules=rules, grades=grades, defense_rules=defense_rules
    )
