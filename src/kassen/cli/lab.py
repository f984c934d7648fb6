"""``kassen lab ...``: the balance lab on the command line (a lazily loaded command group).

- ``run SCENARIO --fights N``: N fights (fight i with seed S+i), win rates with 95% intervals, rounds,
  units, actions; ``--jobs J`` local processes or ``--backend ray``; ``--out DIR`` writes the rows,
  aggregates, plots and an HTML report; ``--json`` prints the aggregate as one object;
- ``sweep SCENARIO --vary PATH=V1,V2,... --fights N``: a run per cell of the grid, a table and a heat
  map (two paths) or lines (one path); resumable with the same ``--out``;
- ``odds sengoku|l5r|arena ...``: exact tables by the rulesets' own chance functions.

Every option is checked before anything runs or is written: a bad one is one line on stderr, exit 2.
A progress bar (fights/s, time left) goes to stderr when it is a terminal and ``--json`` is not given.
"""

from __future__ import annotations

__all__ = ["lab_app"]

import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kassen.cli.common import OptionIssues, PolicyOption, emit_json, side_policies, user_errors
from kassen.cli.fights import ContentOption
from kassen.cli.numbers import parse_seed, whole
from kassen.lab.limits import LabError

if TYPE_CHECKING:
    from kassen.lab.grid import SweepResult
    from kassen.lab.odds import ExactTable
    from kassen.lab.output import Format
    from kassen.lab.results import RunResult

lab_app = typer.Typer(
    name="lab",
    help="The balance lab: many fights with win rates, sweeps over a scenario's values, exact tables.",
    no_args_is_help=True,
    add_completion=False,
)
odds_app = typer.Typer(
    help="Exact tables by the rulesets' own chance functions (sengoku, l5r, arena).",
    no_args_is_help=True,
    add_completion=False,
)
lab_app.add_typer(odds_app, name="odds")

FightsOption = Annotated[
    int,
    typer.Option(
        "--fights",
        "-n",
        parser=whole(),
        metavar="N",
        help="Fights to play (per cell for a sweep); at most 200,000.",
    ),
]
SeedOption = Annotated[
    int,
    typer.Option(
        "--seed",
        parser=parse_seed,
        metavar="SEED",
        help="Seed of fight 0 (0 .. 2**64-1); fight i uses seed S+i.",
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", parser=whole(), metavar="N", help="Worker processes (or CPUs of a local Ray)."
    ),
]
BackendOption = Annotated[str, typer.Option("--backend", help=r"local (processes) or ray (kassen\[ray]).")]
AddressOption = Annotated[
    str | None, typer.Option("--address", help="A Ray cluster's address (default: start a local Ray).")
]
MaxActionsOption = Annotated[
    int | None,
    typer.Option(
        "--max-actions",
        parser=whole(),
        metavar="N",
        help="Most actions per fight (default: the scenario's); beyond: a time-out.",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="Write tables, plots and report.html in this directory.", metavar="DIR"),
]
FormatOption = Annotated[str, typer.Option("--format", help=r"Tables as csv or parquet (kassen\[parquet]).")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print the results as one JSON object.")]
NoPlotsFlag = Annotated[
    bool, typer.Option("--no-plots", help="No PNG plots in --out (no matplotlib needed).")
]
QuietFlag = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
UntilOption = Annotated[
    float | None,
    typer.Option(
        "--until",
        metavar="WIDTH",
        help="Stop when the 95%% interval of --side's win rate is at most WIDTH wide (0.05: 5 points); "
        "--fights is then the most played.",
    ),
]
DecideOption = Annotated[
    float | None,
    typer.Option(
        "--decide",
        metavar="RATE",
        help="Stop when --side's win rate is above or below RATE (a sequential test wrong at most 5%% "
        "of the time, however many looks); --fights is then the most played.",
    ),
]
EveryOption = Annotated[
    int | None,
    typer.Option(
        "--every", parser=whole(), metavar="N", help="Fights per look of --until/--decide (default 100)."
    ),
]
PoliciesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--policies",
        metavar="SPEC,SPEC,...",
        help="Run under each named policy (each playing every side: heuristic,search:iterations=200) and "
        "flag each conclusion that changes between them.",
    ),
]
SideOption = Annotated[
    str | None,
    typer.Option("--side", help="The side whose win rate --until/--decide read (default: the first)."),
]


def _out(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _mean(mean: float | None, ci: tuple[float, float] | None) -> str:
    if mean is None:
        return "n/a"
    return f"{mean:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def _ci(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:.1%}, {ci[1]:.1%}]"


# -- progress -------------------------------------------------------------------------------------------
class _LazyBar:
    """Starts its display (and the display's refresh thread) on the first fights done, which is after
    the worker processes were forked: no thread runs in the process while it forks."""

    def __init__(self, make: Callable[[], Any], total: int, label: str) -> None:
        self.make, self.total, self.label = make, total, label
        self.began = time.monotonic()  # Rich's clock: the elapsed time counts from here
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, n: int) -> None:
        if self.bar is None:
            self.bar = self.make()
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=self.total)
            for task in self.bar.tasks:
                task.start_time = self.began
        self.bar.advance(self.task, n)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@contextmanager
def progress_bar(total: int, label: str, show: bool) -> Iterator[Callable[[int], None] | None]:
    """A Rich progress bar on stderr with fights/s and time left, when ``show`` and stderr is a
    terminal; yields the callback that advances it (None when hidden)."""
    if not show or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Speed(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("  … fights/s" if speed is None else f"{speed:7.1f} fights/s")

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Speed(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    lazy = _LazyBar(lambda: Progress(*columns, console=Console(stderr=True), transient=False), total, label)
    try:
        yield lazy
    finally:
        lazy.stop()


@contextmanager
def _interruptible(out: Path | None) -> Iterator[None]:
    """Ctrl-C or SIGTERM: one line and exit 130 (a sweep's finished cells stay in ``out`` for a rerun);
    the worker processes are shut down on the way out (and die with this process if it is killed)."""

    def terminated(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    except KeyboardInterrupt:
        kept = f"; the finished cells are kept in {out}: rerun with the same --out to go on" if out else ""
        sys.stderr.write(f"kassen: interrupted{kept}\n")
        raise typer.Exit(130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)


# -- checks before anything runs --------------------------------------------------------------------------
def _prepare(out: Path | None, fmt: str, plots: bool, kind: str) -> Format:
    from kassen.lab.output import check_format, prepare_out

    chosen = check_format(fmt)
    if out is not None:
        prepare_out(out, kind)
        if plots:
            from kassen.lab.plots import check_matplotlib

            check_matplotlib()
    return chosen


def _wrote(out: Path, files: Sequence[Path]) -> None:
    _out(f"wrote {out}: {', '.join(f.name for f in files)}")


# -- run ------------------------------------------------------------------------------------------------
def _print_run(result: RunResult, source: str) -> None:
    from kassen.lab.writing import policies_text

    last = result.seed + result.fights - 1
    _out(f"{result.scenario} ({result.ruleset}): {result.fights:,} fights, seeds {result.seed}..{last}")
    _out(f"policies: {policies_text(result.policies)}")
    width = max([len(f"{s.name} ({s.id})") for s in result.sides] + [10])
    for s in result.sides:
        who = f"{s.name} ({s.id})" if s.name != s.id else s.id
        _out(f"  {who:<{width}}  wins {s.wins.count:>7,}  {_pct(s.wins.rate):>6}  95% {_ci(s.wins.ci95)}")
    d, t, e = result.draws, result.timeouts, result.errors
    _out(f"  {'draws':<{width}}       {d.count:>7,}  {_pct(d.rate):>6}  95% {_ci(d.ci95)}")
    if t.count or e.count:
        _out(f"  time-outs {t.count:,}, errors {e.count:,} (counted apart from draws)")
    r = result.rounds
    if r.count:
        q = dict(r.quantiles)
        _out(
            f"rounds: mean {r.mean:.2f}, median {q[50]}, 5%..95% {q[5]}..{q[95]}, "
            f"min {r.minimum}, max {r.maximum}"
        )
    if result.units:
        _out("units (over the fights that ended; per fight with 95% intervals):")
        uw = max(len(f"{u.name} ({u.side})") for u in result.units)
        for u in result.units:
            _out(
                f"  {u.name + ' (' + u.side + ')':<{uw}}  standing {_pct(u.standing.rate):>6} "
                f"{_ci(u.standing.ci95)}  Wounds dealt {_mean(u.dealt.mean, u.dealt.ci95)}, "
                f"taken {_mean(u.taken.mean, u.taken.ci95)}"
            )
    if result.unit_actions:
        _out("actions per unit (success intervals clustered by fight):")
        names = {u.id: u.name for u in result.units}
        aw = max(len(f"{names.get(a.unit or '', a.unit)}: {a.action}") for a in result.unit_actions)
        for a in result.unit_actions:
            label = f"{names.get(a.unit or '', a.unit)}: {a.action}"
            per = f"{a.per_fight:6.2f}" if a.per_fight is not None else "   n/a"
            line = f"  {label:<{aw}}  {per} per fight" + (f" ({a.kind})" if a.kind != "maneuver" else "")
            ok = a.success
            if ok is not None:
                line += f", success {_pct(ok.rate)} of {ok.attempts:,} {_ci(ok.ci95)}"
            _out(line)
    if result.first_errors:
        seed, message = result.first_errors[0]
        _out(f"first error (seed {seed}): {message}")
    from kassen.lab.sentences import run_sentence
    from kassen.lab.writing import replay_text

    _out(f"replay: {replay_text(source, result.seed, result.fights, result.policies)}")
    _out(run_sentence(result, result.sequential.side if result.sequential else None))


@lab_app.command("run")
@user_errors
def run_command(
    scenario: Annotated[
        str, typer.Argument(help="A bundled scenario (see `kassen scenarios`) or a YAML file.")
    ],
    fights: FightsOption,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    content: ContentOption = None,
    max_actions: MaxActionsOption = None,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
    quiet: QuietFlag = False,
    policy: PolicyOption = None,
    until: UntilOption = None,
    decide: DecideOption = None,
    every: EveryOption = None,
    policies: PoliciesOption = None,
    side: SideOption = None,
) -> None:
    """Play N fights of SCENARIO and report who wins how often, with 95% intervals.

    Fight i uses seed S+i (`kassen fight SCENARIO --seed S+i` replays it) and the scenario's policies.
    Also: rounds to the end, each unit's survival and Wounds dealt and taken, each action's uses and
    success rate. The results are the same for any --jobs and either backend."""
    from kassen.lab.api import execute_run, known_sides, plan_run, run_spec, write_run
    from kassen.lab.stream import RunRows

    specs = _policy_specs(policies, policy)
    chosen = _prepare(out, fmt, not no_plots, "policies" if specs else "run")
    if specs:
        first = plan_run(scenario, fights=fights, seed=seed, content=list(content or []))
        sides = known_sides(first.opener)
        results = {}
        for k, spec in enumerate(specs, 1):
            plan = plan_run(
                scenario, fights=fights, seed=seed, jobs=jobs, backend=backend,  # type: ignore[arg-type]
                address=address, content=list(content or []), max_actions=max_actions,
                policies=dict.fromkeys(sides, spec), until=until, decide=decide, side=side, every=every,
            )  # fmt: skip
            with _interruptible(None), progress_bar(fights, "fights", not (as_json or quiet)) as advance:
                results[spec] = execute_run(plan, advance, keep_records=False)
            if out is not None:
                write_run(results[spec], out / f"policy-{k}", chosen, plots=not no_plots)
        _report_policies("run", results, side, out, as_json)
        return
    plan = plan_run(
        scenario,
        fights=fights,
        seed=seed,
        jobs=jobs,
        backend=backend,  # type: ignore[arg-type]  # checked by plan_run
        address=address,
        content=list(content or []),
        max_actions=max_actions,
        policies=side_policies(policy),
        until=until,
        decide=decide,
        side=side,
        every=every,
    )
    # the fights are counted as they finish and dropped: their rows go to --out as they come, the
    # aggregates stay in memory (a long run takes the memory of a short one)
    rows = RunRows(out, chosen, run_spec(plan)) if out is not None else None
    try:
        with _interruptible(None), progress_bar(fights, "fights", not (as_json or quiet)) as advance:
            result = execute_run(plan, advance, keep_records=False, rows=rows)
    except BaseException:
        if rows is not None:
            rows.discard()
        raise
    files = write_run(result, out, chosen, plots=not no_plots, rows=rows) if out is not None else []
    if as_json:
        emit_json(result.to_json())
        return
    _print_run(result, scenario)
    if out is not None:
        _wrote(out, files)


# -- sweep ----------------------------------------------------------------------------------------------
def _print_sweep(result: SweepResult, side: str | None) -> None:
    _out(
        f"{result.scenario} ({result.ruleset}): {len(result.cells)} cells x {result.fights:,} fights, "
        f"seeds {result.seed}..{result.seed + result.fights - 1} in each"
    )
    sides = [side] if side else list(result.sides)
    names = result.side_names()
    head = "  ".join(
        [*(f"{p[-24:]:>12}" for p in result.paths), *(f"{names.get(s, s)[:18]:>24}" for s in sides)]
    )
    compared = result.side_names().get(result.side or "", result.side)
    versus = f"  {f'{compared} vs baseline'[:30]:>30}" if result.baseline is not None else ""
    _out(f"{head}{versus}  {'draws':>6}  {'rounds':>6}  {'fights':>7}")
    for c in result.cells:
        vals = "  ".join(f"{str(v)[:12]:>12}" for _, v in c.values)
        if c.result is None:
            _out(f"{vals}  invalid, skipped: {c.error[:150]}")
            continue
        cols = []
        for s in sides:
            st = next((x for x in c.result.sides if x.id == s), None)
            cols.append(f"{_pct(st.wins.rate) + ' ' + _ci(st.wins.ci95) if st else '-':>24}")
        mean = c.result.rounds.mean
        rounds = f"{mean:6.2f}" if mean is not None else "     -"
        tag = "  (resumed)" if c.resumed else ""
        seq = c.result.sequential
        if seq is not None:
            tag += f"  ({seq.verdict or ('met' if seq.met else 'at limit')})"
        vs = ""
        if result.baseline is not None:
            d = c.versus
            text = "baseline" if result.baseline.index == c.index else "-"
            if d is not None:
                text = f"{100 * d.difference:+.1f} [{100 * d.ci95[0]:+.1f}, {100 * d.ci95[1]:+.1f}]"
                text += " *" if d.significant else "  "
            vs = f"  {text:>30}"
        fights = f"{c.result.fights:>7,}"
        _out(f"{vals}  {'  '.join(cols)}{vs}  {_pct(c.result.draws.rate):>6}  {rounds}  {fights}{tag}")
    from kassen.lab.sentences import sweep_sentence

    if result.baseline is not None:
        _out(f"baseline: {result.baseline.label()}; * the paired 95% interval excludes 0")
    _out(sweep_sentence(result))


@lab_app.command("sweep")
@user_errors
def sweep_command(
    scenario: Annotated[str, typer.Argument(help="A bundled scenario or a YAML file.")],
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            help="PATH=V1,V2,... or PATH=A..B: a value of the scenario (fighters.ryu.skill, "
            "units.kuro.overrides.skills.ninjutsu) or of its content "
            "(content.defense.armor.rows.heavy.defense); repeat for a grid.",
        ),
    ],
    fights: FightsOption,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    content: ContentOption = None,
    max_actions: MaxActionsOption = None,
    side: Annotated[
        str | None,
        typer.Option(
            "--side",
            help="The side the heat map shows, compared with the baseline and read by --until/--decide "
            "(default: the first).",
        ),
    ] = None,
    baseline: Annotated[
        list[str] | None,
        typer.Option(
            "--baseline",
            metavar="PATH=V",
            help="The cell every other is compared with (default: the scenario as written); repeat for "
            "each path.",
        ),
    ] = None,
    until: UntilOption = None,
    decide: DecideOption = None,
    every: EveryOption = None,
    policies: PoliciesOption = None,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
    quiet: QuietFlag = False,
    policy: PolicyOption = None,
) -> None:
    """Run SCENARIO for every combination of the --vary values: a table, a heat map or lines.

    Each cell plays N fights from the same seeds. A cell that does not validate is reported and skipped.
    With --out, finished cells are kept under DIR/cells and a rerun with the same --out skips them; DIR
    gets the table, a heat map (two paths) or lines (one path), and report.html."""
    from kassen.lab.api import write_sweep
    from kassen.lab.output import CellStore, start_out
    from kassen.lab.sweeping import execute_sweep, plan_sweep

    _ascii_numbers(("--vary", v.partition("=")[2]) for v in vary)
    specs = _policy_specs(policies, policy)
    chosen = _prepare(out, fmt, not no_plots, "policies" if specs else "sweep")

    def plan_for(named: dict[str, str] | None) -> Any:
        return plan_sweep(
            scenario,
            vary,
            fights=fights,
            seed=seed,
            jobs=jobs,
            backend=backend,  # type: ignore[arg-type]  # checked by plan_sweep
            address=address,
            content=list(content or []),
            max_actions=max_actions,
            policies=named,
            side=side,
            baseline=list(baseline or []),
            until=until,
            decide=decide,
            every=every,
        )

    def one(plan: Any, where: Path | None) -> tuple[SweepResult, list[Path]]:
        valid = [c for c in plan.cells if c.text is not None]
        if not valid:
            raise LabError(f"no cell of the grid validates; the first: {plan.cells[0].error}")
        store = None
        if where is not None:
            start_out(where, "sweep", {"scenario": plan.base.source.name})
            store = CellStore(where)
        show = not (as_json or quiet)
        with _interruptible(where), progress_bar(len(valid) * fights, "fights", show) as bar:
            result = execute_sweep(plan, store=store, progress=bar)
        files = write_sweep(result, where, chosen, side=side, plots=not no_plots) if where is not None else []
        return result, files

    if specs:
        first = plan_for(None)
        sides = scenario_sides(first)
        plans = {spec: plan_for(dict.fromkeys(sides, spec)) for spec in specs}  # every plan checked first
        if out is not None:
            start_out(out, "policies", {"compares": specs})
        results = {}
        for k, (spec, plan) in enumerate(plans.items(), 1):
            where = out / f"policy-{k}" if out is not None else None
            if where is not None:
                from kassen.lab.output import prepare_out

                prepare_out(where, "sweep")
            results[spec] = one(plan, where)[0]
        _report_policies("sweep", results, first.side or sides[0], out, as_json)
        return
    result, files = one(plan_for(side_policies(policy)), out)
    if as_json:
        emit_json(result.to_json())
        return
    _print_sweep(result, side)
    if out is not None:
        _wrote(out, files)


def _policy_specs(policies: list[str] | None, policy: list[str] | None) -> list[str]:
    if not policies:
        return []
    from kassen.lab.policies import split_specs

    if policy:
        raise LabError("--policies plays every side by each policy: leave out --policy")
    return split_specs(policies)


def _report_policies(
    kind: str, results: dict[str, Any], side: str | None, out: Path | None, as_json: bool
) -> None:
    """Each policy's answer, and every conclusion that changes between them (printed, and with --out a
    report.html over the policies' own folders)."""
    from kassen.lab.policies import compare_runs, compare_sweeps
    from kassen.lab.sentences import run_sentence, sweep_sentence

    if kind == "sweep":
        flags = compare_sweeps(results, side or "")
        answers = {spec: sweep_sentence(r) for spec, r in results.items()}
    else:
        flags = compare_runs(results)
        answers = {spec: run_sentence(r) for spec, r in results.items()}
    verdict = (
        "Conclusions that change with the policy: " + " / ".join(flags)
        if flags
        else f"No conclusion changes between {', '.join(results)}: the same side is favoured"
        + (", the same cell is best and the 50% line stays" if kind == "sweep" else "")
    ) + "."
    if out is not None:
        _policies_report(kind, results, answers, verdict, out)
    if as_json:
        each = {s: r.to_json() for s, r in results.items()}
        emit_json({"policies": each, "changes": flags, "answer": verdict})
        return
    for spec, text in answers.items():
        _out(f"{spec}: {text}")
    _out(verdict)
    if out is not None:
        _out(f"wrote {out}: report.html, " + ", ".join(f"policy-{k}/" for k in range(1, len(results) + 1)))


def _policies_report(
    kind: str, results: dict[str, Any], answers: dict[str, str], verdict: str, out: Path
) -> None:
    from kassen.lab.output import finish_out, start_out, write_text
    from kassen.lab.report import html_report

    spec = {"compares": list(results)}
    start_out(out, "policies", spec)
    sections = []
    for k, (name, text) in enumerate(answers.items(), 1):
        folder = out / f"policy-{k}"
        images = [(f"under {name}", p.read_bytes()) for p in sorted(folder.glob("*.png"))[:2]]
        sections.append((f"Under {name}", None, images, f"{text} (all files in policy-{k}/)"))
    title = f"kassen lab {kind} under {len(results)} policies"
    meta = [("Policies", "; ".join(f"policy-{k}: {s} (every side)" for k, s in enumerate(results, 1)))]
    write_text(out / "report.html", html_report(title, meta, sections, verdict))
    finish_out(out, "policies", spec, [out / "report.html"])


# -- solve ----------------------------------------------------------------------------------------------
@lab_app.command("solve")
@user_errors
def solve_command(
    scenario: Annotated[str, typer.Argument(help="A bundled scenario or a YAML file.")],
    vary: Annotated[
        str,
        typer.Option(
            "--vary",
            metavar="PATH=LO..HI",
            help="The value to solve for and its range: whole numbers (10..16) or real (0.5..2.5).",
        ),
    ],
    target: Annotated[
        str, typer.Option("--target", metavar="SIDE=RATE", help="The win rate to reach (east=0.5).")
    ],
    fights: FightsOption,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    content: ContentOption = None,
    max_actions: MaxActionsOption = None,
    steps: Annotated[
        int, typer.Option("--steps", parser=whole(), metavar="N", help="Halvings of a real range (1..20).")
    ] = 8,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
    quiet: QuietFlag = False,
    policy: PolicyOption = None,
) -> None:
    """Find the value of PATH at which SIDE's win rate crosses RATE, with a 95% interval.

    Every value tried plays the same N fights (seeds S..S+N-1); the range is bisected where the rate
    crosses the target, and the answer says so when no value in the range reaches it."""
    from kassen.lab.solve import solve
    from kassen.lab.writing import write_solve

    _ascii_numbers([("--vary", vary.partition("=")[2]), ("--target", target)])
    chosen = _prepare(out, fmt, not no_plots, "solve")
    with _interruptible(None), progress_bar(fights * 8, "fights", not (as_json or quiet)) as advance:
        result = solve(
            scenario,
            vary,
            target,
            fights=fights,
            seed=seed,
            jobs=jobs,
            backend=backend,  # type: ignore[arg-type]  # checked by plan_run
            address=address,
            content=list(content or []),
            max_actions=max_actions,
            policies=side_policies(policy),
            steps=steps,
            progress=advance,
        )
    files = write_solve(result, out, chosen, plots=not no_plots) if out is not None else []
    if as_json:
        emit_json(result.to_json())
        return
    _out(f"{result.scenario}: {result.side}'s win rate along {result.path}, {fights:,} fights per value")
    for p in result.points:
        _out(f"  {p.value:>10g}  {_pct(p.rate):>6}  95% {_ci(p.ci95)}")
    _out(result.sentence())
    if out is not None:
        _wrote(out, files)


# -- sensitivity ----------------------------------------------------------------------------------------
@lab_app.command("sensitivity")
@user_errors
def sensitivity_command(
    scenario: Annotated[str, typer.Argument(help="A bundled scenario or a YAML file.")],
    vary: Annotated[
        list[str],
        typer.Option("--vary", metavar="PATH=LO..HI", help="A value and its range; repeat (2 to 12 paths)."),
    ],
    fights: FightsOption,
    side: Annotated[
        str | None, typer.Option("--side", help="The side whose win rate is ranked (default: the first).")
    ] = None,
    method: Annotated[str, typer.Option("--method", help="morris (elementary effects) or sobol.")] = "morris",
    trajectories: Annotated[
        int,
        typer.Option("--trajectories", parser=whole(), metavar="R", help="Morris trajectories (2..200)."),
    ] = 10,
    levels: Annotated[
        int, typer.Option("--levels", parser=whole(), metavar="L", help="Morris grid levels (2..20).")
    ] = 4,
    samples: Annotated[
        int, typer.Option("--samples", parser=whole(), metavar="N", help="Sobol' base samples (2..4096).")
    ] = 64,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    content: ContentOption = None,
    max_actions: MaxActionsOption = None,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
    quiet: QuietFlag = False,
    policy: PolicyOption = None,
) -> None:
    """Rank several values of SCENARIO by their effect on a side's win rate (SALib: Morris or Sobol').

    Each scenario of the design plays the same N fights; the table and a bar chart rank the paths,
    the most important first."""
    from kassen.lab.sensitivity import sensitivity
    from kassen.lab.writing import write_sensitivity

    _ascii_numbers(("--vary", v.partition("=")[2]) for v in vary)
    chosen = _prepare(out, fmt, not no_plots, "sensitivity")
    with _interruptible(None), progress_bar(0, "fights", not (as_json or quiet)) as advance:
        result = sensitivity(
            scenario,
            vary,
            fights=fights,
            side=side,
            method=method,  # type: ignore[arg-type]  # checked by sensitivity
            trajectories=trajectories,
            levels=levels,
            samples=samples,
            seed=seed,
            jobs=jobs,
            backend=backend,  # type: ignore[arg-type]  # checked by plan_run
            address=address,
            content=list(content or []),
            max_actions=max_actions,
            policies=side_policies(policy),
            progress=advance,
        )
    files = write_sensitivity(result, out, chosen, plots=not no_plots) if out is not None else []
    if as_json:
        emit_json(result.to_json())
        return
    _out(f"{result.scenario}: what moves {result.side_name}'s win rate ({result.method}, {result.points} "
         f"scenarios x {result.fights:,} fights)")  # fmt: skip
    width = max(len(e.path) for e in result.effects)
    for i, e in enumerate(result.effects, 1):
        if result.method == "morris":
            size = f"mu* {100 * (e.mu_star or 0):5.1f} ± {100 * (e.mu_star_conf or 0):4.1f} points"
            size += f", mu {100 * (e.mu or 0):+5.1f}, sigma {100 * (e.sigma or 0):5.1f}"
        else:
            size = f"ST {_pct(e.st):>6} ± {_pct(e.st_conf)}, S1 {_pct(e.s1):>6} ± {_pct(e.s1_conf)}"
        _out(f"  {i:>2}. {e.path:<{width}}  {e.low:g}..{e.high:g}  {size}")
    _out(result.sentence())
    if out is not None:
        _wrote(out, files)


# -- match ----------------------------------------------------------------------------------------------
@lab_app.command("match")
@user_errors
def match_command(
    scenario: Annotated[str, typer.Argument(help="A bundled scenario or a YAML file (two sides).")],
    a: Annotated[str, typer.Option("--a", metavar="SPEC", help="Policy A (search:iterations=200, ...).")],
    b: Annotated[str, typer.Option("--b", metavar="SPEC", help="Policy B (heuristic, random, ...).")],
    fights: Annotated[
        int,
        typer.Option(
            "--fights",
            "-n",
            parser=whole(),
            metavar="N",
            help="Fights to play (whole pairs: each seed twice, each policy on each side); with --sprt, "
            "at most N.",
        ),
    ] = 100,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    content: ContentOption = None,
    max_actions: MaxActionsOption = None,
    sprt: Annotated[
        bool,
        typer.Option("--sprt", help="Stop early when the sequential test decides (Elo 0 against --elo1)."),
    ] = False,
    elo0: Annotated[
        float, typer.Option("--elo0", help="The SPRT's H0: A is at most this much stronger.")
    ] = 0.0,
    elo1: Annotated[
        float, typer.Option("--elo1", help="The SPRT's H1: A is at least this much stronger.")
    ] = 50.0,
    as_json: JsonFlag = False,
    quiet: QuietFlag = False,
) -> None:
    """Play policy A against policy B on SCENARIO, mirrored: each seed twice, A on each side once.

    Reports A's score with a 95% interval, the Elo difference, each side's share and, with --sprt, the
    sequential test's verdict (it looks after every 10 pairs, so the result is the same for any --jobs)."""
    from kassen.core.named import parse_policy
    from kassen.lab.match import Sprt, match

    parse_policy(a)
    parse_policy(b)
    test = Sprt(elo0, elo1) if sprt else None
    with (
        _interruptible(None),
        progress_bar(2 * ((fights + 1) // 2), "fights", not (as_json or quiet)) as advance,
    ):
        report = match(
            scenario,
            a,
            b,
            fights=fights,
            seed=seed,
            content=[str(c) for c in content or []],
            jobs=jobs,
            backend=backend,  # type: ignore[arg-type]  # checked by run_batches
            address=address,
            sprt=test,
            max_actions=max_actions,
            on_fights=advance,
        )
    if as_json:
        emit_json(report.to_json())
        return
    _out(report.sentence())
    first, second = report.sides
    _out(
        f"  A as {first}: {_pct(report.by_side[first])}, as {second}: {_pct(report.by_side[second])}; "
        f"wins {report.wins}, losses {report.losses}, draws {report.draws}"
        + (f", broken off {report.broken}" if report.broken else "")
    )
    _out(
        f"replay: kassen fight {scenario} --seed {seed}+i --policy {first}=A --policy {second}=B"
        " (and the other way round)"
    )


def scenario_sides(plan: Any) -> list[str]:
    """The side ids of a planned sweep's scenario (its units' sides, in order)."""
    from kassen.lab.api import known_sides

    return list(known_sides(plan.base.opener))


# -- odds -----------------------------------------------------------------------------------------------
def _show_table(
    table: ExactTable, metric: str | None, as_json: bool, out: Path | None, fmt: str, plots: bool
) -> None:
    from kassen.lab.api import write_odds

    chosen = _prepare(out, fmt, plots, "odds")
    if metric is not None and metric not in table.metric_names:
        raise LabError(f"--metric {metric[:30]!r} is not one of {', '.join(table.metric_names)}")
    files = write_odds(table, out, chosen, plots=plots) if out is not None else []
    if as_json:
        emit_json(table.to_json())
        return
    name = metric or table.metric_names[0]
    grid = table.metric(name)
    _out(f"{table.title}: {name.replace('_', ' ')}")
    scale = name.startswith("expected")
    if table.column_name:
        corner = f"{table.row_name} \\ {table.column_name}"
        rw = max(len(corner), *(len(r) for r in table.rows))
        _out(f"{corner:<{rw + 2}}" + "".join(f"{c:>7}" for c in table.columns))
        for r, row in zip(table.rows, grid, strict=True):
            cells = "".join(f"{_cell(v, scale):>7}" for v in row)
            _out(f"{r:<{rw + 2}}{cells}")
    else:
        for r, row in zip(table.rows, grid, strict=True):
            _out(f"{table.row_name} {r:>4}: {_cell(row[0], scale)}")
    if out is not None:
        _wrote(out, files)


def _cell(value: Any, scale: bool) -> str:
    if value is None:
        return "-"
    return f"{float(value):.2f}" if scale else f"{float(value):.1%}"


MetricOption = Annotated[str | None, typer.Option("--metric", help="The table printed (default: the first).")]


@odds_app.command("sengoku")
@user_errors
def odds_sengoku(
    modifiers: Annotated[
        str, typer.Option("--modifiers", help="Attack modifiers: M, A..B or A..B/STEP (-50..50).")
    ],
    defense: Annotated[str, typer.Option("--defense", help="Defense values: D, A..B or A..B/STEP (0..60).")],
    metric: MetricOption = None,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
) -> None:
    """Exact Sengoku attack odds (hit, critical, fumble, decisive moment, critical mistake, expected Wounds)
    for every modifier x Defense, each roll through the attack's own resolution."""
    from kassen.lab.odds import SENGOKU_DEFENSES, SENGOKU_MODIFIERS, parse_range, sengoku_table

    _ascii_numbers([("--modifiers", modifiers), ("--defense", defense)])
    mods = parse_range(modifiers, "modifiers", *SENGOKU_MODIFIERS)
    defs = parse_range(defense, "defense", *SENGOKU_DEFENSES)
    _show_table(sengoku_table(mods, defs), metric, as_json, out, fmt, not no_plots)


def _ascii_numbers(options: Iterable[tuple[str, str]]) -> None:
    """Numbers in a range or a --vary value are ASCII digits, as everywhere on the command line
    (kassen.cli.numbers): ``３..5`` is refused, not read as 3..5."""
    issues = OptionIssues()
    for option, text in options:
        if any(c.isdigit() and not c.isascii() for c in text):
            issues.add(option, f"numbers are written with ASCII digits 0-9, got {text[:40]!r}")
    issues.raise_any()


@odds_app.command("l5r")
@user_errors
def odds_l5r(
    pools: Annotated[
        str, typer.Option("--pools", help="Pools XkY or XkY..ZkW (every pool between), up to 10k10.")
    ],
    tn: Annotated[str, typer.Option("--tn", help="Target numbers: T, A..B or A..B/STEP (1..200).")],
    raises: Annotated[
        int,
        typer.Option(
            "--raises", parser=whole(), metavar="N", help="Raises called: +5 to the TN each (0..20)."
        ),
    ] = 0,
    unskilled: Annotated[bool, typer.Option("--unskilled", help="10s do not explode (no raises).")] = False,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
) -> None:
    """Exact roll-and-keep chances: each pool reaching each TN (+5 per raise), by the rolls a duel makes."""
    from kassen.lab.odds import L5R_RAISES, L5R_TNS, l5r_table, parse_pools, parse_range

    _ascii_numbers([("--pools", pools), ("--tn", tn)])
    if not L5R_RAISES[0] <= raises <= L5R_RAISES[1]:
        raise LabError(f"--raises must be between {L5R_RAISES[0]} and {L5R_RAISES[1]}, not {raises}")
    table = l5r_table(parse_pools(pools), parse_range(tn, "tn", *L5R_TNS), raises=raises, unskilled=unskilled)
    _show_table(table, None, as_json, out, fmt, not no_plots)


@odds_app.command("arena")
@user_errors
def odds_arena(
    skill: Annotated[str, typer.Option("--skill", help="Effective skills: S, A..B or A..B/STEP (-10..30).")],
    defense: Annotated[
        str | None, typer.Option("--defense", help="Defences (A..B): the chance to hit a defender instead.")
    ] = None,
    metric: MetricOption = None,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
) -> None:
    """Exact 3d6 odds: each skill's check (success, critical success, critical failure), or with --defense
    the chance an attack hits a defender."""
    from kassen.lab.odds import ARENA_DEFENSES, ARENA_SKILLS, arena_table, parse_range

    _ascii_numbers([("--skill", skill), ("--defense", defense or "")])
    skills = parse_range(skill, "skill", *ARENA_SKILLS)
    defs = parse_range(defense, "defense", *ARENA_DEFENSES) if defense is not None else None
    _show_table(arena_table(skills, defs), metric, as_json, out, fmt, not no_plots)
