"""Events: what an action did, in the log (DESIGN principles 1-3).

An :class:`Event` is one change of state with its rule ID; :func:`canonical_json` is the one JSON form
kassen compares byte for byte. Fights, their log and replay live in :mod:`kassen.core.fight`; the
ruleset protocol and registry in :mod:`kassen.core.ruleset`.
"""

from __future__ import annotations

__all__ = ["Event", "JSONValue", "canonical_json"]

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from kassen.core.fastinit import fast_init

JSONValue: TypeAlias = Any  # a value json.dumps accepts: None, bool, int, str, list, dict


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
