"""What one side receives from a fight through the core — everything a client shows a player — gathered
as plain JSON, so that two fights can be compared whole (``test_fair_table``).

A side receives: its view (the state without what it may not see, the log with its events redacted and
its own actions, its view id, who decides, the result), the status lines above a menu, the log told in
words (plain and with every step of ``--verbose``), an action waiting for typed dice (the redacted
events and words so far, the die wanted), its own menus walked step by step (each option's label,
odds, and why it is not allowed) or, when it does not decide, the refusal of a menu, and the error each
option that is not allowed gives when chosen anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kassen.core.errors import KassenError
from kassen.core.fight import DiceRequest, Fight
from kassen.core.menu import decide
from kassen.core.report import render_event
from kassen.core.rng import Rng
from kassen.core.view import Viewer, redact_event, visibility_of

#: Most menus walked in one state, and how deep a path goes.
MAX_MENUS = 40
MAX_DEPTH = 6


def _error(call: Callable[[], Any]) -> str | None:
    try:
        call()
    except KassenError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _words(fight: Fight[Any, Any], events: list[dict[str, Any]]) -> list[list[str]]:
    names = fight.ruleset.names(fight.initial_state)
    rs = fight.ruleset
    out = []
    for e in events:
        out.append([*render_event(rs, e, names, verbose=False), *render_event(rs, e, names, verbose=True)])
    return out


def _menus(fight: Fight[Any, Any], viewer: Viewer) -> list[Any]:
    """The viewer's menus walked breadth first from the empty path (at most :data:`MAX_MENUS`), with
    the refusal each option not allowed gives when chosen anyway; or the refusal of its menu."""
    refused = _error(lambda: fight.menu([], viewer=viewer))
    if refused is not None:
        return [refused]
    out: list[Any] = []
    queue: list[list[str]] = [[]]
    while queue and len(out) < MAX_MENUS:
        path = queue.pop(0)
        menu = fight.menu(path, viewer=viewer)
        out.append(menu.to_json())
        for option in menu.options:
            step = [*path, option.id]
            if not option.allowed:
                out.append(_error(lambda step=step: decide(fight.ruleset, fight.state, fight.tables, step)))
            elif not option.complete and len(step) < MAX_DEPTH:
                queue.append(step)
    return out


def received(fight: Fight[Any, Any], side: str) -> dict[str, Any]:
    """Everything ``side`` receives from ``fight`` now (see the module notes)."""
    viewer = Viewer(side)
    view = fight.view(viewer)
    rules = visibility_of(fight.ruleset, fight.tables)
    pending = fight.pending
    waiting = None
    if pending is not None:
        events = [redact_event(e.to_json(), rules, viewer, fight.side_of) for e in pending.events]
        words = _words(fight, events)
        waiting = {"sides": pending.sides, "index": pending.index, "events": events, "words": words}
    return {
        "view": view,
        "status": list(fight.status(viewer)),
        "words": [_words(fight, entry["events"]) for entry in view["log"]],
        "pending": waiting,
        "menus": _menus(fight, viewer) if pending is None else [],
        "gm_menu": _error(lambda: fight.menu(gm=True, viewer=viewer)),
        "bad_path": _error(lambda: fight.menu(["no-such-choice"], viewer=viewer)),
    }


class TableDice:
    """Faces typed at the table from a generator of the test's own: two fights given the same
    ``TableDice`` seed get the same faces for the same dice asked in the same order, whatever their own
    seeds (which then roll nothing)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def play(self, fight: Fight[Any, Any], action: Any) -> None:
        done = fight.play(action)
        while isinstance(done, DiceRequest):
            done = fight.roll([self.rng.die(done.sides)])
