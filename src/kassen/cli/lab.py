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

__all__ = ["lab_app", "progress_bar"]

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kassen.cli.common import PolicyOption, emit_json, side_policies, user_errors
from kassen.cli.fights import ContentOption
from kassen.cli.lab_odds import odds_app
from kassen.cli.lab_options import (
    AddressOption,
    BackendOption,
    DecideOption,
    EveryOption,
    FightsOption,
    FormatOption,
    JobsOption,
    JsonFlag,
    MaxActionsOption,
    NoPlotsFlag,
    OutOption,
    PoliciesOption,
    QuietFlag,
    SeedOption,
    SideOption,
    UntilOption,
    ascii_numbers,
)
from kassen.cli.lab_progress import interruptible, progress_bar
from kassen.cli.lab_text import (
    ci_text,
    pct_text,
    prepare,
    print_run,
    print_sweep,
    report_policies,
    say,
    wrote,
)
from kassen.cli.numbers import whole
from kassen.i18n import N_, _, translate_text
from kassen.lab.limits import LabError

if TYPE_CHECKING:
    from kassen.lab.grid import SweepResult

lab_app = typer.Typer(
    name="lab",
    help=N_("The balance lab: many fights with win rates, sweeps over a scenario's values, exact tables."),
    no_args_is_help=True,
    add_completion=False,
)
lab_app.add_typer(odds_app, name="odds")


@lab_app.command(
    "run",
    help=N_(
        "Play N fights of SCENARIO and report who wins how often, with 95% intervals.\n\n"
        "Fight i uses seed S+i (`kassen fight SCENARIO --seed S+i` replays it) and the scenario's"
        " policies. Also: rounds to the end, each unit's survival and Wounds dealt and taken, "
        "each action's uses and success rate. The results are the same for any --jobs and either "
        "backend."
    ),
)
@user_errors
def run_command(
    scenario: Annotated[
        str, typer.Argument(help=N_("A bundled scenario (see `kassen scenarios`) or a YAML file."))
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
    from kassen.lab.api import execute_run, known_sides, plan_run, run_spec, write_run
    from kassen.lab.stream import RunRows

    specs = _policy_specs(policies, policy)
    chosen = prepare(out, fmt, not no_plots, "policies" if specs else "run")
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
            with interruptible(None), progress_bar(fights, "fights", not (as_json or quiet)) as advance:
                results[spec] = execute_run(plan, advance, keep_records=False)
            if out is not None:
                write_run(results[spec], out / f"policy-{k}", chosen, plots=not no_plots)
        report_policies("run", results, side, out, as_json)
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
        with interruptible(None), progress_bar(fights, "fights", not (as_json or quiet)) as advance:
            result = execute_run(plan, advance, keep_records=False, rows=rows)
    except BaseException:
        if rows is not None:
            rows.discard()
        raise
    files = write_run(result, out, chosen, plots=not no_plots, rows=rows) if out is not None else []
    if as_json:
        emit_json(result.to_json())
        return
    print_run(result, scenario)
    if out is not None:
        wrote(out, files)


@lab_app.command(
    "sweep",
    help=N_(
        "Run SCENARIO for every combination of the --vary values: a table, a heat map or lines.\n\n"
        "Each cell plays N fights from the same seeds. A cell that does not validate is reported "
        "and skipped. With --out, finished cells are kept under DIR/cells and a rerun with the "
        "same --out skips them; DIR gets the table, a heat map (two paths) or lines (one path), "
        "and report.html."
    ),
)
@user_errors
def sweep_command(
    scenario: Annotated[str, typer.Argument(help=N_("A bundled scenario or a YAML file."))],
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            help=N_(
                "PATH=V1,V2,... or PATH=A..B: a value of the scenario (fighters.ryu.skill, "
                "units.kuro.overrides.skills.ninjutsu) or of its content "
                "(content.defense.armor.rows.heavy.defense); repeat for a grid."
            ),
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
            help=N_(
                "The side the heat map shows, compared with the baseline and read by --until/--decide "
                "(default: the first)."
            ),
        ),
    ] = None,
    baseline: Annotated[
        list[str] | None,
        typer.Option(
            "--baseline",
            metavar=N_("PATH=V"),
            help=N_(
                "The cell every other is compared with (default: the scenario as written); repeat for "
                "each path."
            ),
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
    from kassen.lab.api import write_sweep
    from kassen.lab.output import CellStore, start_out
    from kassen.lab.sweeping import execute_sweep, plan_sweep

    ascii_numbers(("--vary", v.partition("=")[2]) for v in vary)
    specs = _policy_specs(policies, policy)
    chosen = prepare(out, fmt, not no_plots, "policies" if specs else "sweep")

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
            raise LabError(
                _("no cell of the grid validates; the first: {error}").format(
                    error=translate_text(plan.cells[0].error)
                )
            )
        store = None
        if where is not None:
            start_out(where, "sweep", {"scenario": plan.base.source.name})
            store = CellStore(where)
        show = not (as_json or quiet)
        with interruptible(where), progress_bar(len(valid) * fights, "fights", show) as bar:
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
        report_policies("sweep", results, first.side or sides[0], out, as_json)
        return
    result, files = one(plan_for(side_policies(policy)), out)
    if as_json:
        emit_json(result.to_json())
        return
    print_sweep(result, side)
    if out is not None:
        wrote(out, files)


def _policy_specs(policies: list[str] | None, policy: list[str] | None) -> list[str]:
    if not policies:
        return []
    from kassen.lab.policies import split_specs

    if policy:
        raise LabError(_("--policies plays every side by each policy: leave out --policy"))
    return split_specs(policies)


# -- solve ----------------------------------------------------------------------------------------------
@lab_app.command(
    "solve",
    help=N_(
        "Find the value of PATH at which SIDE's win rate crosses RATE, with a 95% interval.\n\n"
        "Every value tried plays the same N fights (seeds S..S+N-1); the range is bisected where "
        "the rate crosses the target, and the answer says so when no value in the range reaches "
        "it."
    ),
)
@user_errors
def solve_command(
    scenario: Annotated[str, typer.Argument(help=N_("A bundled scenario or a YAML file."))],
    vary: Annotated[
        str,
        typer.Option(
            "--vary",
            metavar=N_("PATH=LO..HI"),
            help=N_("The value to solve for and its range: whole numbers (10..16) or real (0.5..2.5)."),
        ),
    ],
    target: Annotated[
        str, typer.Option("--target", metavar=N_("SIDE=RATE"), help=N_("The win rate to reach (east=0.5)."))
    ],
    fights: FightsOption,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    content: ContentOption = None,
    max_actions: MaxActionsOption = None,
    steps: Annotated[
        int,
        typer.Option(
            "--steps", parser=whole(), metavar=N_("N"), help=N_("Halvings of a real range (1..20).")
        ),
    ] = 8,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
    quiet: QuietFlag = False,
    policy: PolicyOption = None,
) -> None:
    from kassen.lab.solve import solve
    from kassen.lab.writing import write_solve

    ascii_numbers([("--vary", vary.partition("=")[2]), ("--target", target)])
    chosen = prepare(out, fmt, not no_plots, "solve")
    with interruptible(None), progress_bar(fights * 8, "fights", not (as_json or quiet)) as advance:
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
    say(
        _("{scenario}: {side}'s win rate along {path}, {fights} fights per value").format(
            scenario=translate_text(result.scenario), side=result.side, path=result.path, fights=f"{fights:,}"
        )
    )
    for p in result.points:
        say(f"  {p.value:>10g}  {pct_text(p.rate):>6}  95% {ci_text(p.ci95)}")
    say(result.sentence())
    if out is not None:
        wrote(out, files)


# -- sensitivity ----------------------------------------------------------------------------------------
@lab_app.command(
    "sensitivity",
    help=N_(
        "Rank several values of SCENARIO by their effect on a side's win rate (SALib: Morris or "
        "Sobol').\n\n"
        "Each scenario of the design plays the same N fights; the table and a bar chart rank the "
        "paths, the most important first."
    ),
)
@user_errors
def sensitivity_command(
    scenario: Annotated[str, typer.Argument(help=N_("A bundled scenario or a YAML file."))],
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary", metavar=N_("PATH=LO..HI"), help=N_("A value and its range; repeat (2 to 12 paths).")
        ),
    ],
    fights: FightsOption,
    side: Annotated[
        str | None, typer.Option("--side", help=N_("The side whose win rate is ranked (default: the first)."))
    ] = None,
    method: Annotated[
        str, typer.Option("--method", help=N_("morris (elementary effects) or sobol."))
    ] = "morris",
    trajectories: Annotated[
        int,
        typer.Option(
            "--trajectories", parser=whole(), metavar=N_("R"), help=N_("Morris trajectories (2..200).")
        ),
    ] = 10,
    levels: Annotated[
        int, typer.Option("--levels", parser=whole(), metavar=N_("L"), help=N_("Morris grid levels (2..20)."))
    ] = 4,
    samples: Annotated[
        int,
        typer.Option("--samples", parser=whole(), metavar=N_("N"), help=N_("Sobol' base samples (2..4096).")),
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
    from kassen.lab.sensitivity import sensitivity
    from kassen.lab.writing import write_sensitivity

    ascii_numbers(("--vary", v.partition("=")[2]) for v in vary)
    chosen = prepare(out, fmt, not no_plots, "sensitivity")
    with interruptible(None), progress_bar(0, "fights", not (as_json or quiet)) as advance:
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
    from kassen.lab.writing import method_label

    say(
        _("{scenario}: what moves {side}'s win rate ({method}, {points} scenarios x {fights} fights)").format(
            scenario=translate_text(result.scenario),
            side=translate_text(result.side_name),
            method=method_label(result.method),
            points=result.points,
            fights=f"{result.fights:,}",
        )
    )
    width = max(len(e.path) for e in result.effects)
    for i, e in enumerate(result.effects, 1):
        if result.method == "morris":
            size = _("mu* {effect} ± {conf} points, mu {mu}, sigma {sigma}").format(
                effect=f"{100 * (e.mu_star or 0):5.1f}", conf=f"{100 * (e.mu_star_conf or 0):4.1f}",
                mu=f"{100 * (e.mu or 0):+5.1f}", sigma=f"{100 * (e.sigma or 0):5.1f}",
            )  # fmt: skip
        else:
            st, s1 = (
                f"{pct_text(e.st):>6} ± {pct_text(e.st_conf)}",
                f"{pct_text(e.s1):>6} ± {pct_text(e.s1_conf)}",
            )
            size = f"ST {st}, S1 {s1}"
        say(f"  {i:>2}. {e.path:<{width}}  {e.low:g}..{e.high:g}  {size}")
    say(result.sentence())
    if out is not None:
        wrote(out, files)


# -- match ----------------------------------------------------------------------------------------------
@lab_app.command(
    "match",
    help=N_(
        "Play policy A against policy B on SCENARIO, mirrored: each seed twice, A on each side "
        "once.\n\n"
        "Reports A's score with a 95% interval, the Elo difference, each side's share and, with "
        "--sprt, the sequential test's verdict (it looks after every 10 pairs, so the result is "
        "the same for any --jobs)."
    ),
)
@user_errors
def match_command(
    scenario: Annotated[str, typer.Argument(help=N_("A bundled scenario or a YAML file (two sides)."))],
    a: Annotated[
        str, typer.Option("--a", metavar=N_("SPEC"), help=N_("Policy A (search:iterations=200, ...)."))
    ],
    b: Annotated[str, typer.Option("--b", metavar=N_("SPEC"), help=N_("Policy B (heuristic, random, ...)."))],
    fights: Annotated[
        int,
        typer.Option(
            "--fights",
            "-n",
            parser=whole(),
            metavar=N_("N"),
            help=N_(
                "Fights to play, an even number (whole pairs: each seed twice, each policy on each "
                "side); with --sprt, at most N."
            ),
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
        typer.Option(
            "--sprt", help=N_("Stop early when the sequential test decides (Elo 0 against --elo1).")
        ),
    ] = False,
    elo0: Annotated[
        float | None,
        typer.Option("--elo0", help=N_("The SPRT's H0: A is at most this much stronger (default 0).")),
    ] = None,
    elo1: Annotated[
        float | None,
        typer.Option("--elo1", help=N_("The SPRT's H1: A is at least this much stronger (default 50).")),
    ] = None,
    as_json: JsonFlag = False,
    quiet: QuietFlag = False,
) -> None:
    from kassen.core.named import parse_policy
    from kassen.lab.match import Sprt, match

    parse_policy(a)
    parse_policy(b)
    if not sprt and (elo0 is not None or elo1 is not None):
        raise LabError(_("--elo0 and --elo1 are the bounds of --sprt: add --sprt or leave them out"))
    test = Sprt(0.0 if elo0 is None else elo0, 50.0 if elo1 is None else elo1) if sprt else None
    with interruptible(None), progress_bar(fights, "fights", not (as_json or quiet)) as advance:
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
    say(report.sentence())
    first, second = report.sides
    values = {
        "first": first, "second": second, "first_rate": pct_text(report.by_side[first]),
        "second_rate": pct_text(report.by_side[second]), "wins": report.wins, "losses": report.losses,
        "draws": report.draws, "broken": report.broken,
    }  # fmt: skip
    if report.broken:
        line = _(
            "  A as {first}: {first_rate}, as {second}: {second_rate}; wins {wins}, losses {losses}, "
            "draws {draws}, broken off {broken}"
        )
    else:
        line = _(
            "  A as {first}: {first_rate}, as {second}: {second_rate}; wins {wins}, losses {losses}, "
            "draws {draws}"
        )
    say(line.format(**values))
    command = f"kassen fight {scenario} --seed {seed}+i --policy {first}=A --policy {second}=B"
    say(_("replay: {command} (and the other way round)").format(command=command))


def scenario_sides(plan: Any) -> list[str]:
    """The side ids of a planned sweep's scenario (its units' sides, in order)."""
    from kassen.lab.api import known_sides

    return list(known_sides(plan.base.opener))
