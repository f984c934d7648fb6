"""Simulation: one ruleset's rules played fast, for the search and the lab.

A :class:`Simulator` plays actions on plain states with a caller's :class:`~kassen.core.rng.Rng`:
no :class:`~kassen.core.fight.Fight`, no snapshot kept per action, no codec round trip, no log. It runs
the very hooks a fight runs (``start``, ``resolve``, the follow-ups under
:data:`~kassen.core.engine.MAX_AUTOMATIC_STEPS`), so a simulated action is the same rules, the same
dice and the same result as the fight's; only what a person reads is left out: the action's
:class:`~kassen.core.engine.Turn` neither explains (no explanation steps, no words) nor, in
:meth:`Simulator.step`, records its events. :meth:`Simulator.play` records them (their data without
the explanations), for a caller that tallies what happened (the lab).

States are immutable, so a search keeps any state it reached and plays on from it as often as it likes;
:meth:`Rng.copy <kassen.core.rng.Rng.copy>` forks the dice.

>>> from kassen.core.scenario import open_fight
>>> fight = open_fight("count-example", seed=1)
>>> sim = Simulator(fight.ruleset, fight.tables)
>>> state, rng = fight.state, Rng.from_state(fight.snapshot.rng)
>>> while sim.result(state) is None:
...     state = sim.step(state, rng, sim.legal(state)[0])
>>> sim.result(state) is not None
True
"""

from __future__ import annotations

__all__ = ["Simulator"]

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from kassen.core.engine import MAX_AUTOMATIC_STEPS, Actor, Outcome, Turn
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event
from kassen.core.rng import DieSource, Rng
from kassen.i18n import S_

S = TypeVar("S")
A = TypeVar("A")


class Simulator(Generic[S, A]):
    """A ruleset's rules over one content's tables (see the module notes). Holds nothing of a fight:
    one simulator serves any number of states, on any number of threads (the content's memos are safe
    under threads, :mod:`kassen.core.memo`)."""

    __slots__ = ("ruleset", "tables")

    def __init__(self, ruleset: Any, tables: Any) -> None:
        self.ruleset = ruleset
        self.tables = tables

    def to_move(self, state: S) -> Actor | None:
        """Who decides in ``state`` (``None`` once the fight is over)."""
        actor: Actor | None = self.ruleset.to_move(state)
        return actor

    def legal(self, state: S) -> Sequence[A]:
        """What the actor to move may do in ``state``."""
        legal: Sequence[A] = self.ruleset.legal_actions(state, self.tables)
        return legal

    def result(self, state: S) -> Outcome | None:
        """How the fight in ``state`` ended, or ``None`` while it goes on."""
        outcome: Outcome | None = self.ruleset.result(state)
        return outcome

    def step(self, state: S, rng: Rng, action: A) -> S:
        """The state after ``action`` and every automatic step after it, its dice drawn from ``rng``
        (advanced in place). An illegal action raises
        :class:`~kassen.core.errors.IllegalActionError`; ``state`` is never changed (it is immutable)."""
        return self._run(state, rng, action, False).settled()

    def play(self, state: S, rng: Rng, action: A) -> tuple[S, tuple[Event, ...]]:
        """:meth:`step`, with the events the action logged (each one's data without its explanation:
        every key it has is the fight's event's own, with the same value)."""
        turn = self._run(state, rng, action, True)
        return turn.settled(), tuple(turn.events)

    def is_legal(self, state: S, action: A, rng: Rng | None = None) -> bool:
        """Whether ``action`` is legal in ``state``, tried on a copy of ``rng`` (an illegal action raises
        before anything is rolled, so any dice do when none are given)."""
        try:
            self._run(state, Rng(0) if rng is None else rng.copy(), action, False)
        except IllegalActionError:
            return False
        return True

    def _run(self, state: S, dice: DieSource, action: A, record: bool) -> Turn[S]:
        rs = self.ruleset
        turn: Turn[S] = rs.start(state, dice, self.tables)
        turn.explain = False
        turn.record = record
        rs.resolve(turn, action)
        follow_up = rs.follow_up
        for _ in range(MAX_AUTOMATIC_STEPS):
            if not follow_up(turn):
                return turn
        raise KassenError(
            S_(
                "one action ran more than {max_automatic_steps} automatic steps: the rules loop",
                max_automatic_steps=MAX_AUTOMATIC_STEPS,
            )
        )
