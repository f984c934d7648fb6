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

__all__ = ["ByActor", "Decision", "FirstLegal", "Listed", "Policy", "RandomPolicy", "Scripted"]

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, overload

from kassen.core.engine import Actor
from kassen.core.errors import KassenError
from kassen.core.events import Event
from kassen.core.fastinit import fast_init
from kassen.core.rng import Rng
from kassen.i18n import S_

S = TypeVar("S")
A = TypeVar("A")


class Listed(Sequence[A]):
    """The legal actions of a decision, listed on first use: a policy that never reads them (a script
    whose next step the fight tries instead) costs no listing. A read-only sequence that compares equal
    to the tuple of the same actions."""

    __slots__ = ("_items", "_list")

    def __init__(self, list_them: Callable[[], Sequence[A]]) -> None:
        self._list: Callable[[], Sequence[A]] | None = list_them
        self._items: tuple[A, ...] = ()

    @property
    def items(self) -> tuple[A, ...]:
        """The actions (listed now if not yet)."""
        if self._list is not None:
            self._items = tuple(self._list())
            self._list = None
        return self._items

    @property
    def listed(self) -> bool:
        """Whether the actions have been listed already."""
        return self._list is None

    @overload
    def __getitem__(self, index: int) -> A: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[A, ...]: ...

    def __getitem__(self, index: int | slice) -> A | tuple[A, ...]:
        return self.items[index]

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[A]:
        return iter(self.items)

    def __contains__(self, action: object) -> bool:
        return action in self.items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Listed):
            return self.items == other.items
        if isinstance(other, (tuple, list)):
            return self.items == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compares like a tuple but is not one

    def __repr__(self) -> str:
        return repr(self.items) if self.listed else "Listed(<not listed yet>)"


@fast_init
@dataclass(frozen=True, slots=True)
class Decision(Generic[S, A]):
    """What a policy sees: ``history`` is every action applied so far, oldest first; ``is_legal``
    answers whether an action would be accepted now (without applying it); ``log``, when given, lists
    every event so far (a search reads it through the deciding side's view, never whole)."""

    state: S
    actor: Actor
    legal: Sequence[A]
    history: Sequence[A]
    seed: int
    tables: Any
    is_legal: Callable[[A], bool]
    log: Callable[[], Sequence[Event]] | None = None


class Policy(Protocol[S, A]):
    """Chooses an action for a :class:`Decision`."""

    def __call__(self, decision: Decision[S, A]) -> A: ...


def _need_legal(decision: Decision[Any, A]) -> Sequence[A]:
    if not decision.legal:
        raise KassenError(S_("no legal action for {actor} to choose from", actor=decision.actor))
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
            # listed among the legal actions, it is legal; else the fight tries it on a copy (and keeps
            # what it worked out for the play that follows), so a script never needs the whole list
            if at < len(script):
                step = script[at]
                legal = decision.legal
                listed = not isinstance(legal, Listed) or legal.listed
                if (listed and step in legal) or decision.is_legal(step):
                    return step
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
