"""Helpers for the arena tests: scripted dice, fighters and one-action application."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from kassen.arena.bout import RULESET, Action, Begin, BoutState, new_bout
from kassen.arena.fighter import Fighter, FighterState, Weapon, build_fighter
from kassen.arena.terms import DamageType, MatchFormat
from kassen.core.events import Event
from kassen.core.rng import Rng


class ScriptedRng(Rng):
    """An Rng whose dice are given in advance; running out is a test failure."""

    __slots__ = ("faces",)

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def die(self, sides: int) -> int:
        assert self.faces, f"no scripted face left for a d{sides}"
        face = self.faces.pop(0)
        assert 1 <= face <= sides, f"{face} is not a face of a d{sides}"
        return face


def fighter(fid: str, side: str, **kw: Any) -> Fighter:
    """A plain fighter (:func:`build_fighter`: every attribute 10 unless given, the rest from the data's
    fighter defaults); a club (1d6+0 crushing, no ST table) by default."""
    kw.setdefault("weapon", Weapon("club", "none", 1, 0, DamageType.CRUSHING))
    return build_fighter(fid, side, name=fid.title(), **kw)


def bout(*fighters: Fighter, format: MatchFormat = MatchFormat.FIGHT, **kw: Any) -> BoutState:
    return new_bout(list(fighters), format=format, **kw)


def step(state: BoutState, action: Action, faces: Sequence[int] = ()) -> tuple[BoutState, list[Event]]:
    """Apply one action with exactly ``faces`` as the dice (all must be used)."""
    rng = ScriptedRng(faces)
    new, events = RULESET.apply(state, action, rng)
    assert not rng.faces, f"unused faces {rng.faces}"
    return new, list(events)


def begun(*fighters: Fighter, faces: Sequence[int] = (), **kw: Any) -> BoutState:
    state, _ = step(bout(*fighters, **kw), Begin(), faces)
    return state


def edit(state: BoutState, fid: str, **changes: Any) -> BoutState:
    """The state with fighter ``fid`` changed."""
    f = state.fighter(fid)
    new: FighterState = replace(f, **changes)
    return replace(state, fighters=tuple(new if x.id == fid else x for x in state.fighters))


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def find(events: Sequence[Event], kind: str, **match: Any) -> list[Event]:
    return [e for e in events if e.kind == kind and all(e.data.get(k) == v for k, v in match.items())]
