"""What a finished fight comes to, in a ruleset's own words: the summary hook of the ruleset protocol
(:meth:`kassen.core.ruleset.Ruleset.fight_summary`).

A ruleset says for each unit whether it still stands at the end and how many Wounds (or HP, in its own
measure) its attacks dealt and it took from the others'; which maneuvers, reactions and specials each
unit used; each attack and whether it succeeded; and the round the fight ended in. The balance lab
counts these over thousands of fights (:mod:`kassen.lab`), and knows no ruleset by name: it refuses a
ruleset without the hook rather than guess from field names.

Only what a unit *chose to do* is a use: answering an offer with "no", passing, the GM's moves and
the engine's own steps are not actions a designer balances, and an offer is not an attack.
"""

from __future__ import annotations

__all__ = ["ActionUse", "Attempt", "FightSummary", "PlayedFight", "UnitSummary", "UseKind"]

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from kassen.core.events import Event

if TYPE_CHECKING:
    from kassen.core.fight import LogEntry

#: What a use is: a maneuver of the unit's own turn, a reaction to another's, or a special (a power,
#: a point spent, a last stand: what the ruleset names apart from its maneuvers).
UseKind = Literal["maneuver", "reaction", "special"]


@dataclass(frozen=True, slots=True)
class UnitSummary:
    """One unit at the end of a fight: its side, whether it still stands (able to fight on), the
    Wounds (or HP) it took from attacks and dealt with its own."""

    id: str
    side: str
    standing: bool
    wounds_taken: int = 0
    wounds_dealt: int = 0


@dataclass(frozen=True, slots=True)
class ActionUse:
    """A unit used ``action`` once: a maneuver, a reaction or a special (``kind``)."""

    unit: str
    action: str
    kind: UseKind = "maneuver"


@dataclass(frozen=True, slots=True)
class Attempt:
    """A unit's attack named ``action`` (its maneuver, or the attack's kind) and whether it succeeded
    (hit, not nullified)."""

    unit: str
    action: str
    success: bool


@dataclass(frozen=True, slots=True)
class FightSummary:
    """A finished fight in a ruleset's own words (see the module notes)."""

    rounds: int
    units: tuple[UnitSummary, ...]
    uses: tuple[ActionUse, ...] = ()
    attempts: tuple[Attempt, ...] = ()


@runtime_checkable
class PlayedFight(Protocol):
    """What a summary reads of a finished fight: a :class:`~kassen.core.fight.Fight`, or the lab's
    record of one played in the simulation mode (:class:`kassen.lab.engine.Played`)."""

    @property
    def ruleset(self) -> Any: ...

    @property
    def tables(self) -> Any: ...

    @property
    def initial_state(self) -> Any: ...

    @property
    def state(self) -> Any: ...

    @property
    def entries(self) -> Sequence[LogEntry[Any]]: ...

    @property
    def events(self) -> tuple[Event, ...]: ...
