"""The GM's fight list: a fight renamed, archived and brought back, deleted (its rows, tokens and streams
gone); a fork named after its source; the store migrated from version 3 (no name, no archive) keeping
every fight — on SQLite and PostgreSQL."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, func, select

from kassen.web.schema import LATEST, MIGRATIONS, actions, fights, migrate, tokens
from kassen.web.store import Store, engine_for

from .conftest import TEST_HOSTS, open_table, reset_pg

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kassen.web.app import create_app
from kassen.web.settings import Settings


def _count(url: str, table: Any, fight_id: str) -> int:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    column = table.c.id if table is fights else table.c.fight_id
    with engine.connect() as conn:
        n = int(conn.execute(select(func.count()).select_from(table).where(column == fight_id)).scalar_one())
    engine.dispose()
    return n


def test_the_gm_renames_archives_and_deletes_a_fight(store_url: str) -> None:
    with TestClient(create_app(Settings(db=store_url, allowed_hosts=TEST_HOSTS))) as c:
        t = open_table(c, "arena/duel", seed=2)
        t.act({"auto": True})
        side = next(iter(t.join.values()))
        h = t.headers(t.gm)
        assert t.view()["fight"]["name"] == "Arena duel"  # no name yet: the scenario's title
        r = c.patch(f"/api/fights/{t.id}", json={"name": "  Tuesday's bout  "}, headers=h)
        assert r.status_code == 200, r.text
        assert r.json()["name"] == "Tuesday's bout"
        assert t.view()["fight"]["name"] == "Tuesday's bout"
        # the name is the GM's: a side's token neither reads it nor changes it
        assert "name" not in t.view(side)["fight"]
        r = c.patch(f"/api/fights/{t.id}", json={"name": "mine"}, headers=t.headers(side))
        assert r.status_code == 403
        # archived: still whole, listed as archived; brought back
        r = c.patch(f"/api/fights/{t.id}", json={"archived": True}, headers=h)
        assert r.status_code == 200 and r.json()["archived"] is True
        listed = {f["id"]: f for f in c.get("/api/fights").json()["fights"]}
        assert listed[t.id]["archived"] is True and "name" not in listed[t.id]
        assert "Tuesday" not in c.get("/").text  # the public list names no fight
        assert t.view()["fight"]["actions"] == 1
        c.patch(f"/api/fights/{t.id}", json={"archived": False}, headers=h)
        assert {f["id"]: f for f in c.get("/api/fights").json()["fights"]}[t.id]["archived"] is False
        # nothing to change, an empty or too long name: refused in words, nothing changes
        for body in ({}, {"name": ""}, {"name": "x" * 201}, {"name": 3}, {"archived": "yes"}):
            r = c.patch(f"/api/fights/{t.id}", json=body, headers=h)
            assert r.status_code == 422, (body, r.text)
        assert t.view()["fight"]["name"] == "Tuesday's bout"
        # deleted: the side cannot, the GM can; rows and tokens are gone
        assert c.delete(f"/api/fights/{t.id}", headers=t.headers(side)).status_code == 403
        assert _count(store_url, actions, t.id) == 1
        r = c.delete(f"/api/fights/{t.id}", headers=h)
        assert r.status_code == 200 and r.json() == {"deleted": t.id}
        for table in (fights, actions, tokens):
            assert _count(store_url, table, t.id) == 0
        assert c.get(f"/api/fights/{t.id}", headers=h).status_code in (401, 404)
        assert t.id not in {f["id"] for f in c.get("/api/fights").json()["fights"]}


def test_a_fork_is_named_after_its_source(client: Any) -> None:
    t = open_table(client, "sengoku/count-example", seed=3)
    client.patch(f"/api/fights/{t.id}", json={"name": "Night raid"}, headers=t.headers(t.gm))
    t.act({"auto": True})
    t.act({"auto": True})
    at = t.now()
    r = t.post("/fork", t.gm, {"at": at})
    assert r.status_code == 201, r.text
    fork = r.json()
    view = client.get(f"/api/fights/{fork['id']}?log=false", headers=t.headers(fork["gm_token"])).json()
    assert view["fight"]["name"] == "Night raid — fork at action 2"
    assert view["fight"]["parent"] == t.id
    start = t.post("/fork", t.gm, {"at": t.state_id}).json()  # the state it was opened at
    named = client.get(f"/api/fights/{start['id']}?log=false", headers=t.headers(start["gm_token"])).json()
    assert named["fight"]["name"] == "Night raid — fork at the start"
    # the GM screen's heading is the fork's name
    page = client.get(f"/ui/fights/{fork['id']}/screen", headers=t.headers(fork["gm_token"])).text
    assert "Night raid — fork at action 2" in page


def test_a_version_3_store_is_migrated_keeping_its_fights(store_url: str) -> None:
    # a fight of today's store, its row copied into a store that kassen's schema version 3 made
    with TestClient(create_app(Settings(db=store_url, allowed_hosts=TEST_HOSTS))) as c:
        t = open_table(c, "arena/duel", seed=1)
    store = Store(store_url)
    with store.reading() as conn:
        row = store.fight(conn, t.id)
    store.close()
    assert row is not None
    if store_url.startswith("postgresql"):
        reset_pg(store_url)
    else:
        Path(store_url.removeprefix("sqlite:///")).unlink()
    engine = engine_for(store_url)
    assert migrate(engine, MIGRATIONS[:3]) == (0, 3)
    with engine.begin() as conn:
        old = {k: v for k, v in row.values().items() if k not in ("name", "archived")}
        conn.execute(fights.insert().values(**old))
    engine.dispose()
    store = Store(store_url)  # opened: migrated to the last version, the fight kept
    assert store.versions == (3, LATEST)
    with store.reading() as conn:
        again = store.fight(conn, t.id)
    store.close()
    assert again is not None and again.name is None and again.archived is False
    assert again.state_id == row.state_id and again.title == row.title
