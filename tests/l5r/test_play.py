"""`kassen play` and `kassen resume` on a roll-and-keep duel (issue 11): menu numbers, dice typed at the
table (a face out of range, or too many faces, refused and asked again), undo, the GM's moves, save and
resume; and every bundled duel finishes answering "1" to everything, its save replaying as identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.l5r.scenario import bundled_scenarios

runner = CliRunner()


def run(*args: str, input: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_a_scripted_game_with_table_dice_undo_the_gm_save_and_resume(tmp_path: Path) -> None:
    # rule: L5.CORE.8 — initiative rolled at the table decides who declares first (lowest) and acts first
    save, mid = tmp_path / "game.json", tmp_path / "mid.json"
    answers = [
        "1",  # the GM begins the duel: everyone rolls initiative (Kakita 5k3, Hida 4k2)
        "11",  # a d10 has no 11: refused, asked again
        "7 3 9 2 5 4 6 8 3 2 1",  # eleven faces for nine dice: refused, asked again
        "7 3 9 2 5",  # Kakita Toshiro: 9 + 7 + 5 = 21
        "4 6 8 3",  # Hida Kuroda: 8 + 6 = 14, so he declares first
        "3",  # Hida: Full Defense
        "undo",  # back to his declaration
        "4",  # Wait, then
        "gm",  # the GM's own moves:
        "1",  # set a fighter's Wounds
        "2",  # Hida Kuroda
        "20",  # 20 Wounds: Nicked
        f"save {mid}",
        "1",  # Kakita: Attack (one opponent: no target step)
        "1",  # a plain attack
        "1",  # no called shot
        "2",  # one raise for damage: 8k4 against TN 25
        "9 8 7 6 5 4 3 2",  # the attack roll: 9 + 8 + 7 + 6 = 30, a hit
        "6 5 4 3 2 auto",  # damage 6k2, the last die left to the seeded RNG (seed 1: no 10, so no die more)
        "5 5 5 5 5 4 4 4 4",  # turn 2's initiative
    ]
    code, out, err = run(
        "play",
        "l5r/kakita-vs-hida",
        "--dice",
        "table",
        "--seed",
        "1",
        "--save",
        str(save),
        input="\n".join(answers) + "\n",
    )
    assert code == 0, err
    # each prompt says who rolls, for what, which dice and how many are left; each result comes as soon
    # as its faces are in (Kakita's initiative before Hida's dice are asked for)
    assert "Kakita Toshiro: roll 5d10 — Kakita Toshiro rolls … for initiative (5 dice left)" in out
    assert out.index("Kakita Toshiro rolls 21 for initiative") < out.index("Hida Kuroda: roll 4d10")
    assert "die 1 of this action is a d10: 11 is not one of its faces" in out
    assert "too many faces: 11 typed, but only 9 dice are left to roll in this action" in out
    assert "Kakita Toshiro: roll 8d10 — Kakita Toshiro: attack on Hida Kuroda" in out
    assert out.count("undone") == 1 and "Hida Kuroda declares: wait" in out
    assert "the GM sets Hida Kuroda's Wounds to 20: Nicked" in out
    assert "Kakita Toshiro: attack on Hida Kuroda, 1 raise(s) for damage - rolls 30 against TN 25: hit" in out
    # the turn order above each menu, with the exact Wounds of the decider's own side only
    assert "turn 1, declarations (lowest initiative first): Hida Kuroda <- declares now" in out
    assert "Kakita Toshiro (Crane): Healthy; at 0 ft" in out  # as Hida Kuroda (Crab) sees him
    assert "[hit 91.3%, TN before raises 98.6%" in out  # odds on the menu, before committing
    assert f"saved to {mid}" in out and out.rstrip().endswith(f"saved to {save}")
    data = json.loads(save.read_text("utf-8"))
    assert [e["action"]["kind"] for e in data["log"]] == ["begin", "declare", "gm_set_wounds", "declare"]
    assert data["log"][0]["dice"] == [7, 3, 9, 2, 5, 4, 6, 8, 3]  # typed faces are in the log
    assert data["log"][3]["dice"][:14] == [9, 8, 7, 6, 5, 4, 3, 2, 6, 5, 4, 3, 2, None]
    # resume where it stopped: in the dice mode it was saved with, unless told (the seeded RNG from here)
    code, out, err = run("resume", str(save), input="quit\n")
    assert code == 0 and "dice: table" in out, err
    code, out, err = run("resume", str(save), "--dice", "auto", "--save", str(save), input="1\n" * 400)
    assert code == 0, err
    assert "Result: winner:" in out
    code, out, _ = run("replay", str(save))
    assert code == 0 and out.startswith("identical:")
    # the save made mid-game resumes too, with the GM's move in it
    code, out, err = run("resume", str(mid), "--dice", "auto", "--save", str(mid), input="1\n" * 400)
    assert code == 0 and "Result: winner:" in out, err
    assert json.loads(mid.read_text("utf-8"))["log"][2]["action"]["kind"] == "gm_set_wounds"


@pytest.mark.parametrize("scenario", bundled_scenarios())
def test_answering_1_to_everything_finishes_every_duel_and_its_save_replays(
    scenario: str, tmp_path: Path
) -> None:
    save = tmp_path / f"{scenario}.json"
    code, out, err = run("play", f"l5r/{scenario}", "--seed", "5", "--save", str(save), input="1\n" * 3000)
    assert code == 0, err
    assert "Result: " in out and f"saved to {save}" in out
    code, out, _ = run("replay", str(save))
    assert code == 0 and out.startswith("identical:"), out


def test_units_not_at_the_table_are_played_by_their_policies(tmp_path: Path) -> None:
    code, out, err = run("play", "l5r/kakita-vs-hida", "--seed", "2", "--human", "Crane", input="1\n" * 500)
    assert code == 0, err
    assert "Kakita Toshiro: declare an action" in out and "Hida Kuroda: declare an action" not in out
    assert "Hida Kuroda declares:" in out  # his policy declares, aloud
