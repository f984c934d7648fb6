"""Shared by the web table's tests: an app on a fresh SQLite store, a client that plays through the
API, a server in a subprocess, and a PostgreSQL store when one is reachable.

PostgreSQL: ``KASSEN_TEST_POSTGRES`` names the test database (``.ci/run`` creates it and sets it); without
it, the URLs of :data:`PG_DEFAULTS` are tried in turn. The tests that need it skip, with the reason, when
no server is reachable — unless ``KASSEN_WEB_REQUIRE=1`` (set by ``.ci/run``), which makes a missing
server or browser a failure.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (pip install 'kassen[web]') is not installed")

import warnings

import httpx

with warnings.catch_warnings():  # Starlette asks for its httpx fork (httpx2); httpx works the same here
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kassen.web.app import create_app
from kassen.web.settings import Settings

#: Tried in turn when ``KASSEN_TEST_POSTGRES`` is not set: what ``.ci/run`` creates, then a superuser.
PG_DEFAULTS = (
    "postgresql://kassen:kassen@127.0.0.1:5432/kassen_test",
    "postgresql://postgres@localhost/kassen_test",
)
REQUIRE = os.environ.get("KASSEN_WEB_REQUIRE") == "1"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("KASSEN_TEST_ARTIFACTS", ROOT / "build" / "test-artifacts" / "web"))

#: The host names the in-process apps serve (TestClient's, and the default's).
TEST_HOSTS = ("testserver", "localhost")

#: A small fight of each ruleset (the browser, crash and hidden-value tests play them).
FIGHTS = {"arena": "arena/duel", "l5r": "l5r/kakita-vs-hida", "sengoku": "sengoku/count-example"}


def unavailable(reason: str) -> None:
    """Skip — or fail, where the run requires every service (CI)."""
    if REQUIRE:
        pytest.fail(f"required for this run (KASSEN_WEB_REQUIRE=1): {reason}")
    pytest.skip(reason)


def _connects(url: str) -> str | None:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return None
    except Exception as exc:  # any failure to connect: not reachable
        return f"PostgreSQL at {url} is not reachable: {(str(exc).splitlines() or ['?'])[0][:120]}"


@functools.cache
def pg_url() -> tuple[str | None, str]:
    """The test database's URL and, when there is none, why (asked once per run)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return None, "psycopg is not installed (kassen[postgres])"
    given = os.environ.get("KASSEN_TEST_POSTGRES")
    why = []
    for url in (given,) if given else PG_DEFAULTS:
        problem = _connects(url)
        if problem is None:
            return url, ""
        why.append(problem)
    return None, "; ".join(why) + " (set KASSEN_TEST_POSTGRES, or run .ci/run)"


def need_pg() -> str:
    """The test database's URL, emptied of kassen's tables (skips, or fails under CI, without one)."""
    url, why = pg_url()
    if url is None:
        unavailable(why)
        raise AssertionError("unreachable")
    reset_pg(url)
    return url


def reset_pg(url: str) -> None:
    """Drop kassen's tables (each PostgreSQL test starts from an empty store)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        campaign = (
            *("campaign_tables", "campaign_scenarios"),
            *("roster_fights", "campaign_fights", "roster", "campaign_players", "campaigns"),
        )
        for table in (*campaign, "actions", "tokens", "fights", "kassen_schema"):
            conn.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store of each kind (PostgreSQL when reachable)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fights.db'}"
    return need_pg()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'fights.db'}"


@dataclass
class Table:
    """A fight opened through the API, and a client to play it with."""

    client: Any
    id: str
    gm: str
    join: dict[str, str]
    state_id: str
    created: dict[str, Any] = field(default_factory=dict)

    def headers(self, token: str | None) -> dict[str, str]:
        return {} if token is None else {"Authorization": f"Bearer {token}"}

    def get(self, where: str, token: str | None, **params: Any) -> Any:
        return self.client.get(f"/api/fights/{self.id}{where}", headers=self.headers(token), params=params)

    def post(self, where: str, token: str | None, body: Any) -> Any:
        return self.client.post(f"/api/fights/{self.id}{where}", headers=self.headers(token), json=body)

    def view(self, token: str | None = None, **params: Any) -> dict[str, Any]:
        r = self.get("", token or self.gm, **params)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def now(self, token: str | None = None) -> str:
        """The id the caller chooses on: the state id for the GM, a side's own view id for its token."""
        return str(self.view(token, log=False)["state_id"])

    def act(self, body: dict[str, Any], token: str | None = None) -> Any:
        return self.post("/actions", token or self.gm, {"state_id": self.now(token), **body})

    def first_path(self, token: str | None = None, gm: bool = False) -> list[str]:
        """The path of always the first allowed option (like ``yes 1 | kassen play``)."""
        path: list[str] = []
        while True:
            params: dict[str, Any] = {"gm": "true"} if gm else {}
            if path:
                params["path"] = ",".join(path)
            r = self.get("/choices", token or self.gm, **params)
            assert r.status_code == 200, r.text
            option = next(o for o in r.json()["options"] if o.get("allowed", True))
            path.append(option["id"])
            if option["complete"]:
                return path

    def play_first(self, token: str | None = None) -> Any:
        r = self.act({"choices": self.first_path(token)}, token)
        assert r.status_code == 200, r.text
        return r.json()

    def side_of_turn(self) -> str | None:
        to_move = self.view(log=False)["to_move"]
        return None if to_move is None else to_move.get("side")


def open_table(client: Any, scenario: str, *, seed: int | None = 1, dice: str = "auto") -> Table:
    body: dict[str, Any] = {"scenario": scenario, "dice": dice}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/fights", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return Table(client, data["id"], data["gm_token"], data["join"], data["state_id"], data)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(db=sqlite_url, allowed_hosts=TEST_HOSTS))
    with TestClient(app, base_url="http://testserver") as c:
        yield c


@pytest.fixture
def any_client(store_url: str) -> Iterator[TestClient]:
    """A client over each kind of store."""
    app = create_app(Settings(db=store_url, allowed_hosts=TEST_HOSTS))
    with TestClient(app, base_url="http://testserver") as c:
        yield c


# -- a server in a subprocess -----------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """``kassen serve`` running as a subprocess (stopped by its pid only)."""

    db: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30, **kwargs)

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, nothing."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(db: str, log: Path, port: int | None = None, extra: Sequence[str] = ()) -> Server:
    port = port or free_port()
    out = log.open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", "serve", "--db", db, "--port", str(port), "--quiet", *extra],
        stdout=out,
        stderr=subprocess.STDOUT,
        cwd=log.parent,
    )
    server = Server(db, port, process, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"kassen serve exited ({process.returncode}): {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError(f"kassen serve did not answer within 30 s: {log.read_text()[-2000:]}")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start servers (stopped at the end of the test)."""
    started: list[Server] = []

    def start(db: str, port: int | None = None) -> Server:
        server = start_server(db, tmp_path / f"server-{len(started)}.log", port)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
