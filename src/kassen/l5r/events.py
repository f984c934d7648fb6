"""The data of every kind of event a duel logs, declared (:data:`EVENT_TYPES`, the ruleset's
``info.event_types``): a chronicle's events are checked against them when it is read, ``kassen schema
chronicle --ruleset l5r`` prints them, and the tests check every event the duels log.

Every event's data carries its words (``text``) and, for a roll or a total, its explanation ``steps``,
both left out when nobody reads them (the simulation mode): :class:`Explained`. A field a kind logs only
sometimes (a Drive refused before its roll has no ``success``) is ``NotRequired``.
"""

from __future__ import annotations

__all__ = ["EVENT_TYPES", "Explained"]

from typing import Any, NotRequired, TypedDict

from kassen.core.events import StepData


class Explained(TypedDict, total=False):
    """What every event may carry for a reader: its words and its explanation steps."""

    text: str
    steps: list[StepData]


class Fighter(Explained):
    """An event about one fighter."""

    fighter: str


class Begin(Explained):
    """The GM begins the duel."""


class Turn(Explained):
    turn: int


class Over(Explained):
    turn: int
    winner: str | None


class Initiative(Fighter):
    total: int


class Declared(Fighter):
    """A declaration made (``declare``) or a script's step passed over (``script_skipped``): the act, as
    the action's JSON writes it."""

    act: dict[str, Any]


class Attack(Explained):
    attacker: str
    target: str
    roll: int
    tn: int
    hit: bool
    raises: int
    free_raises: int
    chance: str


class Damage(Explained):
    attacker: str
    target: str
    damage: int


class Wounds(Fighter):
    wounds: int
    total: int
    rank: str


class GmWounds(Fighter):
    wounds: int
    rank: str


class Death(Fighter):
    cause: str
    distinctive: NotRequired[bool]


class InjuryChoice(Explained):
    chooser: str
    options: list[str]


class Injury(Fighter):
    """An injury (or maim) chosen; ``injury`` and ``location`` are left out when none was chosen."""

    location: NotRequired[str]
    injury: NotRequired[str]


class Maimed(Fighter):
    location: str
    injury: str


class Bind(Fighter):
    penalty: int
    roll: int


class CorpsACorps(Explained):
    roll: int


class Struggle(Explained):
    """A struggle: rolled (totals, close), or only said when the lock has already ended (fighter)."""

    totals: NotRequired[dict[str, int]]
    close: NotRequired[bool]
    fighter: NotRequired[str]


class Disarm(Fighter):
    success: bool
    feet: NotRequired[int]
    weapon_at: NotRequired[int]


class Disengage(Explained):
    """A disengage: rolled (fighter, roll, TN, success), or only said (none of them)."""

    fighter: NotRequired[str]
    roll: NotRequired[int]
    tn: NotRequired[int]
    success: NotRequired[bool]


class Drive(Explained):
    """A Drive: rolled and pushed (fighter, feet, position, success), refused or said (fewer)."""

    fighter: NotRequired[str]
    feet: NotRequired[int]
    position: NotRequired[int]
    success: NotRequired[bool]


class FreeWeapon(Fighter):
    success: NotRequired[bool]


class FullDefense(Fighter):
    bonus: NotRequired[int]


class Moved(Fighter):
    feet: int
    position: NotRequired[int]


class RecoverWeapon(Fighter):
    feet: NotRequired[int]


class MaybeFighter(Explained):
    """An event that names its fighter only when one is concerned (a lost action, a point at the
    throat)."""

    fighter: NotRequired[str]


class GmCondition(Fighter):
    condition: str


class GmDanger(Fighter):
    aware: bool


class GmStatusRemoved(Fighter):
    status: str


#: Every kind of event the duel logs, with the TypedDict of its data.
EVENT_TYPES: dict[str, Any] = {
    "attack": Attack,
    "begin": Begin,
    "bind": Bind,
    "bind_freed": Fighter,
    "clear_vision": Fighter,
    "clipping": Fighter,
    "corps_a_corps": CorpsACorps,
    "damage": Damage,
    "death": Death,
    "declare": Declared,
    "disarm": Disarm,
    "disengage": Disengage,
    "drive": Drive,
    "dying": Fighter,
    "foul": Fighter,
    "free_weapon": FreeWeapon,
    "full_defense": FullDefense,
    "gm_condition": GmCondition,
    "gm_condition_removed": GmCondition,
    "gm_danger": GmDanger,
    "gm_injury": Maimed,
    "gm_status_removed": GmStatusRemoved,
    "gm_wounds": GmWounds,
    "initiative": Initiative,
    "injury": Injury,
    "injury_choice": InjuryChoice,
    "lost_action": MaybeFighter,
    "maim": Maimed,
    "mark": Fighter,
    "medical_aid": Fighter,
    "move": Moved,
    "out": Fighter,
    "over": Over,
    "point_to_throat": MaybeFighter,
    "recover_weapon": RecoverWeapon,
    "regain_footing": Fighter,
    "regain_grip": Fighter,
    "release_bind": Fighter,
    "released": Fighter,
    "remove_weapon": Fighter,
    "script_skipped": Declared,
    "status_ended": Fighter,
    "struggle": Struggle,
    "thrown": Fighter,
    "turn": Turn,
    "wait": Fighter,
    "weapon_dropped": Fighter,
    "wounds": Wounds,
    "yield": Fighter,
}
