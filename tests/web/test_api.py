"""The JSON API over HTTP (issue 12): every endpoint, every error code, the token rules — and on every
error, nothing changed (the state id and the store's row count are what they were)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app as cli
from kassen.core.fight import Fight

from .conftest import FIGHTS, Table, open_table

SENGOKU_TEXT = """\
ruleset: sengoku
name: A posted duel
seed: 11
"""


def same(table: Table, before: dict[str, Any]) -> None:
    """Nothing changed: the fight is where it was, and the store holds no new row."""
    now = table.view(log=False)
    assert now["state_id"] == before["state_id"]
    assert now["fight"]["seq"] == before["fight"]["seq"]
    assert (now["pending"] is None) == (before["pending"] is None)


def refused(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert isinstance(body["detail"], str) and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


# -- opening fights --------------------------------------------------------------------------------------
def test_a_bundled_fight_opens_with_a_token_for_the_gm_and_each_side(any_client: Any) -> None:
    t = open_table(any_client, "sengoku/count-example", seed=4)
    assert set(t.join) == {"party", "yoma"}
    tokens = [t.gm, *t.join.values()]
    assert len(set(tokens)) == 3 and all(len(x) == 43 for x in tokens)  # 256 bits each
    assert t.created["links"]["gm"].endswith(f"/fights/{t.id}#t={t.gm}")
    view = t.view()
    assert view["state_id"] == t.state_id and view["fight"]["seed"] == "4"
    assert view["to_move"] == {"kind": "gm", "id": "gm"} and not view["over"] and view["result"] is None
    assert view["viewer"] == {"gm": True, "side": None}
    assert any("count" in line or "battle" in line for line in view["status"])


def test_a_bare_name_and_a_ruleset_name_both_open_the_bundled_scenario(client: Any) -> None:
    a, b = open_table(client, "count-example", seed=4), open_table(client, "sengoku/count-example", seed=4)
    assert a.state_id == b.state_id


def test_a_posted_yaml_scenario_opens(client: Any) -> None:
    from importlib import resources

    text = resources.files("kassen.arena").joinpath("data/bouts/duel.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Arena duel", "name: Our own duel")
    t = open_table(client, text, seed=None)
    view = t.view()
    assert view["scenario"] == "Our own duel"
    # no seed given: 64 random bits, never the scenario's own (7: anyone with the file has it)
    again = open_table(client, text, seed=None).view()
    assert view["fight"]["seed"] != "7" and view["fight"]["seed"] != again["fight"]["seed"]
    assert 0 <= int(view["fight"]["seed"]) < 2**64


def test_a_scenario_that_does_not_validate_is_422_with_every_error(client: Any) -> None:
    before = client.get("/api/fights").json()["total"]
    text = (
        "ruleset: arena\nname: Broken\nformat: match\nfighters:\n"
        "  - id: a\n    name: A\n    side: east\n    st: banana\n"
        "  - id: b\n    name: B\n    side: west\n    dx: -4\n"
    )
    body = refused(client.post("/api/fights", json={"scenario": text}), 422, "content")
    assert len(body["errors"]) >= 2
    assert all({"file", "field", "line", "message"} <= set(e) for e in body["errors"])
    assert any(e["line"] == 8 for e in body["errors"])  # st: banana
    assert client.get("/api/fights").json()["total"] == before


@pytest.mark.parametrize(
    ("scenario", "words"),
    [
        ("no-such-scenario", "no bundled scenario"),
        ("ruleset: chess\nname: x\n", "unknown ruleset"),
        ("just: [unclosed\n", "posted"),
        ("- a list\n- of things\n", "mapping"),
    ],
)
def test_a_scenario_that_cannot_be_read_is_422(client: Any, scenario: str, words: str) -> None:
    body = refused(client.post("/api/fights", json={"scenario": scenario}), 422)
    assert words in body["detail"]


def test_a_scenario_name_is_never_read_as_a_path_on_the_server(client: Any, tmp_path: Any) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("ruleset: arena\nname: SECRET\n", encoding="utf-8")
    body = refused(client.post("/api/fights", json={"scenario": str(secret)}), 422)
    assert "SECRET" not in json.dumps(body)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"scenario": ""},
        {"scenario": 5},
        {"scenario": "demo", "seed": -1},
        {"scenario": "demo", "seed": 2**64},
        {"scenario": "demo", "seed": "5"},
        {"scenario": "demo", "seed": 1.5},
        {"scenario": "demo", "dice": "loaded"},
        {"scenario": "demo", "extra": 1},
        ["demo"],
        "demo",
    ],
)
def test_a_malformed_new_fight_is_one_422_and_opens_nothing(client: Any, body: Any) -> None:
    before = client.get("/api/fights").json()["total"]
    got = refused(client.post("/api/fights", json=body), 422, "request")
    assert got["errors"] and ":" in got["detail"]
    assert client.get("/api/fights").json()["total"] == before


def test_bodies_must_be_json_and_from_this_site(client: Any) -> None:
    before = client.get("/api/fights").json()["total"]
    form = client.post("/api/fights", data={"scenario": "demo"})  # what a cross-site form can send
    refused(form, 415, "media_type")
    plain = client.post(
        "/api/fights", content=b'{"scenario": "demo"}', headers={"Content-Type": "text/plain"}
    )
    refused(plain, 415, "media_type")
    broken = client.post(
        "/api/fights", content=b'{"scenario": ', headers={"Content-Type": "application/json"}
    )
    assert "line 1 column 14" in refused(broken, 422, "json")["detail"]
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
        refused(client.post("/api/fights", json={"scenario": "demo"}, headers=headers), 403, "cross_site")
    same_site = client.post("/api/fights", json={"scenario": "demo"}, headers={"Origin": "http://testserver"})
    assert same_site.status_code == 201
    assert client.get("/api/fights").json()["total"] == before + 1


def test_a_body_over_the_limit_is_413(client: Any) -> None:
    big = {"scenario": "x" * (1024 * 1024 + 10)}
    refused(client.post("/api/fights", json=big), 413, "too_large")

    def chunks() -> Any:  # no Content-Length: counted as it arrives
        yield b'{"scenario": "'
        for _ in range(300):
            yield b"y" * 4096
        yield b'"}'

    streamed = client.post("/api/fights", content=chunks(), headers={"Content-Type": "application/json"})
    refused(streamed, 413, "too_large")
    t = open_table(client, "arena/duel")
    huge_action = {"state_id": t.state_id, "choices": ["a" * 100] * 20000}
    refused(t.post("/actions", t.gm, huge_action), 413)
    assert t.view(log=False)["fight"]["seq"] == 0


def test_the_fight_list_and_the_bundled_scenarios(client: Any) -> None:
    t = open_table(client, "l5r/first-blood")
    listing = client.get("/api/fights").json()
    assert listing["total"] == 1
    item = listing["fights"][0]
    assert item["id"] == t.id and item["ruleset"] == "l5r" and item["actions"] == 0
    assert "seed" not in item and "gm_token" not in json.dumps(listing)  # public facts only
    refused(client.get("/api/fights", params={"limit": 0}), 422)
    refused(client.get("/api/fights", params={"offset": -1}), 422)
    ids = {s["id"] for s in client.get("/api/scenarios").json()}
    assert set(FIGHTS.values()) <= ids


# -- tokens -------------------------------------------------------------------------------------------------
def test_token_rules(client: Any) -> None:
    t = open_table(client, "arena/duel")
    other = open_table(client, "arena/duel")
    no_token = refused(t.get("", None), 401, "token")
    assert no_token  # and the challenge:
    assert t.get("", None).headers["www-authenticate"] == "Bearer"
    refused(client.get(f"/api/fights/{t.id}", headers={"Authorization": "Basic abc"}), 401)
    refused(t.get("", "not-a-token"), 401, "token")
    refused(t.get("", "A" * 43), 401, "token")  # well-formed, unknown
    refused(t.get("", other.gm), 403, "token")  # a token of another fight
    refused(t.get("", other.join["east"]), 403, "token")
    missing = Table(client, "Z" * 22, t.gm, {}, "")
    refused(missing.get("", t.gm), 404, "no_fight")
    refused(client.get("/api/fights/short", headers=t.headers(t.gm)), 422)


def test_a_side_token_never_reads_the_log_undoes_forks_or_makes_the_gms_moves(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    t.play_first()  # the referee begins the bout
    before = t.view(log=False)
    for side, token in t.join.items():
        refused(t.get("/log", token), 403, "gm_only")
        refused(t.get("/links", token), 403, "gm_only")
        refused(t.post("/undo", token, {"state_id": before["state_id"]}), 403, "gm_only")
        refused(t.post("/fork", token, {"at": t.state_id}), 403, "gm_only")
        refused(t.get("/choices", token, gm="true"), 403, "gm_only")
        gm_move = {"state_id": before["state_id"], "choices": ["gm_set_hp"], "gm": True}
        refused(t.post("/actions", token, gm_move), 403, "gm_only")
        view = t.view(token)
        assert view["viewer"] == {"gm": False, "side": side}
        assert "seed" not in view["fight"]  # the seed gives future rolls away
    same(t, before)


def test_a_side_decides_only_for_its_own_units(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    t.play_first()
    before = t.view(log=False)
    mover = before["to_move"]["side"]
    other = next(s for s in t.join if s != mover)
    refused(t.get("/choices", t.join[other]), 403, "not_yours")
    refused(t.act({"auto": True}, t.join[other]), 403, "not_yours")
    refused(t.act({"choices": ["wait"]}, t.join[other]), 403, "not_yours")
    same(t, before)
    assert (
        t.view(t.join[mover], log=False)["may_decide"] and not t.view(t.join[other], log=False)["may_decide"]
    )
    done = t.play_first(t.join[mover])
    assert done["applied"] and done["view"]["viewer"]["side"] == mover


# -- menus and actions ------------------------------------------------------------------------------------
def test_a_decision_is_built_step_by_step(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    t.play_first()
    top = t.get("/choices", t.gm).json()
    assert top["state_id"] == t.now() and top["path"] == [] and top["actor"]["id"] == "ryu"
    attack = next(o for o in top["options"] if o["id"] == "attack")
    assert attack["complete"] is False
    target = t.get("/choices", t.gm, path="attack").json()
    assert target["path"] == ["attack"] and target["options"]
    deeper = t.get("/choices", t.gm, path=f"attack,{target['options'][0]['id']}").json()
    assert any("odds" in o for o in deeper["options"])  # exact odds on the hit locations
    odds = next(o["odds"] for o in deeper["options"] if "odds" in o)
    assert "/" in next(iter(odds["outcomes"].values()))["p"] or odds["outcomes"]
    refused(t.get("/choices", t.gm, path="nonsense"), 422, "menu")
    refused(t.get("/choices", t.gm, path="attack,,x"), 422, "menu")
    refused(t.get("/choices", t.gm, path=",".join(["x"] * 65)), 422)
    refused(t.get("/choices", t.gm, path="a" * 20000), 422)


def test_a_stale_state_id_is_409_and_nothing_changes(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    old = t.state_id
    t.play_first()
    before = t.view(log=False)
    body = refused(t.post("/actions", t.gm, {"state_id": old, "auto": True}), 409, "stale")
    assert body["state_id"] == before["state_id"]
    refused(t.post("/undo", t.gm, {"state_id": old}), 409, "stale")
    same(t, before)


def test_a_choice_not_allowed_is_422_naming_its_rule(client: Any) -> None:
    t = open_table(client, "sengoku/count-example", seed=4)
    t.play_first()  # the GM begins the battle: Kuro breathes
    menu = t.get("/choices", t.gm).json()
    refused_option = next(o for o in menu["options"] if o.get("allowed") is False)
    assert refused_option["rule"] and refused_option["why"]
    before = t.view(log=False)
    body = refused(t.act({"choices": [refused_option["id"]]}), 422)
    assert body["code"] in ("illegal_action", "menu")
    if body["code"] == "illegal_action":
        assert body["rule"] == refused_option["rule"]
    same(t, before)


def test_an_incomplete_or_unknown_path_is_422(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    t.play_first()
    before = t.view(log=False)
    refused(t.act({"choices": ["attack"]}), 422, "menu")  # does not finish the decision
    refused(t.act({"choices": ["teleport"]}), 422, "menu")
    refused(t.act({"choices": ["wait", "more"]}), 422, "menu")
    same(t, before)


@pytest.mark.parametrize(
    "body",
    [
        {"choices": ["wait"], "auto": True},
        {},
        {"gm": True, "auto": True},
        {"choices": []},
        {"choices": [""]},
        {"choices": ["wait"], "extra": 1},
        {"choices": "wait"},
        {"auto": "yes"},
        {"dice": [0]},
        {"dice": [1001]},
        {"dice": ["3"]},
        {"dice": []},
        {"dice": [3.0]},
    ],
)
def test_a_malformed_action_is_one_422_and_changes_nothing(client: Any, body: dict[str, Any]) -> None:
    t = open_table(client, "arena/duel", seed=4, dice="table")
    before = t.view(log=False)
    refused(t.post("/actions", t.gm, {"state_id": before["state_id"], **body}), 422)
    for bad_state in ("", "XYZ", "a" * 100, 5, None):
        refused(t.post("/actions", t.gm, {"state_id": bad_state, "auto": True}), 422, "request")
    refused(t.post("/actions", t.gm, {"auto": True}), 422, "request")
    same(t, before)


def test_auto_lets_the_units_policy_decide(client: Any) -> None:
    t = open_table(client, "l5r/first-blood", seed=2)
    done = t.act({"auto": True})
    assert done.status_code == 200 and done.json()["applied"]
    entries = done.json()["entries"]
    assert len(entries) == 1 and entries[0]["index"] == 0 and entries[0]["lines"]
    while not t.view(log=False)["over"]:
        assert t.act({"auto": True}).status_code == 200
    over = t.view()
    assert over["result"]["winner"] in over["sides"]
    refused(t.act({"auto": True}), 409, "over")
    refused(t.get("/choices", t.gm), 409, "over")


def test_table_dice_wait_for_the_faces_rolled(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4, dice="table")
    begun = t.act({"choices": ["begin"]}).json()
    assert begun["applied"] is False and begun["view"]["pending"]["sides"] == 6
    pending = begun["view"]["pending"]
    assert pending["index"] == 0 and pending["yours"] and pending["action"]["kind"] == "begin"
    before = t.view(log=False)
    assert before["fight"]["seq"] == 0 and before["state_id"] == t.state_id
    refused(t.get("/choices", t.gm), 409, "pending")
    refused(t.act({"choices": ["begin"]}), 409, "pending")
    refused(t.act({"auto": True}), 409, "pending")
    refused(t.act({"dice": [7]}), 422, "dice.typed")  # a d6 has no 7
    refused(t.act({"dice": [1, 2, 3, 4, 5, 6, 1, 2, 3]}), 422)  # more faces than the action rolls
    for token in t.join.values():
        side_view = t.view(token, log=False)["pending"]
        assert side_view is not None and side_view["yours"] is False and "action" not in side_view
        refused(t.act({"dice": [3]}, token), 403, "not_yours")  # the referee's action
    same(t, before)
    step = t.act({"dice": [4, 2]}).json()
    assert step["applied"] is False and step["view"]["pending"]["index"] == 2
    done = t.act({"dice": [6, None, 5, 6]}).json()
    assert done["applied"] is True and done["view"]["pending"] is None
    chronicle = t.get("/log", t.gm).json()
    assert chronicle["log"][0]["dice"] == [4, 2, 6, None, 5, 6]
    refused(t.act({"dice": [3]}), 409, "no_pending")


def test_the_gm_undoes_and_undo_drops_an_action_waiting_for_dice(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4, dice="table")
    refused(t.post("/undo", t.gm, {"state_id": t.state_id}), 409, "start")
    t.act({"choices": ["begin"]})
    dropped = t.post("/undo", t.gm, {"state_id": t.state_id}).json()
    assert dropped["applied"] is False and dropped["view"]["pending"] is None
    t.act({"choices": ["begin"]})
    t.act({"dice": [None] * 6})
    after_begin = t.now()
    assert after_begin != t.state_id
    undone = t.post("/undo", t.gm, {"state_id": after_begin}).json()
    assert undone["undone"] and undone["view"]["state_id"] == t.state_id
    view = t.view()
    assert view["fight"]["actions"] == 0 and view["fight"]["seq"] == 2  # the undo is a row too
    refused(t.post("/undo", t.gm, {}), 422, "request")


def test_fork_opens_a_new_fight_at_any_state(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    states = [t.state_id]
    for _ in range(3):
        states.append(t.play_first()["view"]["state_id"])
    r = t.post("/fork", t.gm, {"at": states[2]})
    assert r.status_code == 201, r.text
    fork = Table(client, r.json()["id"], r.json()["gm_token"], r.json()["join"], r.json()["state_id"])
    view = fork.view()
    assert view["state_id"] == states[2] and view["fight"]["actions"] == 2
    assert view["fight"]["parent"] == t.id and view["fight"]["parent_state_id"] == states[2]
    assert set(fork.join) == set(t.join) and fork.gm != t.gm
    refused(fork.get("", t.gm), 403, "token")  # the old fight's token opens only the old fight
    fork.play_first()
    assert t.now() == states[3]  # the original is untouched
    start = t.post("/fork", t.gm, {"at": states[0]}).json()
    assert start["state_id"] == states[0]
    refused(t.post("/fork", t.gm, {"at": "0" * 20}), 422, "no_state")
    refused(t.post("/fork", t.gm, {"at": "nope"}), 422, "request")


def test_the_chronicle_replays_identical(client: Any, tmp_path: Any) -> None:
    t = open_table(client, "sengoku/count-example", seed=4)
    for _ in range(4):
        t.play_first()
    gm_move = t.first_path(gm=True)
    assert t.act({"choices": gm_move, "gm": True}).status_code == 200
    t.play_first()
    t.post("/undo", t.gm, {"state_id": t.now()})
    r = t.get("/log", t.gm)
    assert "attachment" in r.headers["content-disposition"]
    chronicle = r.json()
    assert len(chronicle["log"]) == 5 and chronicle["log"][4]["by"] == "gm"
    replayed = Fight.from_json(chronicle)
    assert replayed.state_id == t.now()
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(chronicle), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0 and result.output.startswith("identical"), result.output


def test_an_imported_chronicle_opens_where_it_stopped(client: Any) -> None:
    t = open_table(client, "l5r/kakita-vs-hida", seed=3)
    for _ in range(3):
        t.act({"auto": True})
    chronicle = t.get("/log", t.gm).json()
    raw = json.dumps(chronicle)
    r = client.post("/api/fights/import", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    imported = Table(client, r.json()["id"], r.json()["gm_token"], r.json()["join"], r.json()["state_id"])
    assert imported.view()["state_id"] == t.now() and imported.view()["fight"]["actions"] == 3
    assert imported.get("/log", imported.gm).json()["log"] == chronicle["log"]
    assert imported.act({"auto": True}).status_code == 200
    table = client.post(
        "/api/fights/import",
        content=raw,
        params={"dice": "table"},
        headers={"Content-Type": "application/json"},
    )
    assert (
        table.status_code == 201
        and client.get(
            f"/api/fights/{table.json()['id']}",
            headers={"Authorization": f"Bearer {table.json()['gm_token']}"},
        ).json()["fight"]["dice"]
        == "table"
    )
    before = client.get("/api/fights").json()["total"]
    tampered = json.loads(raw)
    tampered["log"][1]["state_id"] = "0" * 20
    bad = client.post("/api/fights/import", json=tampered)
    assert refused(bad, 422, "replay")["detail"].startswith("log[1].state_id")
    refused(client.post("/api/fights/import", json=[1, 2]), 422, "format")
    refused(
        client.post("/api/fights/import", content=b"{", headers={"Content-Type": "application/json"}), 422
    )
    dup = b'{"format": 2, "format": 2}'
    refused(client.post("/api/fights/import", content=dup, headers={"Content-Type": "application/json"}), 422)
    nan = raw.replace('"seed": 3', '"seed": NaN').encode()
    refused(client.post("/api/fights/import", content=nan, headers={"Content-Type": "application/json"}), 422)
    refused(client.post("/api/fights/import", json=chronicle, params={"dice": "x"}), 422)
    refused(client.post("/api/fights/import", content=b"x" * (8 * 1024 * 1024 + 1)), 413)
    assert client.get("/api/fights").json()["total"] == before


def test_links_and_narration(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    t.play_first()
    links = t.get("/links", t.gm).json()
    assert links["join"] == t.join  # derived again from the GM token
    assert links["links"]["east"].endswith(f"/join/{t.id}#t={t.join['east']}")
    gm = t.get("/narration", t.gm, verbose="true").json()["lines"]
    east = t.get("/narration", t.join["east"]).json()["lines"]
    assert any("bout begins" in line for line in gm) and any("bout begins" in line for line in east)
    assert len(gm) > len(east)  # with every explanation step


# -- pages, static files, the schema -------------------------------------------------------------------------
def test_pages_and_static_files(client: Any) -> None:
    t = open_table(client, "arena/duel")
    index = client.get("/")
    assert index.status_code == 200 and "Arena duel" in index.text and "New fight" in index.text
    for page in (f"/fights/{t.id}", f"/join/{t.id}"):
        r = client.get(page)
        assert r.status_code == 200 and t.gm not in r.text and "hx-get" in r.text
    refused(client.get("/fights/not-an-id"), 422)
    for asset in ("htmx.min.js", "kassen.js", "kassen.css", "favicon.svg"):
        assert client.get(f"/static/{asset}").status_code == 200
    refused(client.get("/static/../kassen.db"), 404)
    refused(client.get("/nowhere"), 404, "http")
    refused(client.delete(f"/api/fights/{t.id}/actions"), 405)
    refused(client.delete(f"/api/fights/{t.id}"), 401)  # deleting a fight is the GM's
    screen = client.get(f"/ui/fights/{t.id}/screen", headers=t.headers(t.gm))
    assert screen.status_code == 200 and 'data-state-id="' in screen.text
    refused(client.get(f"/ui/fights/{t.id}/screen"), 401)
    refused(client.get(f"/ui/fights/{t.id}/links", headers=t.headers(t.join["east"])), 403)
    refused(client.get(f"/ui/fights/{t.id}/entries/5", headers=t.headers(t.gm)), 404)
    assert client.get("/healthz").json()["ok"] is True
    spec = client.get("/openapi.json").json()
    assert {"/api/fights", "/api/fights/{fight_id}/actions", "/api/fights/{fight_id}/stream"} <= set(
        spec["paths"]
    )
    assert "HTTPBearer" in spec["components"]["securitySchemes"]


def test_every_response_carries_the_security_headers(client: Any) -> None:
    t = open_table(client, "arena/duel")
    for r in (client.get("/"), t.get("", t.gm), client.get("/static/kassen.js"), t.get("", None)):
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert t.get("", t.gm).headers["cache-control"] == "no-store"
