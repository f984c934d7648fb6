"""Sides played by a named policy at a web table: which specs a table takes, and the worker that plays
their turns by itself.

The GM names a policy for any side when the fight opens (``policies`` in the new-fight request, the
form's choice per side) or at any time after (``PUT /api/fights/{id}/policies``); every other side is
played by its players. When a policy's side is to decide, the server plays it: a worker thread (one at a
time per fight, :class:`Autoplayer`) asks the policy *outside* the fight's lock and the store's
transaction — a search may think for a second — then applies its choice through the same checked path
as a player's (stale: it looks again), each action committed and announced to the open screens as it
comes. It stops where a player (or the GM) decides, when an action waits for dice typed at the table,
or when the fight is over. An undo never sets it going (the GM took something back on purpose: the
policy plays on at the next action, or when the GM asks it to with ``auto``).

A table takes the named policies of :mod:`kassen.core.named` with two limits: a search thinks at most
:data:`MAX_TIME` CPU seconds or :data:`MAX_ITERATIONS` iterations a decision (the server's CPU is every
table's), and never omnisciently (an omniscient search reads the players' hidden values: the lab's
upper bound, not a table's opponent).
"""

from __future__ import annotations

__all__ = ["MAX_ITERATIONS", "MAX_TIME", "Autoplayer", "table_policies"]

import contextlib
import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from kassen.core.errors import KassenError
from kassen.core.named import parse_policies
from kassen.i18n import S_
from kassen.web.problems import Problem

#: The most a search at a table may think per decision: CPU seconds, iterations.
MAX_TIME = 5.0
MAX_ITERATIONS = 20_000
#: The most actions one run of the worker plays before it lets others go first (it is set going again
#: by the next change).
MAX_RUN = 500

log = logging.getLogger("kassen.web")


def table_policies(policies: Mapping[str, Any] | None) -> dict[str, str]:
    """``policies`` (side → spec) read strictly for a table: 422 naming the allowed names or
    parameters, or the limits above."""
    if not policies:
        return {}
    try:
        parsed = parse_policies(policies)
    except KassenError as exc:
        raise Problem(422, "policy", str(exc)) from None
    for side, spec in parsed.items():
        if spec.name != "search":
            continue
        if spec.omniscient:
            raise Problem(
                422,
                "policy",
                S_(
                    "{side}: an omniscient search reads the players' hidden values: not at a table "
                    "(kassen lab match compares it)",
                    side=side,
                ),
            )
        if float(spec.param("time", 0)) > MAX_TIME:
            raise Problem(
                422,
                "policy",
                S_(
                    "{side}: a search at a table thinks at most {most} s a decision",
                    side=side,
                    most=f"{MAX_TIME:g}",
                ),
            )
        if int(spec.param("iterations", 0)) > MAX_ITERATIONS:
            raise Problem(
                422,
                "policy",
                S_(
                    "{side}: a search at a table runs at most {most} iterations",
                    side=side,
                    most=f"{MAX_ITERATIONS:,}",
                ),
            )
    return {side: str(spec) for side, spec in parsed.items()}


class Autoplayer:
    """Runs ``play(fight_id)`` on worker threads, at most once at a time per fight: a fight set going
    while its run is under way is run once more after it (the run may have stopped just before the
    change that set it going)."""

    def __init__(self, play: Callable[[str], None], workers: int = 2) -> None:
        self._play = play
        self._pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="kassen-policy")
        self._lock = threading.Lock()
        self._running: dict[str, Future[None]] = {}
        self._again: set[str] = set()
        self._closed = False

    def kick(self, fight_id: str) -> None:
        """Set the fight's policies going (a no-op when nothing is theirs to decide)."""
        with self._lock:
            if self._closed:
                return
            if fight_id in self._running:
                self._again.add(fight_id)
                return
            self._running[fight_id] = self._pool.submit(self._run, fight_id)

    def _run(self, fight_id: str) -> None:
        while True:
            try:
                self._play(fight_id)
            except Exception:  # a policy's failure stops its fight's run, never the server
                log.exception("kassen: a policy could not play fight %s", fight_id)
            with self._lock:
                if fight_id in self._again and not self._closed:
                    self._again.discard(fight_id)
                    continue
                self._running.pop(fight_id, None)
                return

    def idle(self, timeout: float = 60.0) -> bool:
        """Wait until no fight's policies are playing (tests, shutdown); False if still busy."""
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                running = list(self._running.values())
            if not running:
                return True
            for f in running:
                with contextlib.suppress(Exception):  # a run's failure is logged by the run itself
                    f.result(timeout=max(0.0, end - time.monotonic()))
        return False

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)
