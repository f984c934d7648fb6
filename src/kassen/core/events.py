"""Events: what an action did, in the log (DESIGN principles 1-3).

An :class:`Event` is one change of state with its rule ID; :func:`canonical_json` is the one JSON form
kassen compares byte for byte. Fights, their log and replay live in :mod:`kassen.core.fight`; the
ruleset protocol and registry in :mod:`kassen.core.ruleset`.
"""

from __future__ import annotations

__all__ = [
    "Event",
    "JSONValue",
    "StepData",
    "canonical_json",
    "check_event",
    "event_codec",
    "event_fields",
]

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from kassen.core.fastinit import fast_init

if TYPE_CHECKING:
    from kassen.core.codec import Codec

JSONValue: TypeAlias = Any  # a value json.dumps accepts: None, bool, int, str, list, dict


class StepData(TypedDict):
    """One explanation step in an event's data (:meth:`kassen.core.explain.Step.to_json`)."""

    value: int
    reason: str
    rule: str


def event_codec(types: Mapping[str, Any], kind: str) -> Codec[Any] | None:
    """The codec of the data of events of ``kind`` under ``types`` (a ruleset's ``info.event_types``),
    or None when ``kind`` is not one of them."""
    tp = types.get(kind)
    if tp is None:
        return None
    from kassen.core.fight import state_codec  # one codec per type, shared

    return state_codec(tp)


@cache
def event_fields(tp: Any) -> frozenset[str]:
    """The data fields events of the declared type ``tp`` (a ``TypedDict``) may carry."""
    return frozenset(tp.__required_keys__ | tp.__optional_keys__)


def check_event(types: Mapping[str, Any], kind: str, data: Any, path: str = "data") -> None:
    """Raise :class:`~kassen.core.codec.FormatError` unless ``data`` (as JSON) is what events of ``kind``
    carry under ``types`` (a ruleset's ``info.event_types``): its keys, each of its type, none else. A
    ruleset that declares no types has free event data: nothing is checked."""
    if not types:
        return
    from kassen.core.codec import FormatError

    codec = event_codec(types, kind)
    if codec is None:
        raise FormatError(path, f"{kind!r} is not a kind of event this ruleset logs"[:200])
    codec.load(json.loads(canonical_json(dict(data) if isinstance(data, Mapping) else data)), path)


def canonical_json(data: JSONValue) -> str:
    """The one JSON form kassen compares byte for byte: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@fast_init
@dataclass(frozen=True, slots=True)
class Event:
    """One change of state. ``automatic`` marks follow-ups the rules made by themselves (a lull, a
    scheduled check), which replay recomputes rather than reads. ``rule`` is the ledger ID.

    >>> Event("lull", {"round": 1}, "SG.LUL.1", automatic=True).to_json()
    {'kind': 'lull', 'data': {'round': 1}, 'rule': 'SG.LUL.1', 'automatic': True}
    """

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
