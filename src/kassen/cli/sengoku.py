"""``kassen sengoku ...``: the GM's calculator for the Sengoku ruleset.

The commands live in their own modules (``sengoku_defense``, ``sengoku_attack``, ``sengoku_battle``),
which register themselves on :data:`sengoku_app` when imported below.
"""

from __future__ import annotations

__all__ = ["sengoku_app"]

import typer

from kassen.i18n import N_

sengoku_app = typer.Typer(
    add_completion=False,  # as the top-level kassen: no command edits the shell's start-up files
    name="sengoku",
    help=N_("Sengoku (wounds and breath): Defense, odds, attacks and battles, each number with its rule."),
    no_args_is_help=True,
)

# Imported for their side effect of registering commands on sengoku_app.
from kassen.cli import sengoku_attack, sengoku_battle, sengoku_defense  # noqa: E402, F401
