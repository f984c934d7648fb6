"""Playing fights: one batch of seeds of one scenario, in whatever process runs it.

A :class:`Batch` carries the scenario as *text* (so a sweep's cell, built in memory, travels to a worker
process or a Ray task as it is), the ``--content`` layers, the seeds and the action limit;
:func:`play_batch` plays each fight with the scenario's policies and returns one :class:`FightRecord`
per seed, in seed order. Fight ``i`` of a run uses seed ``S + i``: ``kassen fight SCENARIO --seed S+i``
replays it alone.

A fight that does not end within its action limit is a *time-out*, a fight the rules or a policy break
off with an error is an *error*: both are recorded (with the message) and counted apart; neither stops
the run.
"""

from __future__ import annotations

__all__ = ["Batch", "FightRecord", "Opener", "play_batch", "play_one"]

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from kassen.content.content import inline_layer, read_layer
from kassen.core.collector import paused
from kassen.core.errors import KassenError
from kassen.core.fight import Fight
from kassen.core.ruleset import Setup, find_ruleset
from kassen.core.scenario import ScenarioSource, read_scenario
from kassen.lab.summary import FightSummary, summarize

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
        layers = [read_layer(p, f"layer {i}") for i, p in enumerate(content, 1)]
        if source.content is not None:
            layers.append(inline_layer(source.content, source.file, source.node))
        self.content = self.ruleset.load_content(layers)
        self.setup: Setup[Any, Any] = self.ruleset.setup(source, self.content)

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


@lru_cache(maxsize=16)
def _opener(name: str, digest: str, text: str, content: tuple[str, ...]) -> Opener:
    """One opener per scenario text and layers in each process (``digest`` keeps the key small)."""
    return Opener(read_scenario(name, text=text), content)


def opener_for(batch: Batch) -> Opener:
    digest = hashlib.sha256(batch.text.encode("utf-8")).hexdigest()
    return _opener(batch.name, digest, batch.text, batch.content)


def play_one(
    opener: Opener, seed: int, max_actions: int | None = None, policies: Sequence[tuple[str, str]] = ()
) -> FightRecord:
    """Play the fight of ``seed`` to its end with the scenario's policies (or those named for its
    sides) and record it."""
    fight = opener.open(seed, policies)
    limit = fight.max_actions if max_actions is None else max_actions
    try:
        fight.autoplay(max_actions=limit)
    except Exception as exc:  # a broken fight is counted and named, never the end of a long run
        actions = len(fight.entries)
        if isinstance(exc, KassenError) and not fight.over and actions >= limit:
            return FightRecord(seed, "timeout", None, actions, f"no end within {limit} actions", None)
        return FightRecord(seed, "error", None, actions, f"{type(exc).__name__}: {exc}"[:300], None)
    result = fight.result
    assert result is not None
    status: Status = "draw" if result.winner is None else "win"
    return FightRecord(seed, status, result.winner, len(fight.entries), result.reason, summarize(fight))


def play_batch(batch: Batch) -> list[FightRecord]:
    """Every fight of ``batch``, in seed order (the worker function of every backend), with the cyclic
    garbage collector held off for the whole batch rather than fight by fight: a fight makes no
    reference cycles (:mod:`kassen.core.collector`) and each is dropped once recorded, so the one
    collection after the batch finds little to walk — where one after each fight walked that whole
    fight's history while it was still alive (5 to 20% of a short battle's time)."""
    opener = opener_for(batch)
    with paused():
        return [play_one(opener, seed, batch.max_actions, batch.policies) for seed in batch.seeds]
