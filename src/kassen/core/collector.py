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

What the run leaves behind goes to the collector's oldest generation when it resumes (``gc.freeze()``
then ``gc.unfreeze()``: two list splices, no walk). Everything a run makes and keeps — the fight's
history, the content's new memo entries — lives as long as the fight or the content, which is what the
oldest generation is for; left young, the first allocation after the run would walk all of it (a
young collection of every object the run made, some 4% of a 72-unit battle) and then once more
as it moved up a generation. Cycles made meanwhile are still found, by the next full collection. This
is skipped if the caller has frozen objects of their own (``gc.get_freeze_count()``): unfreezing would
thaw theirs.
"""

from __future__ import annotations

__all__ = ["paused"]

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Hold the cyclic garbage collector off inside the block (see the module notes); as it was after,
    with what the block left moved to the oldest generation."""
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            if not gc.get_freeze_count():  # a caller's frozen objects stay frozen
                gc.freeze()
                gc.unfreeze()
            gc.enable()
