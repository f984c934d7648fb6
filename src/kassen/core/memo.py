"""A bounded memo for pure rule functions, keyed by the identity of their immutable arguments.

A fight's state is frozen and updated by replacement: a fighter the last action did not touch is the
*same object* in the next state, and the tables are one object for the whole fight. So a pure function of
a fighter and the tables (an attack pool, a wound rank, a TN to be hit) can be remembered by the
arguments' ``id``: listing the legal actions and weighing them asks for the same values hundreds of times
per decision (the duel, kassen.l5r; the arena bout, kassen.arena). Hashing a fighter by value would cost
more than computing the value.

Each entry keeps its argument objects alive, so an ``id`` in a live key can never be reused by another
object. The memo is bounded (emptied when full) and owned by the module that uses it.
"""

from __future__ import annotations

__all__ = ["Memo"]

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Memo:
    """At most ``maxsize`` results; ``get(key, keep, build)``: ``key`` is a tuple of ``id()``s of the
    immutable objects in ``keep`` and any plain values the result depends on."""

    __slots__ = ("_items", "maxsize")

    def __init__(self, maxsize: int = 512) -> None:
        if maxsize < 1:
            raise ValueError("a Memo holds at least one entry")
        self.maxsize = maxsize
        self._items: dict[tuple[object, ...], tuple[object, tuple[object, ...]]] = {}

    def get(self, key: tuple[object, ...], keep: tuple[object, ...], build: Callable[[], T]) -> T:
        entry = self._items.get(key)
        if entry is not None:
            return entry[0]  # type: ignore[return-value]  # built for this key by the same function
        value = build()
        items = self._items
        if len(items) >= self.maxsize:
            # Start afresh rather than drop the oldest one by one: cheap, and what a long fight asks for
            # drifts with its states anyway (dropping from the front of a dict is slow in CPython).
            items.clear()
        items[key] = (value, keep)
        return value

    def peek(self, key: tuple[object, ...]) -> object | None:
        """The value remembered for ``key``, or ``None`` (nothing is built)."""
        entry = self._items.get(key)
        return None if entry is None else entry[0]

    def put(self, key: tuple[object, ...], keep: tuple[object, ...], value: object) -> None:
        """Remember ``value`` as what the function gives for ``key`` (worked out another way)."""
        items = self._items
        if len(items) >= self.maxsize:
            items.clear()
        items[key] = (value, keep)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
