"""``make demo``: the dice engine and exact odds on the seeds' own numbers.

Runs the same CLI a user would, so what it shows is what ``kassen`` does. (Once the Sengoku battle
engine lands, the demo runs the bundled battle instead.)
"""

from __future__ import annotations

import contextlib

from rich.console import Console

from kassen.cli.main import app

# (title, argv) pairs, each number taken from a seed.
STEPS: list[tuple[str, list[str]]] = [
    (
        "Sengoku: a hit check is 2d10 + modifier >= Defense (SG.CHK.1). "
        "Thrust with Finesse +3, Swordsmanship +2 against heavy armor [Pierce 2] → Defense 12 (SG.PRC.5):",
        ["odds", "2d10+5", "--at-least", "12"],
    ),
    ("The same check, rolled with seed 7:", ["roll", "2d10+5", "--seed", "7"]),
    (
        "Two d10 that agree make a double (SG.CHK.2): 55/100 of 2d10 reach 11:",
        ["odds", "2d10", "--at-least", "11"],
    ),
    (
        "Roll-and-keep: 7k3 with exploding 10s against TN 25 (exact, explosions included):",
        ["odds", "7k3", "--at-least", "25"],
    ),
    (
        "Rolled with seed 11 (an exploded die shows as (10+5)!, a dropped one as ~~1~~):",
        ["roll", "7k3", "--seed", "11"],
    ),
    ("Unskilled 7k3 (no explosions) against TN 25:", ["odds", "7k3", "--at-least", "25", "--unskilled"]),
    (
        "Arena: 3d6 roll-under, HT 10 succeeds on 10 or less — P(3d6 >= 11) is the failure chance:",
        ["odds", "3d6", "--at-least", "11"],
    ),
    ("Keep highest: 4d6kh3 with seed 1:", ["roll", "4d6kh3", "--seed", "1"]),
    ("A bad expression is a clear one-line error:", ["roll", "2d10+"]),
    ("An abusive one is refused at once:", ["roll", "1000000d1000000"]),
]


def main() -> None:
    console = Console(highlight=False)
    console.rule("kassen demo: dice and exact odds")
    for title, argv in STEPS:
        console.print(f"\n[bold]{title}[/bold]")
        console.print(f"[dim]$ kassen {' '.join(argv)}[/dim]")
        with contextlib.suppress(SystemExit):
            app(args=argv, standalone_mode=False)


if __name__ == "__main__":
    main()
