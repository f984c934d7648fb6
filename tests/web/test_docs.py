"""Every runnable example of ``docs/web.md`` is run, in order (issue 12: the docs show what works).

The ``curl`` commands of its ``sh`` blocks are read with :mod:`shlex` and sent through a test client
(the same requests a shell would send to ``kassen serve``); ``$FIGHT``, ``$GM``, ``$EAST``, ``$WEST`` and
``$STATE`` are filled in from the earlier replies, as the docs say. A ``# NNN`` comment before a command
is the status it must get; any other command must succeed. ``kassen replay`` runs the CLI on the file a
``curl -o`` wrote. ``make serve``, ``kassen serve`` and the PostgreSQL set-up start long-running servers
or need root: ``test_serve.py`` and ``test_store.py`` cover them.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from typer.testing import CliRunner

from kassen.cli.main import app as cli

from .conftest import ROOT

DOC = ROOT / "docs" / "web.md"
NOT_RUN = ("make serve", "kassen serve", "sudo ")


def commands(text: str) -> list[tuple[str, int | None]]:
    """Each command of the ``sh`` blocks, with the status its ``# NNN`` comment expects."""
    out: list[tuple[str, int | None]] = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        expected: int | None = None
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            status = re.match(r"#\s*(\d{3})\b", line)
            if status:
                expected = int(status[1])
                continue
            if not line or line.startswith("#") or line.startswith(NOT_RUN):
                continue
            out.append((re.sub(r"\s+#\s.*$", "", line), expected))
            expected = None
    return out


def curl(client: Any, args: list[str], folder: Path) -> tuple[Any, str]:
    """Send what ``curl ARGS`` would send; the response and the path it went to."""
    method, headers, body, url, out = None, {}, None, None, None
    words = iter(args[1:])
    for word in words:
        if word == "-s":
            continue
        if word == "-X":
            method = next(words)
        elif word == "-H":
            name, _, value = next(words).partition(":")
            headers[name.strip()] = value.strip()
        elif word in ("-d", "--data-binary"):
            data = next(words)
            body = (folder / data[1:]).read_bytes() if data.startswith("@") else data.encode()
        elif word == "-o":
            out = folder / next(words)
        elif word.startswith("http"):
            url = word
        else:
            raise AssertionError(f"a curl option the docs test does not know: {word}")
    assert url is not None
    parts = urlsplit(url)
    assert parts.netloc == "127.0.0.1:8000"  # the address `kassen serve` prints by default
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    response = client.request(
        method or ("POST" if body is not None else "GET"), target, headers=headers, content=body
    )
    if out is not None:
        out.write_bytes(response.content)
    return response, parts.path


def test_every_example_in_docs_web_md_runs(client: Any, tmp_path: Path) -> None:
    found = commands(DOC.read_text(encoding="utf-8"))
    assert len(found) >= 20
    env: dict[str, str] = {}
    ran = 0
    for command, expected in found:
        if "FIGHT" in env:  # $STATE: the fight's state now
            view = client.get(f"/api/fights/{env['FIGHT']}", headers={"Authorization": f"Bearer {env['GM']}"})
            env["STATE"] = view.json()["state_id"]
        filled = re.sub(r"\$([A-Z]+)", lambda m: env[m[1]], command)
        args = shlex.split(filled)
        if args[0] == "kassen":
            result = CliRunner().invoke(cli, [*args[1:-1], str(tmp_path / args[-1])])
            assert result.exit_code == (expected or 0), (command, result.output)
            assert result.output.startswith("identical"), result.output
            ran += 1
            continue
        assert args[0] == "curl", command
        response, path = curl(client, args, tmp_path)
        if expected is None:
            assert 200 <= response.status_code < 300, (command, response.text[:500])
        else:
            assert response.status_code == expected, (command, response.text[:500])
        if response.status_code == 201 and "FIGHT" not in env and path == "/api/fights":
            made = response.json()
            env.update(FIGHT=made["id"], GM=made["gm_token"])
            env.update({side.upper(): token for side, token in made["join"].items()})
        ran += 1
    assert ran == len(found)
    assert {"FIGHT", "GM", "EAST", "WEST", "STATE"} <= set(env)
