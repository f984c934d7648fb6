"""Strong play: a Monte Carlo tree search over the fight's own rules, for every ruleset.

:class:`SearchPolicy` is a :class:`~kassen.core.policy.Policy` built only on the core's interface — a
:class:`~kassen.core.sim.Simulator` (the ruleset's ``to_move``, legal actions and resolution), its
``heuristic``, and two optional hooks, ``value`` and ``determinize`` — so it plays any registered
ruleset, a plug-in's included, with no code of its own there.

How it decides (open-loop information-set MCTS with PUCT):

* **Iterations.** Each iteration starts from the decision's state as the deciding side may know it
  (below), walks down the tree choosing actions, adds one new node, plays on from there with a fast
  *rollout* policy (the ruleset's heuristic by default) to the end or to ``depth`` actions (by default
  the ruleset's ``search_depth``, where it gives one; ``depth=0`` plays to the end), and scores
  the state it reached for every side (1 for a win, 0 for a loss, ½ for a fight nobody won; before the
  end, the ruleset's ``value`` hook). Each side's choices along the way are credited with its own score,
  so every side in the tree plays for itself.
* **Chance.** Dice are not branches: every iteration rolls its own dice (open loop), drawn from the
  search's own generator — never the fight's RNG position — so the statistics of an action average over
  its outcomes with their true probabilities, and a node is a sequence of choices, not a state.
* **Choosing.** At a node, each action's score is its mean result plus an exploration term weighted by
  a prior: the heuristic's choice gets ``prior`` of the weight, the rest share the remainder (PUCT).
  Only the first ``ceil(widening_base * visits ** widening)`` actions in prior order are open
  (progressive widening): a Sengoku breath has up to a few hundred candidates, and most are never
  worth a visit. An action not legal in an iteration's state is skipped there (availability counts).
  The GM's decisions are followed, not searched: the heuristic makes them.
* **The root** (``root="halving"``, the default) ranks its actions in the heuristic's own order of
  preference (its choice, then its choice with that one left out, and so on) and shares the budget
  among the first few by sequential halving on common dice: each round plays every action left on the
  same dice, and the better half goes on. The heuristic's choice is played every round, and the
  survivor replaces it only when it did better on the same dice by ``margin`` standard errors: at a
  small budget a luckier action is not taken for a better one. With ``root="puct"`` the root is searched
  like any node and the answer is the action visited most.

Budget: ``iterations`` (reproducible: the search's generator is seeded from ``seed`` — by default the
fight's seed — the decision's index and the deciding side, so the same fight and decision give the
same choice) or ``time`` in CPU seconds (for the table; a fight's chronicle records the actions chosen,
so a replay never runs the search again).

Fairness. By default the search sees only what the deciding side may know: the state as that side's
view has it (:func:`~kassen.core.view.redact_state`, the ruleset's visibility table), with every hidden
value filled in by the ruleset's ``determinize`` hook from that view and the side's view of the log.
The hook never receives the true state, so the search cannot read a hidden value; ``guesses`` states
are made a decision (each from its own generator) and the iterations take them in turn.
``omniscient=True``
searches the true state instead (the lab's upper bound: every report of it says so). A ruleset that
hides values in its state and has no ``determinize`` hook can only be searched omnisciently.
"""

from __future__ import annotations

__all__ = ["SearchConfig", "SearchPolicy", "decision_seed"]

import copy
import hashlib
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from kassen.core.engine import Actor
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.policy import Decision, Listed, Policy
from kassen.core.rng import Rng
from kassen.core.sim import Simulator
from kassen.core.view import Viewer, redact_event, redact_state, visibility_of
from kassen.i18n import S_

S = TypeVar("S")
A = TypeVar("A")

#: Sequential halving considers at most one action for every this many iterations of its budget.
_PER_CANDIDATE = 12
#: A rollout that has not ended after this many actions is scored where it stands.
MAX_ROLLOUT = 2_000
#: The most iterations one decision may be given, and the most CPU seconds.
MAX_ITERATIONS = 1_000_000
MAX_TIME = 3_600.0

Rollout = Literal["heuristic", "random", "first-legal"]


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search's budget and knobs (see the module notes); ``time`` wins over ``iterations``."""

    iterations: int = 200
    time: float | None = None
    omniscient: bool = False
    seed: int | None = None
    exploration: float = 1.0
    prior: float = 0.5
    widening: float = 0.5
    widening_base: float = 2.0
    depth: int | None = None
    rollout: Rollout = "heuristic"
    root: Literal["halving", "puct"] = "halving"
    candidates: int = 16
    margin: float = 0.5
    guesses: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.iterations <= MAX_ITERATIONS:
            raise KassenError(
                S_("iterations is a whole number from 1 to {max_iterations}", max_iterations=MAX_ITERATIONS)
            )
        if self.time is not None and not 0 < self.time <= MAX_TIME:
            raise KassenError(
                S_(
                    "time is a number of CPU seconds above 0 and at most {max_time}",
                    max_time=format(MAX_TIME, "g"),
                )
            )
        if not 0 <= self.prior <= 1:
            raise KassenError(S_("prior is a weight from 0 to 1, not {prior}", prior=self.prior))
        if not 0 <= self.exploration <= 100:
            raise KassenError(
                S_("exploration is from 0 to 100, not {exploration}", exploration=self.exploration)
            )
        if not 0 <= self.widening <= 1:
            raise KassenError(
                S_("widening is an exponent from 0 to 1, not {widening}", widening=self.widening)
            )
        if not 1 <= self.widening_base <= 1000:
            raise KassenError(
                S_("widening_base is from 1 to 1000, not {widening_base}", widening_base=self.widening_base)
            )
        if self.depth is not None and not 0 <= self.depth <= MAX_ROLLOUT:
            raise KassenError(
                S_(
                    "depth is a number of actions from 0 (to the end) to {max_rollout}, not {depth}",
                    max_rollout=MAX_ROLLOUT,
                    depth=self.depth,
                )
            )
        if not 1 <= self.guesses <= 10_000:
            raise KassenError(
                S_(
                    "guesses is a number of guessed states from 1 to 10000, not {guesses}",
                    guesses=self.guesses,
                )
            )
        if not 0 <= self.margin <= 10:
            raise KassenError(
                S_("margin is a number of standard errors from 0 to 10, not {margin}", margin=self.margin)
            )
        if not 1 <= self.candidates <= 10_000:
            raise KassenError(
                S_(
                    "candidates is a number of actions from 1 to 10000, not {candidates}",
                    candidates=self.candidates,
                )
            )
        if self.seed is not None and not 0 <= self.seed < 1 << 64:
            raise KassenError(S_("a search seed is between 0 and 2**64 - 1"))


def decision_seed(seed: int, index: int, side: str) -> int:
    """The seed of the search's own generator for one decision: the fight's (or the search's) seed, the
    decision's index in the fight and the deciding side, mixed (never the fight's RNG position)."""
    digest = hashlib.blake2b(f"search|{seed}|{index}|{side}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def side_of(actor: Actor | None) -> str | None:
    """The side that decides for ``actor`` (a unit's side, a side itself); None for the GM or chance."""
    if actor is None:
        return None
    if actor.kind == "unit":
        return actor.side
    if actor.kind == "side":
        return actor.id
    return None


class _Edge:
    """One action at a node: visits, summed score of the side that chose it, how often it could be
    chosen (availability), its prior, and the node below it."""

    __slots__ = ("available", "child", "prior", "score", "visits")

    def __init__(self, prior: float) -> None:
        self.visits = 0
        self.score = 0.0
        self.available = 0
        self.prior = prior
        self.child: _Node | None = None


class _Node:
    """A sequence of choices from the root (open loop: its states vary with the dice)."""

    __slots__ = ("edges", "order", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.order: list[Any] = []
        self.edges: dict[Any, _Edge] = {}


class SearchPolicy(Generic[S, A]):
    """Monte Carlo tree search as a policy (see the module notes).

    >>> from kassen.core.scenario import open_fight
    >>> fight = open_fight("duel", seed=4)
    >>> search = SearchPolicy(fight.ruleset, fight.tables, SearchConfig(iterations=30))
    >>> fight.autoplay(search)
    >>> fight.over
    True
    """

    def __init__(self, ruleset: Any, tables: Any, config: SearchConfig | None = None) -> None:
        self.ruleset = ruleset
        self.tables = tables
        self.config = config or SearchConfig()
        self.sim: Simulator[S, A] = Simulator(ruleset, tables)
        self.heuristic: Policy[S, A] = ruleset.heuristic(tables)
        self._visibility = visibility_of(ruleset, tables)
        self._determinize: Callable[..., Any] | None = getattr(ruleset, "determinize", None)
        self._value: Callable[[S, Any], Mapping[str, float]] | None = getattr(ruleset, "value", None)
        # how far a rollout goes: the spec's depth, else the ruleset's (a ruleset whose heuristic is
        # costly cuts its rollouts where its value hook still reads the fight well); 0 is to the end
        depth = self.config.depth if self.config.depth is not None else getattr(ruleset, "search_depth", None)
        self.depth: int = depth if isinstance(depth, int) and 0 < depth <= MAX_ROLLOUT else MAX_ROLLOUT
        if self._visibility.state and self._determinize is None and not self.config.omniscient:
            raise KassenError(
                S_(
                    "the {name} ruleset hides values in its state but has no determinize hook: its search "
                    "can only be omniscient (search:omniscient)",
                    name=ruleset.info.name,
                )
            )
        from kassen.core.fight import state_codec

        self._codec = state_codec(ruleset.info.state_type)

    # -- the policy ------------------------------------------------------------------------------------
    def __call__(self, decision: Decision[S, A]) -> A:
        side = side_of(decision.actor)
        if side is None:  # the GM is no player: it makes its moves as the heuristic does
            return self.heuristic(decision)
        legal = tuple(decision.legal)
        if not legal:
            raise KassenError(S_("no legal action for {actor} to choose from", actor=decision.actor))
        if len(legal) == 1:
            return legal[0]
        seed = decision.seed if self.config.seed is None else self.config.seed
        rng = Rng(decision_seed(seed, len(decision.history), side))
        start = self._starting_state(decision, side)
        # the prior's order: the heuristic's choices, best first, on the state as the side may know it
        ranked = self._ranked(start(rng), decision.actor, legal, self.config.candidates)
        return self.search(start, decision.actor, legal, ranked[0], rng, ranked)

    def _ranked(self, state: S, actor: Actor, legal: tuple[A, ...], count: int) -> list[A]:
        """The heuristic's order of preference among ``legal``, its first ``count``: its choice, then its
        choice with that one left out, and so on (a ruleset's heuristic needs no ranking of its own).
        Its first choice may be an action the listing leaves out (a ruleset whose listing is not
        complete); one it cannot make without an error ends the ranking."""
        first = self._choose(self.heuristic, state, actor, legal, Rng(0))
        order = [first]
        left = [a for a in legal if a != first]
        is_legal = self._is_legal(state)
        while left and len(order) < count:
            try:
                choice = self.heuristic(Decision(state, actor, tuple(left), (), 0, self.tables, is_legal))
            except Exception:  # a heuristic that cannot choose among what is left: the rest in turn
                break
            if choice not in left:
                break
            order.append(choice)
            left.remove(choice)
        return order

    def _starting_state(self, decision: Decision[S, A], side: str) -> Callable[[Rng], S]:
        """A maker of the state an iteration starts from: the true state when omniscient (or when the
        ruleset hides nothing in its state), else one filled in from the side's view."""
        if self.config.omniscient or not self._visibility.state:
            state = decision.state
            return lambda rng: state
        units = dict(self.ruleset.units(decision.state))

        def side_of_unit(unit: Any) -> str | None:
            return units.get(unit) if isinstance(unit, str) else None

        viewer = Viewer(side)
        seen = redact_state(self._codec.dump(decision.state), self._visibility, viewer, side_of_unit)
        events = [
            redact_event(e.to_json(), self._visibility, viewer, side_of_unit)
            for e in (decision.log() if decision.log is not None else ())
        ]
        hook = self._determinize
        assert hook is not None
        tables = self.tables
        guesses: list[S] = []
        count = self.config.guesses
        made = [0]
        base = decision_seed(decision.seed, len(decision.history), f"guess|{side}")

        def make(rng: Rng) -> S:
            # ``guesses`` guesses a decision, made once each and taken in turn (each from its own copy
            # of the view, and its own generator: the dice of the iterations do not depend on them)
            at = made[0] % count
            made[0] += 1
            if at < len(guesses):
                return guesses[at]
            state: S = hook(copy.deepcopy(seen), events, tables, side, Rng((base + at) % (1 << 64)))
            guesses.append(state)
            return state

        return make

    # -- the search ------------------------------------------------------------------------------------
    def search(
        self,
        start: Callable[[Rng], S],
        actor: Actor,
        legal: tuple[A, ...],
        first: A,
        rng: Rng,
        ranked: Sequence[A] = (),
    ) -> A:
        """The action the search chooses among ``legal`` (``first``, the heuristic's, at the head of the
        prior order, then the rest of ``ranked``, then the others shuffled) for ``actor``, from states
        ``start`` makes."""
        cfg = self.config
        root = _Node()
        head = [first, *(a for a in ranked if a != first)]
        root.order = [*head, *(a for a in _shuffled(legal, rng) if a not in head)]
        if cfg.root == "halving":
            return self._halving(root, start, legal, first, rng)
        deadline = None if cfg.time is None else time.process_time() + cfg.time
        done = 0
        while True:
            if deadline is not None:
                if done and time.process_time() >= deadline:
                    break
            elif done >= cfg.iterations:
                break
            dice = Rng(rng.next_u64())
            self._iterate(root, start(dice), dice, legal)
            done += 1
        return self._best(root, first)

    def _halving(self, root: _Node, start: Callable[[Rng], S], legal: tuple[A, ...], first: A, rng: Rng) -> A:
        """Sequential halving at the root: the first ``candidates`` actions in prior order share the
        budget in rounds, each round playing every action left on the *same* dice (common random
        numbers: their differences are not the dice's), the better half by mean score going on; below
        each action, the tree as usual. The heuristic's choice is played in every round, and the
        survivor replaces it only when it did better on the same dice by more than ``margin`` standard
        errors of the difference: at a small budget, an action that is no better but was luckier is
        not taken for a better one."""
        cfg = self.config
        # a small budget is spread over fewer actions (about a dozen iterations each at the least)
        wide = cfg.candidates if cfg.time is not None else max(2, cfg.iterations // _PER_CANDIDATE)
        alive: list[A] = root.order[: max(1, min(len(root.order), cfg.candidates, wide))]
        if len(alive) == 1:
            return alive[0]
        results: dict[A, dict[int, float]] = {a: {} for a in alive}
        rounds = max(1, math.ceil(math.log2(len(alive))))
        budget = cfg.iterations
        if cfg.time is not None:
            # the budget in iterations, from what a first pass over every candidate cost
            began = time.process_time()
            self._round(root, start, legal, alive, 1, rng, results)
            spent = max(1e-6, time.process_time() - began)
            budget = max(len(alive) * rounds, int(cfg.time / spent * len(alive)))
        for _ in range(rounds):
            each = max(1, budget // (rounds * len(alive)))
            played = alive if first in alive else [first, *alive]
            self._round(root, start, legal, played, each, rng, results)
            ranked = sorted(alive, key=lambda a: (-_mean(root.edges.get(a)), root.order.index(a)))
            alive = ranked[: max(1, math.ceil(len(alive) / 2))]
            if len(alive) == 1:
                break
        best = alive[0]
        if best == first:
            return first
        mine, theirs = results[best], results[first]
        diffs = [mine[k] - theirs[k] for k in mine if k in theirs]
        if len(diffs) < 2:
            return first
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        return best if mean > cfg.margin * math.sqrt(var / len(diffs)) else first

    def _round(
        self,
        root: _Node,
        start: Callable[[Rng], S],
        legal: tuple[A, ...],
        actions: Sequence[A],
        each: int,
        rng: Rng,
        results: dict[A, dict[int, float]],
    ) -> None:
        for _ in range(each):
            seed = rng.next_u64()
            for action in actions:
                dice = Rng(seed)
                score = self._iterate(root, start(dice), dice, legal, action)
                if score is not None:
                    results.setdefault(action, {})[seed] = score

    def _best(self, root: _Node, first: A) -> A:
        best: A = first
        key = (-1, -1.0)
        for action in root.order:
            edge = root.edges.get(action)
            if edge is None or not edge.visits:
                continue
            mine = (edge.visits, edge.score / edge.visits)
            if mine > key:
                best, key = action, mine
        return best

    def _iterate(
        self, root: _Node, state: S, dice: Rng, root_legal: tuple[A, ...], forced: A | None = None
    ) -> float | None:
        """One iteration (see the module notes); the score it gave the root's action (None: none)."""
        sim = self.sim
        path: list[tuple[_Edge, str]] = []
        node = root
        while True:
            if sim.result(state) is not None:
                break
            actor = sim.to_move(state)
            side = side_of(actor)
            if actor is None:
                break
            if side is None:
                after = self._follow(state, actor, dice)
                if after is None:
                    break
                state = after
                continue
            if node.visits == 0 and node is not root:
                node.visits = 1
                state = self._rollout(state, dice)
                break
            node.visits += 1
            legal = root_legal if node is root else tuple(sim.legal(state))
            if not legal:
                break
            if node is not root:
                self._extend_order(node, state, actor, legal, dice)
            if forced is not None and node is root:
                edge = root.edges.get(forced) or root.edges.setdefault(forced, _Edge(0.0))
                chosen: tuple[A, _Edge] | None = (forced, edge)
            else:
                chosen = self._select(node, legal)
            if chosen is None:
                break
            action, edge = chosen
            try:
                state = sim.step(state, dice, action)
            except IllegalActionError:
                # legal on the view's listing but not in this iteration's state (a guess at a hidden
                # value made it so): not available here
                edge.available -= 1
                node.visits -= 1
                state = self._rollout(state, dice)
                break
            path.append((edge, side))
            if edge.child is None:
                edge.child = _Node()
            node = edge.child
        values = self._values(state)
        for edge, side in path:
            edge.visits += 1
            edge.score += values.get(side, 0.5)
        return values.get(path[0][1], 0.5) if path else None

    def _extend_order(self, node: _Node, state: S, actor: Actor, legal: tuple[A, ...], dice: Rng) -> None:
        """A node's prior order: the heuristic's choice (at its first visit), then the rest shuffled;
        actions first seen later (another iteration's dice) go at the end."""
        if not node.order:
            head = self._choose(self.heuristic, state, actor, legal, dice)
            node.order = [head, *(a for a in _shuffled(legal, dice) if a != head)]
            return
        if len(node.order) < len(legal) + 1:
            known = set(node.order)
            node.order.extend(a for a in legal if a not in known)

    def _select(self, node: _Node, legal: tuple[A, ...]) -> tuple[A, _Edge] | None:
        """PUCT over the open actions legal now: mean score plus ``exploration * prior * sqrt(visits of
        the node) / (1 + visits of the action)``; an action not tried yet counts the node's mean score so far
        (first-play urgency)."""
        cfg = self.config
        open_count = max(1, math.ceil(cfg.widening_base * node.visits**cfg.widening))
        allowed = set(legal)
        head = node.order[0] if node.order else None
        rest = (1.0 - cfg.prior) / max(1, len(node.order))
        best: tuple[A, _Edge] | None = None
        best_score = -math.inf
        seen = 0
        total_score = total = 0.0
        for known in node.edges.values():
            total_score += known.score
            total += known.visits
        fpu = total_score / total if total else 0.5
        scale = cfg.exploration * math.sqrt(node.visits)
        for action in node.order:
            if seen >= open_count:
                break
            if action not in allowed and action is not head:
                continue
            seen += 1
            edge = node.edges.get(action)
            if edge is None:
                edge = node.edges[action] = _Edge(rest + (cfg.prior if action is head else 0.0))
            edge.available += 1
            q = edge.score / edge.visits if edge.visits else fpu
            score = q + scale * edge.prior / (1 + edge.visits)
            if score > best_score:
                best, best_score = (action, edge), score
        return best

    def _follow(self, state: S, actor: Actor, dice: Rng) -> S | None:
        """A decision nobody plays for (the GM's): made as the heuristic makes it."""
        legal = tuple(self.sim.legal(state))
        if not legal:
            return None
        return self._play(state, self._choose(self.heuristic, state, actor, legal, dice), legal, dice)

    def _play(self, state: S, action: A, legal: tuple[A, ...], dice: Rng) -> S | None:
        """``state`` after ``action``, or after the first of ``legal`` the state accepts when a guess at
        a hidden value made ``action`` illegal there; None when none is accepted."""
        for tried in (action, *legal):
            try:
                return self.sim.step(state, dice, tried)
            except IllegalActionError:
                continue
        return None

    def _rollout(self, state: S, dice: Rng) -> S:
        sim, cfg = self.sim, self.config
        for _ in range(self.depth):
            if sim.result(state) is not None:
                break
            actor = sim.to_move(state)
            if actor is None:
                break
            legal = tuple(sim.legal(state))
            if not legal:
                break
            if cfg.rollout == "random":
                action = legal[dice.below(len(legal))]
            elif cfg.rollout == "first-legal":
                action = legal[0]
            else:
                action = self._choose(self.heuristic, state, actor, legal, dice)
            after = self._play(state, action, legal, dice)
            if after is None:
                break
            state = after
        return state

    def _is_legal(self, state: S) -> Callable[[A], bool]:
        sim = self.sim

        def is_legal(action: A) -> bool:
            try:
                sim.step(state, Rng(0), action)
            except IllegalActionError:
                return False
            return True

        return is_legal

    def _choose(self, policy: Policy[S, A], state: S, actor: Actor, legal: tuple[A, ...], dice: Rng) -> A:
        listing: Listed[A] = Listed(lambda: legal)
        try:
            return policy(Decision(state, actor, listing, (), 0, self.tables, self._is_legal(state)))
        except KassenError:
            return legal[0]

    def _values(self, state: S) -> Mapping[str, float]:
        """Each side's score of ``state``: the result once over, else the ruleset's value hook (½ for
        every side when it has none)."""
        outcome = self.sim.result(state)
        if outcome is not None:
            sides = set(self.ruleset.units(state).values())
            if outcome.winner is None:
                return dict.fromkeys(sides, 0.5)
            return {s: 1.0 if s == outcome.winner else 0.0 for s in sides}
        if self._value is None:
            return {}
        return self._value(state, self.tables)


def _mean(edge: _Edge | None) -> float:
    return edge.score / edge.visits if edge is not None and edge.visits else -1.0


def _shuffled(items: Sequence[A], rng: Rng) -> list[A]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
