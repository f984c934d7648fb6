"""The Sengoku catalog's entries as typed, strict, frozen models: weapons, armor, shields, maneuvers,
creatures, traits and debuff sources.

One model per kind of entry; every entry has an ``id`` (lowercase, digits and hyphens) that is unique in
the whole catalog, a ``name`` in the game's words, the ledger ``rules`` its numbers come from, and a
``house_default`` (rule + rationale) where kassen had to invent a number the seeds leave out (SG.MAN.1).
References between entries (a weapon's Attack A, a creature's armor...) are ids, checked by the catalog
loader (:mod:`kassen.sengoku.catalog`) once every layer is merged; :meth:`references` lists them.

A :class:`Maneuver` is the single source of truth for a technique: resolution and Aim Focus read the
:class:`~kassen.sengoku.technique.Technique` built from it (with the weapon it is used with).
"""

from __future__ import annotations

__all__ = [
    "Aid",
    "Aptitude",
    "Armor",
    "ArmorBreak",
    "Attribute",
    "Check",
    "Creature",
    "CreatureAttributes",
    "DebuffSource",
    "DefenseGrant",
    "EffectData",
    "EntryId",
    "GrantScope",
    "HonorClass",
    "Limit",
    "LimitPer",
    "Maneuver",
    "ManeuverKind",
    "Movement",
    "MovementTo",
    "NaturalArmor",
    "Range",
    "Reach",
    "Reaction",
    "ReactionKind",
    "Reference",
    "RuleId",
    "Shield",
    "Situation",
    "SituationalBonus",
    "SpecialCritical",
    "Trait",
    "TraitAmbush",
    "Upkeep",
    "Weapon",
    "ZoneKind",
]

from collections.abc import Iterator
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from kassen.content.yamlio import HouseDefault, StrictModel
from kassen.sengoku.domain import (
    AttributeValue,
    MaxEnergy,
    MaxWounds,
    Modifier,
    Rounds,
    SkillRank,
    Small,
    Target,
)
from kassen.sengoku.profile import AimFocus, AttackTags, BonusKind, DefenseDebuff, ExorcismRank, Grade
from kassen.sengoku.resolution import EffectKind
from kassen.sengoku.tags import TagError, parse_tags

#: An entry id: lowercase words joined by hyphens (``pierce-the-vitals``).
EntryId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
#: A ledger rule ID (``SG.AIM.5``).
RuleId = Annotated[str, StringConstraints(pattern=r"^SG\.[A-Z0-9]+\.[0-9]+$")]
#: A skill name as the profile stores it (``swordsmanship``, ``heavy-weapons``).
SkillName = Annotated[str, StringConstraints(pattern=r"^[a-z]+(-[a-z]+)*$")]
#: The attribute modifiers a check can add (Physique 體, Finesse 技, Courage, Presence, Fate 運).
Attribute = Literal["physique", "finesse", "courage", "presence", "fate"]
Count = Annotated[int, Field(ge=0, le=40, description="0 to 40 (Energy, Wounds, Defense points...)")]

#: A reference from one entry to another: (path of the field inside the entry, kind, id).
Reference = tuple[tuple[str | int, ...], str, str]


def _tags(texts: tuple[str, ...]) -> tuple[str, ...]:
    """Tag texts must read as tags (SG.PRC.1, SG.DIR.1, SG.INC.1, SG.BRK.1); refused otherwise."""
    try:
        parse_tags(texts)
    except TagError as exc:
        raise ValueError(str(exc)) from None
    return texts


class _Entry(StrictModel):
    """What every catalog entry carries."""

    id: EntryId
    name: str = Field(min_length=1)
    description: str = ""
    rules: tuple[RuleId, ...] = Field(default=(), description="Ledger IDs the entry's numbers come from.")
    house_default: HouseDefault | None = Field(
        default=None, description="Why kassen chose the numbers the seeds do not state (SG.MAN.1)."
    )

    def references(self) -> Iterator[Reference]:
        """Every id this entry names, with the field that names it."""
        return iter(())


# ------------------------------------------------------------------------------------------ pieces


class Situation(StrEnum):
    """When a situational check bonus applies (the engine knows these moments)."""

    AFTER_STANCE_CHANGE = "after-stance-change"  # Quick Draw: right after a stance transition
    INFILTRATING = "infiltrating"
    FIRST_ATTACK = "first-attack"


class SituationalBonus(StrictModel):
    bonus: Modifier
    when: Situation
    text: str = ""


class Check(StrictModel):
    """A check's modifier, ``2d10 + attribute + skill + bonus`` (SG.CHK.1), and what it rolls against:
    the target's Defense (attacks), the attack's total (reactions, SG.RES.4) or a number.
    ``weapon_skill`` adds the skill of the weapon in hand instead of a named one (the parry)."""

    attribute: Attribute | None = None
    skill: SkillName | None = None
    weapon_skill: bool = False
    bonus: Modifier = 0
    against: Literal["defense", "attack-total"] | Target = "defense"
    situational: tuple[SituationalBonus, ...] = ()

    @model_validator(mode="after")
    def _one_skill(self) -> Check:
        if self.weapon_skill and self.skill is not None:
            raise ValueError("give `skill` or `weapon_skill: true`, not both")
        return self


class EffectData(StrictModel):
    """An extra effect on a hit or on a Critical Hit (SG.CRT.3, SG.WND.6): ``extra_wounds`` (added Wound
    reduction after the check), ``wounds_behind`` (Wounds to the enemy behind), ``debuff`` (a Defense −N
    source from the catalog put on the target, SG.DBF.1) or ``note`` (text for the GM)."""

    effect: EffectKind
    wounds: Count = 0
    text: str = ""
    debuff: EntryId | None = None

    @model_validator(mode="after")
    def _debuff_names_its_source(self) -> EffectData:
        if (self.effect is EffectKind.DEBUFF) != (self.debuff is not None):
            raise ValueError("a debuff effect names its source with `debuff: ID` (and only a debuff effect)")
        return self


class LimitPer(StrEnum):
    BREATH = "breath"
    ROUND = "round"
    COMBAT = "combat"


class Limit(StrictModel):
    """``uses`` per breath, round or combat; ``every`` N rounds for maneuvers limited "N rounds", whose
    counters reset in the lull (SG.LUL.1)."""

    uses: Annotated[int, Field(ge=1, le=20)]
    per: LimitPer
    every: Rounds = 1
    text: str = ""


class Reach(StrEnum):
    """A weapon's reach class for the zone modifiers (SG.ZON.1, SG.RD.2)."""

    SHORT = "short"
    LONG = "long"
    RANGED = "ranged"


class Range(StrEnum):
    """Whom a maneuver can reach (house default for ZON.2: melee in the same zone, ranged one zone away)."""

    SELF = "self"
    SAME_ZONE = "same-zone"
    ADJACENT_ZONE = "adjacent-zone"
    BATTLEFIELD = "battlefield"  # Thousand-Year Arrow: "anywhere on the battlefield"


class ZoneKind(StrEnum):
    """Zones (SG.ZON.1); ``high-ground`` is a feature a zone can have."""

    FRONT = "front"
    CORE = "core"
    REAR = "rear"
    FLANK = "flank"
    HIGH_GROUND = "high-ground"


class ReactionKind(StrEnum):
    """The three defense techniques of SG.RES.4."""

    PARRY = "parry"
    BLOCK = "block"
    EVASION = "evasion"


class Reaction(StrictModel):
    """A reserved defense technique's effect (SG.RES.4, house default): on success the attack is
    nullified; a block also costs the attacker Energy; an evasion reduces the blow even on failure."""

    kind: ReactionKind
    attacker_energy_loss: Count = 0
    failure_wound_reduction: Count = 0
    failure_minimum_wounds: Count = 0


class ManeuverKind(StrEnum):
    """What a breath can hold (SG.BRT.1): attacks, defense reservations, Kata, movement, stances; and
    upkeep maneuvers of the lull (SG.LUL.2)."""

    ATTACK = "attack"
    DEFENSE = "defense"
    MOVEMENT = "movement"
    STANCE = "stance"
    KATA = "kata"
    UPKEEP = "upkeep"


class GrantScope(StrEnum):
    SELF = "self"
    ZONE_ALLIES = "zone-allies"


class DefenseGrant(StrictModel):
    """The Defense a stance (or a Kata such as a barrier) grants while maintained: a non-armor bonus of
    ``kind`` (SG.DEF.4), and/or Incorporeal Defense (SG.INC.3)."""

    value: Count
    kind: BonusKind = BonusKind.STANCE
    incorporeal_defense: Count = 0
    scope: GrantScope = GrantScope.SELF
    maintained: bool = True
    forbids: tuple[ManeuverKind, ...] = Field(default=(), description="Maneuver kinds barred while held.")


class MovementTo(StrEnum):
    ADJACENT_ZONE = "adjacent-zone"
    UP_TO_TWO_ZONES = "up-to-two-zones"
    ENEMY_HELD_ZONE = "enemy-held-zone"  # Breakthrough
    OUT_OF_CORE = "out-of-core"  # Core Zone Exit
    OFF_BATTLEFIELD = "off-battlefield"  # Retreat


class Movement(StrictModel):
    """Where a movement maneuver goes, from where, and what a failed check does (SG.ZON.2, SG.RET.1)."""

    to: MovementTo
    zones: Annotated[int, Field(ge=0, le=10, description="0 to 10 zones (a battlefield has 7)")] = 1
    from_zones: tuple[ZoneKind, ...] = Field(default=(), description="Only from these (own side's) zones.")
    defenseless_on_failure: bool = False
    grants: tuple[Literal["infiltrating"], ...] = ()


class Upkeep(StrictModel):
    """An upkeep maneuver (SG.LUL.2): free in the lull; ``count_cost`` if it may also be used during the
    count (reload), ``None`` when it is lull-only."""

    count_cost: Count | None = None
    wounds_recovered: Count = 0
    cohesion_gained: Count = 0
    choose_one: bool = False
    prevents_collapse: bool = Field(
        default=False, description="Until the next lull, the target squad's Cohesion stops above Rout."
    )
    moves_shikigami: bool = Field(
        default=False,
        description="Moves each of the side's shikigami to the user's zone or an adjacent one (SG.LUL.2).",
    )
    effect: str = ""


class Aid(StrictModel):
    """A Kata that ends a condition on a unit instead of attacking: ``ends`` ``bleeding`` (Bind Wound,
    the Bleed house default) or a ``dropped-weapon`` (picking it up, SG.FUM.2: its cost is the Energy the
    drop named), on ``whom``: an ``ally`` in the zone (not the unit itself) or the unit ``self``. Every
    unit knows the aid maneuvers."""

    ends: Literal["bleeding", "dropped-weapon"]
    whom: Literal["ally", "self"]


# --------------------------------------------------------------------------------------- maneuvers


class Maneuver(_Entry):
    """One maneuver: an attack technique, a defense technique, a Kata, a movement, a stance or an
    upkeep maneuver. Fields that do not apply to its kind stay at their defaults."""

    kind: ManeuverKind
    cost: Count = Field(description="Energy spent in the breath (SG.BRT.1).")
    check: Check | None = None
    tags: tuple[str, ...] = Field(
        default=(), description='Attack tags, e.g. ["Pierce 2"], ["Pierce 3", "Break"].'
    )
    pierce_natural: bool | None = Field(
        default=None, description="States whether [Pierce] reaches natural armor."
    )
    wounds: Count | None = Field(
        default=None, description="Wounds a hit reduces (attacks and attacking Kata)."
    )
    critical_wounds: Count | None = None
    on_hit: tuple[EffectData, ...] = ()
    on_critical: tuple[EffectData, ...] = ()
    aim_focus: AimFocus = AimFocus.NONE
    weapon: EntryId | None = Field(default=None, description="The weapon whose license it is.")
    reach: Reach | None = Field(default=None, description="When no weapon gives it.")
    range: Range | None = None
    keywords: tuple[SkillName, ...] = Field(default=(), description="grappling, shoving, mounted, ambush...")
    license: str = ""
    requirements: tuple[str, ...] = ()
    trait: EntryId | None = Field(default=None, description="The trait that grants this Kata or upkeep.")
    limits: tuple[Limit, ...] = ()
    reservable: bool = Field(default=False, description="A defense technique reserved, prepaid (SG.RES.1).")
    reaction: Reaction | None = None
    grants: DefenseGrant | None = None
    movement: Movement | None = None
    upkeep: Upkeep | None = None
    aid: Aid | None = None

    @field_validator("tags")
    @classmethod
    def _tags_read_as_tags(cls, texts: tuple[str, ...]) -> tuple[str, ...]:
        return _tags(texts)

    @model_validator(mode="after")
    def _fits_its_kind(self) -> Maneuver:
        need = {
            ManeuverKind.ATTACK: ("wounds", self.wounds),
            ManeuverKind.DEFENSE: ("reaction", self.reaction),
            ManeuverKind.STANCE: ("grants", self.grants),
            ManeuverKind.MOVEMENT: ("movement", self.movement),
            ManeuverKind.UPKEEP: ("upkeep", self.upkeep),
        }.get(self.kind)
        if need is not None and need[1] is None:
            raise ValueError(f"a {self.kind.value} maneuver needs `{need[0]}`")
        misplaced = [
            name
            for name, value, kinds in (
                ("reaction", self.reaction, (ManeuverKind.DEFENSE,)),
                ("movement", self.movement, (ManeuverKind.MOVEMENT,)),
                ("upkeep", self.upkeep, (ManeuverKind.UPKEEP,)),
                ("grants", self.grants, (ManeuverKind.STANCE, ManeuverKind.KATA)),
                ("aid", self.aid, (ManeuverKind.KATA,)),
            )
            if value is not None and self.kind not in kinds
        ]
        if misplaced:
            raise ValueError(f"a {self.kind.value} maneuver cannot have `{'`, `'.join(misplaced)}`")
        if self.reservable and self.kind is not ManeuverKind.DEFENSE:
            raise ValueError("only defense techniques are reserved (SG.RES.1)")
        if self.aim_focus is not AimFocus.NONE and self.wounds is None:
            raise ValueError("Aim Focus scales an attack's tag: an attack needs `wounds` (SG.AIM.1)")
        if self.aid is not None and (self.wounds is not None or self.grants is not None):
            raise ValueError("an aid Kata neither attacks nor grants Defense")
        return self

    @property
    def attack_tags(self) -> AttackTags:
        """The tags as :class:`AttackTags` (with the natural-armor statement, SG.PRC.4)."""
        tags = parse_tags(self.tags)
        if self.pierce_natural is None:
            return tags
        return AttackTags(tags.pierce, tags.direct, tags.incorporeal, tags.break_, self.pierce_natural)

    @property
    def attacks(self) -> bool:
        """Whether it makes an attack check that can hit (it has Wounds)."""
        return self.wounds is not None

    def references(self) -> Iterator[Reference]:
        if self.weapon is not None:
            yield ("weapon",), "weapon", self.weapon
        if self.trait is not None:
            yield ("trait",), "trait", self.trait
        for section, effects in (("on_hit", self.on_hit), ("on_critical", self.on_critical)):
            for i, e in enumerate(effects):
                if e.debuff is not None:
                    yield (section, i, "debuff"), "debuff", e.debuff


# ----------------------------------------------------------------------------------------- weapons


class SpecialCritical(StrictModel):
    """A special weapon's own Critical Hit (SG.CRT.2): its Wounds and extra effects (teppo: 1 Wound to
    the enemy behind)."""

    wounds: Count | None = None
    effects: tuple[EffectData, ...] = ()


class ArmorBreak(StrictModel):
    """A weapon's stated [Pierce N] + [Break] and when it fires (SG.BRK.4): on a hit, on a Critical Hit,
    or on a decisive blow."""

    trigger: Literal["on-hit", "on-critical", "on-decisive"]
    tags: tuple[str, ...]

    @field_validator("tags")
    @classmethod
    def _tags_read_as_tags(cls, texts: tuple[str, ...]) -> tuple[str, ...]:
        return _tags(texts)

    @property
    def attack_tags(self) -> AttackTags:
        return parse_tags(self.tags)


class Weapon(_Entry):
    """A weapon: reach class, weapon skill (for its techniques and the parry), equipment grade
    (SG.BRK.5), its Attack A/B techniques and the licensed techniques it can use, a special critical
    (SG.CRT.2) and a stated [Break] (SG.BRK.4)."""

    reach: Reach
    skill: SkillName
    grade: str = "ordinary"
    attack_a: EntryId
    attack_b: EntryId | None = None
    techniques: tuple[EntryId, ...] = ()
    critical: SpecialCritical | None = None
    armor_break: ArmorBreak | None = None
    reload: bool = Field(default=False, description="Must be reloaded after each shot (teppo).")
    natural: bool = Field(default=False, description="Claws, jaws: part of a creature, not equipment.")

    def maneuver_ids(self) -> tuple[str, ...]:
        """Attack A, Attack B and the licensed techniques, in that order."""
        b = (self.attack_b,) if self.attack_b else ()
        return (self.attack_a, *b, *self.techniques)

    def references(self) -> Iterator[Reference]:
        yield ("attack_a",), "maneuver", self.attack_a
        if self.attack_b is not None:
            yield ("attack_b",), "maneuver", self.attack_b
        for i, t in enumerate(self.techniques):
            yield ("techniques", i), "maneuver", t
        for i, e in enumerate(self.critical.effects if self.critical else ()):
            if e.debuff is not None:
                yield ("critical", "effects", i, "debuff"), "debuff", e.debuff


# ------------------------------------------------------------------------------------------- armor


class Aptitude(StrictModel):
    """An "[aptitude]" of armor or a shield: Defense in the armor category (o-yoroi shoulder catch +1,
    SG.DEF.3) and/or Incorporeal Defense (SG.INC.3)."""

    name: str
    defense: Count = 0
    incorporeal_defense: Count = 0
    text: str = ""


class Armor(_Entry):
    """A suit of armor: its row of the Defense table (SG.DEF.2), equipment grade (SG.BRK.5), aptitudes."""

    armor: Literal["light", "heavy", "heavy-battle"]
    grade: str = "ordinary"
    aptitudes: tuple[Aptitude, ...] = ()


class Shield(_Entry):
    """A shield: +1 from the Defense table (SG.DEF.2), part of armor for every rule."""

    grade: str = "ordinary"
    aptitudes: tuple[Aptitude, ...] = ()


# ------------------------------------------------------------------------------- traits and debuffs


class TraitAmbush(StrictModel):
    """A trait's own ambush (SG.AMB.2): shinobi rank 3 [Ambush]."""

    requires: Literal["infiltrating"] = "infiltrating"
    automatic_critical: bool
    replaces_basic: bool
    inflicts_defenseless: bool


class Trait(_Entry):
    """A class or creature trait: the Kata and upkeep maneuvers it grants, its own ambush, immunities."""

    grants: tuple[EntryId, ...] = ()
    ambush: TraitAmbush | None = None
    incorporeal: bool = Field(default=False, description="The creature is incorporeal (SG.INC.5).")
    shikigami: bool = Field(
        default=False,
        description="An onmyoji's servant: it takes no movement maneuver; its side's onmyoji repositions it "
        "in the lull (SG.LUL.2).",
    )

    def references(self) -> Iterator[Reference]:
        for i, g in enumerate(self.grants):
            yield ("grants", i), "maneuver", g


class DebuffSource(_Entry):
    """A source of Defense −N (SG.DBF.1): a status on the target, never a tag (SG.DBF.4). ``rounds`` is
    its duration (``None``: until removed); ``each_round`` says it triggers again each round (SG.RD.3)."""

    value: Annotated[int, Field(ge=1, le=20)]
    rounds: Rounds | None = None
    each_round: bool = False
    trigger: str = ""

    def debuff(self) -> DefenseDebuff:
        """The status as the Defense rules read it."""
        return DefenseDebuff(self.value, self.name, self.rounds)


# --------------------------------------------------------------------------------------- creatures


class NaturalArmor(StrictModel):
    """Natural armor +N (SG.DEF.3) and what the entry states about [Pierce] (SG.PRC.4, SG.RD.9)."""

    value: Annotated[int, Field(ge=1, le=20)]
    pierceable: bool | None = None


class CreatureAttributes(StrictModel):
    physique: AttributeValue = 0
    finesse: AttributeValue = 0
    courage: AttributeValue = 0
    presence: AttributeValue = 0
    fate: AttributeValue = 0


class HonorClass(StrEnum):
    """Retreat follow-up classes (SG.RET.4): the flag the follow-up reads after combat."""

    HONOR = "honor"
    CONDITIONAL_HONOR = "conditional-honor"
    EXTERNAL_DISCIPLINE = "external-discipline"
    NON_HONOR = "non-honor"


class Creature(_Entry):
    """A unit template: a creature, a PC or an NPC. ``max_energy``, ``wounds`` and ``defense`` override
    the grade's defaults (SG.BRT.0, SG.WND.5, SG.DEF.6); ``weapons[0]`` is the weapon in hand."""

    grade: Grade
    armor: EntryId | None = None
    shield: EntryId | None = None
    natural_armor: NaturalArmor | None = None
    attributes: CreatureAttributes = Field(default_factory=CreatureAttributes)
    skills: dict[SkillName, SkillRank] = Field(default_factory=dict, max_length=100)
    weapons: tuple[EntryId, ...] = ()
    maneuvers: tuple[EntryId, ...] = Field(default=(), description="Known beyond its weapons' techniques.")
    traits: tuple[EntryId, ...] = ()
    max_energy: MaxEnergy | None = None
    wounds: MaxWounds | None = None
    defense: Count | None = Field(default=None, description="A stat block's own (lower) Defense, SG.DEF.6.")
    exorcism: ExorcismRank = ExorcismRank.NONE
    incorporeal_defense: Count = 0
    fate_points: Small = 0
    faction: str = ""
    lord: bool = False
    squad: bool = False
    cohesion: Small | None = None
    honor: HonorClass = HonorClass.NON_HONOR
    check_penalty: int = Field(
        default=0,
        ge=0,
        le=10,
        description="A lasting -N on every check the unit makes: a campaign's serious injury until a full "
        "day's rest (resolution.yaml death_check.serious_injury, SG.INP.3 house default), 0 to 10.",
    )

    @model_validator(mode="after")
    def _lords_are_lords(self) -> Creature:
        if self.lord and self.grade is not Grade.LORD:
            raise ValueError("`lord: true` needs `grade: lord` (SG.INP.2)")
        if self.cohesion is not None and not self.squad:
            raise ValueError("only a squad has Cohesion (`squad: true`)")
        return self

    def references(self) -> Iterator[Reference]:
        if self.armor is not None:
            yield ("armor",), "armor", self.armor
        if self.shield is not None:
            yield ("shield",), "shield", self.shield
        for field_name, kind, ids in (
            ("weapons", "weapon", self.weapons),
            ("maneuvers", "maneuver", self.maneuvers),
            ("traits", "trait", self.traits),
        ):
            for i, ref in enumerate(ids):
                yield (field_name, i), kind, ref
