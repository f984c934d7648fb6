"""``kassen arena ...``: the 3d6 arena ruleset's commands."""

from __future__ import annotations

__all__ = ["arena_app"]

import typer

arena_app = typer.Typer(
    name="arena",
    help="Arena (3d6 damage and injury): damage pipeline, checks and bouts.",
    no_args_is_help=True,
)
