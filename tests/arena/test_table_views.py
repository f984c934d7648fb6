"""Views (issue 11): the referee sees everything; a side sees its own fighters fully and of the others
what the visibility table (content data, a house default overridable like the others) leaves public —
the GM's view and a side's differ exactly by the table's hidden fields, and no hidden value appears
anywhere in a side's serialized view; accounts and the status lines word what is hidden."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kassen.arena.bout.gm import GmSetFp, GmSetHp
from kassen.arena.bout.state import FpThresholds
from kassen.arena.content import bundled_content, load_rules
from kassen.arena.fighter import CheckBonus, GutsBonusPlan
from kassen.arena.ruleset import RULESET
from kassen.arena.terms import CheckKind
from kassen.core.events import Event
from kassen.core.report import account
from kassen.core.scenario import open_fight
from kassen.core.view import GM_VIEW, Viewer

#: Values no bout produces, planted in every hidden field of Ken (west) and looked for in Ryu's view.
SENTINEL = 987_654_000


def _played() -> Any:
    fight = open_fight("arena/duel", seed=7)
    fight.step()  # begun
    fight.apply(GmSetHp("ken", 5))
    fight.apply(GmSetFp("ken", 9))
    fight.autoplay()
    return fight


def _planted() -> tuple[Any, dict[str, int]]:
    """A played duel with a sentinel in each field the table hides for Ken, in the state and the log."""
    fight = _played()
    table = fight.tables.visibility
    planted: dict[str, int] = {}

    def value(name: str) -> int:
        planted[name] = SENTINEL + len(planted)
        return planted[name]

    ken = fight.state.fighter("ken")
    ken = replace(
        ken,
        hp=value("hp"),
        fp=value("fp"),
        location_damage=(("torso", value("location_damage")),),
        head_damage=value("head_damage"),
        last_death_check_hp=value("last_death_check_hp"),
        audience_points=value("audience_points"),
        check_bonuses=(CheckBonus("stand tall", value("check_bonus"), (CheckKind.DEATH,)),),
        profile=replace(
            ken.profile,
            hp=value("profile.hp"),
            fp=value("profile.fp"),
            guts_bonus=GutsBonusPlan((CheckKind.DEATH,), value("guts_bonus")),
        ),
    )
    agenda = (FpThresholds("ken", value("agenda.before"), value("agenda.after")),)
    state = replace(fight.state, fighters=(fight.state.fighters[0], ken), agenda=agenda)
    fight._snapshots[-1] = replace(fight.snapshot, state=state)
    hidden = {(r.kind, f) for r in table.events for f in r.fields}
    for i, entry in enumerate(fight._entries):
        events = []
        for e in entry.events:
            data = dict(e.data)
            if e.data.get("fighter") == "ken":
                for key in list(data):
                    if (e.kind, key) in hidden:
                        data[key] = value(f"{e.kind}.{key}")
            events.append(Event(e.kind, data, e.rule, e.automatic))
        fight._entries[i] = replace(entry, events=tuple(events))
    return fight, planted


def test_the_house_default_hides_hp_fp_audience_points_and_the_guts_plan() -> None:
    # rule: AR.GAP.2 — the visibility table is content data with a house default (rule, rationale)
    table = load_rules().visibility
    assert table.house_default.rule == "AR.GAP.2" and "HP and FP" in table.house_default.rationale
    paths = {r.path for r in table.state}
    assert {
        "fighters[].hp",
        "fighters[].fp",
        "fighters[].audience_points",
        "fighters[].profile.guts_bonus",
    } <= paths
    assert {("injury", "hp_after"), ("fatigue", "fp_after")} <= {
        (r.kind, f) for r in table.events for f in r.fields
    }


def test_no_hidden_value_appears_anywhere_in_another_sides_view() -> None:
    # rule: AR.GAP.2
    fight, planted = _planted()
    assert len(planted) > 20  # every state field and many events
    gm, east, west = (json.dumps(fight.view(v)) for v in (GM_VIEW, Viewer("east"), Viewer("west")))
    for name, sentinel in planted.items():
        assert str(sentinel) in gm, name
        assert str(sentinel) not in east, name  # Ryu's side never reads Ken's
    own = [n for n, s in planted.items() if str(s) in west]
    assert set(planted) - set(own) <= {"agenda.before", "agenda.after"}  # Ken's side reads its own
    assert "rng" not in east


def _hide(gm: Any, table: Any, side: str, sides: dict[str, str]) -> Any:
    """The GM's view with the table's hidden fields of every other side's fighters set to null, read
    from the table itself (independently of the core's redaction)."""
    out = copy.deepcopy(gm)
    state = out["state"]
    for rule in table.state:
        head, _, rest = rule.path.partition("[].")
        for element in state[head]:
            owner: Any = element
            for part in rule.owner.split("."):
                owner = owner.get(part) if isinstance(owner, dict) else None
            if owner != side and sides.get(str(owner)) != side:
                node = element
                keys = rest.split(".")
                for k in keys[:-1]:
                    node = node[k]
                if keys[-1] in node:
                    node[keys[-1]] = None
    for entry in out["log"]:
        for event in entry["events"]:
            for rule in table.events:
                owner = event["data"].get(rule.owner)
                if event["kind"] == rule.kind and owner is not None and sides.get(owner) != side:
                    for f in rule.fields:
                        if f in event["data"]:
                            event["data"][f] = None
            for steps in table.steps:
                owner = event["data"].get(steps.owner)
                if owner is not None and sides.get(owner) != side:
                    for value in event["data"].values():
                        for step in value if isinstance(value, list) else ():
                            if isinstance(step, dict) and step.get("rule") in steps.rules:
                                step["reason"] = None
    return out


@pytest.mark.parametrize("side", ["east", "west"])
def test_the_gms_view_and_a_sides_differ_exactly_by_the_hidden_fields(side: str) -> None:
    # rule: AR.GAP.2
    fight, _ = _planted()
    gm, seen = fight.view(GM_VIEW), fight.view(Viewer(side))
    expected = _hide(gm, fight.tables.visibility, side, dict(fight.units()))
    assert seen["state"] == expected["state"] and seen["state"] != gm["state"]
    for mine, theirs in zip(seen["log"], expected["log"], strict=True):
        assert mine["events"] == theirs["events"]
        actor = theirs["actor"] or {}
        assert ("action" in mine) == (actor.get("side") == side)  # the other side's choices unseen
    shared = ("state", "log", "viewer", "state_id")  # a side's id is its own view's (Fight.view_id)
    same = {k: v for k, v in seen.items() if k not in shared}
    assert same == {k: v for k, v in gm.items() if k not in shared}
    assert seen["state_id"] == fight.view_id(Viewer(side)) != gm["state_id"] == fight.state_id


def test_a_side_reads_the_account_and_the_status_without_the_hidden_values() -> None:
    # rule: AR.GAP.2, AR.INJ.1
    fight = _played()
    gm, east = account(fight), account(fight, viewer=Viewer("east"))
    assert "None" not in east and "None" not in gm
    assert "The referee sets Ken's HP: 13 → 5  [AR.GAP.2]" in gm
    assert "The referee sets Ken's HP  [AR.GAP.2]" in east and "13 → 5" not in east
    ken_hurt = [line for line in east.splitlines() if line.strip().startswith("Ken loses")]
    ryu_hurt = [line for line in east.splitlines() if line.strip().startswith("Ryu: HP")]
    assert ken_hurt or ryu_hurt  # somebody was hit: Ken's loss told without his HP, Ryu's with his
    assert not any(line.strip().startswith("Ken: HP") for line in east.splitlines())
    status = RULESET.status(fight.states[2], fight.tables, Viewer("east"))  # Ryu's side: Ken's numbers as ?
    assert any(line.startswith("Ken (west) at 1 m, standing: HP ?, FP ?") for line in status)
    assert any(line.startswith("Ryu (east) at 0 m, standing: HP 12/12, FP 11/11") for line in status)


def test_the_table_is_overridable_and_stays_out_of_the_content_hash(tmp_path: Path) -> None:
    # rule: AR.GAP.2 — an open table (nothing hidden) as a content layer; the rules' hash is unchanged
    layer = tmp_path / "open"
    layer.mkdir()
    (layer / "visibility.yaml").write_text(
        "house_default: {rule: AR.GAP.2, rationale: 'an open table: the referee calls every number'}\n"
        "state: []\nevents: []\n",
        encoding="utf-8",
    )
    fight = open_fight("arena/duel", seed=7, content=[layer])
    assert fight.content.hash == bundled_content().hash
    fight.autoplay()
    gm, east = fight.view(GM_VIEW), fight.view(Viewer("east"))
    assert east["state"] == gm["state"]
    assert [e["events"] for e in east["log"]] == [e["events"] for e in gm["log"]]


def test_steps_that_name_a_hidden_hp_or_fp_keep_their_value_and_hide_their_words() -> None:
    # rule: AR.GAP.2, AR.HP.1, AR.FTG.2, AR.FTG.4 — "HP 3: Move halved" and "FP 1 not overridden" named
    # another side's HP and FP in the explanation of a move and the reason of a lost match
    fight = open_fight("arena/melee", seed=7)
    for _ in range(10):
        fight.step()
    gm, giant = fight.view(GM_VIEW), fight.view(Viewer("giant"))
    halved = [
        (i, j, k)
        for i, entry in enumerate(gm["log"])
        for j, event in enumerate(entry["events"])
        for k, step in enumerate(event["data"].get("steps") or [])
        if event["kind"] == "moved" and step["rule"] == "AR.HP.1"
    ]
    assert halved  # Aki moves at HP 3, Move halved
    for i, j, k in halved:
        mine, theirs = gm["log"][i]["events"][j], giant["log"][i]["events"][j]
        assert mine["data"]["steps"][k]["reason"].startswith("HP ")
        assert theirs["data"]["steps"][k] == {**mine["data"]["steps"][k], "reason": None}
    assert "Move halved" not in json.dumps(giant)
    fight = open_fight("arena/pit", seed=95)  # the fatigue of subturn 11 takes Sora from FP 5 to 1
    fight.autoplay()
    def lost(viewer: Viewer) -> list[Any]:
        events = [e for entry in fight.view(viewer)["log"] for e in entry["events"]]
        sora = [e for e in events if e["kind"] == "match_lost" and e["data"]["fighter"] == "sora"]
        return [e["data"]["reason"] for e in sora]

    assert lost(Viewer("brute")) == [None]
    assert lost(Viewer("challengers")) == ["FP 1 not overridden"]  # Sora's own side reads it
    told = account(fight, viewer=Viewer("brute"))
    assert "Sora loses the match\n" in told.replace("  [AR.FTG.4]", "") and "(None)" not in told
    assert "FP 1 not overridden" not in told and "FP 1 not overridden" in account(fight)
