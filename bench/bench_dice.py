"""Dice engine benchmark: kassen rolls/s, the d20 library side by side, and exact-odds timings.

Run with ``make bench`` or ``.venv/bin/python bench/bench_dice.py``. Every figure is the median of
several repeats of CPU time (``time.process_time``). d20 pins an old ``lark-parser``, so it never enters
kassen's ``.venv``: ``make bench`` installs it in ``.venv-d20`` and this script times it there (the
``KASSEN_D20_PYTHON`` interpreter), in the same run as kassen's own figures.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from kassen.dice import Rng, at_least, parse, roll

REPEATS = 7
ROLLS = 20_000
EXACT_REPEATS = 5


def per_second(action: Callable[[], object], n: int = ROLLS, repeats: int = REPEATS) -> float:
    """Median calls per second of ``action`` over ``repeats`` runs of ``n`` calls."""
    rates = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(n):
            action()
        rates.append(n / (time.process_time() - start))
    return statistics.median(rates)


def kassen_rolls(text: str) -> float:
    expr = parse(text)  # parse once, roll the tree with one generator
    rng = Rng(1)
    return per_second(lambda: roll(expr, rng).total)


_D20 = """
import statistics, sys, time
import d20
text, n, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rates = []
for _ in range(repeats):
    start = time.process_time()
    for _ in range(n):
        d20.roll(text).total
    rates.append(n / (time.process_time() - start))
print(statistics.median(rates))
"""


def d20_rolls(text: str) -> float | None:
    """d20's rolls per second, timed in its own environment (``KASSEN_D20_PYTHON``)."""
    python = os.environ.get("KASSEN_D20_PYTHON")
    if not python:
        return None
    done = subprocess.run(
        [python, "-c", _D20, text, str(ROLLS), str(REPEATS)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        print(f"d20 could not run in {python}: {done.stderr.strip().splitlines()[-1:]}")
        return None
    return float(done.stdout)


def baseline() -> float:
    randint = random.Random(1).randint
    return per_second(lambda: randint(1, 10) + randint(1, 10) + 5)


_COLD = """
import time
from kassen.dice import at_least
start = time.process_time()
at_least("7k3", 25)
print(time.process_time() - start)
"""


def exact_cold() -> float:
    """``at_least("7k3", 25)`` in a fresh interpreter each time, so icepool's caches start empty."""
    times = []
    for _ in range(EXACT_REPEATS):
        out = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True, check=True)
        times.append(float(out.stdout))
    return statistics.median(times)


def exact_warm() -> float:
    at_least("7k3", 25)  # fill the caches
    times = []
    for _ in range(EXACT_REPEATS * 4):
        start = time.process_time()
        at_least("7k3", 25)
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    rows: list[tuple[str, str]] = []
    k_simple = kassen_rolls("2d10+5")
    rows.append(("kassen roll 2d10+5", f"{k_simple:>12,.0f} rolls/s"))
    rows.append(("kassen roll 7k3", f"{kassen_rolls('7k3'):>12,.0f} rolls/s"))
    d20_rate = d20_rolls("2d10+5")
    if d20_rate is None:
        print("d20 is not available (make bench installs it in .venv-d20): skipping the d20 comparison")
    else:
        rows.append(("d20.roll('2d10+5')", f"{d20_rate:>12,.0f} rolls/s"))
        rows.append(("kassen / d20 (2d10+5)", f"{k_simple / d20_rate:>12.2f} x"))
    rows.append(("random.randint baseline", f"{baseline():>12,.0f} rolls/s"))
    rows.append(("at_least('7k3', 25) cold", f"{exact_cold() * 1000:>12.1f} ms"))
    rows.append(("at_least('7k3', 25) warm", f"{exact_warm() * 1000:>12.3f} ms"))

    width = max(len(name) for name, _ in rows)
    print(f"kassen dice benchmark (median of {REPEATS} x {ROLLS:,} rolls; exact: median of repeats)")
    print(f"{'what':<{width}}  {'result':>21}")
    print(f"{'-' * width}  {'-' * 21}")
    for name, value in rows:
        print(f"{name:<{width}}  {value:>21}")


if __name__ == "__main__":
    main()
