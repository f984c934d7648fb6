"""The roll-and-keep ruleset's tables, as typed, validated data (``kassen/l5r/data/*.yaml``).

Every number the rules read from a table lives here, never in Python: wound ranks (L5.CORE.6), TN to be
hit (L5.CORE.2), the raise limit (L5.CORE.3), Full Attack and Full Defense (L5.CORE.7), initiative
(L5.CORE.8), the ten dice rule (L5.CORE.1), raises per called shot and maim multiples (L5.CS.1, L5.CS.3),
the injuries' effects, and the special attacks' raises. Each house default (a CORE default, a GAP or a
reading to choose, RD) carries ``house_default: {rule, rationale}`` and an ``alternative``.

The three sections (``core``, ``called_shots``, ``special_attacks``) come through the content layers
(:mod:`kassen.l5r.content`): a user's layer merges over the bundled data section by section, key by key.
"""

from __future__ import annotations

__all__ = [
    "LASTING_KINDS",
    "SECTIONS",
    "VIEW_SECTIONS",
    "Aftermath",
    "CalledShotTables",
    "CoreTables",
    "Disadvantages",
    "EffectKind",
    "EffectRow",
    "EndingAction",
    "HouseDefaultSection",
    "InjuryRow",
    "L5Tables",
    "Location",
    "LocationRow",
    "Movement",
    "RollKind",
    "SpecialAttackName",
    "SpecialRow",
    "SpecialTables",
    "TraitName",
    "ViewTable",
]

from enum import StrEnum
from functools import cache, cached_property
from importlib import resources
from typing import Annotated, Literal

import yaml
from pydantic import Field, ValidationInfo, field_validator, model_validator

from kassen.content.yamlio import HouseDefault, StrictModel, require_every
from kassen.core.errors import did_you_mean
from kassen.core.view import VisibilityModel
from kassen.i18n import S_
from kassen.l5r.domain import MAX_FEET, DiceChange, Divisor, Multiple, Tn, TnChange, Turns, WoundCount
from kassen.l5r.memos import L5Memos

TraitName = Literal[
    "stamina", "willpower", "strength", "perception", "agility", "intelligence", "reflexes", "awareness"
]
#: Values a roll may be built from: a Trait, the Void Ring or the Insight Rank.
StatName = Literal[
    "stamina",
    "willpower",
    "strength",
    "perception",
    "agility",
    "intelligence",
    "reflexes",
    "awareness",
    "void",
    "insight_rank",
]
RingName = Literal["earth", "water", "fire", "air"]


class Location(StrEnum):
    """Called-shot locations (L5.CS.1)."""

    TORSO = "torso"
    ARM = "arm"
    LEG = "leg"
    FOOT = "foot"
    HAND = "hand"
    HEAD = "head"


class SpecialAttackName(StrEnum):
    """The special attacks (L5.SPC.1)."""

    BIND = "bind"
    CLIPPING = "clipping"
    CORPS_A_CORPS = "corps_a_corps"
    DISARM = "disarm"
    DRIVE = "drive"
    FOUL = "foul"
    MARK = "mark"
    POINT_TO_THROAT = "point_to_throat"
    SUBDUE = "subdue"


#: What an injury effect touches (L5.ARM.1 ... L5.TOR.1): attack rolls, damage rolls, every skill roll,
#: Full Defense rolls, balance rolls.
RollKind = Literal["attack", "damage", "skill", "full_defense", "balance"]
#: The actions that end a status (regaining grip, clearing the eyes...).
EndingAction = Literal["regain_grip", "regain_footing", "clear_vision", "remove_weapon", "medical_aid"]
EffectKind = Literal[
    "dice",  # change the dice rolled on one kind of roll by `amount`
    "no_skill_dice",  # attack rolls roll no skill dice
    "no_reroll_tens",  # attack rolls do not explode
    "unskilled",  # attacks are unskilled: no raises, no exploding 10s
    "tn_to_be_hit",  # TN to be hit changes by `amount`
    "prone",  # TN to be hit becomes the prone value
    "initiative",  # initiative total changes by `amount`, fading by `shrink_per_turn`
    "lose_initiative",  # declares first, acts last
    "blackout",  # loses the next `amount` actions; may not declare Full Defense meanwhile
    "bleed_turn_start",  # `amount` Wounds at the beginning of each turn
    "bleed_after_attack",  # `amount` Wounds at the end of each turn the character declared an attack
    "maim_bleed",  # `amount` Wounds every Earth turns until medical aid
    "permanent_wound",  # bleeding heavier (L5.RD.3)
    "extra_wounds",  # Wounds added to this hit (`source`)
    "drop_weapon",  # the weapon falls
    "hand_unusable",  # the weapon hand cannot act for `turns` turns
    "cannot_move",  # cannot move (cannot give way to a Drive)
    "movement_divisor",  # movement divided by `amount` (cumulative; core.movement)
    "condition",  # a named condition (a disadvantage): its lasting effects in called_shots.disadvantages
]
#: Effect kinds a disadvantage may have: lasting penalties, read the same way as an injury's.
LASTING_KINDS = (
    "dice",
    "no_skill_dice",
    "no_reroll_tens",
    "unskilled",
    "tn_to_be_hit",
    "initiative",
    "movement_divisor",
    "permanent_wound",
)


class HouseDefaultSection(StrictModel):
    """A table section that is a house default: the ledger rule it fills, why, and the other reading."""

    house_default: HouseDefault
    alternative: str


class EffectRow(StrictModel):
    """One mechanical effect of an injury, with its timing."""

    kind: EffectKind
    amount: TnChange = 0
    applies_to: RollKind | None = None
    starts: Literal["now", "next_turn"] = "now"
    turns: Annotated[int, Field(ge=1, le=100)] | None = None
    shrink_per_turn: Turns = 0
    ended_by: EndingAction | None = None
    condition: str | None = None
    source: Literal["next_highest_die", "attacker_weapon_skill"] | None = None

    @model_validator(mode="after")
    def _fields_for_kind(self) -> EffectRow:
        needs_roll = {"dice", "no_skill_dice", "no_reroll_tens", "unskilled"}
        if (self.kind in needs_roll) != (self.applies_to is not None):
            raise ValueError(
                S_("applies_to is required") if self.kind in needs_roll else S_("applies_to is not allowed")
            )
        if (self.kind == "condition") != (self.condition is not None):
            raise ValueError(S_("condition names go with kind: condition only"))
        if (self.kind == "extra_wounds") != (self.source is not None):
            raise ValueError(S_("source goes with kind: extra_wounds only"))
        return self


class InjuryRow(StrictModel):
    text: str
    effects: list[EffectRow]
    maim: bool = False


class LocationRow(StrictModel):
    rule: str
    raises: int = Field(ge=2, le=20, description="Raises the called shot needs: two or more (L5.CS.1).")
    maim_earth_multiple: int = Field(
        ge=1, le=20, description="Damage of Earth x this allows a maim (L5.CS.3)."
    )
    distinctive_death: str
    injuries: dict[str, InjuryRow]

    @model_validator(mode="after")
    def _has_maim(self) -> LocationRow:
        if not any(i.maim for i in self.injuries.values()):
            raise ValueError(S_("every location needs a maim injury (L5.CS.3)"))
        return self


class Conditions(HouseDefaultSection):
    prone_tn_to_be_hit: TnChange
    balance_rolls: list[Literal["drive_footing"]]
    medical_aid_stops: list[Literal["maim_bleed", "bleed_turn_start", "bleed_after_attack"]]


class PermanentWound(HouseDefaultSection):
    bleeding: list[Literal["maim_bleed", "bleed_turn_start", "bleed_after_attack"]]
    wounds: WoundCount


class Disadvantages(HouseDefaultSection):
    """What each disadvantage a maim gives does, for good (L5.GAP.1, L5.CS.3): lasting effects, no
    timing (they start with the maim, or with the fight for a character who carries them)."""

    effects: dict[str, list[EffectRow]]

    @model_validator(mode="after")
    def _lasting(self) -> Disadvantages:
        for name, rows in self.effects.items():
            for row in rows:
                if row.kind not in LASTING_KINDS:
                    raise ValueError(
                        S_(
                            "{name}: a disadvantage's effect is lasting: {kind} is not",
                            name=name,
                            kind=row.kind,
                        )
                    )
                if (
                    row.turns is not None
                    or row.ended_by is not None
                    or row.starts != "now"
                    or row.shrink_per_turn
                ):
                    raise ValueError(
                        S_("{name}: a disadvantage's effect has no timing (it lasts for good)", name=name)
                    )
        return self


class Aftermath(HouseDefaultSection):
    """What a character carries from one fight into the next (L5.CS.3: only the Wounds can be
    recovered)."""

    carry_wounds: bool


class CalledShotTables(StrictModel):
    locations: dict[Location, LocationRow]
    conditions: Conditions
    permanent_wound: PermanentWound
    disadvantages: Disadvantages
    aftermath: Aftermath

    @model_validator(mode="after")
    def _every_location(self) -> CalledShotTables:
        require_every(Location, self.locations, "locations")
        named = {
            e.condition
            for row in self.locations.values()
            for inj in row.injuries.values()
            for e in inj.effects
            if e.condition is not None
        }
        missing = sorted(named - set(self.disadvantages.effects))
        if missing:
            raise ValueError(
                S_("disadvantages.effects lacks {value} (named by a maim)", value=", ".join(missing))
            )
        return self


class SpecialRow(StrictModel):
    rule: str
    raises: Annotated[int, Field(ge=1, le=20)]
    full_attack: bool
    damage: bool
    damage_rolled: DiceChange = 0
    out_floor: bool = False


class Clipping(HouseDefaultSection):
    condition: str


class Foul(HouseDefaultSection):
    """A Foul with no other opponent to obstruct (L5.FOL.1): ``ineffective`` (declared, its blow dealt
    as a plain one, the log saying it obstructs no one) or ``refused`` (not a legal declaration)."""

    unobstructed: Literal["ineffective", "refused"]


class CorpsACorps(HouseDefaultSection):
    close_margin: Tn
    close_loser_thrown: bool
    disengage_free_raises: Annotated[int, Field(ge=0, le=20)]


class Drive(HouseDefaultSection):
    give_way_deals_damage: bool
    footing_tn_divisor: Divisor


class Disarm(StrictModel):
    distance_dice: Annotated[int, Field(ge=0, le=10)]
    distance_sides: Annotated[int, Field(ge=1, le=100)]


ActKindName = Literal[
    "attack",
    "full_defense",
    "wait",
    "yield",
    "regain_grip",
    "regain_footing",
    "clear_vision",
    "free_weapon",
    "remove_weapon",
    "recover_weapon",
    "medical_aid",
    "hold_point",
    "release_bind",
    "struggle",
    "disengage",
    "close",
    "retreat",
]


class PointToThroat(HouseDefaultSection):
    free_raises: Annotated[int, Field(ge=0, le=20)]
    triggers: list[ActKindName]


class SpecialTables(StrictModel):
    specials: dict[SpecialAttackName, SpecialRow]
    clipping: Clipping
    foul: Foul
    corps_a_corps: CorpsACorps
    drive: Drive
    disarm: Disarm
    point_to_throat: PointToThroat

    @model_validator(mode="after")
    def _every_special(self) -> SpecialTables:
        require_every(SpecialAttackName, self.specials, "special attacks")
        return self


class SkillNames(StrictModel):
    defense: str
    athletics: str
    hand_to_hand: list[str]
    #: Every skill a character may list (a scenario's misspelt skill is refused with the nearest one).
    known: list[str] = Field(default_factory=list, max_length=1000)

    def names(self) -> frozenset[str]:
        """``known`` and the skills the rules roll by name."""
        return frozenset({*self.known, self.defense, self.athletics, *self.hand_to_hand})


@cache
def game_skills() -> frozenset[str]:
    """The game's skills as the bundled ``core.yaml`` lists them (``skills.known``), read as plain data:
    a layer that writes its own ``known`` list replaces the bundled one, and a weapon row may still
    name one of these."""
    text = resources.files("kassen.l5r.data").joinpath("core.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    return frozenset(str(s) for s in data["skills"]["known"])


def unknown_weapon_skill(skill: str, known: frozenset[str]) -> str | None:
    """Why a weapon's ``skill`` is refused (a skill no character could have makes every attack with the
    weapon unskilled), with the nearest of ``known``; None when it is one of them."""
    if skill in known:
        return None
    near = did_you_mean(skill, known) or "; add it to core.skills.known if it is a skill of your own"
    return f"unknown skill {skill!r} (it would make every attack with the weapon unskilled){near}"


class WeaponRow(StrictModel):
    damage: str = Field(pattern=r"^[0-9]+k[0-9]+$", description="Weapon damage XkY (L5.CORE.5).")
    skill: str
    reach: int | None = Field(
        default=None, ge=0, le=100, description="Feet it reaches (default: movement.reach)."
    )


class TnToBeHit(HouseDefaultSection):
    reflexes_multiplier: Multiple
    base: TnChange = 0
    armor: dict[str, TnChange]


class Raises(HouseDefaultSection):
    tn_per_raise: Annotated[int, Field(ge=0, le=50)]
    limit: Literal["void", "insight_rank", "weapon_skill", "none"]
    limit_bonus: Annotated[int, Field(ge=-10, le=20)] = 0
    #: With ``limit: none``: the most paid raises an attack in the legal-declaration list carries (the
    #: list must be finite; declaring more stays legal).
    max_enumerated_raises: Annotated[int, Field(ge=0, le=20)]
    damage_rolled_per_raise: Annotated[int, Field(ge=0, le=10)]


class FreeRaises(HouseDefaultSection):
    unused_lowers_tn_by: Annotated[int, Field(ge=0, le=50)]


class WoundRank(StrictModel):
    name: str
    earth_multiple: Annotated[int, Field(ge=1, le=20)]
    tn_penalty: Tn
    out: bool = False


class WoundRanks(HouseDefaultSection):
    ranks: list[WoundRank] = Field(min_length=2)

    @model_validator(mode="after")
    def _out_is_last(self) -> WoundRanks:
        if not self.ranks[-1].out or any(r.out for r in self.ranks[:-1]):
            raise ValueError(S_("exactly one rank is Out, and it is the last (Wounds beyond it are Dead)"))
        return self


class DeadRank(HouseDefaultSection):
    """L5.RD.4: "fill the target's Dead Wound Rank". ``earth_multiple`` > 0: Dead is a rank of Earth x
    that many boxes past Out, and filling its last box kills (Wounds in it leave the character down);
    0: it has no boxes, the first Wound past Out is fatal."""

    earth_multiple: Multiple


class Movement(HouseDefaultSection):
    """The position model (L5.GAP.1 house default): fighters on a line, positions in feet."""

    start_distance: int = Field(
        ge=0, le=MAX_FEET, description="Feet between opposing sides when a duel begins."
    )
    reach: int = Field(ge=0, le=100, description="Feet a weapon reaches unless its row gives its own.")
    feet_per_water: int = Field(ge=0, le=100, description="A turn's move with any action: Water x this.")
    move_action_multiple: int = Field(
        ge=1, le=20, description="An action spent moving: this x the turn's move."
    )
    stops_movement: list[Literal["cannot_move", "prone"]]


class FullAttack(HouseDefaultSection):
    attack_rolled: DiceChange
    attack_kept: DiceChange
    tn_to_be_hit_change: TnChange


class FullDefense(HouseDefaultSection):
    bonus_divisor: Divisor


class Initiative(HouseDefaultSection):
    rolled: list[StatName]
    kept: list[StatName]


class TenDice(HouseDefaultSection):
    enabled: bool
    max_dice: Annotated[int, Field(ge=1, le=100)]
    rolled_per_kept: Divisor
    bonus_per_excess: Annotated[int, Field(ge=0, le=100)]


class CoreTables(StrictModel):
    rings: dict[RingName, tuple[TraitName, TraitName]]
    skills: SkillNames
    weapons: dict[str, WeaponRow]
    tn_to_be_hit: TnToBeHit
    raises: Raises
    free_raises: FreeRaises
    wound_ranks: WoundRanks
    dead_rank: DeadRank
    movement: Movement
    full_attack: FullAttack
    full_defense: FullDefense
    initiative: Initiative
    ten_dice: TenDice

    @field_validator("weapons")
    @classmethod
    def _known_weapon_skills(cls, value: dict[str, WeaponRow], info: ValidationInfo) -> dict[str, WeaponRow]:
        skills = info.data.get("skills")
        if isinstance(skills, SkillNames):
            known = skills.names() | game_skills()
            for name, row in value.items():
                why = unknown_weapon_skill(row.skill, known)
                if why is not None:
                    raise ValueError(S_("{name}.skill: {why}", name=name, why=why))
        return value

    def skill_names(self) -> frozenset[str]:
        """The skills a character may list: ``skills.known``, the skills the rules roll by name, and
        every weapon row's skill (each of them checked to be one of the game's)."""
        return self.skills.names() | {row.skill for row in self.weapons.values()}

    @model_validator(mode="after")
    def _every_ring(self) -> CoreTables:
        missing = [r for r in ("earth", "water", "fire", "air") if r not in self.rings]
        if missing:
            raise ValueError(S_("missing rings: {value}", value=", ".join(missing)))
        if "none" not in self.tn_to_be_hit.armor:
            raise ValueError(S_("tn_to_be_hit.armor needs a 'none' row"))
        return self


class ViewTable(VisibilityModel):
    """What a side may not see of the others (:mod:`kassen.core.view`): the core's visibility table,
    with the other reading like every house default of this ruleset."""

    alternative: str


#: The content sections of the rules, in order: each is a table merged key by key over the bundled one.
SECTIONS = ("core", "called_shots", "special_attacks")
#: Sections that decide what a side may see, never how a duel resolves: merged and validated like the
#: others, left out of the content's digests (:mod:`kassen.l5r.content`).
VIEW_SECTIONS = ("visibility",)


class L5Tables(StrictModel):
    """Every table the ruleset reads, as one immutable value: the tables of a fight's content."""

    core: CoreTables
    called_shots: CalledShotTables
    special_attacks: SpecialTables
    visibility: ViewTable

    @cached_property
    def memos(self) -> L5Memos:
        """What the tables remember of their pure readings (:mod:`kassen.l5r.memos`)."""
        return L5Memos()

    def location(self, location: Location) -> LocationRow:
        return self.called_shots.locations[location]

    def special(self, name: SpecialAttackName) -> SpecialRow:
        return self.special_attacks.specials[name]

    def house_defaults(self) -> list[tuple[str, HouseDefault, str]]:
        """``(table path, house default, alternative)`` for every house default in the tables."""
        c, s, k = self.core, self.special_attacks, self.called_shots
        rows: list[tuple[str, HouseDefaultSection]] = [
            ("core.tn_to_be_hit", c.tn_to_be_hit),
            ("core.raises", c.raises),
            ("core.free_raises", c.free_raises),
            ("core.wound_ranks", c.wound_ranks),
            ("core.dead_rank", c.dead_rank),
            ("core.movement", c.movement),
            ("core.full_attack", c.full_attack),
            ("core.full_defense", c.full_defense),
            ("core.initiative", c.initiative),
            ("core.ten_dice", c.ten_dice),
            ("called_shots.conditions", k.conditions),
            ("called_shots.permanent_wound", k.permanent_wound),
            ("called_shots.disadvantages", k.disadvantages),
            ("called_shots.aftermath", k.aftermath),
            ("special_attacks.clipping", s.clipping),
            ("special_attacks.foul", s.foul),
            ("special_attacks.corps_a_corps", s.corps_a_corps),
            ("special_attacks.drive", s.drive),
            ("special_attacks.point_to_throat", s.point_to_throat),
        ]
        out = [(path, m.house_default, m.alternative) for path, m in rows]
        return [*out, ("visibility", self.visibility.house_default, self.visibility.alternative)]
