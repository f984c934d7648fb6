"""Hostile requests the server must refuse cleanly, each with one JSON refusal and nothing changed:
bodies that would read differently to kassen and to another JSON reader (a key given twice, UTF-16,
a charset other than UTF-8), requests for a host name the server does not serve (DNS rebinding), an
``Origin`` of the right host but the wrong scheme; and what a tokenless client may learn from the
fight list."""

from __future__ import annotations

import json
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
