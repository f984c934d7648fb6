"""Helpers for the arena tests: fighters, bouts and one action applied through the core's engine with
exactly the dice given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from kassen.arena.bout import Action, Begin, BoutState, initial_state
from kassen.arena.content import load_rules
from kassen.arena.fighter import Fighter, FighterState, Weapon, build_fighter
from kassen.arena.rules import ArenaRules
from kassen.arena.ruleset import RULESET
from kassen.arena.terms import DamageType, MatchFormat
from kassen.core.engine import Snapshot, advance
from kassen.core.events import Event

#: The bundled tables.
RULES = load_rules()


def fighter(fid: str, side: str, **kw: Any) -> Fighter:
    """A plain fighter (:func:`build_fighter`: every attribute 10 unless given, the rest from the data's
    fighter defaults); a club (1d6+0 crushing, no ST table) by default."""
    kw.setdefault("weapon", Weapon("club", "none", 1, 0, DamageType.CRUSHING))
    return build_fighter(fid, side, name=fid.title(), **kw)


def bout(
    *fighters: Fighter, format: MatchFormat = MatchFormat.FIGHT, rules: ArenaRules | None = None, **kw: Any
) -> BoutState:
    return initial_state(list(fighters), rules or RULES, format=format, **kw)


def step(
    state: BoutState, action: Action, faces: Sequence[int] = (), rules: ArenaRules | None = None
) -> tuple[BoutState, list[Event]]:
    """Apply one action (validated, resolved and its follow-ups drained, as the core does) with exactly
    ``faces`` as the dice: a die too many or a face left over is an error."""
    snap, events = advance(RULESET, rules or RULES, Snapshot(state, 0), action, tuple(faces))
    return snap.state, list(events)


def begun(
    *fighters: Fighter, faces: Sequence[int] = (), rules: ArenaRules | None = None, **kw: Any
) -> BoutState:
    state, _ = step(bout(*fighters, rules=rules, **kw), Begin(), faces, rules)
    return state


def legal(state: BoutState, rules: ArenaRules | None = None) -> list[Action]:
    return list(RULESET.legal_actions(state, rules or RULES))


def actor(state: BoutState) -> str | None:
    """The fighter to decide now (None: the referee, or nobody)."""
    who = RULESET.to_move(state)
    return who.id if who is not None and who.kind == "unit" else None


def edit(state: BoutState, fid: str, **changes: Any) -> BoutState:
    """The state with fighter ``fid`` changed."""
    f = state.fighter(fid)
    new: FighterState = replace(f, **changes)
    return replace(state, fighters=tuple(new if x.id == fid else x for x in state.fighters))


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def find(events: Sequence[Event], kind: str, **match: Any) -> list[Event]:
    return [e for e in events if e.kind == kind and all(e.data.get(k) == v for k, v in match.items())]
