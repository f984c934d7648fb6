"""Typed events: a ruleset declares the data of every kind of event it logs (``RulesetInfo.event_types``,
a TypedDict per kind), the codec reads such data strictly (its keys, each of its type, none else), a
chronicle's events are checked against them when it is read, ``kassen schema chronicle`` prints them,
each renderer reads its kind's declared data and the visibility table names declared fields. Every
ruleset declares every kind it logs (kassen.sengoku.battle.events, kassen.arena.events,
kassen.l5r.events, the coin-flip duel's own); every event any test makes is checked as it is made
(tests/conftest.py), and each ruleset's test_every_kind makes every kind."""

from __future__ import annotations

import copy
import inspect
import json
import types
import typing
from typing import Any, NotRequired, TypedDict

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.codec import Codec, FormatError
from kassen.core.errors import ContentError
from kassen.core.events import check_event
from kassen.core.fight import Fight
from kassen.core.jsondata import json_schema
from kassen.core.ruleset import find_ruleset
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.core.view import EventRule, Visibility, check_visibility, visibility_of
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


RULESETS = ["arena", "coinflip", "l5r", "sengoku"]


def test_the_duel_declares_every_kind_it_words() -> None:
    # every kind of event the duel logs has a type and words, and no type is of a kind it never logs
    assert RULESET.info.event_types is EVENT_TYPES
    assert set(EVENT_TYPES) == set(RULESET.renderers)


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_declares_every_kind_it_words(name: str) -> None:
    rs = find_ruleset(name)
    assert rs.info.event_types and set(rs.info.event_types) == set(rs.renderers)


def _keys(tp: Any) -> dict[str, Any]:
    return typing.get_type_hints(tp)


def _reads(given: Any, declared: Any) -> bool:
    """Whether a renderer typed to read ``given`` reads what the kind declares: the declared type
    itself, a union holding it, or a TypedDict whose every key the declared one has, of the same type."""
    if given is declared:
        return True
    if typing.get_origin(given) is typing.Union or isinstance(given, types.UnionType):
        return any(_reads(member, declared) for member in typing.get_args(given))
    if not typing.is_typeddict(given):
        return False
    mine, theirs = _keys(given), _keys(declared)
    return all(key in theirs and theirs[key] == hint for key, hint in mine.items())


@pytest.mark.parametrize("name", RULESETS)
def test_every_renderer_reads_its_kinds_declared_data(name: str) -> None:
    # A renderer takes its kind's TypedDict (mypy then holds every key it reads to the declaration), or is
    # a template whose fields are keys of the kind: a key renamed in the rules breaks the type check or
    # this test, never the words silently.
    rs = find_ruleset(name)
    for kind, renderer in rs.renderers.items():
        declared = rs.info.event_types[kind]
        fields = getattr(renderer, "fields", None)
        if fields is not None:
            assert set(fields) <= set(_keys(declared)), (kind, set(fields) - set(_keys(declared)))
            continue
        call = renderer if inspect.isfunction(renderer) else type(renderer).__call__
        data = list(inspect.signature(call).parameters)[-1]
        given = typing.get_type_hints(call)[data]
        assert _reads(given, declared), (kind, given, declared)


def test_the_coin_flip_duel_makes_every_kind_it_declares() -> None:
    # rule: CF.END.1 — a duel played out and one conceded: begin, flip, turn, over, concede
    jsonschema = pytest.importorskip("jsonschema")
    types_ = find_ruleset("coinflip").info.event_types
    played = open_fight("coinflip/best-of-three", seed=4)
    played.autoplay()
    conceded = open_fight("coinflip/best-of-three", seed=4)
    conceded.apply(conceded.legal_actions()[0])
    conceded.apply(next(a for a in conceded.legal_actions() if type(a).__name__ == "Concede"))
    seen = set()
    for event in (*played.events, *conceded.events):
        check_event(types_, event.kind, event.data, event.kind)
        jsonschema.validate(dict(event.data), json_schema(types_[event.kind]))
        seen.add(event.kind)
    assert seen == set(types_)


@pytest.mark.parametrize("name", ["arena", "l5r", "sengoku"])
def test_a_visibility_table_names_only_declared_kinds_and_fields(name: str) -> None:
    # A rule hiding a field an event does not carry would hide nothing: the bundled tables name declared
    # fields only, and a table with a misspelt field or kind is refused when a fight opens.
    rs = find_ruleset(name)
    scenario = next(iter(bundled_scenarios(name)))
    fight = open_fight(f"{name}/{scenario.name}", seed=1)
    rules = visibility_of(rs, fight.tables)
    check_visibility(rules, rs.info.event_types)
    kind = next(r.kind for r in rules.events if r.kind != "*")
    misspelt = EventRule(kind=kind, fields=("not_a_field",), owner=next(r.owner for r in rules.events))
    with pytest.raises(ContentError) as err:
        check_visibility(Visibility(events=(misspelt,)), rs.info.event_types)
    assert "not_a_field" in str(err.value) and "events[0]" in str(err.value)
    unknown = EventRule(kind="no_such_kind", fields=("x",), owner="unit")
    with pytest.raises(ContentError) as err:
        check_visibility(Visibility(events=(unknown,)), rs.info.event_types)
    assert "not a kind of event" in str(err.value)


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


@pytest.mark.parametrize(
    ("name", "scenario"),
    [
        ("l5r", "l5r/bridge-ambush"),
        ("sengoku", "sengoku/demo"),
        ("arena", "arena/melee"),
        ("coinflip", "coinflip/best-of-three"),
    ],
)
def test_the_chronicle_schema_holds_every_kind_and_a_real_chronicle(name: str, scenario: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    result = CliRunner().invoke(app, ["schema", "chronicle", "--ruleset", name])
    assert result.exit_code == 0, result.stderr
    schema = json.loads(result.stdout)
    kinds = schema["properties"]["log"]["items"]["properties"]["events"]["items"]["oneOf"]
    assert {k["properties"]["kind"]["const"] for k in kinds} == set(find_ruleset(name).info.event_types)
    fight = open_fight(scenario, seed=1)
    fight.autoplay()
    chronicle = json.loads(fight.log_json())
    jsonschema.validate(chronicle, schema)
    chronicle["log"][1]["events"][0]["data"]["surprise"] = True
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(chronicle, schema)
