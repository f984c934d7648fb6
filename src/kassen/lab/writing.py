"""Writing the lab's results into an ``--out`` directory: a run's tables, JSON, plots and report, a
sweep's, and an exact odds table's (:mod:`kassen.lab.api` re-exports them)."""

from __future__ import annotations

__all__ = ["Section", "run_spec", "write_odds", "write_run", "write_sweep"]

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kassen.lab.grid import SweepResult
from kassen.lab.output import Format, finish_out, start_out, write_json, write_table, write_text
from kassen.lab.results import RunResult
from kassen.lab.stream import RunRows

if TYPE_CHECKING:
    from kassen.lab.api import RunPlan

#: A report section: heading, table rows (or None), plots (alt text, PNG), a note.
Section = tuple[str, Sequence[Mapping[str, Any]] | None, Sequence[tuple[str, bytes]], str]


def _meta_run(result: RunResult) -> list[tuple[str, str]]:
    named = "".join(f" --policy {side}={spec}" for side, spec in result.policies.items())
    return [
        ("Scenario", f"{result.scenario} ({result.source}, {result.ruleset})"),
        ("Fights", f"{result.fights:,}, seeds {result.seed} to {result.seed + result.fights - 1}"),
        ("Policies", policies_text(result.policies)),
        ("Replay fight i", f"kassen fight {result.source} --seed {result.seed}+i{named}"),
    ]


def policies_text(policies: Mapping[str, str]) -> str:
    """Who played each side, in words; a search that reads hidden values is said to."""
    if not policies:
        return "the scenario's own"
    parts = []
    for side, spec in policies.items():
        note = " (omniscient: reads hidden values, an upper bound)" if "omniscient" in spec else ""
        parts.append(f"{side}: {spec}{note}")
    return "; ".join(parts) + "; other sides the scenario's own"


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
        {"fights": rounds.count, "mean": rounds.mean, "min": rounds.minimum, "max": rounds.maximum}
        | {f"p{q}": v for q, v in rounds.quantiles}
    ]
    sections: list[Section] = [
        ("Outcomes", result.table("sides"), img("outcomes", "outcomes"), "Rates with 95% Wilson intervals."),
        ("Rounds to the end", round_rows, img("rounds", "rounds histogram"), "Over the fights that ended."),
        (
            "Units",
            result.table("units"),
            img("units", "survival per unit"),
            "Survival: still standing at the end. Wounds (or HP) in the ruleset's own measure.",
        ),
        (
            "Actions",
            result.table("actions"),
            [],
            "Uses over the fights that ended; attempts and successes of attacks.",
        ),
    ]
    errors = [{"seed": seed, "error": message} for seed, message in result.first_errors]
    if errors:
        sections.append(("Errors", errors, [], "The first errors; replay one with kassen fight --seed SEED."))
    write_text(
        out / "report.html", html_report(f"kassen lab: {result.scenario}", _meta_run(result), sections)
    )
    written.append(out / "report.html")
    finish_out(out, "run", spec, written)
    return written


def _write_png(path: Path, png: bytes) -> None:
    from kassen.lab.output import _atomic

    _atomic(path, png)


def write_sweep(
    result: SweepResult, out: Path, fmt: Format = "csv", *, side: str | None = None, plots: bool = True
) -> list[Path]:
    """A sweep's files in ``out``: ``sweep`` (one row per cell), ``fights`` (every fight, with its
    cell), ``sweep.json``, the plot (``lines.png`` for one path, ``heatmap.png`` for two) and
    ``report.html``."""
    from kassen.lab.report import html_report

    start_out(out, "sweep", {"scenario": result.scenario})
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
    chosen = side if side is not None else (result.sides[0] if result.sides else None)
    if plots and any(c.result is not None for c in result.cells):
        from kassen.lab.plots import sweep_heatmap, sweep_lines

        if len(result.paths) == 1:
            png = sweep_lines(result)
            _write_png(out / "lines.png", png)
            written.append(out / "lines.png")
            images.append(("win rates against " + result.paths[0], png))
        elif len(result.paths) == 2 and chosen is not None:
            png = sweep_heatmap(result, chosen)
            _write_png(out / "heatmap.png", png)
            written.append(out / "heatmap.png")
            images.append((f"{chosen} win rate over the grid", png))
    invalid = [c for c in result.cells if c.result is None]
    meta = [
        ("Scenario", f"{result.scenario} ({result.ruleset})"),
        (
            "Varied",
            "; ".join(
                f"{p} = {', '.join(map(str, v))}" for p, v in zip(result.paths, result.values, strict=True)
            ),
        ),
        (
            "Fights",
            f"{result.fights:,} per cell, seeds {result.seed} to {result.seed + result.fights - 1} in each",
        ),
        ("Cells", f"{len(result.cells)} ({len(invalid)} invalid, skipped)"),
    ]
    sections: list[Section] = [
        (
            "Results per cell",
            result.rows(),
            images,
            "Rates with 95% Wilson intervals; replay a cell's fight from cells/KEY/scenario.yaml.",
        ),
    ]
    if invalid:
        sections.append(
            (
                "Invalid cells (skipped)",
                [{"cell": c.index, **dict(c.values), "error": c.error} for c in invalid],
                [],
                "",
            )
        )
    write_text(out / "report.html", html_report(f"kassen lab sweep: {result.scenario}", meta, sections))
    written.append(out / "report.html")
    return written


def write_odds(table: Any, out: Path, fmt: Format = "csv", *, plots: bool = True) -> list[Path]:
    """An exact table's files: ``odds`` (one row per cell), ``odds.json``, a heat map per metric and
    ``report.html``."""
    from kassen.lab.odds import ExactTable
    from kassen.lab.report import html_report

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
            images.append((name, png))
    meta = [("Ruleset", table.ruleset), ("Rows", f"{table.row_name}: {', '.join(table.rows)}")]
    if table.column_name:
        meta.append(("Columns", f"{table.column_name}: {', '.join(table.columns)}"))
    rows = [{k: v for k, v in r.items() if not k.endswith("_fraction")} for r in table.table()]
    sections: list[Section] = [
        (table.title, rows, images, "Exact: the files hold every value as a fraction too.")
    ]
    write_text(out / "report.html", html_report(f"kassen lab odds: {table.title}", meta, sections))
    written.append(out / "report.html")
    finish_out(out, "odds", {"ruleset": table.ruleset}, written)
    return written
