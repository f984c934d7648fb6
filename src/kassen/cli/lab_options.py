"""The options the lab's commands share (``kassen lab run|sweep|solve|sensitivity|match|odds``), their help
marked for the catalog (translated when a help screen is shown), and the check that numbers are typed in
ASCII digits."""

from __future__ import annotations

__all__ = [
    "AddressOption",
    "BackendOption",
    "DecideOption",
    "EveryOption",
    "FightsOption",
    "FormatOption",
    "JobsOption",
    "JsonFlag",
    "MaxActionsOption",
    "MetricOption",
    "NoPlotsFlag",
    "OutOption",
    "PoliciesOption",
    "QuietFlag",
    "SeedOption",
    "SideOption",
    "UntilOption",
    "ascii_numbers",
]

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from kassen.cli.common import OptionIssues
from kassen.cli.numbers import parse_seed, whole
from kassen.i18n import N_, _

FightsOption = Annotated[
    int,
    typer.Option(
        "--fights",
        "-n",
        parser=whole(),
        metavar=N_("N"),
        help=N_("Fights to play (per cell for a sweep); at most 200,000."),
    ),
]
SeedOption = Annotated[
    int,
    typer.Option(
        "--seed",
        parser=parse_seed,
        metavar=N_("SEED"),
        help=N_("Seed of fight 0 (0 .. 2**64-1); fight i uses seed S+i."),
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", parser=whole(), metavar=N_("N"), help=N_("Worker processes (or CPUs of a local Ray).")
    ),
]
BackendOption = Annotated[
    str, typer.Option("--backend", help=N_(r"local (processes) or ray (kassen\[ray])."))
]
AddressOption = Annotated[
    str | None, typer.Option("--address", help=N_("A Ray cluster's address (default: start a local Ray)."))
]
MaxActionsOption = Annotated[
    int | None,
    typer.Option(
        "--max-actions",
        parser=whole(),
        metavar=N_("N"),
        help=N_("Most actions per fight (default: the scenario's); beyond: a time-out."),
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out", help=N_("Write tables, plots and report.html in this directory."), metavar=N_("DIR")
    ),
]
FormatOption = Annotated[
    str, typer.Option("--format", help=N_(r"Tables as csv or parquet (kassen\[parquet])."))
]
JsonFlag = Annotated[bool, typer.Option("--json", help=N_("Print the results as one JSON object."))]
NoPlotsFlag = Annotated[
    bool, typer.Option("--no-plots", help=N_("No PNG plots in --out (no matplotlib needed)."))
]
QuietFlag = Annotated[bool, typer.Option("--quiet", "-q", help=N_("No progress bar."))]
UntilOption = Annotated[
    float | None,
    typer.Option(
        "--until",
        metavar=N_("WIDTH"),
        help=N_(
            "Stop when the 95%% interval of --side's win rate is at most WIDTH wide (0.05: 5 points); "
            "--fights is then the most played."
        ),
    ),
]
DecideOption = Annotated[
    float | None,
    typer.Option(
        "--decide",
        metavar=N_("RATE"),
        help=N_(
            "Stop when --side's win rate is above or below RATE (a sequential test wrong at most 5%% "
            "of the time, however many looks); --fights is then the most played."
        ),
    ),
]
EveryOption = Annotated[
    int | None,
    typer.Option(
        "--every",
        parser=whole(),
        metavar=N_("N"),
        help=N_("Fights per look of --until/--decide (default 100)."),
    ),
]
PoliciesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--policies",
        metavar=N_("SPEC,SPEC,..."),
        help=N_(
            "Run under each named policy (each playing every side: heuristic,search:iterations=200) and "
            "flag each conclusion that changes between them."
        ),
    ),
]
SideOption = Annotated[
    str | None,
    typer.Option("--side", help=N_("The side whose win rate --until/--decide read (default: the first).")),
]
MetricOption = Annotated[
    str | None, typer.Option("--metric", help=N_("The table printed (default: the first)."))
]


def ascii_numbers(options: Iterable[tuple[str, str]]) -> None:
    """Numbers in a range or a --vary value are ASCII digits, as everywhere on the command line
    (kassen.cli.numbers): ``３..5`` is refused, not read as 3..5."""
    issues = OptionIssues()
    for option, text in options:
        if any(c.isdigit() and not c.isascii() for c in text):
            issues.add(
                option,
                _("numbers are written with ASCII digits 0-9, got {text}").format(text=repr(text[:40])),
            )
    issues.raise_any()
