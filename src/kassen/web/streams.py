"""The open event streams of every fight (``GET /api/fights/{id}/stream``): a new state is announced
to each open screen of the fight, so every screen follows the table within a second."""

from __future__ import annotations

__all__ = ["Broadcaster"]

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from kassen.web.problems import Problem


class Broadcaster:
    """The open event streams of each fight: :meth:`publish` may be called from any thread; each
    subscriber is an asyncio queue read on its own event loop (the newest message wins when a slow
    reader's queue is full)."""

    def __init__(self, per_fight: int, total: int) -> None:
        self._lock = threading.Lock()
        self._subs: dict[
            str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[dict[str, Any] | None]]]
        ] = {}
        self.per_fight = per_fight
        self.total = total
        self._count = 0

    @contextlib.contextmanager
    def subscribe(self, fight_id: str) -> Iterator[asyncio.Queue[dict[str, Any] | None]]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=8)
        with self._lock:
            subs = self._subs.setdefault(fight_id, set())
            if len(subs) >= self.per_fight or self._count >= self.total:
                raise Problem(429, "streams", "too many open streams: close a screen and try again")
            subs.add((loop, queue))
            self._count += 1
        try:
            yield queue
        finally:
            with self._lock:
                self._subs.get(fight_id, set()).discard((loop, queue))
                self._count -= 1
                if not self._subs.get(fight_id):
                    self._subs.pop(fight_id, None)

    def publish(self, fight_id: str, message: dict[str, Any] | None) -> None:
        with self._lock:
            targets = list(self._subs.get(fight_id, ()))
        for loop, queue in targets:
            with contextlib.suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(_offer, queue, message)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        with self._lock:
            names = list(self._subs)
        for name in names:
            self.publish(name, None)

    @property
    def open(self) -> int:
        return self._count


def _offer(queue: asyncio.Queue[dict[str, Any] | None], message: dict[str, Any] | None) -> None:
    if queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(message)
