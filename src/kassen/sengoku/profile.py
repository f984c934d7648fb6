"""A unit's combat profile and an attack's tags: the plain, typed data Sengoku rules read.

Everything here is a frozen, slotted dataclass (state is data; rules are functions over it). Numbers
that come from tables (grade base Defense, Wounds by grade, armor additions...) are *not* stored here:
they live in the ruleset's data files and are looked up by the rules, so a user can override them.
"""

from __future__ import annotations

__all__ = [
    "ALL",
    "AimFocus",
    "Amount",
    "ArmorKind",
    "AttackTags",
    "Attributes",
    "BonusKind",
    "CombatProfile",
    "DefenseBonus",
    "DefenseDebuff",
    "ExorcismRank",
    "Grade",
]

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from kassen.core.fastinit import fast_init

#: ``[Pierce all]`` / ``[Direct all]``.
ALL: Literal["all"] = "all"
Amount = int | Literal["all"]


class AimFocus(StrEnum):
    """Which tag a technique's text allows Aim Focus to scale (SG.AIM.1): "Aim Focus [Pierce] allowed",
    "Aim Focus [Direct] allowed", or neither."""

    NONE = "none"
    PIERCE = "pierce"
    DIRECT = "direct"


class Grade(StrEnum):
    """Unit grades (SG.DEF.1): Mob 雜, Minion 卒, Veteran 練, Elite, Lord, and player characters."""

    MOB = "mob"
    MINION = "minion"
    VETERAN = "veteran"
    ELITE = "elite"
    LORD = "lord"
    PC = "pc"


class ArmorKind(StrEnum):
    """Armor rows of the Defense table (SG.DEF.2)."""

    NONE = "none"
    LIGHT = "light"
    HEAVY = "heavy"
    HEAVY_BATTLE = "heavy-battle"


class BonusKind(StrEnum):
    """Non-armor Defense bonus kinds (SG.DEF.4); all of them are removed by [Direct]."""

    STANCE = "stance"
    BARRIER = "barrier"  # barrier or sacred ground
    TERRAIN = "terrain"  # terrain or cover
    SPELL = "spell"  # spell or blessing, squad formation bonus
    EVASION = "evasion"  # evasion or infiltration


class ExorcismRank(StrEnum):
    """The defender's Exorcism rank, which sets the target number of [Incorporeal] attacks (SG.INC.2)."""

    NONE = "none"
    NOVICE = "novice"
    LICENSED = "licensed"
    MASTER = "master"
    SAINT = "saint"


@dataclass(frozen=True, slots=True)
class Attributes:
    """Attribute modifiers: Physique 體, Finesse 技, Courage, Presence, Fate 運."""

    physique: int = 0
    finesse: int = 0
    courage: int = 0
    presence: int = 0
    fate: int = 0


@fast_init
@dataclass(frozen=True, slots=True)
class DefenseBonus:
    """A non-armor Defense bonus (stance, barrier, terrain, spell, evasion) and where it comes from."""

    kind: BonusKind
    value: int
    source: str = ""


@dataclass(frozen=True, slots=True)
class DefenseDebuff:
    """Defense −N: a status on the target, not an attack tag (SG.DBF.1, SG.DBF.4).

    ``rounds`` is the remaining duration in rounds, ``None`` for "until removed".
    """

    value: int
    source: str = ""
    rounds: int | None = None


@dataclass(frozen=True, slots=True)
class CombatProfile:
    """What the Defense and attack rules need to know about one unit.

    ``wounds_max``/``wounds`` are ``None`` until set; the rules then use the grade's Wounds from data
    (SG.WND.5 house default). ``defense_override`` is a stat block's own lower Defense (SG.DEF.6).
    ``armor_damage`` is the permanent armor reduction left by [Break] until repair (SG.BRK.2).
    """

    name: str = "unit"
    #: The unit's id in a battle (empty outside one): what the events name it by (:attr:`key`).
    id: str = ""
    grade: Grade = Grade.VETERAN
    armor: ArmorKind = ArmorKind.NONE
    shield: bool = False
    natural_armor: int = 0
    #: What the creature's natural-armor entry states about [Pierce] (SG.PRC.4, SG.RD.9): ``True``/``False``
    #: when the entry says so, ``None`` when it is silent (the attack's statement or the table decides).
    natural_armor_pierceable: bool | None = None
    #: Defense from techniques attached to armor or shields (o-yoroi shoulder catch...): armor category.
    armor_bonus: int = 0
    armor_damage: int = 0
    emergency_patch_used: bool = False
    bonuses: tuple[DefenseBonus, ...] = ()
    debuffs: tuple[DefenseDebuff, ...] = ()
    defenseless: bool = False
    defense_override: int | None = None
    wounds_max: int | None = None
    wounds: int | None = None
    weapon_grade: str = "ordinary"
    armor_grade: str = "ordinary"
    exorcism: ExorcismRank = ExorcismRank.NONE
    incorporeal_defense: int = 0
    attributes: Attributes = field(default_factory=Attributes)
    skills: tuple[tuple[str, int], ...] = ()
    #: Fate points left to spend on Fate Intervention and Last Bastion (SG.FAT.1, SG.FAT.2). Not the
    #: Fate 運 *modifier* (``attributes.fate``), which the death check reads (SG.INP.3).
    fate_points: int = 0
    #: A lasting -N on every check (a campaign's serious injury, SG.INP.3 house default).
    check_penalty: int = 0
    #: The side the unit fights for; a Lord's fall costs that faction's squads Cohesion (SG.INP.2).
    faction: str = ""

    @property
    def key(self) -> str:
        """What an event names the unit by: its battle id, else (a calculator's profile) its name."""
        return self.id or self.name

    def skill(self, name: str) -> int:
        """The skill's rank, 0 when the unit does not have it."""
        return dict(self.skills).get(name.lower(), 0)


@dataclass(frozen=True, slots=True)
class AttackTags:
    """An attack's bypass tags for one check: [Pierce N|all], [Direct N|all], [Incorporeal], [Break].

    ``pierce_natural`` says whether [Pierce] also reaches natural armor (SG.PRC.4): ``True``/``False``
    when the attack states it, ``None`` to leave it to the table setting (the GM decision's default).
    """

    pierce: Amount | None = None
    direct: Amount | None = None
    incorporeal: bool = False
    break_: bool = False
    pierce_natural: bool | None = None
