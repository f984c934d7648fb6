"""The bounded memos the content's :class:`~kassen.sengoku.battle.rules.BattleRules` keeps its pure
readings in (:class:`Memo`), and their bounds."""

from __future__ import annotations

__all__ = ["LISTINGS", "MEMO_LIMIT", "PLANNERS", "Memo"]

import itertools
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: The most entries one memo of ``BattleRules`` holds (then it forgets the older half).
MEMO_LIMIT = 4096
#: The most breath planners (one per state and unit) kept.
PLANNERS = 16
#: The most listings of a unit's breaths (one per situation) kept.
LISTINGS = 2048


class Memo(dict[K, V], Generic[K, V]):
    """A dict of pure readings keyed by value that holds at most ``limit`` entries: once full, it forgets
    the older half (in the order they were made) before it takes a new one. Not an LRU (a reading is not
    moved when it is read again: every lookup stays a plain dict lookup), but not a clean slate either —
    forgetting everything at once made a long lab run pay the whole warm-up again every few hundred
    battles (the demo: 22 ms a battle warm, 35 ms just after the listings were dropped)."""

    __slots__ = ("limit",)

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.limit and key not in self:
            for old in list(itertools.islice(self, max(1, len(self) // 2))):
                del self[old]
        super().__setitem__(key, value)
