"""The state of a roll-and-keep duel: frozen, slotted dataclasses updated with ``replace()``.

A :class:`DuelState` holds the fighters, the turn, the phase, the initiative order and what waits for a
decision. The tables are not in it: they are the fight's content (:mod:`kassen.l5r.content`), handed to
every rule through the :class:`~kassen.l5r.turn.L5Turn` (a chronicle records their hash). A
:class:`Fighter` is a character plus everything the fight did to it: Wounds, injuries and other statuses
(each a :class:`Status` with its timing), conditions, the weapon, and this turn's declaration.
"""

from __future__ import annotations

__all__ = [
    "CorpsPending",
    "DrivePending",
    "DuelState",
    "Exchange",
    "Fighter",
    "InjuryPending",
    "Pending",
    "Phase",
    "Status",
    "ThroatPending",
]

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from kassen.core.errors import KassenError
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.l5r.actions import Declaration
from kassen.l5r.character import Character, FighterId
from kassen.l5r.tables import Location


@dataclass(frozen=True, slots=True)
class Status:
    """Something lasting on a fighter: an injury's effect, a bind, a lock, a point at the throat...

    ``kind`` is an injury effect kind (see :data:`~kassen.l5r.tables.EffectKind`) or one of the
    special-attack kinds (``bound``, ``binding``, ``locked``, ``threatened``, ``holding_point``,
    ``free_raise``, ``obstructed``). It applies from ``start_turn`` through ``end_turn`` (``None``: until
    ended by the action ``ended_by``, or for good). ``other`` is the fighter it ties to; ``roll`` is the
    roll it came from (the TN to escape a bind or a lock).
    """

    kind: str
    source: str
    rule: str
    amount: int = 0
    applies_to: str = ""
    start_turn: int = 0
    end_turn: int | None = None
    shrink: int = 0
    ended_by: str = ""
    other: FighterId | None = None
    roll: int = 0

    def active(self, turn: int) -> bool:
        return self.start_turn <= turn and (self.end_turn is None or turn <= self.end_turn)

    def amount_on(self, turn: int) -> int:
        """The amount this turn, a fading penalty shrinking toward 0 (L5.HED.1 dazed)."""
        if not self.shrink:
            return self.amount
        faded = self.shrink * (turn - self.start_turn)
        return min(0, self.amount + faded) if self.amount < 0 else max(0, self.amount - faded)


@dataclass(frozen=True, slots=True)
class Fighter:
    """A character in a duel and what the fight did to it. ``position`` is where it stands on the line
    of the position model, in feet (:mod:`kassen.l5r.movement`); a dropped weapon lies at
    ``weapon_at``."""

    character: Character
    wounds: int = 0
    statuses: tuple[Status, ...] = ()
    conditions: tuple[str, ...] = ()
    weapon_in_hand: bool = True
    weapon_at: int = 0
    dead: bool = False
    death: str = ""
    yielded: bool = False
    bloodied: bool = False
    position: int = 0
    # This turn:
    initiative: int = 0
    declared: Declaration | None = None
    acted: bool = False
    full_defense_bonus: int = 0
    full_defense_rolled: bool = False
    declarations_made: int = 0

    @property
    def name(self) -> FighterId:
        return self.character.name

    @property
    def side(self) -> str:
        return self.character.side

    def has(self, kind: str, turn: int) -> bool:
        return any(s.kind == kind and s.active(turn) for s in self.statuses)

    def active(self, kind: str, turn: int) -> tuple[Status, ...]:
        return tuple(s for s in self.statuses if s.kind == kind and s.active(turn))

    def with_status(self, *statuses: Status) -> Fighter:
        return replace(self, statuses=self.statuses + statuses)

    def without(self, predicate: Callable[[Status], bool]) -> Fighter:
        """Drop the statuses for which ``predicate(status)`` is true."""
        return replace(self, statuses=tuple(s for s in self.statuses if not predicate(s)))


class Phase(StrEnum):
    START = "start"  # before the first turn: Begin
    DECLARE = "declare"  # characters declare, lowest initiative first (L5.CORE.8)
    RESOLVE = "resolve"  # actions resolve, highest initiative first; choices interrupt
    OVER = "over"


@dataclass(frozen=True, slots=True)
class InjuryPending:
    """A called shot hit: its attacker chooses the injury (L5.CS.2) or a maim (L5.CS.3)."""

    chooser: FighterId
    target: FighterId
    location: Location
    damage: int
    dropped: tuple[int, ...]
    options: tuple[str, ...]
    out_floor: bool = False
    foul_obstructs: FighterId | None = None


@dataclass(frozen=True, slots=True)
class CorpsPending:
    """Weapons locked: the defender disengages or struggles (L5.CAC.1)."""

    chooser: FighterId
    attacker: FighterId
    roll: int


@dataclass(frozen=True, slots=True)
class DrivePending:
    """A defender aware of danger behind gives way or refuses the Drive (L5.DRV.1)."""

    chooser: FighterId
    attacker: FighterId
    roll: int
    damage_raises: int


@dataclass(frozen=True, slots=True)
class ThroatPending:
    """The threatened moved: the holder declares the extra attack (L5.PTT.1)."""

    chooser: FighterId
    threatened: FighterId


Pending: TypeAlias = InjuryPending | CorpsPending | DrivePending | ThroatPending


@dataclass(frozen=True, slots=True)
class Exchange:
    """A Point-to-throat exchange in progress: the threatened's action still resolves with the Wounds it
    had before the extra attack (both resolve together, L5.PTT.1)."""

    actor: FighterId
    wounds_before: int


@dataclass(frozen=True, slots=True)
class DuelState:
    """A whole duel. ``ends_at`` is ``out`` (one side left standing) or ``first_blood``; once over,
    ``winner`` is the winning side (``None``: nobody) and ``reason`` says why, in words."""

    fighters: tuple[Fighter, ...]
    name: str = "duel"
    ends_at: str = "out"
    max_turns: int = 30
    turn: int = 0
    phase: Phase = Phase.START
    act_order: tuple[FighterId, ...] = ()
    declare_order: tuple[FighterId, ...] = ()
    cursor: int = 0
    pending: Pending | None = None
    exchange: Exchange | None = None
    winner: str | None = None
    reason: str = ""

    # A fighter is found by its character's name (its ``name``, read without the property: a score of
    # lookups an action).
    def fighter(self, name: FighterId | str) -> Fighter:
        for f in self.fighters:
            if f.character.name == name:
                return f
        raise KassenError(S_("no fighter named {name} in this duel", name=repr(name)))

    def has_fighter(self, name: str) -> bool:
        return any(f.character.name == name for f in self.fighters)

    def with_fighter(self, fighter: Fighter) -> DuelState:
        name = fighter.character.name
        fighters = tuple(fighter if f.character.name == name else f for f in self.fighters)
        return replace(self, fighters=fighters)

    def names(self) -> tuple[FighterId, ...]:
        return tuple(f.name for f in self.fighters)
