"""The timed workloads of ``make bench``, run in a worker process against one copy of kassen.

``bench/bench.py`` starts two workers, one on the working tree's ``src`` and one on the baseline commit's
(extracted to a temporary directory), both with this same file, and sends each the same tasks in turn
(interleaved), so that noise from the shared machine hits both sides alike. The protocol is one JSON
object a line on stdin (a task) and one on stdout (its result); every time is CPU time
(``time.process_time``) of the worker itself.

Only APIs that exist in the baseline too are used: :func:`kassen.core.scenario.open_fight`,
``Fight.autoplay``, :mod:`kassen.dice` (``parse``, ``roll``, ``Rng``, ``at_least``).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

#: The demo battle's file in whichever kassen this worker imports.
DEMO = ("kassen.sengoku.data", "scenarios/demo.yaml")
_SCALED: dict[int, Path] = {}
_TMP = tempfile.TemporaryDirectory(prefix="kassen-bench-")


def scaled_demo(copies: int) -> Path:
    """The demo battle with every unit copied ``copies`` times (same side and zone, new unique ids and
    names), written as a scenario file; ``copies=1`` is the demo itself."""
    if copies in _SCALED:
        return _SCALED[copies]
    import yaml

    package, name = DEMO
    data = yaml.safe_load(resources.files(package).joinpath(name).read_text("utf-8"))
    units: list[dict[str, Any]] = []
    for unit in data["units"]:
        base_id = unit.get("id", unit["creature"])
        for j in range(copies):
            copy = dict(unit)
            if j:
                copy["id"] = f"{base_id}-{j + 1}"
                copy["name"] = f"{unit.get('name', base_id)} {j + 1}"
            units.append(copy)
    data["units"] = units
    data["name"] = f"{data['name']} x{copies}"
    path = Path(_TMP.name) / f"demo-x{copies}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    _SCALED[copies] = path
    return path


def _scenario(task: dict[str, Any]) -> str:
    copies = int(task.get("copies", 1))
    return str(scaled_demo(copies)) if copies > 1 else str(task["scenario"])


def battle(task: dict[str, Any]) -> dict[str, Any]:
    """CPU seconds per battle of ``Fight.autoplay`` (the fight opened before the clock starts), over
    seeds ``first .. first + n - 1``; ``warm`` untimed warm-up battles first (at least one), on seeds
    from ``10_000 + first`` (never timed ones)."""
    from kassen.core.scenario import open_fight

    scenario = _scenario(task)
    first, n = int(task.get("first", 0)), int(task["n"])
    for seed in range(10_000 + first, 10_000 + first + max(1, int(task.get("warm", 1)))):
        warm = open_fight(scenario, seed=seed)
        warm.autoplay()
    spent = 0.0
    actions = 0
    for seed in range(first, first + n):
        fight = open_fight(scenario, seed=seed)
        start = time.process_time()
        fight.autoplay()
        spent += time.process_time() - start
        actions += len(fight.history)
    return {"seconds": spent / n, "actions": actions / n, "units": len(warm.units())}


def _rate(action: Callable[[], object], n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        action()
    return (time.process_time() - start) / n


def roll(task: dict[str, Any]) -> dict[str, Any]:
    """CPU seconds per roll of ``expr`` (parsed once), reading ``.total``."""
    from kassen.dice import Rng, parse
    from kassen.dice import roll as roll_dice

    expr = parse(task["expr"])
    rng = Rng(1)
    return {"seconds": _rate(lambda: roll_dice(expr, rng).total, int(task["n"]))}


def randint(task: dict[str, Any]) -> dict[str, Any]:
    """``random.randint`` for the same dice: the floor no Python dice roller goes under."""
    draw = random.Random(1).randint
    return {"seconds": _rate(lambda: draw(1, 10) + draw(1, 10) + 5, int(task["n"]))}


def exact(task: dict[str, Any]) -> dict[str, Any]:
    """Warm CPU seconds of ``at_least(expr, target)`` (median of ``n`` calls after one)."""
    from kassen.dice import at_least

    expr, target = task["expr"], int(task["target"])
    at_least(expr, target)
    times = []
    for _ in range(int(task["n"])):
        start = time.process_time()
        at_least(expr, target)
        times.append(time.process_time() - start)
    return {"seconds": statistics.median(times)}


def exact_new_targets(task: dict[str, Any]) -> dict[str, Any]:
    """CPU seconds of ``at_least(expr, t)`` for targets never asked before (answers and finished tables
    dropped from the cache, dice tables kept): what keeping the exploded dice between calls buys."""
    from kassen.dice import at_least, exact

    expr = task["expr"]
    at_least(expr, int(task["warm"]))
    cache = getattr(exact, "EXACT_CACHE", None)
    times = []
    for target in task["targets"]:
        if cache is not None:  # forget the answers and finished tables, keep the dice
            for key in [k for k in cache._items if k[0] in ("at_least", "table", "weights")]:
                del cache._items[key]
        start = time.process_time()
        at_least(expr, int(target))
        times.append(time.process_time() - start)
    return {"seconds": statistics.median(times)}


def icepool_exact(task: dict[str, Any]) -> dict[str, Any]:
    """The same question asked of icepool directly (warm): ``count`` d``sides``, exploding to the depth
    that decides the target, all kept."""
    import icepool

    count, sides, target = int(task["count"]), int(task["sides"]), int(task["target"])
    explode = bool(task.get("explode", False))

    def ask() -> object:
        die = icepool.d(sides)
        if explode:
            die = die.explode(depth=max(0, -(-(target - count + 1) // sides) - 1))
        total = die
        for _ in range(count - 1):
            total = total + die
        return total.probability(">=", target)

    ask()
    times = []
    for _ in range(int(task["n"])):
        start = time.process_time()
        ask()
        times.append(time.process_time() - start)
    return {"seconds": statistics.median(times)}


TASKS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "battle": battle,
    "roll": roll,
    "randint": randint,
    "exact": exact,
    "exact_new_targets": exact_new_targets,
    "icepool": icepool_exact,
}


def serve() -> None:
    """Answer tasks until stdin closes; a failed task answers ``{"error": ...}`` and the worker lives on."""
    for line in sys.stdin:
        task = json.loads(line)
        try:
            result = TASKS[task["kind"]](task)
        except Exception as exc:  # reported to the harness, which prints it next to the figure
            result = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
