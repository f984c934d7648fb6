"""``kassen roster`` and ``kassen campaign`` at the terminal: a built scenario exported as YAML validates
and plays; bad input is one clear error (exit 2) and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kassen.cli.main import app

RUN = CliRunner()


def kassen(*args: str) -> tuple[int, str, str]:
    result = RUN.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_campaign_from_the_terminal(tmp_path: Path) -> None:
    # rule: SG.INP.3 — the aftermath of a played battle, confirmed and shown on the sheet
    db = f"sqlite:///{tmp_path / 'kassen.db'}"
    (tmp_path / "hat.yaml").write_text("creature: samurai\noverrides: {fate_points: 1}\n", encoding="utf-8")
    assert kassen("campaign", "new", "ford", "--db", db)[0] == 0
    code, out, err = kassen(
        "roster",
        "add",
        "ford",
        "--ruleset",
        "sengoku",
        "--id",
        "hatamoto",
        "--name",
        "Hatamoto",
        "--sheet",
        str(tmp_path / "hat.yaml"),
        "--db",
        db,
    )
    assert code == 0, err
    built = tmp_path / "built.yaml"
    code, out, err = kassen(
        "campaign",
        "start-fight",
        "ford",
        "demo",
        "--cast",
        "hatamoto:takeda",
        "--out",
        str(built),
        "--db",
        db,
    )
    assert code == 0 and "fight 1 started" in out, err
    assert kassen("validate", str(built))[0] == 0
    code, out, _ = kassen("campaign", "scenario", "ford", "--db", db)
    assert out == built.read_text(encoding="utf-8") and "id: hatamoto" in out
    code, chronicle, err = kassen("fight", str(built), "--seed", "5", "--json")
    assert code == 0, err
    (tmp_path / "chron.json").write_text(chronicle, encoding="utf-8")
    code, out, err = kassen(
        "campaign", "aftermath", "ford", str(tmp_path / "chron.json"), "--db", db, "--json"
    )
    assert code == 0, err
    proposed = json.loads(out)
    assert proposed["status"] == "proposed" and proposed["aftermath"][0]["character"] == "hatamoto"
    after = proposed["aftermath"][0]["after"]
    assert kassen("campaign", "confirm", "ford", "--db", db)[0] == 0
    code, out, _ = kassen("roster", "show", "ford", "hatamoto", "--db", db, "--json")
    assert json.loads(out)["lasting"] == after and json.loads(out)["fights"] == [1]
    code, exported, _ = kassen("roster", "export", "ford", "hatamoto", "--db", db)
    (tmp_path / "h.yaml").write_text(exported, encoding="utf-8")
    assert kassen("campaign", "new", "other", "--db", db)[0] == 0
    assert kassen("roster", "import", "other", str(tmp_path / "h.yaml"), "--db", db)[0] == 0
    code, out, _ = kassen("roster", "show", "other", "hatamoto", "--db", db, "--json")
    assert json.loads(out)["lasting"] == after
    assert kassen("campaign", "undo", "ford", "--db", db)[0] == 0


def test_bad_input_is_one_clear_error(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'kassen.db'}"
    (tmp_path / "bad.yaml").write_text("creature: samuraix\n", encoding="utf-8")
    (tmp_path / "hat.yaml").write_text("creature: samurai\n", encoding="utf-8")
    assert kassen("campaign", "new", "ford", "--db", db)[0] == 0
    cases = [
        (("campaign", "new", "Bad Name"), "campaign id"),
        (("campaign", "new", "ford"), "exists already"),
        (
            (
                "roster",
                "add",
                "ford",
                "--ruleset",
                "sengoku",
                "--id",
                "x",
                "--name",
                "X",
                "--sheet",
                str(tmp_path / "bad.yaml"),
            ),
            "did you mean samurai",
        ),
        (
            (
                "roster",
                "add",
                "ford",
                "--ruleset",
                "chess",
                "--id",
                "x",
                "--name",
                "X",
                "--sheet",
                str(tmp_path / "bad.yaml"),
            ),
            "no campaign rules",
        ),
        (("roster", "show", "ford", "nobody"), "no character"),
        (("roster", "list", "nowhere"), "no campaign"),
        (("campaign", "start-fight", "ford", "demo", "--cast", "nobody"), "ID:SIDE"),
        (("campaign", "start-fight", "ford", "demo", "--cast", "nobody:takeda"), "no character"),
        (("campaign", "confirm", "ford"), "no aftermath"),
        (("campaign", "undo", "ford"), "no confirmed aftermath"),
        (("campaign", "aftermath", "ford", str(tmp_path / "bad.yaml")), "not JSON"),
        # a terminal escape in a name would retitle the window of whoever lists the roster
        (
            (
                "roster",
                "add",
                "ford",
                "--ruleset",
                "sengoku",
                "--id",
                "x6",
                "--name",
                "e\x1b]0;t\x07",
                "--sheet",
                str(tmp_path / "hat.yaml"),
            ),
            "control character U+001B",
        ),
        (("campaign", "new", "other", "--name", "The\x1b[2Jford"), "control character U+001B"),
    ]
    for args, words in cases:
        code, out, err = kassen(*args, "--db", db)
        assert code == 2 and words in err and "Traceback" not in err, (args, err)
    code, out, _ = kassen("roster", "list", "ford", "--db", db, "--json")
    assert json.loads(out) == []
    code, out, _ = kassen("campaign", "list", "--db", db, "--json")
    assert [c["id"] for c in json.loads(out)] == ["ford"], out


def test_a_store_that_is_not_there_is_refused_and_not_created(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'missing.db'}"
    for args in (
        ("roster", "list", "ford"),
        ("roster", "edit", "ford", "x", "--name", ""),
        ("campaign", "list"),
    ):
        code, _, err = kassen(*args, "--db", db)
        assert code == 2 and "no store there yet" in err, (args, err)
    assert not (tmp_path / "missing.db").exists()
