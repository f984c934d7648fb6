"""Helpers for the roll-and-keep tests: characters, duel states, dice whose faces are scripted, and the
ruleset's working copy (:class:`~kassen.l5r.turn.L5Turn`) run by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import pytest

from kassen.core.engine import drain
from kassen.core.events import Event
from kassen.core.rng import DieSource, Rng
from kassen.l5r.actions import Action
from kassen.l5r.character import Character, FighterId, Weapon
from kassen.l5r.content import bundled_tables
from kassen.l5r.ruleset import RULESET
from kassen.l5r.state import DuelState, Fighter, Phase
from kassen.l5r.tables import L5Tables
from kassen.l5r.turn import L5Turn


class ScriptedRng(Rng):
    """An Rng whose d10 faces are given in order (every die drawn through ``die``)."""

    __slots__ = ("faces", "strict")

    def __init__(self, faces: Iterable[int] = (), *, strict: bool = True) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.strict = strict

    def die(self, sides: int) -> int:
        if not self.faces:
            if not self.strict:  # then seeded dice (for what follows the part under test)
                return super().die(sides)
            raise AssertionError("the test ran out of scripted faces")
        face = self.faces.pop(0)
        assert 1 <= face <= sides
        return face


@pytest.fixture(scope="session")
def tables() -> L5Tables:
    return bundled_tables()


def char(name: str, side: str | None = None, **kw: Any) -> Character:
    """A character with every Trait 2 (Earth 2), Void 2, kenjutsu 3, a katana, no armor."""
    base: dict[str, Any] = {"skills": (("kenjutsu", 3),), "weapon": Weapon("katana", 3, 2, "kenjutsu")}
    base.update(kw)
    if "earth" in base:
        e = base.pop("earth")
        base["stamina"] = base["willpower"] = e
    return Character(FighterId(name), side=side or name, **base)


def duel(
    *fighters: Fighter | Character,
    turn: int = 1,
    phase: Phase = Phase.RESOLVE,
    **kw: Any,
) -> DuelState:
    fs = tuple(f if isinstance(f, Fighter) else Fighter(f) for f in fighters)
    order = tuple(f.name for f in fs)
    return DuelState(
        fighters=fs,
        turn=turn,
        phase=phase,
        act_order=order,
        declare_order=tuple(reversed(order)),
        cursor=len(order),
        **kw,
    )


def play(
    state: DuelState,
    rule: Callable[..., Any],
    /,
    *args: Any,
    dice: DieSource | None = None,
    tables: L5Tables | None = None,
    **kw: Any,
) -> tuple[DuelState, list[Event]]:
    """Run one rule (``rule(turn, *args, **kw)``) in a working copy of ``state``: the new state and the
    events it logged. ``dice`` default: none may be rolled."""
    turn = L5Turn(state, dice if dice is not None else ScriptedRng(), tables or bundled_tables())
    rule(turn, *args, **kw)
    return turn.state, list(turn.events)


def apply(
    state: DuelState, action: Action, dice: DieSource, tables: L5Tables | None = None
) -> tuple[DuelState, list[Event]]:
    """What the core does with one action: resolve it, then drain the automatic follow-ups."""
    turn = RULESET.start(state, dice, tables or bundled_tables())
    RULESET.resolve(turn, action)
    drain(lambda: RULESET.follow_up(turn))
    return turn.state, list(turn.events)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: Iterable[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def with_wounds(f: Fighter, wounds: int) -> Fighter:
    return replace(f, wounds=wounds)
