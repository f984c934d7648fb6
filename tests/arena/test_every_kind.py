"""Every kind of event a bout logs, made and checked against its declared data (kassen.arena.events):
the bundled bouts played by random sides, seed after seed, until every kind they can show has shown,
and small bouts for the referee's moves and the readings that only another house table brings about
(FP below 0 off HP, a stun's cause renewed). Each event is read by its kind's codec and validated by
its kind's JSON Schema."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kassen.arena.bout import Attack, Decline, Wait
from kassen.arena.bout.gm import GmAddCondition, GmEndBout, GmRemoveCondition, GmSetFp, GmSetHp
from kassen.arena.content import load_rules
from kassen.arena.events import EVENT_TYPES
from kassen.arena.fighter import Weapon
from kassen.arena.ruleset import RULESET
from kassen.arena.terms import DamageType
from kassen.core.events import Event, check_event
from kassen.core.jsondata import json_schema
from kassen.core.scenario import open_fight

from .helpers import begun, edit, fighter, step

A = fighter("a", "east", dx=12, skill=14, weapon=Weapon("maul", "none", 3, 0, DamageType.CRUSHING))
B = fighter("b", "west", defense=8)


def _referee() -> Iterator[Event]:
    """The referee sets HP and FP, adds and takes off a condition, and ends the bout."""
    s = begun(A, B)
    for action in (
        GmSetHp("b", 5),
        GmSetFp("b", 4),
        GmAddCondition("b", "stunned"),
        GmRemoveCondition("b", "stunned"),
        GmEndBout("east"),
    ):
        s, events = step(s, action)
        yield from events


def _readings() -> Iterator[Event]:
    """FP spent below 0 taken off HP (the other reading of AR.GAP.2); a second stunning hit renewing the
    stun's cause (the other reading of AR.RD.8)."""
    off_hp = load_rules({"injury": {"fatigue": {"below_zero": {"reading": "hp"}}}})
    s = edit(begun(A, B, rules=off_hp), "a", fp=0, hp=10)
    yield from step(s, Attack("a", "b", all_out=True), [6, 6, 6], off_hp)[1]
    latest = load_rules({"injury": {"guts": {"stun_cause": "latest_hit"}}})
    s = begun(A, B, rules=latest)
    s, _ = step(s, Attack("a", "b"), [3, 3, 3, 6, 6, 6, 2, 2, 1], latest)
    s, _ = step(s, Decline("b"), [1, 1, 2], latest)
    s, _ = step(s, Wait("b"), [6, 6, 6], latest)
    yield from step(s, Attack("a", "b"), [3, 3, 3, 1, 1, 2, 2, 2, 3, 1, 1, 2], latest)[1]


def _played() -> Iterator[Event]:
    """The bundled bouts, every side random, seed after seed until every other kind has shown."""
    seen: set[str] = set()
    for seed in range(80):
        for name in ("duel", "knockback", "melee", "pit"):
            fight = open_fight(f"arena/{name}", seed=seed)
            fight = open_fight(f"arena/{name}", seed=seed, policies={s: "random" for s in fight.sides()})
            fight.autoplay()
            yield from fight.events
            seen |= {e.kind for e in fight.events}
        if seen >= _PLAYED:
            return


#: The kinds the bundled bouts show when their sides play at random.
_PLAYED = set(EVENT_TYPES) - {
    "gm_hp", "gm_fp", "gm_condition", "gm_end", "fatigue_below_zero", "stun_renewed",
}  # fmt: skip


def test_every_kind_of_event_a_bout_logs_is_made_and_is_its_declared_data() -> None:
    # rule: AR.GAP.2 — every event a bout logs carries its kind's declared data (the chronicle's schema)
    jsonschema = pytest.importorskip("jsonschema")
    schemas = {kind: jsonschema.Draft202012Validator(json_schema(tp)) for kind, tp in EVENT_TYPES.items()}
    seen: set[str] = set()
    for events in (_referee(), _readings(), _played()):
        for event in events:
            data = dict(event.data)
            check_event(EVENT_TYPES, event.kind, data, event.kind)
            schemas[event.kind].validate(data)
            seen.add(event.kind)
    assert RULESET.info.event_types is EVENT_TYPES
    assert seen == set(EVENT_TYPES), sorted(set(EVENT_TYPES) - seen)
