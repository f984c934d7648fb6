"""Events, the replayable log and the ruleset protocol (DESIGN principles 1-3 and 7).

A ruleset is a small object with pure functions: ``legal_actions(state)`` and
``apply(state, action, rng) -> (state, events)``. A :class:`Chronicle` runs one fight over a ruleset:
it validates by letting the ruleset raise :class:`~kassen.core.errors.IllegalActionError` (the chronicle
is then exactly as before), logs every action with its events and the RNG position, undoes one action
at a time (RNG included), and serializes to JSON so that the initial state, the seed and the actions
replay the fight to the identical log.

The core never branches on a ruleset's name: rulesets are found in a registry.
"""

from __future__ import annotations

__all__ = [
    "Chronicle",
    "Event",
    "JSONValue",
    "LogEntry",
    "Ruleset",
    "canonical_json",
    "find_ruleset",
    "register_ruleset",
    "registered_rulesets",
]

import contextlib
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from kassen.core.errors import KassenError
from kassen.core.rng import Rng

JSONValue: TypeAlias = Any  # a value json.dumps accepts: None, bool, int, str, list, dict

S = TypeVar("S")
A = TypeVar("A")


def canonical_json(data: JSONValue) -> str:
    """The one JSON form kassen compares byte for byte: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Event:
    """One change of state. ``automatic`` marks follow-ups the rules made by themselves (a lull, a
    scheduled check), which replay recomputes rather than reads. ``rule`` is the ledger ID."""

    kind: str
    data: Mapping[str, JSONValue] = field(default_factory=dict)
    rule: str = ""
    automatic: bool = False

    def to_json(self) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {"kind": self.kind, "data": dict(self.data)}
        if self.rule:
            out["rule"] = self.rule
        if self.automatic:
            out["automatic"] = True
        return out


class Ruleset(Protocol[S, A]):
    """What a ruleset supplies to run fights; everything else is shared."""

    name: str

    def legal_actions(self, state: S) -> Sequence[A]: ...

    def apply(self, state: S, action: A, rng: Rng) -> tuple[S, Sequence[Event]]:
        """Resolve ``action``. Pure: returns a new state; raises IllegalActionError without effects."""
        ...

    def is_over(self, state: S) -> bool: ...

    def state_to_json(self, state: S) -> JSONValue: ...

    def state_from_json(self, data: JSONValue) -> S: ...

    def action_to_json(self, action: A) -> JSONValue: ...

    def action_from_json(self, data: JSONValue) -> A: ...


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One applied action: its JSON, the events it caused and the RNG position before it."""

    index: int
    action: JSONValue
    events: tuple[Event, ...]
    rng_before: int

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "index": self.index,
            "action": self.action,
            "events": [e.to_json() for e in self.events],
        }


class Chronicle(Generic[S, A]):
    """One fight: initial state + seed + actions → states and the event log."""

    def __init__(
        self, ruleset: Ruleset[S, A], initial: S, seed: int, *, meta: Mapping[str, JSONValue] | None = None
    ):
        self.ruleset = ruleset
        self.seed = seed
        self.meta = dict(meta or {})
        self._initial = initial
        self._states: list[S] = [initial]
        self._rng_states: list[int] = [Rng(seed).state]
        self._entries: list[LogEntry] = []

    # -- reading -------------------------------------------------------------------------------------
    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def state_id(self) -> int:
        """Counts applied actions; changes whenever the state does (undo steps it back)."""
        return len(self._entries)

    @property
    def states(self) -> tuple[S, ...]:
        """Every state so far: the initial one, then one after each applied action."""
        return tuple(self._states)

    @property
    def entries(self) -> tuple[LogEntry, ...]:
        return tuple(self._entries)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for entry in self._entries for e in entry.events)

    @property
    def rng_state(self) -> int:
        return self._rng_states[-1]

    def legal_actions(self) -> Sequence[A]:
        return self.ruleset.legal_actions(self.state)

    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    # -- changing ------------------------------------------------------------------------------------
    def apply(self, action: A) -> tuple[Event, ...]:
        """Apply one action. On an illegal action the typed error propagates and nothing changes."""
        rng = Rng.from_state(self.rng_state)
        before = rng.state
        new_state, events = self.ruleset.apply(self.state, action, rng)
        entry = LogEntry(len(self._entries), self.ruleset.action_to_json(action), tuple(events), before)
        self._states.append(new_state)
        self._rng_states.append(rng.state)
        self._entries.append(entry)
        return entry.events

    def undo(self) -> LogEntry:
        """Step back one action, RNG position included. Raises KassenError at the start."""
        if not self._entries:
            raise KassenError("nothing to undo: the fight is at its start")
        self._states.pop()
        self._rng_states.pop()
        return self._entries.pop()

    def run(self, policy: Callable[[S, Sequence[A]], A], *, max_actions: int = 100_000) -> None:
        """Let ``policy(state, legal_actions)`` choose until the fight is over (or ``max_actions``)."""
        for _ in range(max_actions):
            if self.is_over():
                return
            self.apply(policy(self.state, self.legal_actions()))
        raise KassenError(f"the fight did not end within {max_actions} actions")

    # -- JSON and replay -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSONValue]:
        """Everything needed to replay: ruleset, seed, meta (e.g. content hash), initial state, actions;
        plus the events, for reading and for checking a replay."""
        return {
            "ruleset": self.ruleset.name,
            "seed": self.seed,
            "meta": self.meta,
            "initial_state": self.ruleset.state_to_json(self._initial),
            "log": [e.to_json() for e in self._entries],
        }

    def log_json(self) -> str:
        return canonical_json(self.to_json())

    @classmethod
    def replay(cls, data: Mapping[str, JSONValue]) -> Chronicle[Any, Any]:
        """Rebuild a chronicle from :meth:`to_json` output by re-applying its actions."""
        ruleset: Ruleset[Any, Any] = find_ruleset(str(data["ruleset"]))
        chronicle: Chronicle[Any, Any] = Chronicle(
            ruleset,
            ruleset.state_from_json(data["initial_state"]),
            int(data["seed"]),
            meta=data.get("meta", {}),
        )
        for entry in data["log"]:
            chronicle.apply(ruleset.action_from_json(entry["action"]))
        return chronicle


_REGISTRY: dict[str, Ruleset[Any, Any]] = {}


def register_ruleset(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    """Make ``ruleset`` findable by its ``name`` (as python-chess ``find_variant``)."""
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def find_ruleset(name: str) -> Ruleset[Any, Any]:
    """The ruleset registered as ``name``. A bundled ruleset registers itself when its package
    ``kassen.<name>`` is imported, so that is tried once before giving up (a replay then needs no
    import of its own)."""
    if name not in _REGISTRY and name.isidentifier():
        with contextlib.suppress(ImportError):
            importlib.import_module(f"kassen.{name}")
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise KassenError(f"unknown ruleset {name!r} (registered: {known})") from None


def registered_rulesets() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))
