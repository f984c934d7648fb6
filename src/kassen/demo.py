"""``make demo``: the bundled Sengoku battle, every bundled fight of the three rulesets in one line each
with a replay check, then a short look at the dice and exact odds under it all.

Runs the same CLI a user would, so what it shows is what ``kassen`` does: the raid at Kawanaka ford
(``kassen sengoku battle demo``) played by the heuristic policy, every breath, roll, Defense breakdown and
Wound explained with its rule, and a summary; then the one core running every ruleset (``kassen
scenarios``, ``kassen fight NAME --brief``, ``kassen replay``); then the exact odds of the checks rolled.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

from rich.console import Console

from kassen.cli.main import app
from kassen.i18n import N_, _, current_language, use_language

#: The battle: (title, argv).
BATTLE: tuple[str, list[str]] = (
    N_(
        "Sengoku: the count-and-breath battle engine. The highest Energy breathes first; each breath spends "
        "Energy on maneuvers (limit 5); reserved defense techniques answer attacks off the count; the lull "
        "resets; the battle ends when a side has no unit able to act:"
    ),
    ["sengoku", "battle", "demo"],
)

#: A short dice and odds part after the battle: (title, argv) pairs, each number taken from a seed.
STEPS: list[tuple[str, list[str]]] = [
    (
        N_(
            "Exact odds before committing: Genzaburo's Thrust (Finesse +1, Swordsmanship +2) against a "
            "samurai in heavy armor, [Pierce 2] → Defense 12 (SG.PRC.5):"
        ),
        ["odds", "2d10+3", "--at-least", "12"],
    ),
    (N_("The same check, rolled with seed 7:"), ["roll", "2d10+3", "--seed", "7"]),
    (
        N_("Two d10 that agree make a double (SG.CHK.2); 55/100 of 2d10 reach 11, the death check's target:"),
        ["odds", "2d10", "--at-least", "11"],
    ),
    (
        N_("Roll-and-keep: 7k3 with exploding 10s against TN 25 (exact, explosions included):"),
        ["odds", "7k3", "--at-least", "25"],
    ),
    (N_("A bad expression is a clear one-line error:"), ["roll", "2d10+"]),
]


def _run(console: Console, title: str, argv: list[str]) -> None:
    console.print(f"\n[bold]{_(title)}[/bold]")
    console.print(f"[dim]$ kassen {' '.join(argv)}[/dim]")
    _run_quiet(argv)


def _tour(console: Console) -> None:
    """Every bundled fight of every ruleset, one line each, then a chronicle replayed and checked."""
    from kassen.core.scenario import bundled_scenarios

    _run(console, N_("Every bundled scenario, whatever its ruleset:"), ["scenarios"])
    console.print("\n[bold]" + _("Each played to its end by its own policies, one line each:") + "[/bold]")
    for s in bundled_scenarios():
        _run_quiet(["fight", f"{s.ruleset}/{s.name}", "--brief"])
    console.print(
        "\n[bold]" + _("A fight's chronicle replays to the identical log, every field checked:") + "[/bold]"
    )
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "melee.json"
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            app(
                args=["fight", "arena/melee", "--seed", "3", "--json", "--lang", current_language()],
                standalone_mode=False,
            )
        log.write_text(out.getvalue(), encoding="utf-8")
        console.print("[dim]$ kassen fight arena/melee --seed 3 --json > melee.json[/dim]")
        console.print("[dim]$ kassen replay melee.json[/dim]")
        _run_quiet(["replay", str(log)])


def _run_quiet(argv: list[str]) -> None:
    # the demo's own language (``--lang``, KASSEN_LANG, the locale) for every command it runs
    with contextlib.suppress(SystemExit):
        app(args=[*argv, "--lang", current_language()], standalone_mode=False)


def main(argv: list[str] | None = None) -> None:
    """``python -m kassen.demo [--lang ja|en]``."""
    from kassen.cli.language import take_language
    from kassen.i18n import LanguageError

    try:
        lang, _rest = take_language(sys.argv[1:] if argv is None else argv)
    except LanguageError as exc:
        sys.stderr.write(f"kassen: error: {exc}\n")
        raise SystemExit(2) from None
    with use_language(lang):
        console = Console(highlight=False)
        console.rule(_("kassen demo: a Sengoku battle, every number explained"))
        _run(console, *BATTLE)
        console.rule(_("one core, three rulesets"))
        _tour(console)
        console.rule(_("dice and exact odds"))
        for title, command in STEPS:
            _run(console, title, command)


if __name__ == "__main__":
    main()
