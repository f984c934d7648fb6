"""Every kind of event a battle logs, made and checked against its declared data
(kassen.sengoku.battle.events): the burning temple played by random sides until every kind it can show
has shown, and small battles for the kinds only a GM, a squad, a yoma roll or a catalog of one's own
brings about. Each event is read by its kind's codec and validated by its kind's JSON Schema."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kassen.core.events import Event, check_event
from kassen.core.jsondata import json_schema
from kassen.core.scenario import open_fight
from kassen.sengoku.battle import Environment, Pass, Upkeep
from kassen.sengoku.battle.actions import (
    FumbleExtras,
    GmAddDebuff,
    GmAddStatus,
    GmRemoveDebuff,
    GmRemoveStatus,
    GmSetWounds,
)
from kassen.sengoku.battle.events import EVENT_TYPES
from kassen.sengoku.battle.ruleset import RULESET
from kassen.sengoku.battle.state import DecisionKind

from .helpers import CATALOG, NO_FATE, Fight, catalog_with, scenario, use
from .test_fumble_gm import fumbled


def _own_catalog(tmp_path: Path) -> Iterator[Event]:
    """A Kata that is no attack (kata), a cut whose hit leaves a note for the GM (effect), and an
    initiative that counts for the first breath (initiative_used); then the GM's own moves."""
    cut = CATALOG.maneuver("horizontal-cut").model_dump(mode="json", exclude_none=True)
    cut |= {"id": "marked-cut", "name": "Marked Cut", "on_hit": [{"effect": "note", "text": "marked"}]}
    kata = {"id": "still-mind", "name": "Still Mind", "kind": "kata", "cost": 1, "description": "Calm."}
    f = Fight(
        scenario(
            {
                "creature": "genzaburo",
                "side": "a",
                "overrides": {**NO_FATE, "maneuvers": ["marked-cut", "still-mind"]},
            },
            {"creature": "oni", "side": "b", "zone": "own-front", "initiative": 2, "overrides": NO_FATE},
            content=catalog_with(tmp_path, {"maneuvers": [cut, kata]}),
        )
    ).begin()
    yield from f.breath("oni", use("heavy-blow", "genzaburo"), faces=(1, 2))
    yield from f.breath("genzaburo", use("still-mind"), use("marked-cut", "oni"), faces=(9, 8))
    debuff = next(iter(CATALOG.debuffs))
    for action in (
        GmAddStatus("oni", "bleeding"),
        GmRemoveStatus("oni", "bleeding"),
        GmAddDebuff("oni", debuff),
        GmRemoveDebuff("oni", debuff),
        GmSetWounds("oni", 1),
    ):
        yield from f.do(action)


def _squads() -> Iterator[Event]:
    """A Lord falls (his squads lose Cohesion, one routs, a ward holds another); a routed squad rallies
    on an Entertainer's upkeep; the GM rolls the Yoma Encounter Table (yoma arrive)."""
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
            {"creature": "lord", "side": "b", "zone": "own-front", "wounds": 1},
            {"id": "guard", "creature": "ashigaru-squad", "side": "b", "cohesion": 1},
            {"id": "warded", "creature": "ashigaru-squad", "side": "b", "cohesion": 1},
        )
    ).begin()
    f.set_unit("warded", ward=True)
    yield from f.do(Pass("lord"))
    yield from f.breath("genzaburo", use("one-stroke-of-the-home-province", "lord"), faces=(3, 4))
    g = Fight(
        scenario(
            {"id": "ochiyo", "creature": "shirabyoshi", "side": "a"},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "cohesion": 1},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            yoma=True,
        )
    ).begin()
    g.set_unit("squad", routed=True, cohesion=0)
    while g.state.decision is not None and g.state.decision.kind is DecisionKind.BREATH:
        yield from g.do(Pass(g.state.decision.unit))
    yield from g.do(Upkeep("ochiyo", "flower-of-the-battlefield", "squad", "cohesion"))
    yield from g.do(Environment(), 60)  # 51-70: three gaki


def _fumbles() -> Iterator[Event]:
    """A fumble's foot slip (forced_move); an Oni's Karmic Retribution with its claws: the Critical
    Mistake table's Weapon Destroyed on a natural weapon (weapon_kept), and Overextended
    (energy_changed)."""
    yield from fumbled().do(FumbleExtras(("foot-slip",), "own-rear"))
    for row in (85, 10):
        f = Fight(
            scenario(
                {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
                {"creature": "oni", "side": "b", "zone": "own-front", "initiative": 2, "overrides": NO_FATE},
            )
        ).begin()
        yield from f.breath("oni", use("claw-rake", "genzaburo"), faces=(1, 1, row))


def _played() -> Iterator[Event]:
    """The burning temple, both sides random, seed after seed until every other kind has shown."""
    seen: set[str] = set()
    for seed in range(60):
        fight = open_fight("burning-temple", seed=seed)
        fight = open_fight("burning-temple", seed=seed, policies={s: "random" for s in fight.sides()})
        fight.autoplay()
        yield from fight.events
        seen |= {e.kind for e in fight.events}
        if seen >= _PLAYED:
            return


#: The kinds the burning temple shows when its sides play at random (the others need the small battles).
_PLAYED = set(EVENT_TYPES) - {
    "kata", "effect", "initiative_used", "gm_status", "gm_debuff", "gm_set_wounds", "routed", "ward_holds",
    "rallied", "yoma_roll", "arrives", "forced_move", "weapon_kept", "energy_changed",
}  # fmt: skip


def test_every_kind_of_event_a_battle_logs_is_made_and_is_its_declared_data(tmp_path: Path) -> None:
    # rule: SG.RND.2 — every event a battle logs carries its kind's declared data (the chronicle's
    # schema), from the round and the count to the GM's moves, a squad's rout and the yoma that arrive
    jsonschema = pytest.importorskip("jsonschema")
    schemas = {kind: jsonschema.Draft202012Validator(json_schema(tp)) for kind, tp in EVENT_TYPES.items()}
    seen: set[str] = set()
    for events in (_own_catalog(tmp_path), _squads(), _fumbles(), _played()):
        for event in events:
            data = dict(event.data)
            check_event(EVENT_TYPES, event.kind, data, event.kind)
            schemas[event.kind].validate(data)
            seen.add(event.kind)
    assert RULESET.info.event_types is EVENT_TYPES
    assert seen == set(EVENT_TYPES), sorted(set(EVENT_TYPES) - seen)
