"""Web table benchmark (issue 12): 20 tables played at once over loopback against ``kassen serve``, on a
SQLite store and on a PostgreSQL store side by side, next to the same fights played in process.

Run with ``make bench`` or ``.venv/bin/python bench/bench_web.py``. For each store a server is started
as a subprocess on a free loopback port; 20 client threads each open a fight of the bundled Sengoku
demo battle (seeds 0..19) and play it through the JSON API — ``GET`` the view, then ``POST`` an action
with ``auto`` (the unit's policy decides) on that view's ``state_id`` — until it ends. Every request
is bounded: at most ``MAX_ACTIONS`` actions per table and ``DEADLINE`` seconds per store.

Reported per store: actions/s over all tables, the latency of a posted action (p50, p99: each one is
committed to the store before the reply), views/s and a view's latency, and the server's CPU time per
action (from /proc). The baseline, measured in the same run: the same 20 fights played by calling
``Fight.step`` in this process, with no HTTP and no store; the ratio is what the table's durability,
HTTP and JSON cost per action.

PostgreSQL is used when reachable: ``KASSEN_BENCH_POSTGRES`` (or ``KASSEN_TEST_POSTGRES``, as set by
``.ci/run``), else the defaults the tests try; kassen's tables there are dropped first.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from kassen.core.scenario import open_fight
from kassen.web.catalog import bundled_source

TABLES = 20
SCENARIO = "sengoku/demo"
MAX_ACTIONS = 30
DEADLINE = 90.0
PG_DEFAULTS = (
    "postgresql://kassen:kassen@127.0.0.1:5432/kassen_test",
    "postgresql://postgres@localhost/kassen_test",
)
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    """What one store's run measured."""

    store: str
    actions: int = 0
    views: int = 0
    wall: float = 0.0
    post: list[float] = field(default_factory=list)
    get: list[float] = field(default_factory=list)
    cpu: float = 0.0
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(db: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (folder / f"server-{port}.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "kassen", "serve", "--db", db, "--port", str(port), "--quiet"],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=folder,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"kassen serve exited: see {log.name}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("kassen serve did not start within 30 s")


def play_table(url: str, seed: int, run: Run, lock: threading.Lock, stop_at: float) -> None:
    with httpx.Client(base_url=url, timeout=30) as client:
        made = client.post("/api/fights", json={"scenario": SCENARIO, "seed": seed}).json()
        base = f"/api/fights/{made['id']}"
        headers = {"Authorization": f"Bearer {made['gm_token']}"}
        posts, gets, actions = [], [], 0
        while actions < MAX_ACTIONS and time.monotonic() < stop_at:
            t0 = time.perf_counter()
            view = client.get(base, params={"log": "false"}, headers=headers)
            t1 = time.perf_counter()
            gets.append(t1 - t0)
            data = view.json()
            if view.status_code != 200 or data["over"]:
                break
            reply = client.post(
                f"{base}/actions", json={"state_id": data["state_id"], "auto": True}, headers=headers
            )
            posts.append(time.perf_counter() - t1)
            if reply.status_code != 200:
                with lock:
                    run.errors.append(f"{reply.status_code} {reply.text[:120]}")
                break
            actions += 1
    with lock:
        run.actions += actions
        run.views += len(gets)
        run.post += posts
        run.get += gets


def bench_store(name: str, db: str, folder: Path) -> Run:
    process, url = start(db, folder)
    run = Run(name)
    try:
        lock = threading.Lock()
        cpu0 = cpu_seconds(process.pid)
        t0 = time.perf_counter()
        stop_at = time.monotonic() + DEADLINE
        args = [(url, seed, run, lock, stop_at) for seed in range(TABLES)]
        threads = [threading.Thread(target=play_table, args=a) for a in args]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        run.wall = time.perf_counter() - t0
        run.cpu = cpu_seconds(process.pid) - cpu0
    finally:
        process.terminate()
        process.wait(timeout=15)
    return run


def direct_rate() -> tuple[float, int]:
    """The same fights played in process (Fight.step: legal actions, policy, rules, log): actions/s."""
    source = bundled_source(SCENARIO)
    actions = 0
    start_time = time.perf_counter()
    for seed in range(TABLES):
        fight = open_fight(source, seed=seed)
        n = 0
        while not fight.over and n < MAX_ACTIONS:
            fight.step()
            n += 1
        actions += n
    return actions / (time.perf_counter() - start_time), actions


def postgres_url() -> tuple[str | None, str]:
    try:
        import psycopg
    except ImportError:
        return None, "psycopg is not installed"
    given = os.environ.get("KASSEN_BENCH_POSTGRES") or os.environ.get("KASSEN_TEST_POSTGRES")
    for url in (given,) if given else PG_DEFAULTS:
        try:
            with psycopg.connect(url, connect_timeout=3) as conn:
                for table in ("actions", "tokens", "fights", "kassen_schema"):
                    conn.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
            return url, ""
        except Exception as exc:  # not reachable: say so, and bench SQLite alone
            why = (str(exc).splitlines() or ["?"])[0][:100]
    return None, why


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def main() -> int:
    print(
        f"kassen web benchmark: {TABLES} tables of {SCENARIO} played at once over loopback"
        f" (GET the view, POST auto), Python {sys.version.split()[0]}, {os.cpu_count()} cores"
    )
    rate, direct_actions = direct_rate()
    print(f"  baseline, the same fights in process (Fight.step): {rate:,.0f} actions/s ({direct_actions})")
    runs = []
    with tempfile.TemporaryDirectory(prefix="kassen-bench-") as tmp:
        folder = Path(tmp)
        runs.append(bench_store("sqlite", f"sqlite:///{folder / 'bench.db'}", folder))
        pg, why = postgres_url()
        if pg is not None:
            runs.append(bench_store("postgresql", pg, folder))
    header = (
        f"  {'store':<11} {'actions/s':>9} {'post p50':>9} {'post p99':>9} {'views/s':>8}"
        f" {'view p50':>9} {'view p99':>9} {'CPU/action':>10} {'vs in process':>13}"
    )
    print(header)
    for r in runs:
        actions_s = r.actions / r.wall
        print(
            f"  {r.store:<11} {actions_s:>9,.1f} {pct(r.post, 0.5):>7.1f}ms {pct(r.post, 0.99):>7.1f}ms"
            f" {r.views / r.wall:>8,.1f} {pct(r.get, 0.5):>7.1f}ms {pct(r.get, 0.99):>7.1f}ms"
            f" {r.cpu / max(1, r.actions) * 1000:>8.2f}ms {rate / actions_s:>12,.0f}x"
        )
        if r.errors:
            print(f"    {len(r.errors)} tables stopped on an error: {r.errors[0]}")
    if pg is None:
        print(f"  postgresql: not measured ({why})")
    if runs:
        mean = statistics.mean(r.actions for r in runs)
        print(f"  ({mean:.0f} actions per store; each posted action committed before its reply)")
    return 1 if any(r.errors for r in runs) else 0


if __name__ == "__main__":
    raise SystemExit(main())
