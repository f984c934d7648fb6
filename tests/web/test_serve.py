"""``kassen serve`` itself (issue 12, "one command to try it"): with no arguments it serves on SQLite in
the working directory and prints the URL; a bad ``--db``, a port in use or a store it cannot write is
one clear line on stderr and exit 2, never a traceback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from kassen.cli.main import app as cli
from kassen.web.settings import DEFAULT_DB, Settings

from .conftest import free_port


def test_no_arguments_means_sqlite_in_the_working_directory_on_port_8000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, Any] = {}

    def fake_serve(settings: Settings, *, host: str, port: int, quiet: bool) -> None:
        seen.update(settings=settings, host=host, port=port, quiet=quiet)

    monkeypatch.setattr("kassen.web.server.serve", fake_serve)
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 0, result.output
    assert seen["settings"].db == DEFAULT_DB == "sqlite:///kassen.db"  # a relative path: the working dir
    assert (seen["host"], seen["port"], seen["quiet"]) == ("127.0.0.1", 8000, False)


def test_serve_starts_prints_its_url_and_keeps_its_store_in_the_working_directory(tmp_path: Path) -> None:
    port = free_port()  # port 8000 may be taken on a shared machine: everything else is the default
    out = tmp_path / "out.txt"
    with out.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "kassen", "serve", "--port", str(port)],
            cwd=tmp_path,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        while f"kassen serve: {url}" not in out.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, out.read_text()
            time.sleep(0.1)
        assert f"kassen serve: {url}" in out.read_text()
        assert httpx.get(url + "healthz", timeout=10).json()["store"] == "sqlite"
        assert (tmp_path / "kassen.db").is_file()
    finally:
        process.terminate()
        process.wait(timeout=15)


def _refused(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("kassen: error:"), result.output
    assert words in lines[0], lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("mysql://me@localhost/fights", "SQLite or PostgreSQL"),
        ("not a url", "is a URL like"),
        ("sqlite:///:memory:", "needs a file"),
        ("sqlite:///no/such/folder/kassen.db", "does not exist"),
        ("postgresql://nobody@127.0.0.1:1/kassen", "cannot open the store"),
        ("postgres://x@[::1/db", "is a URL like"),  # an unclosed IPv6 address: was a ValueError
        ("postgresql://x@host:port/db", "is a URL like"),
    ],
)
def test_a_bad_db_url_is_one_line_and_exit_2(db: str, words: str) -> None:
    _refused(["--db", db, "--port", str(free_port())], words)


def test_a_file_that_is_not_a_store_is_one_line_and_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "notes.db"
    junk.write_text("not a database, just notes\n" * 100, encoding="utf-8")
    _refused(["--db", f"sqlite:///{junk}", "--port", str(free_port())], "cannot open the store")


def test_an_unwritable_path_is_one_line_and_exit_2(tmp_path: Path) -> None:
    if os.geteuid() == 0:  # root writes any folder: a filesystem nobody may create files in
        where = Path("/proc/kassen-test.db")
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        where = locked / "kassen.db"
    _refused(["--db", f"sqlite:///{where}", "--port", str(free_port())], "cannot open the store")


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        _refused(["--db", f"sqlite:///{tmp_path / 'k.db'}", "--port", str(port)], "in use")
    _refused(["--db", f"sqlite:///{tmp_path / 'k.db'}", "--port", "0"], "--port")


def test_a_refused_host_or_port_leaves_no_new_store_behind(tmp_path: Path) -> None:
    # the address is checked before the store is opened: a typo in --host creates no database
    db = tmp_path / "k.db"
    bad_host = ["--host", "no.such.host.invalid", "--port", str(free_port())]
    _refused(["--db", f"sqlite:///{db}", *bad_host], "--host")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        _refused(["--db", f"sqlite:///{db}", "--port", str(taken.getsockname()[1])], "in use")
    assert not db.exists()


@pytest.mark.parametrize(
    ("host", "words"),
    [
        ("a" * 64, "not an address or a host name"),  # a label over 63: was idna's UnicodeError
        ("\udcff", "--host \\xff"),  # the byte 0xff on the command line ($'\\xff'), shown as that byte
        ("é" * 70, "not an address or a host name"),
        ("a..b", "not an address or a host name"),
        ("", "not an address or a host name"),
        ("x" * 300, "not an address or a host name"),
    ],
)
def test_a_host_that_is_no_name_is_one_line_and_exit_2(tmp_path: Path, host: str, words: str) -> None:
    db = tmp_path / "k.db"
    _refused(["--db", f"sqlite:///{db}", "--host", host, "--port", str(free_port())], words)
    assert not db.exists()


def test_a_bad_host_from_a_real_command_line_is_exit_2(tmp_path: Path) -> None:
    # through argv, as a shell passes $'\xff': no traceback, one line, status 2
    done = subprocess.run(
        [sys.executable, "-m", "kassen", "serve", "--host", os.fsdecode(b"\xff"), "--port", str(free_port())],
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert done.stderr.decode().startswith("kassen: error: --host \\xff") and b"Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--public-url", "table.example"], "give http://HOST or https://HOST"),
        (["--public-url", "https://table.example/kassen"], "no path"),
        (["--public-url", "https://[::1"], "not a URL"),
        (["--proxy", "proxy.lan"], "not an IP address"),
    ],
)
def test_a_bad_public_url_or_proxy_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], words: str
) -> None:
    _refused(["--db", f"sqlite:///{tmp_path / 'k.db'}", "--port", str(free_port()), *args], words)


def test_the_public_url_allowed_hosts_and_proxies_reach_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("kassen.web.server.serve", lambda settings, **kw: seen.update(settings=settings))
    args = ["--public-url", "https://table.example/", "--allow-host", "gm.lan", "--proxy", "10.0.0.0/8"]
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 0, result.output
    settings = seen["settings"]
    assert settings.public_url == "https://table.example"
    assert settings.allowed_hosts == ("localhost", "gm.lan") and settings.trusted_proxies == ("10.0.0.0/8",)
