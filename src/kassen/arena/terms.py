"""The arena's words, as enums: attack types, hit-location tiers, postures, conditions.

Values are the short names used in data files, JSON and the CLI (``cr``, ``pi++``, ``lying``...).
"""

from __future__ import annotations

__all__ = [
    "CheckKind",
    "Condition",
    "DamageSource",
    "DamageType",
    "Facing",
    "Limb",
    "MatchFormat",
    "Posture",
    "Tier",
]

from enum import StrEnum


class DamageType(StrEnum):
    """Attack types (攻撃型, AR.DMG.5): crushing, cutting, impaling, the four piercing sizes, burning."""

    CRUSHING = "cr"
    CUTTING = "cut"
    IMPALING = "imp"
    SMALL_PIERCING = "pi-"
    PIERCING = "pi"
    LARGE_PIERCING = "pi+"
    HUGE_PIERCING = "pi++"
    BURNING = "burn"


class Tier(StrEnum):
    """Hit-location tiers 上段 / 中段 / 下段 (AR.GAP.1, used by AR.KNB.7)."""

    UPPER = "upper"
    MIDDLE = "middle"
    LOWER = "lower"


class Limb(StrEnum):
    """Which limb (四肢) a location belongs to, for limb knockback (AR.KNB.5) and guards."""

    ARM = "arm"
    LEG = "leg"


class Posture(StrEnum):
    """Postures (AR.GAP.2): standing, sitting 着座, lying 転倒, aerial 空中 (AR.KNB.2, AR.KNB.6)."""

    STANDING = "standing"
    SITTING = "sitting"
    LYING = "lying"
    AERIAL = "aerial"


class Facing(StrEnum):
    """How a fallen character lies (AR.KNB.7): face down うつ伏せ or face up 仰向け."""

    FACE_UP = "face_up"
    FACE_DOWN = "face_down"


class Condition(StrEnum):
    """Conditions of a fighter. Unconscious, dead, gave up and lost the will to fight are the
    incapacitated states (AR.OUT.1); stunned is AR.STN.1."""

    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"
    GAVE_UP = "gave_up"
    LOST_WILL = "lost_will"

    @property
    def incapacitating(self) -> bool:
        return self is not Condition.STUNNED


class DamageSource(StrEnum):
    """Where a hit came from: an attack, a fall (AR.FAL.1), knockback (AR.KNB.3), oneself (AR.SLF.1)."""

    ATTACK = "attack"
    FALLING = "falling"
    KNOCKBACK = "knockback"
    SELF = "self"


class CheckKind(StrEnum):
    """The kinds of check the bout rolls; guts-bonus plans and audience bonuses name them."""

    ATTACK = "attack"
    DEFENSE = "defense"
    STUN_RECOVERY = "stun_recovery"
    ZERO_HP = "zero_hp"
    DEATH = "death"
    KNOCKDOWN = "knockdown"
    VITAL = "vital"
    FALL_STUN = "fall_stun"
    KNOCKBACK = "knockback"
    LIMB_KNOCKBACK = "limb_knockback"
    GUTS = "guts"
    POPULARITY = "popularity"
    GRAPPLE = "grapple"


class MatchFormat(StrEnum):
    """``match`` (試合形式): incapacitation and FP 1 lose unless overridden (AR.OUT.1, AR.FTG.4);
    ``fight``: no match losses, the bout ends when one side alone can still act (AR.GAP.2)."""

    MATCH = "match"
    FIGHT = "fight"
