"""Every change of state is told by an event: the narrow hook a ruleset gives for it, and the check.

A mechanic must take effect *and* be told: a Wound lost, a posture changed or a weapon dropped with no
event of the action saying so is a silent change, which the account, the views and a GM reading the
log all miss. The core cannot read a ruleset's state, so a ruleset says three small things through an
:class:`Accounting` (its optional ``accounting`` attribute):

- ``changes(before, after)``: what differs between two of its states, as :class:`Change` records — a
  unit's id (``None`` for the fight's own fields: the round, the turn order) and the name of what
  changed (``"hp"``, ``"posture"``). Bookkeeping no player sees (a queue of scheduled checks, an id
  counter) is left out, and the ruleset says so where it writes the hook;
- ``told_by``: for each such name, the event kinds that tell that change;
- ``named(event)``: the unit ids an event names (:func:`by_keys` builds it from the data keys that hold
  unit ids).

A change is *told* when an event of the same action is of one of its kinds and — for a unit's change —
names that unit, or names no unit at all (a new turn, which clears every unit's declaration).
:func:`silent_changes` lists the ones that are not; :func:`strangers` the unit ids an event names that
are not in the fight. ``tests/core/test_accounting.py`` holds every registered
ruleset to both, over every bundled scenario at several seeds.
"""

from __future__ import annotations

__all__ = ["Accounting", "Change", "by_keys", "field_changes", "silent_changes", "strangers"]

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kassen.core.events import Event

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Change:
    """``what`` changed about ``unit`` (a unit id; ``None``: the fight itself)."""

    unit: str | None
    what: str

    def __str__(self) -> str:
        return self.what if self.unit is None else f"{self.unit}.{self.what}"


@dataclass(frozen=True)
class Accounting(Generic[S]):
    """How a ruleset's changes of state are told by its events (see the module's text)."""

    changes: Callable[[S, S], Iterable[Change]]
    told_by: Mapping[str, frozenset[str]]
    named: Callable[[Event], Iterable[str]]


def by_keys(keys: Iterable[str], **per_kind: Iterable[str]) -> Callable[[Event], Iterator[str]]:
    """``named`` for an event whose unit ids are the values (a string, or a list of strings) of
    ``keys`` in its data; ``per_kind`` gives other keys for a kind (``bout_over=()``: its ``winner`` is a
    side, not a unit)."""
    default = frozenset(keys)
    special = {kind: frozenset(given) for kind, given in per_kind.items()}

    def named(event: Event) -> Iterator[str]:
        for key in special.get(event.kind, default):
            value = event.data.get(key)
            if isinstance(value, str):
                yield value
            elif isinstance(value, list | tuple):
                yield from (v for v in value if isinstance(v, str))

    return named


def field_changes(unit: str | None, before: Any, after: Any, fields: Iterable[str]) -> Iterator[Change]:
    """A :class:`Change` for each of ``fields`` whose value differs between two records."""
    if before is after:
        return
    for name in fields:
        if getattr(before, name) != getattr(after, name):
            yield Change(unit, name)


def silent_changes(accounting: Accounting[S], before: S, after: S, events: Sequence[Event]) -> list[Change]:
    """The changes from ``before`` to ``after`` that none of ``events`` (one action's) tells."""
    out = []
    for change in accounting.changes(before, after):
        kinds = accounting.told_by.get(change.what, frozenset())
        told = False
        for e in events:
            if e.kind in kinds:
                named = set(accounting.named(e))
                # an event that names no unit (a new turn) tells its kind of change for every unit
                if change.unit is None or not named or change.unit in named:
                    told = True
                    break
        if not told:
            out.append(change)
    return out


def strangers(accounting: Accounting[Any], events: Sequence[Event], units: Iterable[str]) -> list[str]:
    """``kind: id`` for each unit id an event names that is not one of ``units``."""
    known = set(units)
    return [f"{e.kind}: {u!r}" for e in events for u in accounting.named(e) if u not in known]
