"""Docs that cannot rot: every command and code example in README.md and docs/ runs as written.

Each document runs in a fresh working directory, its blocks in order:

- a fenced ``sh``/``bash``/``console`` block: each line starting with ``kassen`` (or ``$ kassen``) is run
  in-process, ``# comments`` dropped, a trailing ``> FILE`` writing its output there; it must exit 0.
  Other lines (``make demo``) are left to the Makefile's own tests.
- a ``python`` block: executed (one namespace per document), like the README's first example.
- a ``yaml`` block is only data unless marked: ``<!-- doc-test: file NAME -->`` on the line before the
  fence writes it to NAME (before any block of that document runs), so a command of the document can
  read it (``kassen validate NAME``, ``--content DIR``).

Markers (an HTML comment on the line just before the fence, invisible on the rendered page):
``<!-- doc-test: fails -->`` the block's commands must each be refused with exit 2;
``<!-- doc-test: slow -->`` run only with ``-m slow`` (``make test-slow``);
``<!-- doc-test: skip WHY -->`` not run (say why: a browser, a long sweep).
docs/web.md belongs to the web table's own tests and is skipped here.
"""

from __future__ import annotations

import io
import re
import shlex
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = {"docs/web.md"}
DOCS = sorted(
    p.relative_to(ROOT).as_posix()
    for p in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    if p.relative_to(ROOT).as_posix() not in SKIPPED
)
FENCE = re.compile(r"(?:<!-- doc-test: (?P<mark>[^>]*?) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)```", re.S)
SHELLS = {"sh", "bash", "console"}
YES = re.compile(r"yes (?P<answer>\S+) \| ")


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    lang: str
    body: str
    mark: str

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    return [
        Block(name, text.count("\n", 0, m.start("lang")) + 1, m["lang"], m["body"], (m["mark"] or "").strip())
        for m in FENCE.finditer(text)
    ]


def commands(block: Block) -> list[tuple[list[str], str | None, str]]:
    """The block's ``kassen`` commands as argument lists, each with the file its output goes to and
    its standard input. In a shell block every line starting with ``kassen`` counts; in a plain fence (a
    terminal transcript) the lines after ``$ ``, each answered with the answers the transcript shows
    typed after ``> `` until the next ``$``; ``yes 1 | kassen ...`` answers 1 to every prompt."""
    out: list[tuple[list[str], str | None, str]] = []
    transcript = block.lang not in SHELLS
    for raw in block.body.replace("\\\n", " ").splitlines():
        line = raw.strip()
        if transcript and line.startswith("> ") and out:
            args, target, given = out[-1]
            out[-1] = (args, target, given + line[2:] + "\n")
            continue
        if transcript and not line.startswith("$ "):
            continue
        line = line.removeprefix("$ ")
        given = ""
        piped = YES.match(line)
        if piped:
            given, line = (piped["answer"] + "\n") * 2000, line[piped.end() :]
        if not line.startswith("kassen "):
            continue
        words = shlex.split(line, comments=True)
        target = None
        if ">" in words:
            at = words.index(">")
            words, target = words[:at], words[at + 1]
        out.append((words[1:], target, given))
    return out


def run_kassen(args: list[str], given: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(app, args, input=given)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _mode(block: Block) -> str:
    return block.mark.split(" ", 1)[0] if block.mark else ""


def run_doc(path: Path, slow: bool) -> int:
    """Run every block of the document at ``path`` in the current directory; return how many ran."""
    found = blocks(path)
    ran = 0
    for b in found:  # files first: a command may read a file the document shows further down
        if _mode(b) == "file":
            name = b.mark.split(" ", 1)[1].strip()
            Path(name).parent.mkdir(parents=True, exist_ok=True)
            Path(name).write_text(b.body, encoding="utf-8")
    namespace: dict[str, object] = {"__name__": "__doc_example__"}
    for b in found:
        mode = _mode(b)
        if mode == "skip" or (mode == "slow" and not slow) or (slow and mode != "slow"):
            continue
        if b.lang in SHELLS or not b.lang:
            for args, target, given in commands(b):
                code, out, err = run_kassen(args, given)
                if mode == "fails":
                    assert code == 2, f"{b.where}: kassen {shlex.join(args)} should be refused (exit 2)"
                    assert "kassen: error: " in err, f"{b.where}: {err}"
                else:
                    assert code == 0, f"{b.where}: kassen {shlex.join(args)} exited {code}: {err}{out[-500:]}"
                if target is not None:
                    Path(target).write_text(out, encoding="utf-8")
                ran += 1
        elif b.lang == "python":
            with redirect_stdout(io.StringIO()):
                exec(compile(b.body, b.where, "exec"), namespace)
            ran += 1
    return ran


@pytest.mark.parametrize("doc", DOCS)
def test_every_example_in_the_doc_runs_as_written(
    doc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run_doc(ROOT / doc, slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCS)
def test_the_slow_examples_run_too(doc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_doc(ROOT / doc, slow=True)


def test_the_docs_show_commands_and_code() -> None:
    """The harness finds what it should: commands in shell blocks and Python blocks (a regex that
    matched nothing would pass every doc above)."""
    everything = [b for doc in DOCS for b in blocks(ROOT / doc)]
    assert sum(len(commands(b)) for b in everything if b.lang in SHELLS) >= 40
    assert sum(b.lang == "python" for b in everything) >= 8
    assert all(not b.mark or _mode(b) in {"file", "fails", "slow", "skip"} for b in everything)


def test_a_failing_example_must_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An example marked ``fails`` must be refused with exit 2 (one that succeeds is reported), and an
    unmarked one must succeed; ``> FILE`` keeps its output for the next command."""
    monkeypatch.chdir(tmp_path)
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- doc-test: fails -->\n```sh\nkassen roll 2d6 --seed 1\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="should be refused"):
        run_doc(doc, slow=False)
    doc.write_text("<!-- doc-test: fails -->\n```sh\nkassen roll 2d6+ --seed 1\n```\n", encoding="utf-8")
    assert run_doc(doc, slow=False) == 1
    doc.write_text("```sh\nkassen roll 2d6+ --seed 1   # a typo\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="exited 2"):
        run_doc(doc, slow=False)
    doc.write_text("```console\n$ kassen roll 2d6 --seed 1 --json > r.json\n```\n", encoding="utf-8")
    assert run_doc(doc, slow=False) == 1 and '"total"' in (tmp_path / "r.json").read_text("utf-8")


def test_make_coverage_counts_the_package_ledger() -> None:
    """``make coverage`` (tools/rule_coverage.py) reads the ledger every clone has: each ruleset's
    rules.yaml, the texts ``kassen rules`` prints."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("rule_coverage", ROOT / "tools" / "rule_coverage.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    book = tool.ledger(ROOT / "src" / "kassen")
    assert set(book) == {"sengoku", "l5r", "arena"}
    assert "SG.CHK.1" in book["sengoku"] and "L5.CORE.1" in book["l5r"]
    code, out, _ = run_kassen(["rules", "SG.CHK.1"])
    assert code == 0 and "2d10" in out
