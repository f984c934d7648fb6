"""The arena's data (``data/*.yaml``) as typed, validated, frozen models.

Every number the arena rules use lives in the YAML: criticals (AR.CORE.1), attack-type multipliers
(AR.DMG.5), hit locations (AR.GAP.1, AR.DMG.6), falling and knockback (AR.FAL.1, AR.KNB.1-4), the
thrust table (AR.KNB.3), injury, fatigue and guts thresholds, popularity and audience effects, and the
match-format terms (AR.GAP.2). Gaps and readings carry a ``house_default`` block (rule + rationale).

:class:`ArenaRules` has one field per section (one bundled file each); :mod:`kassen.arena.content`
loads the sections through the content layers (bundled, ``--content``, a scenario's ``content:``), so
readings can be switched without editing the files.
"""

from __future__ import annotations

__all__ = [
    "ArenaRules",
    "CheckRules",
    "DamageRules",
    "DiceSpec",
    "FallingRules",
    "InjuryRules",
    "Location",
    "LocationTable",
    "MatchRules",
    "dice_notation",
]

import re
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from kassen.arena.domain import (
    MOVE,
    POINTS,
    WEIGHT,
    CheckDice,
    Clock,
    Count,
    Damage,
    DamageAdds,
    DamageDice,
    Distance,
    Divisor,
    DrPoints,
    Modifier,
    Multiple,
    PointsLevel,
    Ratio,
    Sides,
    Small,
    Weight,
)
from kassen.arena.memos import ArenaMemos, CheckMemos
from kassen.arena.terms import CheckKind, DamageType, Limb, Posture, Tier
from kassen.content.yamlio import HouseDefault, StrictModel, require_every
from kassen.core.errors import KassenError
from kassen.core.view import VisibilityModel
from kassen.i18n import _

_GURPS_DICE = re.compile(r"^\s*(\d+)d(?:6)?\s*([+-]\s*\d+)?\s*$")


class DiceSpec(StrictModel):
    """Dice and adds in the parent game's notation: ``2d+1`` is two d6 plus 1 (``dice=2, adds=1``)."""

    dice: DamageDice
    adds: DamageAdds = 0

    @classmethod
    def of(cls, dice: int, adds: int) -> DiceSpec:
        """The dice of a sum of validated parts (a weapon's adds on its ST base): built without the
        table's bounds, which bound each part, not their sum."""
        return cls.model_construct(dice=dice, adds=adds)

    @property
    def notation(self) -> str:
        """The kassen.dice expression (``2d6+1``); ``0`` when there are no dice and no adds."""
        return dice_notation(self.dice, self.adds)

    def __str__(self) -> str:
        adds = f"{self.adds:+d}" if self.adds else ""
        return f"{self.dice}d{adds}"


def dice_notation(dice: int, adds: int) -> str:
    """The kassen.dice expression of ``dice`` d6 plus ``adds`` (:attr:`DiceSpec.notation`, without
    building a model: the bout rolls damage with a bonus many times a battle).

    >>> dice_notation(2, 1), dice_notation(1, -3), dice_notation(0, 0)
    ('2d6+1', '1d6-3', '0')
    """
    text = f"{dice}d6" if dice else ""
    if adds or not text:
        text += f"{adds:+d}" if text else str(adds)
    return text


def _dice_spec(value: Any) -> Any:
    if isinstance(value, str):
        m = _GURPS_DICE.match(value)
        if not m:
            raise ValueError(_("expected dice like '2d+1' or '1d-3', got {value}").format(value=repr(value)))
        return {"dice": int(m.group(1)), "adds": int((m.group(2) or "0").replace(" ", ""))}
    return value


Dice6 = Annotated[DiceSpec, BeforeValidator(_dice_spec)]


# -- checks (AR.CORE.*) -------------------------------------------------------------------------------
class CriticalSuccessRow(StrictModel):
    roll_at_most: Modifier
    min_target: Modifier | None = None


class CriticalFailureRow(StrictModel):
    roll_at_least: Modifier
    max_target: Modifier | None = None


class Criticals(StrictModel):
    house_default: HouseDefault
    automatic_success_at_most: Modifier
    automatic_failure_at_least: Modifier
    success: tuple[CriticalSuccessRow, ...]
    failure: tuple[CriticalFailureRow, ...]
    failure_by_margin: Annotated[int, Field(ge=1, le=100)]


class TieWinner(StrEnum):
    NONE = "none"
    FIRST = "first"
    SECOND = "second"


class Contest(StrictModel):
    house_default: HouseDefault
    tie_winner: TieWinner
    #: AR.RD.9: a defender's critical success is compared by margin like any success (house reading), or
    #: wins the contest outright (the other reading).
    defender_critical_house_default: HouseDefault
    defender_critical: Literal["compared_by_margin", "wins_outright"]


class Subturns(StrictModel):
    house_default: HouseDefault
    until_end_of_next: Clock


class CheckRules(StrictModel):
    dice: CheckDice
    sides: Sides
    criticals: Criticals
    contest: Contest
    subturns: Subturns

    @cached_property
    def memos(self) -> CheckMemos:
        """What the check rules remember of their pure readings (:mod:`kassen.arena.memos`)."""
        return CheckMemos()

    @model_validator(mode="after")
    def _three_d_six(self) -> CheckRules:
        if (self.dice, self.sides) != (3, 6):
            raise ValueError("arena checks roll 3d6 (AR.CORE.1)")
        return self


# -- damage (AR.DMG.*) --------------------------------------------------------------------------------
class Rounding(StrEnum):
    DOWN = "down"
    UP = "up"
    NEAREST = "nearest"


class BasicRules(StrictModel):
    house_default: HouseDefault
    minimum: Damage
    default_location: str


class PenetrationRules(StrictModel):
    house_default: HouseDefault
    minimum: Damage


class AttackTypeRow(StrictModel):
    name: str
    name_ja: str
    multiplier: Ratio


class AttackTypes(StrictModel):
    house_default: HouseDefault
    rounding: Rounding
    minimum_when_penetrating: Damage
    types: dict[DamageType, AttackTypeRow]

    @model_validator(mode="after")
    def _every_type(self) -> AttackTypes:
        require_every(DamageType, self.types, "attack types")
        return self


class ReductionRules(StrictModel):
    house_default: HouseDefault
    minimum: Damage


class PassThrough(StrictModel):
    ht_multiple: Divisor


class CripplingCap(StrEnum):
    PER_HIT = "per_hit"
    CUMULATIVE = "cumulative"


class CripplingRules(StrictModel):
    house_default: HouseDefault
    cap: CripplingCap
    comparison: Literal["over", "at_least"]


class HtDivision(StrictModel):
    rounding: Rounding


class DamageRules(StrictModel):
    basic: BasicRules
    penetration: PenetrationRules
    attack_types: AttackTypes
    reduction: ReductionRules
    pass_through: PassThrough
    crippling: CripplingRules
    ht_division: HtDivision


# -- hit locations (AR.GAP.1, AR.DMG.6) -----------------------------------------------------------------
class Location(StrictModel):
    """One hit location. ``key`` is filled in from the table's key."""

    key: str = ""
    name: str
    name_ja: str
    aliases: tuple[str, ...] = ()
    tier: Tier
    head: bool = False
    vital_organ: bool = False
    limb: Limb | None = None
    can_guard: bool = False
    part_of: str | None = None
    crippling_divisor: Divisor | None = None
    to_hit: Modifier = 0
    bone_dr: DrPoints = 0
    soft_dr: DrPoints = 0
    wounding: dict[DamageType, Ratio] = Field(default_factory=dict)


class LocationTable(StrictModel):
    house_default: HouseDefault
    crippling_house_default: HouseDefault
    default: str
    brain: str
    locations: dict[str, Location]

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("locations"), dict):
            locs = {}
            for key, row in data["locations"].items():
                locs[key] = {**row, "key": key} if isinstance(row, dict) else row
            data = {**data, "locations": locs}
        return data

    @model_validator(mode="after")
    def _known(self) -> LocationTable:
        for field in ("default", "brain"):
            if getattr(self, field) not in self.locations:
                text = _("{field}: {value} is not a location in the table")
                raise ValueError(text.format(field=field, value=repr(getattr(self, field))))
        seen: dict[str, str] = {}
        for key, loc in self.locations.items():
            if loc.part_of is not None and loc.part_of not in self.locations:
                text = _("{key}.part_of: {value} is not a location in the table")
                raise ValueError(text.format(key=key, value=repr(loc.part_of)))
            for name in (key, *loc.aliases):
                if name in seen:
                    text = _("location name {name} is used by {first} and {second}")
                    raise ValueError(text.format(name=repr(name), first=repr(seen[name]), second=repr(key)))
                seen[name] = key
        return self

    def find(self, name: str) -> Location:
        """The location called ``name`` (its key or an alias; case and spaces ignored)."""
        # every attack weighed asks for its location, mostly by its key: found in one lookup
        found = self.by_name.get(name)
        return found if found is not None else self._find(name)

    @cached_property
    def by_name(self) -> dict[str, Location]:
        """What :meth:`find` gives for each key and alias as written (made once: the table is frozen)."""
        return {n: self._find(n) for loc in self.locations.values() for n in (loc.key, *loc.aliases)}

    def _find(self, name: str) -> Location:
        wanted = name.strip().lower().replace(" ", "_").replace("-", "_")
        for loc in self.locations.values():
            if wanted == loc.key or wanted in loc.aliases or name.strip() == loc.name_ja:
                return loc
        known = ", ".join(self.locations)
        raise KassenError(
            _("unknown hit location {name} (known: {known})").format(name=repr(name), known=known)
        )

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.locations)

    def limb_root(self, key: str) -> str:
        """The whole limb a location belongs to (a hand's arm), or the location itself."""
        return self.locations[key].part_of or key


# -- falling and knockback (AR.FAL.*, AR.KNB.*) ----------------------------------------------------------
class HeightRow(StrictModel):
    min_height: Ratio
    damage: Dice6


class GroundRow(StrictModel):
    per_die: Modifier
    name_ja: str = ""


class FallReadings(StrictModel):
    house_default: HouseDefault
    weight_rounding: Literal["full", "started"]
    dr_rounding: Literal["down", "up"]
    stun_check_attribute: Literal["higher", "ht", "per"]


class FallStunCheck(StrictModel):
    house_default: HouseDefault
    unconscious_margin: Annotated[int, Field(ge=1, le=100)]
    only_when_damaged: bool


class FallingData(StrictModel):
    house_default: HouseDefault
    damage_type: DamageType
    heights: tuple[HeightRow, ...]
    ground: dict[str, GroundRow]
    default_ground: str
    weight_step_kg: Annotated[int, Field(ge=1, le=WEIGHT[1])]
    dr_factor: Ratio
    readings: FallReadings
    stun_check: FallStunCheck

    @model_validator(mode="after")
    def _sorted(self) -> FallingData:
        heights = [h.min_height for h in self.heights]
        if heights != sorted(heights) or len(set(heights)) != len(heights):
            raise ValueError(_("heights must be in increasing order of min_height"))
        if self.default_ground not in self.ground:
            raise ValueError(
                _("default_ground {ground} is not in ground").format(ground=repr(self.default_ground))
            )
        return self


class PostureFactor(StrictModel):
    min_altitude: Ratio
    factor: Ratio


class Landing(StrictModel):
    house_default: HouseDefault
    fall_over_damage: bool
    knockback_damage: Literal["when_falling", "every_landing"]
    knockback_gets_fall_modifiers: bool
    halving: Literal["down", "up"]


class LandingFacing(StrictModel):
    """AR.RD.9, two switches: a fall from unconsciousness or death lands ``face_up`` whatever the hit
    (house reading) or ``by_hit_tier`` (face down after a middle- or lower-tier hit); when a knockdown and
    a failed knockback come from one hit, the ``knockback``'s fall (face up, on the brain) replaces the
    knockdown's (house reading), or the ``knockdown``'s fall stands and the knockback adds its damage."""

    house_default: HouseDefault
    incapacity_fall: Literal["face_up", "by_hit_tier"]
    knockdown_and_failed_knockback: Literal["knockback", "knockdown"]


class KnockbackData(StrictModel):
    house_default: HouseDefault
    types: tuple[DamageType, ...]
    cutting_without_penetration: bool
    st_offset: Modifier
    minimum_divisor: Divisor
    leg_fall_margin: Annotated[int, Field(ge=1, le=100)]
    damage_type: DamageType
    landing: Landing
    facing: LandingFacing
    posture_factors: dict[Posture, tuple[PostureFactor, ...]]

    @model_validator(mode="after")
    def _every_posture(self) -> KnockbackData:
        for posture in Posture:
            rows = self.posture_factors.get(posture)
            if not rows or rows[0].min_altitude != 0:
                raise ValueError(
                    _("posture_factors.{posture} needs a row from min_altitude 0").format(
                        posture=posture.value
                    )
                )
        return self


class StrengthRow(StrictModel):
    st: Annotated[int, Field(ge=1, le=1000)]
    thrust: Dice6
    swing: Dice6


class StrengthTable(StrictModel):
    house_default: HouseDefault
    rows: tuple[StrengthRow, ...]

    @model_validator(mode="after")
    def _sorted(self) -> StrengthTable:
        sts = [r.st for r in self.rows]
        if not sts or sts[0] != 1 or sts != sorted(set(sts)):
            raise ValueError(_("rows must start at st 1 and increase"))
        return self

    def row(self, st: int) -> StrengthRow:
        """The row for ``st`` (the last row whose ST is at most ``st``; ST below 1 reads row 1)."""
        chosen = self.rows[0]
        for r in self.rows:
            if r.st <= st:
                chosen = r
        return chosen


class FallingRules(StrictModel):
    falling: FallingData
    knockback: KnockbackData
    strength: StrengthTable


# -- injury, fatigue, guts -------------------------------------------------------------------------------
class ShockRules(StrictModel):
    house_default: HouseDefault
    combine: Literal["one_max", "max_each_summed"]
    timing_house_default: HouseDefault
    #: The attributes shock and pain penalize (AR.INJ.2: DX and IQ); every check based on one of them
    #: takes the penalty in force (:func:`kassen.arena.bout.reading.attribute_modifiers`).
    attributes_house_default: HouseDefault
    attributes: tuple[Literal["st", "dx", "iq", "ht", "per", "will"], ...]


class StunRules(StrictModel):
    ht_divisor: Divisor
    defense_modifier: Modifier


class HeadBlowRules(StrictModel):
    house_default: HouseDefault
    reading: Literal["per_hit", "cumulative"]


class HpRules(StrictModel):
    move_halved_at_or_below: PointsLevel
    ht_check_at_or_below: PointsLevel
    death_check_ht_multiple: Multiple
    death_check_every: Annotated[int, Field(ge=1, le=POINTS[1])]
    dead_ht_multiple: Multiple
    death_checks_house_default: HouseDefault
    #: AR.RD.8: death checks after the first come at the fixed thresholds -HT-5k (house reading), or
    #: after every 5 HP lost since the HP at which the last check was rolled (the other reading).
    further_checks_house_default: HouseDefault
    further_checks: Literal["fixed_thresholds", "since_last_check"]


class MoveRules(StrictModel):
    halving_rounding: Rounding


class BelowZero(StrictModel):
    house_default: HouseDefault
    reading: Literal["floor", "hp"]


class FatigueRules(StrictModel):
    all_out_cost: Small
    every_subturns: Annotated[int, Field(ge=1, le=1000)]
    st_penalty_at_or_below: PointsLevel
    st_penalty: Modifier
    move_halved_at_or_below: PointsLevel
    helpless_at: PointsLevel
    unconscious_at_or_below: PointsLevel
    below_zero: BelowZero


class GutsRules(StrictModel):
    fp_cost: Small
    damage_per_penalty: Divisor
    bonus_fp_cost: Small
    bonus: Modifier
    bonus_house_default: HouseDefault
    one_bonus_per_check: Literal["guts_only", "any"]
    #: AR.RD.8: the guts penalties of a stun count the hit that first caused it (house reading), or the
    #: latest stunning hit on the fighter already stunned (the other reading).
    stun_cause_house_default: HouseDefault
    stun_cause: Literal["first_hit", "latest_hit"]


class InjuryRules(StrictModel):
    shock: ShockRules
    stun: StunRules
    head_blow: HeadBlowRules
    hp: HpRules
    move: MoveRules
    fatigue: FatigueRules
    guts: GutsRules


# -- match, audience, combat terms ----------------------------------------------------------------------
class PopularityReadings(StrictModel):
    house_default: HouseDefault
    reactions: Literal["sign_aware", "literal", "magnitude"]
    champion: Literal["ever_won", "holds_title"]


class PopularityRules(StrictModel):
    base: Modifier
    champion_bonus: Modifier
    matches_for_bonus: Count
    matches_bonus: Modifier
    young_age_at_most: Annotated[int, Field(ge=0, le=200)]
    young_bonus: Modifier
    readings: PopularityReadings


class AudienceEffectKind(StrEnum):
    RECOVER_FP = "recover_fp"
    CHECK_BONUS = "check_bonus"
    CLEAR_SHOCK = "clear_shock"


class AudienceEffect(StrictModel):
    name: str
    name_ja: str
    kind: AudienceEffectKind
    amount: Small
    checks: tuple[CheckKind, ...] = ()


class AudienceRules(StrictModel):
    points_on_success: Small
    house_default: HouseDefault
    effects: dict[str, AudienceEffect]


class MatchFormatRules(StrictModel):
    house_default: HouseDefault
    max_subturns: Annotated[int, Field(ge=1, le=10_000)]
    order_by: tuple[Literal["st", "dx", "iq", "ht", "per", "will"], ...]
    lost_will_idle_slots: Annotated[int, Field(ge=1, le=100)]


class Fp1Override(StrictModel):
    house_default: HouseDefault
    means: Literal["audience", "none"]


class DefenseDefault(StrictModel):
    attributes: tuple[Literal["st", "dx", "iq", "ht", "per", "will"], ...]
    divisor: Divisor
    add: Modifier


class AllOut(StrictModel):
    attack_bonus: Modifier


class PostureRow(StrictModel):
    attack: Modifier
    defense: Modifier
    can_act: bool
    can_move: bool


class Guards(StrictModel):
    redirect: bool


class GrappleRules(StrictModel):
    dx_penalty: Modifier


class CombatRules(StrictModel):
    house_default: HouseDefault
    attack_skill_default: Literal["st", "dx", "iq", "ht", "per", "will"]
    defense_default: DefenseDefault
    all_out: AllOut
    postures: dict[Posture, PostureRow]
    rise: dict[Posture, Posture]
    guards: Guards
    grapple: GrappleRules

    @model_validator(mode="after")
    def _every_posture(self) -> CombatRules:
        require_every(Posture, self.postures, "postures")
        return self


class GutsBonusDefault(StrictModel):
    checks: tuple[CheckKind, ...]
    min_fp_after: PointsLevel


class FighterDefaults(StrictModel):
    house_default: HouseDefault
    hp: Literal["st", "dx", "iq", "ht", "per", "will"]
    fp: Literal["st", "dx", "iq", "ht", "per", "will"]
    move: DefenseDefault
    weight_kg: Weight
    guts_bonus: GutsBonusDefault


class EncumbranceRules(StrictModel):
    house_default: HouseDefault
    move_factors: tuple[Ratio, ...]


class ReactionRules(StrictModel):
    house_default: HouseDefault
    allowed_range: tuple[Modifier, Modifier]


class PositionRules(StrictModel):
    """The position model (AR.GAP.2 house default): fighters stand on a line, in whole metres; an attack
    needs its target within the weapon's reach, a grapple within ``grapple_reach``; a fighter moves up to
    its effective Move (AR.HP.1, AR.FTG.3, AR.KNB.5) in a slot; knockback (AR.KNB.1) pushes the target
    away from the attacker along the line."""

    house_default: HouseDefault
    start_distance: Distance
    default_reach: Annotated[int, Field(ge=0, le=10)]
    grapple_reach: Annotated[int, Field(ge=0, le=10)]
    attack_step: Annotated[int, Field(ge=0, le=MOVE[1])]


class MatchRules(StrictModel):
    popularity: PopularityRules
    audience: AudienceRules
    match: MatchFormatRules
    fp1_override: Fp1Override
    combat: CombatRules
    fighter_defaults: FighterDefaults
    encumbrance: EncumbranceRules
    reactions: ReactionRules
    position: PositionRules


# -- everything ----------------------------------------------------------------------------------------
class ArenaRules(StrictModel):
    """All arena data, one field per bundled file: the rules, and the ``visibility`` table (what a side
    may not see of the others, :mod:`kassen.core.view`), which decides what is shown, never how a bout
    resolves."""

    checks: CheckRules
    damage: DamageRules
    locations: LocationTable
    falling: FallingRules
    injury: InjuryRules
    match: MatchRules
    visibility: VisibilityModel

    @cached_property
    def memos(self) -> ArenaMemos:
        """What the arena tables remember of their pure readings (:mod:`kassen.arena.memos`)."""
        return ArenaMemos()

    @model_validator(mode="after")
    def _cross_refs(self) -> ArenaRules:
        if self.damage.basic.default_location not in self.locations.locations:
            raise ValueError(
                _("damage.basic.default_location {location} is not a hit location").format(
                    location=repr(self.damage.basic.default_location)
                )
            )
        return self
