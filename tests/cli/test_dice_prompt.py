"""The table-dice prompt of ``kassen play``: ``save``, ``back``, ``undo``, ``gm`` and ``quit`` work there as
at a menu (the action waiting for its dice is dropped, except by ``save``, which keeps what was played),
and a roll of other dice right after a check (a d100 on the critical mistake table after a fumbled 2d10)
is asked for as a roll of its own."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kassen.cli.main import app

# the GM begins; Kuro: Stealth Movement > own-front > Stroke of Fire > Oni > end the breath: his check
KURO_BREATH = ["4", "2", "3", "1", "1"]
PROMPT = "Kuro: roll 2d10 — Kuro: stealth-movement own-flank → own-front: 2d10 […] + 7 = … vs 11"


def play(*args: str, answers: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["play", *args], input="\n".join(answers) + "\n")
    return result.exit_code, result.stdout, result.stderr


def test_save_back_undo_gm_and_quit_at_a_dice_prompt(tmp_path: Path) -> None:
    # rule: SG.CHK.1 — the stealth movement's check (2d10 + 7 against 11) waits for the table's dice
    save, mid = tmp_path / "game.json", tmp_path / "mid.json"
    answers = [
        "1",
        *KURO_BREATH,
        f"save {mid}",  # what is played so far: the battle begun, not the breath waiting for its dice
        "back",  # the breath dropped, back to its last choice (end the breath)
        "1",
        "9",  # one face in: the prompt says one die is left
        "undo",  # the breath dropped: Kuro decides it again
        *KURO_BREATH[:4],
        "1",
        "gm",  # the breath dropped: the GM's own moves
        "back",  # back to Kuro's menu
        *KURO_BREATH,
        "quit",  # the breath dropped; the game saved as played
    ]
    code, out, err = play(
        "sengoku/count-example", "--seed", "4", "--dice", "table", "--save", str(save), answers=answers
    )
    assert code == 0, err
    assert out.count(PROMPT) >= 4
    assert f"saved to {mid}" in out
    assert "the action waiting for dice is dropped: back to its last choice" in out
    assert "2d10 [9, …] + 7 = … vs 11" in out and "(1 die left, 1 in): faces, or auto" in out
    after_undo = out[out.index("(1 die left, 1 in)") :]
    assert after_undo.index("the action waiting for dice is dropped") < after_undo.index(
        "Kuro, count 12: choose a maneuver"
    )
    gm = out[out.index("the action waiting for dice is dropped: the GM's moves") :]
    assert "gm: choose an action" in gm
    assert out.rstrip().endswith(f"saved to {save}")
    for path in (mid, save):
        data = json.loads(path.read_text("utf-8"))
        assert [e["action"]["kind"] for e in data["log"]] == ["begin"]  # no breath half-rolled is kept
        assert data["meta"]["dice"] == "table"
    resumed = CliRunner().invoke(app, ["resume", str(mid)], input="quit\n")
    assert resumed.exit_code == 0 and "dice: table" in resumed.stdout


def test_a_roll_of_other_dice_right_after_a_check_is_asked_for_on_its_own(tmp_path: Path) -> None:
    # rule: SG.FUM.1, SG.FUM.3 — a double 1 fumbles, and the critical mistake table is a d100
    answers = ["1", "1", "1", "1", "1", "quit"]  # Kuro: Shuriken Throw > the retainer > end; 1 and 1
    code, out, err = play(
        "sengoku/demo", "--seed", "3", "--dice", "table", "--human", "party", answers=answers
    )
    assert code == 0, err
    prompts = [line for line in out.splitlines() if line.endswith("faces, or auto")]
    assert prompts[0].startswith("Kuro: roll 2d10 — Kuro's Shuriken Throw → Takeda retainer: 2d10 […] + 4")
    assert prompts[0].endswith("(2 dice left): faces, or auto")
    assert prompts[1].endswith("(1 die left, 1 in): faces, or auto")
    # the d100 is one die of its own, not the check's third
    assert (
        prompts[2].startswith("Kuro: roll 1d100 — ")
        and "2d10 [1, 1] + 4 = 6 vs Defense 10: Fumble" in prompts[2]
    )
    assert prompts[2].endswith("(1 die left): faces, or auto")


def test_back_at_the_dice_of_a_decision_left_to_the_policy_goes_back_to_its_start() -> None:
    # rule: SG.CHK.1 — the breath the policy chose for Kuro waits for its check's dice
    answers = ["auto", "back", "quit"]
    code, out, err = play(
        "sengoku/count-example", "--seed", "4", "--dice", "table", "--human", "party", answers=answers
    )
    assert code == 0, err
    assert "the action waiting for dice is dropped: back to the decision (the policy had made it)" in out
    after = out[out.index("dropped: back to the decision") :]
    assert "Kuro, count 12: choose a maneuver (or Hold, or Pass)" in after and "kassen:" not in out


def test_faces_typed_on_a_japanese_keyboard_are_the_same_faces(tmp_path: Path) -> None:
    # rule: SG.CHK.1 — the stealth check's 2d10, typed as full-width digits with a full-width space
    code, out, err = play(
        "sengoku/count-example",
        "--seed",
        "4",
        "--dice",
        "table",
        answers=["1", *KURO_BREATH, "９　３", "quit"],
    )
    assert code == 0, err
    assert "2d10 [9, 3]" in out and "is not a face" not in out, out[-1500:]
