"""The open event streams of every fight (``GET /api/fights/{id}/stream``): a new state is announced
to each open screen of the fight, so every screen follows the table within a second.

A stream holds a connection for as long as a screen is open, so they are capped: per fight, per
client, per token and in all (:class:`Broadcaster`); one client opening streams without end gets 429
and every other table's screens keep theirs."""

from __future__ import annotations

__all__ = ["Broadcaster"]

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

from kassen.i18n import S_
from kassen.web.problems import Problem


class Broadcaster:
    """The open event streams of each fight: :meth:`publish` may be called from any thread; each
    subscriber is an asyncio queue read on its own event loop (the newest message wins when a slow
    reader's queue is full). At most ``per_fight`` streams a fight, ``per_client`` a client,
    ``per_token`` a token and ``total`` in all."""

    def __init__(self, per_fight: int, total: int, per_client: int = 32, per_token: int = 8) -> None:
        self._lock = threading.Lock()
        self._subs: dict[
            str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[dict[str, Any] | None]]]
        ] = {}
        self._token_of: dict[asyncio.Queue[dict[str, Any] | None], str] = {}
        self.per_fight = per_fight
        self.total = total
        self.per_client = per_client
        self.per_token = per_token
        self._count = 0
        self._held: Counter[str] = Counter()

    @contextlib.contextmanager
    def subscribe(
        self, fight_id: str, client: str = "", token: str = ""
    ) -> Iterator[asyncio.Queue[dict[str, Any] | None]]:
        """A queue of the fight's new states (429 ``streams`` over a cap)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=8)
        holders = [f"client:{client}"] if client else []
        holders += [f"token:{token}"] if token else []
        with self._lock:
            subs = self._subs.setdefault(fight_id, set())
            why = (
                S_("this fight has {n} screens open", n=self.per_fight)
                if len(subs) >= self.per_fight
                else S_("the server has {n} streams open", n=self.total)
                if self._count >= self.total
                else S_("this client has {n} streams open", n=self.per_client)
                if client and self._held[f"client:{client}"] >= self.per_client
                else S_("this token has {n} streams open", n=self.per_token)
                if token and self._held[f"token:{token}"] >= self.per_token
                else None
            )
            if why is None:
                subs.add((loop, queue))
                self._count += 1
                self._held.update(holders)
                self._token_of[queue] = token
            elif not subs:
                self._subs.pop(fight_id, None)
        if why is not None:
            raise Problem(
                429,
                "streams",
                S_("too many open streams ({why}): close a screen and try again", why=why),
                headers={"Retry-After": "5"},
            )
        try:
            yield queue
        finally:
            with self._lock:
                self._subs.get(fight_id, set()).discard((loop, queue))
                self._token_of.pop(queue, None)
                self._count -= 1
                self._held.subtract(holders)
                for holder in holders:
                    if self._held[holder] <= 0:
                        del self._held[holder]
                if not self._subs.get(fight_id):
                    self._subs.pop(fight_id, None)

    def publish(self, fight_id: str, message: dict[str, Any] | None) -> None:
        with self._lock:
            targets = list(self._subs.get(fight_id, ()))
        for loop, queue in targets:
            with contextlib.suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(_offer, queue, message)

    def revoke(self, fight_id: str, tokens: list[str]) -> None:
        """End the fight's streams opened with any of ``tokens`` (replaced: they open nothing now)."""
        gone = set(tokens)
        with self._lock:
            targets = [(lp, q) for lp, q in self._subs.get(fight_id, ()) if self._token_of.get(q) in gone]
        for loop, queue in targets:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_offer, queue, None)

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
