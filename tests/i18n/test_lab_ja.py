"""The balance lab in Japanese: its reports, plots and command-line output speak Japanese (no English left
but names and what a user types), its plots draw every glyph with a Japanese font (or say once that
none is installed and fall back to English, never boxes), and its data — JSON, CSV, the sweep's cells —
is the same byte for byte in either language."""

from __future__ import annotations

import html
import json
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kassen import lab
from kassen.cli.main import app
from kassen.i18n import use_language
from kassen.lab import plots
from kassen.lab.solve import solve
from kassen.lab.writing import write_odds, write_run, write_solve, write_sweep

from .leaks import assert_japanese, english_left

pytest.importorskip("matplotlib")

runner = CliRunner()

#: What may stay in Latin letters besides the leak check's own list: names and ids from the scenarios
#: (fighters, sides, scenario ids, the arena duel's title until the data's catalog translates it), the
#: rulesets' names, and what a user types (the replay command, options, policy specs, file names).
DUEL_NAMES = ("Ryu", "Ken", "east", "west", "duel", "arena", "Arena duel")
TYPED = ("kassen fight", "--seed", "--policy", "--out", "KEY", "scenario.yaml", "cells", "sweep.csv", "lab")


def _texts_of_plots(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """Every text drawn in the plots made from now on (titles, axes, ticks, legends, labels), and every
    warning matplotlib gives while drawing them (a missing glyph is one)."""
    import matplotlib.text

    drawn: list[str] = []
    caught: list[str] = []
    original: Callable[[Any], bytes] = plots._png

    def png(fig: Any) -> bytes:
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            data = original(fig)  # savefig draws every glyph
        caught.extend(str(w.message) for w in got)
        drawn.extend(t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text())
        return data

    monkeypatch.setattr(plots, "_png", png)
    return drawn, caught


def _html_text(page: str) -> str:
    """What a reader sees of a report: its text, without the style sheet and the embedded images."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.DOTALL)
    page = re.sub(r'src="data:[^"]*"', "", page)
    alts = " ".join(re.findall(r'alt="([^"]*)"', page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + alts)


@pytest.fixture(scope="module")
def duel() -> lab.RunResult:
    return lab.run("duel", fights=40, seed=0)


@pytest.fixture
def no_japanese_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine without any Japanese font (the families looked for exist nowhere)."""
    monkeypatch.setattr(plots, "JAPANESE_FONTS", ("No Such Font For Kassen",))
    plots.japanese_font.cache_clear()
    yield
    monkeypatch.undo()
    plots.japanese_font.cache_clear()


def test_the_japanese_font_is_found_by_family_name() -> None:
    # fonts-noto-cjk is installed by .ci/run (and on this machine): matplotlib knows it by name
    assert plots.japanese_font() == "Noto Sans CJK JP"
    with use_language("ja"):
        assert plots.font_problem() is None


def test_run_report_and_plots_in_japanese_without_english_or_missing_glyphs(
    duel: lab.RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn, caught = _texts_of_plots(monkeypatch)
    with use_language("ja"):
        files = write_run(duel, tmp_path / "ja")
    assert {"outcomes.png", "rounds.png", "units.png", "report.html"} <= {f.name for f in files}
    assert not [w for w in caught if "missing from" in w or "Glyph" in w], caught
    assert any("勝ち" in t for t in drawn) and any("決着までのラウンド数" in t for t in drawn)
    assert_japanese("\n".join(drawn), allow=DUEL_NAMES, where="the run's plots")
    page = (tmp_path / "ja" / "report.html").read_text("utf-8")
    assert "<html lang=ja>" in page
    text = _html_text(page)
    assert "Ryu(east) の勝率は40戦中" in text and "全力攻撃" in text and "根性判定" in text
    assert_japanese(text, allow=DUEL_NAMES + TYPED, where="the run's report")


def test_sweep_solve_and_odds_plots_in_japanese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn, caught = _texts_of_plots(monkeypatch)
    with use_language("ja"):
        one = lab.sweep("duel", ["fighters.ryu.skill=9,11,13"], fights=12, seed=0)
        write_sweep(one, tmp_path / "lines")
        two = lab.sweep("duel", ["fighters.ryu.skill=10,13", "fighters.ken.skill=10,13"], fights=8, seed=0)
        write_sweep(two, tmp_path / "heat")
        write_odds(lab.sengoku_table(range(0, 4), range(10, 13)), tmp_path / "odds")
        write_odds(lab.arena_table(range(8, 12)), tmp_path / "arena")
        pages = [
            _html_text((tmp_path / d / "report.html").read_text("utf-8")) for d in ("lines", "heat", "odds")
        ]
    assert not [w for w in caught if "missing from" in w or "Glyph" in w], caught
    allow = (
        *DUEL_NAMES,
        *TYPED,
        "fighters.ryu.skill",
        "fighters.ken.skill",
        "ryu.skill",
        "ken.skill",
        "sengoku",
    )
    assert_japanese("\n".join(drawn), allow=allow, where="the sweep's and tables' plots")
    assert any("五分" in p or "50%" in p for p in pages)
    for page in pages:
        assert_japanese(page, allow=allow, where="a sweep's or a table's report")


def test_missing_font_warns_once_and_plots_in_english(
    duel: lab.RunResult, no_japanese_font: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn, caught = _texts_of_plots(monkeypatch)
    with use_language("ja"):
        assert plots.japanese_font() is None
        problem = plots.font_problem()
        assert (
            problem is not None
            and "fonts-noto-cjk" in problem
            and english_left(problem, ["fonts-noto-cjk", "Debian"]) == []
        )
        with pytest.warns(plots.FontWarning, match="fonts-noto-cjk") as warned:
            plots.run_plots(duel)
    assert len(warned) == 1  # one warning for the three plots of the run
    # the words fell back to English, so no glyph is missing (no boxes in place of Japanese)
    assert any("fights" in t for t in drawn) and not any(
        re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", t) for t in drawn
    )
    assert not [w for w in caught if "missing from" in w or "Glyph" in w], caught


def test_missing_font_is_one_line_on_the_command_line(tmp_path: Path, no_japanese_font: None) -> None:
    result = runner.invoke(
        app, ["lab", "run", "duel", "-n", "6", "--out", str(tmp_path / "o"), "--lang", "ja"]
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: 警告: ") and "fonts-noto-cjk" in lines[0]
    assert (tmp_path / "o" / "outcomes.png").exists()


def test_data_is_the_same_in_japanese_and_english(duel: lab.RunResult, tmp_path: Path) -> None:
    written: dict[str, dict[str, bytes]] = {}
    for lang in ("en", "ja"):
        base = tmp_path / lang
        with use_language(lang):
            run = lab.run("duel", fights=10, seed=3)
            write_run(run, base / "run", plots=False)
            sweep = lab.sweep("duel", ["fighters.ryu.skill=nine,11"], fights=4, seed=0)  # one invalid cell
            write_sweep(sweep, base / "sweep", plots=False)
            write_odds(lab.l5r_table([(3, 2), (5, 3)], [10, 15], raises=1), base / "odds", plots=False)
            solved = solve("duel", "fighters.ken.skill=8..16", "east=0.5", fights=6, seed=0)
            write_solve(solved, base / "solve", plots=False)
        written[lang] = {
            str(p.relative_to(base)): p.read_bytes()
            for p in sorted(base.rglob("*"))
            if p.is_file() and p.name != "report.html"
        }
    assert written["en"].keys() == written["ja"].keys()
    assert any(k.endswith(".csv") for k in written["en"]) and any(k.endswith(".json") for k in written["en"])
    for name, data in written["en"].items():
        assert written["ja"][name] == data, name
    sweep_json = json.loads(written["ja"]["sweep/sweep.json"])
    assert "invalid" in json.dumps(sweep_json) or any(c.get("error") for c in sweep_json.get("cells", []))


def test_json_on_the_command_line_is_the_same_in_both_languages() -> None:
    commands = [
        ["lab", "run", "duel", "-n", "8", "--json"],
        ["lab", "match", "duel", "--a", "heuristic", "--b", "random", "-n", "4", "--json"],
        ["lab", "match", "duel", "--a", "heuristic", "--b", "random", "-n", "20", "--sprt", "--json"],
        ["lab", "odds", "l5r", "--pools", "3k2..4k3", "--tn", "15", "--raises", "1", "--json"],
        [
            "lab",
            "solve",
            "duel",
            "--vary",
            "fighters.ken.skill=8..14",
            "--target",
            "east=0.5",
            "-n",
            "6",
            "--json",
        ],
        ["lab", "run", "duel", "-n", "6", "--policies", "heuristic,random", "--json"],
    ]
    for command in commands:
        en = runner.invoke(app, command)
        ja = runner.invoke(app, [*command, "--lang", "ja"])
        assert en.exit_code == 0 and ja.exit_code == 0, (command, en.stderr, ja.stderr)
        assert en.stdout == ja.stdout, command


@pytest.mark.parametrize(
    ("command", "allow"),
    [
        (["lab", "run", "duel", "-n", "30"], DUEL_NAMES + TYPED),
        (
            ["lab", "run", "l5r/first-blood", "-n", "12", "--decide", "0.5", "--every", "6"],
            (
                "Crane",
                "Lion",
                "Doji Hana",
                "Akodo Sen",
                "A contest to first blood",
                "l5r",
                "first-blood",
                *TYPED,
            ),
        ),
        (
            ["lab", "sweep", "duel", "--vary", "fighters.ryu.skill=9,11,13", "-n", "8"],
            (*DUEL_NAMES, "fighters.ryu.skill", "ryu.skill"),
        ),
        (
            ["lab", "match", "duel", "--a", "heuristic", "--b", "random", "-n", "20", "--sprt"],
            (*DUEL_NAMES, *TYPED, "heuristic", "random", "A=A", "B=B"),
        ),
        (
            ["lab", "solve", "duel", "--vary", "fighters.ken.skill=8..14", "--target", "east=0.5", "-n", "6"],
            (*DUEL_NAMES, "fighters.ken.skill", "skill"),
        ),
        (["lab", "odds", "sengoku", "--modifiers", "0..2", "--defense", "10..12"], ()),
        (["lab", "odds", "l5r", "--pools", "3k2..4k3", "--tn", "15", "--raises", "1"], ()),
        (["lab", "odds", "arena", "--skill", "9..11"], ()),
        (
            ["lab", "run", "duel", "-n", "6", "--policies", "heuristic,random"],
            (*DUEL_NAMES, *TYPED, "heuristic", "random"),
        ),
    ],
)
def test_command_line_output_in_japanese(command: list[str], allow: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*command, "--lang", "ja"])
    assert result.exit_code == 0, result.stderr
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", result.stdout)
    assert_japanese(result.stdout, allow=allow, where=" ".join(command))


@pytest.mark.parametrize(
    "command",
    [
        ["lab", "run", "duel", "-n", "5", "--decide", "0.5", "--until", "0.1"],
        ["lab", "run", "duel", "-n", "5", "--every", "10"],
        ["lab", "sweep", "duel", "--vary", "fighters.nobody.skill=1,2", "-n", "5"],
        ["lab", "odds", "sengoku", "--modifiers", "5..1", "--defense", "10"],
        ["lab", "odds", "l5r", "--pools", "3k4", "--tn", "10"],
        ["lab", "solve", "duel", "--vary", "fighters.ken.skill=8..14", "--target", "east=2", "-n", "6"],
        [
            "lab",
            "match",
            "duel",
            "--a",
            "heuristic",
            "--b",
            "random",
            "--elo0",
            "50",
            "--elo1",
            "10",
            "--sprt",
        ],
    ],
)
def test_errors_in_japanese(command: list[str]) -> None:
    en = runner.invoke(app, command)
    ja = runner.invoke(app, [*command, "--lang", "ja"])
    assert en.exit_code == ja.exit_code == 2
    assert en.stderr != ja.stderr and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja.stderr), ja.stderr
    # what remains in Latin letters is what a user types: options and their value names (--until WIDTH),
    # the values given (quoted), a scenario's paths (fighters.ryu.skill) and the ids in them
    typed = " ".join(command)
    text = ja.stderr.replace("kassen: error:", "")
    text = re.sub(r"--[a-z][a-z0-9-]*|\b[A-Z][A-Z]+\b|'[^']*'|\S+\.\S+|\b[a-z]+(, [a-z]+)+\b", " ", text)
    # (a list of ids is joined with the language's separator: ryu、ken)
    assert_japanese(text, allow=[typed, "kassen", "ryu", "ken"], where=typed)
