"""The durable fight store (issue 12), on SQLite and — when a server is reachable — on PostgreSQL: every
test here runs on both kinds of store (the ``store_url`` fixture).

- ``kill -9`` of a server after a 200 reply loses nothing: a restarted server resumes every fight
  exactly (the same state, the same log, an action waiting for dice with its typed faces), and the
  chronicle it serves replays identical with ``kassen replay``;
- two clients posting for the same decision at once — two threads on one server, and two server
  processes on one store — get exactly one 200 and one 409, and the store holds one row;
- a store whose rows do not replay is refused (500 ``replay``), never served wrong; a store newer than
  this kassen is refused at start.
"""

from __future__ import annotations

import functools
import json
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select, text, update
from typer.testing import CliRunner

from kassen.cli.main import app as cli
from kassen.core.fight import Fight
from kassen.web.schema import LATEST, actions, migrate
from kassen.web.settings import WebError
from kassen.web.store import Store

from .conftest import FIGHTS, TEST_HOSTS, Table, open_table


def _rows(url: str, fight_id: str) -> int:
    """The number of rows the store holds for a fight (read straight from the database)."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).select_from(actions).where(actions.c.fight_id == fight_id)
                ).scalar_one()
            )
    finally:
        engine.dispose()


def _replays_identical(chronicle: dict[str, Any], tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(chronicle), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0 and result.output.startswith("identical"), result.output


def _snapshot(t: Table) -> dict[str, Any]:
    view = t.view()
    return {
        "state_id": view["state_id"],
        "seq": view["fight"]["seq"],
        "log": view["log"],
        "pending": view["pending"],
        "chronicle": t.get("/log", t.gm).json(),
    }


def test_kill_9_after_a_reply_loses_nothing_and_the_fight_resumes(
    store_url: str, serve: Any, tmp_path: Path
) -> None:
    first = serve(store_url)
    before: dict[str, dict[str, Any]] = {}
    tables: dict[str, Table] = {}
    with first.client() as c:
        for ruleset, scenario in sorted(FIGHTS.items()):
            t = open_table(c, scenario, seed=5)
            for _ in range(4):
                if t.view(log=False)["over"]:
                    break
                assert t.act({"auto": True}).status_code == 200
            tables[ruleset] = t
        # An arena bout with table dice, stopped half way through typing the faces of an action.
        dice = open_table(c, "arena/duel", seed=4, dice="table")
        assert dice.act({"choices": ["begin"]}).json()["view"]["pending"]["index"] == 0
        typed = dice.act({"dice": [4, 2]})
        assert typed.status_code == 200 and typed.json()["view"]["pending"]["index"] == 2
        tables["table-dice"] = dice
        for name, t in tables.items():
            before[name] = _snapshot(t)
        last = tables["arena"].act({"auto": True})  # the last reply before the crash
        assert last.status_code == 200
        before["arena"] = _snapshot(tables["arena"])
    first.kill()  # kill -9: no shutdown, no flush

    second = serve(store_url)
    with second.client() as c:
        for name, t in tables.items():
            t = replace(t, client=c)
            assert _snapshot(t) == before[name], name  # the same state, log, pending dice and chronicle
            _replays_identical(before[name]["chronicle"], tmp_path, name)
            assert Fight.from_json(before[name]["chronicle"]).state_id == before[name]["state_id"]
            if name == "table-dice":  # the typed faces survived: the remaining ones finish the action
                done = t.act({"dice": [6, None, 5, 6]}).json()
                assert done["applied"] and t.get("/log", t.gm).json()["log"][0]["dice"] == [
                    4,
                    2,
                    6,
                    None,
                    5,
                    6,
                ]
            elif not t.view(log=False)["over"]:  # the fight goes on where it stopped
                assert t.act({"auto": True}).status_code == 200
            assert _rows(store_url, t.id) == t.view()["fight"]["seq"]
            _replays_identical(t.get("/log", t.gm).json(), tmp_path, f"{name}-after")


def _race(posts: list[Any]) -> list[int]:
    """Run the posts at once (a barrier releases every thread together); their status codes."""
    barrier = threading.Barrier(len(posts))
    codes: list[int] = [0] * len(posts)

    def run(i: int) -> None:
        barrier.wait()
        codes[i] = posts[i]().status_code

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return sorted(codes)


def test_two_clients_racing_for_one_decision_one_is_applied_the_other_409(store_url: str, serve: Any) -> None:
    """Two threads, each with its own connection, post for the same decision at the same moment; then
    two servers on the same store do the same. Each time exactly one action is applied and the store
    gains one row."""
    one = serve(store_url)
    two = serve(store_url)
    with one.client() as a, two.client() as b, one.client() as a2:
        t = open_table(a, "l5r/kakita-vs-hida", seed=3)
        rounds = 0
        for clients in ((a, a2), (a, b), (a, a2), (a, b), (b, a)):
            view = t.view(log=False)
            if view["over"]:
                break
            rows = _rows(store_url, t.id)
            body = {"state_id": view["state_id"], "auto": True}
            url = f"/api/fights/{t.id}/actions"
            posts = [functools.partial(c.post, url, json=body, headers=t.headers(t.gm)) for c in clients]
            assert _race(posts) == [200, 409]
            assert _rows(store_url, t.id) == rows + 1  # one row, not two
            assert len(t.get("/log", t.gm).json()["log"]) == view["fight"]["actions"] + 1
            rounds += 1
        assert rounds >= 3
        # Both servers serve the same fight: the one that lost the last race rebuilt it from the store.
        seen = {replace(t, client=c).view(log=False)["state_id"] for c in (a, b)}
        assert len(seen) == 1


def test_a_store_whose_rows_do_not_replay_is_refused_not_served_wrong(store_url: str) -> None:
    from fastapi.testclient import TestClient

    from kassen.web.app import create_app
    from kassen.web.settings import Settings

    with TestClient(create_app(Settings(db=store_url, allowed_hosts=TEST_HOSTS))) as c:
        t = open_table(c, "arena/duel", seed=4)
        for _ in range(3):
            t.act({"auto": True})
        fight_id, gm = t.id, t.gm
    engine = create_engine(store_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:  # the store tampered with: row 2 says it led somewhere else
        conn.execute(
            update(actions)
            .where(actions.c.fight_id == fight_id, actions.c.seq == 2)
            .values(state_id="0" * 20)
        )
    engine.dispose()
    app = create_app(Settings(db=store_url, allowed_hosts=TEST_HOSTS))
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get(f"/api/fights/{fight_id}", headers={"Authorization": f"Bearer {gm}"})
        assert r.status_code == 500 and r.json()["code"] == "replay"
        assert "row 2" in r.json()["detail"] and "Traceback" not in r.text


def test_the_schema_is_versioned_and_a_newer_store_is_refused(store_url: str) -> None:
    store = Store(store_url)
    assert store.versions[1] == LATEST
    store.close()
    again = Store(store_url)  # opening again migrates nothing
    assert again.versions == (LATEST, LATEST)
    assert migrate(again.engine) == (LATEST, LATEST)
    with again.engine.begin() as conn:
        conn.execute(text("UPDATE kassen_schema SET version = :v"), {"v": LATEST + 1})
    again.close()
    with pytest.raises(WebError, match="newer than this kassen"):
        Store(store_url)
