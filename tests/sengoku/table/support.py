"""Helpers for the tests of play at the table (issue 11): small battles opened as core fights, random
walks through the menus, and one breath resolved many times through the core's engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from kassen import open_fight
from kassen.core.engine import Snapshot, advance
from kassen.core.events import Event
from kassen.core.fight import Fight
from kassen.core.policy import RandomPolicy
from kassen.core.rng import Rng
from kassen.sengoku.battle import RULESET, DecisionKind, Decline
from kassen.sengoku.battle.scenario import bundled_scenarios

SCENARIOS = list(bundled_scenarios())
SIDES = [{"id": "a", "name": "Side A", "allies": True}, {"id": "b", "name": "Side B"}]


def battle(tmp_path: Path, *units: dict[str, Any], seed: int = 1, **extra: Any) -> Fight[Any, Any]:
    """A core fight over a scenario written from ``units`` (sides ``a`` and ``b``), begun."""
    data = {"ruleset": "sengoku", "name": "test", "sides": SIDES, "units": list(units), **extra}
    path = tmp_path / "battle.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    fight = open_fight(str(path), seed=seed)
    fight.choose(["begin"])
    return fight


def duel(tmp_path: Path, oni: dict[str, Any] | None = None, **genzaburo: Any) -> Fight[Any, Any]:
    """Genzaburo (no Fate) and an Oni face each other in the party's Front; Genzaburo breathes first."""
    fight = battle(
        tmp_path,
        {"creature": "genzaburo", "side": "a", "overrides": {"fate_points": 0}, **genzaburo},
        {"creature": "oni", "side": "b", "zone": "own-front", **(oni or {})},
    )
    assert fight.to_move is not None and fight.to_move.id == "genzaburo"
    return fight


def reached(scenario: str, seed: int, steps: int) -> Fight[Any, Any]:
    """A bundled battle after ``steps`` decisions, each a random one: a random legal action, or (every
    third) a random walk through the menus — so the states reached include breaths no list holds."""
    fight = open_fight(f"sengoku/{scenario}", seed=seed)
    rnd = random.Random(seed)
    policy: RandomPolicy[Any, Any] = RandomPolicy(seed)
    for _ in range(steps):
        if fight.over:
            break
        if rnd.random() < 1 / 3:
            fight.choose(walk(fight, rnd))
        else:
            fight.step(policy)
    return fight


def walk(fight: Fight[Any, Any], rnd: random.Random, *, longer: float = 0.5) -> list[str]:
    """A random complete path through the menus, allowed options only (``longer``: the chance a breath
    takes one more maneuver rather than end)."""
    path: list[str] = []
    for _ in range(60):
        options = [o for o in fight.menu(path).options if o.allowed]
        assert options, f"a dead end after {path}"
        ends = [o for o in options if o.id == "end_breath"]
        pick = ends[0] if ends and rnd.random() > longer else rnd.choice(options)
        path.append(pick.id)
        if pick.complete:
            return path
    raise AssertionError(f"no complete path within 60 steps: {path}")


def resolve(fight: Fight[Any, Any], action: Any, seed: int) -> list[Event]:
    """``action`` resolved from the fight's state with the RNG at ``seed``; a decision the attack waits on
    (a reaction, Fate, Last Bastion) is declined, so the roll stands as rolled."""
    snap, events = advance(RULESET, fight.tables, Snapshot(fight.state, Rng(seed).state), action)
    out = list(events)
    waits = (DecisionKind.REACTION, DecisionKind.FATE, DecisionKind.LAST_BASTION)
    while (d := snap.state.decision) is not None and d.kind in waits and snap.state.result is None:
        snap, more = advance(RULESET, fight.tables, snap, Decline(d.unit))
        out += more
    return out


def attacks(events: Sequence[Event], attacker: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == "attack" and e.data["attacker"] == attacker]
