"""The data of every kind of event a battle logs, declared (:data:`EVENT_TYPES`, the ruleset's
``info.event_types``): a chronicle's events are checked against them when it is read, ``kassen schema
chronicle --ruleset sengoku`` prints them, the renderers (:mod:`kassen.sengoku.battle.report`) read
them by these names, and the tests check every event a battle logs.

Units, sides and zones are named by id. Explanation steps (``steps``, ``aim_steps``,
``modifier_steps``, ``defense_steps``, ``cost_steps``) are left out when nobody reads them (the
simulation mode): ``NotRequired``; so is a field a kind logs only sometimes. A value the visibility
table hides from another side reads null in that side's view, which is not a chronicle.
"""

from __future__ import annotations

__all__ = ["EVENT_TYPES"]

from typing import Any, NotRequired, TypedDict

from kassen.core.events import StepData


class OfUnit(TypedDict):
    """An event about one unit."""

    unit: str


class Change(OfUnit):
    """A count of the unit's before and after (Wounds, Energy, Cohesion)."""

    before: int
    after: int


class Roll(TypedDict):
    """A 2d10 check: the faces, the modifier, the total and the target number."""

    faces: list[int]
    modifier: int
    total: int
    target: int


class Check(Roll):
    """A 2d10 check and whether it succeeded."""

    success: bool


class UnitCheck(OfUnit, Check):
    """A unit's 2d10 check."""


class UseData(TypedDict):
    """One maneuver of a breath as the log writes it: the maneuver and the fields that are set."""

    maneuver: str
    target: NotRequired[str]
    aim: NotRequired[int]
    to: NotRequired[str]
    squads: NotRequired[list[str]]
    release: NotRequired[bool]
    choice: NotRequired[str]
    weapon: NotRequired[str]


# -- the round and the count ----------------------------------------------------------------------------
class BattleBegins(TypedDict):
    name: str
    sides: list[str]
    units: list[str]


class Round(TypedDict):
    """A round begins, or its lull."""

    round: int


class EnergyReset(OfUnit):
    """SG.RND.1: a unit's Energy at the start of a round, with what it stands on (``armor``: the steps
    to its maximum Energy)."""

    energy: int
    zone: str
    wounds: int
    wounds_max: int
    cohesion: int | None
    defenseless: bool
    routed: bool
    armor: list[StepData]
    overload: int
    exhaustion: int
    stances: list[str]
    initiative: int


class Count(TypedDict):
    count: int
    units: list[str]


class Tie(TypedDict):
    count: int
    order: list[str]
    keys: list[str]


class Breath(OfUnit):
    """A breath declared: its maneuvers, each one's price (and, for a reader, the steps to it)."""

    count: int
    uses: list[UseData]
    costs: list[int]
    cost_steps: NotRequired[list[list[StepData]]]
    spent: int
    limit: int
    overload: bool


class EnergySpent(Change):
    spent: int


class InitiativeUsed(OfUnit):
    initiative: int
    energy: int


class Hold(Change):
    surcharge: int


class Pass(OfUnit):
    energy: int
    keeps_for_reactions: NotRequired[bool]
    reason: NotRequired[str]


class OverloadCheck(UnitCheck):
    spent: int
    limit: int
    next_round_penalty: int
    steps: NotRequired[list[StepData]]


class EnergyLost(Change):
    cause: NotRequired[str]


# -- attacks and reactions ------------------------------------------------------------------------------
class Attack(TypedDict):
    """An attack resolved: rolled (faces, modifier, total against the Defense, and what the attacker's
    Fate and the target's reaction and Last Bastion did), or an automatic Critical Hit from an ambush
    (``automatic_critical``, with its ``trait``: no roll)."""

    attacker: str
    target: str
    maneuver: str
    technique: str
    outcome: str
    ambush: str
    wounds_before: int
    wounds_after: int
    aim: NotRequired[int]
    modifier: NotRequired[int]
    defense: NotRequired[int]
    faces: NotRequired[list[int]]
    total: NotRequired[int]
    reaction: NotRequired[str]
    fate_die: NotRequired[int | None]
    last_bastion: NotRequired[bool]
    nullified: NotRequired[bool]
    weapon: NotRequired[str]
    automatic_critical: NotRequired[bool]
    trait: NotRequired[str]
    steps: NotRequired[list[StepData]]
    aim_steps: NotRequired[list[StepData]]
    modifier_steps: NotRequired[list[StepData]]
    defense_steps: NotRequired[list[StepData]]


class AttackCheck(TypedDict):
    """The hit check of seed 000's resolution (its line is the attack's; shown on its own verbose)."""

    attacker: str
    target: str
    faces: list[int]
    modifier: int
    total: int
    defense: int
    outcome: str


class Blow(TypedDict):
    """A hit or a Critical Hit: the Wounds it takes."""

    target: str
    wounds: int


class Miss(TypedDict):
    target: str


class WoundsBehind(TypedDict):
    behind: str
    wounds: int


class Effect(TypedDict):
    """A technique's effect for the GM to apply (its words)."""

    target: str
    text: str


class Debuff(OfUnit):
    """A Defense −N source put on a unit (or triggered again in a new round, ``when``)."""

    debuff: str
    name: str
    value: int
    total: int
    when: NotRequired[str]


class Bleed(OfUnit):
    effect: str


class WoundBound(OfUnit):
    target: str


class Fumble(TypedDict):
    attacker: str


class FumbleExtra(OfUnit):
    extra: str
    energy: int
    effect: str


class Move(OfUnit):
    """A unit moved from ``frm`` to ``to`` (or a forced move)."""

    frm: str
    to: str


class Weapon(OfUnit):
    weapon: str


class WeaponDropped(Weapon):
    pickup_cost: int


class WeaponKept(Weapon):
    why: str


class EnergyChanged(Change):
    cause: str


class TableRow(TypedDict):
    """A d100 row of the Decisive Moment or Critical Mistake table."""

    table: str
    roll: int
    name: str
    effect: str
    rule: str


class TableEffect(TypedDict):
    """What a d100 row does to a unit (``unit`` null: nobody there)."""

    unit: str | None
    effect: str
    text: str


class FateSpent(OfUnit):
    points: int
    purpose: str
    faces_before: NotRequired[list[int]]
    faces_after: NotRequired[list[int]]


class Offered(OfUnit):
    """The roll an attack waits on, said in full: its attacker's (``unit``) Fate choice."""

    target: str
    technique: str
    faces: list[int]
    modifier: int
    total: int
    defense: int
    outcome: str


class FateOffered(Offered):
    dies: list[int]


class LastBastionOffered(Offered):
    """The target (``unit``) may spend Fate on Last Bastion against ``attacker``'s hit."""

    attacker: str
    wounds: int
    wounds_now: int


class FateIntervention(OfUnit):
    die: int


class Ambush(TypedDict):
    attacker: str
    target: str
    condition: str
    status: bool


class AmbushImmune(TypedDict):
    attacker: str
    target: str
    condition: str


class ReactionOffered(OfUnit):
    attacker: str
    maneuver: str


class Declined(OfUnit):
    attacker: str


class Reaction(OfUnit):
    """A reservation answers an attack: rolled (faces, modifier, total against the attack's), or not."""

    maneuver: str
    attacker: str
    rolled: bool
    success: bool
    effect: str
    faces: NotRequired[list[int]]
    modifier: NotRequired[int]
    total: NotRequired[int]
    against: NotRequired[int]
    steps: NotRequired[list[StepData]]


class Behind(TypedDict):
    """Wounds to the enemy behind ``target``: on ``unit`` (null: nobody there)."""

    target: str
    wounds: int
    unit: str | None
    before: NotRequired[int]
    after: NotRequired[int]


class ArmorBroken(OfUnit):
    armor_damage: int
    lost: int
    #: a weapon's stated [Break] names its source and blow (SG.BRK.4): "Muramasa on a Critical Hit"
    source: NotRequired[str]


class ArmorHolds(OfUnit):
    why: str
    source: NotRequired[str]


class Why(OfUnit):
    why: str


# -- statuses -------------------------------------------------------------------------------------------
class Defenseless(OfUnit):
    cause: str
    released: NotRequired[list[str]]


class When(OfUnit):
    when: str


class Removed(OfUnit):
    zone: str | None
    why: str


class CohesionLoss(TypedDict):
    faction: str
    amount: int
    scope: str


class Cohesion(Change):
    why: str


class CohesionNow(OfUnit):
    cohesion: int | None


# -- other maneuvers ------------------------------------------------------------------------------------
class Reserve(OfUnit):
    maneuver: str
    energy: int


class Stance(OfUnit):
    maneuver: str


class StanceReleased(OfUnit):
    stances: list[str]
    cause: NotRequired[str]


class Kata(OfUnit):
    maneuver: str
    effect: str


class MoveCheck(Check):
    steps: NotRequired[list[StepData]]


class NoCheck(TypedDict):
    """A move that needs no check."""


class Moved(Move):
    maneuver: str
    moved: bool
    check: MoveCheck | NoCheck
    infiltrating: bool


class Forfeit(Why):
    use: UseData


class Pursuit(OfUnit):
    pursuer: str
    zones: str
    reading: str
    faces: list[int]
    modifier: int
    total: int
    pursuer_faces: list[int]
    pursuer_modifier: int
    pursuer_total: int
    winner: str


class RetreatFailed(OfUnit):
    energy_before: int
    exhaustion: int


class Retreated(OfUnit):
    frm: str
    with_unit: NotRequired[str]


class CohesionCheck(UnitCheck):
    with_unit: str
    roller: str


class Reload(OfUnit):
    maneuver: str
    when: NotRequired[str]


# -- the lull -------------------------------------------------------------------------------------------
class Maneuvers(OfUnit):
    maneuvers: list[str]


class Ended(OfUnit):
    ended: list[str]


class Upkeep(OfUnit):
    maneuver: str
    target: str | None
    choice: str | None
    effect: str


class ShikigamiMoved(OfUnit):
    frm: str | None
    to: str


class Ward(OfUnit):
    until: str


class Creatures(TypedDict):
    id: str
    count: int


class YomaRoll(TypedDict):
    roll: int
    name: str
    effect: str
    creatures: list[Creatures]
    zone: str | None


class Arrives(OfUnit):
    name: str
    creature: str
    zone: str
    side: str


class EnvironmentSkipped(TypedDict):
    """The GM passes on the lull's environment: the yoma roll and the battlefield changes it could make."""

    yoma: bool
    changes: bool


class BattlefieldChange(TypedDict):
    change: str
    name: str
    zone: str
    effect: str
    until: int | None


class ChangeCheck(UnitCheck):
    change: str
    steps: NotRequired[list[StepData]]


class ChangeEnds(TypedDict):
    zone: str
    change: str


class LostTo(Change):
    cause: str


# -- the end and the GM ---------------------------------------------------------------------------------
class CombatOver(TypedDict):
    winner: str | None
    reason: str
    round: int


class DeathCheck(OfUnit, Roll):
    survives: bool
    outcome: str
    steps: NotRequired[list[StepData]]


class HonorCheck(TypedDict):
    attribute: str
    target: int


class HonorFollowUp(OfUnit):
    honor: str
    follow_up: str
    penalty: str
    check: NotRequired[HonorCheck]
    when: NotRequired[str]


class GmStatus(OfUnit):
    status: str
    on: bool


class GmDebuff(OfUnit):
    debuff: str
    name: str
    total: int
    on: bool
    value: NotRequired[int]


#: Every kind of event a battle logs, with the TypedDict of its data.
EVENT_TYPES: dict[str, Any] = {
    "ambush": Ambush,
    "ambush_immune": AmbushImmune,
    "armor_broken": ArmorBroken,
    "armor_holds": ArmorHolds,
    "arrives": Arrives,
    "attack": Attack,
    "attack_check": AttackCheck,
    "battle_begins": BattleBegins,
    "battlefield_change": BattlefieldChange,
    "behind": Behind,
    "bleed": Bleed,
    "bleeds": Change,
    "breath": Breath,
    "change_check": ChangeCheck,
    "change_ends": ChangeEnds,
    "cohesion": Cohesion,
    "cohesion_check": CohesionCheck,
    "cohesion_loss": CohesionLoss,
    "combat_over": CombatOver,
    "count": Count,
    "critical_hit": Blow,
    "critical_mistake": TableRow,
    "death_check": DeathCheck,
    "debuff": Debuff,
    "debuffs_count_down": Ended,
    "decisive_moment": TableRow,
    "declined": Declined,
    "defenseless": Defenseless,
    "defenseless_ends": When,
    "effect": Effect,
    "energy_changed": EnergyChanged,
    "energy_lost": EnergyLost,
    "energy_reset": EnergyReset,
    "energy_spent": EnergySpent,
    "environment_skipped": EnvironmentSkipped,
    "fate_declined": OfUnit,
    "fate_intervention": FateIntervention,
    "fate_offered": FateOffered,
    "fate_spent": FateSpent,
    "forced_move": Move,
    "forfeit": Forfeit,
    "fumble": Fumble,
    "fumble_extra": FumbleExtra,
    "fumble_extras_none": OfUnit,
    "fumble_offered": OfUnit,
    "gm_debuff": GmDebuff,
    "gm_set_wounds": Change,
    "gm_status": GmStatus,
    "hit": Blow,
    "hold": Hold,
    "honor_follow_up": HonorFollowUp,
    "incapacitated": OfUnit,
    "initiative_used": InitiativeUsed,
    "kata": Kata,
    "last_bastion": OfUnit,
    "last_bastion_offered": LastBastionOffered,
    "limits_reset": Maneuvers,
    "lull": Round,
    "miss": Miss,
    "move": Moved,
    "overload_check": OverloadCheck,
    "pass": Pass,
    "pursuit": Pursuit,
    "rallied": CohesionNow,
    "reaction": Reaction,
    "reaction_offered": ReactionOffered,
    "reload": Reload,
    "removed": Removed,
    "reservations_expire": Maneuvers,
    "reserve": Reserve,
    "retreat_failed": RetreatFailed,
    "retreated": Retreated,
    "round": Round,
    "routed": CohesionNow,
    "shikigami_moved": ShikigamiMoved,
    "stance": Stance,
    "stance_released": StanceReleased,
    "table_effect": TableEffect,
    "tie": Tie,
    "upkeep": Upkeep,
    "upkeep_done": OfUnit,
    "ward": Ward,
    "ward_ends": OfUnit,
    "ward_holds": CohesionNow,
    "weapon_broken": Weapon,
    "weapon_dropped": WeaponDropped,
    "weapon_kept": WeaponKept,
    "weapon_picked_up": Weapon,
    "wound_bound": WoundBound,
    "wounds_behind": WoundsBehind,
    "wounds_lost": Change,
    "wounds_lost_to": LostTo,
    "wounds_recovered": Change,
    "yoma_roll": YomaRoll,
}
