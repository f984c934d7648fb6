"""Small battles for the engine's tests: scenarios from plain dicts, and a driver that applies actions
with scripted dice (every face given must be used, so a test says exactly which rolls happen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from kassen.core.events import Event
from kassen.core.rng import ScriptedDice
from kassen.sengoku.battle import (
    RULESET,
    Action,
    BattleState,
    Begin,
    Breath,
    Scenario,
    ScenarioModel,
    SengokuRuleset,
    Unit,
    Use,
    scenario_from_model,
)
from kassen.sengoku.catalog import Catalog, load_catalog

CATALOG = load_catalog()
SIDES = [{"id": "a", "name": "Side A", "allies": True}, {"id": "b", "name": "Side B"}]


def scenario(*units: dict[str, Any], catalog: Catalog | None = None, **extra: Any) -> Scenario:
    """A scenario with sides ``a`` (allies) and ``b`` unless ``sides`` is given."""
    data = {"name": "test", "sides": extra.pop("sides", SIDES), "units": list(units), **extra}
    return scenario_from_model(ScenarioModel.model_validate(data), "<test>", catalog)


def house(tmp_path: Path, rule: str, **values: Any) -> Catalog:
    """The bundled catalog with house default ``rule`` changed (as a user would override it)."""
    data = CATALOG.house_default(rule).model_dump(mode="json")
    data.update(values)
    (tmp_path / "house.yaml").write_text(yaml.safe_dump({"house_defaults": [data]}), encoding="utf-8")
    return load_catalog([tmp_path])


def catalog_with(tmp_path: Path, content: dict[str, Any]) -> Catalog:
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump(content), encoding="utf-8")
    return load_catalog([tmp_path])


def use(maneuver: str, target: str | None = None, **kw: Any) -> Use:
    return Use(maneuver, target, **kw)


class Fight:
    """A battle driven action by action with scripted dice."""

    def __init__(self, state: BattleState | Scenario, ruleset: SengokuRuleset | None = None) -> None:
        if isinstance(state, Scenario):
            self.ruleset = ruleset or state.ruleset
            state = state.state
        else:
            self.ruleset = ruleset or RULESET
        self.state = state
        self.events: list[Event] = []

    def do(self, action: Action, *faces: int) -> list[Event]:
        dice = ScriptedDice(faces)
        self.state, events = self.ruleset.apply(self.state, action, dice)
        assert dice.remaining == (), f"faces not used: {dice.remaining}"
        self.events += events
        return list(events)

    def begin(self) -> Fight:
        self.do(Begin())
        return self

    def breath(self, unit: str, *uses: Use, faces: Sequence[int] = ()) -> list[Event]:
        return self.do(Breath(unit, tuple(uses)), *faces)

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
