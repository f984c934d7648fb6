"""What a d100 row does (SG.CRT.4 decisive moment, SG.FUM.3 critical mistake), as pure functions.

A row of ``resolution.yaml`` lists its ``effects`` (:class:`~kassen.sengoku.resolution.TableEffect`).
The effects on one unit's profile — Wounds, Incapacitated, Defenseless, Fate points, a [Break] on its
armor — are applied here by :func:`apply_effect`, which the attack resolution calls for the roller and
the target (so ``kassen sengoku attack`` and a battle apply them alike) and the battle calls for the
other units a row names (another enemy, the nearest ally). What a profile does not hold — Energy,
Cohesion, a weapon dropped or broken — only a battle can apply (:data:`PROFILE_KINDS` says which);
:func:`describe` says any effect in words, for the account and for the calculator that cannot apply it.

>>> from kassen.sengoku.profile import CombatProfile
>>> from kassen.sengoku.resolution import TableEffect, TableEffectKind, TableWho
>>> blow = TableEffect(kind=TableEffectKind.INCAPACITATE, who=TableWho.TARGET, lord_wounds=1)
>>> done = apply_effect(blow, CombatProfile(name="Oni", wounds=3, wounds_max=3), hit_wounds=1)
>>> done.profile.wounds, done.text
(0, 'Oni is Incapacitated at once')
"""

from __future__ import annotations

__all__ = [
    "EQUIPMENT_KINDS",
    "PROFILE_KINDS",
    "EffectDone",
    "RowApplied",
    "apply_effect",
    "describe",
    "reaches_the_fallen",
]

from dataclasses import dataclass

from kassen.core.events import Event
from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.breakage import apply_break
from kassen.sengoku.defense import DefenseRules
from kassen.sengoku.defenseless import make_defenseless
from kassen.sengoku.grades import GradeTable
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import (
    ResolutionRules,
    TableEffect,
    TableEffectKind,
    TableRow,
    TableWho,
    load_resolution,
)
from kassen.sengoku.wounds import WoundsChange, apply_wounds, current_wounds

#: The effect kinds a unit's profile holds, applied by :func:`apply_effect`; the others (Energy,
#: Cohesion, weapons) are the battle's to apply.
PROFILE_KINDS = frozenset(
    {
        TableEffectKind.WOUNDS,
        TableEffectKind.INCAPACITATE,
        TableEffectKind.DEFENSELESS,
        TableEffectKind.FATE,
        TableEffectKind.BREAK_ARMOR,
    }
)

#: The effect kinds on a unit's gear, not its body: they reach a unit already Incapacitated when the
#: resolution's ``fallen.equipment_takes_effect`` says so.
EQUIPMENT_KINDS = frozenset(
    {TableEffectKind.BREAK_ARMOR, TableEffectKind.DROP_WEAPON, TableEffectKind.BREAK_WEAPON}
)

_WHO = {
    TableWho.ATTACKER: S_("the roller"),
    TableWho.TARGET: S_("the target"),
    TableWho.ANOTHER_ENEMY: S_("another enemy in the target's zone"),
    TableWho.NEAREST_ALLY: S_("the nearest ally in the roller's zone"),
    TableWho.ENEMY_SQUADS: S_("every enemy squad in the target's zone"),
}


def describe(effect: TableEffect, who: str | None = None, *, hit_wounds: int = 1) -> str:
    """``effect`` in words, on ``who`` (a name) or on whom the row names."""
    w = who or _WHO[effect.who]
    n = effect.amount
    k = effect.kind
    if k is TableEffectKind.ENERGY:
        if n > 0:
            return S_("{who} regains {n} Energy", who=w, n=abs(n))
        return S_("{who} loses {n} Energy", who=w, n=abs(n))
    if k is TableEffectKind.FATE:
        if n > 0:
            return S_("{who} gains {n} Fate point(s)", who=w, n=abs(n))
        return S_("{who} loses {n} Fate point(s)", who=w, n=abs(n))
    if k is TableEffectKind.COHESION:
        if n > 0:
            return S_("{who} gains {n} Cohesion", who=w, n=abs(n))
        return S_("{who} loses {n} Cohesion", who=w, n=abs(n))
    if k is TableEffectKind.DEFENSELESS:
        return S_("{who} becomes Defenseless", who=w)
    if k is TableEffectKind.WOUNDS:
        return S_("{who} loses {n} Wound(s)", who=w, n=n or hit_wounds)
    if k is TableEffectKind.INCAPACITATE:
        if effect.lord_wounds:
            return S_(
                "{who} is Incapacitated at once (a Lord loses {n} more Wound(s) instead)",
                who=w,
                n=effect.lord_wounds,
            )
        return S_("{who} is Incapacitated at once", who=w)
    if k is TableEffectKind.BREAK_ARMOR:
        return S_("{who}'s armor takes [Pierce {n}] + [Break]", who=w, n=n)
    if k is TableEffectKind.DROP_WEAPON:
        return S_("{who}'s weapon falls: picking it up costs {n} Energy", who=w, n=n)
    return S_("{who}'s weapon breaks for the rest of the combat", who=w)


@dataclass(frozen=True, slots=True)
class EffectDone:
    """One effect applied to one profile: the profile after, what it did in words, its Wounds change
    (when it touched Wounds), and its events and steps."""

    profile: CombatProfile
    text: str
    change: WoundsChange | None
    events: tuple[Event, ...]
    steps: tuple[Step, ...]


def apply_effect(
    effect: TableEffect,
    unit: CombatProfile,
    *,
    hit_wounds: int,
    executing_grade: str = "ordinary",
    rule: str = "SG.CRT.4",
    rules: ResolutionRules | None = None,
    defense_rules: DefenseRules | None = None,
    grades: GradeTable | None = None,
) -> EffectDone:
    """Apply one of :data:`PROFILE_KINDS` to ``unit`` (whoever the row named: the caller found it).

    ``hit_wounds`` is what the attack's hit reduces (a ``wounds`` effect of amount 0 takes that many, a
    Friendly Blow); ``executing_grade`` is the attacker's weapon grade for a [Break] (SG.BRK.2-3).
    """
    r = rules or load_resolution()
    k = effect.kind
    if k not in PROFILE_KINDS:
        raise ValueError(f"a {k.value} effect is not on a profile: the battle applies it")
    name = unit.name
    change: WoundsChange | None = None
    steps: tuple[Step, ...] = ()
    events: list[Event] = []
    after = unit
    if k is TableEffectKind.WOUNDS:
        n = effect.amount or hit_wounds
        change = apply_wounds(unit, n, rules=r, grades=grades, rule=rule)
        after, steps = change.profile, change.steps
        text = S_("{name} loses {n} Wound(s)", name=name, n=n)
    elif k is TableEffectKind.INCAPACITATE:
        now = current_wounds(unit, grades)
        lord = unit.grade is Grade.LORD and effect.lord_wounds is not None
        n = effect.lord_wounds if lord and effect.lord_wounds is not None else now
        change = apply_wounds(unit, n, rules=r, grades=grades, rule=rule)
        after, steps = change.profile, change.steps
        text = (
            S_("{name}, a Lord, loses {n} more Wound(s)", name=name, n=n)
            if lord
            else S_("{name} is Incapacitated at once", name=name)
        )
    elif k is TableEffectKind.DEFENSELESS:
        after, steps = make_defenseless(unit, rules=defense_rules)
        text = (
            S_("{name} becomes Defenseless", name=name)
            if not unit.defenseless
            else S_("{name} is already Defenseless", name=name)
        )
    elif k is TableEffectKind.FATE:
        after = replace(unit, fate_points=max(0, unit.fate_points + effect.amount))
        # what the row does, not the count it leaves: how many Fate points a unit has is its own side's
        # to know (the house visibility table), and this line is read by every side
        n = effect.amount
        text = (
            S_("{name} gains {n} Fate point(s)", name=name, n=n)
            if n > 0
            else S_("{name} loses {n} Fate point(s), if any", name=name, n=-n)
        )
    else:
        after, steps = apply_break(executing_grade, unit, effect.amount, rules=defense_rules)
        lost = after.armor_damage - unit.armor_damage
        text = (
            S_("{name}'s armor loses {lost} point(s) until repaired", name=name, lost=lost)
            if lost
            else S_("{name}'s armor holds ({reason})", name=name, reason=steps[-1].reason)
        )
    events.append(Event("table_effect", {"unit": unit.key, "effect": k.value, "text": text}, rule))
    if change is not None:
        events.extend(change.events)
    return EffectDone(after, text, change, tuple(events), tuple(steps))


def reaches_the_fallen(kind: TableEffectKind, r: ResolutionRules) -> bool:
    """Whether a d100 effect still happens to a unit already Incapacitated: Fate points always, its gear
    (armor [Break], a weapon dropped or broken) as ``fallen.equipment_takes_effect`` reads it."""
    if kind is TableEffectKind.FATE:
        return True
    return kind in EQUIPMENT_KINDS and r.fallen.equipment_takes_effect


class RowApplied:
    """A d100 row's effects on the roller and the target (:func:`apply_effect`), as the attack
    resolution applies them; the rest is returned for the battle."""

    def __init__(self, attacker: CombatProfile, target: CombatProfile, hit: int, grade: str) -> None:
        self.attacker, self.target, self.hit, self.grade = attacker, target, hit, grade

    def row(
        self,
        row: TableRow,
        rule: str,
        r: ResolutionRules,
        defense_rules: DefenseRules | None,
        grades: GradeTable | None,
        steps: list[Step],
        events: list[Event],
    ) -> tuple[TableEffect, ...]:
        """Apply ``row``'s effects on the roller and the target, adding their ``steps`` and ``events``;
        the others are returned for the battle."""
        pending: list[TableEffect] = []
        for e in row.effects:
            if e.kind not in PROFILE_KINDS or e.who not in (TableWho.ATTACKER, TableWho.TARGET):
                pending.append(e)
                continue
            on_target = e.who is TableWho.TARGET
            unit = self.target if on_target else self.attacker
            if unit.wounds == 0 and not reaches_the_fallen(e.kind, r):
                # the blow (or a Self-Injury) already felled it: the row says so (SG.INP.1)
                what = describe(e, unit.name, hit_wounds=self.hit)
                text = S_(
                    "{what}: {name} is already Incapacitated, so it does nothing", what=what, name=unit.name
                )
                events.append(
                    Event("table_effect", {"unit": unit.key, "effect": e.kind.value, "text": text}, rule)
                )
                continue
            done = apply_effect(
                e,
                unit,
                hit_wounds=self.hit,
                executing_grade=self.grade,
                rule=rule,
                rules=r,
                defense_rules=defense_rules,
                grades=grades,
            )
            steps.extend(done.steps)
            events.extend(done.events)
            if on_target:
                self.target = done.profile
            else:
                self.attacker = done.profile
        return tuple(pending)
