"""Who decides when nobody types a choice: one :class:`Policy` protocol and the generic policies.

A policy is called with a :class:`Decision` — the state, who must decide (an
:class:`~kassen.core.engine.Actor`), the legal actions, the actions played so far, the fight's seed and
the content's tables — and returns an action. Policies are not rules: ``apply`` still validates what
they choose. Every policy here derives what it needs from the decision, never from a memory of its
own, so undo rewinds it and two fights never share anything:

* :class:`FirstLegal` plays the first legal action;
* :class:`RandomPolicy` draws a legal action from a generator seeded by the fight's seed and the number
  of actions played (never the fight's own RNG, which stays the dice's);
* :class:`Scripted` plays an actor's script, step by step; its cursor is the number of script steps
  already found, in order, among the actions played, so undo rewinds it. A step that is not legal now
  waits (``fallback`` decides);
* :class:`ByActor` sends each decision to the policy of the deciding unit (or ``gm``), else a default.

Each ruleset supplies its heuristic (``Ruleset.heuristic``).
"""

from __future__ import annotations

__all__ = ["ByActor", "Decision", "FirstLegal", "Policy", "RandomPolicy", "Scripted"]

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from kassen.core.engine import Actor
from kassen.core.errors import KassenError
from kassen.core.rng import Rng

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Decision(Generic[S, A]):
    """What a policy sees: ``history`` is every action applied so far, oldest first; ``is_legal``
    answers whether an action would be accepted now (without applying it)."""

    state: S
    actor: Actor
    legal: Sequence[A]
    history: Sequence[A]
    seed: int
    tables: Any
    is_legal: Callable[[A], bool]


class Policy(Protocol[S, A]):
    """Chooses an action for a :class:`Decision`."""

    def __call__(self, decision: Decision[S, A]) -> A: ...


def _need_legal(decision: Decision[Any, A]) -> Sequence[A]:
    if not decision.legal:
        raise KassenError(f"no legal action for {decision.actor} to choose from")
    return decision.legal


class FirstLegal(Generic[S, A]):
    """The first legal action (a baseline, and handy in tests)."""

    def __call__(self, decision: Decision[S, A]) -> A:
        return _need_legal(decision)[0]


class RandomPolicy(Generic[S, A]):
    """A uniformly random legal action, the same for the same seed and the same point of the fight."""

    def __init__(self, salt: int = 0) -> None:
        self.salt = salt

    def __call__(self, decision: Decision[S, A]) -> A:
        legal = _need_legal(decision)
        rng = Rng(decision.seed).advance(1 + len(decision.history) + (self.salt << 20))
        return legal[Rng(rng.next_u64()).below(len(legal))]


class Scripted(Generic[S, A]):
    """Plays ``scripts[actor id]`` in order, then ``fallback`` (see the module notes)."""

    def __init__(self, scripts: Mapping[str, Sequence[A]], fallback: Policy[S, A]) -> None:
        self.scripts = {k: tuple(v) for k, v in scripts.items()}
        self.fallback = fallback

    @staticmethod
    def cursor(script: Sequence[A], history: Sequence[A]) -> int:
        """How many of ``script``'s steps the ``history`` has played, in order."""
        at = 0
        for action in history:
            if at < len(script) and action == script[at]:
                at += 1
        return at

    def __call__(self, decision: Decision[S, A]) -> A:
        script = self.scripts.get(decision.actor.id, ())
        if script:
            at = self.cursor(script, decision.history)
            # listed among the legal actions, it is legal: no need to try it on a copy
            if at < len(script) and (script[at] in decision.legal or decision.is_legal(script[at])):
                return script[at]
        return self.fallback(decision)

    def remaining(self, history: Sequence[A]) -> dict[str, tuple[A, ...]]:
        """Each actor's steps not played yet."""
        out = {}
        for actor, script in self.scripts.items():
            rest = script[self.cursor(script, history) :]
            if rest:
                out[actor] = rest
        return out


class ByActor(Generic[S, A]):
    """The deciding actor's own policy (by unit id, or ``gm``), else ``default``."""

    def __init__(self, policies: Mapping[str, Policy[S, A]], default: Policy[S, A]) -> None:
        self.policies = dict(policies)
        self.default = default

    def __call__(self, decision: Decision[S, A]) -> A:
        return self.policies.get(decision.actor.id, self.default)(decision)
