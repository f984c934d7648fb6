"""``kassen play`` and ``kassen resume``: a fight at the terminal, decisions built step by step.

Whoever decides is shown the turn order (the ruleset's ``status`` hook, e.g. Sengoku's count track), the
numbered menu with the odds of each choice, and after each action the narrated result. An answer is a
menu number, ``auto`` (the policy decides this one), ``back`` (one step back in the decision being
built), ``undo``, ``gm`` (the GM's own moves), ``save PATH``, ``quit`` — or, when the fight waits for dice
rolled at the table, the faces separated by spaces (``auto`` lets the RNG roll them). An answer that
cannot be used is reported on one line and asked again; end of input saves (with ``--save``) and exits
0, so a whole game can be scripted: ``yes 1 | kassen play demo --seed 5 --save game.json``.
"""

from __future__ import annotations

__all__ = ["play_command", "register", "resume_command"]

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, TextIO

import typer

from kassen.cli.common import PolicyOption, side_policies, user_errors
from kassen.cli.numbers import SeedOption
from kassen.core.errors import KassenError

HELP = "answers: a number, auto, back, undo, gm, save PATH, quit"
#: The longest answer read (``save PATH`` with the longest path a system allows).
MAX_ANSWER = 4096 + 5


class _Table:
    """One terminal session over a fight."""

    def __init__(self, fight: Any, humans: list[str], save: Path | None, out: TextIO) -> None:
        self.fight = fight
        self.humans = set(humans)
        self.save_to = save
        self.out = out
        self.names = fight.ruleset.names(fight.initial_state)

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")

    def human(self, actor: Any) -> bool:
        if not self.humans:
            return True
        return actor.id in self.humans or (actor.side is not None and actor.side in self.humans)

    def narrate(self, events: Any) -> None:
        from kassen.core.report import render_event

        for e in events:
            for line in render_event(self.fight.ruleset, e.to_json(), self.names, verbose=False):
                self.say(line)

    def viewer(self, gm: bool) -> Any:
        """Who looks at the screen now: the deciding unit's side (hot seat), or the GM."""
        from kassen.core.view import GM_VIEW, Viewer

        actor = self.fight.to_move
        if gm or actor is None or actor.kind != "unit" or not actor.side:
            return GM_VIEW
        return Viewer(actor.side)

    def status(self, gm: bool) -> None:
        for line in self.fight.status(self.viewer(gm)):
            self.say(f"  {line}")

    def save(self, path: Path) -> None:
        """Write the chronicle to ``path`` (through a temporary file: never a half-written save)."""
        write_chronicle(self.fight, path)
        self.say(f"saved to {_shown(path)}")

    def save_at_end(self, path: Path) -> None:
        """The save when input ends: if ``path`` cannot be written now (the disk filled, the folder went
        away), the game is not lost: it is written to a fallback file, and the error says where."""
        try:
            self.save(path)
        except KassenError as exc:
            fallback = fallback_save(self.fight)
            if fallback is None:
                raise KassenError(f"{exc}; nor could it be written anywhere else") from None
            self.say(f"saved to {_shown(fallback)} instead")
            raise KassenError(f"{exc}: the fight was saved to {_shown(fallback)} instead") from None

    def run(self, answers: Iterator[str]) -> None:
        from kassen.core.fight import DiceRequest
        from kassen.core.report import outcome_text

        path: list[str] = []
        gm = False
        while not self.fight.over:
            pending = self.fight.pending
            if pending is not None:
                self.ask_dice(pending, answers)
                continue
            actor = self.fight.to_move
            if not gm and not self.human(actor):
                done = self.fight.step()
                if not isinstance(done, DiceRequest):
                    self.narrate(done)
                continue
            try:
                menu = self.fight.menu(path, gm=gm, viewer=self.viewer(gm))
            except KassenError as exc:  # a path that went stale (never expected): start the decision again
                self.say(f"kassen: {exc}")
                path, gm = [], False
                continue
            if not path:
                self.say("")
                self.status(gm)
            self.say(menu.prompt + (f"  (after {' > '.join(path)})" if path else ""))
            for i, option in enumerate(menu.options, 1):
                odds = f"  [{option.odds.text()}]" if option.odds is not None else ""
                rule = f" [{option.rule}]" if option.rule else ""
                mark = "" if option.allowed else f"  (not now: {option.why}{rule})"
                more = "" if option.complete else " ..."
                self.say(f"  {i}. {option.label}{more}{odds}{mark}")
            answer = self.next_answer(answers)
            if answer is None:
                return
            word, _, rest = answer.partition(" ")
            try:
                if word.isdigit() and 1 <= int(word) <= len(menu.options):
                    option = menu.options[int(word) - 1]
                    if not option.allowed:
                        rule = f" ({option.rule})" if option.rule else ""
                        self.say(f"kassen: {option.why or option.label + ' is not allowed now'}{rule}")
                    elif option.complete:
                        done = self.fight.choose([*path, option.id], gm=gm)
                        path, gm = [], False
                        if not isinstance(done, DiceRequest):
                            self.narrate(done)
                    else:
                        path.append(option.id)
                elif word == "auto" and not gm:
                    path = []
                    done = self.fight.step()
                    if not isinstance(done, DiceRequest):
                        self.narrate(done)
                elif word == "back":
                    if path:
                        path.pop()
                    else:
                        gm = False
                elif word == "gm":
                    path, gm = [], True
                elif word == "undo":
                    path, gm = [], False
                    undone = self.fight.undo()
                    self.say(f"undone: action {getattr(undone, 'index', len(self.fight.entries)) + 1}")
                elif word == "save" and rest.strip():
                    self.save(Path(rest.strip()))
                elif word == "quit":
                    return
                else:
                    self.say(f"kassen: cannot use {answer[:40]!r} here ({HELP})")
            except KassenError as exc:  # a refused choice is said and asked again; nothing changed
                self.say(f"kassen: {exc}")
        result = self.fight.result
        self.say("")
        self.say(f"Result: {outcome_text(result, self.names)}.")

    def ask_dice(self, pending: Any, answers: Iterator[str]) -> None:
        from kassen.core.report import render_event

        context = ""
        for e in reversed(pending.events):  # the latest event that says something
            lines = [
                x.strip() for x in render_event(self.fight.ruleset, e.to_json(), self.names, verbose=False)
            ]
            said = [x for x in lines if x]
            if said:
                context = f" (after: {said[-1]})"
                break
        self.say(f"Roll a d{pending.sides} (die {pending.index + 1} of this action){context}: faces, or auto")
        answer = self.next_answer(answers)
        if answer is None:
            self.fight.cancel()
            raise _EndOfInput
        if answer == "undo":
            self.fight.cancel()
            self.say("the action waiting for dice is dropped")
            return
        if answer.startswith("save ") and answer[5:].strip():
            try:
                self.save(Path(answer[5:].strip()))  # what is applied so far; the waiting action is not
            except KassenError as exc:
                self.say(f"kassen: {exc}")
            return
        faces: list[int | None] = []
        for word in answer.split():
            if word == "auto":
                faces.append(None)
            elif word.isascii() and word.isdigit() and len(word) <= 4:
                faces.append(int(word))
            else:
                self.say(f"kassen: {word[:20]!r} is not a face (a whole number, or auto)")
                return
        if not faces:
            self.say("kassen: type the faces rolled, separated by spaces, or auto")
            return
        try:
            done = self.fight.roll(faces)
        except KassenError as exc:
            self.say(f"kassen: {exc}")
            return
        if isinstance(done, tuple):
            self.narrate(done)

    def next_answer(self, answers: Iterator[str]) -> str | None:
        if sys.stdin.isatty():
            self.out.write("> ")
            self.out.flush()
        for line in answers:
            text = line.strip()
            if len(text) > MAX_ANSWER:  # said, never cut short (a path cut short is another file)
                self.say(f"kassen: an answer is at most {MAX_ANSWER} characters, not {len(text)}")
                continue
            if text:
                return text
        return None


class _EndOfInput(Exception):
    pass


def _shown(path: Path | str) -> str:
    text = str(path)
    return text if len(text) <= 120 else text[:117] + "..."


def _temporary(path: Path) -> Path:
    """The file a save is written to before it replaces ``path``: beside it (a rename within one
    folder is atomic), with a short name of its own (``path``'s name may be near the longest allowed)."""
    return path.with_name(f".{path.name[:40]}.{os.getpid()}.part")


def write_chronicle(fight: Any, path: Path) -> None:
    """Write ``fight``'s chronicle to ``path`` through a temporary file beside it; anything that stops
    it is one :class:`KassenError` naming the file, and ``path`` is then as it was."""
    import json

    text = json.dumps(fight.to_json(), ensure_ascii=False, indent=1) + "\n"
    try:
        tmp = _temporary(path)
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise KassenError(f"cannot save to {_shown(path)!r}: {reason}") from None


def fallback_save(fight: Any) -> Path | None:
    """Where a save that failed goes instead: ``kassen-save-<time>.json`` in the current folder, else in
    the system's temporary folder; None if neither can be written."""
    import tempfile
    import time

    name = f"kassen-save-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        try:
            write_chronicle(fight, folder / name)
        except (KassenError, OSError):
            continue
        return folder / name
    return None


def check_save(save: Path | None) -> None:
    """``--save``'s file can be written: checked before the game starts, so a session is never played
    to its end to find it cannot be kept. A folder that is not there, a directory, a name too long, a
    read-only or special file system (``/proc``), no permission: each is found by writing there for
    real — the temporary file a save goes through, and the file itself when it does not exist yet —
    then removing what was written (an existing file is left untouched: a save replaces it by a rename
    in its folder, which writing the temporary file proved possible)."""
    if save is None:
        return
    where = _shown(save)
    try:
        if save.is_dir():
            raise KassenError(f"--save {where!r} is a directory, not a file")
        parent = save.parent if str(save.parent) else Path(".")
        if not parent.is_dir():
            raise KassenError(f"--save {where!r}: the directory {_shown(parent)!r} does not exist")
        probes = [_temporary(save)] + ([] if save.exists() else [save])
        for probe in probes:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(fd, b"{}")
            finally:
                os.close(fd)
                os.unlink(probe)
    except OSError as exc:
        raise KassenError(f"--save {where!r}: cannot write there ({exc.strerror or exc})") from None
    except ValueError as exc:  # a NUL byte in the name
        raise KassenError(f"--save {where!r}: {exc}") from None


def _session(fight: Any, humans: list[str], save: Path | None, seed: str) -> None:
    """Play ``fight`` at the terminal; ``seed`` says which seed it plays on. The number is shown only
    when the user chose it: a seed drawn for the table is nobody's to read off the screen (it gives
    every roll to come away); the save keeps it."""
    table = _Table(fight, humans, save, sys.stdout)
    unknown = [h for h in humans if h not in fight.units() and h not in fight.sides() and h != "gm"]
    if unknown:
        known = ", ".join([*fight.sides(), *fight.units()])
        raise KassenError(f"--human {unknown[0]!r} is no side or unit of this fight (known: {known}, gm)")
    table.say(f"{fight.meta.get('scenario', '')} ({seed}; dice: {fight.dice_mode}). {HELP}")
    lines = (line for line in sys.stdin)
    with contextlib.suppress(_EndOfInput):  # end of input: save (below) and stop
        table.run(lines)
    if save is not None:
        table.save_at_end(save)


HumanOption = Annotated[
    list[str] | None,
    typer.Option(
        "--human",
        help="A side or unit played at the table (repeat; default: every unit).",
        metavar="SIDE_OR_UNIT",
    ),
]
SaveOption = Annotated[
    Path | None,
    typer.Option("--save", help="Write the fight's chronicle here when input ends.", metavar="FILE"),
]


def play_command(
    scenario: Annotated[
        str, typer.Argument(help="A bundled scenario (see `kassen scenarios`) or a YAML file.")
    ],
    seed: SeedOption = None,
    human: HumanOption = None,
    dice: Annotated[
        str,
        typer.Option(help="auto: the seeded RNG rolls; table: type the faces rolled.", metavar="auto|table"),
    ] = "auto",
    save: SaveOption = None,
    content: Annotated[
        list[Path] | None, typer.Option("--content", help="A content layer (repeat).", metavar="DIR")
    ] = None,
    policy: PolicyOption = None,
) -> None:
    """Play a fight at the terminal: menus with odds, table dice, undo, save; units not --human are
    decided by their policies (the scenario's, or --policy SIDE=SPEC)."""
    from kassen.core.scenario import open_fight

    if dice not in ("auto", "table"):
        raise KassenError(f"--dice is auto or table, not {dice[:20]!r}")
    policies = side_policies(policy)
    check_save(save)
    mode: Literal["auto", "table"] = "table" if dice == "table" else "auto"
    from kassen.core.rng import fresh_seed

    # a table never plays on the scenario's own seed unless asked: anyone with the file has it
    used = seed if seed is not None else fresh_seed()
    fight = open_fight(scenario, seed=used, content=list(content or []), dice=mode, policies=policies)
    _session(fight, list(human or []), save, f"seed {seed}" if seed is not None else "a fresh random seed")


def resume_command(
    file: Annotated[Path, typer.Argument(help="A saved fight (kassen play --save, or kassen fight --json).")],
    human: HumanOption = None,
    dice: Annotated[str, typer.Option(help="auto or table.", metavar="auto|table")] = "auto",
    save: SaveOption = None,
    content: Annotated[
        list[Path] | None, typer.Option("--content", help="A content layer (repeat).", metavar="DIR")
    ] = None,
    policy: PolicyOption = None,
) -> None:
    """Resume a saved fight where it stopped (replayed and checked first), each side played as it was
    (or as --policy SIDE=SPEC says from now on)."""
    from kassen.content.yamlio import read_text
    from kassen.core.codec import parse_json
    from kassen.core.fight import Fight

    if dice not in ("auto", "table"):
        raise KassenError(f"--dice is auto or table, not {dice[:20]!r}")
    policies = side_policies(policy)
    check_save(save)
    fight = Fight.from_json(
        parse_json(read_text(file, max_bytes=64 * 1024 * 1024), what=str(file)), content=list(content or [])
    )
    fight.dice_mode = "table" if dice == "table" else "auto"
    if policy:
        fight.use_policies({**fight.policy_specs(), **policies})
    _session(fight, list(human or []), save, "its saved seed")


def register(app: typer.Typer) -> None:
    app.command("play")(user_errors(play_command))
    app.command("resume")(user_errors(resume_command))
