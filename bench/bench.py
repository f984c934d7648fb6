"""``make bench``: every speed figure of kassen next to the same figure for main before the speed issue
(issue 15), both measured in this one run, in CPU time, and the issue's targets checked.

The baseline is commit :data:`BASELINE`: its ``src`` is extracted with ``git archive`` into a temporary
directory and imported from there (``PYTHONPATH``) by a worker process running ``bench/workload.py``; a
second worker runs the same file on the working tree's ``src``. Each task goes to both workers in turn,
``--rounds`` times, so the load of a shared machine hits both alike: the median of each side is shown, and
a speed-up measured in rounds (battles, rolls) is the median of each round's own ratio of the two (the
median of the two medians for start-up and exact odds).
d20 (``--d20-python``, default ``$KASSEN_D20_PYTHON``) runs in its own environment (``.venv-d20``): it pins
an old ``lark-parser`` that kassen's ``.venv`` must never see.

Figures: battles per second for every bundled scenario of every ruleset and for the demo battle with its
units copied 2, 4 and 8 times (with the log-log slope of time per battle against units); the CPU time of
``kassen roll 2d10`` and ``kassen odds 2d10 --at-least 11`` (through the console script's entry point, with
bytecode caches as installed) against a bare ``python -c pass``; ``2d10+5``
rolls per second against d20 and ``random.randint``; warm exact odds against icepool.

Exit status 1 when a target of issue 15 is missed (``--no-targets``: only print).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORKLOAD = Path(__file__).resolve().parent / "workload.py"
#: main before issue 15 (speed): the figures' baseline.
BASELINE = "cd864bf9e9ad87516434e1291b188741e9e9e392"

#: (ruleset/scenario, battles per round): enough battles for a few tenths of a second at the baseline.
SCENARIOS: tuple[tuple[str, int], ...] = (
    ("arena/duel", 20),
    ("arena/knockback", 20),
    ("arena/melee", 8),
    ("arena/pit", 8),
    ("l5r/bridge-ambush", 10),
    ("l5r/first-blood", 20),
    ("l5r/kakita-vs-hida", 20),
    ("l5r/lame-veteran", 20),
    ("sengoku/burning-temple", 8),
    ("sengoku/count-example", 16),
    ("sengoku/demo", 16),
)
#: Rounds' worth of untimed battles each worker plays of a battle task before its first timed round.
WARM_ROUNDS = 3
#: (copies of each demo unit, battles per round).
SCALED: tuple[tuple[int, int], ...] = ((2, 3), (4, 2), (8, 1))


class Worker:
    """A ``bench/workload.py`` process answering one JSON task a line."""

    def __init__(self, python: str, pythonpath: str | None, script: Path | str) -> None:
        env = dict(os.environ)
        if pythonpath is not None:
            env["PYTHONPATH"] = pythonpath
        args = [python, str(script)] if isinstance(script, Path) else [python, "-c", script]
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
        )

    def ask(self, task: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            return {"error": "the worker died"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


_D20_WORKER = """
import json, sys, time
import d20
for line in sys.stdin:
    task = json.loads(line)
    text, n = task["expr"], int(task["n"])
    start = time.process_time()
    for _ in range(n):
        d20.roll(text).total
    print(json.dumps({"seconds": (time.process_time() - start) / n}), flush=True)
"""


@dataclass
class Figure:
    """One row: a quantity measured on the baseline and now (``None``: not measured there)."""

    name: str
    unit: str  # "per s" (higher is better) or "ms" (lower is better)
    base: float | None
    now: float | None
    target: str = ""
    ok: bool | None = None  # None: no target, or not measurable
    note: str = ""
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        """The speed-up: the median of the rounds' own ratios when they were paired (each round measures
        both sides back to back, so a machine whose load drifts between rounds moves both alike), else
        the ratio of the two medians."""
        if "paired" in self.extra:
            return self.extra["paired"]
        if self.base is None or self.now is None or not self.base or not self.now:
            return None
        return self.now / self.base if self.unit == "per s" else self.base / self.now


def median_of(answers: Sequence[dict[str, Any]], key: str = "seconds") -> float | None:
    values = [a[key] for a in answers if key in a]
    return statistics.median(values) if values else None


def errors_of(answers: Sequence[dict[str, Any]]) -> str:
    return "; ".join(sorted({a["error"] for a in answers if "error" in a}))


def interleaved(
    workers: Sequence[Worker | None], task: dict[str, Any], rounds: int
) -> list[list[dict[str, Any]]]:
    """Each worker's answers to ``task``, asked of every worker in turn (the order reversed every other
    round), ``rounds`` times. A battle task gets new seeds each round (the same for every worker): a fight
    replayed with the seeds of an earlier round would find every state-keyed memo warm, which no lab run of
    new seeds does. Before its first round a battle task is played untimed :data:`WARM_ROUNDS` rounds' worth
    (other seeds), by every worker alike: a lab run plays thousands of fights, and what a process keeps
    between fights (content, memos) is warm after its first few dozen, which a figure of a few rounds
    would otherwise mostly miss."""
    answers: list[list[dict[str, Any]]] = [[] for _ in workers]
    for r in range(rounds):
        asked = dict(task, first=r * int(task["n"])) if task.get("kind") == "battle" else task
        if r == 0 and task.get("kind") == "battle":
            asked["warm"] = WARM_ROUNDS * int(task["n"])
        # each round asks them in the other order, so that going first or last favours nobody
        order = list(enumerate(workers))
        for i, worker in order if r % 2 == 0 else reversed(order):
            if worker is not None:
                answers[i].append(worker.ask(asked))
    return answers


def extract_baseline(commit: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", commit, "src"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


# -- start-up ----------------------------------------------------------------------------------------------
def entry_point() -> str:
    """The ``kassen`` console script's ``module:function``, as pyproject.toml installs it."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    target: str = data["project"]["scripts"]["kassen"]
    return target


def script_code(target: str, argv: Sequence[str]) -> str:
    """What the installed console script does: import the entry point, call it with ``argv``."""
    module, _, func = target.partition(":")
    return (
        f"import sys\nsys.argv = {['kassen', *argv]!r}\nfrom {module} import {func}\n"
        f"try:\n    {func}()\nexcept SystemExit:\n    pass\n"
    )


def cpu_ms(code: str, pythonpath: str | None, pycache: str) -> float:
    """CPU milliseconds (user + system) of one fresh ``python -c code``, with bytecode caches kept in
    ``pycache`` (as an installed kassen has them: without, every start compiles kassen's sources)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, env=env, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def startup_figures(base_src: str, now_src: str, rounds: int, pycache: str) -> list[Figure]:
    now_entry = entry_point()
    cases = {
        "python -c pass": ("pass", "pass"),
        "kassen roll 2d10": (
            script_code("kassen.cli.main:main", ["roll", "2d10"]),
            script_code(now_entry, ["roll", "2d10"]),
        ),
        "kassen odds 2d10 --at-least 11": (
            script_code("kassen.cli.main:main", ["odds", "2d10", "--at-least", "11"]),
            script_code(now_entry, ["odds", "2d10", "--at-least", "11"]),
        ),
    }
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in cases}
    for base_code, now_code in cases.values():  # untimed: fills the bytecode caches
        cpu_ms(base_code, base_src, pycache + "/base")
        cpu_ms(now_code, now_src, pycache + "/now")
    for _ in range(max(rounds * 3, 9)):
        for name, (base_code, now_code) in cases.items():
            times[name][0].append(cpu_ms(base_code, base_src, pycache + "/base"))
            times[name][1].append(cpu_ms(now_code, now_src, pycache + "/now"))
    bare = statistics.median(times["python -c pass"][1])
    figures = []
    for name, (base, now) in times.items():
        fig = Figure(f"start-up: {name}", "ms", statistics.median(base), statistics.median(now))
        if name != "python -c pass" and fig.now is not None:
            fig.target = "<= 3x python -c pass"
            fig.ok = fig.now <= 3 * bare
            fig.note = f"{fig.now / bare:.1f}x bare python"
        figures.append(fig)
    return figures


# -- battles -----------------------------------------------------------------------------------------------
def battle_figures(
    base: Worker, now: Worker, rounds: int, scale: float, only: Sequence[str] = ()
) -> list[Figure]:
    figures = []
    for scenario, n in SCENARIOS:
        if only and not any(part in scenario for part in only):
            continue
        task = {"kind": "battle", "scenario": scenario, "n": max(1, round(n * scale))}
        b, w = interleaved([base, now], task, rounds)
        fig = per_second_figure(f"battles/s: {scenario}", b, w)
        if scenario == "sengoku/demo":
            fig.target, fig.ok = ">= 10x", ok_ratio(fig, 10)
        else:
            fig.target, fig.ok = ">= 5x", ok_ratio(fig, 5)
        figures.append(fig)
    return figures


def scaled_figures(base: Worker, now: Worker, rounds: int, scale: float, demo: Figure) -> list[Figure]:
    figures = []
    points: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    demo_units = demo.extra.get("units", 9.0)
    for side, key in ((0, "base_seconds"), (1, "now_seconds")):
        if key in demo.extra:
            points[side].append((demo_units, demo.extra[key]))
    for copies, n in SCALED:
        task = {"kind": "battle", "copies": copies, "n": max(1, round(n * scale))}
        b, w = interleaved([base, now], task, rounds)
        fig = per_second_figure(f"battles/s: demo x{copies}", b, w)
        units = median_of(w, "units") or median_of(b, "units")
        if units is not None:
            fig.name += f" ({units:.0f} units)"
            for side, key in ((0, "base_seconds"), (1, "now_seconds")):
                if key in fig.extra:
                    points[side].append((units, fig.extra[key]))
        if copies == 8:
            fig.target, fig.ok = ">= 20x", ok_ratio(fig, 20)
        figures.append(fig)
    slopes = [loglog_slope(p) for p in points]
    slope = Figure("log-log slope: time per battle vs units", "slope", slopes[0], slopes[1])
    if slopes[1] is not None:
        slope.target, slope.ok = "<= 1.3", slopes[1] <= 1.3
    figures.append(slope)
    return figures


def loglog_slope(points: Sequence[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(seconds) against log(units)."""
    if len(points) < 2:
        return None
    xs = [math.log(u) for u, _ in points]
    ys = [math.log(s) for _, s in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else None


def per_second_figure(name: str, base: list[dict[str, Any]], now: list[dict[str, Any]]) -> Figure:
    b, w = median_of(base), median_of(now)
    fig = Figure(name, "per s", 1 / b if b else None, 1 / w if w else None)
    fig.note = errors_of(base + now)
    # each round's own speed-up (both sides asked in turn, the same seeds): their median, and their spread
    paired = _paired(base, now)
    if len(paired) == len(base) == len(now) and paired:
        fig.extra["paired"] = statistics.median(paired)
        if not fig.note and len(paired) > 1:
            fig.note = f"rounds {spread(base, now)}"
    if b:
        fig.extra["base_seconds"] = b
    if w:
        fig.extra["now_seconds"] = w
    units = median_of(now, "units") or median_of(base, "units")
    if units:
        fig.extra["units"] = units
    return fig


def _paired(slow: Sequence[dict[str, Any]], fast: Sequence[dict[str, Any]]) -> list[float]:
    """Each round's ratio of ``slow``'s seconds to ``fast``'s (both asked in that round)."""
    return [x["seconds"] / y["seconds"] for x, y in zip(slow, fast, strict=False)
            if x.get("seconds") and y.get("seconds")]


def paired_median(slow: Sequence[dict[str, Any]], fast: Sequence[dict[str, Any]]) -> float | None:
    ratios = _paired(slow, fast)
    return statistics.median(ratios) if ratios else None


def spread(slow: Sequence[dict[str, Any]], fast: Sequence[dict[str, Any]]) -> str:
    ratios = _paired(slow, fast)
    return f"{min(ratios):.2f}x-{max(ratios):.2f}x" if ratios else "-"


def ok_ratio(fig: Figure, at_least: float) -> bool | None:
    ratio = fig.ratio
    return None if ratio is None else ratio >= at_least


# -- dice --------------------------------------------------------------------------------------------------
def dice_figures(base: Worker, now: Worker, d20: Worker | None, rounds: int, scale: float) -> list[Figure]:
    n = max(1000, round(20_000 * scale))
    figures = []
    roll = {"kind": "roll", "expr": "2d10+5", "n": n}
    b, w, d = interleaved([base, now, d20], roll, rounds)
    kassen = per_second_figure("rolls/s: kassen 2d10+5", b, w)
    figures.append(kassen)
    if d20 is None or median_of(d) is None:
        figures.append(
            Figure("rolls/s: kassen 2d10+5 / d20", "x", None, None, ">= 5x", None, errors_of(d) or "no d20")
        )
    else:
        d20_rate = 1 / (median_of(d) or math.inf)
        figures.append(Figure("rolls/s: d20.roll('2d10+5')", "per s", None, d20_rate))
        # each round's own ratio (kassen and d20 asked in turn), as for the battles: their median
        ratio = Figure(
            "kassen 2d10+5 / d20", "x", paired_median(d, b), paired_median(d, w), ">= 5x",
            note=f"rounds {spread(d, w)}",
        )
        ratio.ok = ratio.now is not None and ratio.now >= 5
        figures.append(ratio)
    keep = {"kind": "roll", "expr": "7k3", "n": n}
    b, w = interleaved([base, now], keep, rounds)
    figures.append(per_second_figure("rolls/s: kassen 7k3", b, w))
    b, w = interleaved([base, now], {"kind": "randint", "n": n}, rounds)
    floor = per_second_figure("rolls/s: random.randint 2d10+5", b, w)
    if floor.now and kassen.now:
        floor.note = f"kassen 2d10+5 is {floor.now / kassen.now:.1f}x slower"
    figures.append(floor)
    return figures


def exact_figures(base: Worker, now: Worker, rounds: int) -> list[Figure]:
    cases = (
        ("10k10 >= 60", {"expr": "10k10", "target": 60}, {"count": 10, "sides": 10, "explode": True},
         2.0, 20),
        ("2d10 >= 11", {"expr": "2d10", "target": 11}, {"count": 2, "sides": 10}, 0.1, 200),
        ("7k3 >= 25", {"expr": "7k3", "target": 25}, None, None, 20),
    )
    figures = []
    new_targets = {"kind": "exact_new_targets", "expr": "10k10", "warm": 60, "targets": list(range(51, 60))}
    b, w = interleaved([base, now], new_targets, rounds)
    figures.append(
        Figure("exact odds, new targets: 10k10 >= 51..59", "ms", ms(median_of(b)), ms(median_of(w)),
               note=errors_of(b + w) or "the exploded dice kept, not the answers")
    )
    for name, ask, icepool_ask, limit_ms, n in cases:
        task = {"kind": "exact", "n": n, **ask}
        b, w = interleaved([base, now], task, rounds)
        fig = Figure(f"exact odds warm: {name}", "ms", ms(median_of(b)), ms(median_of(w)))
        fig.note = errors_of(b + w)
        if limit_ms is not None and fig.now is not None:
            fig.target, fig.ok = f"<= {limit_ms} ms", fig.now <= limit_ms
        figures.append(fig)
        if icepool_ask is not None:
            icepool_task = {"kind": "icepool", "n": n, "target": ask["target"], **icepool_ask}
            (i,) = interleaved([now], icepool_task, rounds)
            ice = ms(median_of(i))
            figures.append(
                Figure(f"icepool built each call: {name}", "ms", None, ice, note=errors_of(i) or (
                    f"kassen warm is {ice / fig.now:.1f}x faster" if ice and fig.now else ""))
            )
    return figures


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


# -- output ------------------------------------------------------------------------------------------------
def show(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "ms":
        return f"{value:,.3f} ms" if value < 10 else f"{value:,.1f} ms"
    if unit in ("x", "slope"):
        return f"{value:.2f}" + ("x" if unit == "x" else "")
    if unit == "MB":
        return f"{value:,.1f} MB"
    return f"{value:,.1f}/s" if value < 1000 else f"{value:,.0f}/s"


def report(figures: Sequence[Figure], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column, justify in (("figure", "left"), ("baseline", "right"), ("now", "right"),
                            ("speed-up", "right"), ("target", "left"), ("", "left"), ("note", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for f in figures:
        ratio = f.ratio if f.unit in ("per s", "ms") else None
        mark = "" if f.ok is None else ("[green]ok[/green]" if f.ok else "[red]MISSED[/red]")
        table.add_row(
            f.name, show(f.base, f.unit), show(f.now, f.unit), "-" if ratio is None else f"{ratio:.2f}x",
            f.target, mark, f.note,
        )
    Console(width=200).print(table)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-targets", action="store_true", help="only print; never fail on a target")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per figure (median)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the work per round")
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--d20-python", default=os.environ.get("KASSEN_D20_PYTHON"), help="d20's python")
    parser.add_argument(
        "--only", choices=("battles", "scaled", "startup", "dice", "exact"), action="append",
        help="run only these groups (repeatable)",
    )
    parser.add_argument(
        "--scenario", action="append", help="battles: only scenarios containing this text (repeatable)"
    )
    args = parser.parse_args(argv)
    groups = set(args.only or ("battles", "scaled", "startup", "dice", "exact"))
    now_src = str(ROOT / "src")
    with tempfile.TemporaryDirectory(prefix="kassen-baseline-") as tmp:
        base_src = str(extract_baseline(args.baseline, Path(tmp)))
        base = Worker(sys.executable, base_src, WORKLOAD)
        now = Worker(sys.executable, now_src, WORKLOAD)
        d20 = Worker(args.d20_python, None, _D20_WORKER) if args.d20_python else None
        figures: list[Figure] = []
        steps: list[tuple[str, Callable[[], list[Figure]]]] = [
            ("battles", lambda: battle_figures(base, now, args.rounds, args.scale, args.scenario or ())),
            ("scaled", lambda: scaled_figures(base, now, args.rounds, args.scale, demo_of(figures))),
            ("startup", lambda: startup_figures(base_src, now_src, args.rounds, tmp + "/pycache")),
            ("dice", lambda: dice_figures(base, now, d20, args.rounds, args.scale)),
            ("exact", lambda: exact_figures(base, now, args.rounds)),
        ]
        try:
            for name, step in steps:
                if name in groups:
                    print(f"measuring {name}...", file=sys.stderr, flush=True)
                    figures.extend(step())
        finally:
            for worker in (base, now, d20):
                if worker is not None:
                    worker.close()
    report(
        figures,
        f"kassen speed (issue 15): CPU time, median of {args.rounds} interleaved rounds (a speed-up with "
        f"rounds noted: the median of the rounds' own); baseline {args.baseline[:10]} vs the working tree",
    )
    missed = [f.name for f in figures if f.ok is False]
    if missed and not args.no_targets:
        print(f"targets missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


def demo_of(figures: Sequence[Figure]) -> Figure:
    """The demo battle's figure, if measured (the first point of the slope)."""
    for f in figures:
        if f.name.endswith("sengoku/demo"):
            return f
    return Figure("demo", "per s", None, None)


if __name__ == "__main__":
    raise SystemExit(main())
