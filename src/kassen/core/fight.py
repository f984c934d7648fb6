"""A fight: one ruleset, its content, a seed and the snapshots and log of the actions applied.

:class:`Fight` is what every client works through — the CLI, terminal play, the web table, the lab —
and what a tool builder embeds::

    fight = kassen.open_fight("demo", seed=3)
    while not fight.over:
        fight.step()                      # the scenario's policies decide
    fight.result, fight.to_json()

It keeps a :class:`~kassen.core.engine.Snapshot` (state + RNG position) after every action, so
:meth:`Fight.undo` steps back exactly, and :meth:`Fight.to_json` writes a chronicle (format
:data:`FORMAT`) that :meth:`Fight.from_json` replays, checking every recorded field: the content hash,
every event of every action, typed dice, the result. Actions and states go through the one codec
(:mod:`kassen.core.codec`), so malformed JSON is a :class:`~kassen.core.codec.FormatError` naming its
path, never a traceback.
"""

from __future__ import annotations

__all__ = ["FORMAT", "Fight", "LogEntry", "ReplayError", "state_codec"]

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from kassen.content.content import Content, Layer, inline_layer, read_layer
from kassen.core.codec import Bounds, Codec, FormatError
from kassen.core.engine import Actor, Outcome, Snapshot, advance
from kassen.core.errors import IllegalActionError, KassenError, TypedDiceError
from kassen.core.events import Event, canonical_json
from kassen.core.policy import Decision, Policy
from kassen.core.rng import Rng
from kassen.core.ruleset import Ruleset, find_ruleset

S = TypeVar("S")
A = TypeVar("A")

#: The chronicle format this version writes and reads. Format 1 (kassen 0.1) had no ``format`` key.
FORMAT = 2
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
    """The codec of a ruleset's state or action type (built once per type)."""
    return Codec(tp)


_SEED: Codec[int] = Codec(int)
_FACES: Codec[tuple[int, ...]] = Codec(tuple[int, ...])


def check_seed(seed: Any, path: str = "seed") -> int:
    """``seed`` if it is an integer in ``0 .. 2**64 - 1``, else a :class:`FormatError`."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise FormatError(path, f"a seed is an integer, not {type(seed).__name__}")
    if not SEED_BOUNDS.lo <= seed <= SEED_BOUNDS.hi:
        raise FormatError(path, f"a seed is between 0 and 2**64 - 1, not {seed if seed < 10**24 else '…'}")
    return seed


def check_faces(faces: Any, path: str = "dice") -> tuple[int, ...]:
    """Typed faces: a list of at most :data:`MAX_TYPED_FACES` integers, each 1 .. :data:`MAX_FACE`."""
    got = _FACES.load(faces, path)
    if len(got) > MAX_TYPED_FACES:
        raise FormatError(path, f"{len(got)} faces; at most {MAX_TYPED_FACES} may be typed for one action")
    for i, f in enumerate(got):
        if not 1 <= f <= MAX_FACE:
            raise FormatError(f"{path}[{i}]", f"a face is between 1 and {MAX_FACE}, not {f}")
    return got


@dataclass(frozen=True, slots=True)
class LogEntry(Generic[A]):
    """One applied action: its index, the action, who was to move, the events it caused, and the
    faces typed for it (``None``: the seeded RNG rolled)."""

    index: int
    action: A
    actor: Actor | None
    events: tuple[Event, ...]
    faces: tuple[int, ...] | None = None


class Fight(Generic[S, A]):
    """One fight over a ruleset and its content (see the module notes)."""

    def __init__(
        self,
        ruleset: Ruleset[S, A, Any],
        content: Content[Any],
        state: S,
        seed: int,
        *,
        meta: Mapping[str, Any] | None = None,
        policy: Policy[S, A] | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        rng: int | None = None,
    ) -> None:
        if content.ruleset != ruleset.info.name:
            raise KassenError(f"{content.ruleset} content cannot run a {ruleset.info.name} fight")
        self.ruleset = ruleset
        self.content = content
        self.seed = check_seed(seed)
        self.meta: dict[str, Any] = {**(meta or {}), "content": content.meta()}
        self.policy = policy
        self.max_actions = max_actions
        self._initial_rng = rng
        self._state_codec: Codec[S] = state_codec(ruleset.info.state_type)
        self._action_codec: Codec[A] = state_codec(ruleset.info.action_type)
        start = Rng(self.seed).state if rng is None else rng
        self._snapshots: list[Snapshot[S]] = [Snapshot(state, start)]
        self._entries: list[LogEntry[A]] = []
        self._history: list[A] = []
        self._legal: tuple[int, Sequence[A]] | None = None

    # -- reading ---------------------------------------------------------------------------------------
    @property
    def tables(self) -> Any:
        return self.content.tables

    @property
    def snapshot(self) -> Snapshot[S]:
        return self._snapshots[-1]

    @property
    def state(self) -> S:
        return self._snapshots[-1].state

    @property
    def initial_state(self) -> S:
        return self._snapshots[0].state

    @property
    def states(self) -> tuple[S, ...]:
        """Every state so far: the initial one, then one after each applied action."""
        return tuple(s.state for s in self._snapshots)

    @property
    def state_id(self) -> str:
        """Identifies the current snapshot (state and RNG position) of this ruleset and content: the
        same state always has the same id, any change gives another."""
        return self.snapshot_id(self.snapshot)

    def snapshot_id(self, snapshot: Snapshot[S]) -> str:
        text = canonical_json(
            [self.ruleset.info.name, self.content.hash, snapshot.rng, self._state_codec.dump(snapshot.state)]
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    @property
    def entries(self) -> tuple[LogEntry[A], ...]:
        return tuple(self._entries)

    @property
    def history(self) -> Sequence[A]:
        """The actions applied so far, oldest first."""
        return tuple(self._history)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for entry in self._entries for e in entry.events)

    @property
    def to_move(self) -> Actor | None:
        return self.ruleset.to_move(self.state)

    @property
    def result(self) -> Outcome | None:
        return self.ruleset.result(self.state)

    @property
    def over(self) -> bool:
        return self.ruleset.result(self.state) is not None

    def legal_actions(self) -> Sequence[A]:
        """What the actor to move may do now (see ``RulesetInfo.legal_actions_complete``)."""
        n = len(self._entries)
        if self._legal is None or self._legal[0] != n:
            self._legal = (n, tuple(self.ruleset.legal_actions(self.state, self.tables)))
        return self._legal[1]

    def check(self, action: A) -> None:
        """Raise :class:`~kassen.core.errors.IllegalActionError` unless ``action`` is legal now (tried
        on a copy: nothing changes)."""
        advance(self.ruleset, self.tables, Snapshot(self.state, self.snapshot.rng), action)

    def is_legal(self, action: A) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # -- changing --------------------------------------------------------------------------------------
    def action(self, data: Any, path: str = "action") -> A:
        """An action of this ruleset from its JSON (:class:`FormatError` naming the field if malformed)."""
        return self._action_codec.load(data, path)

    def action_json(self, action: A) -> Any:
        return self._action_codec.dump(action)

    def apply(self, action: A, *, dice: Sequence[int] | None = None) -> tuple[Event, ...]:
        """Apply ``action`` (or its JSON); ``dice`` are faces rolled at the table for it. An illegal
        action, or typed faces that do not fit, raise a typed error and nothing changes."""
        if isinstance(action, Mapping):
            action = self.action(action)
        faces = None if dice is None else check_faces(list(dice))
        actor = self.to_move
        snap, events = advance(self.ruleset, self.tables, self.snapshot, action, faces)
        entry = LogEntry(len(self._entries), action, actor, events, faces)
        self._snapshots.append(snap)
        self._entries.append(entry)
        self._history.append(action)
        return events

    def undo(self) -> LogEntry[A]:
        """Step back one action, RNG position included."""
        if not self._entries:
            raise KassenError("nothing to undo: the fight is at its start")
        self._snapshots.pop()
        self._history.pop()
        return self._entries.pop()

    def decision(self) -> Decision[S, A]:
        """What a policy sees now."""
        actor = self.to_move
        if actor is None:
            raise KassenError("the fight is over: nobody decides")
        return Decision(
            self.state, actor, self.legal_actions(), self._history, self.seed, self.tables, self.is_legal
        )

    def decide(self, policy: Policy[S, A] | None = None) -> A:
        """The action ``policy`` (default: the scenario's, else the ruleset's heuristic) chooses now."""
        chosen = policy or self.policy or self.ruleset.heuristic(self.tables)
        if self.policy is None and policy is None:
            self.policy = chosen
        return chosen(self.decision())

    def step(self, policy: Policy[S, A] | None = None) -> tuple[Event, ...]:
        """Apply the action ``policy`` chooses now."""
        return self.apply(self.decide(policy))

    def autoplay(self, policy: Policy[S, A] | None = None, *, max_actions: int | None = None) -> None:
        """Let ``policy`` (default: the scenario's) play until the fight is over."""
        limit = self.max_actions if max_actions is None else max_actions
        for _ in range(limit):
            if self.over:
                return
            self.step(policy)
        if not self.over:
            raise KassenError(f"the fight did not end within {limit} actions")

    # -- JSON ------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The chronicle: everything a replay needs (format, ruleset, seed, meta with the content,
        initial state, actions with any typed dice) and what it must reproduce (events, result)."""
        log = []
        for e in self._entries:
            item: dict[str, Any] = {
                "index": e.index,
                "action": self._action_codec.dump(e.action),
                "events": [ev.to_json() for ev in e.events],
            }
            if e.faces is not None:
                item["dice"] = list(e.faces)
            log.append(item)
        out: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset.info.name,
            "seed": self.seed,
            "meta": self.meta,
            "initial_state": self._state_codec.dump(self.initial_state),
            "log": log,
        }
        if self._initial_rng is not None:
            out["rng"] = self._initial_rng
        result = self.result
        if result is not None:
            out["result"] = result.to_json()
        return out

    def log_json(self) -> str:
        """:meth:`to_json` in the one canonical form compared byte for byte."""
        return canonical_json(self.to_json())

    def snapshot_json(self) -> dict[str, Any]:
        """The current snapshot alone: :meth:`from_snapshot` continues from it as if never stopped."""
        snap = self.snapshot
        return {
            "format": FORMAT,
            "snapshot": True,
            "ruleset": self.ruleset.info.name,
            "seed": self.seed,
            "meta": self.meta,
            "state": self._state_codec.dump(snap.state),
            "rng": snap.rng,
            "state_id": self.state_id,
        }

    @classmethod
    def from_json(cls, data: Any, *, content: Sequence[str | Path] = ()) -> Fight[Any, Any]:
        """Replay a chronicle (:meth:`to_json`), checking every recorded field; ``content`` are the
        ``--content`` layers it was played with. Raises :class:`FormatError` (malformed),
        :class:`~kassen.content.content.ContentMismatchError` or :class:`ReplayError` (naming the first
        differing index and field); an unfinished fight replays as unfinished."""
        top = _object(
            data, "", {"format", "ruleset", "seed", "meta", "initial_state", "log"}, {"result", "rng"}
        )
        _format(top)
        fight = _start(top, "initial_state", content)
        log = top["log"]
        if not isinstance(log, list):
            raise FormatError("log", f"expected a list, got {type(log).__name__}")
        for i, item in enumerate(log):
            where = f"log[{i}]"
            entry = _object(item, where, {"index", "action", "events"}, {"dice"})
            if entry["index"] != i:
                raise FormatError(f"{where}.index", f"expected {i}, got {entry['index']!r}")
            action = fight.action(entry["action"], f"{where}.action")
            faces = check_faces(entry["dice"], f"{where}.dice") if "dice" in entry else None
            try:
                events = fight.apply(action, dice=faces)
            except (IllegalActionError, TypedDiceError) as exc:
                raise ReplayError(
                    f"{where}.action: not possible at this point of the replay: {exc}"
                ) from None
            _same(entry["events"], [e.to_json() for e in events], f"{where}.events")
        result = fight.result
        if "result" in top:
            if result is None:
                raise ReplayError("result: the log claims a result, but its actions do not end the fight")
            _same(top["result"], result.to_json(), "result")
        elif result is not None:
            raise ReplayError("result: the fight is over after these actions, but the log records no result")
        return fight

    @classmethod
    def from_snapshot(cls, data: Any, *, content: Sequence[str | Path] = ()) -> Fight[Any, Any]:
        """A fight continuing from :meth:`snapshot_json` (its state, RNG position and content)."""
        top = _object(data, "", {"format", "snapshot", "ruleset", "seed", "meta", "state", "rng", "state_id"})
        _format(top)
        fight = _start(top, "state", content, rng=_SEED.load(top["rng"], "rng"))
        if top["state_id"] != fight.state_id:
            raise ReplayError("state_id: the snapshot's state is not the one its id was made of")
        return fight


def _object(
    data: Any, path: str, required: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> dict[str, Any]:
    if not isinstance(data, dict):
        what = "a chronicle" if not path else "an object"
        raise FormatError(path, f"expected {what} (a JSON object), got {type(data).__name__}")
    for key in data:
        if key not in required and key not in optional:
            where = f"{path}.{key}" if path else str(key)
            raise FormatError(where, f"unknown field (fields: {', '.join(sorted(required | optional))})")
    for key in sorted(required):
        if key not in data:
            raise FormatError(f"{path}.{key}" if path else key, "field required")
    return data


def _format(top: Mapping[str, Any]) -> None:
    if top["format"] != FORMAT:
        raise FormatError(
            "format",
            f"this file is format {top['format']!r}; this kassen reads format {FORMAT}: "
            "play the fight again to write it anew",
        )


def _start(
    top: Mapping[str, Any], state_key: str, content: Sequence[str | Path], rng: int | None = None
) -> Fight[Any, Any]:
    ruleset = find_ruleset(top["ruleset"])
    seed = check_seed(top["seed"])
    if "rng" in top and rng is None:
        rng = _SEED.load(top["rng"], "rng")
    meta = top["meta"]
    if not isinstance(meta, dict):
        raise FormatError("meta", "expected an object")
    recorded = meta.get("content")
    if not isinstance(recorded, dict):
        raise FormatError("meta.content", "field required (the content the fight was played on)")
    layers: list[Layer] = [read_layer(p, f"layer {i}") for i, p in enumerate(content, 1)]
    inline = recorded.get("scenario")
    if inline is not None:
        if not isinstance(inline, dict):
            raise FormatError("meta.content.scenario", "expected an object")
        layers.append(inline_layer(inline))
    built = ruleset.load_content(layers)
    built.check(recorded)
    state = state_codec(ruleset.info.state_type).load(top[state_key], state_key)
    return Fight(ruleset, built, state, seed, meta={k: v for k, v in meta.items() if k != "content"}, rng=rng)


def _same(recorded: Any, replayed: Any, path: str) -> None:
    """Raise :class:`ReplayError` at the first place ``recorded`` and ``replayed`` JSON differ."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in sorted(set(recorded) | set(replayed), key=str):
            if key not in recorded:
                raise ReplayError(f"{path}.{key}: the replay gives a field the log does not record")
            if key not in replayed:
                raise ReplayError(f"{path}.{key}: recorded, but the replay does not give it")
            _same(recorded[key], replayed[key], f"{path}.{key}")
        return
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i, (r, p) in enumerate(zip(recorded, replayed, strict=False)):
            _same(r, p, f"{path}[{i}]")
        if len(recorded) != len(replayed):
            raise ReplayError(f"{path}: {len(recorded)} recorded, the replay gives {len(replayed)}")
        return
    if type(recorded) is not type(replayed) or recorded != replayed:
        raise ReplayError(f"{path}: recorded {_short(recorded)}, the replay gives {_short(replayed)}")


def _short(value: Any) -> str:
    text = canonical_json(value) if isinstance(value, dict | list) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
