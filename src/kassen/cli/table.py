"""One game at the terminal: the turn order, the menus, the narration, undo, the GM's moves, table dice.

Whoever sits at the terminal sees the fight through one view. With ``--human SIDE`` (or its units) it is
that side's: the status, the menus' odds, the narration of every action — the other side's included —
and the dice prompts are all read through the side's view (:func:`kassen.core.report.narrate`, the
function the web's player screens use), so a value the visibility table hides from the side never
reaches the screen. Without ``--human`` (or with units of several sides) the terminal is the GM's
table: the narration is the GM's, and each menu's status is the deciding side's (a hot seat).

``undo`` steps back to the previous decision made at the terminal, over the actions the policies
played since (they would play them again at once), and says what it took back.
"""

from __future__ import annotations

__all__ = ["HELP", "Table"]

from pathlib import Path
from typing import Any, TextIO

from kassen.cli.answers import Answers
from kassen.cli.common import error_text
from kassen.cli.saves import fallback_save, shown, write_chronicle
from kassen.core.errors import KassenError
from kassen.core.view import GM_VIEW, Viewer
from kassen.i18n import N_, _, ngettext, translate_text

HELP = N_("answers: a number, auto, back, undo, gm, save PATH, quit, ? (what is not allowed now, and why)")
#: A step whose options are this many whole numbers or more (Wounds, HP) asks for the number itself.
TYPED_VALUES = 13


class EndOfInput(Exception):
    """Input ended (Ctrl-D), or ``quit``: the session saves (with ``--save``) and stops."""


class Table:
    """One terminal session over a fight (see the module notes)."""

    def __init__(
        self, fight: Any, humans: list[str], save: Path | None, out: TextIO, answers: Answers
    ) -> None:
        self.fight = fight
        self.humans = set(humans)
        self.save_to = save
        self.out = out
        self.answers = answers
        self.names = fight.ruleset.names(fight.initial_state)
        self.side = self._own_side()
        self.path: list[str] = []
        #: the labels of the choices in ``path``, as shown: the prompt's "(after ...)" says them, not ids
        self.words: list[str] = []
        self.gm = False
        self.told = 0  # the events of the action waiting for dice already told
        #: the path, its words and whether of the GM's moves, of the last decision made here: ``back`` at
        #: its dice
        self.chosen: tuple[list[str], list[str], bool] = ([], [], False)

    # -- who is at the terminal ----------------------------------------------------------------------
    def _own_side(self) -> str | None:
        """The one side whose view the terminal shows: the side of every --human given (a side, or
        its units); None for the GM's table (no --human, the GM, or units of several sides)."""
        if not self.humans or "gm" in self.humans:
            return None
        sides = {h if h in self.fight.sides() else self.fight.side_of(h) for h in self.humans}
        sides.discard(None)
        return next(iter(sides)) if len(sides) == 1 else None

    @property
    def viewer(self) -> Viewer:
        """The view everything at this terminal is read through (the GM's when no one side plays)."""
        return GM_VIEW if self.side is None else Viewer(self.side)

    def human(self, actor: Any) -> bool:
        if not self.humans:
            return True
        if actor is None:
            return False
        return actor.id in self.humans or (actor.side is not None and actor.side in self.humans)

    def mine(self, entry: Any) -> bool:
        """An action decided at the terminal (a GM's move typed here, or a human's decision)."""
        return bool(entry.out_of_turn) or self.human(entry.actor)

    def status_viewer(self, gm: bool) -> Viewer:
        """Whose status the menu shows: the terminal's side; at the GM's table the deciding unit's side
        (a hot seat), or everything for the GM's own moves."""
        if self.side is not None:
            return self.viewer
        actor = self.fight.to_move
        if gm or actor is None or actor.kind != "unit" or not actor.side:
            return GM_VIEW
        return Viewer(actor.side)

    # -- saying things -------------------------------------------------------------------------------
    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")

    def narrate(self, events: Any) -> None:
        from kassen.core.report import narrate

        for line in narrate(self.fight, events, self.viewer):
            self.say(line)

    def who(self, actor: Any) -> str:
        if actor is None:
            return _("nobody")
        if actor.kind == "gm":
            return _("the GM")
        return str(self.names.get(actor.id, actor.id))

    def save(self, path: Path) -> None:
        """Write the chronicle to ``path`` (through a temporary file: never a half-written save), with
        the dice mode the table plays in and who plays at it (``--human``), which ``kassen resume``
        keeps: a game saved by one side's player resumes in that side's view, not the GM's."""
        self.fight.meta["dice"] = self.fight.dice_mode
        self.fight.meta["humans"] = sorted(self.humans)
        write_chronicle(self.fight, path)
        self.say(_("saved to {path}").format(path=shown(path)))

    def save_at_end(self, path: Path) -> None:
        """The save when the game stops: if ``path`` cannot be written now (the disk filled, the folder
        went away), the game is not lost: it is written to a fallback file, and the error says where."""
        if self.fight.pending is not None:
            self.fight.cancel()  # the action waiting for dice was not played: it is not saved
        try:
            self.save(path)
        except KassenError as exc:
            fallback = fallback_save(self.fight)
            if fallback is None:
                raise KassenError(
                    _("{error}; nor could it be written anywhere else").format(error=error_text(exc))
                ) from None
            self.say(_("saved to {path} instead").format(path=shown(fallback)))
            raise KassenError(
                _("{error}: the fight was saved to {path} instead").format(
                    error=error_text(exc), path=shown(fallback)
                )
            ) from None

    # -- the game ------------------------------------------------------------------------------------
    def run(self) -> None:
        from kassen.i18n import speaking_for

        # the whole game in the ruleset's own words (odds keys, data words: Wounds is 戰力 in Sengoku)
        with speaking_for(self.fight.ruleset.info.name):
            self._run()

    def _run(self) -> None:
        from kassen.core.fight import DiceRequest
        from kassen.core.report import outcome_text

        while not self.fight.over:
            pending = self.fight.pending
            if pending is not None:
                from kassen.cli.table_dice import ask_dice

                ask_dice(self, pending)
                continue
            actor = self.fight.to_move
            if not self.gm and not self.human(actor):
                self.played(self.fight.step())
                continue
            self.decide(DiceRequest)
        result = self.fight.result
        self.say("")
        self.say(_("Result: {outcome}.").format(outcome=outcome_text(result, self.names)))

    def played(self, done: Any) -> None:
        """Tell what an action did (or, waiting for dice, leave it to the dice prompt)."""
        from kassen.core.fight import DiceRequest

        if isinstance(done, DiceRequest):
            return
        self.narrate(done[self.told :])
        self.told = 0

    def decide(self, waiting: type) -> None:
        """One answer to the menu of whoever decides now (or of the GM's moves)."""
        try:
            menu = self.fight.menu(self.path, gm=self.gm, viewer=self.status_viewer(self.gm))
        except KassenError as exc:  # a path that went stale (never expected): start the decision again
            self.say(_("kassen: {error}").format(error=error_text(exc)))
            self.path, self.words, self.gm = [], [], False
            return
        if not self.path:
            self.say("")
            for line in self.fight.status(self.status_viewer(self.gm)):
                self.say(f"  {line}")
        options = [o for o in menu.options if o.allowed] + [o for o in menu.options if not o.allowed]
        allowed = sum(1 for o in options if o.allowed)
        values = _typed_values(options)
        prompt = translate_text(menu.prompt)
        if self.path:
            prompt += "  " + _("(after {path})").format(path=" > ".join(self.words))
        self.say(prompt)
        if values is not None:
            low, high = values
            self.say(
                "  " + _("type the value: a whole number from {low} to {high}").format(low=low, high=high)
            )
        else:
            for i, option in enumerate(options[:allowed], 1):
                self.say(f"  {i}. {_shown_option(option)}")
        if len(options) > allowed:
            n = len(options) - allowed
            self.say(
                "  "
                + ngettext(
                    "… and {n} not allowed now: ? shows it and why",
                    "… and {n} not allowed now: ? shows them and why",
                    n,
                ).format(n=n)
            )
        answer = self.answers.ask()
        if answer is None:
            raise EndOfInput
        word, _sep, rest = answer.partition(" ")
        try:
            self.answer(menu, options, allowed, values, answer, word, rest)
        except KassenError as exc:  # a refused choice is said and asked again; nothing changed
            self.say(_("kassen: {error}").format(error=error_text(exc)))

    def answer(
        self,
        menu: Any,
        options: list[Any],
        allowed: int,
        values: tuple[int, int] | None,
        answer: str,
        word: str,
        rest: str,
    ) -> None:
        chosen = None
        if values is not None and _whole(word):
            chosen = next((o for o in options if o.id == word), None)
            if chosen is None:
                raise KassenError(
                    _("{value} is not one of the values here ({low} to {high})").format(
                        value=word, low=values[0], high=values[1]
                    )
                )
        elif word.isdigit() and 1 <= int(word) <= len(options):
            chosen = options[int(word) - 1]
        if chosen is not None:
            self.choose(chosen)
        elif word in ("?", "why"):
            for i, option in enumerate(options[allowed:], allowed + 1):
                rule = f" [{option.rule}]" if option.rule else ""
                self.say(
                    f"  {i}. "
                    + _("{label}  (not now: {why})").format(
                        label=translate_text(option.label), why=translate_text(option.why) + rule
                    )
                )
            if allowed == len(options):
                self.say("  " + _("everything on this menu is allowed now"))
        elif word == "auto" and not self.gm:
            self.path, self.words = [], []
            self.chosen = (
                [],
                [],
                False,
            )  # ``back`` at its dice: the decision's start, the policy's path unseen
            self.played(self.fight.step())
        elif word == "back":
            if self.path:
                self.path.pop()
                self.words.pop()
            else:
                self.gm = False
        elif word == "gm":
            self.path, self.words, self.gm = [], [], True
        elif word == "undo":
            self.undo()
        elif word == "save" and rest.strip():
            self.save(Path(rest.strip()))
        elif word == "quit":
            raise EndOfInput
        else:
            self.say(
                _("kassen: cannot use {answer} here ({help})").format(answer=repr(answer[:40]), help=_(HELP))
            )

    def choose(self, option: Any) -> None:
        if not option.allowed:
            rule = f" ({option.rule})" if option.rule else ""
            why = (
                translate_text(option.why)
                if option.why
                else _("{label} is not allowed now").format(label=translate_text(option.label))
            )
            self.say(_("kassen: {error}").format(error=why + rule))
        elif option.complete:
            done = self.fight.choose([*self.path, option.id], gm=self.gm)
            self.chosen = [*self.path, option.id], [*self.words, translate_text(option.label)], self.gm
            self.path, self.words, self.gm = [], [], False
            self.played(done)
        else:
            self.path.append(option.id)
            self.words.append(translate_text(option.label))

    def undo(self) -> None:
        """Back to the previous decision made at the terminal: the action waiting for dice is dropped
        first (if it was a decision made here, that is as far as undo goes), then every action the
        policies played since that decision, then the decision itself."""
        fight = self.fight
        building = bool(self.path)
        self.path, self.words, self.gm, self.told = [], [], False, 0
        if building and fight.pending is None:
            # the choices of the decision being built are what undo takes back first: nothing was played
            self.say(_("the choices so far are dropped: the decision starts again"))
            return
        pending = fight.pending
        if pending is not None:
            fight.cancel()
            self.say(_("the action waiting for dice is dropped"))
            if pending.by is not None or self.human(fight.to_move):
                return  # it was a decision made here: decided again now
        entries = fight.entries
        if not any(self.mine(e) for e in entries):
            self.say(_("kassen: nothing to undo: no decision was made at this table yet"))
            return
        taken = []
        while True:
            entry = fight.undo()
            taken.append(entry)
            if self.mine(entry):
                break
        own = taken[-1]
        others = taken[:-1]
        number, decider = own.index + 1, self.who(own.actor)
        if others:
            who = _(", ").join(dict.fromkeys(self.who(e.actor) for e in reversed(others)))
            said = ngettext(
                "undone: action {number} ({who}'s decision) and the action played by the policies after it "
                "({others})",
                "undone: action {number} ({who}'s decision) and the {n} actions played by the policies "
                "after it ({others})",
                len(others),
            ).format(number=number, who=decider, n=len(others), others=who)
        else:
            said = _("undone: action {number} ({who}'s decision)").format(number=number, who=decider)
        self.say(said)


def _whole(word: str) -> bool:
    return word.removeprefix("-").isdigit() and len(word) <= 9


def _typed_values(options: list[Any]) -> tuple[int, int] | None:
    """(lowest, highest) when every option of a menu is a whole number to set (a unit's Wounds, a
    fighter's HP), so many that the number is asked for rather than listed; else None."""
    if len(options) < TYPED_VALUES or not all(o.allowed and o.complete and _whole(o.id) for o in options):
        return None
    numbers = [int(o.id) for o in options]
    return min(numbers), max(numbers)


def _shown_option(option: Any) -> str:
    odds = f"  [{option.odds.text()}]" if option.odds is not None else ""
    more = "" if option.complete else " ..."
    return f"{translate_text(option.label)}{more}{odds}"
