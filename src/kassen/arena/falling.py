"""Falling damage (AR.FAL.1) and the strength table it shares a data file with: what a fall rolls — the
house-default table by height, +1 per full (or started, AR.RD.4) 100 kg of weight, the ground effect per
die — and thrust or swing damage by ST from the CORE table (AR.KNB.3), each remembered by the rules
(``kassen.core.memo``). Re-exported by :mod:`kassen.arena.damage`.

>>> plan_fall(4, 180).notation
'1d6+1'
>>> str(strength_damage(12, "swing"))
'1d+2'
"""

from __future__ import annotations

__all__ = ["FallPlan", "fall_modifiers", "plan_fall", "strength_damage"]

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from kassen.arena.content import load_rules
from kassen.arena.rules import ArenaRules, DiceSpec, dice_notation
from kassen.core.errors import KassenError
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.i18n import N_, S_, _


def strength_damage(st: int, kind: Literal["thrust", "swing"], rules: ArenaRules | None = None) -> DiceSpec:
    """Thrust or swing damage for ``st`` from the CORE table (AR.KNB.3).

    >>> str(strength_damage(12, "thrust")), str(strength_damage(12, "swing"))
    ('1d-1', '1d+2')
    """
    r = rules or load_rules()
    # the table's row is found by a scan of its rows; every attack and knockback landing asks again for
    # the same few ST (remembered by the rules, kassen.core.memo)
    memo = r.memos.strength
    found = memo.get((st, kind))
    return found if found is not None else memo.put((st, kind), _strength_damage(st, kind, r))


def _strength_damage(st: int, kind: Literal["thrust", "swing"], r: ArenaRules) -> DiceSpec:
    row = r.falling.strength.row(st)
    return row.thrust if kind == "thrust" else row.swing


@fast_init
@dataclass(frozen=True, slots=True)
class FallPlan:
    """What to roll for falling damage (AR.FAL.1): ``dice`` (None: no falling damage at this height)
    plus ``bonus`` (weight and ground effect), and the steps that explain it."""

    dice: DiceSpec | None
    bonus: int
    steps: tuple[Step, ...]

    @property
    def notation(self) -> str | None:
        """The kassen.dice expression to roll, or None when the fall does no damage."""
        if self.dice is None:
            return None
        return dice_notation(self.dice.dice, self.dice.adds + self.bonus)


def plan_fall(
    height: Fraction | int, weight_kg: int, ground: str | None = None, rules: ArenaRules | None = None
) -> FallPlan:
    """Falling damage for ``height`` metres: the house-default table by height, +1 per full 100 kg of
    weight, and the ground effect per die (AR.FAL.1, AR.RD.4).

    >>> plan_fall(4, 180).notation
    '1d6+1'
    >>> plan_fall(Fraction(1, 2), 300).dice is None
    True
    """
    r = rules or load_rules()
    # pure, and asked at every landing with the same few heights and weights (kassen.core.memo)
    memo = r.memos.falls
    found = memo.get((height, weight_kg, ground))
    if found is None:
        found = memo.put((height, weight_kg, ground), _plan_fall(height, weight_kg, ground, r))
    return found


def _plan_fall(height: Fraction | int, weight_kg: int, ground: str | None, r: ArenaRules) -> FallPlan:
    fr = r.falling.falling
    ground_name = ground or fr.default_ground
    if ground_name not in fr.ground:
        raise KassenError(
            _("unknown ground {ground} (known: {known})").format(
                ground=repr(ground_name), known=", ".join(fr.ground)
            )
        )
    if weight_kg < 0:
        raise KassenError(_("weight cannot be negative, got {weight}").format(weight=weight_kg))
    row = None
    for h in fr.heights:
        if height >= h.min_height:
            row = h
    if row is None:
        step = Step(
            0,
            S_(
                "a fall of {height} m does no falling damage (below {minimum} m)",
                height=height,
                minimum=fr.heights[0].min_height,
            ),
            "AR.FAL.1",
        )
        return FallPlan(None, 0, (step,))
    bonus, steps = fall_modifiers(row.damage.dice, weight_kg, ground_name, r)
    steps = (
        Step(
            row.damage.dice, S_("falling {height} m: {damage}", height=height, damage=row.damage), "AR.FAL.1"
        ),
        *steps,
    )
    return FallPlan(row.damage, bonus, steps)


def fall_modifiers(
    dice: int, weight_kg: int, ground: str | None = None, rules: ArenaRules | None = None
) -> tuple[int, tuple[Step, ...]]:
    """What falling damage adds to its basic damage (AR.FAL.1): +1 per 100 kg of weight (per full or
    started 100 kg, AR.RD.4) and the ground effect per die of ``dice``.

    >>> fall_modifiers(1, 250, "sand")[0]
    1
    """
    r = rules or load_rules()
    memo = r.memos.fall_modifiers
    found = memo.get((dice, weight_kg, ground))
    if found is None:
        found = memo.put((dice, weight_kg, ground), _fall_modifiers(dice, weight_kg, ground, r))
    return found


def _fall_modifiers(
    dice: int, weight_kg: int, ground: str | None, r: ArenaRules
) -> tuple[int, tuple[Step, ...]]:
    fr = r.falling.falling
    ground_name = ground or fr.default_ground
    if ground_name not in fr.ground:
        raise KassenError(
            _("unknown ground {ground} (known: {known})").format(
                ground=repr(ground_name), known=", ".join(fr.ground)
            )
        )
    units = Fraction(weight_kg, fr.weight_step_kg)
    full = fr.readings.weight_rounding == "full"
    weight_bonus = math.floor(units) if full else math.ceil(units)
    steps = [
        Step(
            weight_bonus,
            S_(
                N_("+1 per full {step} kg of {weight} kg")
                if full
                else N_("+1 per started {step} kg of {weight} kg"),
                step=fr.weight_step_kg,
                weight=weight_kg,
            ),
            "AR.FAL.1",
        ),
        Step(
            weight_bonus,
            S_(
                "weight counted per {rounding} {step} kg",
                rounding=fr.readings.weight_rounding,
                step=fr.weight_step_kg,
            ),
            "AR.RD.4",
        ),
    ]
    ground_mod = fr.ground[ground_name].per_die * dice
    steps.append(
        Step(
            ground_mod,
            S_(
                "ground effect ({ground}): {per_die} per die",
                ground=ground_name,
                per_die=format(fr.ground[ground_name].per_die, "+d"),
            ),
            "AR.FAL.1",
        )
    )
    return weight_bonus + ground_mod, tuple(steps)
