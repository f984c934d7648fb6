"""A bounded memo of pure readings, keyed by value, that threads may share.

Listing the legal actions and weighing them asks the rules for the same values hundreds of times per
decision (an attack pool, a wound rank, a TN to be hit, a breath's price), so a ruleset remembers them.
Where such a memo lives decides whether it is right:

- it belongs to what its answers depend on: the content (one object per set of tables, shared by every
  fight of that content and every thread of ``kassen serve``), or one fight;
- its key is the value of everything the reading reads — best, the arguments of a function that reads
  nothing else (``memo.get(args)``, else ``memo[args] = f(*args)``), so that a rule that later reads
  one more value cannot get a stale answer; never an object's ``id()``, which another object may take
  once the first is gone;
- it is safe under threads: a lookup is one dictionary read, and a write (with the forgetting that
  keeps the memo bounded) is done under the memo's own lock.

:class:`Memo` is that memo. A lazily filled helper object (a planner that remembers what it walked)
is not safe to share while it fills: keep it per thread (:class:`PerThread`).
"""

from __future__ import annotations

__all__ = ["MEMO_LIMIT", "Memo", "PerThread"]

import itertools
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

#: The most entries a memo holds unless it says otherwise (then it forgets the older half).
MEMO_LIMIT = 4096


class Memo(dict[K, V], Generic[K, V]):
    """A dict of pure readings keyed by value that holds at most ``limit`` entries: once full, it forgets
    the older half (in the order they were made) before it takes a new one. Reading is a plain dict
    lookup (``memo.get(key)``); writing (``memo[key] = value``) takes the memo's lock, so threads that
    share it never see it half forgotten. Not an LRU (a reading is not moved when it is read again), but
    not a clean slate either: forgetting everything at once made a long lab run pay the whole warm-up
    again every few hundred fights.

    >>> memo: Memo[int, int] = Memo(4)
    >>> for n in range(5):
    ...     memo[n] = n * n
    >>> sorted(memo.items())
    [(2, 4), (3, 9), (4, 16)]
    """

    __slots__ = ("_lock", "limit")

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        if limit < 1:
            raise ValueError("a Memo holds at least one entry")
        super().__init__()
        self.limit = limit
        self._lock = threading.Lock()

    def __setitem__(self, key: K, value: V) -> None:
        with self._lock:
            if len(self) >= self.limit and key not in self:
                for old in list(itertools.islice(self, max(1, len(self) // 2))):
                    super().__delitem__(old)
            super().__setitem__(key, value)

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` and return it (``return memo.put(key, f(...))``)."""
        self[key] = value
        return value

    def clear(self) -> None:
        with self._lock:
            super().clear()

    def __reduce__(self) -> tuple[type[Memo[K, V]], tuple[int]]:
        return (type(self), (self.limit,))  # a copy starts empty: a lock is not copied


class PerThread(threading.local, Generic[T]):
    """One value for each thread that asks, made by ``make()`` on that thread's first read of
    :attr:`value`: for a helper that fills itself as it is used (and so may not be shared while it
    does), kept by the content for every fight its thread plays."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.value = make()
