"""``make bench``: the figures of the lean, thread-safe engine, each against main before it
(:data:`BASELINE`, b357875) measured in the same run, in CPU time, and its other checks.

- **simulated actions/s**: the actions each bundled scenario's policies play, applied again — in the
  simulation mode (``Simulator.step``) now, through ``Fight.apply`` on the baseline (its only path);
  target >= 10x. ``Fight.apply`` now is shown beside it.
- **lab battles/s**: ``kassen.lab.run("sengoku/demo")``, one job; target >= 3x.
- **lab memory**: the peak memory (max RSS) of ``kassen lab run first-blood --json`` at 100,000 fights
  against 1,000; target within 20%.
- **checks**: the thread test (tests/core/test_threads.py), the golden logs, no source file over 700
  lines, ``mypy --strict``.

Workers and rounds as in ``bench/bench.py`` (the baseline's ``src`` extracted with ``git archive``; each
round asks both workers in turn, the order reversed every other round; a speed-up is the median of the
rounds' own ratios). Exit status 1 when a target is missed (``--no-targets``: only print).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import ROOT, Figure, Worker, errors_of, extract_baseline, report

WORKLOAD = Path(__file__).resolve().parent / "workload_lean.py"
#: main before the lean engine: the figures' baseline.
BASELINE = "b357875"
#: (scenario, fights per round).
SCENARIOS: tuple[tuple[str, int], ...] = (
    ("arena/duel", 12),
    ("arena/knockback", 12),
    ("arena/melee", 6),
    ("arena/pit", 6),
    ("l5r/bridge-ambush", 8),
    ("l5r/first-blood", 16),
    ("l5r/kakita-vs-hida", 12),
    ("l5r/lame-veteran", 12),
    ("sengoku/burning-temple", 4),
    ("sengoku/count-example", 10),
    ("sengoku/demo", 8),
)


def rounds_of(
    workers: Sequence[Worker], tasks: Sequence[dict[str, Any]], rounds: int
) -> list[list[dict[str, Any]]]:
    """Each worker's answers to its task, asked in turn (the order reversed every other round), with new
    seeds each round (the same for every worker) and warm fights before the first."""
    answers: list[list[dict[str, Any]]] = [[] for _ in workers]
    for r in range(rounds):
        order = list(enumerate(workers))
        for i, worker in order if r % 2 == 0 else reversed(order):
            task = dict(tasks[i], first=r * int(tasks[i]["n"]), warm=2 * int(tasks[i]["n"]) if r == 0 else 1)
            answers[i].append(worker.ask(task))
    return answers


def paired(base: list[dict[str, Any]], now: list[dict[str, Any]]) -> Figure | None:
    ratios = [
        b["seconds"] / w["seconds"]
        for b, w in zip(base, now, strict=True)
        if "seconds" in b and "seconds" in w
    ]
    if not ratios:
        return None
    fig = Figure("", "per s", None, None)
    fig.base = 1 / statistics.median(b["seconds"] for b in base if "seconds" in b)
    fig.now = 1 / statistics.median(w["seconds"] for w in now if "seconds" in w)
    fig.extra["paired"] = statistics.median(ratios)
    if len(ratios) > 1:
        fig.note = f"rounds {min(ratios):.2f}x-{max(ratios):.2f}x"
    return fig


def action_figures(base: Worker, now: Worker, rounds: int, scale: float) -> list[Figure]:
    figures = []
    for scenario, n in SCENARIOS:
        n = max(1, round(n * scale))
        task = {"kind": "apply", "scenario": scenario, "n": n}
        b, s, f = rounds_of(
            [base, now, now],
            [dict(task, path="fight"), dict(task, path="sim"), dict(task, path="fight")],
            rounds,
        )
        sim = paired(b, s) or Figure("", "per s", None, None, note=errors_of(b + s))
        sim.name, sim.target = f"simulated actions/s: {scenario}", ">= 10x"
        sim.ok = sim.ratio is not None and sim.ratio >= 10
        fight = paired(b, f) or Figure("", "per s", None, None, note=errors_of(b + f))
        fight.name = f"  Fight.apply actions/s: {scenario}"
        figures += [sim, fight]
    return figures


def lab_figures(base: Worker, now: Worker, rounds: int, scale: float) -> list[Figure]:
    task = {"kind": "lab", "scenario": "sengoku/demo", "n": max(4, round(40 * scale))}
    b, w = rounds_of([base, now], [task, task], rounds)
    fig = paired(b, w) or Figure("", "per s", None, None, note=errors_of(b + w))
    fig.name, fig.target = "lab battles/s: sengoku/demo", ">= 3x"
    fig.ok = fig.ratio is not None and fig.ratio >= 3
    return [fig]


def peak_kb(argv: Sequence[str]) -> int:
    """The peak memory (max RSS, KB) of one run of ``argv``, its output dropped."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode})")
    return int(usage.ru_maxrss)


def memory_figures(fights: int) -> list[Figure]:
    kassen = str(Path(sys.executable).with_name("kassen"))
    small = peak_kb([kassen, "lab", "run", "first-blood", "--fights", "1000", "--json"])
    large = peak_kb([kassen, "lab", "run", "first-blood", "--fights", str(fights), "--json"])
    fig = Figure(f"lab peak memory: first-blood {fights:,} vs 1,000 fights", "MB", small / 1024, large / 1024)
    fig.target = "within 20%"
    fig.ok = large <= 1.2 * small
    fig.note = f"{(large / small - 1) * 100:+.1f}%"
    return [fig]


def check_figures() -> list[Figure]:
    python = sys.executable
    out = []
    for name, argv in (
        (
            "thread test (8 threads, every ruleset)",
            [python, "-m", "pytest", "-p", "no:cacheprovider", "tests/core/test_threads.py"],
        ),
        ("golden logs unchanged", [python, "-m", "pytest", "-p", "no:cacheprovider", "tests/golden"]),
        ("mypy --strict src", [str(Path(python).with_name("mypy")), "--strict", "src"]),
    ):
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        last = (done.stdout.strip().splitlines() or [""])[-1][:80]
        out.append(Figure(name, "check", None, None, "passes", done.returncode == 0, last))
    longest = max((sum(1 for _ in p.open(encoding="utf-8")), p) for p in (ROOT / "src").rglob("*.py"))
    out.append(
        Figure(
            "no source file over 700 lines",
            "check",
            None,
            None,
            "<= 700",
            longest[0] <= 700,
            f"longest: {longest[1].relative_to(ROOT)} ({longest[0]})",
        )
    )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-targets", action="store_true", help="only print; never fail on a target")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per figure (median)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the work per round")
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--memory-fights", type=int, default=100_000, help="the long lab run's fights")
    parser.add_argument(
        "--only", choices=("actions", "lab", "memory", "checks"), action="append", help="only these groups"
    )
    args = parser.parse_args(argv)
    groups = set(args.only or ("actions", "lab", "memory", "checks"))
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="kassen-baseline-") as tmp:
        base_src = str(extract_baseline(args.baseline, Path(tmp)))
        base = Worker(sys.executable, base_src, WORKLOAD)
        now = Worker(sys.executable, str(ROOT / "src"), WORKLOAD)
        try:
            if "actions" in groups:
                print("measuring simulated actions...", file=sys.stderr, flush=True)
                figures += action_figures(base, now, args.rounds, args.scale)
            if "lab" in groups:
                print("measuring the lab...", file=sys.stderr, flush=True)
                figures += lab_figures(base, now, args.rounds, args.scale)
        finally:
            base.close()
            now.close()
    if "memory" in groups:
        print("measuring the lab's memory...", file=sys.stderr, flush=True)
        figures += memory_figures(args.memory_fights)
    if "checks" in groups:
        print("running the checks...", file=sys.stderr, flush=True)
        figures += check_figures()
    report(
        figures,
        f"kassen lean engine: CPU time, median of {args.rounds} interleaved rounds; baseline "
        f"{args.baseline[:10]} vs the working tree",
    )
    missed = [f.name for f in figures if f.ok is False]
    if missed and not args.no_targets:
        print(f"targets missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
