"""The death check after combat (SG.INP.3): 2d10 + the higher of Physique or Fate >= 11 survives.

What "serious injury" means afterwards (and "Bleed") is a gap, filled with house-default text in
``resolution.yaml`` (``death_check``).

>>> from kassen.sengoku.profile import Attributes, CombatProfile
>>> fallen = CombatProfile(name="Genzaburo", wounds=0, attributes=Attributes(physique=2, fate=1))
>>> resolve_death_check((4, 5), fallen).survives
True
>>> death_check_odds(2)
Fraction(18, 25)
"""

from __future__ import annotations

__all__ = ["DeathCheck", "death_check", "death_check_modifier", "death_check_odds", "resolve_death_check"]

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kassen.core.errors import IllegalActionError
from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.core.memo import Memo
from kassen.i18n import S_
from kassen.sengoku.check import (
    CheckKind,
    CheckResult,
    DieSource,
    DoublesPolicy,
    Faces,
    classify,
    resolve_check,
    roll_faces,
)
from kassen.sengoku.grades import GradeTable
from kassen.sengoku.profile import Attributes, CombatProfile
from kassen.sengoku.resolution import ResolutionRules, load_resolution
from kassen.sengoku.wounds import is_incapacitated


@dataclass(frozen=True, slots=True)
class DeathCheck:
    """A death check: the roll, whether the unit survives, and what that means (house-default text)."""

    unit: str
    check: CheckResult
    survives: bool
    outcome: str
    effect: str
    events: tuple[Event, ...]
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "check": self.check.to_json(),
            "survives": self.survives,
            "outcome": self.outcome,
            "effect": self.effect,
            "steps": steps_to_json(self.steps),
        }


def death_check_modifier(profile: CombatProfile) -> tuple[int, Step]:
    """The higher of Physique and Fate (the modifiers, SG.INP.3), less a serious injury's penalty."""
    a = profile.attributes
    p = profile.check_penalty
    fate, physique, penalty = f"{a.fate:+d}", f"{a.physique:+d}", f"{-p:+d}"
    if a.fate > a.physique:
        why = (
            S_(
                "Fate {fate} (higher than Physique {physique}); serious injury {penalty}",
                fate=fate,
                physique=physique,
                penalty=penalty,
            )
            if p
            else S_("Fate {fate} (higher than Physique {physique})", fate=fate, physique=physique)
        )
        return a.fate - p, Step(a.fate - p, why, "SG.INP.3")
    why = (
        S_(
            "Physique {physique} (Fate {fate}); serious injury {penalty}",
            physique=physique,
            fate=fate,
            penalty=penalty,
        )
        if p
        else S_("Physique {physique} (Fate {fate})", physique=physique, fate=fate)
    )
    return a.physique - p, Step(a.physique - p, why, "SG.INP.3")


def resolve_death_check(
    faces: Faces,
    profile: CombatProfile,
    *,
    rules: ResolutionRules | None = None,
    grades: GradeTable | None = None,
) -> DeathCheck:
    """Resolve the death check of an Incapacitated unit from the two faces (SG.INP.3).

    Only a unit at 0 Wounds makes it (IllegalActionError otherwise). Doubles change nothing unless the
    SG.RD.4 scope is ``every_check``; then a Fumble dies whatever the total and a critical survives.
    """
    r = rules or load_resolution()
    if not is_incapacitated(profile, grades):
        raise IllegalActionError(
            S_("{name} is not Incapacitated: only a fallen unit makes a death check", name=profile.name),
            rule="SG.INP.3",
        )
    dc = r.death_check
    modifier, mod_step = death_check_modifier(profile)
    check = resolve_check(faces, modifier, dc.target, sides=r.check.sides)
    kind = classify(check, kind=CheckKind.DEATH, rules=r)
    survives = kind.outcome.succeeded
    if survives:
        outcome, effect = dc.serious_injury.name, dc.serious_injury.effect
        reason = S_(
            "{total} >= {target}: survives with {name}",
            total=check.total,
            target=dc.target,
            name=dc.serious_injury.name.lower(),
        )
    else:
        outcome, effect = "dies", S_("{name} dies of their wounds.", name=profile.name)
        reason = (
            S_("{total} < {target}: dies", total=check.total, target=dc.target)
            if not check.success
            else S_("a Fumble: dies")
        )
    steps = (mod_step, *check.steps, *kind.steps, Step(check.total, reason, "SG.INP.3"))
    events = (
        Event(
            "death_check",
            {
                "unit": profile.key,
                "faces": list(faces),
                "total": check.total,
                "survives": survives,
                "outcome": outcome,
            },
            "SG.INP.3",
            automatic=True,
        ),
    )
    return DeathCheck(profile.name, check, survives, outcome, effect, events, steps)


def death_check(
    profile: CombatProfile,
    dice: DieSource,
    *,
    rules: ResolutionRules | None = None,
    grades: GradeTable | None = None,
) -> DeathCheck:
    """Roll the death check after combat (SG.INP.3)."""
    r = rules or load_resolution()
    return resolve_death_check(roll_faces(dice, sides=r.check.sides), profile, rules=r, grades=grades)


def death_check_odds(modifier: int, *, rules: ResolutionRules | None = None) -> Fraction:
    """Exact chance of surviving the death check with ``modifier`` (the higher of Physique or Fate):
    every one of the equally likely rolls through :func:`resolve_death_check`, the function the check
    is resolved with (one chance rule), remembered by what the outcome depends on."""
    r = rules or load_resolution()
    key = (modifier, r.death_check.target, r.check.sides, DoublesPolicy.from_rules(r))
    found = _SURVIVAL.get(key)
    if found is None:
        fallen = CombatProfile(name="unit", wounds=0, attributes=Attributes(physique=modifier, fate=modifier))
        pairs = _pairs(r.check.sides)
        wins = sum(resolve_death_check(faces, fallen, rules=r).survives for faces in pairs)
        found = _SURVIVAL.put(key, Fraction(wins, len(pairs)))
    return found


#: Survival chances by (modifier, target, sides, doubles readings): bounded, keyed by value.
_SURVIVAL: Memo[tuple[int, int, int, DoublesPolicy], Fraction] = Memo(1024)


def _pairs(sides: int) -> list[Faces]:
    return [(a, b) for a in range(1, sides + 1) for b in range(1, sides + 1)]
