"""The package as a user installs it: ``python -m build`` makes an sdist and, from it, a wheel; the wheel
goes into a fresh virtual environment, and there — far from the source tree — the demo runs, a game is
played at the terminal and ``kassen serve`` serves its pages (the templates, static files and bundled
scenarios and tables are in the wheel). And getting started: ``make demo`` installs kassen alone and ends
by showing the next commands to try, ``make test`` installs every extra the tests need.

Offline and quick: the build uses the backend installed with kassen[dev] (``--no-isolation``: nothing is
downloaded), and the fresh environment gets kassen from the wheel alone (``--no-deps``) while its
dependencies are read from the project's environment, linked in after its own site-packages (a ``.pth``
line: the project's editable install of kassen is not activated there, so only the wheel's kassen can
be imported — which the test checks)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _make_n(target: str, tmp_path: Path) -> str:
    """What ``make TARGET`` would run on a fresh clone (no virtual environment yet)."""
    done = subprocess.run(
        ["make", "-n", target, f"VENV={tmp_path / 'fresh-venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_make_demo_installs_kassen_alone_and_make_test_every_extra(tmp_path: Path) -> None:
    demo = _make_n("demo", tmp_path)
    installs = [line for line in demo.splitlines() if "pip install" in line and "--upgrade pip" not in line]
    assert installs and all(line.rstrip().endswith("install --quiet -e .") for line in installs), installs
    assert "[" not in "".join(installs)  # no extra at all: no test tools, no lab, no web, no Ray
    assert "kassen.demo" in demo
    # the demo ends by showing how to run kassen and what to try next
    after = demo[demo.index("kassen.demo") :]
    for next_command in ("bin/kassen play", "bin/kassen resume", "make serve", "bin/activate", "--help"):
        assert next_command in after, f"make demo does not end by showing {next_command}"
    test = _make_n("test", tmp_path)
    match = re.search(r"pip install --quiet -e '\.\[([^\]]+)\]'", test)
    assert match, test
    assert {"dev", "lab", "parquet", "ray", "web", "postgres", "webtest"} <= set(match[1].split(","))
    assert "ruff check" in test and "mypy --strict" in test and "bin/pytest" in test
    serve = _make_n("serve", tmp_path)
    assert "-e '.[web]'" in serve and "kassen serve" in serve


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build", reason="the build package (kassen[dev]) makes the wheel")
    out = tmp_path_factory.mktemp("dist")
    # a copy of the tracked files only, so what the build leaves (build/, *.egg-info) never lands in the
    # worktree and nothing untracked there slips into the sdist
    tree = tmp_path_factory.mktemp("tree")
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    ).stdout.split(b"\0")
    if not any(files):
        pytest.skip("not a git checkout: the tracked files are unknown")
    for name in filter(None, files):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = tree / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    # sdist first, then the wheel built from the sdist (what a release, and pip, would do)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_the_sdist_and_the_wheel_carry_the_package_data(dist: Path) -> None:
    wheel = next(dist.glob("kassen-*.whl"))
    sdist = next(dist.glob("kassen-*.tar.gz"))
    names = set(zipfile.ZipFile(wheel).namelist())
    with tarfile.open(sdist) as tar:
        in_sdist = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    # every file of the package that is not Python: scenarios, tables, templates, static files, py.typed
    source = ROOT / "src"
    data = [
        p.relative_to(source).as_posix()
        for p in (source / "kassen").rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert len(data) > 20 and "kassen/web/templates/screen.html" in data and "kassen/py.typed" in data
    for name in data:
        assert name in names, f"the wheel lacks {name}"
        assert f"src/{name}" in in_sdist, f"the sdist lacks {name}"
    assert any(
        n.endswith("entry_points.txt") and "kassen.rulesets" in zipfile.ZipFile(wheel).read(n).decode()
        for n in names
    )
    assert not any("tests/" in n for n in names)


def test_the_installed_wheel_runs_the_demo_plays_and_serves_without_the_source_tree(
    dist: Path, tmp_path: Path
) -> None:
    pytest.importorskip("fastapi", reason="kassen serve needs kassen[web]")
    httpx = pytest.importorskip("httpx", reason="the test reads kassen serve's pages with httpx")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python, kassen = venv / "bin" / "python", venv / "bin" / "kassen"
    wheel = next(dist.glob("kassen-*.whl"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    # the dependencies: the project environment's site-packages, after the fresh one's own
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(own) / "_kassen_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", "utf-8")

    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}

    def run(*argv: str, given: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*argv], cwd=away, env=env, input=given, capture_output=True, text=True, timeout=600
        )

    where = run(
        str(python),
        "-c",
        "import kassen, importlib.metadata as m; print(kassen.__file__); print(m.version('kassen'))",
    )
    assert where.returncode == 0, where.stderr
    assert str(venv) in where.stdout and str(ROOT) not in where.stdout  # the wheel's copy, not the source
    demo = run(str(python), "-m", "kassen.demo")
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert "Kawanaka" in demo.stdout and "identical" in demo.stdout
    play = run(str(kassen), "play", "arena/duel", "--seed", "1", "--save", "g.json", given="1\n" * 400)
    assert play.returncode == 0 and "Result:" in play.stdout, play.stdout[-2000:] + play.stderr[-2000:]
    replayed = run(str(kassen), "replay", "g.json")
    assert replayed.returncode == 0 and replayed.stdout.startswith("identical"), replayed.stdout
    rules = run(str(kassen), "rules", "SG.CHK.1")
    assert rules.returncode == 0 and "2d10" in rules.stdout

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [str(kassen), "serve", "--port", str(port), "--db", f"sqlite:///{away / 'table.db'}"],
        cwd=away,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                page = httpx.get(base + "/", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.communicate()[1][-2000:]
                assert time.monotonic() < deadline, "kassen serve did not answer within 2 minutes"
                time.sleep(0.2)
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert httpx.get(base + "/static/htmx.min.js", timeout=10).status_code == 200
        assert httpx.get(base + "/openapi.json", timeout=10).status_code == 200
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
