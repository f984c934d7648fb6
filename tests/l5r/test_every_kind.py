"""Every kind of event a duel logs, made and checked against its declared data (kassen.l5r.events): the
bundled duels played by random sides, seed after seed, until every kind they can show has shown; the
GM's moves and the declarations that end an injury's statuses in a duel of Kakita and Hida; a yield at
sword's point and a point released; and a script's step passed over. Each event is read by its
kind's codec and validated by its kind's JSON Schema."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kassen.core.engine import GM
from kassen.core.events import Event, check_event
from kassen.core.jsondata import json_schema
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.l5r.actions import Act, ActKind, Declare
from kassen.l5r.character import FighterId
from kassen.l5r.events import EVENT_TYPES
from kassen.l5r.gm import (
    GmAddCondition,
    GmDangerBehind,
    GmInjure,
    GmRemoveCondition,
    GmRemoveStatus,
    GmSetWounds,
)
from kassen.l5r.ruleset import RULESET
from kassen.l5r.scenario import load_scenario
from kassen.l5r.tables import Location

from .conftest import ScriptedRng, apply
from .test_specials import T, _threatened, declaring

KAKITA, HIDA = FighterId("Kakita Toshiro"), FighterId("Hida Kuroda")


def _gm_and_endings() -> Iterator[Event]:
    """The GM injures Kakita (a loose grip, blood in the eyes, a pinned foot, a fall) and Hida's hand (no
    grip: his weapon drops), takes a status
    off, adds and removes a condition, rules on danger behind and sets Wounds; Kakita then spends his
    declarations ending the statuses (each fighter's Wounds set back to 0 as the duel goes)."""
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    fight.choose(["begin"])
    for action in (
        GmInjure(KAKITA, Location.ARM, "loose_grip"),
        GmInjure(KAKITA, Location.HEAD, "blood_in_eyes"),
        GmInjure(KAKITA, Location.FOOT, "pinned"),
        GmInjure(KAKITA, Location.FOOT, "fall"),
        GmInjure(HIDA, Location.HAND, "no_grip"),  # drops his weapon (weapon_dropped)
        GmRemoveStatus(KAKITA, "prone: foot: fall"),
        GmAddCondition(HIDA, "Lame"),
        GmRemoveCondition(HIDA, "Lame"),
        GmDangerBehind(HIDA, True),
        GmSetWounds(HIDA, 5),
    ):
        fight.apply(action, by=GM)
    todo = [ActKind.REGAIN_GRIP, ActKind.CLEAR_VISION, ActKind.REMOVE_WEAPON]
    for _ in range(100):
        if not todo or fight.over:
            break
        for name in (KAKITA, HIDA):
            if fight.state.fighter(name).wounds:
                fight.apply(GmSetWounds(name, 0), by=GM)
        who = fight.to_move
        wanted = Declare(KAKITA, Act(todo[0]))
        if who is not None and who.id == KAKITA and wanted in fight.legal_actions():
            todo.pop(0)
            fight.apply(wanted)
        else:
            fight.step()
    yield from fight.events


def _point() -> Iterator[Event]:
    """A fighter with a point at its throat yields ("a good time to talk"); another, put Out by the GM,
    is released from the point."""
    yielding = Declare(T, Act(ActKind.YIELD))
    yield from apply(declaring(_threatened(), T), yielding, ScriptedRng(strict=False))[1]
    yield from apply(_threatened(), GmSetWounds(T, 40), ScriptedRng())[1]  # Earth 2: Out


def _skipped() -> Iterator[Event]:
    """A script's step that is not possible yet (removing a weapon from a foot not pinned) is passed over."""
    text = """
ruleset: l5r
name: skip then play
characters:
  - name: A
    policy: scripted
    skills: {kenjutsu: 3}
    script:
      - {do: remove_weapon}
      - {do: full_defense}
  - name: B
    skills: {kenjutsu: 3}
"""
    fight = open_fight(load_scenario("skip.yaml", text=text), seed=3)
    while not any(isinstance(a, Declare) and a.actor == "A" for a in fight.history):
        fight.step()
    yield from fight.events


def _played() -> Iterator[Event]:
    """The bundled duels, every side random, seed after seed until every other kind has shown."""
    seen: set[str] = set()
    names = [s.name for s in bundled_scenarios("l5r")]
    for seed in range(60):
        for name in names:
            fight = open_fight(f"l5r/{name}", seed=seed)
            fight = open_fight(f"l5r/{name}", seed=seed, policies={s: "random" for s in fight.sides()})
            fight.autoplay()
            yield from fight.events
            seen |= {e.kind for e in fight.events}
        if seen >= _PLAYED:
            return


#: The kinds the bundled duels show when their sides play at random.
_PLAYED = set(EVENT_TYPES) - {
    "gm_condition", "gm_condition_removed", "gm_danger", "gm_injury", "gm_status_removed", "gm_wounds",
    "regain_grip", "clear_vision", "remove_weapon", "yield", "released", "script_skipped",
}  # fmt: skip


def test_every_kind_of_event_a_duel_logs_is_made_and_is_its_declared_data() -> None:
    # rule: L5.CORE.8 — every event a duel logs carries its kind's declared data (the chronicle's schema)
    jsonschema = pytest.importorskip("jsonschema")
    schemas = {kind: jsonschema.Draft202012Validator(json_schema(tp)) for kind, tp in EVENT_TYPES.items()}
    seen: set[str] = set()
    for events in (_gm_and_endings(), _point(), _skipped(), _played()):
        for event in events:
            data = dict(event.data)
            check_event(EVENT_TYPES, event.kind, data, event.kind)
            schemas[event.kind].validate(data)
            seen.add(event.kind)
    assert RULESET.info.event_types is EVENT_TYPES
    assert seen == set(EVENT_TYPES), sorted(set(EVENT_TYPES) - seen)
