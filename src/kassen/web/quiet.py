"""Refusals logged quietly: a flood of refused requests or connections is a line a minute, not a line
(or a traceback) each.

The first refusal of a kind is logged at once, with its detail; the next ones of that kind are counted
and summed up once per interval — how many, and the client that sent most of them.
"""

from __future__ import annotations

__all__ = ["QuietLog"]

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable


class QuietLog:
    """Counts refusals by kind and logs them at most once per ``interval`` seconds a kind (see the
    module notes). Safe to call from any thread."""

    def __init__(
        self,
        logger: logging.Logger | None = None,
        *,
        interval: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger or logging.getLogger("kassen.web")
        self.interval = interval
        self.clock = clock
        self._lock = threading.Lock()
        self._since: dict[str, float] = {}
        self._counts: dict[str, Counter[str]] = {}
        self.totals: Counter[str] = Counter()

    def note(self, kind: str, detail: str = "", client: str = "") -> None:
        """One refusal of ``kind`` (``detail`` says what; ``client`` who sent it)."""
        now = self.clock()
        with self._lock:
            self.totals[kind] += 1
            if kind not in self._since:
                self._since[kind] = now
                first = True
            else:
                self._counts.setdefault(kind, Counter())[client] += 1
                first = False
        if first:
            who = f" ({client})" if client else ""
            self.logger.warning("%s%s: %s", kind, who, detail or "refused")
        self.flush(now)

    def flush(self, now: float | None = None, *, force: bool = False) -> None:
        """Log the sums of every kind whose interval has passed (all of them: ``force``)."""
        now = self.clock() if now is None else now
        lines: list[str] = []
        with self._lock:
            for kind, since in list(self._since.items()):
                if not force and now - since < self.interval:
                    continue
                counts = self._counts.pop(kind, Counter())
                if counts:
                    top, n = counts.most_common(1)[0]
                    most = f"; most from {top} ({n})" if top else ""
                    lines.append(f"{kind}: {sum(counts.values())} more in the last {now - since:.0f} s{most}")
                    self._since[kind] = now
                else:
                    del self._since[kind]  # a quiet interval: the next one is logged at once again
        for line in lines:
            self.logger.warning("%s", line)
