"""The data of every kind of event a bout logs, declared (:data:`EVENT_TYPES`, the ruleset's
``info.event_types``): a chronicle's events are checked against them when it is read, ``kassen schema
chronicle --ruleset arena`` prints them, the renderers (:mod:`kassen.arena.report`) read them by these
names, and the tests check every event a bout logs.

Fighters are named by id; conditions, postures, facings and locations by their keys. The bout builds
the data of a check, a roll, an attack, a move and a hit's damage when it is first read (a battle
played to its end reads few of them), with the explanation ``steps`` always in it. A field a kind logs
only sometimes is ``NotRequired``. A value the visibility table hides from another side reads null in
that side's view, which is not a chronicle.
"""

from __future__ import annotations

__all__ = ["EVENT_TYPES"]

from typing import Any, NotRequired, TypedDict

from kassen.core.events import StepData


class OfFighter(TypedDict):
    """An event about one fighter."""

    fighter: str


# -- the bout -------------------------------------------------------------------------------------------
class BoutBegins(TypedDict):
    order: list[str]
    format: str


class Subturn(TypedDict):
    subturn: int


class BoutOver(TypedDict):
    winner: str | None
    reason: str
    subturn: int


class GmEnd(TypedDict):
    """The referee ends the bout (``winner`` null: nobody wins)."""

    winner: str | None


class Popularity(OfFighter):
    popularity: int
    steps: list[StepData]


class AudiencePoints(OfFighter):
    points: int


class AudiencePoint(OfFighter):
    """An audience point spent on ``effect`` (the data's key) of ``effect_kind``."""

    effect: str
    effect_kind: str


# -- checks, attacks, damage ----------------------------------------------------------------------------
class Check(OfFighter):
    """A 3d6 check of ``check`` (its kind) against ``target`` (AR.CORE.1): the faces, the roll, the margin,
    and the steps to the target followed by the roll's own; ``against`` the condition a guts check
    overrides."""

    check: str
    faces: list[int]
    roll: int
    target: int
    success: bool
    margin: int
    critical: bool
    steps: list[StepData]
    against: NotRequired[str]


class Attack(TypedDict):
    attacker: str
    target: str
    location: str
    all_out: bool
    hit: bool
    reason: str
    target_steps: list[StepData]


class QuickContest(TypedDict):
    """An attack against an active defence (AR.CORE.2): ``winner`` is ``first``, ``second`` or null (a
    tie)."""

    attacker: str
    defender: str
    winner: str | None
    margin_of_loss: int


class Die(TypedDict):
    """One die of a roll: its sides, faces (more than one when it explodes), value, and its term."""

    sides: int
    faces: list[int]
    value: int
    kept: bool
    exploded: bool
    group: int
    sign: int


class DamageRoll(OfFighter):
    what: str
    expression: str
    total: int
    dice: list[Die]


class Damage(OfFighter):
    """A hit's damage, every value of AR.DMG.1-6 (``attacker`` null: no fighter dealt it, a fall)."""

    hit: int
    attacker: str | None
    source: str
    type: str
    location: str
    basic: int
    armor_dr: int
    bone_dr: int
    soft_dr: int
    primary_penetration: int
    penetrating: int
    multiplier: str
    multiplied: int
    reduced: int
    final: int
    capped: bool
    crippled: bool
    crippling_amount: int | None
    steps: list[StepData]


class Injury(OfFighter):
    hit: int
    final: int
    hp_before: int
    hp_after: int


class Hp(OfFighter):
    hp: int


class Location(OfFighter):
    location: str


class Condition(OfFighter):
    condition: str


class Overridden(Condition):
    """An override's result in words (``acts normally``, ``stunned instead``, ``FP 3``)."""

    now: str


class MoveHalved(OfFighter):
    """Move halved at low HP or FP (AR.HP.1, AR.FTG.3): the HP or the FP that halved it."""

    move_before: int
    move_after: int
    hp: NotRequired[int]
    fp: NotRequired[int]


class Falls(OfFighter):
    facing: str
    lands: str


class MatchLost(OfFighter):
    reason: str


class Penalty(OfFighter):
    """Shock or pain: −``penalty`` on DX and IQ until the end of a subturn."""

    penalty: int
    until_end_of_subturn: int


class Ended(TypedDict):
    kind: str
    value: int


class ShockExpired(OfFighter):
    subturn: int
    ended: list[Ended]


class Fatigue(OfFighter):
    fp_before: int
    fp_after: int
    reason: str


class FatigueBelowZero(OfFighter):
    hp_lost: int
    hp_after: int


class Fatigued(OfFighter):
    fp: int
    st_checks: int


class Fp(OfFighter):
    fp: int


class FpChange(OfFighter):
    fp_before: int
    fp_after: int


class HpChange(OfFighter):
    hp_before: int
    hp_after: int


class Posture(OfFighter):
    posture: str


class Grapple(OfFighter):
    target: str
    held: bool


class Target(OfFighter):
    target: str


class Guard(OfFighter):
    """A limb raised to guard ``location`` (null: the guard as it was declared, no location named)."""

    arm: str
    location: str | None


class Guarded(OfFighter):
    arm: str
    location: str


class Arm(OfFighter):
    arm: str


class DeathCheckDue(OfFighter):
    threshold: int
    hp: int


class NoFurtherEffect(Condition):
    already: list[str]


class KnockedBack(OfFighter):
    """Knocked back ``metres`` by a blow to ``location``; moved from and to (by ``attacker``, null: no
    fighter) unless the knockback moves nobody."""

    metres: int
    location: str
    position_from: NotRequired[int]
    position_to: NotRequired[int]
    attacker: NotRequired[str | None]


class Moved(OfFighter):
    """A fighter moved: from, to, how far, its Move, why, and the nearest foe after (null: none)."""

    position_from: int
    position_to: int
    metres: int
    move: int
    why: str
    nearest: str | None
    distance: int | None
    steps: list[StepData]


class StunRenewed(OfFighter):
    hit: int
    final: int
    margin_of_loss: int


class Aerial(OfFighter):
    falls: bool
    lands_on: str | None
    knockback_factor: str
    factor_reason: str


class KnockbackDamage(OfFighter):
    rolled: int
    factor: str
    basic: int


class LandsFacing(OfFighter):
    """How a fighter will land: by the knockback's ``tier``, or by a ``cause`` (a leg knockback)."""

    facing: str
    tier: NotRequired[str]
    cause: NotRequired[str]


class Landed(OfFighter):
    """Landed: lying (facing, on ``location``, from ``height``), or on its feet."""

    posture: str
    facing: NotRequired[str]
    location: NotRequired[str]
    height: NotRequired[str]
    on_its_feet: NotRequired[bool]


class Rooted(OfFighter):
    until_subturn: int


class CannotFall(OfFighter):
    """A fall that cannot happen: the fighter is already down (AR.KNB.5's leg knockback)."""

    already: str
    cause: str


class Exempted(OfFighter):
    """Tasks of a hit the fighter is exempted from (AR.INJ.10): how many."""

    hit: int
    exempted: int


class GmCondition(Condition):
    added: bool


#: Every kind of event a bout logs, with the TypedDict of its data.
EVENT_TYPES: dict[str, Any] = {
    "aerial": Aerial,
    "attack": Attack,
    "audience_point": AudiencePoint,
    "audience_points": AudiencePoints,
    "bout_begins": BoutBegins,
    "bout_over": BoutOver,
    "check": Check,
    "crippled": Location,
    "damage": Damage,
    "damage_roll": DamageRoll,
    "dead": Hp,
    "death_check_due": DeathCheckDue,
    "declined": Condition,
    "exempted": Exempted,
    "falls": Falls,
    "fatigue": Fatigue,
    "fatigue_below_zero": FatigueBelowZero,
    "fatigued": Fatigued,
    "fp_recovered": FpChange,
    "gave_up": OfFighter,
    "gm_condition": GmCondition,
    "gm_end": GmEnd,
    "gm_fp": FpChange,
    "gm_hp": HpChange,
    "grapple": Grapple,
    "grapple_released": Target,
    "guard": Guard,
    "guard_dropped": Arm,
    "guarded": Guarded,
    "helpless": Fp,
    "ht_checks_each_subturn": Hp,
    "incapacitated": Condition,
    "injury": Injury,
    "knockback_damage": KnockbackDamage,
    "knocked_back": KnockedBack,
    "landed": Landed,
    "lands_facing": LandsFacing,
    "match_lost": MatchLost,
    "move_halved": MoveHalved,
    "moved": Moved,
    "no_further_effect": NoFurtherEffect,
    "overridden": Overridden,
    "override_offered": Condition,
    "pain": Penalty,
    "popularity": Popularity,
    "quick_contest": QuickContest,
    "rise": Posture,
    "rooted": Rooted,
    "cannot_fall": CannotFall,
    "defense_back": OfFighter,
    "shock": Penalty,
    "shock_cleared": OfFighter,
    "shock_expired": ShockExpired,
    "stun_ended": OfFighter,
    "stun_renewed": StunRenewed,
    "stunned": OfFighter,
    "subturn": Subturn,
    "wait": OfFighter,
}
