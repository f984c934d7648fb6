"""`kassen play` and `kassen resume` at a terminal whose answers come from standard input: menu numbers,
auto, back, undo, typed dice, save; bad answers said on one line and asked again; end of input saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app

runner = CliRunner()


def run(*args: str, input: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_answering_1_to_everything_finishes_and_the_save_replays(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, err = run(
        "play", "coinflip/best-of-three", "--seed", "5", "--save", str(save), input="1\n" * 50
    )
    assert code == 0, err
    assert "Result: winner:" in out and f"saved to {save}" in out
    code, out, _ = run("replay", str(save))
    assert code == 0 and out.startswith("identical:")


def test_a_scripted_game_with_bad_answers_undo_table_dice_save_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "mid.json"
    answers = [
        "1",  # the GM begins
        "9",  # not on the menu: said, asked again
        "hello",  # not an answer
        "1",  # Ann: flip ... (then the call: heads / tails)
        "1",  # heads
        "7",  # a face a d2 does not have: refused, asked again
        "2",  # the coin shows tails: Ann loses a token
        "undo",  # back to Ann's decision
        "1",
        "2",  # tails this time
        "2",  # the coin shows tails: Ann wins the call
    ]
    code, out, err = run(
        "play",
        "coinflip/best-of-three",
        "--dice",
        "table",
        "--save",
        str(save),
        input="\n".join(answers) + "\n",
    )
    assert code == 0, err
    assert "cannot use '9' here" in out and "cannot use 'hello' here" in out
    assert "7 is not one of its faces" in out
    assert "Ann: roll 1d2 — Ann calls heads: the coin shows …" in out  # who rolls, for what, which dice
    assert out.count("undone") == 1
    data = json.loads(save.read_text("utf-8"))
    assert [e.get("dice") for e in data["log"]] == [[], [2]]  # table mode: every action its faces
    assert data["log"][1]["action"]["call"] == "tails"
    # resume: the remaining decisions, to the end
    code, out, err = run("resume", str(save), "--save", str(save), input="1\n" * 40)
    assert code == 0, err
    assert "Result: winner:" in out
    code, out, _ = run("replay", str(save))
    assert code == 0 and out.startswith("identical:") and "winner:" in out


def test_units_not_at_the_table_are_played_by_their_policies(tmp_path: Path) -> None:
    code, out, err = run("play", "coinflip/best-of-three", "--human", "left", "--seed", "3", input="1\n" * 30)
    assert code == 0, err
    assert "Bob calls" in out and "Bob: choose" not in out  # Bob is the scenario's, not asked
    code, _, err = run("play", "coinflip/best-of-three", "--human", "nobody", input="")
    assert code == 2 and "no side or unit of this fight" in err


def test_bad_options_exit_2_with_one_line() -> None:
    for args in (["--dice", "loaded"], ["--seed", "-1"]):
        code, _, err = run("play", "coinflip/best-of-three", *args)
        assert code == 2 and err.count("\n") == 1


def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path) -> None:
    # the whole session used to be played, then lost at "cannot save to ..."
    for where, words in ((tmp_path / "no" / "x.json", "does not exist"), (tmp_path, "is a directory")):
        code, out, err = run("play", "coinflip/best-of-three", "--save", str(where), input="1\n" * 50)
        assert code == 2 and words in err and err.count("\n") == 1
        assert out == ""  # nothing was played
        code, out, err = run("resume", str(tmp_path / "missing.json"), "--save", str(where))
        assert code == 2 and words in err


def test_a_file_name_too_long_is_refused_with_exit_2(tmp_path: Path) -> None:
    # a 300-character name used to end in a traceback (OSError: File name too long)
    where = tmp_path / ("x" * 300 + ".json")
    code, out, err = run("play", "coinflip/best-of-three", "--save", str(where), input="1\n" * 50)
    assert code == 2 and "File name too long" in err and err.count("\n") == 1 and out == ""
    save = tmp_path / "game.json"
    assert run("play", "coinflip/best-of-three", "--save", str(save), input="1\n" * 50)[0] == 0
    code, out, err = run("resume", str(save), "--save", str(where), input="")
    assert code == 2 and "File name too long" in err and out == ""
    # the same name typed during the game: said, and the game goes on
    code, out, err = run("play", "coinflip/best-of-three", input=f"save {where}\n" + "1\n" * 50)
    assert code == 0 and "cannot save to" in out and "Result:" in out


def test_a_special_file_system_is_refused_before_the_game() -> None:
    # /proc exists and the superuser may "write" it by its permissions, but nothing can be created there
    code, out, err = run("play", "coinflip/best-of-three", "--save", "/proc/x.json", input="1\n" * 50)
    assert code == 2 and "/proc/x.json" in err and "cannot write there" in err and out == ""


def test_a_save_that_fails_at_the_end_keeps_the_game_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the folder of --save went away during the game: the game is written to a fallback file instead
    folder = tmp_path / "gone"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)
    answers = iter(["1\n"] * 50)

    def lines() -> str:
        return "".join(answers)

    from kassen.cli.table import Table

    real = Table.run

    def run_then_remove(self: Table) -> None:
        real(self)
        folder.rmdir()

    monkeypatch.setattr(Table, "run", run_then_remove)
    code, out, err = run("play", "coinflip/best-of-three", "--save", str(folder / "g.json"), input=lines())
    assert code == 2 and "cannot save to" in err and "saved to" in err
    kept = list(tmp_path.glob("kassen-save-*.json"))
    assert len(kept) == 1 and str(kept[0].name) in err
    code, out, _ = run("replay", str(kept[0]))
    assert code == 0 and "identical" in out
    assert not list(tmp_path.glob("**/*.part"))  # no temporary file left behind
