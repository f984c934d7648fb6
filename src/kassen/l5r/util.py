"""Small helpers shared by the resolution modules: building events and reading fighters."""

from __future__ import annotations

__all__ = ["event", "is_down", "standing"]

from collections.abc import Iterable

from kassen.core.events import Event, JSONValue
from kassen.core.explain import Step, steps_to_json
from kassen.l5r.rolls import rank
from kassen.l5r.state import Fighter
from kassen.l5r.tables import L5Tables


def event(
    kind: str,
    text: str,
    rule: str = "",
    *,
    steps: Iterable[Step] = (),
    automatic: bool = False,
    **data: JSONValue,
) -> Event:
    """An event whose data carries a readable ``text`` and, when given, its explanation ``steps``."""
    payload: dict[str, JSONValue] = {"text": text, **data}
    listed = list(steps)
    if listed:
        payload["steps"] = steps_to_json(listed)
    return Event(kind, payload, rule, automatic)


def is_down(fighter: Fighter, tables: L5Tables) -> bool:
    """Out or Dead: no actions (L5.CORE.6)."""
    return fighter.dead or rank(fighter, tables).down


def standing(fighter: Fighter, tables: L5Tables) -> bool:
    """Still in the fight: neither Out, Dead nor yielded."""
    return not fighter.yielded and not is_down(fighter, tables)
