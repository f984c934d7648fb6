"""``kassen play`` and ``kassen resume``: a fight at the terminal, decisions built step by step.

Whoever decides is shown the turn order (the ruleset's ``status`` hook, e.g. Sengoku's count track), the
numbered menu with the odds of each choice (what is not allowed now folded behind one line, ``?``), and
after each action the narrated result — all through one side's view with ``--human SIDE``
(:mod:`kassen.cli.table`). An answer is a menu number, ``auto`` (the policy decides this one), ``back``
(one step back in the decision being built), ``undo`` (back to the previous decision made here),
``gm`` (the GM's own moves), ``save PATH``, ``quit`` — or, when the fight waits for dice rolled at the
table, the faces (:mod:`kassen.cli.table_dice`). An answer that cannot be used is reported on one line
and asked again. At a terminal the line can be edited and earlier answers recalled (prompt_toolkit);
from a pipe the answers are read line by line, so a whole game can be scripted: ``yes 1 | kassen play
demo --seed 5 --save game.json``. End of input saves (with ``--save``) and exits 0; Ctrl-C and a
hang-up save too (:func:`_session`).
"""

from __future__ import annotations

__all__ = ["play_command", "register", "resume_command"]

import contextlib
import errno
import signal
import sys
import threading
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from kassen.cli.common import PolicyOption, side_policies, user_errors
from kassen.cli.numbers import SeedOption
from kassen.cli.saves import autosave_path, check_save, shown
from kassen.core.errors import KassenError
from kassen.i18n import N_, S_, _, pgettext, translate_text


def _session(fight: Any, humans: list[str], save: Path | None, seed: str) -> None:
    """Play ``fight`` at the terminal; ``seed`` says which seed it plays on. The number is shown only
    when the user chose it: a seed drawn for the table is nobody's to read off the screen (it gives
    every roll to come away); the save keeps it.

    End of input (Ctrl-D) and ``quit`` save to ``--save`` when it was given. Ctrl-C and a hang-up (the
    terminal closed, the connection lost) save too: to ``--save``, else to an autosave file named at the
    start; the command then exits 130 (Ctrl-C) or 129 (hang-up), as an interrupted command does."""
    from kassen.cli.answers import answers_for
    from kassen.cli.table import HELP, EndOfInput, Table

    unknown = [h for h in humans if h not in fight.units() and h not in fight.sides() and h != "gm"]
    if unknown:
        known = ", ".join([*fight.sides(), *fight.units()])
        raise KassenError(
            S_(
                "--human {unknown} is no side or unit of this fight (known: {known}, gm)",
                unknown=repr(unknown[0]),
                known=known,
            )
        )
    out = sys.stdout
    table = Table(fight, humans, save, out, answers_for(sys.stdin, out))
    title = translate_text(str(fight.meta.get("scenario", "")))
    mode = pgettext("dice mode", "table") if fight.dice_mode == "table" else pgettext("dice mode", "auto")
    table.say(
        _("{title} ({seed}; dice: {mode}). {help}").format(title=title, seed=seed, mode=mode, help=_(HELP))
    )
    keep = save if save is not None else autosave_path()
    if save is None:
        table.say(
            _("(Ctrl-C or a hang-up saves the game to {path}; --save FILE chooses where)").format(
                path=shown(keep)
            )
        )
    stopped = 0
    with _Interruptions() as signals:
        try:
            table.run()
        except EndOfInput:
            stopped = 129 if signals.hung_up else 0  # the input ended because the terminal went away
        except _HangUp:
            stopped = 129
        except KeyboardInterrupt:
            stopped = 130
        except OSError as exc:
            # the terminal is gone (EIO on reading or writing it), whether or not its SIGHUP has come
            # yet, or it came where it could not be raised (Python drops an exception raised in a weak
            # reference's callback): the game is saved all the same
            if not signals.hung_up and exc.errno != errno.EIO:
                raise
            stopped = 129
        if stopped:
            signals.hold()  # a second Ctrl-C, or the SIGHUP after a closed terminal, waits for the save
            with contextlib.suppress(OSError):  # after a hang-up the terminal may be gone
                table.say("")
                table.say(_("interrupted: saving the game"))
            # an OSError here comes after the save is written: only telling so failed (no terminal)
            with contextlib.suppress(OSError):
                table.save_at_end(keep)
    if stopped:
        raise typer.Exit(stopped)
    if save is not None:
        table.save_at_end(save)


class _HangUp(KeyboardInterrupt):
    """SIGHUP: the terminal went away. An interruption as Ctrl-C is, not an ``Exception``: a handler of
    errors between the signal and the game (prompt_toolkit's event loop logs and drops any other
    exception raised in one of its callbacks) must not swallow it and leave the game waiting for input."""


class _Interruptions:
    """Ctrl-C and hang-ups while a game runs at the terminal. Ctrl-C raises KeyboardInterrupt as always;
    a hang-up raises :class:`_HangUp` where the game is, and is noted (:attr:`hung_up`), since the raise
    may land where Python drops it and the game then learns of it from the terminal's EIO. Once the game
    stops, :meth:`hold` ignores both until the save is written. Signals are set from the main thread
    only, and restored on leaving."""

    def __init__(self) -> None:
        self.main = threading.current_thread() is threading.main_thread()
        self.hung_up = False
        self.before: dict[int, Any] = {}

    def __enter__(self) -> _Interruptions:
        if self.main and hasattr(signal, "SIGHUP"):
            self.before[signal.SIGHUP] = signal.signal(signal.SIGHUP, self._hang_up)
        return self

    def _hang_up(self, signum: int, frame: Any) -> None:
        self.hung_up = True
        signal.signal(signum, signal.SIG_IGN)  # one is enough: another waits for the save
        raise _HangUp

    def hold(self) -> None:
        if not self.main:
            return
        for name in ("SIGINT", "SIGHUP"):
            if hasattr(signal, name):
                number = getattr(signal, name)
                self.before.setdefault(number, signal.getsignal(number))
                signal.signal(number, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        for number, handler in self.before.items():
            signal.signal(number, handler)


HumanOption = Annotated[
    list[str] | None,
    typer.Option(
        "--human",
        help=N_(
            "A side or unit played at the table (repeat; default: every unit; resume: as the game was saved)."
        ),
        metavar=N_("SIDE_OR_UNIT"),
    ),
]
SaveOption = Annotated[
    Path | None,
    typer.Option(
        "--save",
        help=N_("Write the fight's chronicle here when input ends (or at quit, Ctrl-C, a hang-up)."),
        metavar=N_("FILE"),
    ),
]


def play_command(
    scenario: Annotated[
        str, typer.Argument(help=N_("A bundled scenario (see `kassen scenarios`) or a YAML file."))
    ],
    seed: SeedOption = None,
    human: HumanOption = None,
    dice: Annotated[
        str,
        typer.Option(
            help=N_("auto: the seeded RNG rolls; table: type the faces rolled."), metavar="auto|table"
        ),
    ] = "auto",
    save: SaveOption = None,
    content: Annotated[
        list[Path] | None, typer.Option("--content", help=N_("A content layer (repeat)."), metavar=N_("DIR"))
    ] = None,
    policy: PolicyOption = None,
) -> None:
    from kassen.core.scenario import open_fight

    if dice not in ("auto", "table"):
        raise KassenError(S_("--dice is auto or table, not {dice}", dice=repr(dice[:20])))
    policies = side_policies(policy)
    check_save(save)
    mode: Literal["auto", "table"] = "table" if dice == "table" else "auto"
    from kassen.core.rng import fresh_seed

    # a table never plays on the scenario's own seed unless asked: anyone with the file has it
    used = seed if seed is not None else fresh_seed()
    fight = open_fight(scenario, seed=used, content=list(content or []), dice=mode, policies=policies)
    said = _("seed {seed}").format(seed=seed) if seed is not None else _("a fresh random seed")
    _session(fight, list(human or []), save, said)


def resume_command(
    file: Annotated[
        Path, typer.Argument(help=N_("A saved fight (kassen play --save, or kassen fight --json)."))
    ],
    human: HumanOption = None,
    dice: Annotated[
        str | None,
        typer.Option(help=N_("auto or table (default: as the game was saved)."), metavar="auto|table"),
    ] = None,
    save: SaveOption = None,
    content: Annotated[
        list[Path] | None, typer.Option("--content", help=N_("A content layer (repeat)."), metavar=N_("DIR"))
    ] = None,
    policy: PolicyOption = None,
) -> None:
    from kassen.content.yamlio import read_text
    from kassen.core.codec import parse_json
    from kassen.core.fight import Fight

    if dice not in (None, "auto", "table"):
        raise KassenError(S_("--dice is auto or table, not {dice}", dice=repr(dice[:20])))
    policies = side_policies(policy)
    check_save(save)
    fight = Fight.from_json(
        parse_json(read_text(file, max_bytes=64 * 1024 * 1024), what=str(file)), content=list(content or [])
    )
    fight.dice_mode = _saved_dice(fight) if dice is None else "table" if dice == "table" else "auto"
    if policy:
        fight.use_policies({**fight.policy_specs(), **policies})
    _session(fight, _saved_humans(fight) if human is None else list(human), save, _("its saved seed"))


def _saved_humans(fight: Any) -> list[str]:
    """Who played at the table a saved game was played at (``meta.humans``, what ``--human`` said): the
    same sides or units play on, in the same view. A save that names none (``kassen fight --json``, an
    older save) is played by the GM, every unit at the table."""
    said: list[str] = fight.meta.get("humans", [])  # checked when the save was read
    return list(said)


def _saved_dice(fight: Any) -> Literal["auto", "table"]:
    """The dice mode a saved game was played in: what its save says (``meta.dice``), else how its last
    action was rolled (typed faces are recorded in table mode only); auto for a game without either."""
    said = fight.meta.get("dice")
    if said in ("auto", "table"):
        return "table" if said == "table" else "auto"
    entries = fight.entries
    return "table" if entries and entries[-1].faces is not None else "auto"


def register(app: typer.Typer) -> None:
    app.command(
        "play",
        help=N_(
            "Play a fight at the terminal: menus with odds, table dice, undo, save; units not --human are "
            "decided by their policies (the scenario's, or --policy SIDE=SPEC)."
        ),
    )(user_errors(play_command))
    app.command(
        "resume",
        help=N_(
            "Resume a saved fight where it stopped (replayed and checked first), each side played as it "
            "was, by the same --human players in the same view (or as --human and --policy SIDE=SPEC say "
            "from now on)."
        ),
    )(user_errors(resume_command))
