"""A bounded least-recently-used cache owned by whoever creates it (the parser, the exact tables).

Built on a plain ``dict`` (insertion-ordered) rather than ``functools.lru_cache`` or ``OrderedDict``:
``kassen roll`` imports the parser, and :mod:`collections` alone would cost it a tenth of its start-up.
"""

from __future__ import annotations

__all__ = ["BoundedCache"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see kassen.dice.record)
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import TypeVar

    T = TypeVar("T")


class BoundedCache:
    """At most ``maxsize`` values, keyed by value; the least recently used goes first.

    What it stores must be pure (the same key always gives an equal value) and immutable, since every
    caller asking for a key gets the same object.
    """

    __slots__ = ("_items", "hits", "maxsize", "misses")

    def __init__(self, maxsize: int = 512) -> None:
        if maxsize < 1:
            raise ValueError("a BoundedCache holds at least one entry")
        self.maxsize = maxsize
        self._items: dict[Hashable, object] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value stored under ``key``, built by ``build()`` (and stored) the first time.

        The caller's key must determine the value completely (what ``build`` computes depends on
        nothing else): the value is returned as ``T`` on that promise. An exception from ``build`` (a
        refused expression) stores nothing.
        """
        items = self._items
        try:
            value = items.pop(key)
        except KeyError:
            self.misses += 1
            built = build()
            items[key] = built
            if len(items) > self.maxsize:
                del items[next(iter(items))]  # the oldest: dicts keep insertion order
            return built
        self.hits += 1
        items[key] = value  # re-inserted: now the newest
        return value  # type: ignore[return-value]  # stored by build() for this same key

    def clear(self) -> None:
        self._items.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)
