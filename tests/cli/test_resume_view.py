"""``kassen resume`` plays a saved game by the same players in the same view: a game saved by one side's
player (``--human east``) resumes in that side's view, never the GM's, unless ``--human`` says otherwise;
the save says who played (``meta.humans``), and a hand-edited one that does not is one clear error."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from kassen.cli.main import app


def kassen(*args: str, answers: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=answers)
    return result.exit_code, result.stdout, result.stderr


def test_a_sides_game_resumes_in_that_sides_view(tmp_path: Path) -> None:
    # rule: AR.HP.1 — the other fighter's HP and FP stay behind the GM's screen after a resume too
    first, second = tmp_path / "p1.json", tmp_path / "p2.json"
    code, out, err = kassen(
        "play", "duel", "--seed", "1", "--human", "east", "--save", str(first), answers="1\n1\n1\nquit\n"
    )
    assert code == 0, err
    assert json.loads(first.read_text("utf-8"))["meta"]["humans"] == ["east"]
    code, out, err = kassen("resume", str(first), "--save", str(second), answers="1\n1\n1\n1\nquit\n")
    assert code == 0, err
    assert "Ken (west)" in out and "HP ?, FP ?" in out
    assert not re.search(r"Ken \(west\).*HP \d+/\d+", out), out
    # west is played by its policy, never asked at this terminal
    assert not re.search(r"^Ken\b[^\n]*choose", out, re.MULTILINE), out
    assert json.loads(second.read_text("utf-8"))["meta"]["humans"] == ["east"]
    # the GM may take the table over: --human says who plays from now on
    code, out, err = kassen("resume", str(second), "--human", "gm", answers="quit\n")
    assert code == 0, err
    assert re.search(r"Ken: HP -?\d+ → -?\d+", out), out  # the GM's view: every number


def test_a_save_that_names_its_players_wrongly_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "p1.json"
    code, _, err = kassen(
        "play", "duel", "--seed", "1", "--human", "east", "--save", str(save), answers="quit\n"
    )
    assert code == 0, err
    data = json.loads(save.read_text("utf-8"))
    for wrong in ("east", [1], ["x" * 300]):
        data["meta"]["humans"] = wrong
        save.write_text(json.dumps(data), "utf-8")
        code, _out, err = kassen("resume", str(save), answers="quit\n")
        assert code == 2 and "meta.humans" in err and "Traceback" not in err, err
