"""House defaults for the gaps of Sengoku's combat flow (seed 002), as typed data.

Each model is one ledger ID the seeds leave open (a GAP) or let be read more than one way (a reading,
RD). An entry of the catalog's ``house_defaults`` list names its ``rule`` — the discriminator that picks
the model — and carries its ``rationale``; users override an entry by giving the same ``rule`` in their
own content. The rules that read them (the combat-flow engine) find them with
``catalog.default(TieOrder)`` or ``catalog.house_default("SG.CNT.4")``.

Models validate what can be checked without the rest of the catalog (a tie order is a permutation that
ends in a total order, the d100 table covers 1-100 once); references to other entries (maneuvers,
creatures, traits, weapons) are listed by :meth:`FlowDefault.references` and checked by the loader.
"""

from __future__ import annotations

__all__ = [
    "FLOW_DEFAULTS",
    "AmbushCondition",
    "AmbushImmunity",
    "AmbushReadings",
    "AmbushRules",
    "BattlefieldChange",
    "ChangeImpact",
    "CohesionCheck",
    "CombatEnd",
    "ComboFatigue",
    "DefenselessTiming",
    "EncounterRow",
    "FlowDefault",
    "FlowDefaultEntry",
    "HonorFollowUp",
    "HonorRow",
    "ManeuverPricing",
    "MaxEnergy",
    "OverloadCheck",
    "PassHold",
    "Reactions",
    "ReservationAtZero",
    "RetreatRules",
    "RoutAndFumbleReadings",
    "SquadRules",
    "TieKey",
    "TieOrder",
    "YomaEncounters",
    "ZoneApplies",
    "ZoneData",
    "ZoneModifier",
    "ZoneModifiers",
    "ZoneSelector",
    "ZoneTactics",
]

from collections.abc import Iterator
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from kassen.content.yamlio import StrictModel
from kassen.sengoku.domain import MaxEnergy as EnergyMax
from kassen.sengoku.domain import Modifier
from kassen.sengoku.entries import (
    Attribute,
    EntryId,
    HonorClass,
    ManeuverKind,
    Reach,
    Reference,
    ZoneKind,
)
from kassen.sengoku.profile import Grade

#: A count, cost, target or die of a house table: the seeds' are under 20, so 100 leaves room.
Count = Annotated[int, Field(ge=0, le=100, description="0 to 100")]
Positive = Annotated[int, Field(ge=1, le=100, description="1 to 100")]


class FlowDefault(StrictModel):
    """What every flow house default carries: its ledger ``rule`` and the ``rationale`` for the value."""

    rule: str
    rationale: str = Field(min_length=1)

    def references(self) -> Iterator[Reference]:
        """Ids of other catalog entries this default names."""
        return iter(())


def _every_grade(values: dict[Grade, int]) -> dict[Grade, int]:
    missing = [g.value for g in Grade if g not in values]
    if missing:
        raise ValueError(f"every grade needs a value; missing: {', '.join(missing)}")
    return values


# ---------------------------------------------------------------------------------------- breath


class MaxEnergy(FlowDefault):
    """SG.BRT.0: maximum Energy by grade, before the heavy-armor penalty (SG.DEF.7). A creature's own
    ``max_energy`` wins."""

    rule: Literal["SG.BRT.0"]
    by_grade: dict[Grade, EnergyMax]

    _complete = field_validator("by_grade")(_every_grade)


class OverloadCheck(FlowDefault):
    """SG.BRT.2: the overload check when a breath spends past the limit: ``2d10 + attribute >= target +
    per_excess x (spent - limit)``; on failure all Energy is lost and the unit is Defenseless (stated);
    whatever the result, the next round's maximum Energy drops by ``next_round_penalty`` per point over."""

    rule: Literal["SG.BRT.2"]
    attribute: Attribute
    target: Positive
    per_excess: Count
    next_round_penalty: Count
    failure_loses_all_energy: bool
    failure_defenseless: bool


class ComboFatigue(FlowDefault):
    """SG.BRT.3: repeating one technique in a round: the first ``free_uses`` at its cost, each later use
    ``extra_cost`` more. The short-weapon Core Zone bonus is a row of the SG.RD.2 zone table."""

    rule: Literal["SG.BRT.3"]
    free_uses: Positive
    extra_cost: Count
    per: Literal["breath", "round"]
    applies_to: tuple[ManeuverKind, ...]


# --------------------------------------------------------------------------------------- reactions


class Reactions(FlowDefault):
    """SG.RES.4: which catalog maneuvers are the parry, the back-of-blade block and the emergency evasion
    (their checks and effects are on the maneuvers); ties go to the defender; one reservation answers one
    attack."""

    rule: Literal["SG.RES.4"]
    parry: EntryId
    block: EntryId
    evasion: EntryId
    tie_goes_to: Literal["defender", "attacker"]
    attacks_per_reservation: Positive

    def references(self) -> Iterator[Reference]:
        for name in ("parry", "block", "evasion"):
            yield (name,), "maneuver", getattr(self, name)


class ReservationAtZero(FlowDefault):
    """SG.RD.6: whether a unit at 0 Energy can still use the defense technique it reserved."""

    rule: Literal["SG.RD.6"]
    usable_at_zero_energy: bool


# ------------------------------------------------------------------------------------- defenseless


class DefenselessTiming(FlowDefault):
    """SG.DFL.3 (a reading): when "the unit's next action starts". ``restrictions_apply_to_next_breath``:
    the next breath is declared while Defenseless still holds (so it cannot declare a stance nor reserve,
    SG.DFL.2) and Defenseless ends as it starts; otherwise Defenseless ends before the breath is declared.
    ``reaction_ends_defenseless``: a React is the unit's next action, so its own Defenseless ends as the
    reaction starts (before the attack it answers is resolved); otherwise only a breath or a Hold ends it."""

    rule: Literal["SG.DFL.3"]
    restrictions_apply_to_next_breath: bool
    reaction_ends_defenseless: bool


# ------------------------------------------------------------------------------------------ count


class TieKey(StrEnum):
    """Keys of the tie order (SG.CNT.4): the seed's two, then the house's."""

    FINESSE = "finesse"  # descending Finesse (stated)
    ALLIES_FIRST = "allies-first"  # the players' side first (stated)
    MAX_ENERGY = "max-energy"  # higher maximum Energy first
    PHYSIQUE = "physique"  # higher Physique first
    SETUP_ORDER = "setup-order"  # the order units were placed in the encounter: total


class TieOrder(FlowDefault):
    """SG.CNT.4: the order units at the same count act in; the last key must decide every tie."""

    rule: Literal["SG.CNT.4"]
    order: tuple[TieKey, ...]

    @field_validator("order")
    @classmethod
    def _valid_order(cls, order: tuple[TieKey, ...]) -> tuple[TieKey, ...]:
        if len(set(order)) != len(order):
            raise ValueError("a tie key is given twice")
        if order[:2] != (TieKey.FINESSE, TieKey.ALLIES_FIRST):
            raise ValueError("the seed's order comes first: finesse, then allies-first (SG.CNT.4)")
        if not order or order[-1] is not TieKey.SETUP_ORDER:
            raise ValueError("the order must end with setup-order, which decides every remaining tie")
        return order


class PassHold(FlowDefault):
    """SG.CNT.6: a unit that will not or cannot spend Energy at its count. ``hold`` spends
    ``hold_cost`` Energy on nothing (it acts again at a lower count); ``pass`` ends its breaths for the
    round, its Energy kept only for reserved reactions."""

    rule: Literal["SG.CNT.6"]
    hold_cost: Positive
    pass_keeps_energy_for_reactions: bool
    cannot_spend: Literal["pass", "hold"]


# ------------------------------------------------------------------------------------------ zones


class ZoneData(StrictModel):
    id: EntryId
    kind: Literal["front", "core", "rear", "flank"]
    side: Literal["own", "enemy", "none"]


class ZoneTactics(FlowDefault):
    """SG.ZON.2: the zone layout (seen from one side: ``own`` and ``enemy``), adjacency, where units
    start, and when Breakthrough and Core Zone Exit are needed instead of a plain walk."""

    rule: Literal["SG.ZON.2"]
    zones: tuple[ZoneData, ...]
    adjacent: tuple[tuple[EntryId, EntryId], ...]
    start: dict[Literal["own", "enemy"], EntryId]
    walk: EntryId
    run: EntryId
    breakthrough: EntryId
    breakthrough_when: str
    core_exit: EntryId
    core_exit_when: str

    @model_validator(mode="after")
    def _a_connected_battlefield(self) -> ZoneTactics:
        ids = [z.id for z in self.zones]
        if len(set(ids)) != len(ids):
            raise ValueError("a zone id is given twice")
        known = set(ids)
        named = {z for pair in self.adjacent for z in pair} | set(self.start.values())
        unknown = sorted(named - known)
        if unknown:
            raise ValueError(f"unknown zone(s): {', '.join(unknown)}")
        if any(a == b for a, b in self.adjacent):
            raise ValueError("a zone cannot be adjacent to itself")
        reached = {ids[0]} if ids else set()
        frontier = list(reached)
        while frontier:
            here = frontier.pop()
            for a, b in self.adjacent:
                for x, y in ((a, b), (b, a)):
                    if x == here and y not in reached:
                        reached.add(y)
                        frontier.append(y)
        if reached != known:
            raise ValueError(f"zones not connected to the rest: {', '.join(sorted(known - reached))}")
        return self

    def neighbours(self, zone: str) -> tuple[str, ...]:
        """The zones adjacent to ``zone``, in the file's order."""
        out = [b if a == zone else a for a, b in self.adjacent if zone in (a, b)]
        return tuple(out)

    def references(self) -> Iterator[Reference]:
        for name in ("walk", "run", "breakthrough", "core_exit"):
            yield (name,), "maneuver", getattr(self, name)


class ZoneApplies(StrEnum):
    """SG.RD.2: what a zone number changes."""

    CHECK = "check"  # the check's modifier
    ENERGY = "energy"  # the maneuver's Energy cost
    UNLOCK = "unlock"  # maneuvers with the keyword become available there


class ZoneSelector(StrictModel):
    """Which maneuvers a zone row touches; every field given must match."""

    weapons: tuple[EntryId, ...] = ()
    reach: tuple[Reach, ...] = ()
    kinds: tuple[ManeuverKind, ...] = ()
    keywords: tuple[str, ...] = ()
    skill: str | None = None
    against_occupant: bool = Field(
        default=False, description="Applies to enemies attacking a unit in the zone (high ground)."
    )

    @model_validator(mode="after")
    def _selects_something(self) -> ZoneSelector:
        if not (self.weapons or self.reach or self.kinds or self.keywords or self.skill):
            raise ValueError("a zone row must select maneuvers (weapons, reach, kinds, keywords or skill)")
        return self


class ZoneModifier(StrictModel):
    zone: ZoneKind
    select: ZoneSelector
    amount: Modifier
    applies: ZoneApplies
    text: str

    @model_validator(mode="after")
    def _unlock_has_no_number(self) -> ZoneModifier:
        if (self.applies is ZoneApplies.UNLOCK) != (self.amount == 0):
            raise ValueError("an unlock row has amount 0, and only an unlock row")
        return self


class ZoneModifiers(FlowDefault):
    """SG.RD.2 (the SG.ZON.1 table as data): each zone number, read as a check modifier, an Energy
    cost change or an unlock. Costs changed by a zone never drop below ``energy_minimum``."""

    rule: Literal["SG.RD.2"]
    rows: tuple[ZoneModifier, ...]
    energy_minimum: Count

    def references(self) -> Iterator[Reference]:
        for i, row in enumerate(self.rows):
            for j, w in enumerate(row.select.weapons):
                yield ("rows", i, "select", "weapons", j), "weapon", w


# ----------------------------------------------------------------------------------------- ambush


class AmbushCondition(StrictModel):
    id: EntryId
    text: str


class AmbushRules(FlowDefault):
    """SG.AMB.1: the ambush conditions (any one is enough) and the basic first-attack modifier."""

    rule: Literal["SG.AMB.1"]
    conditions: tuple[AmbushCondition, ...] = Field(min_length=1)
    target_defenseless: bool
    check_bonus: Modifier
    first_attack_only: bool


class AmbushImmunity(FlowDefault):
    """SG.AMB.3: who cannot be ambushed: units with these traits, and a unit already ambushed once in
    this combat when ``once_per_target``."""

    rule: Literal["SG.AMB.3"]
    immune_traits: tuple[EntryId, ...]
    once_per_target: bool

    def references(self) -> Iterator[Reference]:
        for i, t in enumerate(self.immune_traits):
            yield ("immune_traits", i), "trait", t


class AmbushReadings(FlowDefault):
    """SG.RD.10, two switches. ``basic_ambush_releases_stance``: true, a basic ambush inflicts the
    Defenseless status (SG.AMB.1 with SG.DFL.1-3): the target's maintained [stance] is released at once,
    it cannot reserve or evade, and the status lasts until its next action or the lull; false, the
    target only counts as Defenseless against the ambusher's first attack, its stance standing.
    ``pass_or_hold_counts_as_breath``: true, for the flank ambush a unit "has taken a breath" once the
    count has reached it (a breath, a Hold or a Pass); false, only a declared breath counts."""

    rule: Literal["SG.RD.10"]
    basic_ambush_releases_stance: bool
    pass_or_hold_counts_as_breath: bool


# ------------------------------------------------------------------------------------------- lull


class CreatureCount(StrictModel):
    id: EntryId
    count: Positive = 1


class EncounterRow(StrictModel):
    low: Positive
    high: Positive
    name: str
    creatures: tuple[CreatureCount, ...] = ()
    zone: ZoneKind | None = None
    effect: str


class ChangeCheck(StrictModel):
    attribute: Attribute
    target: Positive


class ChangeImpact(StrictModel):
    """What a battlefield change does at once to each unit in the zone: a ``check`` to escape it (none:
    nobody escapes), and on a failure ``wounds`` lost and ``defenseless``."""

    check: ChangeCheck | None = None
    wounds: Count = 0
    defenseless: bool = False

    @model_validator(mode="after")
    def _does_something(self) -> ChangeImpact:
        if not (self.wounds or self.defenseless):
            raise ValueError("an impact costs Wounds or makes the unit Defenseless")
        return self


class BattlefieldChange(StrictModel):
    """A battlefield change the GM may bring in the lull (SG.LUL.3: fire, fog, collapse): on one zone,
    for ``rounds`` rounds (0: only ``at_once``). While it lasts, every unit in the zone loses
    ``lull_wounds`` in each lull, and ranged attacks from or into the zone take ``ranged_check``."""

    id: EntryId
    name: str
    effect: str
    rounds: Count
    lull_wounds: Count = 0
    ranged_check: Modifier = 0
    at_once: ChangeImpact | None = None

    @model_validator(mode="after")
    def _does_something(self) -> BattlefieldChange:
        lasting = self.lull_wounds or self.ranged_check
        if not (lasting or self.at_once):
            raise ValueError("a battlefield change does something: lull_wounds, ranged_check or at_once")
        if lasting and not self.rounds:
            raise ValueError("a lasting effect (lull_wounds, ranged_check) needs `rounds` >= 1")
        return self


class YomaEncounters(FlowDefault):
    """SG.LUL.3, the GM's environment variables in the lull phase: the d100 Yoma Encounter Table, and the
    battlefield changes (fire, fog, collapse) with their effects."""

    rule: Literal["SG.LUL.3"]
    die: Positive
    when: str
    rows: tuple[EncounterRow, ...]
    changes: tuple[BattlefieldChange, ...] = ()

    @field_validator("rows")
    @classmethod
    def _covers_every_roll_once(
        cls, rows: tuple[EncounterRow, ...], info: ValidationInfo
    ) -> tuple[EncounterRow, ...]:
        die = info.data.get("die", 100)
        expected = 1
        for row in sorted(rows, key=lambda r: r.low):
            if row.low != expected or row.high < row.low:
                raise ValueError(f"rows must cover 1..{die} once each; problem at {row.low}-{row.high}")
            expected = row.high + 1
        if expected != die + 1:
            raise ValueError(f"rows must cover 1..{die} once each; they stop at {expected - 1}")
        return rows

    @field_validator("changes")
    @classmethod
    def _unique_changes(cls, changes: tuple[BattlefieldChange, ...]) -> tuple[BattlefieldChange, ...]:
        ids = [c.id for c in changes]
        if len(set(ids)) != len(ids):
            raise ValueError("a battlefield change id is given twice")
        return changes

    def change(self, cid: str) -> BattlefieldChange | None:
        return next((c for c in self.changes if c.id == cid), None)

    def row(self, roll: int) -> EncounterRow:
        """The row for ``roll`` (1..die)."""
        for r in self.rows:
            if r.low <= roll <= r.high:
                return r
        raise ValueError(f"roll {roll} is outside 1..{self.die}")

    def references(self) -> Iterator[Reference]:
        for i, row in enumerate(self.rows):
            for j, c in enumerate(row.creatures):
                yield ("rows", i, "creatures", j, "id"), "creature", c.id


# ---------------------------------------------------------------------------------------- retreat


class HonorRow(StrictModel):
    follow_up: Literal["none", "penalty", "check"]
    attribute: Attribute | None = None
    target: Positive | None = None
    penalty: str = ""

    @model_validator(mode="after")
    def _a_check_has_its_numbers(self) -> HonorRow:
        if (self.follow_up == "check") != (self.attribute is not None and self.target is not None):
            raise ValueError("a `check` follow-up names its attribute and target (and only a check does)")
        if self.follow_up != "none" and not self.penalty:
            raise ValueError("a follow-up states its penalty")
        return self


class HonorFollowUp(FlowDefault):
    """SG.RET.4: the after-combat follow-up of a retreater, by honor class (the creature's ``honor``)."""

    rule: Literal["SG.RET.4"]
    classes: dict[HonorClass, HonorRow]

    @field_validator("classes")
    @classmethod
    def _every_class(cls, classes: dict[HonorClass, HonorRow]) -> dict[HonorClass, HonorRow]:
        missing = [c.value for c in HonorClass if c not in classes]
        if missing:
            raise ValueError(f"missing honor classes: {', '.join(missing)}")
        return classes


class SquadRules(FlowDefault):
    """SG.RET.5: squads' Cohesion by grade, when a squad routs, and what Rout does."""

    rule: Literal["SG.RET.5"]
    cohesion_by_grade: dict[Grade, Positive]
    rout_at: Count
    rout_allowed: tuple[EntryId, ...]
    rout_defenseless: bool
    rout_pursuit_from_next_round: bool
    collapse_prevention: str

    _complete = field_validator("cohesion_by_grade")(_every_grade)

    def references(self) -> Iterator[Reference]:
        for i, m in enumerate(self.rout_allowed):
            yield ("rout_allowed", i), "maneuver", m


class CombatEnd(FlowDefault):
    """SG.END.1: a combat ends when a side has no unit left able to act (each in one of ``out_states``),
    checked ``checked``; or when the GM decides; or, so that every battle ends, after ``round_limit``
    rounds (a scenario may set its own limit)."""

    rule: Literal["SG.END.1"]
    out_states: tuple[Literal["incapacitated", "retreated", "routed"], ...] = Field(min_length=1)
    checked: Literal["after-each-breath", "in-the-lull"]
    gm_may_end: bool
    round_limit: Positive = 20


class CohesionCheck(StrictModel):
    attribute: Attribute
    target: Positive


class RetreatRules(FlowDefault):
    """SG.RET.2-3 as the engine reads them: the squad's Cohesion check (stated: 2d10 + Presence >= 11),
    the pursuit's opposed check (stated: Finesse against Finesse, the retreater wins ties; a lost
    pursuit costs Defenseless, all Energy and ``exhaustion`` Energy next round) and where pursuers may
    stand: ``adjacent`` zones only, or ``same-and-adjacent`` (the pursuit part of SG.RD.9). Whose
    attribute the Cohesion check rolls (a reading): the ``squad``'s own, or the ``retreater``'s (the unit
    leading the squad off)."""

    rule: Literal["SG.RET.3"]
    cohesion_check: CohesionCheck
    cohesion_check_roller: Literal["squad", "retreater"]
    pursuit_attribute: Attribute
    pursuit_zones: Literal["adjacent", "same-and-adjacent"]
    tie_goes_to: Literal["retreater", "pursuer"]
    failure_defenseless: bool
    failure_loses_all_energy: bool
    exhaustion: Count


class RoutAndFumbleReadings(FlowDefault):
    """SG.RD.11. ``fumble_forfeits_later_reservation``: true, a defense reservation declared in a breath
    after an attack that fumbles is forfeited, its Energy spent with the breath (the unit is Defenseless
    when its turn comes, SG.DFL.2); false, it is kept, having been declared with the breath before the
    fumble. The other question, a squad routing with no other unit of its side left, is SG.END.1's
    ``out_states``: without ``routed`` among them the rout is pursued from the next round (SG.RET.2);
    with it the combat ends at once."""

    rule: Literal["SG.RD.11"]
    fumble_forfeits_later_reservation: bool


class ManeuverPricing(FlowDefault):
    """SG.MAN.1: the maneuvers whose numbers (cost, check, Wounds) the house set where the seeds name the
    technique but not all of its numbers; each carries its own ``house_default`` too."""

    rule: Literal["SG.MAN.1"]
    priced: tuple[EntryId, ...]

    def references(self) -> Iterator[Reference]:
        for i, m in enumerate(self.priced):
            yield ("priced", i), "maneuver", m


FlowDefaultEntry = Annotated[
    MaxEnergy
    | OverloadCheck
    | ComboFatigue
    | Reactions
    | ReservationAtZero
    | DefenselessTiming
    | TieOrder
    | PassHold
    | ZoneTactics
    | ZoneModifiers
    | AmbushRules
    | AmbushImmunity
    | AmbushReadings
    | YomaEncounters
    | HonorFollowUp
    | SquadRules
    | CombatEnd
    | RetreatRules
    | RoutAndFumbleReadings
    | ManeuverPricing,
    Field(discriminator="rule"),
]

#: Every flow house default, by rule ID: the bundled catalog must have one of each.
FLOW_DEFAULTS: dict[str, type[FlowDefault]] = {
    "SG.BRT.0": MaxEnergy,
    "SG.BRT.2": OverloadCheck,
    "SG.BRT.3": ComboFatigue,
    "SG.RES.4": Reactions,
    "SG.RD.6": ReservationAtZero,
    "SG.DFL.3": DefenselessTiming,
    "SG.CNT.4": TieOrder,
    "SG.CNT.6": PassHold,
    "SG.ZON.2": ZoneTactics,
    "SG.RD.2": ZoneModifiers,
    "SG.AMB.1": AmbushRules,
    "SG.AMB.3": AmbushImmunity,
    "SG.RD.10": AmbushReadings,
    "SG.LUL.3": YomaEncounters,
    "SG.RET.4": HonorFollowUp,
    "SG.RET.5": SquadRules,
    "SG.END.1": CombatEnd,
    "SG.RET.3": RetreatRules,
    "SG.RD.11": RoutAndFumbleReadings,
    "SG.MAN.1": ManeuverPricing,
}
