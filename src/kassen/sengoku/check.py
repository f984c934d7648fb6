"""Sengoku checks: 2d10 + modifier against a target number, doubles, Critical Hit and Fumble triggers.

Resolving is separate from rolling: :func:`resolve_check` is a pure function of the two faces, so tests,
the odds calculator and a GM replaying table dice all go through the same code; :func:`roll_check` only
draws the faces from a :class:`DieSource` (an :class:`~kassen.core.rng.Rng`, or :class:`ScriptedDice`).

>>> c = resolve_check((4, 4), modifier=3, target=11)
>>> c.total, c.success, c.double
(11, True, True)
>>> classify(c).outcome
<CheckOutcome.CRITICAL: 'critical'>
"""

from __future__ import annotations

__all__ = [
    "CheckKind",
    "CheckOutcome",
    "CheckResult",
    "Classified",
    "DieSource",
    "DoublesPolicy",
    "Faces",
    "OpposedResult",
    "ScriptedDice",
    "TieRule",
    "classify",
    "resolve_check",
    "resolve_opposed",
    "roll_check",
    "roll_faces",
    "roll_opposed",
]

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kassen.core.errors import KassenError
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastinit import fast_init
from kassen.core.rng import DieSource, ScriptedDice
from kassen.i18n import S_
from kassen.sengoku.resolution import (
    DoubleOneSuccess,
    DoublesScope,
    DoubleTenFailure,
    ResolutionRules,
    load_resolution,
)

#: The two faces of a 2d10 check, in the order rolled.
Faces = tuple[int, int]


class CheckKind(StrEnum):
    """What a check is for; doubles count only where SG.RD.4's scope says so."""

    ATTACK = "attack"
    DEATH = "death"
    COHESION = "cohesion"
    PURSUIT = "pursuit"
    OTHER = "other"


class CheckOutcome(StrEnum):
    CRITICAL = "critical"
    SUCCESS = "success"
    FAILURE = "failure"
    FUMBLE = "fumble"

    @property
    def succeeded(self) -> bool:
        return self in (CheckOutcome.CRITICAL, CheckOutcome.SUCCESS)


@fast_init
@dataclass(frozen=True, slots=True)
class CheckResult:
    """A resolved check: ``total = faces + modifier``, ``success = total >= target`` (SG.CHK.1), and
    ``double`` when both d10 show the same face (SG.CHK.2)."""

    faces: Faces
    modifier: int
    target: int
    total: int
    success: bool
    double: bool
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "modifier": self.modifier,
            "target": self.target,
            "total": self.total,
            "success": self.success,
            "double": self.double,
            "steps": steps_to_json(self.steps),
        }


def _check_faces(faces: Faces, sides: int) -> None:
    if len(faces) != 2 or not all(1 <= f <= sides for f in faces):
        raise KassenError(
            S_(
                "a check needs two d{sides} faces in 1..{top}, got {faces}",
                sides=sides,
                top=sides,
                faces=list(faces),
            )
        )


def resolve_check(faces: Faces, modifier: int, target: int, *, sides: int = 10) -> CheckResult:
    """Resolve ``2d10 + modifier >= target`` from the two faces (SG.CHK.1, SG.CHK.2).

    >>> resolve_check((3, 7), 2, 12).success
    True
    """
    _check_faces(faces, sides)
    first, second = faces
    total = first + second + modifier
    success = total >= target
    double = first == second
    steps = (
        Step(first, S_("first d{sides}", sides=sides), "SG.CHK.1"),
        Step(second, S_("second d{sides}", sides=sides), "SG.CHK.1"),
        Step(
            total,
            S_(
                "2d{sides} + modifier = {first} + {second} {sign} {amount}",
                sides=sides,
                first=first,
                second=second,
                sign="-" if modifier < 0 else "+",
                amount=abs(modifier),
            ),
            "SG.CHK.1",
        ),
        Step(
            total,
            (
                S_("{total} >= {target}: success", total=total, target=target)
                if success
                else S_("{total} < {target}: failure", total=total, target=target)
            ),
            "SG.CHK.1",
        ),
    ) + ((Step(first, S_("double {face}s", face=first), "SG.CHK.2"),) if double else ())
    return CheckResult(faces, modifier, target, total, success, double, steps)


def roll_faces(dice: DieSource, *, sides: int = 10) -> Faces:
    """Draw the two faces of a check."""
    return dice.die(sides), dice.die(sides)


def roll_check(modifier: int, target: int, dice: DieSource, *, sides: int = 10) -> CheckResult:
    """Roll 2d10 from ``dice`` and resolve (SG.CHK.1)."""
    return resolve_check(roll_faces(dice, sides=sides), modifier, target, sides=sides)


@fast_init
@dataclass(frozen=True, slots=True)
class Classified:
    """A check's outcome with its double's meaning: Critical Hit (SG.CRT.1), Fumble (SG.FUM.1), and
    whether a d100 table is consulted (Heavenly Mandate SG.CRT.4, Karmic Retribution SG.FUM.3)."""

    outcome: CheckOutcome
    heavenly_mandate: bool
    karmic_retribution: bool
    steps: tuple[Step, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class DoublesPolicy:
    """The data that decides what a double means (hashable, so odds can be cached per policy)."""

    scope: DoublesScope
    double_ten_failure: DoubleTenFailure
    double_one_success: DoubleOneSuccess
    heavenly_mandate_face: int
    karmic_retribution_face: int

    @classmethod
    def from_rules(cls, rules: ResolutionRules | None = None) -> DoublesPolicy:
        r = rules or load_resolution()
        d = r.doubles
        return cls(
            r.check.doubles_scope,
            d.double_ten_failure,
            d.double_one_success,
            d.heavenly_mandate_face,
            d.karmic_retribution_face,
        )


def classify(
    check: CheckResult,
    *,
    kind: CheckKind = CheckKind.ATTACK,
    rules: ResolutionRules | None = None,
    policy: DoublesPolicy | None = None,
) -> Classified:
    """What the check's double means, under the SG.RD.4 readings in ``rules`` (or ``policy``).

    Critical Hit = double + success (SG.CRT.1); Fumble = double + failure (SG.FUM.1). A critical with
    double 10 is a Heavenly Mandate (SG.CRT.4), a fumble with double 1 a Karmic Retribution (SG.FUM.3).
    A failed double 10 and a successful double 1 follow ``doubles.double_ten_failure`` and
    ``doubles.double_one_success``; checks other than attacks have no criticals or fumbles unless
    ``check.doubles_scope`` is ``every_check`` (SG.RD.4).
    """
    plain = CheckOutcome.SUCCESS if check.success else CheckOutcome.FAILURE
    if not check.double:
        return Classified(plain, False, False, ())
    d = policy or DoublesPolicy.from_rules(rules)  # only a double reads it (most checks have none)
    if kind is not CheckKind.ATTACK and d.scope is DoublesScope.ATTACK:
        step = Step(
            check.faces[0],
            S_("a double on a {kind} check counts only as its total", kind=kind.value),
            "SG.RD.4",
        )
        return Classified(plain, False, False, (step,))
    face = check.faces[0]
    if check.success:
        if face == d.karmic_retribution_face and d.double_one_success is DoubleOneSuccess.KARMIC_RETRIBUTION:
            step = Step(
                face,
                S_("double {face}s: Fumble with Karmic Retribution despite the total", face=face),
                "SG.RD.4",
            )
            return Classified(CheckOutcome.FUMBLE, False, True, (step,))
        mandate = face == d.heavenly_mandate_face
        steps = [Step(face, S_("double {face}s on a success: Critical Hit", face=face), "SG.CRT.1")]
        if face == d.karmic_retribution_face:
            steps.append(
                Step(
                    face,
                    S_("double {face}s on a success: a critical, not Karmic Retribution", face=face),
                    "SG.RD.4",
                )
            )
        if mandate:
            steps.append(Step(face, S_("double {face}s: Heavenly Mandate", face=face), "SG.CRT.4"))
        return Classified(CheckOutcome.CRITICAL, mandate, False, tuple(steps))
    if face == d.heavenly_mandate_face:
        if d.double_ten_failure is DoubleTenFailure.MISS:
            step = Step(face, S_("double {face}s on a failure: an ordinary failure", face=face), "SG.RD.4")
            return Classified(CheckOutcome.FAILURE, False, False, (step,))
        ten_steps = (
            Step(face, S_("double {face}s on a failure: Fumble", face=face), "SG.FUM.1"),
            Step(
                face, S_("double {face}s on a failure: a fumble, no Heavenly Mandate", face=face), "SG.RD.4"
            ),
        )
        return Classified(CheckOutcome.FUMBLE, False, False, ten_steps)
    retribution = face == d.karmic_retribution_face
    fumble_steps = [Step(face, S_("double {face}s on a failure: Fumble", face=face), "SG.FUM.1")]
    if retribution:
        fumble_steps.append(Step(face, S_("double {face}s: Karmic Retribution", face=face), "SG.FUM.3"))
    return Classified(CheckOutcome.FUMBLE, False, retribution, tuple(fumble_steps))


class TieRule(StrEnum):
    """Who wins a tie in an opposed check; each use states it (SG.CHK.3). Pursuit: the retreater
    (first) wins ties (SG.RET.3)."""

    FIRST = "first"
    SECOND = "second"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Both sides' rolls; ``winner`` is ``"first"``, ``"second"`` or ``None`` (a tie nobody wins)."""

    first: CheckResult
    second: CheckResult
    winner: str | None
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first.to_json(),
            "second": self.second.to_json(),
            "winner": self.winner,
            "steps": steps_to_json(self.steps),
        }


def resolve_opposed(
    first_faces: Faces,
    first_modifier: int,
    second_faces: Faces,
    second_modifier: int,
    *,
    tie: TieRule,
    sides: int = 10,
) -> OpposedResult:
    """Opposed check: 2d10 + modifier on both sides, the higher total wins, ``tie`` decides equal
    totals (SG.CHK.3). ``sides`` is the check's die (``check.sides`` of the resolution data in force).

    >>> resolve_opposed((5, 5), 1, (6, 4), 1, tie=TieRule.FIRST).winner
    'first'
    """
    a = first_faces[0] + first_faces[1] + first_modifier
    b = second_faces[0] + second_faces[1] + second_modifier
    # Each side's result is read against the other's total, so ``success`` means "won or tied".
    first = resolve_check(first_faces, first_modifier, b, sides=sides)
    second = resolve_check(second_faces, second_modifier, a, sides=sides)
    if a != b:
        winner: str | None = "first" if a > b else "second"
        reason = S_("{a} vs {b}: the {winner} side wins", a=a, b=b, winner=winner)
    else:
        winner = None if tie is TieRule.NONE else tie.value
        reason = (
            S_("{a} vs {b}: a tie, nobody wins", a=a, b=b)
            if winner is None
            else S_("{a} vs {b}: a tie, the {winner} side wins", a=a, b=b, winner=winner)
        )
    return OpposedResult(first, second, winner, (Step(a - b, reason, "SG.CHK.3"),))


def roll_opposed(
    first_modifier: int, second_modifier: int, dice: DieSource, *, tie: TieRule, sides: int = 10
) -> OpposedResult:
    """Roll both sides (first, then second) and resolve (SG.CHK.3)."""
    first = roll_faces(dice, sides=sides)
    second = roll_faces(dice, sides=sides)
    return resolve_opposed(first, first_modifier, second, second_modifier, tie=tie, sides=sides)
