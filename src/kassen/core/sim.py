"""Simulation: one ruleset's rules played fast, for the search and the lab.

A :class:`Simulator` plays actions on plain states with a caller's :class:`~kassen.core.rng.Rng`:
no :class:`~kassen.core.fight.Fight`, no snapshot kept per action, no codec round trip, no log. It runs
the very hooks a fight runs (``start``, ``resolve``, the follow-ups under
:data:`~kassen.core.engine.MAX_AUTOMATIC_STEPS`), so a simulated action is the same rules, the same
dice and the same result as the fight's; only what a person reads is left out.

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

from kassen.core.engine import Actor, Outcome, drain
from kassen.core.rng import Rng

S = TypeVar("S")
A = TypeVar("A")


class Simulator(Generic[S, A]):
    """A ruleset's rules over one content's tables (see the module notes). Holds nothing of a fight:
    one simulator serves any number of states, on one thread at a time."""

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
        rs = self.ruleset
        turn = rs.start(state, rng, self.tables)
        rs.resolve(turn, action)
        drain(lambda: rs.follow_up(turn))
        settled: S = turn.settled()
        return settled
