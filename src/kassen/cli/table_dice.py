"""Dice rolled at the table, typed at the terminal.

Each prompt says who rolls, for what, which dice and how many are left — ``Genzaburo: roll 2d10 —
Genzaburo's Horizontal Cut → Oni: 2d10 […, …] + 4 = … vs Defense 12: … (2 dice left)``, read from the
ruleset's own words by :func:`kassen.core.rolls.next_roll`, through the terminal's view — and what the
action did up to that roll is told as soon as its faces are in (not only when the whole action is).
The faces go in one or several at a time; ``auto`` lets the seeded RNG roll a die. Too many faces for
what is left of the action are refused with how many are left; a face the die does not have is refused;
either way nothing is rolled and the prompt comes again. ``undo``, ``back``, ``gm``, ``save PATH`` and
``quit`` work here too (the action waiting is dropped, except by ``save``, which saves what was played).
"""

from __future__ import annotations

__all__ = ["ask_dice"]

import unicodedata
from pathlib import Path
from typing import Any

from kassen.cli.common import error_text
from kassen.cli.table import EndOfInput, Table
from kassen.core.errors import KassenError, TypedDiceError
from kassen.i18n import N_, _, ngettext

DICE_HELP = N_(
    "the faces rolled (several at once, separated by spaces), auto, undo, back, gm, save PATH, quit"
)


def ask_dice(table: Table, pending: Any) -> None:
    from kassen.core.rolls import next_roll

    fight = table.fight
    table.narrate(pending.events[table.told :])  # what the action did up to this roll
    table.told = len(pending.events)
    roll = next_roll(fight, table.viewer)
    assert roll is not None
    table.say(_("{roll}: faces, or auto").format(roll=roll.words()))
    answer = table.answers.ask()
    if answer is None:
        raise EndOfInput
    word, _sep, rest = answer.partition(" ")
    if word in ("undo", "back", "gm", "quit"):
        mine = pending.by is not None or table.human(fight.to_move)
        if word == "undo" or (word == "back" and not mine):
            table.undo()
            return
        fight.cancel()
        table.told = 0
        if word == "quit":
            raise EndOfInput
        if word == "gm":
            table.path, table.words, table.gm = [], [], True
            table.say(_("the action waiting for dice is dropped: the GM's moves"))
        else:
            path, words, gm = table.chosen
            table.path, table.words, table.gm = path[:-1], words[:-1], gm
            table.say(
                _("the action waiting for dice is dropped: back to its last choice")
                if path
                else _(
                    "the action waiting for dice is dropped: back to the decision (the policy had made it)"
                )
            )
        return
    if word == "save":
        if rest.strip():
            try:
                table.save(Path(rest.strip()))  # what is played so far; the waiting action is not
            except KassenError as exc:
                table.say(_("kassen: {error}").format(error=error_text(exc)))
        else:
            table.say(_("kassen: save where? save PATH"))
        return
    faces: list[int | None] = []
    # a Japanese keyboard types full-width digits and spaces (１　２): the same faces
    for w in unicodedata.normalize("NFKC", answer).split():
        if w == "auto":
            faces.append(None)
        elif w.isascii() and w.isdigit() and len(w) <= 4:
            faces.append(int(w))
        else:
            table.say(
                _("kassen: {answer} is not a face ({help})").format(answer=repr(w[:20]), help=_(DICE_HELP))
            )
            return
    try:
        done = fight.roll(faces)
    except TypedDiceError as exc:
        table.say(_("kassen: {error}").format(error=_too_many(fight, faces) or error_text(exc)))
        return
    except KassenError as exc:
        table.say(_("kassen: {error}").format(error=error_text(exc)))
        return
    table.played(done)


def _too_many(fight: Any, faces: list[int | None]) -> str:
    """Why ``faces`` are too many for what is left of the waiting action, with how many are left; ""
    when that is not what is wrong with them."""
    from kassen.core.rolls import dice_left

    try:
        left = dice_left(fight, faces)
    except KassenError:
        return ""
    if left is None or left >= len(faces):
        return ""
    return ngettext(
        "too many faces: {typed} typed, but only {left} die is left to roll in this action "
        "(nothing was rolled)",
        "too many faces: {typed} typed, but only {left} dice are left to roll in this action "
        "(nothing was rolled)",
        left,
    ).format(typed=len(faces), left=left)
