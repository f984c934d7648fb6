"""The campaigns' JSON API and builder partials (in-process; tests/campaign/test_browser.py drives them
in Chromium): the GM's and players' tokens, the builder's checks by the loader's validators, a fight
started at the web table and its aftermath, and hostile requests refused with a clear 4xx."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from kassen.campaign.roster import Campaigns
from kassen.web.app import create_app
from kassen.web.settings import Settings


@pytest.fixture
def client(campaigns: Campaigns) -> Iterator[TestClient]:
    app = create_app(Settings(), store=campaigns.store)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def _gm(client: TestClient, ident: str = "ford") -> dict[str, str]:
    made = client.post("/api/campaigns", json={"id": ident, "name": "The ford"})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['gm_token']}"}


HATAMOTO: dict[str, Any] = {
    "ruleset": "sengoku",
    "id": "hatamoto",
    "name": "Takeda hatamoto",
    "sheet": {"creature": "samurai", "overrides": {"fate_points": 1}},
}


def test_a_player_sees_only_their_own_characters_and_changes_nothing(client: TestClient) -> None:
    gm = _gm(client)
    assert client.post("/api/campaigns/ford/characters", headers=gm, json=HATAMOTO).status_code == 201
    mine = {**HATAMOTO, "id": "ayumi-ronin", "name": "Ronin", "owner": "ayumi"}
    assert client.post("/api/campaigns/ford/characters", headers=gm, json=mine).status_code == 201
    made = client.post("/api/campaigns/ford/players", headers=gm, json={"player": "ayumi"})
    player = {"Authorization": f"Bearer {made.json()['token']}"}

    seen = client.get("/api/campaigns/ford", headers=player).json()
    assert [c["id"] for c in seen["characters"]] == ["ayumi-ronin"]
    assert "fights" not in seen and "scenarios" not in seen
    assert client.get("/api/campaigns/ford/characters/hatamoto", headers=player).status_code == 404
    assert client.get("/api/campaigns/ford/characters/ayumi-ronin/yaml", headers=player).status_code == 200
    change = {"name": "Renamed"}
    assert (
        client.patch("/api/campaigns/ford/characters/ayumi-ronin", headers=player, json=change).status_code
        == 403
    )
    assert client.post("/api/campaigns/ford/characters", headers=player, json=HATAMOTO).status_code == 403
    assert client.get("/ui/campaigns/ford/builder", headers=player).status_code == 403
    home = client.get("/ui/campaigns/ford/home", headers=player).text
    assert "Ronin" in home and "Takeda hatamoto" not in home
    assert client.get("/api/campaigns/ford").status_code == 401
    assert (
        client.get("/api/campaigns/ford", headers={"Authorization": "Bearer " + "x" * 32}).status_code == 401
    )
    # the GM's token of another campaign opens nothing here
    other = _gm(client, "other")
    assert client.get("/api/campaigns/ford", headers=other).status_code == 401


def test_a_sheet_is_checked_by_the_loader_and_errors_go_beside_the_field(client: TestClient) -> None:
    gm = _gm(client)
    values = {"ruleset": "sengoku", "id": "kuro-2", "name": "Kuro", "creature": "kuro", "physique": "99"}
    shown = client.post("/ui/campaigns/ford/builder/check", headers=gm, json=values).text
    # rule: SG.DEF.5 (the preview's Defense once valid); the error in the loader's words beside physique
    assert (
        '<span class="field-error" id="err-physique" role="alert" hx-swap-oob="true">Input should be' in shown
    )
    assert 'data-ok="no"' in shown
    values["physique"] = "2"
    shown = client.post("/ui/campaigns/ford/builder/check", headers=gm, json=values).text
    assert 'data-ok="yes"' in shown and "Defense " in shown and "hit " in shown
    checked = client.post(
        "/api/campaigns/ford/check", headers=gm, json={**HATAMOTO, "sheet": {"creature": "nobody"}}
    ).json()
    assert checked["ok"] is False and checked["errors"][0]["field"] == "creature"
    good = client.post("/api/campaigns/ford/check", headers=gm, json=HATAMOTO).json()
    assert good["ok"] and good["preview"]["defense"].startswith("Defense ")
    assert good["preview"]["attacks"], "the odds of its main attacks"


def test_export_and_import_as_yaml(client: TestClient) -> None:
    gm = _gm(client)
    client.post("/api/campaigns/ford/characters", headers=gm, json=HATAMOTO)
    text = client.get("/api/campaigns/ford/characters/hatamoto/yaml", headers=gm).text
    assert yaml.safe_load(text)["sheet"] == HATAMOTO["sheet"]
    other = _gm(client, "other")
    made = client.post("/api/campaigns/other/characters/import", headers=other, json={"yaml": text})
    assert made.status_code == 201 and made.json()["name"] == "Takeda hatamoto"
    again = client.post("/api/campaigns/other/characters/import", headers=other, json={"yaml": text})
    assert again.status_code == 409
    bad = client.post("/api/campaigns/other/characters/import", headers=other, json={"yaml": "id: [1"})
    assert bad.status_code == 422


def test_hostile_requests_get_a_clear_4xx_and_change_nothing(client: TestClient) -> None:
    gm = _gm(client)
    url = "/api/campaigns/ford/characters"
    assert client.post(url, headers=gm, content=b"id=1").status_code == 415
    body = b'{"ruleset": "sengoku", "ruleset": "l5r"}'
    sent = client.post(url, headers={**gm, "Content-Type": "application/json"}, content=body)
    assert sent.status_code == 422 and sent.json()["code"] == "json"
    deep: Any = {}
    for _ in range(200):
        deep = {"a": deep}
    assert client.post(url, headers=gm, json={**HATAMOTO, "sheet": deep}).status_code in (413, 422)
    huge = {**HATAMOTO, "sheet": {"creature": "samurai", "overrides": {"description": "x" * 2_000_000}}}
    assert client.post(url, headers=gm, json=huge).status_code == 413
    assert client.post(url, headers=gm, json={**HATAMOTO, "id": "Bad Id"}).status_code == 422
    assert client.post(url, headers=gm, json={**HATAMOTO, "extra": 1}).status_code == 422
    assert client.get("/api/campaigns/ford/characters", headers=gm).json()["characters"] == []
    form = client.post("/ui/campaigns/ford/builder/check", headers=gm, json={"physique": 3})
    assert form.status_code == 422


def test_a_fight_from_a_built_scenario_opens_at_the_table_and_its_aftermath_is_confirmed(
    client: TestClient, tmp_path: Path
) -> None:
    gm = _gm(client)
    client.post("/api/campaigns/ford/characters", headers=gm, json=HATAMOTO)
    form = {
        "ruleset": "sengoku",
        "scenario_id": "duel",
        "title": "A duel at the ford",
        "side-0-id": "party",
        "side-1-id": "foes",
        "unit-0-who": "char:hatamoto",
        "unit-0-side": "0",
        "unit-0-place": "own-front",
        "unit-1-who": "creature:ashigaru-squad",
        "unit-1-side": "1",
        "unit-1-place": "nowhere",
    }
    shown = client.post("/ui/campaigns/ford/scenario/check", headers=gm, json=form).text
    assert 'id="err-unit-1-place" role="alert" hx-swap-oob="true"></span>' not in shown
    form["unit-1-place"] = "own-front"
    saved = client.post("/ui/campaigns/ford/scenario/save", headers=gm, json=form).text
    assert 'id="scenario-saved"' in saved
    exported = client.get("/api/campaigns/ford/scenarios/duel", headers=gm).json()["yaml"]
    from kassen.campaign.build import validate_scenario
    from kassen.core.scenario import read_scenario

    validate_scenario(read_scenario("duel.yaml", text=exported))
    # the scenario built by form, as exported, validates and plays at the terminal
    from typer.testing import CliRunner

    from kassen.cli.main import app

    (tmp_path / "duel.yaml").write_text(exported, "utf-8")
    checked = CliRunner().invoke(app, ["validate", str(tmp_path / "duel.yaml")])
    assert checked.exit_code == 0, checked.output
    played = CliRunner().invoke(app, ["fight", str(tmp_path / "duel.yaml"), "--seed", "3"])
    assert played.exit_code == 0 and "winner" in played.output, played.output

    started = client.post(
        "/api/campaigns/ford/fights",
        headers=gm,
        json={"template": "duel", "seed": 5, "policies": {"party": "heuristic", "foes": "heuristic"}},
    )
    assert started.status_code == 201, started.text
    fight = started.json()
    table = {"Authorization": f"Bearer {fight['gm_token']}"}
    # the next one waits for this one's aftermath: refused, and no table fight is opened for it
    opened = client.get("/api/fights").json()["total"]
    again = client.post("/api/campaigns/ford/fights", headers=gm, json={"template": "duel"})
    assert again.status_code == 409 and "not settled" in again.json()["detail"]
    huge = client.post("/ui/campaigns/ford/start", headers=gm, json={"template": "duel", "seed": "9" * 5000})
    assert "a seed is a whole number" in huge.text
    assert client.get("/api/fights").json()["total"] == opened
    assert len(client.get("/api/campaigns/ford", headers=gm).json()["fights"]) == 1
    # the GM begins the battle at the table; the sides' policies play it to its end
    state = client.get(f"/api/fights/{fight['fight']}", headers=table).json()
    begun = client.post(
        f"/api/fights/{fight['fight']}/actions",
        headers=table,
        json={"state_id": state["state_id"], "choices": ["begin"]},
    )
    assert begun.status_code == 200, begun.text
    import time

    for _ in range(300):
        state = client.get(f"/api/fights/{fight['fight']}", headers=table).json()
        if state["over"]:
            break
        time.sleep(0.1)
    assert state["over"], state
    early = client.post("/api/campaigns/ford/confirm", headers=gm, json={})
    assert early.status_code == 409
    # rule: SG.INP.3 — a recovery the rules do not have is a bad request (422), not a conflict
    bogus = client.post("/api/campaigns/ford/aftermath", headers=gm, json={"take": {"hatamoto": ["bogus"]}})
    assert bogus.status_code == 422 and "no recovery 'bogus'" in bogus.json()["detail"], bogus.text
    proposed = client.post("/api/campaigns/ford/aftermath", headers=gm, json={"take": {}})
    assert proposed.status_code == 200, proposed.text
    assert proposed.json()["status"] == "proposed"
    assert client.post("/api/campaigns/ford/confirm", headers=gm, json={}).json()["status"] == "settled"
    sheet = client.get("/api/campaigns/ford/characters/hatamoto", headers=gm).json()
    assert sheet["lasting"]["battles"] == 1 and sheet["fights"] == [1]


@pytest.mark.parametrize(
    ("values", "field", "words"),
    [
        ({"ruleset": "l5r", "fire": "3", "skills": "kenjutsu=30"}, "skills", "less than or equal to 10"),
        (
            {"ruleset": "l5r", "fire": "3", "disadvantages": "Nonsense"},
            "disadvantages",
            "unknown disadvantage",
        ),
        ({"ruleset": "l5r", "skills": "kenjutsu"}, "skills", "write each as name=rank"),
        ({"ruleset": "arena", "st": "0"}, "st", "greater than or equal to 1"),
        ({"ruleset": "arena", "reactions": "-30"}, "reactions", "greater than or equal to -20"),
        (
            {"ruleset": "sengoku", "creature": "kuro", "weapons": "katana"},
            "weapons",
            "unknown weapon 'katana'",
        ),
        ({"ruleset": "sengoku", "creature": "kuro", "grade": "lord"}, "grade", ""),
    ],
)
def test_each_rulesets_builder_puts_the_loaders_error_beside_its_field(
    client: TestClient, values: dict[str, str], field: str, words: str
) -> None:
    gm = _gm(client)
    sent = {"id": "pc-one", "name": "Pc One", **values}
    shown = client.post("/ui/campaigns/ford/builder/check", headers=gm, json=sent).text
    import html
    import re

    beside = dict(re.findall(r'id="err-([^"]+)" role="alert" hx-swap-oob="true">([^<]*)<', shown))
    if field == "grade":  # a lord's grade without `lord: true` is a sheet the loader accepts
        assert 'data-ok="yes"' in shown and not any(beside.values())
        return
    assert words in html.unescape(beside[field]), beside
    assert [k for k, v in beside.items() if v] == [field]


def test_a_character_edited_by_form_keeps_what_the_form_does_not_show(client: TestClient) -> None:
    gm = _gm(client)
    sheet = {"creature": "samurai", "overrides": {"fate_points": 1, "honor": "honor"}}
    client.post("/api/campaigns/ford/characters", headers=gm, json={**HATAMOTO, "sheet": sheet})
    form = client.get("/ui/campaigns/ford/builder?character=hatamoto", headers=gm).text
    assert 'name="fate_points" value="1"' in form
    values = {
        "ruleset": "sengoku",
        "editing": "hatamoto",
        "version": "1",
        "name": "Hatamoto",
        "creature": "samurai",
    }
    values |= {"fate_points": "2", "physique": "3"}
    saved = client.post("/ui/campaigns/ford/builder/save", headers=gm, json=values)
    assert saved.headers["HX-Retarget"] == "#campaign"
    after = client.get("/api/campaigns/ford/characters/hatamoto", headers=gm).json()
    assert after["sheet"]["overrides"] == {"fate_points": 2, "honor": "honor", "attributes": {"physique": 3}}
    stale = client.post("/ui/campaigns/ford/builder/save", headers=gm, json=values).text
    assert "changed since version 1" in stale


@pytest.mark.parametrize(
    ("ruleset", "sheet", "place"),
    [
        ("l5r", {"rings": {"earth": 2, "water": 2, "fire": 3, "air": 2}, "skills": {"kenjutsu": 3}}, "10"),
        ("arena", {"st": 12, "dx": 12}, "2"),
    ],
)
def test_a_duel_of_roster_characters_built_by_form_for_each_ruleset(
    client: TestClient, ruleset: str, sheet: dict[str, Any], place: str
) -> None:
    gm = _gm(client)
    for ident, name in (("aka", "Aka"), ("ao", "Ao")):
        made = client.post(
            "/api/campaigns/ford/characters",
            headers=gm,
            json={"ruleset": ruleset, "id": ident, "name": name, "sheet": sheet},
        )
        assert made.status_code == 201, made.text
    form = {
        "ruleset": ruleset,
        "scenario_id": "duel",
        "title": "Red and blue",
        "side-0-id": "red",
        "side-1-id": "blue",
        "unit-0-who": "char:aka",
        "unit-0-side": "0",
        "unit-1-who": "char:ao",
        "unit-1-side": "1",
        "unit-1-place": place,
        "unit-1-policy": "nonsense",
    }
    refused = client.post("/ui/campaigns/ford/scenario/check", headers=gm, json=form).text
    assert 'id="err-unit-1-policy" role="alert" hx-swap-oob="true">Input should be' in refused
    form["unit-1-policy"] = ""
    saved = client.post("/ui/campaigns/ford/scenario/save", headers=gm, json=form).text
    assert 'id="scenario-saved"' in saved, saved
    started = client.post("/api/campaigns/ford/fights", headers=gm, json={"template": "duel", "seed": 1})
    assert started.status_code == 201, started.text
    fight = client.get(
        f"/api/fights/{started.json()['fight']}",
        headers={"Authorization": "Bearer " + started.json()["gm_token"]},
    )
    assert fight.status_code == 200
