"""``kassen play`` and ``kassen resume`` for the arena (issue 11): a scripted game at the terminal — menu
numbers, table dice (a wrong count and a face out of range refused and asked again), the referee's own
move, undo, save, resume — and every bundled bout answered "1" throughout, saved and replayed identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.scenario import bundled_scenarios

runner = CliRunner()


def run(*args: str, input: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_a_scripted_game_with_table_dice_the_referee_undo_save_and_resume(tmp_path: Path) -> None:
    # rule: AR.CORE.1, AR.AUD.2, AR.GAP.2, AR.HP.1
    mid, end = tmp_path / "mid.json", tmp_path / "end.json"
    answers = [
        "1",  # the referee begins: a match, so two popularity checks, 3d6 each
        "3 3 3 3 3 3 3",  # seven faces for six dice: refused, asked again
        "9",  # a face a d6 does not have: refused, asked again
        "3 3 3 3 3 3",  # both checks succeed: an audience point each
        "gm",  # the referee's own move: Ken's HP set to 4 (the value typed, not a menu of every HP)
        "1",
        "2",
        "4",
        "1",  # Ryu: attack > Ken > torso > normal
        "1",
        "1",
        "1",
        "2 2 2",  # the attack check: 6 against 14
        "6 6 5",  # Ken's defence: 17, a critical failure
        "4",  # the broadsword: 1d+3 = 7 basic, 10 cutting: Ken at -6
        "undo",  # back to Ryu's decision
        "1",  # attack > Ken > torso > all-out this time
        "1",
        "1",
        "2",
        "2 2 2",  # a critical success against 18: no defence
        "1",  # 1d+3 = 4 basic, 6 cutting: Ken at -2
        f"save {mid}",
    ]
    code, out, err = run(
        "play", "arena/duel", "--dice", "table", "--seed", "4", input="\n".join(answers) + "\n"
    )
    assert code == 0, err
    assert out.count("kassen: too many faces: 7 typed, but only 6 dice are left to roll in this action") == 1
    assert out.count("kassen: die 1 of this action is a d6: 9 is not one of its faces") == 1
    # who rolls, for what, which dice, how many left: begin thrice, two attacks
    assert out.count("Ryu: roll 3d6 — Ryu's popularity check: 3d6 = … against 13: … (3 dice left)") == 3
    assert out.count("Ryu: roll 3d6 — Ryu's attack check: 3d6 = … against 1") == 2  # 14, 18 all-out
    assert "Ken: roll 3d6 — Ken's defence check: 3d6" in out
    assert "gm: choose the hp  (after set a fighter's HP > Ken)\n  type the value: a whole number from" in out
    assert "The referee sets Ken's HP: 13 → 4  [AR.GAP.2]" in out
    assert "Ken: HP 4 → -6  [AR.INJ.1]" in out and out.count("undone: action 3") == 1
    assert "Ken: HP 4 → -2  [AR.INJ.1]" in out
    assert "subturn 1, slots (DX then HT): Ryu <- acts now; Ken to act" in out
    assert "Ryu attacks Ken: choose the hit location (odds of a normal attack)" in out
    assert f"saved to {mid}" in out
    data = json.loads(mid.read_text("utf-8"))
    log = data["log"]
    assert [e["action"]["kind"] for e in log] == ["begin", "gm_set_hp", "attack"]
    assert [e.get("dice") for e in log] == [[3, 3, 3, 3, 3, 3], [], [2, 2, 2, 1]]
    assert log[2]["action"]["all_out"] is True
    # resume where it stopped: Ken's override, and on to the end by answering 1 (the RNG rolling)
    code, out, err = run("resume", str(mid), "--dice", "auto", "--save", str(end), input="1\n" * 300)
    assert code == 0, err
    assert "Ken may override the stun: choose" in out and "Result: winner:" in out
    code, out, _ = run("replay", str(end))
    assert code == 0 and out.startswith("identical:")
    assert json.loads(end.read_text("utf-8"))["log"][:3] == log  # the resumed game goes on from the save


@pytest.mark.parametrize("scenario", [s.name for s in bundled_scenarios("arena")])
def test_answering_1_to_everything_finishes_every_bundled_bout_and_replays(
    tmp_path: Path, scenario: str
) -> None:
    # rule: AR.OUT.1, AR.GAP.2 — the first option is always one the rules allow, and the bout ends
    save = tmp_path / f"{scenario}.json"
    code, out, err = run("play", f"arena/{scenario}", "--seed", "5", "--save", str(save), input="1\n" * 2000)
    assert code == 0, err
    assert "Result: winner:" in out or "Result: no winner" in out
    assert "kassen:" not in out  # no answer "1" was ever refused
    code, out, _ = run("replay", str(save))
    assert code == 0 and out.startswith("identical:")


def test_a_choice_shown_not_allowed_is_refused_at_the_terminal_and_asked_again() -> None:
    # rule: AR.GAP.2 — Kai starts 6 m from Oni: the attack is shown last, not allowed
    code, out, err = run("play", "arena/pit", "--seed", "5", input="1\n?\n6\n1\n1\n" + "quit\n")
    assert code == 0, err
    # folded behind one line after what may be chosen, shown with why on "?"
    assert "  5. give up (loses the match)\n  … and 1 not allowed now: ? shows it and why" in out
    assert "6. attack  (not now: oni is 6 m from kai, beyond its reach of 1 m: close first [AR.GAP.2])" in out
    assert "kassen: oni is 6 m from kai, beyond its reach of 1 m: close first (AR.GAP.2)" in out
    assert "Kai moves 5 m (closing, Move 6): 6 m → 1 m, 1 m from Oni" in out
