"""``kassen sengoku battle SCENARIO``: a whole count-and-breath battle, as an account or its chronicle.

The account (the ruleset's renderers through :func:`kassen.core.report.account`, as ``kassen fight``
tells it) shows each round and count, who breathes and with which maneuvers, every roll with both faces,
the attack modifier and the target's Defense step by step, Wounds before → after and the statuses as
they change, then a summary (winner, survivors and their Wounds, death checks). ``--json`` prints the
chronicle instead (:meth:`kassen.Fight.to_json`: initial state, seed, actions and events), which
``kassen replay`` checks. SCENARIO is a bundled battle's name (``kassen sengoku battles`` lists them) or
a YAML file (with or without its ``ruleset: sengoku`` header).
"""

from __future__ import annotations

__all__ = ["battle_command", "battles_command"]

import sys
from typing import Annotated

import typer

from kassen.cli.common import console, emit_json, user_errors
from kassen.cli.content import CONTENT_HELP
from kassen.cli.numbers import SeedOption, whole
from kassen.cli.sengoku import sengoku_app
from kassen.core.errors import KassenError
from kassen.core.report import account
from kassen.core.rng import fresh_seed
from kassen.core.scenario import bundled_scenarios
from kassen.i18n import N_, _, pgettext, translate_text
from kassen.sengoku.battle.report import summary
from kassen.sengoku.battle.scenario import load_scenario, run_battle


@sengoku_app.command(
    "battle",
    help=N_("Play a battle with its scripted and heuristic units; print the account and a summary."),
)
@user_errors
def battle_command(
    scenario: Annotated[
        str, typer.Argument(help=N_("A bundled battle (demo, count-example, burning-temple) or a YAML file."))
    ],
    seed: SeedOption = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            parser=whole(1, 1000),
            metavar="N",
            help=N_("Round limit, 1..1000 (default: the scenario's or SG.END.1's)."),
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the chronicle JSON (the event log)."))
    ] = False,
    brief: Annotated[
        bool, typer.Option("--brief", help=N_("Leave out the modifier and Defense steps."))
    ] = False,
    content: Annotated[list[str] | None, typer.Option(help=CONTENT_HELP)] = None,
) -> None:
    """Play a battle with its scripted and heuristic units; print the account and a summary."""
    if rounds is not None and rounds < 1:
        raise KassenError(_("--rounds must be at least 1 (got {rounds})").format(rounds=rounds))
    s = load_scenario(scenario, content or ())
    used = seed if seed is not None else (s.seed if s.seed is not None else fresh_seed())
    fight = run_battle(s, used, rounds=rounds)
    if as_json:
        emit_json(fight.to_json())
        return
    sys.stdout.write(account(fight, verbose=not brief))
    sys.stdout.write("\n" + summary(fight.state))
    if seed is None and s.seed is None:
        console.print("[dim]" + pgettext("sengoku", "(seed {seed})").format(seed=used) + "[/dim]")


@sengoku_app.command(
    "battles",
    help=N_("The bundled battles."),
)
@user_errors
def battles_command() -> None:
    """The bundled battles."""
    for s in bundled_scenarios("sengoku"):
        sys.stdout.write(f"{s.name}: {translate_text(s.title)}\n")
