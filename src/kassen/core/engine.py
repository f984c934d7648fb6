"""The engine skeleton every ruleset runs on (DESIGN principles 1, 3 and 8).

One action is resolved the same way whatever the ruleset:

1. :func:`advance` builds a :class:`Turn` — the working copy of the state, the dice (the seeded
   :class:`~kassen.core.rng.Rng` at the snapshot's position, or faces the GM typed), the content's
   tables and the events so far — through the ruleset's ``start``;
2. the ruleset's ``resolve(turn, action)`` validates the action and applies it (an illegal action raises
   :class:`~kassen.core.errors.IllegalActionError` naming its rule; the snapshot is untouched because
   only the working copy changed);
3. the core drains the automatic follow-ups — the ruleset's ``follow_up(turn)`` runs one step and says
   whether there is more — under one cap, :data:`MAX_AUTOMATIC_STEPS`, so no rule can loop forever;
4. the new :class:`Snapshot` carries the state *and* the RNG position, so a stored snapshot alone
   continues the fight.

Who decides now is an :class:`Actor`: a unit, a side, the GM, or chance.
"""

from __future__ import annotations

__all__ = [
    "GM",
    "MAX_AUTOMATIC_STEPS",
    "Actor",
    "DiceNeeded",
    "Handlers",
    "Outcome",
    "Snapshot",
    "TableDice",
    "Turn",
    "advance",
    "drain",
]

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from kassen.core.errors import KassenError, TypedDiceError
from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastinit import fast_init
from kassen.core.rng import DieSource, Rng
from kassen.i18n import S_

S = TypeVar("S")
A = TypeVar("A")
A_contra = TypeVar("A_contra", contravariant=True)
W = TypeVar("W")
X = TypeVar("X")

#: At most this many automatic follow-up steps inside one action, in every ruleset.
MAX_AUTOMATIC_STEPS = 20_000


@fast_init
@dataclass(frozen=True, slots=True)
class Actor:
    """Who must decide now: a ``unit`` (``id``, with its ``side``), a ``side``, the ``gm``, or ``chance``."""

    kind: Literal["unit", "side", "gm", "chance"]
    id: str = ""
    side: str | None = None

    def __str__(self) -> str:
        if self.kind == "unit":
            return self.id
        if self.kind == "side":
            return f"side {self.id}"
        return self.kind

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.id:
            out["id"] = self.id
        if self.side is not None:
            out["side"] = self.side
        return out


#: The game master (or referee): starts fights, rolls the environment, makes the GM's moves.
GM = Actor("gm", "gm")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a fight ended: the winning side's id (``None``: nobody won) and why, in words."""

    winner: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}


@fast_init
@dataclass(frozen=True, slots=True)
class Snapshot(Generic[S]):
    """Everything needed to continue a fight: the ruleset's state and the RNG position."""

    state: S
    rng: int


class Turn(Generic[S]):
    """The working copy inside one action: the state being rewritten, the dice, the content's tables,
    and the events logged so far. A ruleset may subclass it to add its own helpers.

    Two flags say who reads what the action does (both True in a fight; the simulation mode,
    :mod:`kassen.core.sim`, turns them off): ``explain`` — build the explanation steps and the words of
    each event (a ruleset checks it where it builds them, and leaves them out of the event's data);
    ``record`` — keep the events at all (:meth:`log` drops them when False, and a ruleset may skip
    building an event's data). Neither changes what the rules do: the same state, dice and result."""

    __slots__ = ("dice", "events", "explain", "record", "state", "tables")

    def __init__(self, state: S, dice: DieSource, tables: Any) -> None:
        self.state = state
        self.dice = dice
        self.tables = tables
        self.events: list[Event] = []
        self.explain = True
        self.record = True

    def log(self, kind: str, rule: str = "", *, automatic: bool = True, **data: Any) -> None:
        """Record an event; ``automatic`` marks what the rules did by themselves."""
        if self.record:
            self.events.append(Event(kind, data, rule, automatic))

    def explained(self, **steps: Iterable[Step]) -> dict[str, Any]:
        """Each of ``steps`` as JSON under its name when the turn explains, else nothing: spread into an
        event's data, ``turn.log("check", rule, total=14, **turn.explained(steps=check.steps))``."""
        if not self.explain:
            return {}
        return {name: steps_to_json(given) for name, given in steps.items()}

    def settled(self) -> S:
        """The state the action leaves, once it is done: ``state`` itself, unless a ruleset's turn keeps
        part of it apart while the action runs (the arena's agenda) and writes it back here."""
        return self.state


class Handlers(Generic[W]):
    """Dispatch by table (DESIGN principle 9): each action (or task) type's handler, added in pairs the
    type checker checks — ``Handlers[BoutTurn]().add(Attack, on_attack)`` accepts only a handler of an
    ``Attack`` — so handlers name their own type and nothing is typed ``Any`` outside the table."""

    __slots__ = ("_table",)

    def __init__(self) -> None:
        self._table: dict[type, Callable[[W, Any], None]] = {}

    def add(self, kind: type[X], handler: Callable[[W, X], None]) -> Handlers[W]:
        self._table[kind] = handler
        return self

    def __contains__(self, kind: object) -> bool:
        return kind in self._table

    def kinds(self) -> tuple[type, ...]:
        return tuple(self._table)

    @property
    def table(self) -> Mapping[type, Callable[[W, Any], None]]:
        """Type → handler, for a hot loop that dispatches by one lookup (``table[type(item)](target,
        item)``) rather than through :meth:`__call__`; the pairs are those :meth:`add` checked. Read it,
        never write to it."""
        return self._table

    def __call__(self, target: W, item: object) -> None:
        """Run ``item``'s handler on ``target`` (a KeyError for a type without one: check first)."""
        self._table[type(item)](target, item)


class Resolver(Protocol[S, A_contra]):
    """The part of a ruleset that :func:`advance` drives."""

    def start(self, state: S, dice: DieSource, tables: Any) -> Turn[S]: ...

    def resolve(self, turn: Turn[S], action: A_contra) -> None: ...

    def follow_up(self, turn: Turn[S]) -> bool: ...


def drain(step: Callable[[], bool], *, cap: int = MAX_AUTOMATIC_STEPS) -> None:
    """Run ``step`` until it returns False (someone must decide, or the fight is over), at most ``cap``
    times (DESIGN principle 8: a queue that cannot loop forever)."""
    for _ in range(cap):
        if not step():
            return
    raise KassenError(S_("one action ran more than {cap} automatic steps: the rules loop", cap=cap))


class DiceNeeded(TypedDiceError):
    """The action needs another die than the faces typed so far: a ``d{sides}``, the ``index``-th of
    the action (from 0), after ``events`` (what the action did up to that roll, for the table to see
    what the roll is for). Typed dice mode answers it with one more face."""

    code = "dice.needed"

    def __init__(self, sides: int, index: int, events: tuple[Event, ...]) -> None:
        self.sides = sides
        self.index = index
        self.events = events
        super().__init__(f"a d{sides} is needed (die {index + 1} of this action)")


class TableDice:
    """Faces typed at the table for one action, in order; ``None`` lets the seeded RNG roll that die.
    Running out raises :class:`DiceNeeded`; a face the die does not have is a
    :class:`~kassen.core.errors.TypedDiceError`."""

    __slots__ = ("_faces", "_next", "rng", "turn")

    def __init__(self, faces: Sequence[int | None], rng: Rng) -> None:
        self._faces = tuple(faces)
        self._next = 0
        self.rng = rng
        self.turn: Turn[Any] | None = None

    def die(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise DiceNeeded(sides, self._next, tuple(self.turn.events) if self.turn is not None else ())
        face = self._faces[self._next]
        if face is None:
            face = self.rng.die(sides)
        elif not 1 <= face <= sides:
            raise TypedDiceError(
                S_(
                    "die {value} of this action is a d{sides}: {face} is not one of its faces",
                    value=self._next + 1,
                    sides=sides,
                    face=face,
                )
            )
        self._next += 1
        return face

    @property
    def unused(self) -> int:
        return len(self._faces) - self._next


def advance(
    resolver: Resolver[S, A],
    tables: Any,
    snapshot: Snapshot[S],
    action: A,
    faces: Sequence[int | None] | None = None,
) -> tuple[Snapshot[S], tuple[Event, ...]]:
    """Resolve ``action`` on ``snapshot`` and everything automatic after it; pure.

    ``faces`` are dice rolled at the table: every die of this action takes the next face (checked
    against the die; ``None`` lets the seeded RNG roll that one), and a count that does not fit is
    refused — too few with :class:`DiceNeeded` (naming the die wanted), too many with a
    :class:`~kassen.core.errors.TypedDiceError`. The RNG moves only for the dice it rolls. Raises
    :class:`~kassen.core.errors.IllegalActionError` (or a dice error) with nothing changed.
    """
    rng = Rng.from_state(snapshot.rng)
    dice: DieSource = rng if faces is None else TableDice(faces, rng)
    turn = resolver.start(snapshot.state, dice, tables)
    if isinstance(dice, TableDice):
        dice.turn = turn
    resolver.resolve(turn, action)
    drain(lambda: resolver.follow_up(turn))
    if isinstance(dice, TableDice) and dice.unused:
        used = len(faces or ()) - dice.unused
        raise TypedDiceError(
            S_(
                "this action rolled {used} dice, but {n_value} faces were typed",
                used=used,
                n_value=len(faces or ()),
            )
        )
    return Snapshot(turn.settled(), rng.state), tuple(turn.events)
