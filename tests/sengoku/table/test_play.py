"""`kassen play` and `kassen resume` on a Sengoku battle (issue 11): menu numbers, dice typed at the table
(a face out of range, or too many faces, refused and asked again), undo, the GM's moves, save and
resume; and every bundled battle finishes answering "1" to everything, its save replaying as identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app

from .support import SCENARIOS

runner = CliRunner()


def run(*args: str, input: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_a_scripted_game_with_table_dice_undo_the_gm_save_and_resume(tmp_path: Path) -> None:
    # rule: SG.CNT.3 — the unit whose Energy is the count breathes; rule: SG.CRT.4 — a double 10 on a
    # hit rolls the decisive moment's d100, typed at the table like every die
    save, mid = tmp_path / "game.json", tmp_path / "mid.json"
    answers = [
        "1",  # the GM begins the battle
        "4",  # Kuro (count 12): Stealth Movement...
        "2",  # ...to the party's Front...
        "3",  # ...then Stroke of Fire...
        "1",  # ...at the Oni (odds shown: [Ambush], a Critical Hit with no check)...
        "1",  # ...and the breath ends: 5 Energy
        "11",  # a d10 has no 11: refused, asked again
        "3 4 5",  # three faces for a two-dice action: refused, asked again
        "9 8",  # the Stealth Movement check: 24 vs 11
        "undo",  # back to Kuro's count 12
        "3",  # Kuro reserves Emergency Evasion...
        "1",  # ...and ends the breath (nothing to roll)
        "gm",  # the GM's own moves:
        "1",  # set a unit's Wounds
        "2",  # the Oni
        "6",  # 5 Wounds
        f"save {mid}",
        "2",  # Kuro (count 11, before Genzaburo on Finesse): Precise Shuriken Throw...
        "1",  # ...at the Oni...
        "1",  # ...and the breath ends
        "10 10",  # a double 10 on a hit: a Critical Hit, the decisive moment
        "95",  # the d100: Decisive Blow, the Oni is Incapacitated
        "auto auto",  # its death check, rolled by the RNG
    ]
    code, out, err = run(
        "play",
        "sengoku/count-example",
        "--dice",
        "table",
        "--save",
        str(save),
        input="\n".join(answers) + "\n",
    )
    assert code == 0, err
    # who rolls, for what, which dice, how many are left: the ruleset's words less what the dice decide
    assert "Kuro: roll 2d10 — Kuro: stealth-movement own-flank → own-front: 2d10 […] + 7 = … vs 11" in out
    assert "kassen: die 1 of this action is a d10: 11 is not one of its faces" in out
    assert "kassen: too many faces: 3 typed, but only 2 dice are left to roll in this action" in out
    assert out.count("undone: action 2") == 1
    # the count track above each menu, as the deciding side sees it (its own Fate and reservations)
    assert "count track (highest first): Kuro 12 > Genzaburo 11 > Oni 10" in out
    assert (
        "Kuro (The party): in own-flank; Energy 11/12; Wounds 5/5; reserved: Emergency Evasion; Fate 2" in out
    )
    assert "Oni (The Oni): in own-front; Energy 10/10; Wounds 8/8\n" in out
    assert "Kuro, count 12: choose a maneuver (or Hold, or Pass) — 0 of 12 Energy spent in this breath" in out
    assert "[hit 100.0%, critical 100.0%, fumble 0.0%" in out  # odds on the menu, before committing
    assert "GM sets Oni's Wounds 8 → 5  [SG.WND.4]" in out
    assert "d100 95 on the decisive moment table: Decisive Blow" in out
    assert "Result: winner: The party" in out
    assert f"saved to {mid}" in out and out.rstrip().endswith(f"saved to {save}")
    data = json.loads(save.read_text("utf-8"))
    kinds = [e["action"]["kind"] for e in data["log"]]
    assert kinds == ["begin", "breath", "gm_set_wounds", "breath"]
    assert data["log"][3]["dice"][:3] == [10, 10, 95]  # typed faces are in the log
    code, out, _ = run("replay", str(save))
    assert code == 0 and out.startswith("identical:"), out
    # the save made mid-game resumes (the seeded RNG from there) to the end, and replays as identical
    code, out, err = run("resume", str(mid), "--dice", "auto", "--save", str(mid), input="1\n" * 3000)
    assert code == 0 and "Result: " in out, err
    resumed = json.loads(mid.read_text("utf-8"))
    assert [e["action"]["kind"] for e in resumed["log"][:3]] == ["begin", "breath", "gm_set_wounds"]
    code, out, _ = run("replay", str(mid))
    assert code == 0 and out.startswith("identical:"), out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_answering_1_to_everything_finishes_every_battle_and_its_save_replays(
    scenario: str, tmp_path: Path
) -> None:
    save = tmp_path / f"{scenario}.json"
    code, out, err = run(
        "play", f"sengoku/{scenario}", "--seed", "5", "--save", str(save), input="1\n" * 8000
    )
    assert code == 0, err
    assert "Result: " in out and f"saved to {save}" in out
    code, out, _ = run("replay", str(save))
    assert code == 0 and out.startswith("identical:"), out


def test_units_not_at_the_table_are_played_by_their_policies() -> None:
    code, out, err = run(
        "play", "sengoku/count-example", "--seed", "2", "--human", "party", input="1\n" * 500
    )
    assert code == 0, err
    assert "Kuro, count 12: choose a maneuver" in out and "Oni, count" not in out
    assert "Oni breathes at count" in out  # its script, then its heuristic, decide
