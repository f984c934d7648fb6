"""Writing the lab's results into an ``--out`` directory: a run's tables, JSON, plots and report, a
sweep's, and an exact odds table's (:mod:`kassen.lab.api` re-exports them)."""

from __future__ import annotations

__all__ = [
    "Section",
    "run_spec",
    "write_odds",
    "write_run",
    "write_sensitivity",
    "write_solve",
    "write_sweep",
]

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kassen.i18n import _, pgettext, translate_text
from kassen.lab.grid import SweepResult
from kassen.lab.output import Format, finish_out, start_out, write_json, write_table, write_text
from kassen.lab.results import RunResult
from kassen.lab.sentences import name_of, pct, run_sentence, span, sweep_sentence, verdict_word
from kassen.lab.stream import RunRows
from kassen.lab.words import outcome_label, wins_label

if TYPE_CHECKING:
    from kassen.lab.api import RunPlan

#: A report section: heading, table rows (or None), plots (alt text, PNG), a note.
Section = tuple[str, Sequence[Mapping[str, Any]] | None, Sequence[tuple[str, bytes]], str]


def replay_command(source: str, seed: int, policies: Mapping[str, str]) -> str:
    """The command that replays one fight (a runnable line: no ``S+i`` left to work out)."""
    named = "".join(f" --policy {side}={spec}" for side, spec in policies.items())
    return f"kassen fight {source} --seed {seed}{named}"


def replay_text(source: str, seed: int, fights: int, policies: Mapping[str, str]) -> str:
    """How to replay any fight of a run: fight i has seed S+i; the first and the last as commands."""
    last = seed + fights - 1
    if fights > 1:
        return _("fight i has seed {seed}+i: {first} (the first), {last} (the last)").format(
            seed=seed,
            first=replay_command(source, seed, policies),
            last=replay_command(source, last, policies),
        )
    return _("fight i has seed {seed}+i: {first}").format(
        seed=seed, first=replay_command(source, seed, policies)
    )


def _meta_run(result: RunResult) -> list[tuple[str, str]]:
    meta = [
        (pgettext("lab", "Scenario"), f"{name_of(result.scenario)} ({result.source}, {result.ruleset})"),
        (
            pgettext("lab", "Fights"),
            pgettext("lab", "{fights}, seeds {first} to {last}").format(
                fights=f"{result.fights:,}", first=result.seed, last=result.seed + result.fights - 1
            ),
        ),
        (pgettext("lab", "Policies"), policies_text(result.policies)),
        (pgettext("lab", "Replay"), replay_text(result.source, result.seed, result.fights, result.policies)),
    ]
    seq = result.sequential
    if seq is not None:
        rule = f"--until {seq.target:g}" if seq.rule == "until" else f"--decide {seq.target:g}"
        template = (
            _("{rule} on {side}, a look every {every} fights, at most {limit}; {looks} looks, met; "
              "the interval read: {interval}")
            if seq.met
            else _("{rule} on {side}, a look every {every} fights, at most {limit}; {looks} looks, not met; "
                   "the interval read: {interval}")
        )  # fmt: skip
        meta.append(
            (
                pgettext("lab", "Sequential"),
                template.format(
                    rule=rule,
                    side=seq.side,
                    every=f"{seq.every:,}",
                    limit=f"{seq.limit:,}",
                    looks=seq.looks,
                    interval=span(seq.interval),
                ),
            )
        )
    return meta


def _side_rows(result: RunResult) -> list[dict[str, Any]]:
    outcome, fights, share = pgettext("lab", "outcome"), pgettext("lab", "fights"), pgettext("lab", "share")
    rows: list[dict[str, Any]] = [
        {outcome: wins_label(s.name), fights: s.wins.count, share: pct(s.wins.rate)}
        | {"95%": span(s.wins.ci95)}
        for s in result.sides
    ]
    for label, iv in (("draws", result.draws), ("time-outs", result.timeouts), ("errors", result.errors)):
        if iv.count or label == "draws":
            rows.append(
                {outcome: outcome_label(label), fights: iv.count, share: pct(iv.rate), "95%": span(iv.ci95)}
            )
    return rows


def _unit_rows(result: RunResult) -> list[dict[str, Any]]:
    def mean(m: Any) -> str:
        if m.mean is None:
            return pgettext("lab", "n/a")
        return f"{m.mean:.2f}" + (f" ({m.ci95[0]:.2f}-{m.ci95[1]:.2f})" if m.ci95 else "")

    return [
        {
            pgettext("lab", "unit"): name_of(u.name),
            pgettext("lab", "side"): u.side,
            pgettext("lab", "standing"): pct(u.standing.rate),
            "95%": span(u.standing.ci95),
            pgettext("lab", "Wounds dealt / fight"): mean(u.dealt),
            pgettext("lab", "taken / fight"): mean(u.taken),
        }
        for u in result.units
    ]


def _action_rows(result: RunResult) -> list[dict[str, Any]]:
    names = {u.id: u.name for u in result.units}
    rows = []
    for a in result.unit_actions:
        ok = a.success
        rows.append(
            {
                pgettext("lab", "unit"): name_of(names.get(a.unit or "", a.unit or "")),
                pgettext("lab", "action"): action_label(a.action),
                pgettext("lab", "kind"): kind_label(a.kind),
                pgettext("lab", "per fight"): pgettext("lab", "n/a")
                if a.per_fight is None
                else f"{a.per_fight:.2f}",
                pgettext("lab", "attacks"): ok.attempts if ok else None,
                pgettext("lab", "success"): pct(ok.rate) if ok else None,
                pgettext("lab", "95% (by fight)"): span(ok.ci95) if ok else None,
            }
        )
    return rows


def action_label(action: str) -> str:
    """An action a ruleset's summary names (``all-out-attack``, kept in the data) in words."""
    from kassen.lab.words import action_word

    return action_word(action)


def kind_label(kind: str) -> str:
    """A use's kind (maneuver, reaction, special: the data's words) in words."""
    words = {
        "maneuver": pgettext("lab kind", "maneuver"),
        "reaction": pgettext("lab kind", "reaction"),
        "special": pgettext("lab kind", "special"),
    }
    return words.get(kind, kind)


def policies_text(policies: Mapping[str, str]) -> str:
    """Who played each side, in words; a search that reads hidden values is said to."""
    if not policies:
        return _("the scenario's own")
    parts = []
    for side, spec in policies.items():
        if "omniscient" in spec:
            parts.append(
                _("{side}: {spec} (omniscient: reads hidden values, an upper bound)").format(
                    side=side, spec=spec
                )
            )
        else:
            parts.append(_("{side}: {spec}").format(side=side, spec=spec))
    return _("{policies}; other sides the scenario's own").format(
        policies=pgettext("lab sentence", "; ").join(parts)
    )


def run_spec(plan: RunPlan) -> dict[str, Any]:
    """What a run's ``--out`` marker says wrote it."""
    return {
        "scenario": plan.source.name,
        "seed": plan.seed,
        "fights": plan.fights,
        "policies": [list(p) for p in plan.policies],
    }


def write_run(
    result: RunResult, out: Path, fmt: Format = "csv", *, plots: bool = True, rows: RunRows | None = None
) -> list[Path]:
    """A run's files in ``out``: per-fight and per-unit rows (from the result's records, or the ``rows``
    written as the fights finished: :func:`execute_run`), the aggregate tables and JSON, plots, and
    ``report.html``."""
    from kassen.lab.report import html_report

    spec = {"scenario": result.source, "seed": result.seed, "fights": result.fights}
    if rows is None:
        start_out(out, "run", spec)
        written = [write_json(out / "summary.json", result.to_json())]
        names: tuple[str, ...] = ("fights", "unit_fights", "sides", "units", "actions", "rounds")
    else:
        written = [*rows.close(), write_json(out / "summary.json", result.to_json())]
        names = ("sides", "units", "actions", "rounds")
    for name in names:
        written.append(write_table(result.table(name), out / name, fmt))  # type: ignore[arg-type]
    pngs: dict[str, bytes] = {}
    if plots:
        from kassen.lab.plots import run_plots

        pngs = run_plots(result)
        for name, png in pngs.items():
            path = out / f"{name}.png"
            _write_png(path, png)
            written.append(path)

    def img(name: str, alt: str) -> list[tuple[str, bytes]]:
        return [(alt, pngs[name])] if name in pngs else []

    rounds = result.rounds
    round_rows = [
        {
            pgettext("lab", "fights"): rounds.count,
            pgettext("lab", "mean"): rounds.mean,
            pgettext("lab", "min"): rounds.minimum,
            pgettext("lab", "max"): rounds.maximum,
        }
        | {pgettext("lab", "p{q}").format(q=q): v for q, v in rounds.quantiles}
    ]
    sections: list[Section] = [
        (
            pgettext("lab", "Outcomes"),
            _side_rows(result),
            img("outcomes", pgettext("lab", "outcomes")),
            _("Shares with 95% Wilson intervals."),
        ),
        (
            pgettext("lab", "Rounds to the end"),
            round_rows,
            img("rounds", _("rounds histogram")),
            _("Over the fights that ended."),
        ),
        (
            pgettext("lab", "Units"),
            _unit_rows(result),
            img("units", _("survival per unit")),
            _(
                "Standing: still able to fight at the end (95% Wilson). Wounds (or HP, the ruleset's own "
                "measure) per fight with 95% intervals over fights."
            ),
        ),
        (
            pgettext("lab", "Actions per unit"),
            _action_rows(result),
            [],
            _(
                "Uses per fight of each maneuver, reaction and special; an attack's success rate with its "
                "95% interval clustered by fight (attempts within one fight are not independent). The "
                "actions table in the files also has each action over all units."
            ),
        ),
    ]
    errors = [
        {pgettext("lab", "seed"): seed, pgettext("lab", "error"): translate_text(message)}
        for seed, message in result.first_errors
    ]
    if errors:
        sections.append(
            (
                pgettext("lab", "Errors"),
                errors,
                [],
                _("The first errors; replay one with kassen fight --seed SEED."),
            )
        )
    title = _("kassen lab: {scenario}").format(scenario=name_of(result.scenario))
    write_text(out / "report.html", html_report(title, _meta_run(result), sections, run_sentence(result)))
    written.append(out / "report.html")
    finish_out(out, "run", spec, written)
    return written


def _write_png(path: Path, png: bytes) -> None:
    from kassen.lab.output import _atomic

    _atomic(path, png)


def write_sweep(
    result: SweepResult, out: Path, fmt: Format = "csv", *, side: str | None = None, plots: bool = True
) -> list[Path]:
    """A sweep's files in ``out``: ``sweep`` (one row per cell, with its key and its difference from
    the baseline), ``fights`` (every fight, with its cell), ``sweep.json``, the plot (``lines.png`` for
    one path, ``heatmap.png`` for two) and ``report.html``. The marker lists the files written (a sweep
    written again into ``out`` removes them first) and ``cells/`` keeps only this sweep's cells."""
    from kassen.lab.report import html_report

    spec = {"scenario": result.source or result.scenario}
    start_out(out, "sweep", spec)
    written = [write_json(out / "sweep.json", result.to_json())]
    written.append(write_table(result.rows(), out / "sweep", fmt))
    fights = []
    for c in result.cells:
        if c.result is None:
            continue
        for row in c.result.rows():
            fights.append({"cell": c.index, **dict(c.values), **row})
    written.append(write_table(fights, out / "fights", fmt))
    images: list[tuple[str, bytes]] = []
    chosen = side or result.side or (result.sides[0] if result.sides else None)
    if plots and any(c.result is not None for c in result.cells):
        from kassen.lab.plots import sweep_heatmap, sweep_lines

        if len(result.paths) == 1:
            png = sweep_lines(result)
            _write_png(out / "lines.png", png)
            written.append(out / "lines.png")
            images.append((_("win rates against {path}").format(path=result.paths[0]), png))
        elif len(result.paths) == 2 and chosen is not None:
            png = sweep_heatmap(result, chosen)
            _write_png(out / "heatmap.png", png)
            written.append(out / "heatmap.png")
            images.append((_("{side} win rate over the grid").format(side=chosen), png))
    invalid = [c for c in result.cells if c.result is None]
    first = next((c for c in result.cells if c.key), None)
    meta = [
        (pgettext("lab", "Scenario"), f"{name_of(result.scenario)} ({result.ruleset})"),
        (
            pgettext("lab", "Varied"),
            pgettext("lab sentence", "; ").join(
                f"{p} = {', '.join(map(str, v))}" for p, v in zip(result.paths, result.values, strict=True)
            ),
        ),
        (
            pgettext("lab", "Fights"),
            _(
                "at most {fights} per cell, seeds {first} to {last} in each (the same seeds in every cell)"
            ).format(fights=f"{result.fights:,}", first=result.seed, last=result.seed + result.fights - 1),
        ),
        (pgettext("lab", "Policies"), policies_text(result.policies)),
        (
            pgettext("lab", "Cells"),
            _("{cells} ({invalid} invalid, skipped)").format(cells=len(result.cells), invalid=len(invalid)),
        ),
        (
            pgettext("lab", "Baseline"),
            translate_text(result.baseline.label()) if result.baseline else pgettext("lab", "none"),
        ),
    ]
    if first is not None:
        meta.append(
            (
                pgettext("lab", "Replay"),
                _(
                    "a cell's fight i: kassen fight {out}/cells/KEY/scenario.yaml --seed {seed}+i, "
                    "e.g. {example}"
                ).format(
                    out=out,
                    seed=result.seed,
                    example=replay_command(
                        f"{out}/cells/{first.key}/scenario.yaml", result.seed, result.policies
                    ),
                ),
            )
        )
    sections: list[Section] = [
        (
            pgettext("lab", "Results per cell"),
            _cell_rows(result, chosen),
            images,
            _(
                "{side}'s win rate with its 95% Wilson interval; the difference from the baseline "
                "(in points) with its paired 95% interval over the seeds both played (* where it excludes 0; "
                "the unpaired "
                "interval, as if the dice were independent, is in sweep.csv). KEY: the cell's folder in "
                "cells/. All columns are in sweep.csv."
            ).format(side=name_of(str(result.side_names().get(chosen or "", chosen)))),
        ),
    ]
    if invalid:
        sections.append(
            (
                pgettext("lab", "Invalid cells (skipped)"),
                [
                    {
                        pgettext("lab", "cell"): c.index,
                        **dict(c.values),
                        pgettext("lab", "error"): translate_text(c.error),
                    }
                    for c in invalid
                ],
                [],
                "",
            )
        )
    title = _("kassen lab sweep: {scenario}").format(scenario=name_of(result.scenario))
    write_text(out / "report.html", html_report(title, meta, sections, sweep_sentence(result)))
    written.append(out / "report.html")
    finish_out(out, "sweep", spec, written)
    _keep_cells(out, {c.key for c in result.cells if c.key} | _baseline_key(result))
    return written


def _baseline_key(result: SweepResult) -> set[str]:
    return set() if result.baseline is None or result.baseline.key is None else {result.baseline.key}


def _keep_cells(out: Path, keys: set[str]) -> None:
    """Remove from ``out/cells`` the cells of another sweep (only folders named like a cell's key)."""
    import re
    import shutil

    root = out / "cells"
    if not root.is_dir():
        return
    for d in root.iterdir():
        if d.is_dir() and re.fullmatch(r"[0-9a-f]{16}", d.name) and d.name not in keys:
            shutil.rmtree(d, ignore_errors=True)


def _cell_rows(result: SweepResult, side: str | None) -> list[dict[str, Any]]:
    rows = []
    for c in result.cells:
        row: dict[str, Any] = {p.rsplit(".", 1)[-1] if len(p) > 24 else p: v for p, v in c.values}
        r = c.result
        fights, versus = pgettext("lab", "fights"), pgettext("lab", "vs baseline")
        if r is None:
            row[fights] = pgettext("lab", "invalid")
            rows.append(row)
            continue
        s = next((x for x in r.sides if x.id == side), None)
        row[fights] = r.fights
        row[pgettext("lab", "{side} wins").format(side=side)] = pct(s.wins.rate) if s else "0.0%"
        row["95%"] = span(s.wins.ci95) if s else ""
        d = c.versus
        if result.baseline is not None and result.baseline.index == c.index:
            row[versus] = pgettext("lab", "baseline")
        elif d is not None:
            mark = " *" if d.significant else ""
            lo, hi = f"{100 * d.ci95[0]:+.1f}", f"{100 * d.ci95[1]:+.1f}"
            row[versus] = (
                pgettext("lab", "{difference} ({low} to {high})").format(
                    difference=f"{100 * d.difference:+.1f}", low=lo, high=hi
                )
                + mark
            )
        row[pgettext("lab", "draws")] = pct(r.draws.rate)
        if r.sequential is not None:
            seq = r.sequential
            row[pgettext("lab", "stopped")] = (
                verdict_word(seq.verdict) if seq.verdict else
                (pgettext("lab", "met") if seq.met else pgettext("lab", "at limit"))
            )  # fmt: skip
        if c.key:
            row[pgettext("lab", "key")] = c.key
        rows.append(row)
    return rows


def write_solve(result: Any, out: Path, fmt: Format = "csv", *, plots: bool = True) -> list[Path]:
    """``kassen lab solve``'s files: ``solve`` (each value tried), ``solve.json``, ``solve.png`` and
    ``report.html``."""
    from kassen.lab.report import html_report

    spec = {"scenario": result.source}
    start_out(out, "solve", spec)
    written = [write_json(out / "solve.json", result.to_json())]
    written.append(write_table(result.rows(), out / "solve", fmt))
    images: list[tuple[str, bytes]] = []
    if plots:
        from kassen.lab.plots import solve_plot

        png = solve_plot(result)
        _write_png(out / "solve.png", png)
        written.append(out / "solve.png")
        images.append((_("{side} win rate against {path}").format(side=result.side, path=result.path), png))
    rows = [
        {
            pgettext("lab", "value"): p.value,
            pgettext("lab", "fights"): p.fights,
            pgettext("lab", "{side} wins").format(side=result.side): pct(p.rate),
            "95%": span(p.ci95),
        }
        for p in result.points
    ]
    meta = [
        (pgettext("lab", "Scenario"), f"{name_of(result.scenario)} ({result.source})"),
        (
            pgettext("lab", "Question"),
            _("where does {side}'s win rate cross {target} along {path} from {low} to {high}?").format(
                side=result.side,
                target=pct(result.target),
                path=result.path,
                low=f"{result.low:g}",
                high=f"{result.high:g}",
            ),
        ),
        (
            pgettext("lab", "Fights"),
            _("{fights} per value tried, seeds {first} to {last} (the same in each)").format(
                fights=f"{result.fights:,}", first=result.seed, last=result.seed + result.fights - 1
            ),
        ),
        (pgettext("lab", "Policies"), policies_text(result.policies)),
    ]
    sections: list[Section] = [
        (
            pgettext("lab", "Values tried"),
            rows,
            images,
            _(
                "The range bisected where the rate crosses the target; the answer where the line between the "
                "last two values crosses it; its 95% interval a bootstrap over the seeds (paired)."
            ),
        )
    ]
    title = _("kassen lab solve: {scenario}").format(scenario=name_of(result.scenario))
    write_text(out / "report.html", html_report(title, meta, sections, result.sentence()))
    written.append(out / "report.html")
    finish_out(out, "solve", spec, written)
    return written


def write_sensitivity(result: Any, out: Path, fmt: Format = "csv", *, plots: bool = True) -> list[Path]:
    """``kassen lab sensitivity``'s files: ``effects`` (the ranking), ``design`` (each scenario played
    and its win rate), ``sensitivity.json``, ``sensitivity.png`` and ``report.html``."""
    from kassen.lab.report import html_report

    spec = {"scenario": result.source}
    start_out(out, "sensitivity", spec)
    written = [write_json(out / "sensitivity.json", result.to_json())]
    written.append(write_table(result.rows(), out / "effects", fmt))
    written.append(write_table(result.design_rows(), out / "design", fmt))
    images: list[tuple[str, bytes]] = []
    if plots:
        from kassen.lab.plots import sensitivity_plot

        png = sensitivity_plot(result)
        _write_png(out / "sensitivity.png", png)
        written.append(out / "sensitivity.png")
        images.append((_("each path's effect on the win rate"), png))
    rank, path, span_ = pgettext("lab", "rank"), pgettext("lab", "path"), pgettext("lab", "range")

    def between(e: Any) -> str:
        return pgettext("lab", "{low} to {high}").format(low=f"{e.low:g}", high=f"{e.high:g}")

    if result.method == "morris":
        rows = [
            {rank: i + 1, path: e.path, span_: between(e),
             _("effect (mu*)"): pgettext("lab", "{effect} ± {conf} points").format(
                 effect=f"{100 * (e.mu_star or 0):.1f}", conf=f"{100 * (e.mu_star_conf or 0):.1f}"),
             _("direction (mu)"): f"{100 * (e.mu or 0):+.1f}",
             _("spread (sigma)"): f"{100 * (e.sigma or 0):.1f}"}
            for i, e in enumerate(result.effects)
        ]  # fmt: skip
        note = _(
            "Morris elementary effects (SALib): mu* is the mean absolute change of the win rate, in points, "
            "when the path moves across its range, with its 95% bootstrap interval; mu its sign (+: the "
            "side wins more as the value rises); a sigma near mu* says the effect depends on the other "
            "values or is not linear."
        )
    else:
        rows = [
            {rank: i + 1, path: e.path, span_: between(e),
             "ST": f"{pct(e.st)} ± {pct(e.st_conf)}", "S1": f"{pct(e.s1)} ± {pct(e.s1_conf)}"}
            for i, e in enumerate(result.effects)
        ]  # fmt: skip
        note = _(
            "Sobol' indices (SALib, Saltelli's design): ST the share of the win rate's variance the path "
            "explains with all its interactions, S1 alone, each with its 95% interval."
        )
    meta = [
        (pgettext("lab", "Scenario"), f"{name_of(result.scenario)} ({result.source})"),
        (pgettext("lab", "Side"), name_of(result.side_name)),
        (
            pgettext("lab", "Design"),
            _(
                "{method}, {points} scenarios x {fights} fights, seeds {first} to {last} in each "
                "(the same seeds)"
            ).format(
                method=method_label(result.method),
                points=result.points,
                fights=f"{result.fights:,}",
                first=result.seed,
                last=result.seed + result.fights - 1,
            ),
        ),
        (pgettext("lab", "Policies"), policies_text(result.policies)),
    ]
    sections: list[Section] = [(pgettext("lab", "What matters"), rows, images, note)]
    title = _("kassen lab sensitivity: {scenario}").format(scenario=name_of(result.scenario))
    write_text(out / "report.html", html_report(title, meta, sections, result.sentence()))
    written.append(out / "report.html")
    finish_out(out, "sensitivity", spec, written)
    return written


def method_label(method: str) -> str:
    """A sensitivity method (``morris``, ``sobol``: the data's words) in words."""
    words = {"morris": pgettext("lab method", "morris"), "sobol": pgettext("lab method", "sobol")}
    return words.get(method, method)


def write_odds(table: Any, out: Path, fmt: Format = "csv", *, plots: bool = True) -> list[Path]:
    """An exact table's files: ``odds`` (one row per cell), ``odds.json``, a heat map per metric and
    ``report.html``."""
    from kassen.lab.odds import ExactTable
    from kassen.lab.report import html_report
    from kassen.lab.words import axis_label, metric_label

    def column_label(key: str) -> str:
        return metric_label(key) if key in table.metric_names else axis_label(key, table.ruleset)

    assert isinstance(table, ExactTable)
    start_out(out, "odds", {"ruleset": table.ruleset})
    written = [write_json(out / "odds.json", table.to_json())]
    written.append(write_table(table.table(), out / "odds", fmt))
    images: list[tuple[str, bytes]] = []
    if plots:
        from kassen.lab.plots import exact_heatmap

        for name in table.metric_names:
            png = exact_heatmap(table, name)
            _write_png(out / f"{name}.png", png)
            written.append(out / f"{name}.png")
            images.append((metric_label(name), png))
    meta = [
        (pgettext("lab", "Ruleset"), table.ruleset),
        (pgettext("lab", "Rows"), f"{axis_label(table.row_name, table.ruleset)}: {', '.join(table.rows)}"),
    ]
    if table.column_name:
        meta.append(
            (
                pgettext("lab", "Columns"),
                f"{axis_label(table.column_name, table.ruleset)}: {', '.join(table.columns)}",
            )
        )
    rows = [{column_label(k): v for k, v in r.items() if not k.endswith("_fraction")} for r in table.table()]
    title = translate_text(table.title)
    sections: list[Section] = [
        (title, rows, images, _("Exact: the files hold every value as a fraction too."))
    ]
    write_text(
        out / "report.html",
        html_report(_("kassen lab odds: {title}").format(title=title), meta, sections),
    )
    written.append(out / "report.html")
    finish_out(out, "odds", {"ruleset": table.ruleset}, written)
    return written
