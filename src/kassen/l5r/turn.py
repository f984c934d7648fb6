"""The working copy one action of a duel is resolved in: the core's :class:`~kassen.core.engine.Turn`
with the duel's helpers.

Every rule of the ruleset reads and rewrites ``turn.state`` (a frozen
:class:`~kassen.l5r.state.DuelState`, replaced, never mutated), rolls with ``turn.dice`` (the seeded
RNG, or faces typed at the table), reads ``turn.tables`` (the fight's content) and logs with
:meth:`L5Turn.event`, whose data always carries a readable ``text`` (and the explanation ``steps``).
"""

from __future__ import annotations

__all__ = ["L5Turn", "is_down", "shared_characters", "standing"]

from collections.abc import Iterable
from typing import Any

from kassen.core.engine import Turn
from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastreplace import replace
from kassen.l5r.character import FighterId
from kassen.l5r.rolls import rank
from kassen.l5r.state import DuelState, Fighter
from kassen.l5r.tables import L5Tables


class L5Turn(Turn[DuelState]):
    """One action's working copy: ``state``, ``dice``, ``tables`` (:class:`L5Tables`), ``events``."""

    __slots__ = ()
    tables: L5Tables

    @property
    def now(self) -> int:
        """The duel's turn number (the rules' "turn", not this working copy)."""
        return self.state.turn

    def fighter(self, name: FighterId | str) -> Fighter:
        return self.state.fighter(name)

    def put(self, *fighters: Fighter) -> None:
        """Write these fighters back into the state."""
        for f in fighters:
            self.state = self.state.with_fighter(f)

    def update(self, **changes: Any) -> None:
        """Replace fields of the state."""
        self.state = replace(self.state, **changes)

    def event(
        self,
        kind: str,
        text: str,
        rule: str = "",
        *,
        steps: Iterable[Step] = (),
        automatic: bool = False,
        **data: Any,
    ) -> None:
        """Log an event whose data carries a readable ``text`` and, when given, its ``steps`` (neither
        when the turn does not explain: :class:`~kassen.core.engine.Turn`)."""
        if not self.record:
            return
        if not self.explain:
            self.events.append(Event(kind, data, rule, automatic))
            return
        payload: dict[str, Any] = {"text": text, **data}
        listed = list(steps)
        if listed:
            payload["steps"] = steps_to_json(listed)
        self.events.append(Event(kind, payload, rule, automatic))


def is_down(fighter: Fighter, tables: L5Tables) -> bool:
    """Out or Dead: no actions (L5.CORE.6)."""
    return fighter.dead or rank(fighter, tables).down


def standing(fighter: Fighter, tables: L5Tables) -> bool:
    """Still in the fight: neither Out, Dead nor yielded."""
    return not fighter.yielded and not is_down(fighter, tables)


def shared_characters(state: DuelState, tables: L5Tables) -> DuelState:
    """``state`` with each fighter's character the content's one instance of its value
    (``tables.memos.characters``): the tables' memos are keyed by characters, and a fight opened, a
    state read from JSON or a state guessed for a search each have their own instances, which a memo
    finds only by comparing every field. A state already made of the shared ones is returned as it is
    (the state each action leaves, from the second on)."""
    shared = tables.memos.characters
    fighters = state.fighters
    for f in fighters:
        if shared.get(f.character) is not f.character:
            break
    else:
        return state
    out = []
    for f in fighters:
        c = f.character
        one = shared.get(c)
        if one is None:
            one = shared.put(c, c)
        out.append(f if one is c else replace(f, character=one))
    return replace(state, fighters=tuple(out))
