"""Helpers for the roll-and-keep tests: characters, duel states and an RNG whose faces are scripted."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from kassen.core.events import Event
from kassen.core.rng import Rng
from kassen.l5r.character import Character, FighterId, Weapon
from kassen.l5r.state import DuelState, Fighter, Phase
from kassen.l5r.tables import L5Tables, load_tables


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
    return load_tables()


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
    tables_: L5Tables | None = None,
    **kw: Any,
) -> DuelState:
    fs = tuple(f if isinstance(f, Fighter) else Fighter(f) for f in fighters)
    order = tuple(f.name for f in fs)
    return DuelState(
        tables=tables_ or load_tables(),
        fighters=fs,
        turn=turn,
        phase=phase,
        act_order=order,
        declare_order=tuple(reversed(order)),
        cursor=len(order),
        **kw,
    )


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: Iterable[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def with_wounds(f: Fighter, wounds: int) -> Fighter:
    return replace(f, wounds=wounds)
