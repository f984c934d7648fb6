"""Tokens that expire and can be replaced: the GM replaces one side's link (a player left, a link went
too far) or every token (the GM link itself leaked: every join token is derived from it); a replaced
token opens nothing, its open streams end; a token past its expiry is a 401 ``expired``. The store's
tokens table gained its columns in schema version 2, from a version-1 store without losing a fight."""

from __future__ import annotations

import datetime as dt
import threading
import time
from typing import Any

import pytest
from sqlalchemy import text

from kassen.web.schema import LATEST
from kassen.web.tokens import join_token

from .conftest import TEST_HOSTS, open_table


def test_replacing_a_sides_link_leaves_every_other_token_working(any_client: Any) -> None:
    t = open_table(any_client, "sengoku/count-example", seed=4)
    old = t.join["party"]
    r = t.post("/tokens", t.gm, {"rotate": "party"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["gm_token"] is None and set(body["join"]) == {"party"}
    new = body["join"]["party"]
    assert new != old and body["links"]["join"]["party"].endswith(f"#t={new}")
    assert t.get("", old).status_code == 401
    assert t.get("", new).status_code == 200 and t.get("", t.join["yoma"]).status_code == 200
    assert t.get("", t.gm).status_code == 200
    # the GM screen shows the new link again, derived from the GM token
    links = t.get("/links", t.gm).json()
    assert links["join"] == {"party": new, "yoma": t.join["yoma"]}
    assert new == join_token(t.gm, t.id, "party", 1)
    again = t.post("/tokens", t.gm, {"rotate": "party"}).json()["join"]["party"]
    assert t.get("", new).status_code == 401 and t.get("", again).status_code == 200
    assert t.get("/links", t.gm).json()["join"]["party"] == again


def test_replacing_every_token_makes_the_old_gm_link_useless(any_client: Any) -> None:
    t = open_table(any_client, "arena/duel", seed=4)
    r = t.post("/tokens", t.gm, {"rotate": "all"})
    assert r.status_code == 200, r.text
    body = r.json()
    gm, join = body["gm_token"], body["join"]
    assert gm and gm != t.gm and set(join) == set(t.join)
    assert body["links"]["gm"].endswith(f"#t={gm}")
    for token in (t.gm, *t.join.values()):
        r = t.get("", token)
        assert r.status_code == 401 and r.json()["code"] == "token"
    assert t.get("/links", gm).json()["join"] == join
    for token in (gm, *join.values()):
        assert t.get("", token).status_code == 200
    state = t.now(gm)
    assert t.post("/actions", gm, {"state_id": state, "auto": True}).status_code == 200


def test_only_the_gm_replaces_tokens_and_only_for_sides_that_exist(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    for token in t.join.values():
        r = t.post("/tokens", token, {"rotate": "all"})
        assert r.status_code == 403 and r.json()["code"] == "gm_only"
    r = t.post("/tokens", t.gm, {"rotate": "nobody"})
    assert r.status_code == 422 and "east" in r.json()["detail"]
    assert t.post("/tokens", t.gm, {"rotate": "east", "extra": 1}).status_code == 422
    assert t.post("/tokens", None, {"rotate": "all"}).status_code == 401
    for token in (t.gm, *t.join.values()):  # nothing changed
        assert t.get("", token).status_code == 200


def test_a_replaced_tokens_stream_ends(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    ended = threading.Event()
    lines: list[str] = []

    def follow() -> None:
        with client.stream("GET", f"/api/fights/{t.id}/stream", headers=t.headers(t.join["east"])) as s:
            for line in s.iter_lines():
                lines.append(line)
        ended.set()

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    deadline = time.monotonic() + 10
    while not any(x.startswith("data:") for x in lines) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any(x.startswith("data:") for x in lines)
    assert t.post("/tokens", t.gm, {"rotate": "east"}).status_code == 200
    assert ended.wait(10), "the replaced token's stream went on"


def test_tokens_expire_when_asked(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    body = {"scenario": "arena/duel", "seed": 4, "expires_in": 3600}
    made = client.post("/api/fights", json=body).json()
    at = dt.datetime.fromisoformat(made["expires_at"])
    assert abs((at - dt.datetime.now(dt.UTC)).total_seconds() - 3600) < 60
    t = open_table(client, "arena/duel", seed=4)  # no expiry asked: never
    assert t.created["expires_at"] is None
    headers = {"Authorization": f"Bearer {made['gm_token']}"}
    assert client.get(f"/api/fights/{made['id']}", headers=headers).status_code == 200
    links = client.get(f"/api/fights/{made['id']}/links", headers=headers).json()
    assert set(links["expires_at"]) == {"gm", "east", "west"}
    assert all(v == made["expires_at"] for v in links["expires_at"].values())
    # an hour later
    later = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=3601)
    monkeypatch.setattr("kassen.web.callers.now", lambda: later)
    for token in (made["gm_token"], *made["join"].values()):
        r = client.get(f"/api/fights/{made['id']}", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 401 and r.json()["code"] == "expired"
    assert t.get("", t.gm).status_code == 200  # a fight without expiry is untouched
    for wrong in (59, 10 * 366 * 24 * 3600, "3600", 1.5):
        r = client.post("/api/fights", json={**body, "expires_in": wrong})
        assert r.status_code == 422, wrong


def test_a_replacement_and_a_fork_and_an_import_take_their_own_expiry(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    rotated = t.post("/tokens", t.gm, {"rotate": "west", "expires_in": 600}).json()
    assert rotated["expires_at"] is not None
    links = t.get("/links", t.gm).json()["expires_at"]
    assert links["west"] == rotated["expires_at"] and links["east"] is None and links["gm"] is None
    fork = t.post("/fork", t.gm, {"at": t.now(), "expires_in": 120}).json()
    assert fork["expires_at"] is not None
    chronicle = t.get("/log", t.gm).content
    imported = client.post(
        "/api/fights/import",
        params={"expires_in": 120},
        content=chronicle,
        headers={"Content-Type": "application/json"},
    ).json()
    assert imported["expires_at"] is not None


def test_the_servers_default_expiry(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient

    from kassen.web.app import create_app
    from kassen.web.settings import Settings

    app = create_app(Settings(db=sqlite_url, allowed_hosts=TEST_HOSTS, token_ttl=7 * 86400))
    with TestClient(app, base_url="http://testserver") as c:
        made = c.post("/api/fights", json={"scenario": "arena/duel"}).json()
        at = dt.datetime.fromisoformat(made["expires_at"])
        assert abs((at - dt.datetime.now(dt.UTC)).total_seconds() - 7 * 86400) < 60
        asked = c.post("/api/fights", json={"scenario": "arena/duel", "expires_in": 600}).json()
        assert dt.datetime.fromisoformat(asked["expires_at"]) < at


def test_a_version_1_store_is_upgraded_and_its_fights_tokens_still_work(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine

    from kassen.web.app import create_app
    from kassen.web.settings import Settings

    def app() -> Any:
        return create_app(Settings(db=sqlite_url, allowed_hosts=TEST_HOSTS))

    with TestClient(app(), base_url="http://testserver") as c:
        t = open_table(c, "arena/duel", seed=4)
        assert t.act({"auto": True}).status_code == 200
        seen = t.view(t.join["east"])
    # the store as version 1 left it: the tokens table without its two new columns
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE tokens DROP COLUMN expires_at"))
        conn.execute(text("ALTER TABLE tokens DROP COLUMN generation"))
        conn.execute(text("ALTER TABLE fights DROP COLUMN policies"))
        conn.execute(text("ALTER TABLE fights DROP COLUMN name"))
        conn.execute(text("ALTER TABLE fights DROP COLUMN archived"))
        conn.execute(text("UPDATE kassen_schema SET version = 1"))
    engine.dispose()
    with TestClient(app(), base_url="http://testserver") as c:
        assert c.app.state.store.versions == (1, LATEST)
        t.client = c
        assert t.view(t.join["east"]) == seen
        assert t.get("/links", t.gm).json()["join"] == t.join
        assert t.post("/tokens", t.gm, {"rotate": "east"}).status_code == 200
        assert t.act({"auto": True}).status_code == 200
