"""What one client or one token may take of a server: fights opened, bytes stored, actions, requests
at once, event streams.

Opening a fight needs no token, so without a bound one client could fill the store (a scenario text
is up to a MiB, a chronicle 8) or hold every event stream of the server. The bounds are rates over a
sliding window — counted with the ``limits`` library (its sliding-window counter: two counters per
key, however large the cost) — and caps on what is held at once:

==============================  ============================================  ======================
what                            counted per                                   default
==============================  ============================================  ======================
fights opened (new, imported,   client; and per token for a fork              60 per 10 minutes
forked), tried or not
bytes stored by them            client                                        32 MiB per hour
actions and undos               token                                         1,200 per minute
requests at once                client (event streams apart)                  32
event streams open              client; token; fight; the server              32; 8; 64; 512
==============================  ============================================  ======================

A request over a bound is refused with 429 (code ``quota``, ``streams`` or ``busy``), a
``Retry-After`` for the rates, and nothing changed; refusals are logged quietly
(:class:`~kassen.web.quiet.QuietLog`). A client is an IP address, an IPv6 /64 (see
:func:`kassen.web.connections.client_key`) — behind a reverse proxy the address it forwards, when
``--proxy`` names it. The bounds are per server process: servers sharing a store count apart.
"""

from __future__ import annotations

__all__ = ["Quotas", "client_of_scope"]

import math
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from kassen.i18n import S_
from kassen.web.connections import client_key
from kassen.web.problems import Problem
from kassen.web.quiet import QuietLog
from kassen.web.settings import Quota, QuotaSettings


def _item(quota: Quota, name: str) -> RateLimitItem:
    return RateLimitItemPerSecond(quota.amount, quota.seconds, namespace=name)


def client_of_scope(scope: Any) -> str:
    """The client a request counts under (the peer address, or what a trusted proxy forwarded)."""
    client = scope.get("client")
    return client_key(str(client[0])) if client else "unknown"


class Quotas:
    """The rates and caps of one server (thread-safe; see the module notes)."""

    def __init__(self, settings: QuotaSettings | None = None, quiet: QuietLog | None = None) -> None:
        self.settings = settings or QuotaSettings()
        self.quiet = quiet or QuietLog()
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._fights = _item(self.settings.fights, "fights")
        self._bytes = _item(self.settings.store_bytes, "store-bytes")
        self._actions = _item(self.settings.actions, "actions")
        self._lock = threading.Lock()
        self._busy: Counter[str] = Counter()

    def _hit(self, item: RateLimitItem, quota: Quota, unit: str, key: str, shown: str, cost: int = 1) -> None:
        if self._limiter.hit(item, key, cost=cost):
            return
        stats = self._limiter.get_window_stats(item, key)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        self.quiet.note("quota", f"over {quota.words(unit)}", shown)
        raise Problem(
            429,
            "quota",
            S_("over the quota of {quota}: try again in {wait} s", quota=quota.words(unit), wait=wait),
            headers={"Retry-After": str(min(wait, quota.seconds))},
        )

    def open_fight(self, client: str, token: str | None = None) -> None:
        """One fight opened (or tried) by ``client`` (with ``token``: a fork)."""
        self._hit(self._fights, self.settings.fights, S_("fights"), f"client:{client}", client)
        if token is not None:
            self._hit(self._fights, self.settings.fights, S_("fights"), f"token:{token}", client)

    def store(self, client: str, size: int) -> None:
        """``size`` bytes about to be stored for ``client``."""
        self._hit(
            self._bytes, self.settings.store_bytes, S_("bytes stored"), f"client:{client}", client, size
        )

    def act(self, token: str, client: str) -> None:
        """One action or undo with ``token``."""
        self._hit(self._actions, self.settings.actions, S_("actions"), f"token:{token}", client)

    @contextmanager
    def request(self, client: str) -> Iterator[None]:
        """One request of ``client`` in progress (429 ``busy`` over the cap)."""
        with self._lock:
            over = self._busy[client] >= self.settings.requests_at_once
            if not over:
                self._busy[client] += 1
        if over:
            self.quiet.note("busy", f"over {self.settings.requests_at_once} requests at once", client)
            raise Problem(
                429,
                "busy",
                S_(
                    "over {most} requests at once from one client: wait for replies",
                    most=self.settings.requests_at_once,
                ),
                headers={"Retry-After": "1"},
            )
        try:
            yield
        finally:
            with self._lock:
                self._busy[client] -= 1
                if self._busy[client] <= 0:
                    del self._busy[client]
