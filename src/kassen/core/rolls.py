"""What the dice asked for at the table are for: who rolls, for what, which dice and how many are left.

In table dice mode an action waits (:attr:`~kassen.core.fight.Fight.pending`) for one die at a time: the
core knows only the die's sides and its place in the action. :func:`next_roll` says more, for any
ruleset, without asking the ruleset anything: it runs the waiting action on a copy (the action's
resolution is a pure function of the snapshot and the faces) with the faces typed so far and then
*probe* faces, and watches where the ruleset's events fall between the dice. The dice rolled with no
event between them are one roll (the two d10 of a check, a roll-and-keep pool); the first event logged
after them is what the roll was for (an attack, an initiative roll, a popularity check). It runs twice,
once with every probe die showing 1 and once showing the die's next-to-highest face: a field of that
event that reads the same both times was known before the roll (the attacker, the target, the
modifier, the Defense), a field that differs is the roll's result and is never shown. The event is
read as the viewer may see it (:func:`~kassen.core.view.redact_event`): a roll never tells what the
viewer may not know.

The count is of the dice the roll needs at least: a die that explodes (a roll-and-keep 10) adds one.
"""

from __future__ import annotations

__all__ = ["Roll", "dice_left", "next_roll"]


import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from kassen.core.engine import drain
from kassen.core.errors import KassenError
from kassen.core.rng import Rng
from kassen.core.view import GM_VIEW, Viewer, redact_event, visibility_of

#: The most dice a probe rolls before it gives up on finding the end of a roll (a pool of 1000 dice is
#: beyond any ruleset; the typed faces of one action are capped lower than this).
_MAX_PROBE = 1200


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll the table is asked for: ``count`` dice of ``sides`` sides in all, of which ``typed``
    are already in (so ``left`` to type); ``kind`` is the kind of the event it leads to (``attack``,
    ``initiative``), ``roller`` the name of the unit it is first about (who rolls), ``text`` the
    ruleset's own words for that event with every word the dice decide left out (``…``)."""

    sides: int
    count: int
    typed: int
    kind: str = ""
    roller: str = ""
    text: str = ""

    @property
    def left(self) -> int:
        return self.count - self.typed

    @property
    def dice(self) -> str:
        """``2d10``."""
        return f"{self.count}d{self.sides}"

    def words(self) -> str:
        """``Genzaburo: roll 2d10 — Genzaburo's Horizontal Cut → Oni: 2d10 … + 4 = … vs Defense 12: …
        (2 dice left)``."""
        from kassen.i18n import _, ngettext, translate_text

        if self.text:
            what = f" — {self.text}"
        elif self.kind:
            what = _(" for the {event}").format(event=translate_text(self.kind.replace("_", " ")))
        else:
            what = ""
        left = ngettext("{n} die left", "{n} dice left", self.left).format(n=self.left)
        if self.typed:
            left = _("{left}, {typed} in").format(left=left, typed=self.typed)
        if self.roller:
            return _("{who}: roll {dice}{what} ({left})").format(
                who=self.roller, dice=self.dice, what=what, left=left
            )
        return _("roll {dice}{what} ({left})").format(dice=self.dice, what=what, left=left)


class _Done(Exception):
    """The probe has seen the roll end (an event after its dice, or another roll)."""


class _ProbeDice:
    """The faces typed so far, then probe faces; records how many events each die came after."""

    __slots__ = ("after", "faces", "fill", "rng", "sides", "turn")

    def __init__(self, faces: Sequence[int | None], rng: Rng, fill: Callable[[int, int], int]) -> None:
        self.faces = tuple(faces)
        self.rng = rng
        self.fill = fill
        self.after: list[int] = []  # per die: the events logged before it
        self.sides: list[int] = []
        self.turn: Any = None

    def die(self, sides: int) -> int:
        i = len(self.after)
        logged = len(self.turn.events) if self.turn is not None else 0
        if i >= len(self.faces):
            first = len(self.faces)
            if i > first and logged != self.after[first]:
                raise _Done  # an event came between: the roll asked for has ended
            if i >= _MAX_PROBE:
                raise _Done
        self.after.append(logged)
        self.sides.append(sides)
        if i < len(self.faces):
            face = self.faces[i]
            return self.rng.die(sides) if face is None else face
        return self.fill(sides, i)


def _probe(fight: Any, action: Any, faces: tuple[int | None, ...], fill: Callable[[int, int], int]) -> Any:
    """Run ``action`` on a copy of the fight's snapshot with ``faces`` then probe faces; the dice seen
    and the events logged."""
    snapshot = fight.snapshot
    dice = _ProbeDice(faces, Rng.from_state(snapshot.rng), fill)
    resolver = fight.ruleset
    turn = resolver.start(snapshot.state, dice, fight.tables)
    dice.turn = turn
    try:
        resolver.resolve(turn, action)
        drain(lambda: resolver.follow_up(turn))
    except _Done:
        pass
    except KassenError:
        pass  # the probe's faces led somewhere the rules refuse: what was seen so far stands
    return dice, tuple(turn.events)


def _middle(sides: int, i: int) -> int:
    """A face from the middle of the die, alternating so that two dice never show a double: 5, 6, 5 ..."""
    return max(1, min(sides, sides // 2 + i % 2))


def _lower(sides: int, i: int) -> int:
    return max(1, min(sides, sides // 2 - 1 + i % 2))


def _ones(sides: int, i: int) -> int:
    return 1


def _high(sides: int, i: int) -> int:
    return max(1, sides - 1)


def _top(sides: int, i: int) -> int:
    return sides


def _upper(sides: int, i: int) -> int:
    return max(1, min(sides, sides // 2 + 1 + i % 2))


def _names(fight: Any) -> tuple[Mapping[str, str], set[str]]:
    names = dict(fight.ruleset.names(fight.initial_state))
    units = set(fight.units())
    return names, units | {names.get(u, u) for u in units}


def next_roll(fight: Any, viewer: Viewer = GM_VIEW) -> Roll | None:
    """The roll the fight's waiting action asks for now, as ``viewer`` may see it; None when no
    action waits for dice."""
    pending = fight.pending
    if pending is None:
        return None
    faces = tuple(pending.faces)
    # the count from faces in the middle of each die (no fumble, no explosion, no double); the words
    # from what reads the same whatever the dice show
    probes = [_probe(fight, pending.action, faces, fill) for fill in _FILLS]
    middle = probes[0][0]
    at = len(faces)
    if len(middle.after) <= at:  # the probe could not reach the die asked for: the die alone
        return Roll(pending.sides, 1, 0)
    logged = middle.after[at]
    sides = middle.sides[at]
    start = at
    # one roll is the dice of one kind with no event between (a d100 on the critical mistake table
    # right after the check's 2d10 is a roll of its own)
    while start > 0 and middle.after[start - 1] == logged and middle.sides[start - 1] == sides:
        start -= 1
    # the fewest dice any probe rolled before an event came: a roll that other dice may follow with
    # no event between (an answer to an attack that hits) is told when it comes
    count = min(_run(dice, start, logged, sides) for dice, _ in probes if len(dice.after) > at)
    firsts = [events[logged] for _, events in probes if len(events) > logged]
    if not firsts:
        return Roll(pending.sides, count, at - start)
    kinds = [e.kind for e in firsts]
    kind = max(kinds, key=lambda k: (kinds.count(k), k == kinds[0]))
    rules = visibility_of(fight.ruleset, fight.tables)
    seen = [redact_event(e.to_json(), rules, viewer, fight.side_of) for e in firsts]
    if len(seen) < 2:  # nothing to tell the roll's results from what was known before it
        return Roll(pending.sides, count, at - start, kind)
    names, known = _names(fight)
    roller = ""
    for key, value in seen[0].get("data", {}).items():
        same = all(d.get("data", {}).get(key) == value for d in seen if d.get("kind") == seen[0].get("kind"))
        if isinstance(value, str) and value in known and same:
            roller = names.get(value, value)
            break
    # every probe's words, whatever event its dice led to: a word they all share was not the dice's
    lines = [_first_line(fight, e, names) for e in seen]
    return Roll(pending.sides, count, at - start, kind, roller, _common(lines))


def _run(dice: _ProbeDice, start: int, logged: int, sides: int) -> int:
    """How many dice of ``sides`` sides from ``start`` on came after ``logged`` events and no more."""
    after = dice.after
    n = 0
    while start + n < len(after) and after[start + n] == logged and dice.sides[start + n] == sides:
        n += 1
    return n


def _first_line(fight: Any, event: Mapping[str, Any], names: Mapping[str, str]) -> str:
    from kassen.core.report import render_event

    for line in render_event(fight.ruleset, event, names, verbose=False):
        text = _RULE_TAG.sub("", line.strip())
        if text:
            return text
    return ""


def _common(lines: Sequence[str]) -> str:
    """The words every one of ``lines`` has, in order, ``…`` where they differ: the same event told
    with different dice keeps only what the dice did not decide."""
    if not lines or not all(lines):
        return ""
    kept: list[str | None] = list(_TOKEN.findall(lines[0]))
    for other in lines[1:]:
        words = _TOKEN.findall(other)
        matcher = SequenceMatcher(None, [w or "" for w in kept], words, autojunk=False)
        merged: list[str | None] = []
        for op, i1, i2, _, _ in matcher.get_opcodes():
            if op == "equal":
                merged.extend(kept[i1:i2])
            elif not merged or merged[-1] is not None:
                merged.append(None)
        kept = merged
    out = "".join("…" if w is None else w for w in kept)
    out = re.sub(r"\s+", " ", out)
    # dice told apart by signs only (``… + … + …``, ``[…, …]``) are one unknown
    out = re.sub(r"…(?:[\s+\-,=×*/]*…)+", "…", out)
    return out.strip(" :;,-")


_TOKEN = re.compile(r"\s+|[^\s\[\](),;:]+|[\[\](),;:]")
_RULE_TAG = re.compile(r"\s+\[[A-Za-z0-9][A-Za-z0-9._\-]*(?:, ?[A-Za-z0-9._\-]+)*\]$")


#: The probes' faces: the middle first (its dice give the count), then low, high and the extremes.
_FILLS = (_middle, _upper, _lower, _ones, _high, _top)


def dice_left(fight: Any, faces: Sequence[int | None]) -> int | None:
    """How many dice the waiting action rolls after the faces typed so far, had ``faces`` been typed
    next: None when it would need more than ``faces`` (so they are not too many)."""
    pending = fight.pending
    if pending is None:
        return None
    given = (*pending.faces, *faces)
    dice, _ = _probe(fight, pending.action, given, _middle)
    rolled = len(dice.after)
    return None if rolled > len(given) else rolled - len(pending.faces)
