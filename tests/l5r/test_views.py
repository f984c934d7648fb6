"""Views (issue 11): the GM sees everything; a side sees its own fighters fully and, of the others,
everything but what the visibility table (content data, a house default) hides — another side's exact
Wounds. The two views differ by exactly those fields, and no hidden value appears anywhere in a side's
serialized view or account."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kassen import open_fight
from kassen.core.events import Event
from kassen.core.fight import Fight
from kassen.core.report import account
from kassen.core.view import GM_VIEW, Viewer
from kassen.l5r.content import bundled_content
from kassen.l5r.state import Exchange
from kassen.l5r.views import status

SENTINEL = 987_654_321
GOLDEN = Path(__file__).parents[1] / "golden" / "l5r" / "kakita-vs-hida.seed0.json"


def _played() -> Fight[Any, Any]:
    """kakita-vs-hida played halfway, a GM move among the actions."""
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    fight.step()
    fight.choose(["gm_set_wounds", "Hida Kuroda", "7"], gm=True)
    for _ in range(5):
        fight.step()
    assert not fight.over
    wounded = {e.data["fighter"] for e in fight.events if e.kind == "wounds"}
    assert wounded == {"Hida Kuroda", "Kakita Toshiro"}
    return fight


def _planted() -> Fight[Any, Any]:
    """:func:`_played` with values that cannot appear by chance where the table hides them: Hida's
    Wounds, a Point-to-throat exchange's, and in his ``wounds`` and ``gm_wounds`` events."""
    fight = _played()
    state = fight.state
    hida = replace(state.fighter("Hida Kuroda"), wounds=SENTINEL)
    state = replace(state.with_fighter(hida), exchange=Exchange(hida.name, SENTINEL + 1))
    fight._snapshots[-1] = replace(fight.snapshot, state=state)
    for i, entry in enumerate(fight._entries):
        events = tuple(_plant(e) for e in entry.events)
        fight._entries[i] = replace(entry, events=events)
    return fight


def _plant(e: Event) -> Event:
    if e.data.get("fighter") != "Hida Kuroda" or e.kind not in ("wounds", "gm_wounds"):
        return e
    data = dict(e.data)
    data.update(wounds=SENTINEL + 2, text=f"Hida Kuroda: {SENTINEL + 3} Wounds")
    data["steps"] = [{"value": SENTINEL + 4, "reason": f"{SENTINEL + 5} Wounds", "rule": "L5.CORE.6"}]
    if e.kind == "wounds":
        data["total"] = SENTINEL + 6
    return replace(e, data=data)


def test_no_hidden_value_is_anywhere_in_another_sides_view() -> None:
    # rule: L5.CORE.6 — another side's exact Wounds are behind the GM's screen (the rank is not)
    fight = _planted()
    planted = [str(SENTINEL + k) for k in range(7)]
    gm, crane, crab = (json.dumps(fight.view(v)) for v in (GM_VIEW, Viewer("Crane"), Viewer("Crab")))
    assert all(p in gm for p in planted)
    assert not any(p in crane for p in planted)
    # Hida's own side sees his Wounds; the exchange names no side: nobody but the GM reads it
    assert all(p in crab for p in planted if p != str(SENTINEL + 1)) and str(SENTINEL + 1) not in crab
    assert "rng" not in crane and '"rank": "' in crane


def _paths(node: Any, parts: list[str], element: Any) -> Iterator[tuple[Any, str, Any]]:
    """(container, key, innermost list element) at a visibility path such as ``fighters[].wounds``."""
    if not parts or not isinstance(node, dict):
        return
    head, rest = parts[0], parts[1:]
    key = head.removesuffix("[]")
    if key not in node:
        return
    if not rest:
        yield node, key, element
    elif head.endswith("[]") and isinstance(node[key], list):
        for item in node[key]:
            yield from _paths(item, rest, item)
    else:
        yield from _paths(node[key], rest, element)


def _get(node: Any, path: str) -> Any:
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


@pytest.mark.parametrize("side", ["Crane", "Crab"])
def test_the_gm_view_and_a_sides_view_differ_exactly_by_the_tables_hidden_fields(side: str) -> None:
    fight = _planted()
    table = fight.tables.visibility
    gm, mine = fight.view(GM_VIEW), fight.view(Viewer(side))
    assert mine.pop("viewer") == {"gm": False, "side": side} and gm.pop("viewer")["gm"]
    # a side's id is its own view's (Fight.view_id: the state id would let it try hidden values)
    assert mine.pop("state_id") == fight.view_id(Viewer(side)) != gm.pop("state_id") == fight.state_id
    hidden = 0
    for rule in table.state:  # every hidden field of the state: null for this side, then the same
        side_at = {id(e): e for _, _, e in _paths(mine["state"], rule.path.split("."), mine["state"])}
        for (g, key, element), (m, _, mine_element) in zip(
            _paths(gm["state"], rule.path.split("."), gm["state"]),
            _paths(mine["state"], rule.path.split("."), mine["state"]),
            strict=True,
        ):
            assert id(mine_element) in side_at
            if _get(element, rule.owner) != side:
                assert m[key] is None and g[key] is not None
                m[key] = g[key]
                hidden += 1
    assert mine["state"] == gm["state"]
    units = fight.units()
    for g_entry, m_entry in zip(gm["log"], mine["log"], strict=True):
        own = g_entry["actor"] is not None and g_entry["actor"].get("side") == side
        assert ("action" in m_entry) == own  # another side's choices come through what they did
        g_entry.pop("action", None)
        m_entry.pop("action", None)
        for g_event, m_event in zip(g_entry["events"], m_entry["events"], strict=True):
            for rule in table.events:
                owner = g_event["data"].get(rule.owner)
                if rule.kind == g_event["kind"] and units.get(owner) != side:
                    for name in rule.fields:
                        if name in g_event["data"]:
                            assert m_event["data"][name] is None
                            m_event["data"][name] = g_event["data"][name]
                            hidden += 1
        assert m_entry == g_entry
    assert mine == gm
    assert hidden > 3


def test_declarations_are_open_and_the_rank_is_public() -> None:
    # rule: L5.CORE.8 — declared aloud, lowest initiative first: every side reads every declaration
    fight = _played()
    crane = fight.view(Viewer("Crane"))
    declared = [e for entry in crane["log"] for e in entry["events"] if e["kind"] == "declare"]
    assert {e["data"]["fighter"] for e in declared} == {"Kakita Toshiro", "Hida Kuroda"}
    assert all(e["data"]["text"] for e in declared)
    ranks = [
        e["data"]["rank"]
        for entry in crane["log"]
        for e in entry["events"]
        if e["kind"] in ("wounds", "gm_wounds") and e["data"]["fighter"] == "Hida Kuroda"
    ]
    assert ranks and all(isinstance(r, str) for r in ranks)


def test_a_sides_account_says_the_rank_without_a_hidden_value_or_none() -> None:
    fight = _planted()
    text = account(fight, viewer=Viewer("Crane"), verbose=True)
    assert str(SENTINEL)[:6] not in text and "None" not in text
    assert "the GM sets Hida Kuroda's Wounds: Healthy  [L5.CORE.6]" in text
    assert "Hida Kuroda takes Wounds: Grazed  [L5.CS.2]" in text  # the rank, not the count
    assert "Kakita Toshiro takes 15 Wounds (Hida Kuroda's blow): 15 in all, Grazed" in text  # its own
    gm_text = account(fight, verbose=True)
    assert str(SENTINEL + 3) in gm_text


def test_a_hidden_event_is_told_without_its_details() -> None:
    from kassen.core.report import render_event
    from kassen.l5r.ruleset import RULESET

    names = {"Hida Kuroda": "Hida Kuroda"}
    whole = {"kind": "damage", "rule": "L5.CORE.5", "hidden": True, "data": {"attacker": "Hida Kuroda"}}
    assert render_event(RULESET, whole, names, verbose=True) == [
        "Hida Kuroda: damage (details not seen)  [L5.CORE.5]"
    ]
    blank = {
        "kind": "wounds",
        "rule": "L5.CORE.5",
        "data": {"fighter": "Hida Kuroda", "rank": None, "text": None},
    }
    assert render_event(RULESET, blank, names, verbose=True) == ["Hida Kuroda takes Wounds  [L5.CORE.5]"]


def test_the_table_is_content_overridable_and_out_of_the_hash(tmp_path: Path) -> None:
    # rule: L5.CORE.6 — the house default is data with its rationale; an open table shows every count
    bundled = bundled_content()
    assert bundled.tables.visibility.house_default.rule == "L5.CORE.6"
    assert "Wounds" in bundled.tables.visibility.house_default.rationale
    recorded = json.loads(GOLDEN.read_text("utf-8"))["meta"]["content"]
    assert bundled.hash == recorded["hash"] and dict(bundled.sections) == recorded["sections"]
    (tmp_path / "visibility.yaml").write_text("state: []\nevents: []\n", encoding="utf-8")
    fight = open_fight("l5r/kakita-vs-hida", seed=4, content=[tmp_path])
    assert fight.content.hash == bundled.hash  # what a side is shown never changes how a duel resolves
    fight.autoplay()
    crane = json.dumps(fight.view(Viewer("Crane")))
    hida = fight.state.fighter("Hida Kuroda")
    assert f'"wounds": {hida.wounds}' in crane
    assert Fight.from_json(fight.to_json(), content=[tmp_path]).log_json() == fight.log_json()
    (tmp_path / "visibility.yaml").write_text("events: [{kind: wounds, fields: []}]\n", encoding="utf-8")
    from kassen.core.errors import ContentError

    with pytest.raises(ContentError) as err:
        open_fight("l5r/kakita-vs-hida", seed=4, content=[tmp_path])
    assert any("visibility" in i.field for i in err.value.issues)


def test_the_status_line_shows_the_order_and_each_rank_as_the_one_deciding_sees_it(tmp_path: Path) -> None:
    # rule: L5.CORE.8 — lowest initiative declares first, highest acts first
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    before = fight.ruleset.status(fight.state, fight.tables, GM_VIEW)
    assert before[0].startswith("before the duel") and "Hida Kuroda (Crab): Healthy, 0 Wounds" in before[-1]
    fight.choose(["begin"])
    fight.choose(["gm_set_wounds", "Hida Kuroda", "20"], gm=True)
    fight.choose(["gm_set_wounds", "Kakita Toshiro", "3"], gm=True)
    lines = fight.ruleset.status(fight.state, fight.tables, Viewer("Crab"))  # Hida Kuroda (Crab) decides
    assert lines[0] == (
        "turn 1, declarations (lowest initiative first): "
        "Hida Kuroda <- declares now; Kakita Toshiro to declare"
    )
    assert lines[1] == "acting order (highest initiative first): Kakita Toshiro 19, Hida Kuroda 10"
    assert lines[2] == "Kakita Toshiro (Crane): Healthy; at 0 ft"
    assert lines[3] == "Hida Kuroda (Crab): Nicked, 20 Wounds (+3 TN); at 5 ft"
    fight.choose(["full_defense"])
    lines = fight.ruleset.status(fight.state, fight.tables, Viewer("Crane"))  # now Kakita Toshiro (Crane)
    assert "Hida Kuroda declared full defense; Kakita Toshiro <- declares now" in lines[0]
    assert lines[2:] == [
        "Kakita Toshiro (Crane): Healthy, 3 Wounds; at 0 ft",
        "Hida Kuroda (Crab): Nicked (+3 TN); at 5 ft",
    ]
    # a stricter table hides the rank too
    (tmp_path / "visibility.yaml").write_text(
        "events: [{kind: wounds, fields: [wounds, total, text, steps, rank], owner: fighter}]\n",
        encoding="utf-8",
    )
    strict = open_fight("l5r/kakita-vs-hida", seed=3, content=[tmp_path])
    strict.choose(["begin"])
    assert (
        strict.ruleset.status(strict.state, strict.tables, Viewer("Crab"))[2]
        == "Kakita Toshiro (Crane): rank not seen; at 0 ft"
    )
    gm_line = status(strict.state, strict.tables, GM_VIEW)[2]
    assert gm_line == "Kakita Toshiro (Crane): Healthy, 0 Wounds; at 0 ft"


def test_the_duel_command_tells_a_duel_as_one_side_sees_it() -> None:
    from typer.testing import CliRunner

    from kassen.cli.main import app

    runner = CliRunner()
    crane = runner.invoke(app, ["l5r", "duel", "kakita-vs-hida", "--seed", "3", "--as", "Crane"])
    assert crane.exit_code == 0, crane.output
    assert "Hida Kuroda takes Wounds: Nicked  [L5.CS.2]" in crane.stdout
    assert "Kakita Toshiro takes 15 Wounds (Hida Kuroda's blow): 15 in all, Grazed" in crane.stdout
    gm = runner.invoke(app, ["l5r", "duel", "kakita-vs-hida", "--seed", "3"])
    assert "Hida Kuroda takes 18 Wounds (called shot to the torso): 18 in all, Nicked" in gm.stdout
    view = json.loads(
        runner.invoke(app, ["l5r", "duel", "kakita-vs-hida", "--seed", "3", "--as", "Crab", "--json"]).stdout
    )
    assert view["viewer"] == {"gm": False, "side": "Crab"}
    assert [f["wounds"] is None for f in view["state"]["fighters"]] == [True, False]
    bad = runner.invoke(app, ["l5r", "duel", "kakita-vs-hida", "--as", "Lion"])
    assert bad.exit_code == 2 and "no side 'Lion'" in bad.stderr
