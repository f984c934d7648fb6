"""``kassen``: the command-line entry point (Typer + Rich).

Errors a user can cause are :class:`~kassen.core.errors.KassenError`: they print one line on stderr and
exit with code 2, never a traceback.
"""

from __future__ import annotations

__all__ = ["app", "main"]

import secrets
from typing import Annotated

import typer

from kassen.cli.common import NEGATIVE_NUMBERS, NegativeNumbers, console, emit_json, user_errors
from kassen.cli.fights import register
from kassen.cli.lazy import LazyGroup
from kassen.cli.numbers import SeedOption, whole
from kassen.cli.play import register as register_play
from kassen.cli.render import dice_markup, probability_text
from kassen.core.rng import Rng
from kassen.dice import parse, probability_at_least, roll
from kassen.i18n import N_, _

app = typer.Typer(
    name="kassen",
    help=N_("kassen (合戦): run tabletop-RPG combat exactly as written, with exact odds."),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=LazyGroup,
)


def _version(value: bool) -> None:
    if value:
        from kassen import __version__

        console.print(f"kassen {__version__}")
        raise typer.Exit()


@app.callback(help=N_("kassen (合戦): run tabletop-RPG combat exactly as written, with exact odds."))
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help=N_("Print kassen's version and exit."), callback=_version, is_eager=True
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="[en|ja]",
            help=N_(
                "The language of every word kassen prints (any command takes it; default KASSEN_LANG, "
                "else the locale). JSON, saves and chronicles are the same in every language."
            ),
        ),
    ] = None,
) -> None:
    """Only options: the commands do the work."""


@app.command(
    "roll",
    cls=NegativeNumbers,
    context_settings=NEGATIVE_NUMBERS,
    help=N_("Roll dice and show every die: kept, dropped (struck) and exploded (in parentheses)."),
)
@user_errors
def roll_command(
    expression: Annotated[str, typer.Argument(help=N_("Dice notation, e.g. 2d10+5, 4d6kh3, 3d6!, 7k3."))],
    seed: SeedOption = None,
    unskilled: Annotated[
        bool, typer.Option("--unskilled", help=N_("Roll-and-keep dice do not explode."))
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    expr = parse(expression, unskilled=unskilled)
    used_seed = seed if seed is not None else secrets.randbits(32)
    result = roll(expr, Rng(used_seed))
    if as_json:
        data = result.to_json()
        data["seed"] = used_seed
        emit_json(data)
        return
    console.print(dice_markup(result))
    if seed is None:
        console.print("[dim]" + _("(seed {seed})").format(seed=used_seed) + "[/dim]")


@app.command(
    "odds",
    cls=NegativeNumbers,
    context_settings=NEGATIVE_NUMBERS,
    help=N_("The exact probability that EXPRESSION totals at least T, also as a fraction."),
)
@user_errors
def odds_command(
    expression: Annotated[str, typer.Argument(help=N_("Dice notation, e.g. 2d10+3, 7k3."))],
    at_least: Annotated[
        int, typer.Option("--at-least", parser=whole(), metavar=N_("T"), help=N_("Target: P(total >= T)."))
    ],
    unskilled: Annotated[
        bool, typer.Option("--unskilled", help=N_("Roll-and-keep dice do not explode."))
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    expr = parse(expression, unskilled=unskilled)
    table = probability_at_least(expr, at_least)
    p = table.at_least(at_least)
    if as_json:
        emit_json(
            {
                "expression": str(expr),
                "at_least": at_least,
                "probability": float(p),
                "fraction": f"{p.numerator}/{p.denominator}",
                "error_bound": float(table.error_bound),
            }
        )
        return
    exactness = (
        _("exact")
        if table.exact
        else _("within {bound}").format(bound=format(float(table.error_bound), ".1e"))
    )
    console.print(f"P({expr} >= {at_least}) = {probability_text(p)}  [dim]{exactness}[/dim]")


register(app)
register_play(app)


def main(argv: list[str] | None = None) -> None:
    """Console entry point."""
    app(args=argv)
