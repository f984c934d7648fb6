"""Views (issue 11): the GM sees everything; a side sees its own units fully and, of the others,
everything but what the visibility table (content data, a house default) hides — another side's
reserved techniques and Fate points. The two views differ by exactly those fields, no hidden value
appears anywhere in a side's serialized view or account, and the count track above each menu shows a
side what it may see."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from kassen import open_fight
from kassen.core.events import Event
from kassen.core.fight import Fight
from kassen.core.report import account, render_event
from kassen.core.view import GM_VIEW, Viewer
from kassen.sengoku.battle import RULESET, BreathInProgress, Reservation, Use
from kassen.sengoku.catalog import catalog_content

SENTINEL = 987_654_321
NAME = "sentinel-technique-x"
GOLDEN = Path(__file__).parents[2] / "golden" / "sengoku" / "demo.seed0.json"


def _played() -> Fight[Any, Any]:
    """The demo played until a Takeda unit holds a reservation while a raider decides, a GM move among
    the actions."""
    fight = open_fight("sengoku/demo", seed=3)
    fight.step()
    fight.choose(["gm_set_wounds", "samurai", "3"], gm=True)
    while not (
        any(u.reservations for u in fight.state.units if u.side == "takeda")
        and fight.to_move is not None
        and fight.to_move.side == "party"
    ):
        fight.step()
    assert not fight.over and any(e.kind == "reserve" for e in fight.events)
    return fight


def _planted() -> Fight[Any, Any]:
    """:func:`_played` with values that cannot appear by chance where the table hides them: the Takeda
    units' reservations and Fate, a Takeda breath in progress, and the Takeda events' hidden fields."""
    fight = _played()
    state = fight.state
    for u in state.units:
        if u.side == "takeda":
            state = state.with_unit(replace(u, reservations=(Reservation(NAME),), fate_points=SENTINEL))
    state = replace(state, breath=BreathInProgress("nobukado", (Use(NAME),), (SENTINEL + 1,), 1, 9))
    fight._snapshots[-1] = replace(fight.snapshot, state=state)
    for i, entry in enumerate(fight._entries):
        fight._entries[i] = replace(entry, events=tuple(_plant(fight, e) for e in entry.events))
    return fight


def _plant(fight: Fight[Any, Any], e: Event) -> Event:
    if fight.side_of(e.data.get("unit")) != "takeda":
        return e
    data = dict(e.data)
    if e.kind == "breath":
        data.update(uses=[{"maneuver": NAME}], costs=[SENTINEL + 2])
        data["cost_steps"] = [[{"value": SENTINEL + 3, "reason": NAME, "rule": "SG.BRT.1"}]]
    elif e.kind == "reserve":
        data["maneuver"] = NAME
    else:
        return e
    return replace(e, data=data)


def test_no_hidden_value_is_anywhere_in_another_sides_view() -> None:
    # rule: SG.RES.1 — a reserved technique is the side's until it answers; rule: SG.FAT.1 — Fate points
    fight = _planted()
    planted = [NAME, *(str(SENTINEL + k) for k in range(4))]
    gm, party, takeda = (json.dumps(fight.view(v)) for v in (GM_VIEW, Viewer("party"), Viewer("takeda")))
    assert all(p in gm for p in planted) and all(p in takeda for p in planted)
    assert not any(p in party for p in planted)
    assert "rng" not in party


def _paths(node: Any, parts: list[str], element: Any) -> Iterator[tuple[Any, str, Any]]:
    """(container, key, innermost list element) at a visibility path such as ``units[].fate_points``."""
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


@pytest.mark.parametrize("side", ["party", "takeda"])
def test_the_gm_view_and_a_sides_view_differ_exactly_by_the_tables_hidden_fields(side: str) -> None:
    fight = _planted()
    table = fight.tables.catalog.visibility
    units = fight.units()

    def owner_side(value: Any) -> Any:
        return units.get(value, value) if isinstance(value, str) else value

    gm, mine = fight.view(GM_VIEW), fight.view(Viewer(side))
    assert mine.pop("viewer") == {"gm": False, "side": side} and gm.pop("viewer")["gm"]
    # a side's id is its own view's (Fight.view_id: the state id would let it try hidden values)
    assert mine.pop("state_id") == fight.view_id(Viewer(side)) != gm.pop("state_id") == fight.state_id
    hidden = 0
    for rule in table.state:  # every hidden field of the state: null for this side, then the same
        for (g, key, element), (m, _, _) in zip(
            _paths(gm["state"], rule.path.split("."), gm["state"]),
            _paths(mine["state"], rule.path.split("."), mine["state"]),
            strict=True,
        ):
            if owner_side(_get(element, rule.owner)) != side:
                assert m[key] is None and g[key] is not None
                m[key] = g[key]
                hidden += 1
            else:
                assert m[key] == g[key]
    assert mine["state"] == gm["state"]
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
    assert hidden > 6


def test_wounds_stances_and_energy_are_open() -> None:
    # rule: SG.CNT.5 — the count is public, so is Energy; rule: SG.BRT.1 — a stance is declared; rule:
    # SG.WND.1 — a blow's Wounds follow from its technique and an open roll: another side reads them
    fight = _played()
    party = fight.view(Viewer("party"))
    samurai = next(u for u in party["state"]["units"] if u["id"] == "samurai")
    real = fight.state.unit("samurai")
    assert (samurai["wounds"], samurai["energy"], samurai["stances"]) == (
        real.wounds,
        real.energy,
        list(real.stances),
    )
    assert samurai["reservations"] is None and samurai["fate_points"] is None
    kinds = {e["kind"] for entry in party["log"] for e in entry["events"]}
    assert {"breath", "reserve", "gm_set_wounds"} <= kinds


def test_a_sides_account_words_what_it_does_not_see() -> None:
    fight = _planted()
    text = account(fight, viewer=Viewer("party"), verbose=True)
    assert NAME not in text and str(SENTINEL)[:6] not in text and "None" not in text
    assert "Takeda Nobukado reserves a defense (prepaid)  [SG.RES.1]" in text
    assert "Takeda Nobukado breathes at count 12: spends 1 Energy (limit 5)" in text
    own = account(fight, viewer=Viewer("takeda"), verbose=True)
    assert f"Takeda Nobukado reserves {NAME} (prepaid)" in own  # its own side reads its own
    assert "GM sets Takeda samurai's Wounds 4 → 3" in text


def test_a_stricter_table_hides_wounds_and_the_account_still_reads() -> None:
    # the documented alternative (docs/sengoku/battle.md): another side's Wounds hidden too
    names = {"samurai": "Takeda samurai"}
    for kind, data, said in (
        ("wounds_lost", {"unit": "samurai", "before": None, "after": None}, "Takeda samurai loses Wounds"),
        (
            "gm_set_wounds",
            {"unit": "samurai", "before": None, "after": None},
            "GM sets Takeda samurai's Wounds",
        ),
        ("bleeds", {"unit": "samurai", "before": None, "after": None}, "Takeda samurai bleeds"),
        (
            "reservations_expire",
            {"unit": "samurai", "maneuvers": None},
            "Takeda samurai's reservations expire",
        ),
        (
            "forfeit",
            {"unit": "samurai", "use": None, "why": "out of reach"},
            "Takeda samurai's maneuver is forfeited",
        ),
        ("wounds_lost_to", {"unit": "samurai", "before": None, "after": None, "cause": "Fire"}, "to Fire"),
        (
            "behind",
            {"target": "samurai", "unit": "samurai", "wounds": 1, "before": None, "after": None},
            "1 Wound",
        ),
    ):
        event = {"kind": kind, "rule": "SG.WND.4", "data": data}
        [line] = render_event(RULESET, event, names, verbose=True)
        assert said in line and "None" not in line, line
    reset = {
        "kind": "energy_reset",
        "rule": "SG.RND.1",
        "data": {
            "unit": "samurai",
            "zone": "core",
            "energy": 10,
            "wounds": None,
            "wounds_max": 4,
            "armor": [],
        },
    }
    [line] = render_event(RULESET, reset, names, verbose=True)
    assert "Wounds not seen" in line and "None" not in line


def test_the_table_is_content_overridable_and_out_of_the_hash(tmp_path: Path) -> None:
    # rule: SG.RES.1 — the house default is data with its rationale; an open table shows everything
    bundled = catalog_content()
    table = bundled.tables.visibility
    assert table is not None and table.house_default.rule == "SG.RES.1"
    assert "reserved" in table.house_default.rationale and table.alternative
    recorded = json.loads(GOLDEN.read_text("utf-8"))["meta"]["content"]
    assert bundled.hash == recorded["hash"] and dict(bundled.sections) == recorded["sections"]
    assert "visibility" not in bundled.sections
    [listed] = [v for v in bundled.tables.house_defaults_for("SG.RES.1") if v.source == "visibility.yaml"]
    assert listed.value["state"] == [
        "units[].reservations",
        "units[].fate_points",
        "breath.uses",
        "breath.costs",
    ]
    (tmp_path / "open.yaml").write_text(yaml.safe_dump({"visibility": {"state": [], "events": []}}), "utf-8")
    fight = open_fight("sengoku/demo", seed=4, content=[tmp_path])
    assert fight.content.hash == bundled.hash  # what a side is shown never changes how a battle goes
    for _ in range(8):
        fight.step()
    party = fight.view(Viewer("party"))
    nobukado = next(u for u in party["state"]["units"] if u["id"] == "nobukado")
    assert nobukado["fate_points"] == fight.state.unit("nobukado").fate_points
    assert Fight.from_json(fight.to_json(), content=[tmp_path]).log_json() == fight.log_json()
    (tmp_path / "open.yaml").write_text(
        yaml.safe_dump({"visibility": {"state": [{"path": "units"}]}}), "utf-8"
    )
    from kassen.core.errors import ContentError

    with pytest.raises(ContentError) as err:
        open_fight("sengoku/demo", seed=4, content=[tmp_path])
    assert "visibility" in str(err.value) and "owner" in str(err.value)


def test_the_count_track_shows_what_the_decider_may_see() -> None:
    # rule: SG.CNT.1 — the count descends from the highest Energy; rule: SG.CNT.2 — an initiative +N
    # counts on the first breath; the track lists every unit by the count it acts at
    fight = _played()
    actor = fight.to_move
    assert actor is not None
    lines = RULESET.status(fight.state, fight.tables, Viewer(actor.side))
    assert lines[0].startswith(f"round {fight.state.round}, count {fight.state.count}: ")
    assert lines[1].startswith("count track (highest first): ")
    mine = actor.side
    for u in fight.state.units:
        line = next(x for x in lines if x.startswith(f"{u.name} ("))
        if u.on_battlefield:
            assert f"Energy {u.energy}/{u.max_energy}" in line and f"Wounds {u.wounds}/{u.wounds_max}" in line
        if u.side != mine:
            assert "reserved:" not in line and "Fate" not in line
        elif u.fate_points and u.on_battlefield:  # an Incapacitated unit's line says only that
            assert f"Fate {u.fate_points}" in line
    assert any(u.side == mine and u.fate_points and u.on_battlefield for u in fight.state.units)
    reserving = [u for u in fight.state.units if u.side != mine and u.reservations]
    assert reserving  # the other side holds a reservation the decider does not see...
    gm = RULESET.status(fight.state, fight.tables, GM_VIEW)
    for u in reserving:  # ...and the GM does
        assert "reserved: " in next(x for x in gm if x.startswith(f"{u.name} ("))
    start = open_fight("sengoku/count-example", seed=4)
    assert RULESET.status(start.state, start.tables, GM_VIEW)[0].startswith("before the battle")
    start.choose(["begin"])
    kuro = start.state.unit("kuro")
    track = RULESET.status(start.state, start.tables, GM_VIEW)[1]
    assert track.startswith(f"count track (highest first): Kuro {kuro.energy + kuro.initiative}")
