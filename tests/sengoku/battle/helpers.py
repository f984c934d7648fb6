"""Small battles for the engine's tests: scenarios from plain dicts, content with a house default changed,
and a driver that applies actions through the core's engine (:func:`kassen.core.engine.advance`) with
scripted dice (every face given must be used, so a test says exactly which rolls happen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from kassen.content.content import Content, read_layer
from kassen.core.engine import Actor, Snapshot, advance
from kassen.core.events import Event
from kassen.core.scenario import ScenarioSource
from kassen.sengoku.battle import (
    RULESET,
    Action,
    BattleRules,
    BattleState,
    Begin,
    Breath,
    Scenario,
    Unit,
    Use,
    build_battle,
)
from kassen.sengoku.catalog import load_catalog

CATALOG = load_catalog()
#: The bundled content as the engine reads it.
BUNDLED: Content[BattleRules] = RULESET.load_content([])
SIDES = [{"id": "a", "name": "Side A", "allies": True}, {"id": "b", "name": "Side B"}]
#: Overrides for a unit that spends no Fate (so a test's rolls are never paused by a Fate offer).
NO_FATE = {"fate_points": 0}


def scenario(*units: dict[str, Any], content: Content[BattleRules] | None = None, **extra: Any) -> Scenario:
    """A scenario with sides ``a`` (allies) and ``b`` unless ``sides`` is given, on ``content`` (the
    bundled content by default)."""
    data = {"name": "test", "sides": extra.pop("sides", SIDES), "units": list(units), **extra}
    return build_battle(ScenarioSource("test", "<test>", "sengoku", data), content or BUNDLED)


def layer_content(path: Path) -> Content[BattleRules]:
    """The bundled content with the layer at ``path`` merged over it (as ``--content path``)."""
    return RULESET.load_content([read_layer(path, "layer 1")])


def write_house(tmp_path: Path, rule: str, **values: Any) -> Path:
    """A layer file with house default ``rule`` changed (as a user would override it)."""
    data = CATALOG.house_default(rule).model_dump(mode="json")
    data.update(values)
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump({"house_defaults": [data]}), encoding="utf-8")
    return path


def house(tmp_path: Path, rule: str, **values: Any) -> Content[BattleRules]:
    """The bundled content with house default ``rule`` changed."""
    return layer_content(write_house(tmp_path, rule, **values))


def catalog_with(tmp_path: Path, content: dict[str, Any]) -> Content[BattleRules]:
    """The bundled content with ``content`` (sections of a catalog file) merged over it."""
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump(content), encoding="utf-8")
    return layer_content(tmp_path)


def use(maneuver: str, target: str | None = None, **kw: Any) -> Use:
    return Use(maneuver, target, **kw)


class Fight:
    """A battle driven action by action with scripted dice, through the core's ``advance``."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.ruleset = RULESET
        self.content = scenario.content
        self.rules: BattleRules = scenario.rules
        self.state: BattleState = scenario.state
        self.events: list[Event] = []

    def do(self, action: Action, *faces: int) -> list[Event]:
        """Apply ``action`` with exactly these faces (a face left over, or one missing, is an error)."""
        snap, events = advance(self.ruleset, self.rules, Snapshot(self.state, 0), action, faces)
        self.state = snap.state
        self.events += events
        return list(events)

    def begin(self) -> Fight:
        self.do(Begin())
        return self

    def breath(self, unit: str, *uses: Use, faces: Sequence[int] = ()) -> list[Event]:
        return self.do(Breath(unit, tuple(uses)), *faces)

    def legal(self) -> Sequence[Action]:
        """What the ruleset lists for the actor to move now."""
        return self.ruleset.legal_actions(self.state, self.rules)

    @property
    def to_move(self) -> Actor | None:
        return self.ruleset.to_move(self.state)

    def u(self, uid: str) -> Unit:
        return self.state.unit(uid)

    def set_unit(self, uid: str, **changes: Any) -> None:
        self.state = self.state.with_unit(replace(self.state.unit(uid), **changes))

    def kinds(self, events: Sequence[Event] | None = None) -> list[str]:
        return [e.kind for e in (self.events if events is None else events)]

    def of(self, kind: str, events: Sequence[Event] | None = None) -> list[Event]:
        return [e for e in (self.events if events is None else events) if e.kind == kind]

    @property
    def decider(self) -> str | None:
        d = self.state.decision
        return d.unit if d is not None else None
