"""Balance lab benchmark: fights per second with ``--jobs 1`` and ``--jobs 2`` (parallel efficiency), and
the local backend against Ray on the same machine.

Run with ``make bench`` or ``.venv/bin/python bench/bench_lab.py``. For each scenario the same fights
(seeds 0..N-1) are played by ``kassen.lab.run`` under each configuration, five times (Ray: three). The
machine may be shared: the run during which other processes used the least CPU (``/proc/stat``) gives
the fights/s, shown with the CPU seconds the others used if they used any. CPU time (this process and
its worker processes, median) is shown where it can be measured (Ray's workers are not this process's
children). Every configuration must give the identical aggregate, which the benchmark checks.

Parallel efficiency = fights/s with J jobs / (J x fights/s with 1 job). Two bare processes, each
playing half the fights alone (nothing sent back, nothing combined), give the machine's own ceiling;
``--jobs 2`` as a share of it is the lab's own overhead (process start, batching, results sent back).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from kassen import lab

#: (scenario, fights): a tiny fight (overheads show) and a longer battle.
SCENARIOS = (("l5r/first-blood", 1200), ("sengoku/count-example", 300))
REPEATS = 5
RAY_OPTIONS: dict[str, Any] = {
    "include_dashboard": False,
    "log_to_driver": False,
    "logging_level": logging.ERROR,
}


def cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def machine_busy_seconds() -> float:
    """CPU seconds all processes of the machine have used so far (Linux: /proc/stat; 0 elsewhere)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Measured:
    """The cleanest run: its wall seconds and the CPU seconds others used meanwhile; the median CPU
    seconds of ours; the result."""

    wall: float
    others: float
    cpu: float
    result: Any

    def rate(self, fights: int) -> float:
        return fights / self.wall

    def note(self) -> str:
        return f"  [others used {self.others:.1f} CPU-s]" if self.others > 0.05 * self.wall else ""


def measure(play: Callable[[], Any], repeats: int = REPEATS) -> Measured:
    """``play()`` ``repeats`` times; the run during which other processes used the least CPU (then the
    fastest) is reported."""
    runs, cpus = [], []
    result = None
    for _ in range(repeats):
        c0, b0, w0 = cpu_seconds(), machine_busy_seconds(), time.perf_counter()
        result = play()
        wall = time.perf_counter() - w0
        ours = cpu_seconds() - c0
        others = max(0.0, machine_busy_seconds() - b0 - ours)
        runs.append((round(others / wall, 1), wall, others))
        cpus.append(ours)
    _, wall, others = min(runs)
    return Measured(wall, others, statistics.median(cpus), result)


def _half(scenario: str, fights: int, seed: int) -> None:
    lab.run(scenario, fights=fights, seed=seed)


def two_processes(scenario: str, n: int) -> None:
    """The machine's ceiling for two workers: two forked processes, each with half the fights."""
    ctx = multiprocessing.get_context("fork")
    halves = [
        ctx.Process(target=_half, args=(scenario, n // 2, 0)),
        ctx.Process(target=_half, args=(scenario, n - n // 2, n // 2)),
    ]
    for p in halves:
        p.start()
    for p in halves:
        p.join()


def local(one_job: dict[str, float], reference: dict[str, Any]) -> bool:
    """``--jobs 1``, ``--jobs 2`` and the two-process ceiling for each scenario."""
    for scenario, n in SCENARIOS:
        lab.run(scenario, fights=min(n, 20))  # warm: imports, content, caches
        print(f"\n{scenario}: {n} fights, seeds 0..{n - 1}")
        runs = {}
        for jobs in (1, 2):
            m = runs[jobs] = measure(partial(lab.run, scenario, fights=n, jobs=jobs))
            reference.setdefault(scenario, m.result.to_json())
            if m.result.to_json() != reference[scenario]:
                print(f"  --jobs {jobs}: a different aggregate than --jobs 1: the lab is broken")
                return False
            per = m.cpu / n * 1000
            print(
                f"  local --jobs {jobs}        {m.rate(n):8.1f} fights/s  {per:5.2f} ms CPU/fight{m.note()}"
            )
        bare = measure(partial(two_processes, scenario, n))
        print(f"  2 bare processes      {bare.rate(n):8.1f} fights/s  (the ceiling){bare.note()}")
        one, two = runs[1].rate(n), runs[2].rate(n)
        one_job[scenario] = one
        print(f"  parallel efficiency, --jobs 2 vs 1: {two / (2 * one):.0%} (goal >= 80%)")
        print(
            f"  two bare processes reach {bare.rate(n) / (2 * one):.0%}; --jobs 2 is "
            f"{two / bare.rate(n):.0%} of them; CPU per fight x{runs[2].cpu / runs[1].cpu:.2f} with 2 jobs"
        )
    return True


def on_ray(one_job: dict[str, float], reference: dict[str, Any]) -> bool:
    """Ray's start-up, then each scenario on a local 2-CPU Ray (started once, as a cluster would be)."""
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=2, **RAY_OPTIONS)
    ray.shutdown()
    took = time.perf_counter() - start
    print(f"\nlocal Ray, 2 CPUs: start + stop {took:.2f} s (paid once per --backend ray run)")
    ray.init(num_cpus=2, **RAY_OPTIONS)
    try:
        for scenario, n in SCENARIOS:
            lab.run(scenario, fights=min(n, 20), jobs=2, backend="ray")  # warm the workers
            m = measure(partial(lab.run, scenario, fights=n, jobs=2, backend="ray"), 3)
            if m.result.to_json() != reference[scenario]:
                print(f"  {scenario}: Ray gave a different aggregate than --jobs 1: the lab is broken")
                return False
            efficiency = m.rate(n) / (2 * one_job[scenario])
            print(
                f"  {scenario:<22} ray --jobs 2: {m.rate(n):8.1f} fights/s, efficiency {efficiency:.0%} "
                "against local --jobs 1; identical aggregate"  # Ray's workers are not ours: no note
            )
    finally:
        ray.shutdown()
    return True


def main() -> int:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"balance lab: {cpus} CPUs, load average {load:.2f} (parallel efficiency needs idle cores)")
    one_job: dict[str, float] = {}
    reference: dict[str, Any] = {}
    if not local(one_job, reference):
        return 1
    try:
        import ray  # noqa: F401
    except ImportError:
        print("\nRay is not installed (pip install 'kassen[ray]'): local only")
        return 0
    return 0 if on_ray(one_job, reference) else 1


if __name__ == "__main__":
    sys.exit(main())
