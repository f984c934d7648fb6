"""The quotas in process, with small bounds so that a test reaches them: actions per token, fights per
client and per token (a fork), bytes stored per client, requests at once. A refusal is a 429 with a
``Retry-After``, changes nothing, and leaves every other client and token alone. The same bounds at
their defaults, against a real server, are ``test_floods.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kassen.web.app import create_app
from kassen.web.quotas import Quotas
from kassen.web.settings import Quota, QuotaSettings, Settings

from .conftest import TEST_HOSTS, open_table

SMALL = QuotaSettings(
    fights=Quota(4, 600), store_bytes=Quota(64 * 1024, 3600), actions=Quota(5, 60), requests_at_once=2
)


@pytest.fixture
def small(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(db=sqlite_url, allowed_hosts=TEST_HOSTS, quotas=SMALL))
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def _quota(r: Any) -> None:
    assert r.status_code == 429 and r.json()["code"] == "quota", r.text
    assert 1 <= int(r.headers["retry-after"]) <= 3600


def test_actions_are_counted_per_token(small: TestClient) -> None:
    t = open_table(small, "sengoku/count-example", seed=4)
    for _ in range(SMALL.actions.amount):
        assert t.act({"auto": True}).status_code == 200
    before = t.now()
    _quota(t.act({"auto": True}))
    _quota(t.post("/undo", t.gm, {"state_id": before}))
    assert t.now() == before  # nothing changed
    other = open_table(small, "sengoku/count-example", seed=4)  # another fight's GM token: its own count
    assert other.act({"auto": True}).status_code == 200
    assert t.get("", t.gm).status_code == 200  # reading is no action


def test_fights_are_counted_per_client_and_forks_per_token_too(small: TestClient) -> None:
    t = open_table(small, "arena/duel", seed=4)
    assert small.post("/api/fights", json={"scenario": "no such"}).status_code == 422  # a try counts
    assert t.post("/fork", t.gm, {"at": t.now()}).status_code == 201
    assert small.post("/api/fights", json={"scenario": "arena/duel"}).status_code == 201
    total = small.get("/api/fights").json()["total"]
    _quota(small.post("/api/fights", json={"scenario": "arena/duel"}))
    _quota(t.post("/fork", t.gm, {"at": t.now()}))
    chronicle = t.get("/log", t.gm).content
    _quota(small.post("/api/fights/import", content=chronicle, headers={"Content-Type": "application/json"}))
    assert small.get("/api/fights").json()["total"] == total
    # a side's token may not fork: refused before it costs the client anything
    assert t.post("/fork", t.join["east"], {"at": t.now()}).status_code == 403


def test_bytes_stored_are_counted_per_client(small: TestClient, sqlite_url: str) -> None:
    from importlib import resources

    text = resources.files("kassen.arena").joinpath("data/bouts/duel.yaml").read_text(encoding="utf-8")
    padded = text + "# padding padding padding padding\n" * 1000  # about 35 KB
    assert small.post("/api/fights", json={"scenario": padded}).status_code == 201
    r = small.post("/api/fights", json={"scenario": padded})
    _quota(r)
    assert "bytes stored" in r.json()["detail"]
    assert small.post("/api/fights", json={"scenario": "arena/duel"}).status_code == 201  # a name: small


def test_requests_at_once_are_counted_per_client() -> None:
    quotas = Quotas(SMALL)
    with quotas.request("a"), quotas.request("a"):
        with pytest.raises(Exception) as refused, quotas.request("a"):
            pass
        assert getattr(refused.value, "status", None) == 429
        with quotas.request("b"):  # another client
            pass
    with quotas.request("a"), quotas.request("a"):  # released
        pass


def test_a_refusal_is_documented_json(small: TestClient) -> None:
    for _ in range(SMALL.fights.amount):
        small.post("/api/fights", json={"scenario": "arena/duel"})
    r = small.post("/api/fights", json={"scenario": "arena/duel"})
    body = r.json()
    assert set(body) == {"detail", "code"} and "fights per 10 min" in body["detail"]
    assert json.loads(r.text) == body
