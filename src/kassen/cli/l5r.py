"""``kassen l5r ...``: the roll-and-keep ruleset's commands."""

from __future__ import annotations

__all__ = ["l5r_app"]

import typer

l5r_app = typer.Typer(
    name="l5r",
    help="Roll-and-keep (raises, called shots, special attacks): odds, attacks and duels.",
    no_args_is_help=True,
)
