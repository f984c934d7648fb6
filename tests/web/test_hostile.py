"""Hostile requests the server must refuse cleanly, each with one JSON refusal and nothing changed:
bodies that would read differently to kassen and to another JSON reader (a key given twice, UTF-16,
a charset other than UTF-8), requests for a host name the server does not serve (DNS rebinding), an
``Origin`` of the right host but the wrong scheme; and what a tokenless client may learn from the
fight list."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import open_table

JSON = {"Content-Type": "application/json"}


def _refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"], body
    return body


# -- bodies -------------------------------------------------------------------------------------------------
def test_a_key_given_twice_is_refused_on_every_json_endpoint(client: Any) -> None:
    before = client.get("/api/fights").json()["total"]
    # the first key a bundled name, the second a scenario text: which one would a reader keep?
    dup = b'{"scenario": "arena/duel", "seed": 3, "seed": 4}'
    body = _refused(client.post("/api/fights", content=dup, headers=JSON), 422, "json")
    assert "seed" in body["detail"] and "twice" in body["detail"]
    t = open_table(client, "arena/duel", seed=4)
    state = t.now()
    for where, raw in (
        ("/actions", f'{{"state_id": "{state}", "auto": true, "auto": false}}'),
        ("/undo", f'{{"state_id": "{state}", "state_id": "{state}"}}'),
        ("/fork", f'{{"at": "{state}", "at": "{state}"}}'),
        ("/actions", f'{{"state_id": "{state}", "choices": ["begin"], "x": {{"a": 1, "a": 2}}}}'),
    ):
        r = client.post(
            f"/api/fights/{t.id}{where}", content=raw.encode(), headers={**JSON, **t.headers(t.gm)}
        )
        _refused(r, 422, "json")
    assert t.now() == state and client.get("/api/fights").json()["total"] == before + 1


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_body_not_in_utf8_is_refused(client: Any, encoding: str) -> None:
    before = client.get("/api/fights").json()["total"]
    raw = json.dumps({"scenario": "arena/duel", "seed": 3}).encode(encoding)
    body = _refused(client.post("/api/fights", content=raw, headers=JSON), 422, "json")
    assert "UTF-8" in body["detail"]
    t = open_table(client, "arena/duel", seed=4)
    chronicle = t.get("/log", t.gm).text
    r = client.post("/api/fights/import", content=chronicle.encode(encoding), headers=JSON)
    _refused(r, 422, "json")
    assert client.get("/api/fights").json()["total"] == before + 1


@pytest.mark.parametrize("charset", ["utf-16", "latin-1", '"utf-32"'])
def test_a_json_body_declared_in_another_charset_is_415(client: Any, charset: str) -> None:
    raw = json.dumps({"scenario": "arena/duel"}).encode()
    r = client.post(
        "/api/fights", content=raw, headers={"Content-Type": f"application/json; charset={charset}"}
    )
    _refused(r, 415, "media_type")
    ok = client.post("/api/fights", content=raw, headers={"Content-Type": "application/json; charset=UTF-8"})
    assert ok.status_code == 201, ok.text


# -- host names and origins (DNS rebinding) ---------------------------------------------------------------
def test_a_host_name_this_server_does_not_serve_is_refused_even_with_a_matching_origin(client: Any) -> None:
    before = client.get("/api/fights").json()["total"]
    t = open_table(client, "arena/duel", seed=4)
    rebinding = {"Host": "evil.example", "Origin": "http://evil.example"}
    r = client.post("/api/fights", json={"scenario": "arena/duel"}, headers=rebinding)
    _refused(r, 400, "host")
    # reading is refused too: the attacker's page could read the fight list or, with a token, a view
    for url in ("/api/fights", f"/api/fights/{t.id}", "/", f"/fights/{t.id}"):
        _refused(client.get(url, headers={**rebinding, **t.headers(t.gm)}), 400, "host")
    for host in ("evil.example:80", "testserver.evil.example", "user@testserver", "testserver/x", "[::1"):
        _refused(client.get("/api/fights", headers={"Host": host}), 400, "host")
    # the names it serves, with any port, and any IP address (a page served from an address is that
    # address's own origin: there is no name to rebind)
    for host in (
        "testserver",
        "TESTSERVER:8000",
        "localhost:8000",
        "127.0.0.1:8000",
        "[::1]:8000",
        "10.0.0.7",
    ):
        assert client.get("/api/fights", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/fights").json()["total"] == before + 1


def test_an_origin_of_the_right_host_but_another_scheme_or_port_is_refused(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    state = t.now()
    url = f"/api/fights/{t.id}/actions"
    for origin in ("https://testserver", "http://testserver:8080", "ftp://testserver", "http://testserver/x"):
        r = client.post(
            url, json={"state_id": state, "auto": True}, headers={**t.headers(t.gm), "Origin": origin}
        )
        _refused(r, 403, "cross_site")
    assert t.now() == state
    for origin in ("http://testserver", "http://TestServer:80"):
        r = client.post(
            url, json={"state_id": t.now(), "auto": True}, headers={**t.headers(t.gm), "Origin": origin}
        )
        assert r.status_code == 200, (origin, r.text)


def test_behind_a_tls_proxy_the_public_url_is_the_origin_and_the_links(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient

    from kassen.web.app import create_app
    from kassen.web.settings import Settings

    app = create_app(Settings(db=sqlite_url, public_url="https://table.example"))
    # the proxy passes the public name in Host, over plain HTTP to the server
    with TestClient(app, base_url="http://table.example") as c:
        ok = c.post(
            "/api/fights", json={"scenario": "arena/duel"}, headers={"Origin": "https://table.example"}
        )
        assert ok.status_code == 201, ok.text
        links = ok.json()["links"]
        assert links["gm"].startswith("https://table.example/fights/")
        assert all(u.startswith("https://table.example/join/") for u in links["join"].values())
        for origin in ("http://table.example", "https://table.example:8443", "https://evil.example"):
            r = c.post("/api/fights", json={"scenario": "arena/duel"}, headers={"Origin": origin})
            _refused(r, 403, "cross_site")
        _refused(c.get("/api/fights", headers={"Host": "evil.example"}), 400, "host")


def test_the_names_a_server_is_reached_by() -> None:
    import socket

    from kassen.web.origins import served_names

    assert served_names("127.0.0.1") == () and served_names("::1") == ()
    assert served_names("gm-laptop.lan") == ("gm-laptop.lan",)
    every = served_names("0.0.0.0")
    assert socket.gethostname().lower() in every and "localhost" in every
    assert served_names("::") == every


# -- what a client without a token learns --------------------------------------------------------------------
def test_the_fight_list_names_no_fight_to_a_client_without_its_token(client: Any) -> None:
    from importlib import resources

    text = resources.files("kassen.arena").joinpath("data/bouts/duel.yaml").read_text(encoding="utf-8")
    secret = "Ambush at Kawanakajima ford"
    t = open_table(client, text.replace("name: Arena duel", f"name: {secret}"), seed=4)
    listed = client.get("/api/fights").json()
    assert [f["id"] for f in listed["fights"]] == [t.id]
    assert secret not in json.dumps(listed) and "title" not in listed["fights"][0]
    assert secret not in client.get("/").text and t.id[:6] in client.get("/").text
    # the GM and every side read it in their own view
    for token in (t.gm, *t.join.values()):
        assert t.view(token, log=False)["fight"]["title"] == secret


# -- a full disk ---------------------------------------------------------------------------------------------
def test_a_full_disk_is_507_nothing_changes_and_reading_goes_on(client: Any) -> None:
    from sqlalchemy import event

    t = open_table(client, "sengoku/count-example", seed=4)
    assert t.act({"auto": True}).status_code == 200
    engine = client.app.state.store.engine

    def full(dbapi_connection: Any, _record: Any) -> None:  # the file may not grow by a page
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    def until_refused(make: Any) -> Any:  # the pages' free room fills, then a write needs a new page
        for _ in range(300):
            r = make()
            if r.status_code not in (200, 201):
                return r
        raise AssertionError("the store never filled")

    total = client.get("/api/fights").json()["total"]
    event.listen(engine, "connect", full)
    engine.dispose()
    try:
        gm = t.headers(t.gm)

        def act() -> Any:  # a row each: an action, or an undo at the end (the fight never ends)
            over = t.view(log=False)["over"]
            body: dict[str, Any] = {"state_id": t.now()} if over else {"state_id": t.now(), "auto": True}
            return client.post(f"/api/fights/{t.id}/{'undo' if over else 'actions'}", json=body, headers=gm)

        for refused in (until_refused(act), act()):
            assert "disk is full" in _refused(refused, 507, "store_full")["detail"]
        during = t.view()
        opened = until_refused(lambda: client.post("/api/fights", json={"scenario": "sengoku/count-example"}))
        _refused(opened, 507, "store_full")
        # nothing changed, and reading goes on: the view, the list, the pages, the chronicle
        assert t.view() == during
        assert client.get("/api/fights").json()["total"] >= total
        assert client.get(f"/fights/{t.id}").status_code == 200 and t.get("/log", t.gm).status_code == 200
    finally:
        event.remove(engine, "connect", full)
        engine.dispose()
    # room again: the fight goes on from exactly where the write failed
    assert t.view() == during
    assert act().status_code == 200
    assert client.post("/api/fights", json={"scenario": "sengoku/count-example"}).status_code == 201


def test_postgresqls_disk_full_error_is_507_too(monkeypatch: pytest.MonkeyPatch, client: Any) -> None:
    # PostgreSQL raises SQLSTATE 53100 (disk_full) when it cannot extend a file: the same 507
    from sqlalchemy.exc import OperationalError

    from kassen.web import store as store_module

    class DiskFull(Exception):
        sqlstate = "53100"

        def __str__(self) -> str:
            return 'could not extend file "base/16384/16385": No space left on device'

    t = open_table(client, "arena/duel", seed=4)

    def failing(*_args: Any, **_kw: Any) -> None:
        raise OperationalError("INSERT ...", {}, DiskFull())

    monkeypatch.setattr(store_module.Store, "append", failing)
    r = client.post(
        f"/api/fights/{t.id}/actions", json={"state_id": t.now(), "auto": True}, headers=t.headers(t.gm)
    )
    _refused(r, 507, "store_full")
    assert t.view()["fight"]["seq"] == 0


# -- text no store can keep -------------------------------------------------------------------------------
def test_the_nul_character_is_refused_on_every_store_and_nothing_changes(any_client: Any) -> None:
    """PostgreSQL's text cannot hold NUL: a name with one is a 422 on every store (not a 500 on one and a
    stored NUL on the other), in a JSON body, a scenario's YAML and an imported chronicle alike."""
    from kassen.arena import data

    c = any_client
    t = open_table(c, "arena/duel", seed=4)
    h = t.headers(t.gm)
    listed = c.get("/api/fights").json()["total"]
    name = c.get(f"/api/fights/{t.id}", headers=h).json().get("name")
    body = _refused(c.patch(f"/api/fights/{t.id}", json={"name": "a\u0000b"}, headers=h), 422, "json")
    assert "control character U+0000" in body["detail"]
    assert c.get(f"/api/fights/{t.id}", headers=h).json().get("name") == name
    duel = (Path(data.__file__).parent / "bouts" / "duel.yaml").read_text("utf-8")
    titled = duel.replace("name: ", 'name: "Arena\\0duel" #', 1)
    assert titled != duel
    r = c.post("/api/fights", json={"scenario": titled, "seed": 1})
    assert r.status_code == 422 and "control character U+0000" in r.text, r.text
    chronicle = t.get("/log", t.gm).json()
    chronicle["meta"] = {**chronicle.get("meta", {}), "title": "a\u0000b"}
    _refused(c.post("/api/fights/import", json=chronicle), 422, "json")
    _refused(c.post("/api/campaigns", json={"id": "ford", "name": "The\u0000ford"}), 422, "json")
    assert c.get("/api/fights").json()["total"] == listed
