"""The timed workloads of ``bench/bench_lean.py``, run in a worker process against one copy of kassen (the
working tree's ``src``, or the baseline's): one JSON task a line on stdin, one result a line on stdout,
every time CPU time (``time.process_time``) of the worker itself.

``apply``: the actions a scenario's policies play (recorded by an untimed autoplay of each seed), applied
again to a fresh fight, timed — through ``Fight.apply`` (``"path": "fight"``, the only path the baseline
has) or the simulation mode's ``Simulator.step`` (``"path": "sim"``). ``lab``: ``kassen.lab.run`` of a
scenario, one job, CPU seconds a fight.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def _recorded(scenario: str, seeds: range) -> list[tuple[int, list[Any], Any]]:
    """Each seed's actions as the scenario's policies play them, and the result."""
    from kassen.core.scenario import open_fight

    out = []
    for seed in seeds:
        fight = open_fight(scenario, seed=seed)
        fight.autoplay()
        out.append((seed, list(fight.history), fight.result))
    return out


def apply(task: dict[str, Any]) -> dict[str, Any]:
    """CPU seconds per action applied, over seeds ``first .. first + n - 1`` (each fight opened and its
    actions recorded before the clock starts; ``warm`` fights played untimed first)."""
    from kassen.core.scenario import open_fight

    scenario, path = task["scenario"], task["path"]
    first, n = int(task.get("first", 0)), int(task["n"])
    _recorded(scenario, range(10_000 + first, 10_000 + first + max(1, int(task.get("warm", 1)))))
    games = _recorded(scenario, range(first, first + n))
    spent, actions = 0.0, 0
    for seed, played, result in games:
        fight = open_fight(scenario, seed=seed)
        if path == "sim":
            from kassen.core.rng import Rng
            from kassen.core.sim import Simulator

            sim = Simulator(fight.ruleset, fight.tables)
            state, rng = fight.state, Rng(seed)
            start = time.process_time()
            for action in played:
                state = sim.step(state, rng, action)
            spent += time.process_time() - start
            assert sim.result(state) == result, "the simulation ends another way than the fight"
        else:
            start = time.process_time()
            for action in played:
                fight.apply(action)
            spent += time.process_time() - start
            assert fight.result == result
        actions += len(played)
    return {"seconds": spent / actions, "actions": actions}


def lab(task: dict[str, Any]) -> dict[str, Any]:
    """CPU seconds a fight of ``kassen.lab.run`` (one job) over seeds ``first ..``, after a warm run."""
    from kassen import lab as kassen_lab

    scenario, n, first = task["scenario"], int(task["n"]), int(task.get("first", 0))
    kassen_lab.run(scenario, fights=max(1, int(task.get("warm", 1))), seed=10_000 + first)
    start = time.process_time()
    kassen_lab.run(scenario, fights=n, seed=first)
    return {"seconds": (time.process_time() - start) / n}


TASKS = {"apply": apply, "lab": lab}


def serve() -> None:
    for line in sys.stdin:
        task = json.loads(line)
        try:
            result = TASKS[task["kind"]](task)
        except Exception as exc:  # reported next to the figure
            result = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
