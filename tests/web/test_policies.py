"""Sides played by a named policy at the web table (kassen.web.autoplay): chosen when a fight opens or
by the GM at any time, played by the server by themselves (each action committed and announced), kept
in the store across restarts and in the chronicle, refused strictly, never omniscient, and never played
by a player's token."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from kassen.web.app import create_app
from kassen.web.settings import Settings

from .conftest import TEST_HOSTS, Table, open_table


def tables_of(client: TestClient) -> Any:
    return client.app.state.tables  # type: ignore[attr-defined]


def settle(client: TestClient) -> None:
    assert tables_of(client).autoplayer.idle(60), "the policies did not finish playing"


def open_with(client: TestClient, scenario: str, policies: dict[str, str], seed: int = 3) -> Table:
    r = client.post("/api/fights", json={"scenario": scenario, "seed": seed, "policies": policies})
    assert r.status_code == 201, r.text
    data = r.json()
    return Table(client, data["id"], data["gm_token"], data["join"], data["state_id"], data)


def test_a_side_played_by_the_search_moves_by_itself(client: TestClient) -> None:
    t = open_with(client, "arena/duel", {"west": "search:iterations=20"})
    assert t.view(log=False)["fight"]["policies"] == {"west": "search:iterations=20"}
    t.play_first()  # the GM begins the bout
    settle(client)
    moves = 0
    while not t.view(log=False)["over"]:
        view = t.view(t.join["east"], log=False)
        assert view["to_move"]["side"] == "east", "west's turns are played by the server"
        t.play_first(t.join["east"])
        settle(client)
        moves += 1
        assert moves < 60
    log = t.view()["log"]
    west = [e for e in log if (e["actor"] or {}).get("side") == "west"]
    assert west, "the search played west"
    # every action the server played is in the store's rows, authored by the policy
    with tables_of(client).store.reading() as conn:
        authors = {r.author for r in tables_of(client).store.rows(conn, t.id)}
    assert "policy:search:iterations=20" in authors


def test_the_gm_chooses_who_plays_a_side_at_any_time(client: TestClient) -> None:
    t = open_table(client, "arena/duel", seed=3)
    east = t.join["east"]
    r = client.put(f"/api/fights/{t.id}/policies", headers=t.headers(east), json={"policies": {}})
    assert r.status_code == 403  # the GM's alone
    r = client.put(
        f"/api/fights/{t.id}/policies", headers=t.headers(t.gm), json={"policies": {"west": "first-legal"}}
    )
    assert r.status_code == 200, r.text
    assert r.json()["fight"]["policies"] == {"west": "first-legal"}
    assert t.view(east, log=False)["fight"]["policies"] == {"west": "first-legal"}  # public: a bot plays
    # handed back to its players
    r = client.put(f"/api/fights/{t.id}/policies", headers=t.headers(t.gm), json={"policies": {}})
    assert r.status_code == 200 and r.json()["fight"]["policies"] == {}


@pytest.mark.parametrize(
    ("policies", "says"),
    [
        ({"west": "serch"}, "unknown policy 'serch' (known: scenario, heuristic, random"),
        ({"west": "search:iteration=5"}, "has no parameter 'iteration'"),
        ({"north": "random"}, "no side 'north' in this fight (sides: east, west)"),
        ({"west": "search:omniscient"}, "omniscient search reads the players' hidden values"),
        ({"west": "search:time=60"}, "at most 5 s a decision"),
        ({"west": "search:iterations=100000"}, "at most 20,000 iterations"),
    ],
)
def test_a_bad_policy_is_refused_and_nothing_changes(
    client: TestClient, policies: dict[str, str], says: str
) -> None:
    before = client.get("/api/fights").json()["total"]
    r = client.post("/api/fights", json={"scenario": "arena/duel", "policies": policies})
    assert r.status_code == 422 and says in r.json()["detail"], r.text
    assert client.get("/api/fights").json()["total"] == before
    t = open_table(client, "arena/duel", seed=3)
    seen = t.view(log=False)
    r = client.put(f"/api/fights/{t.id}/policies", headers=t.headers(t.gm), json={"policies": policies})
    assert r.status_code == 422 and says in r.json()["detail"], r.text
    assert t.view(log=False) == seen


def test_a_player_cannot_play_a_side_the_server_plays(client: TestClient, monkeypatch: Any) -> None:
    tables = tables_of(client)
    monkeypatch.setattr(tables.autoplayer, "kick", lambda fight_id: None)  # hold the server's hand
    t = open_with(client, "arena/duel", {"west": "first-legal"})
    t.play_first()  # the GM begins
    t.play_first(t.join["east"])
    assert t.view(log=False)["to_move"]["side"] == "west"
    r = t.act({"auto": True}, t.join["west"])
    assert r.status_code == 409 and r.json()["code"] == "policy", r.text
    seq = t.view(log=False)["fight"]["seq"]
    tables.play_policies(t.id)  # what the worker does: west's turn, then it stops at east's
    view = t.view(log=False)
    assert view["fight"]["seq"] > seq and view["to_move"]["side"] == "east"


def test_who_plays_each_side_is_kept_in_the_store_and_the_chronicle(sqlite_url: str) -> None:
    def app() -> Any:
        return create_app(Settings(db=sqlite_url, allowed_hosts=TEST_HOSTS))

    with TestClient(app(), base_url="http://testserver") as c:
        t = open_with(c, "l5r/first-blood", {"Lion": "search:iterations=10"})
        settle(c)
    with TestClient(app(), base_url="http://testserver") as c:  # a restart: rebuilt from the store
        t.client = c
        assert t.view(log=False)["fight"]["policies"] == {"Lion": "search:iterations=10"}
        chronicle = t.get("/log", t.gm).json()
        assert chronicle["meta"]["policies"] == {"Lion": "search:iterations=10"}
        r = c.post("/api/fights/import", json=chronicle)
        assert r.status_code == 201, r.text
        imported = Table(c, r.json()["id"], r.json()["gm_token"], r.json()["join"], r.json()["state_id"])
        assert imported.view(log=False)["fight"]["policies"] == {"Lion": "search:iterations=10"}


def test_an_imported_chronicle_with_an_omniscient_side_is_refused(client: TestClient) -> None:
    from kassen.core.scenario import open_fight

    fight = open_fight("arena/duel", seed=2, policies={"west": "search:iterations=5,omniscient"})
    r = client.post("/api/fights/import", json=fight.to_json())
    assert r.status_code == 422 and "omniscient" in r.json()["detail"]
