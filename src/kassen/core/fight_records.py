"""What a fight writes and what it checks at its door (:class:`~kassen.core.fight.Fight` is the fight
itself): the chronicle format it writes and reads, the log entry of one applied action, an action waiting
for dice rolled at the table, the digest of a chronicle's log, the error of a replay that does not give
what it records, the codec of a ruleset's state and action types (one per type), and the checks of what
a caller hands a fight (a seed, typed faces, a policy, a viewer, who takes an action, the dice mode, a
count, the number and sides of its units), each a
:class:`~kassen.core.codec.FormatError` or a :class:`~kassen.core.errors.KassenError` naming what is
wrong, never a traceback.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "FORMAT",
    "MAX_FACE",
    "MAX_TYPED_FACES",
    "READS",
    "SEED_BOUNDS",
    "DiceRequest",
    "LogEntry",
    "ReplayError",
    "check_by",
    "check_faces",
    "check_more_faces",
    "check_policy",
    "check_seed",
    "check_size",
    "check_viewer",
    "log_digest",
    "state_codec",
]

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from kassen.core.codec import Bounds, Codec, FormatError
from kassen.core.engine import GM, Actor
from kassen.core.errors import ContentError, ContentIssue, KassenError, TypedDiceError
from kassen.core.events import Event, canonical_json
from kassen.core.fastinit import fast_init
from kassen.core.view import Viewer
from kassen.i18n import S_

if TYPE_CHECKING:
    from kassen.core.ruleset import RulesetInfo

A = TypeVar("A")

#: The chronicle format this version writes. Format 3 adds the chronicle's ``end`` (how many actions its
#: log holds and a digest of the log), so a chronicle cut short is told from an unfinished fight; format
#: 2 (no end) is still read, format 1 (kassen 0.1, no ``format`` key) is refused.
FORMAT = 3
#: The formats this version reads.
READS = (2, 3)
#: Seeds are 0 .. 2**64 - 1 everywhere.
SEED_BOUNDS = Bounds(0, (1 << 64) - 1)
#: Most typed faces one action may take, and the largest face.
MAX_TYPED_FACES = 1000
MAX_FACE = 1000
#: Default limit on actions in one auto-played fight.
DEFAULT_MAX_ACTIONS = 50_000


class ReplayError(KassenError):
    """A chronicle whose replay does not give what it records; the message names the first
    differing log index and field."""

    code = "replay"


@cache
def state_codec(tp: Any) -> Codec[Any]:
    """The codec of a ruleset's state or action type (built once per type: the fights of a ruleset
    share it, and with it the actions it knows read back as themselves, ``Codec.reads_back``)."""
    return Codec(tp)


_SEED: Codec[int] = Codec(int)
_FACES: Codec[tuple[int | None, ...]] = Codec(tuple[int | None, ...])


def log_digest(log: Any) -> str:
    """The digest a chronicle's ``end`` records of its log: SHA-256 of the log's canonical JSON."""
    return hashlib.sha256(canonical_json(log).encode("utf-8")).hexdigest()


def check_seed(seed: Any, path: str = "seed") -> int:
    """``seed`` if it is an integer in ``0 .. 2**64 - 1``, else a :class:`FormatError`."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise FormatError(path, S_("a seed is an integer, not {name}", name=type(seed).__name__))
    if not SEED_BOUNDS.lo <= seed <= SEED_BOUNDS.hi:
        raise FormatError(
            path, S_("a seed is between 0 and 2**64 - 1, not {value}", value=seed if seed < 10**24 else "…")
        )
    return seed


def check_faces(faces: Any, path: str = "dice") -> tuple[int | None, ...]:
    """Typed faces: a list of at most :data:`MAX_TYPED_FACES` integers, each 1 .. :data:`MAX_FACE`, or
    ``None`` for a die the seeded RNG rolls."""
    if isinstance(faces, tuple):
        faces = list(faces)
    got = _FACES.load(faces, path)
    if len(got) > MAX_TYPED_FACES:
        raise FormatError(
            path,
            S_(
                "{n_got} faces; at most {max_typed_faces} may be typed for one action",
                n_got=len(got),
                max_typed_faces=MAX_TYPED_FACES,
            ),
        )
    for i, f in enumerate(got):
        if f is not None and not 1 <= f <= MAX_FACE:
            raise FormatError(
                f"{path}[{i}]", S_("a face is between 1 and {max_face}, not {f}", max_face=MAX_FACE, f=f)
            )
    return got


def check_policy(policy: Any, path: str = "policy") -> Any:
    """``policy`` if it is None or can be called with a decision, else a :class:`FormatError` (refused
    up front, not at the first decision)."""
    if policy is not None and not callable(policy):
        raise FormatError(
            path,
            S_("a policy is called with a decision and returns an action, not {kind}", kind=_kind(policy)),
        )
    return policy


def check_viewer(viewer: Any, path: str = "viewer") -> Viewer:
    """``viewer`` if it is a :class:`~kassen.core.view.Viewer` (``Viewer(side)``, or the GM's
    ``GM_VIEW``), else a :class:`FormatError`."""
    if not isinstance(viewer, Viewer):
        raise FormatError(
            path, S_("who looks is a Viewer (Viewer(side), or GM_VIEW), not {kind}", kind=_kind(viewer))
        )
    return viewer


def _kind(value: Any) -> str:
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


@dataclass(frozen=True, slots=True)
class DiceRequest(Generic[A]):
    """An action waiting for dice rolled at the table: the faces typed so far, and the die wanted now —
    a ``d{sides}``, the ``index``-th of the action — after ``events`` (what the action did up to that
    roll, so the table sees what the roll is for)."""

    action: A
    faces: tuple[int | None, ...]
    sides: int
    index: int
    events: tuple[Event, ...]
    by: Actor | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "sides": self.sides,
            "index": self.index,
            "events": [e.to_json() for e in self.events],
        }


@fast_init
@dataclass(frozen=True, slots=True)
class LogEntry(Generic[A]):
    """One applied action: its index, the action, who took it (whoever was to move, or the GM making
    a move of its own: ``out_of_turn``), the events it caused, and the faces typed for it (``None``: the
    seeded RNG rolled)."""

    index: int
    action: A
    actor: Actor | None
    events: tuple[Event, ...]
    faces: tuple[int | None, ...] | None = None
    out_of_turn: bool = False


def check_size(units: Mapping[str, str], where: str, info: RulesetInfo) -> None:
    """A fight's units (unit id -> side, none when the ruleset does not say): on at least two sides, and
    at most the ruleset's ``max_units``; else a :class:`~kassen.core.errors.ContentError` at ``where``."""
    if not units:
        return
    limit = info.max_units
    if len(units) > limit:
        message = S_(
            "{n} units; a {ruleset} fight fields at most {limit}",
            n=len(units),
            ruleset=info.name,
            limit=limit,
        )
        raise ContentError(ContentIssue(where, "(units)", message))
    if len(set(units.values())) < 2:
        raise ContentError(ContentIssue(where, "(units)", S_("a fight needs units on at least two sides")))


def check_by(by: Any, to_move: Callable[[], Actor | None]) -> None:
    """Who takes an action: whoever is to move (``by`` None, or that very actor, ``to_move()``), or the GM
    for the GM's own moves (``GM``, at any time). No one else acts for a unit (a player acts only for
    their own units), so any other actor is refused."""
    if by is None or by == GM:
        return
    if not isinstance(by, Actor):
        raise FormatError(
            "by",
            S_("who takes the action is an Actor (GM for the GM's own moves), not {kind}", kind=_kind(by)),
        )
    now_to_move = to_move()
    if by != now_to_move:
        now = "nobody (the fight is over)" if now_to_move is None else str(now_to_move)
        raise KassenError(
            S_("{by} is not to move ({now} decides now): only the GM acts out of turn", by=by, now=now)
        )


def check_more_faces(pending: DiceRequest[Any], faces: Any) -> tuple[int | None, ...]:
    """The faces of the action waiting for dice (``pending``) with ``faces`` added: a list, its first
    face one the die asked for has (its own faces, not any face a die may have), at most
    :data:`MAX_TYPED_FACES` in all; else a :class:`FormatError` or a
    :class:`~kassen.core.errors.TypedDiceError`."""
    if not isinstance(faces, list | tuple):
        raise FormatError("dice", S_("typed dice are a list of faces, not {name}", name=type(faces).__name__))
    first, sides = (faces[0] if faces else None), pending.sides
    if isinstance(first, int) and not isinstance(first, bool) and not 1 <= first <= sides:
        # the die asked for is known: its own faces, not any face a die may have (1 .. MAX_FACE)
        index, shown = pending.index, first if first.bit_length() <= 64 else "so large a number"
        raise TypedDiceError(
            S_(
                "die {value} of this action is a d{sides}: {shown} is not one of its faces",
                value=index + 1,
                sides=sides,
                shown=shown,
            )
        )
    given = (*pending.faces, *check_faces(faces))
    if len(given) > MAX_TYPED_FACES:
        # the chronicle keeps an action's faces in one list, which a replay reads with this limit
        raise FormatError(
            "dice",
            S_(
                "{n_given} faces in all; at most {max_typed_faces} may be typed for one action",
                n_given=len(given),
                max_typed_faces=MAX_TYPED_FACES,
            ),
        )
    return given


def _dice_mode(value: Any) -> Literal["auto", "table"]:
    if value == "auto":
        return "auto"
    if value == "table":
        return "table"
    raise KassenError(f"dice are 'auto' (the seeded RNG) or 'table' (typed by the GM), not {value!r}"[:120])


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise KassenError(f"{name} is a whole number of at least 1, not {value!r}"[:120])
    return value
