"""Playing fights: one batch of seeds of one scenario, in whatever process runs it.

A :class:`Batch` carries the scenario as *text* (so a sweep's cell, built in memory, travels to a worker
process or a Ray task as it is), the ``--content`` layers, the seeds and the action limit;
:func:`play_batch` plays each fight with the scenario's policies and returns one :class:`FightRecord`
per seed, in seed order. Fight ``i`` of a run uses seed ``S + i``: ``kassen fight SCENARIO --seed S+i``
replays it alone.

A fight is played in the simulation mode (:class:`~kassen.core.sim.Simulator`): the ruleset's own rules
on plain states, its events recorded without their explanations, no snapshot, chronicle or codec round
trip; the same actions, dice and result as ``kassen fight`` (``tests/lab/test_lab_sim.py``).

A fight that does not end within its action limit is a *time-out*, a fight the rules or a policy break
off with an error is an *error*: both are recorded (with the message) and counted apart; neither stops
the run.
"""

from __future__ import annotations

__all__ = ["Batch", "FightRecord", "Opener", "Played", "play_batch", "play_one", "simulate"]

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, Literal

from kassen.content.content import inline_layer, read_layer
from kassen.core.collector import paused
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event
from kassen.core.fight import Fight, LogEntry, state_codec
from kassen.core.policy import Decision, Listed
from kassen.core.rng import Rng
from kassen.core.ruleset import Setup, find_ruleset
from kassen.core.scenario import ScenarioSource, read_scenario
from kassen.core.sim import Simulator
from kassen.i18n import S_, use_language
from kassen.lab.summary import FightSummary, check_hook, summarize

Status = Literal["win", "draw", "timeout", "error"]


@dataclass(frozen=True, slots=True)
class Batch:
    """Fights to play: ``seeds`` of the scenario ``text`` (named ``name`` in messages), over the
    ``content`` layer paths; ``max_actions`` (None: the scenario's limit) bounds each fight; ``index``
    orders batches when results are combined; ``policies`` names the policy of each side that does not
    play the scenario's own (side id, spec: :mod:`kassen.core.named`)."""

    index: int
    name: str
    text: str
    content: tuple[str, ...]
    seeds: tuple[int, ...]
    max_actions: int | None = None
    cell: int = 0
    policies: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class FightRecord:
    """One fight: its seed, how it ended (``win``/``draw``/``timeout``/``error``), the winning side, the
    actions it took and, once over, its summary; ``message`` is the reason in words (or the error)."""

    seed: int
    status: Status
    winner: str | None
    actions: int
    message: str
    summary: FightSummary | None


class Opener:
    """Opens fights of one scenario as :func:`kassen.open_fight` does, reading the scenario and building
    its content once: ``open(seed)`` is ``open_fight(scenario, seed=seed, content=layers)`` without
    rebuilding the content for every fight (a scenario's own content block takes the rulesets 20 to
    100 ms to merge and validate, as long as a whole duel takes to play)."""

    def __init__(self, source: ScenarioSource, content: Sequence[str]) -> None:
        self.source = source
        self.ruleset = find_ruleset(source.ruleset)
        check_hook(self.ruleset)  # a ruleset that does not summarize its fights is refused, not guessed at
        layers = [read_layer(p, f"layer {i}") for i, p in enumerate(content, 1)]
        if source.content is not None:
            layers.append(inline_layer(source.content, source.file, source.node))
        self.content = self.ruleset.load_content(layers)
        self.setup: Setup[Any, Any] = self.ruleset.setup(source, self.content)
        self.simulator: Simulator[Any, Any] = Simulator(self.ruleset, self.content.tables)
        self.open(0)  # a fight of this setup can be opened at all (its units' sides and count)

    def open(self, seed: int, policies: Sequence[tuple[str, str]] = ()) -> Fight[Any, Any]:
        """A fight of ``seed``, each side in ``policies`` played by its named policy."""
        setup = self.setup
        fight: Fight[Any, Any] = Fight(
            self.ruleset,
            self.content,
            setup.state,
            seed,
            meta={"scenario": setup.title, "source": self.source.name},
            policy=setup.policy(),
            max_actions=setup.max_actions,
        )
        if policies:
            fight.use_policies(dict(policies))
        return fight

    def policy(self, policies: Sequence[tuple[str, str]] = ()) -> Any:
        """The policy a fight is played by: the scenario's, with each side in ``policies`` played by its
        named policy (:mod:`kassen.core.named`)."""
        tables = self.content.tables
        if not policies:
            return self.setup.policy() or self.ruleset.heuristic(tables)
        from kassen.core.named import parse_policies, side_policies

        units = getattr(self.ruleset, "units", None)
        sides = tuple(dict.fromkeys(units(self.setup.state).values())) if units is not None else ()
        return side_policies(parse_policies(dict(policies)), self.ruleset, tables, sides, self.setup.policy)


@lru_cache(maxsize=16)
def _opener(name: str, digest: str, text: str, content: tuple[str, ...]) -> Opener:
    """One opener per scenario text and layers in each process (``digest`` keeps the key small)."""
    return Opener(read_scenario(name, text=text), content)


def opener_for(batch: Batch) -> Opener:
    digest = hashlib.sha256(batch.text.encode("utf-8")).hexdigest()
    return _opener(batch.name, digest, batch.text, batch.content)


@dataclass(slots=True)
class Played:
    """One fight simulated for the lab (:func:`simulate`): what its summary reads, as a
    :class:`~kassen.core.fight.Fight` has it (the states, the entries with their events, the actions'
    JSON), without snapshots or a chronicle."""

    ruleset: Any
    tables: Any
    initial_state: Any
    state: Any
    entries: list[LogEntry[Any]] = field(default_factory=list)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for entry in self.entries for e in entry.events)

    @property
    def over(self) -> bool:
        return self.ruleset.result(self.state) is not None

    def action_json(self, action: Any) -> Any:
        return state_codec(self.ruleset.info.action_type).dump(action)


def simulate(
    opener: Opener, seed: int, limit: int, played: Played, policies: Sequence[tuple[str, str]] = ()
) -> None:
    """Play the fight of ``seed`` into ``played`` as :meth:`Fight.autoplay <kassen.core.fight.Fight.
    autoplay>` would (the scenario's policies, else the ruleset's heuristic; the same decisions, dice
    and result), in the simulation mode: each action's events recorded without explanations. Raises
    what the fight would (a :class:`~kassen.core.errors.KassenError` when it does not end within
    ``limit`` actions), with ``played`` as far as it got; each side in ``policies`` is played by its
    named policy."""
    sim, tables = opener.simulator, opener.content.tables
    policy = opener.policy(policies)
    rng = Rng(seed)
    history: list[Any] = []
    entries = played.entries
    for _ in range(limit):
        state = played.state
        if sim.result(state) is not None:
            return
        actor = sim.to_move(state)
        if actor is None:
            raise KassenError("the fight is over: nobody decides")
        tried: dict[int, tuple[Any, Any, tuple[Event, ...], Rng]] = {}

        def is_legal(action: Any, state: Any = state, tried: dict[int, Any] = tried, now: Rng = rng) -> bool:
            # tried on a copy of the dice, and kept for the play of this very action that usually follows
            # (a script's step is tried first), as Fight.check does
            dice = now.copy()
            try:
                after, events = sim.play(state, dice, action)
            except IllegalActionError:
                return False
            tried[id(action)] = (action, after, events, dice)
            return True

        listed: Listed[Any] = Listed(partial(sim.legal, state))
        seen = partial(getattr, played, "events")  # the log so far, read by a search's guesses
        action = policy(Decision(state, actor, listed, history, seed, tables, is_legal, seen))
        known = tried.get(id(action))
        if known is not None and known[0] is action:
            _, played.state, events, rng = known  # the dice as the try left them
        else:
            played.state, events = sim.play(state, rng, action)
        entries.append(LogEntry(len(entries), action, actor, events))
        history.append(action)
    if sim.result(played.state) is None:
        raise KassenError(f"the fight did not end within {limit} actions")


def play_one(
    opener: Opener, seed: int, max_actions: int | None = None, policies: Sequence[tuple[str, str]] = ()
) -> FightRecord:
    """Play the fight of ``seed`` to its end with the scenario's policies (or those named for its
    sides, :func:`simulate`) and record it."""
    limit = opener.setup.max_actions if max_actions is None else max_actions
    played = Played(opener.ruleset, opener.content.tables, opener.setup.state, opener.setup.state)
    # a record's message is data (the run's JSON and files): in English whatever the reader's language
    with use_language("en"):
        try:
            simulate(opener, seed, limit, played, policies)
        except Exception as exc:  # a broken fight is counted and named, never the end of a long run
            actions = len(played.entries)
            if isinstance(exc, KassenError) and not played.over and actions >= limit:
                message = S_("no end within {limit} actions", limit=limit)
                return FightRecord(seed, "timeout", None, actions, message, None)
            return FightRecord(seed, "error", None, actions, f"{type(exc).__name__}: {exc}"[:300], None)
    result = opener.ruleset.result(played.state)
    assert result is not None
    status: Status = "draw" if result.winner is None else "win"
    return FightRecord(seed, status, result.winner, len(played.entries), result.reason, summarize(played))


def play_batch(batch: Batch) -> list[FightRecord]:
    """Every fight of ``batch``, in seed order (the worker function of every backend), with the cyclic
    garbage collector held off for the whole batch rather than fight by fight: a fight makes no
    reference cycles (:mod:`kassen.core.collector`) and each is dropped once recorded, so the one
    collection after the batch finds little to walk — where one after each fight walked that whole
    fight's history while it was still alive (5 to 20% of a short battle's time)."""
    opener = opener_for(batch)
    with paused():
        return [play_one(opener, seed, batch.max_actions, batch.policies) for seed in batch.seeds]
