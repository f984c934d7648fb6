"""``kassen lab odds sengoku|l5r|arena``: exact tables by the rulesets' own chance functions."""

from __future__ import annotations

__all__ = ["odds_app"]

from typing import Annotated

import typer

from kassen.cli.common import user_errors
from kassen.cli.lab_options import FormatOption, JsonFlag, MetricOption, NoPlotsFlag, OutOption, ascii_numbers
from kassen.cli.lab_text import show_table
from kassen.cli.numbers import whole
from kassen.i18n import N_, _
from kassen.lab.limits import LabError

odds_app = typer.Typer(
    help=N_("Exact tables by the rulesets' own chance functions (sengoku, l5r, arena)."),
    no_args_is_help=True,
    add_completion=False,
)


@odds_app.command(
    "sengoku",
    help=N_(
        "Exact Sengoku attack odds (hit, critical, fumble, decisive moment, critical mistake, "
        "expected Wounds) for every modifier x Defense, each roll through the attack's own "
        "resolution."
    ),
)
@user_errors
def odds_sengoku(
    modifiers: Annotated[
        str, typer.Option("--modifiers", help=N_("Attack modifiers: M, A..B or A..B/STEP (-50..50)."))
    ],
    defense: Annotated[
        str, typer.Option("--defense", help=N_("Defense values: D, A..B or A..B/STEP (0..60)."))
    ],
    metric: MetricOption = None,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
) -> None:
    from kassen.lab.odds import SENGOKU_DEFENSES, SENGOKU_MODIFIERS, parse_range, sengoku_table

    ascii_numbers([("--modifiers", modifiers), ("--defense", defense)])
    mods = parse_range(modifiers, "modifiers", *SENGOKU_MODIFIERS)
    defs = parse_range(defense, "defense", *SENGOKU_DEFENSES)
    show_table(sengoku_table(mods, defs), metric, as_json, out, fmt, not no_plots)


@odds_app.command(
    "l5r",
    help=N_(
        "Exact roll-and-keep chances: each pool reaching each TN (+5 per raise), by the rolls a duel makes."
    ),
)
@user_errors
def odds_l5r(
    pools: Annotated[
        str, typer.Option("--pools", help=N_("Pools XkY or XkY..ZkW (every pool between), up to 10k10."))
    ],
    tn: Annotated[str, typer.Option("--tn", help=N_("Target numbers: T, A..B or A..B/STEP (1..200)."))],
    raises: Annotated[
        int,
        typer.Option(
            "--raises", parser=whole(), metavar=N_("N"), help=N_("Raises called: +5 to the TN each (0..20).")
        ),
    ] = 0,
    unskilled: Annotated[
        bool, typer.Option("--unskilled", help=N_("10s do not explode (no raises)."))
    ] = False,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
) -> None:
    from kassen.lab.odds import L5R_RAISES, L5R_TNS, l5r_table, parse_pools, parse_range

    ascii_numbers([("--pools", pools), ("--tn", tn)])
    if not L5R_RAISES[0] <= raises <= L5R_RAISES[1]:
        raise LabError(
            _("--raises must be between {low} and {high}, not {raises}").format(
                low=L5R_RAISES[0], high=L5R_RAISES[1], raises=raises
            )
        )
    table = l5r_table(parse_pools(pools), parse_range(tn, "tn", *L5R_TNS), raises=raises, unskilled=unskilled)
    show_table(table, None, as_json, out, fmt, not no_plots)


@odds_app.command(
    "arena",
    help=N_(
        "Exact 3d6 odds: each skill's check (success, critical success, critical failure), or "
        "with --defense the chance an attack hits a defender."
    ),
)
@user_errors
def odds_arena(
    skill: Annotated[
        str, typer.Option("--skill", help=N_("Effective skills: S, A..B or A..B/STEP (-10..30)."))
    ],
    defense: Annotated[
        str | None,
        typer.Option("--defense", help=N_("Defences (A..B): the chance to hit a defender instead.")),
    ] = None,
    metric: MetricOption = None,
    out: OutOption = None,
    fmt: FormatOption = "csv",
    as_json: JsonFlag = False,
    no_plots: NoPlotsFlag = False,
) -> None:
    from kassen.lab.odds import ARENA_DEFENSES, ARENA_SKILLS, arena_table, parse_range

    ascii_numbers([("--skill", skill), ("--defense", defense or "")])
    skills = parse_range(skill, "skill", *ARENA_SKILLS)
    defs = parse_range(defense, "defense", *ARENA_DEFENSES) if defense is not None else None
    show_table(arena_table(skills, defs), metric, as_json, out, fmt, not no_plots)
