"""The damage pipeline (AR.DMG.1-7), falling damage (AR.FAL.1) and self-inflicted damage (AR.SLF.1).

basic → primary penetration (− armor hard DR) → penetrating (− soft DR − bone hard DR) → × the attack
type's multiplier → damage-reduction effects → final, with the pass-through caps (貫通): the crippling
amount of the location and 2 × HT. Every intermediate value is kept, each step names its rule. What a
fall rolls and the strength table (AR.FAL.1, AR.KNB.3) are in :mod:`kassen.arena.falling`, importable
from here.

>>> r = resolve_damage(10, DamageType.CUTTING, ht=10, location="torso", armor_dr=3)
>>> r.basic, r.primary_penetration, r.penetrating, r.final
(10, 7, 7, 10)
>>> resolve_damage(20, DamageType.CUTTING, ht=10, location="left_arm").final   # crippling cap
6
"""

from __future__ import annotations

__all__ = [
    "DamageResult",
    "FallPlan",
    "Reduction",
    "counted_prior",
    "crippling_amount",
    "damage_finals",
    "divide_ht",
    "fall_modifiers",
    "finals_key",
    "plan_fall",
    "resolve_damage",
    "round_ratio",
    "strength_damage",
]

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, NamedTuple

from kassen.arena.content import load_rules
from kassen.arena.falling import FallPlan, fall_modifiers, plan_fall, strength_damage
from kassen.arena.rules import ArenaRules, CripplingCap, Location, Rounding
from kassen.arena.terms import DamageSource, DamageType
from kassen.core.errors import KassenError
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastinit import fast_init
from kassen.i18n import N_, S_, _


@fast_init
@dataclass(frozen=True, slots=True)
class Reduction:
    """A damage-reduction effect (ダメージ軽減効果, AR.GAP.2 house default): divide (rounding down),
    then subtract."""

    name: str
    divisor: int = 1
    subtract: int = 0


def round_ratio(value: Fraction, rounding: Rounding | str) -> int:
    """Round an exact ratio as the data says (``down``, ``up`` or ``nearest``, halves up)."""
    if rounding == Rounding.UP:
        return math.ceil(value)
    if rounding == Rounding.NEAREST:
        return math.floor(value + Fraction(1, 2))
    return math.floor(value)


def divide_ht(ht: int, divisor: int, rules: ArenaRules | None = None) -> int:
    """HT / divisor as the injury rules use it: rounded up (AR.DMG.7).

    >>> divide_ht(11, 2), divide_ht(10, 3), divide_ht(10, 10)
    (6, 4, 1)
    """
    r = rules or load_rules()
    return round_ratio(Fraction(ht, divisor), r.damage.ht_division.rounding)


def crippling_amount(location: Location, ht: int, rules: ArenaRules | None = None) -> int | None:
    """The final damage that cripples ``location`` (None when it cannot be crippled): over
    ceil(HT / divisor) (AR.DMG.6 house default, AR.DMG.7), i.e. that threshold + 1."""
    r = rules or load_rules()
    if location.crippling_divisor is None:
        return None
    threshold = divide_ht(ht, location.crippling_divisor, r)
    return threshold + 1 if r.damage.crippling.comparison == "over" else threshold


@fast_init
@dataclass(frozen=True, slots=True)
class DamageResult:
    """Every value of one hit's damage, with the steps that produced it.

    ``reduced`` is the final damage before the pass-through caps (the guts penalty of AR.GUT.2 ignores
    the caps); ``capped`` says a cap cut it; ``crippled`` says this hit brought the location to its
    crippling amount.
    """

    source: DamageSource
    damage_type: DamageType
    location: str
    basic: int
    armor_dr: int
    bone_dr: int
    soft_dr: int
    primary_penetration: int
    penetrating: int
    multiplier: Fraction
    multiplied: int
    reduced: int
    final: int
    capped: bool
    crippled: bool
    crippling_amount: int | None
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source.value,
            "type": self.damage_type.value,
            "location": self.location,
            "basic": self.basic,
            "armor_dr": self.armor_dr,
            "bone_dr": self.bone_dr,
            "soft_dr": self.soft_dr,
            "primary_penetration": self.primary_penetration,
            "penetrating": self.penetrating,
            "multiplier": str(self.multiplier),
            "multiplied": self.multiplied,
            "reduced": self.reduced,
            "final": self.final,
            "capped": self.capped,
            "crippled": self.crippled,
            "crippling_amount": self.crippling_amount,
            "steps": steps_to_json(self.steps),
        }


def _halve(value: int, factor: Fraction, rounding: Literal["down", "up"]) -> int:
    return round_ratio(value * factor, Rounding.UP if rounding == "up" else Rounding.DOWN)


def resolve_damage(
    basic: int,
    damage_type: DamageType | str,
    *,
    ht: int,
    location: str | None = None,
    armor_dr: int = 0,
    bone_dr: int | None = None,
    soft_dr: int | None = None,
    reductions: Sequence[Reduction] = (),
    source: DamageSource = DamageSource.ATTACK,
    prior_location_damage: int = 0,
    rules: ArenaRules | None = None,
) -> DamageResult:
    """Run one hit through AR.DMG.1-7.

    ``location`` defaults to the data's ``damage.basic.default_location`` (the torso, AR.DMG.1);
    ``bone_dr`` and ``soft_dr`` default to the location's natural values (AR.GAP.1). Falling and
    knockback damage count DR at half (AR.FAL.1, AR.RD.4); self-inflicted damage ignores DR and
    reductions (AR.SLF.1). ``prior_location_damage`` matters only under the cumulative crippling
    reading (AR.RD.2).

    >>> resolve_damage(5, "cr", ht=10, location="skull").final   # bone DR 2, skull x4
    12
    """
    r = rules or load_rules()
    # A pure function of its arguments and the rules (immutable), asked for every hit and every damage
    # the odds weigh; a bout's hits repeat the same few: remembered by the rules, by its arguments
    # (kassen.core.memo). An error is raised, never kept. The prior damage is keyed (and passed on) as
    # the part of it the result reads (counted_prior): the same result, found again after more damage
    # at a location that damage cannot change.
    reds = tuple(reductions)
    prior = counted_prior(location, ht, prior_location_damage, r) if prior_location_damage else 0
    key = (basic, damage_type, ht, location, armor_dr, bone_dr, soft_dr, reds, source, prior)
    memo = r.memos.damage
    found = memo.get(key)
    if found is None:
        found = memo.put(key, _resolve_damage(*key, r))
    return found


def counted_prior(location: str | None, ht: int, prior: int, rules: ArenaRules) -> int:
    """The part of ``prior`` damage at ``location`` that a hit's damage there depends on (AR.DMG.6 with
    the AR.RD.2 reading): none under the per-hit crippling cap (the house default) or where nothing
    cripples, else at most the crippling amount (a location at or past it has no room left, and is
    crippled by any hit, whatever its total). :func:`resolve_damage` gives the same result for the
    counted prior as for the whole one, so what remembers a damage (or its exact odds) is keyed by it."""
    if rules.damage.crippling.cap is not CripplingCap.CUMULATIVE:
        return 0
    loc = rules.locations.find(location) if location is not None else None
    if loc is None:
        loc = rules.locations.locations[rules.damage.basic.default_location]
    amount = crippling_amount(loc, ht, rules)
    return 0 if amount is None else min(prior, amount)


def _resolve_damage(
    basic: int,
    damage_type: DamageType | str,
    ht: int,
    location: str | None,
    armor_dr: int,
    bone_dr: int | None,
    soft_dr: int | None,
    reductions: Sequence[Reduction],
    source: DamageSource,
    prior_location_damage: int,
    r: ArenaRules,
) -> DamageResult:
    t = _damage_terms(damage_type, ht, location, armor_dr, bone_dr, soft_dr, source, r)
    v = _damage_values(basic, t, reductions, source, prior_location_damage, r)
    dtype, loc, basic, armor, bone, soft = t.dtype, t.loc, v.basic, t.armor, t.bone, t.soft
    steps: list[Step] = [Step(v.raw, S_("basic damage (damage roll), {type}", type=dtype.value), "AR.DMG.1")]
    if basic != v.raw:
        steps.append(
            Step(basic, S_("basic damage is at least {minimum}", minimum=r.damage.basic.minimum), "AR.DMG.1")
        )
    applies = (
        N_("applies to the {location} (no location named)")
        if location is None
        else N_("applies to the {location}")
    )
    steps.append(Step(basic, S_(applies, location=loc.name), "AR.DMG.1"))

    if source is DamageSource.SELF:
        steps.append(Step(0, N_("self-inflicted damage ignores DR"), "AR.SLF.1"))
    elif source in (DamageSource.FALLING, DamageSource.KNOCKBACK):
        fr = r.falling.falling
        rounding = fr.readings.dr_rounding
        steps.append(
            Step(
                armor + bone + soft,
                S_(
                    "falling damage: DR counts x{factor} (each layer rounded {rounding}): armor {armor}, "
                    "bone {bone}, soft {soft}",
                    factor=fr.dr_factor,
                    rounding=rounding,
                    armor=armor,
                    bone=bone,
                    soft=soft,
                ),
                "AR.FAL.1",
            )
        )
        steps.append(
            Step(armor + bone + soft, S_("half DR rounded {rounding}", rounding=rounding), "AR.RD.4")
        )
    steps.append(
        Step(
            armor + bone + soft,
            S_(
                "DR: hard {armor} (armor) + hard {bone} (bone), soft {soft}",
                armor=armor,
                bone=bone,
                soft=soft,
            ),
            "AR.DMG.2",
        )
    )

    primary, penetrating = v.primary, v.penetrating
    steps.append(
        Step(
            primary,
            S_("primary penetration = {basic} - armor hard DR {armor}", basic=basic, armor=armor),
            "AR.DMG.3",
        )
    )
    steps.append(
        Step(
            penetrating,
            S_(
                "penetrating = {primary} - soft DR {soft} - bone hard DR {bone}",
                primary=primary,
                soft=soft,
                bone=bone,
            ),
            "AR.DMG.4",
        )
    )

    at = r.damage.attack_types
    multiplier = t.multiplier
    steps.append(
        Step(
            penetrating,
            S_("{name} x{multiplier}", name=at.types[dtype].name, multiplier=at.types[dtype].multiplier),
            "AR.DMG.5",
        )
    )
    if dtype in loc.wounding:
        steps.append(
            Step(
                penetrating,
                S_(
                    "{location}: {type} x{multiplier} instead",
                    location=loc.name,
                    type=dtype.value,
                    multiplier=multiplier,
                ),
                "AR.DMG.6",
            )
        )
    steps.append(
        Step(
            v.multiplied,
            S_(
                "{penetrating} x{multiplier}, rounded {rounding}, at least {minimum} when any penetrated",
                penetrating=penetrating,
                multiplier=multiplier,
                rounding=at.rounding.value,
                minimum=at.minimum_when_penetrating,
            )
            if penetrating
            else S_(
                "{penetrating} x{multiplier}, rounded {rounding}",
                penetrating=penetrating,
                multiplier=multiplier,
                rounding=at.rounding.value,
            ),
            "AR.DMG.5",
        )
    )

    if source is DamageSource.SELF and reductions:
        steps.append(Step(v.reduced, N_("self-inflicted damage cannot be reduced"), "AR.SLF.1"))
    else:
        for red, reduced in zip(reductions, v.reduced_each, strict=True):
            steps.append(Step(reduced, S_("damage reduction: {name}", name=red.name), "AR.DMG.5"))

    amount = t.crippling_amount
    if amount is not None:
        if v.room_capped:
            steps.append(
                Step(
                    v.within_room,
                    S_(
                        "pass-through: {location} crippled at {amount}, the rest is ignored",
                        location=loc.name,
                        amount=amount,
                    ),
                    "AR.DMG.6",
                )
            )
        steps.append(Step(amount, S_("crippling cap {cap}", cap=r.damage.crippling.cap.value), "AR.RD.2"))
    final = v.final
    if v.ht_capped:
        steps.append(
            Step(
                final,
                S_(
                    "pass-through: at most {multiple} x HT = {final} from one hit",
                    multiple=r.damage.pass_through.ht_multiple,
                    final=final,
                ),
                "AR.DMG.6",
            )
        )
    steps.append(Step(final, N_("final damage"), "AR.DMG.5"))
    return DamageResult(
        source,
        dtype,
        loc.key,
        basic,
        armor,
        bone,
        soft,
        primary,
        penetrating,
        multiplier,
        v.multiplied,
        v.reduced,
        final,
        final < v.reduced,
        v.crippled,
        amount,
        tuple(steps),
    )


class _Values(NamedTuple):
    """The numbers of one hit through AR.DMG.1-7 under its :class:`_Terms` (:func:`_damage_values`)."""

    raw: int
    basic: int
    primary: int
    penetrating: int
    multiplied: int
    reduced_each: tuple[int, ...]
    reduced: int
    crippled: bool
    room_capped: bool
    within_room: int
    ht_capped: bool
    final: int


class _Terms(NamedTuple):
    """What a hit's damage at one place is worked out from besides its basic damage (AR.DMG.2-7): the
    attack type, the location, the DR layers as they count for the source, the wounding multiplier,
    the crippling amount (None: nothing cripples there) and the pass-through limit (a multiple of HT)."""

    dtype: DamageType
    loc: Location
    armor: int
    bone: int
    soft: int
    multiplier: Fraction
    crippling_amount: int | None
    limit: int


def _damage_terms(
    damage_type: DamageType | str,
    ht: int,
    location: str | None,
    armor_dr: int,
    bone_dr: int | None,
    soft_dr: int | None,
    source: DamageSource,
    r: ArenaRules,
) -> _Terms:
    """The :class:`_Terms` of a hit (checked: a known type and location, HT at least 1, no negative DR):
    the same for every basic damage of a roll, so the exact odds work them out once a roll."""
    dtype = _damage_type(damage_type)
    if ht < 1:
        raise KassenError(_("HT must be at least 1, got {ht}").format(ht=ht))
    loc = (
        r.locations.find(location)
        if location is not None
        else r.locations.locations[r.damage.basic.default_location]
    )
    armor = armor_dr
    bone = loc.bone_dr if bone_dr is None else bone_dr
    soft = loc.soft_dr if soft_dr is None else soft_dr
    for name, value in (("armor DR", armor), ("bone DR", bone), ("soft DR", soft)):
        if value < 0:
            raise KassenError(_("{name} cannot be negative, got {value}").format(name=name, value=value))
    if source is DamageSource.SELF:
        armor = bone = soft = 0
    elif source in (DamageSource.FALLING, DamageSource.KNOCKBACK):
        fr = r.falling.falling
        rounding = fr.readings.dr_rounding
        armor, bone, soft = (_halve(v, fr.dr_factor, rounding) for v in (armor, bone, soft))
    at = r.damage.attack_types
    multiplier = loc.wounding[dtype] if dtype in loc.wounding else at.types[dtype].multiplier
    amount = crippling_amount(loc, ht, r)
    return _Terms(dtype, loc, armor, bone, soft, multiplier, amount, r.damage.pass_through.ht_multiple * ht)


def _damage_values(
    basic: int,
    t: _Terms,
    reductions: Sequence[Reduction],
    source: DamageSource,
    prior_location_damage: int,
    r: ArenaRules,
) -> _Values:
    """The numbers of :func:`resolve_damage` (the pipeline of the module notes) for ``basic`` damage
    under the terms ``t``, without the words: :func:`_resolve_damage` explains them step by step,
    :func:`damage_finals` reads the final damage alone."""
    raw = basic
    basic = max(basic, r.damage.basic.minimum)
    armor, bone, soft = t.armor, t.bone, t.soft
    minimum = r.damage.penetration.minimum
    primary = max(basic - armor, minimum)
    penetrating = max(primary - soft - bone, minimum)
    at = r.damage.attack_types
    multiplier = t.multiplier
    if multiplier.denominator == 1:  # a whole multiple: nothing to round
        multiplied = penetrating * multiplier.numerator
    else:
        multiplied = round_ratio(penetrating * multiplier, at.rounding)
    if penetrating > 0 and multiplied < at.minimum_when_penetrating:
        multiplied = at.minimum_when_penetrating
    reduced = multiplied
    reduced_each: list[int] = []
    if not (source is DamageSource.SELF and reductions):
        for red in reductions:
            reduced = max(reduced // max(red.divisor, 1) - red.subtract, r.damage.reduction.minimum)
            reduced_each.append(reduced)
    final = reduced
    amount = t.crippling_amount
    crippled = room_capped = False
    if amount is not None:
        cumulative = r.damage.crippling.cap is CripplingCap.CUMULATIVE
        room = max(amount - prior_location_damage, 0) if cumulative else amount
        crippled = (prior_location_damage + reduced if cumulative else reduced) >= amount
        if final > room:
            final = room
            room_capped = True
    within_room = final
    ht_capped = final > t.limit
    if ht_capped:
        final = t.limit
    return _Values(
        raw,
        basic,
        primary,
        penetrating,
        multiplied,
        tuple(reduced_each),
        reduced,
        crippled,
        room_capped,
        within_room,
        ht_capped,
        final,
    )


def finals_key(
    damage_type: DamageType | str,
    *,
    ht: int,
    location: str | None = None,
    armor_dr: int = 0,
    bone_dr: int | None = None,
    soft_dr: int | None = None,
    source: DamageSource = DamageSource.ATTACK,
    rules: ArenaRules | None = None,
) -> tuple[object, ...]:
    """What :func:`damage_finals` reads of a hit besides its basic damages, reductions, source and prior
    damage: the DR layers as they count, the wounding multiplier, the crippling amount and the HT limit
    (not the location's name: both arms, both legs... take the same final damage). Checked as
    :func:`resolve_damage` checks its arguments."""
    r = rules or load_rules()
    t = _damage_terms(damage_type, ht, location, armor_dr, bone_dr, soft_dr, source, r)
    return (t.armor, t.bone, t.soft, t.multiplier, t.crippling_amount, t.limit)


def damage_finals(
    basics: Iterable[int],
    damage_type: DamageType | str,
    *,
    ht: int,
    location: str | None = None,
    armor_dr: int = 0,
    bone_dr: int | None = None,
    soft_dr: int | None = None,
    reductions: Sequence[Reduction] = (),
    source: DamageSource = DamageSource.ATTACK,
    prior_location_damage: int = 0,
    rules: ArenaRules | None = None,
) -> list[int]:
    """``resolve_damage(basic, ...).final`` (AR.DMG.1-7) of each of ``basics``, without the steps that
    explain it, nor a record, the terms of the hit worked out once: the exact odds read only the final
    damage of every basic damage of a roll.

    >>> damage_finals([5, 6], "cr", ht=10, location="skull")
    [12, 16]
    """
    r = rules or load_rules()
    t = _damage_terms(damage_type, ht, location, armor_dr, bone_dr, soft_dr, source, r)
    reds = tuple(reductions)
    return [_damage_values(basic, t, reds, source, prior_location_damage, r).final for basic in basics]


def _damage_type(value: DamageType | str) -> DamageType:
    if isinstance(value, DamageType):
        return value
    try:
        return DamageType(value.strip())
    except ValueError:
        known = ", ".join(t.value for t in DamageType)
        raise KassenError(
            _("unknown damage type {value} (known: {known})").format(value=repr(value), known=known)
        ) from None
