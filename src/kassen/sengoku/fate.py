"""Fate Intervention (SG.FAT.1) and its Last Bastion (SG.FAT.2).

Fate points live on the profile (``CombatProfile.fate_points``); the Fate 運 *modifier*
(``attributes.fate``) is a different thing, read by the death check. Cost and shift size are a gap,
filled in ``resolution.yaml`` (``fate``: 1 point, 1 face; Last Bastion 1 point).

An illegal use raises :class:`~kassen.core.errors.IllegalActionError` naming the rule and changes
nothing (the functions are pure: they return a new profile, never touch the one given).

>>> from kassen.sengoku.profile import CombatProfile
>>> shift = fate_intervention((4, 5), CombatProfile(fate_points=2), die=1)
>>> shift.faces_after, shift.user.fate_points
((4, 4), 1)
"""

from __future__ import annotations

__all__ = ["FateShift", "LastBastion", "fate_intervention", "last_bastion"]

from dataclasses import dataclass
from typing import Any

from kassen.core.errors import IllegalActionError
from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.check import Faces
from kassen.sengoku.profile import CombatProfile
from kassen.sengoku.resolution import ResolutionRules, load_resolution


@dataclass(frozen=True, slots=True)
class FateShift:
    """A Fate Intervention: the faces before and after, the die moved (0 first, 1 second), the user
    after paying, and what it cost."""

    faces_before: Faces
    faces_after: Faces
    die: int
    user: CombatProfile
    cost: int
    events: tuple[Event, ...]
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "faces_before": list(self.faces_before),
            "faces_after": list(self.faces_after),
            "die": self.die,
            "cost": self.cost,
            "fate_points_left": self.user.fate_points,
            "steps": steps_to_json(self.steps),
        }


def _pay(user: CombatProfile, cost: int, purpose: str, rule: str) -> CombatProfile:
    if user.fate_points < cost:
        raise IllegalActionError(
            S_(
                "{name} has {fate_points} Fate point(s); {purpose} costs {cost}",
                name=user.name,
                fate_points=user.fate_points,
                purpose=purpose,
                cost=cost,
            ),
            rule=rule,
        )
    return replace(user, fate_points=user.fate_points - cost)


def fate_intervention(
    faces: Faces, user: CombatProfile, *, die: int, rules: ResolutionRules | None = None
) -> FateShift:
    """Spend Fate to move die ``die`` (0 = first, 1 = second) onto the other die's face, so the roll
    becomes a double (SG.FAT.1): 4-5 → 4-4 moving the second die. On a success that makes a Critical Hit
    (the caller re-resolves the check with :attr:`FateShift.faces_after`; the total changes too).

    Illegal (SG.FAT.1): a die other than 0 or 1, a roll that is already a double, a move larger than
    ``fate.max_shift`` faces, fewer Fate points than ``fate.intervention_cost``.
    """
    f = (rules or load_resolution()).fate
    if die not in (0, 1):
        raise IllegalActionError(
            S_("Fate Intervention moves die 0 or 1 of the check, not {die}", die=die), rule="SG.FAT.1"
        )
    if faces[0] == faces[1]:
        raise IllegalActionError(
            S_("the roll {faces}-{faces2} is already a double", faces=faces[0], faces2=faces[1]),
            rule="SG.FAT.1",
        )
    old, new = faces[die], faces[1 - die]
    shift = abs(old - new)
    if shift > f.max_shift:
        raise IllegalActionError(
            S_(
                "moving a die from {old} to {new} is a shift of {shift};"
                " Fate Intervention moves at most {max_shift}",
                old=old,
                new=new,
                shift=shift,
                max_shift=f.max_shift,
            ),
            rule="SG.FAT.1",
        )
    paid = _pay(user, f.intervention_cost, "Fate Intervention", "SG.FAT.1")
    after: Faces = (new, new)
    steps = (
        Step(
            new,
            S_(
                "Fate Intervention: die {die} moves {old} → {new}, the roll becomes double {face}s"
                " ({intervention_cost} Fate point)",
                die=die + 1,
                old=old,
                new=new,
                face=new,
                intervention_cost=f.intervention_cost,
            ),
            "SG.FAT.1",
        ),
    )
    events = (
        Event(
            "fate_spent",
            {
                "unit": user.key,
                "points": f.intervention_cost,
                "purpose": "intervention",
                "faces_before": list(faces),
                "faces_after": list(after),
            },
            "SG.FAT.1",
        ),
    )
    return FateShift(faces, after, die, paid, f.intervention_cost, events, steps)


@dataclass(frozen=True, slots=True)
class LastBastion:
    """Last Bastion: the user after paying, and the explanation (the hit check becomes a miss)."""

    user: CombatProfile
    cost: int
    events: tuple[Event, ...]
    steps: tuple[Step, ...]


def last_bastion(
    user: CombatProfile, *, wounds_before: int, reduction: int, rules: ResolutionRules | None = None
) -> LastBastion:
    """Spend Fate so that the hit check of an attack that would reduce ``user``'s Wounds to 0 misses
    (SG.FAT.2). ``wounds_before`` are the user's Wounds, ``reduction`` what the attack would take.

    Illegal (SG.FAT.2): the attack would leave the user above 0 Wounds (or the user is already at 0), or
    the user has fewer Fate points than ``fate.last_bastion_cost``.
    """
    f = (rules or load_resolution()).fate
    if not (wounds_before > 0 and wounds_before - reduction <= 0):
        raise IllegalActionError(
            S_(
                "Last Bastion only stops an attack that would reduce Wounds to 0;"
                " this one takes {reduction} of {name}'s {wounds_before}",
                reduction=reduction,
                name=user.name,
                wounds_before=wounds_before,
            ),
            rule="SG.FAT.2",
        )
    paid = _pay(user, f.last_bastion_cost, "Last Bastion", "SG.FAT.2")
    steps = (
        Step(
            wounds_before,
            S_(
                "Last Bastion: {name} spends {last_bastion_cost} Fate point, the fatal hit check misses",
                name=user.name,
                last_bastion_cost=f.last_bastion_cost,
            ),
            "SG.FAT.2",
        ),
    )
    events = (
        Event(
            "fate_spent",
            {"unit": user.key, "points": f.last_bastion_cost, "purpose": "last_bastion"},
            "SG.FAT.2",
        ),
    )
    return LastBastion(paid, f.last_bastion_cost, events, steps)
