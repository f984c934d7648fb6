"""Knockback (跳ね飛ばし, AR.KNB.1-7): distance, limb knockback, damage by posture and altitude, and how
a fallen character lands. Pure functions; the bout rolls the checks and schedules the landing.

>>> knockback_distance(20, "cr", penetrating=5, target_st=12)[0]
2
"""

from __future__ import annotations

__all__ = [
    "LimbOutcome",
    "knockback_distance",
    "knockback_metres",
    "landing_facing",
    "limb_knockback_outcome",
    "posture_factor",
]

from dataclasses import dataclass
from fractions import Fraction

from kassen.arena.content import load_rules
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import DamageType, Facing, Limb, Posture, Tier
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.i18n import S_


def knockback_distance(
    basic: int,
    damage_type: DamageType | str,
    *,
    penetrating: int,
    target_st: int,
    rules: ArenaRules | None = None,
) -> tuple[int, tuple[Step, ...]]:
    """Metres of knockback (AR.KNB.1 house default): crushing blows, and cutting blows that fail to
    penetrate, knock back 1 m per full (ST − 2) of basic damage (per point at ST 3 or less)."""
    r = rules or load_rules()
    kb = r.falling.knockback
    dtype = DamageType(damage_type)
    if not _pushes(dtype, penetrating, r):
        return 0, ()
    distance = knockback_metres(basic, dtype, penetrating, target_st, r)
    return distance, (
        Step(
            distance,
            S_(
                "knockback: basic {basic} // (ST {st} - {offset}, at least {minimum}) = {distance} m",
                basic=basic,
                st=target_st,
                offset=kb.st_offset,
                minimum=kb.minimum_divisor,
                distance=distance,
            ),
            "AR.KNB.1",
        ),
    )


def knockback_metres(
    basic: int, dtype: DamageType, penetrating: int, target_st: int, rules: ArenaRules
) -> int:
    """:func:`knockback_distance`'s metres alone, of a damage type already parsed: the bout asks it of
    every hit and reads no explanation (``test_knockback_metres_is_the_distance`` compares them)."""
    if not _pushes(dtype, penetrating, rules):
        return 0
    kb = rules.falling.knockback
    return max(basic, 0) // max(target_st - kb.st_offset, kb.minimum_divisor)


def _pushes(dtype: DamageType, penetrating: int, rules: ArenaRules) -> bool:
    """Whether a blow of ``dtype`` knocks back at all (AR.KNB.1)."""
    kb = rules.falling.knockback
    return dtype in kb.types or (
        kb.cutting_without_penetration and dtype is DamageType.CUTTING and penetrating == 0
    )


def posture_factor(
    posture: Posture, altitude: Fraction, rules: ArenaRules | None = None
) -> tuple[Fraction, Step]:
    """The share of knockback damage taken from ``posture`` at ``altitude`` metres (AR.KNB.4): sitting
    halves it below 0.5 m; lying takes none below 0.5 m, half below 1 m, full from 1 m.

    >>> posture_factor(Posture.LYING, Fraction(1, 2))[0]
    Fraction(1, 2)
    """
    r = rules or load_rules()
    rows = r.falling.knockback.posture_factors[posture]
    factor = rows[0].factor
    for row in rows:
        if altitude >= row.min_altitude:
            factor = row.factor
    return factor, Step(
        0,
        S_(
            "knocked back from {posture} at an altitude of {altitude} m: knockback damage x{factor}",
            posture=posture.value,
            altitude=altitude,
            factor=factor,
        ),
        "AR.KNB.4",
    )


@fast_init
@dataclass(frozen=True, slots=True)
class LimbOutcome:
    """What a failed limb-knockback ST check does (AR.KNB.5)."""

    drop_guard: bool
    rooted: bool
    falls: bool


def limb_knockback_outcome(
    limb: Limb, success: bool, margin_of_failure: int, rules: ArenaRules | None = None
) -> LimbOutcome:
    """Arm: a failure drops that arm's guard. Leg: a failure stops movement until the next subturn, and
    a failure by 3 or more falls (AR.KNB.5).

    >>> limb_knockback_outcome(Limb.LEG, False, 3)
    LimbOutcome(drop_guard=False, rooted=True, falls=True)
    """
    r = rules or load_rules()
    if success:
        return LimbOutcome(False, False, False)
    if limb is Limb.ARM:
        return LimbOutcome(True, False, False)
    return LimbOutcome(False, True, margin_of_failure >= r.falling.knockback.leg_fall_margin)


def landing_facing(damage_tier: Tier | None, *, leg_knockback: bool = False) -> Facing:
    """A fall caused by final damage to the middle or lower tier, or by leg knockback, lands face down;
    any other fall face up (AR.KNB.7).

    >>> landing_facing(Tier.UPPER), landing_facing(Tier.LOWER)
    (<Facing.FACE_UP: 'face_up'>, <Facing.FACE_DOWN: 'face_down'>)
    """
    if leg_knockback or damage_tier in (Tier.MIDDLE, Tier.LOWER):
        return Facing.FACE_DOWN
    return Facing.FACE_UP
