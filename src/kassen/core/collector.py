"""``paused()``: Python's cyclic garbage collector held off while fights are played in bulk.

Why. A fight is frozen records and tuples: everything it drops is freed by reference counting the moment
it is dropped, and nothing it makes is a reference cycle (``tests/core/test_collector.py`` plays every
bundled scenario with the collector off and finds no cycle left to collect). Yet the collector does not
know that: every so often it walks every object the process keeps — the content's remembered listings,
odds and plans, the fight's own history — to look for cycles, and finds none. With the content's memos
warm that walk is about a fifth of a Sengoku battle's time (the demo: 46.5 ms a battle with it, 36.0 ms
without, interleaved runs), for nothing.

So :meth:`Fight.autoplay <kassen.core.fight.Fight.autoplay>` (and with it the lab, which plays through it)
holds the collector off while it plays, as :mod:`timeit` does while it times, and puts it back as it was
when it returns or raises. Nothing else changes: no object lives longer than it would (reference counting
still frees each one), and whatever cycles a policy of the caller's own makes meanwhile are found by the
first collection after the run. The collector is only paused if it was on, and only resumed by the call
that paused it, so nested runs (a policy that plays a fight of its own) and a caller who turned it off
keep theirs.
"""

from __future__ import annotations

__all__ = ["paused"]

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Hold the cyclic garbage collector off inside the block (see the module notes); as it was after."""
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
