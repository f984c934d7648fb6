"""Wounds: what a hit and a Critical Hit reduce, added Wound effects, Incapacitated, a Lord's fall.

There are no hit points: a unit has Wounds, a hit reduces 1 (SG.WND.1), a Critical Hit 2 (SG.WND.2),
special attacks as they state (SG.WND.3); added Wound effects (critical, weakness, divine item) are extra
reduction after the check that never touches Defense (SG.WND.6); Wounds never go below 0, and 0 means
Incapacitated (SG.WND.4, SG.INP.1). A Lord's fall costs squads Cohesion (SG.INP.2, SG.RD.9).
"""

from __future__ import annotations

__all__ = [
    "AddedWound",
    "Squad",
    "WoundsChange",
    "apply_wounds",
    "critical_wounds",
    "current_wounds",
    "hit_wounds",
    "is_incapacitated",
    "lord_fall",
    "max_wounds",
]

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.grades import GradeTable, load_grades
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import CriticalReading, LordFallScope, ResolutionRules, load_resolution
from kassen.sengoku.technique import Technique


def max_wounds(profile: CombatProfile, grades: GradeTable | None = None) -> int:
    """The profile's maximum Wounds, or its grade's from the grade table (SG.WND.5 house default)."""
    if profile.wounds_max is not None:
        return profile.wounds_max
    return (grades or load_grades()).row(profile.grade).wounds


def current_wounds(profile: CombatProfile, grades: GradeTable | None = None) -> int:
    """Wounds left: ``profile.wounds``, or the maximum when it was never set."""
    return profile.wounds if profile.wounds is not None else max_wounds(profile, grades)


def is_incapacitated(profile: CombatProfile, grades: GradeTable | None = None) -> bool:
    """Wounds 0 → Incapacitated: cannot act, removed from the zone (SG.WND.4, SG.INP.1)."""
    return current_wounds(profile, grades) <= 0


def hit_wounds(tech: Technique, rules: ResolutionRules | None = None) -> tuple[int, tuple[Step, ...]]:
    """Wounds of a hit with ``tech``: the base hit (1, SG.WND.1) unless the weapon or technique states
    its own (2 or more, SG.WND.3)."""
    base = (rules or load_resolution()).wounds.hit
    if tech.wounds is None or tech.wounds == base:
        return base, (Step(base, S_("hit: {base} Wound (base)", base=base), "SG.WND.1"),)
    n = tech.wounds
    return n, (Step(n, S_("hit with {name}: {n} Wounds (its own)", name=tech.name, n=n), "SG.WND.3"),)


def critical_wounds(tech: Technique, rules: ResolutionRules | None = None) -> tuple[int, tuple[Step, ...]]:
    """Wounds of a Critical Hit with ``tech`` (SG.CRT.1, SG.WND.2).

    A weapon that states its own critical (nodachi 3, teppo 2) uses it (SG.CRT.2). Otherwise the SG.RD.1
    reading in ``rules``: ``plus_one`` (house default) adds ``critical - hit`` (1) to the technique's
    Wounds; ``double`` doubles them; ``flat`` gives ``critical`` (2), never less than the hit itself.
    """
    w = (rules or load_resolution()).wounds
    if tech.critical_wounds is not None:
        n = tech.critical_wounds
        return n, (
            Step(
                n,
                S_("Critical Hit with {name}: {n} Wounds (the weapon's own)", name=tech.name, n=n),
                "SG.CRT.2",
            ),
        )
    if tech.wounds is None or tech.wounds == w.hit:
        return w.critical, (
            Step(w.critical, S_("Critical Hit: {critical} Wounds", critical=w.critical), "SG.CRT.1"),
        )
    own = tech.wounds
    reading = w.critical_reading
    if reading is CriticalReading.PLUS_ONE:
        n = own + (w.critical - w.hit)
        reason = S_(
            "Critical Hit: {own} + {value} Wound(s) added after the check", own=own, value=w.critical - w.hit
        )
    elif reading is CriticalReading.DOUBLE:
        factor = w.critical // max(w.hit, 1)
        n = own * factor
        reason = S_("Critical Hit: {own} x {factor} Wounds", own=own, factor=factor)
    else:
        n = max(w.critical, own)
        reason = S_(
            "Critical Hit: flat {critical} Wounds, never less than the hit ({own})",
            critical=w.critical,
            own=own,
        )
    return n, (Step(n, S_("{reason} (reading {value})", reason=reason, value=reading.value), "SG.RD.1"),)


@dataclass(frozen=True, slots=True)
class AddedWound:
    """An added Wound effect (critical, weakness, divine item): extra reduction applied after the check,
    only on a hit; it never changes Defense (SG.WND.6)."""

    wounds: int
    source: str = "added effect"


@fast_init
@dataclass(frozen=True, slots=True)
class WoundsChange:
    """Wounds before and after a reduction, the updated profile, and what followed (Incapacitated)."""

    profile: CombatProfile
    before: int
    after: int
    incapacitated: bool
    events: tuple[Event, ...]
    steps: tuple[Step, ...]

    @property
    def lost(self) -> int:
        return self.before - self.after

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.profile.key,
            "before": self.before,
            "after": self.after,
            "incapacitated": self.incapacitated,
            "events": [e.to_json() for e in self.events],
            "steps": steps_to_json(self.steps),
        }


def apply_wounds(
    target: CombatProfile,
    amount: int,
    *,
    rules: ResolutionRules | None = None,
    grades: GradeTable | None = None,
    rule: str = "SG.WND.1",
) -> WoundsChange:
    """Reduce ``target``'s Wounds by ``amount`` (never below 0). Reaching 0 makes it Incapacitated
    (SG.WND.4, SG.INP.1); a Lord reaching 0 costs squads Cohesion (SG.INP.2): a ``cohesion_loss`` event
    for its faction, applied to squads by :func:`lord_fall`. ``rule`` is the ID the reduction comes from
    (SG.WND.1 hit, SG.WND.2 Critical Hit, SG.WND.3 special technique)."""
    before = current_wounds(target, grades)
    after = max(0, before - max(0, amount))
    steps = [
        Step(
            after,
            S_("Wounds {before} - {amount} = {after}", before=before, amount=amount, after=after)
            if before - amount >= 0
            else S_(
                "Wounds {before} - {amount} = {after} (never below 0)",
                before=before,
                amount=amount,
                after=after,
            ),
            rule,
        )
    ]
    events = [Event("wounds_lost", {"unit": target.key, "before": before, "after": after}, rule)]
    fell = before > 0 and after == 0
    if fell:
        steps.append(
            Step(
                0,
                S_("{name} is Incapacitated: cannot act, removed from the zone", name=target.name),
                "SG.INP.1",
            )
        )
        events.append(Event("incapacitated", {"unit": target.key}, "SG.WND.4", automatic=True))
        if target.grade is Grade.LORD:
            lf = (rules or load_resolution()).lord_fall
            steps.append(
                Step(
                    -lf.cohesion_loss,
                    S_(
                        "a Lord has fallen: squads of {value} lose {cohesion_loss} Cohesion ({scope})",
                        value=target.faction or "its faction",
                        cohesion_loss=lf.cohesion_loss,
                        scope=lf.scope.value,
                    ),
                    "SG.INP.2",
                )
            )
            events.append(
                Event(
                    "cohesion_loss",
                    {"faction": target.faction, "amount": lf.cohesion_loss, "scope": lf.scope.value},
                    "SG.INP.2",
                    automatic=True,
                )
            )
    return WoundsChange(replace(target, wounds=after), before, after, fell, tuple(events), tuple(steps))


@dataclass(frozen=True, slots=True)
class Squad:
    """The least of a squad that a Lord's fall needs: its name, faction and Cohesion (the squad rules
    themselves are a gap, SG.RET.5)."""

    name: str
    faction: str
    cohesion: int


def lord_fall(
    lord: CombatProfile,
    squads: Sequence[Squad],
    *,
    led: str | None = None,
    rules: ResolutionRules | None = None,
) -> tuple[tuple[Squad, ...], tuple[Step, ...]]:
    """Squads after ``lord`` falls (SG.INP.2): with the house reading ``faction`` every squad of the
    Lord's faction loses ``cohesion_loss``; with ``one_squad`` only the squad named ``led`` (or, if none is
    named, the faction's first squad) does (SG.RD.9). Cohesion stops at 0. Other factions are untouched.
    """
    lf = (rules or load_resolution()).lord_fall
    if lord.grade is not Grade.LORD:
        return tuple(squads), ()
    ours = [s for s in squads if s.faction == lord.faction]
    if lf.scope is LordFallScope.ONE_SQUAD and ours:
        chosen = next((s for s in ours if s.name == led), ours[0])
        ours = [chosen]
    hit = {id(s) for s in ours}
    out: list[Squad] = []
    steps: list[Step] = []
    for s in squads:
        if id(s) in hit:
            new = max(0, s.cohesion - lf.cohesion_loss)
            out.append(replace(s, cohesion=new))
            steps.append(
                Step(
                    new,
                    S_(
                        "{name}: Cohesion {cohesion} - {cohesion_loss} (commander lost, {scope})",
                        name=s.name,
                        cohesion=s.cohesion,
                        cohesion_loss=lf.cohesion_loss,
                        scope=lf.scope.value,
                    ),
                    "SG.INP.2",
                )
            )
        else:
            out.append(s)
    return tuple(out), tuple(steps)
