"""Typed events: a ruleset declares the data of every kind of event it logs (``RulesetInfo.event_types``,
a TypedDict per kind), the codec reads such data strictly (its keys, each of its type, none else), a
chronicle's events are checked against them when it is read, and ``kassen schema chronicle`` prints
them. The duel (kassen.l5r.events) declares its 49 kinds; every event any test makes is checked as it is
made (tests/conftest.py)."""

from __future__ import annotations

import copy
import json
from typing import NotRequired, TypedDict

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.codec import Codec, FormatError
from kassen.core.events import check_event
from kassen.core.fight import Fight
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.l5r.events import EVENT_TYPES
from kassen.l5r.ruleset import RULESET


class _Hit(TypedDict):
    target: str
    roll: int
    steps: list[dict[str, int]]
    note: NotRequired[str | None]


def test_the_codec_reads_a_typed_dict_strictly() -> None:
    codec: Codec[_Hit] = Codec(_Hit)
    good = {"target": "ken", "roll": 14, "steps": [{"a": 1}]}
    assert codec.load(good) == good and codec.load({**good, "note": None})["note"] is None
    for bad, where, says in (
        ({**good, "tagret": 1}, "tagret", "did you mean 'target'"),
        ({"target": "ken", "steps": []}, "roll", "field required"),
        ({**good, "roll": "14"}, "roll", "an integer"),
        ({**good, "steps": [{"a": "1"}]}, "steps[0].a", "an integer"),
        ({**good, "steps": {}}, "steps", "a list"),
    ):
        with pytest.raises(FormatError) as err:
            codec.load(bad, "data")
        assert err.value.path == f"data.{where}" and says in str(err.value), (bad, str(err.value))


def test_the_duel_declares_every_kind_it_words() -> None:
    # every kind of event the duel logs has a type and words, and no type is of a kind it never logs
    assert RULESET.info.event_types is EVENT_TYPES
    assert set(EVENT_TYPES) == set(RULESET.renderers)


def _played(name: str, seed: int) -> Fight[object, object]:
    fight = open_fight(f"l5r/{name}", seed=seed)
    fight.autoplay()
    return fight


@pytest.mark.parametrize("name", [s.name for s in bundled_scenarios("l5r")])
def test_every_event_of_every_bundled_duel_is_of_its_type(name: str) -> None:
    seen: set[str] = set()
    for seed in range(8):
        fight = _played(name, seed)
        for event in fight.events:
            check_event(EVENT_TYPES, event.kind, event.data)
            seen.add(event.kind)
        Fight.from_json(json.loads(fight.log_json()))  # read back: each event checked again
    assert {"begin", "initiative", "declare", "turn"} <= seen


def test_a_chronicle_whose_event_data_is_not_of_its_kind_is_refused_naming_the_field() -> None:
    data = json.loads(_played("kakita-vs-hida", 3).log_json())
    i, j = next(
        (i, j)
        for i, entry in enumerate(data["log"])
        for j, event in enumerate(entry["events"])
        if event["kind"] == "attack"
    )
    renamed = copy.deepcopy(data)
    event = renamed["log"][i]["events"][j]
    event["data"]["attacked"] = event["data"].pop("attacker")
    with pytest.raises(FormatError) as err:
        Fight.from_json(renamed)
    assert err.value.path == f"log[{i}].events[{j}].data.attacked"
    unknown = copy.deepcopy(data)
    unknown["log"][i]["events"][j]["kind"] = "attack_of_the_clones"
    with pytest.raises(FormatError) as err:
        Fight.from_json(unknown)
    assert "not a kind of event" in str(err.value)


def test_the_chronicle_schema_holds_every_kind_and_a_real_chronicle() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    result = CliRunner().invoke(app, ["schema", "chronicle", "--ruleset", "l5r"])
    assert result.exit_code == 0, result.stderr
    schema = json.loads(result.stdout)
    kinds = schema["properties"]["log"]["items"]["properties"]["events"]["items"]["oneOf"]
    assert {k["properties"]["kind"]["const"] for k in kinds} == set(EVENT_TYPES)
    chronicle = json.loads(_played("bridge-ambush", 1).log_json())
    jsonschema.validate(chronicle, schema)
    chronicle["log"][1]["events"][0]["data"]["surprise"] = True
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(chronicle, schema)
