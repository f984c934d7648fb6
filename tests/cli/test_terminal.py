"""``kassen play`` and ``kassen resume`` at a real (pseudo-)terminal, for each ruleset: a ``--human SIDE``
game shows none of the other side's hidden values anywhere in its transcript; undo against a side played
by a policy goes back to the human's previous decision; table-dice prompts name who rolls, for what and
how many dice; Ctrl-C and a hang-up with ``--save`` leave a file that resumes in the same dice mode and
replays as identical."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from pty_terminal import ROOT, Terminal

# (scenario, seed, the side at the terminal, the actions its policies play before the sentinels go in)
GAMES = {
    "sengoku": ("sengoku/demo", 3, "party", 12),
    "l5r": ("l5r/kakita-vs-hida", 3, "Crane", 4),
    "arena": ("arena/duel", 4, "east", 6),
}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_no_hidden_value_of_the_other_side_in_a_human_sides_transcript(ruleset: str, tmp_path: Path) -> None:
    # rule: SG.RES.1, L5.CORE.6, AR.HP.1 — reservations, Wounds and HP are behind the GM's screen
    scenario, seed, side, before = GAMES[ruleset]
    # 1. every value hidden from the side replaced by a sentinel, then the game goes on at the terminal
    sentinels = tmp_path / "planted.json"
    t = Terminal(
        [
            str(ROOT / "tests" / "cli" / "planted_session.py"),
            scenario,
            str(seed),
            side,
            str(before),
            str(sentinels),
        ],
        tmp_path,
        script=True,
    )
    t.answer_all("1", 40)
    t.child.sendline("quit")
    assert t.end() == 0, t.transcript[-2000:]
    planted = json.loads(sentinels.read_text("utf-8"))
    assert planted, f"{ruleset}: nothing hidden from {side}: the test would prove nothing"
    text = t.transcript
    assert "choose" in text or "declare" in text  # the side decided at this terminal
    for name, value in planted.items():
        assert str(value)[:7] not in text, f"{side} reads {name} at the terminal"

    # 2. a whole game: no line the GM reads differently from the side reaches the side's terminal
    save = tmp_path / "game.json"
    t = Terminal(["play", scenario, "--seed", str(seed), "--human", side, "--save", str(save)], tmp_path)
    t.answer_all("1", 3000)
    assert t.end() == 0, t.transcript[-2000:]
    text = t.transcript
    assert "Result:" in text

    import kassen
    from kassen.core.report import narrate
    from kassen.core.view import Viewer

    fight = kassen.Fight.from_json(json.loads(save.read_text("utf-8")))
    secret = set()
    for entry in fight.entries:
        for event in entry.events:
            told = {ln.strip() for ln in narrate(fight, [event], Viewer(side))}
            secret |= {ln.strip() for ln in narrate(fight, [event]) if ln.strip() and ln.strip() not in told}
    assert secret, f"{ruleset}: the GM reads nothing the side does not: the test would prove nothing"
    leaked = sorted(line for line in secret if line in text)
    assert not leaked, f"{side} reads what only the GM may: {leaked[:5]}"


def test_undo_against_a_policy_side_returns_to_the_humans_previous_decision(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    t = Terminal(["play", "arena/duel", "--seed", "4", "--human", "east", "--save", str(save)], tmp_path)
    for answer in ("1", "1", "1", "1"):  # Ryu: attack > Ken > torso > normal; then Ken (the policy) acts
        t.answer(answer)
    assert t.prompt()
    before = t.transcript
    assert "Ryu (subturn 2): choose a maneuver" in before  # the policy has played Ken's slot since
    t.child.sendline("undo")
    assert t.prompt()
    said = t.transcript[len(before) :]
    # what was taken back, and Ryu's own decision of subturn 1 again (not a policy's undo loop)
    assert re.search(
        r"undone: action 2 \(Ryu's decision\) and the \d+ actions played by the policies after it \(Ken\)",
        said,
    )
    assert said.index("undone") < said.index("Ryu (subturn 1): choose a maneuver")
    t.child.sendline("quit")
    assert t.end() == 0
    log = json.loads(save.read_text("utf-8"))["log"]
    assert [e["action"]["kind"] for e in log] == ["begin"]  # the GM's begin stands; Ryu decides again


def test_table_dice_prompts_name_the_roller_the_purpose_and_the_count(tmp_path: Path) -> None:
    # rule: SG.CHK.1 — a check is 2d10 + modifier against a target
    t = Terminal(["play", "sengoku/count-example", "--seed", "4", "--dice", "table"], tmp_path)
    for answer in (
        "1",
        "4",
        "2",
        "3",
        "1",
        "1",
    ):  # begin; Kuro: Stealth Movement > own-front > Stroke of Fire > Oni > end
        t.answer(answer)
    assert t.prompt()
    prompt = _dice_prompts(t.transcript)[-1]
    assert re.search(
        r"^Kuro: roll 2d10 — Kuro: stealth-movement own-flank → own-front: 2d10 \[…\] \+ 7 = … vs 11", prompt
    ), prompt
    assert "(2 dice left): faces, or auto" in prompt
    t.child.sendline("9")  # one face: the roll's other die is still to come
    assert t.prompt()
    assert _dice_prompts(t.transcript)[-1].endswith("(1 die left, 1 in): faces, or auto")
    t.child.sendline("8")
    assert t.prompt()
    assert "2d10 [9, 8] + 7 = 24 vs 11, success" in t.transcript  # told as soon as its faces are in
    t.child.sendline("quit")
    assert t.end() == 0


def _dice_prompts(text: str) -> list[str]:
    return [line.lstrip("> ") for line in text.splitlines() if line.endswith("faces, or auto")]


@pytest.mark.parametrize("how", ["ctrl-c", "hang-up"])
def test_an_interrupted_game_is_saved_and_resumes_in_its_dice_mode(how: str, tmp_path: Path) -> None:
    # rule: L5.CORE.8 — initiative typed at the table, then a declaration, then the interruption
    save = tmp_path / "duel.json"
    t = Terminal(
        ["play", "l5r/kakita-vs-hida", "--seed", "3", "--dice", "table", "--save", str(save)], tmp_path
    )
    for answer in (
        "1",
        "7 3 9 2 5",
        "4 6 8 3",
        "4",
        "1",
    ):  # begin, the initiative rolls, Hida waits, Kakita attacks
        t.answer(answer)
    assert t.prompt()
    if how == "ctrl-c":
        t.child.sendintr()
    else:
        t.child.kill(1)  # SIGHUP: the terminal went away
    status = t.end()
    assert status == (130 if how == "ctrl-c" else 129), t.transcript[-1500:]
    assert f"saved to {save}" in t.transcript
    data = json.loads(save.read_text("utf-8"))
    assert data["meta"]["dice"] == "table"
    assert data["log"][0]["dice"] == [7, 3, 9, 2, 5, 4, 6, 8, 3]
    # resumed: the same dice mode; its first roll typed at the terminal again
    t = Terminal(["resume", str(save), "--save", str(save)], tmp_path)
    t.answer_all("1", 3)
    assert "(its saved seed; dice: table)" in t.transcript
    t.child.sendline("quit")
    assert t.end() == 0
    from typer.testing import CliRunner

    from kassen.cli.main import app

    replayed = CliRunner().invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0 and replayed.stdout.startswith("identical:"), replayed.stdout


def test_a_terminal_closed_without_save_leaves_the_announced_autosave(tmp_path: Path) -> None:
    # rule: AR.AUD.2 — the popularity checks typed at the table, then the terminal goes away
    t = Terminal(["play", "arena/duel", "--seed", "4", "--human", "east", "--dice", "table"], tmp_path)
    t.answer("4 2 6 5 5 6")  # the referee's begin: both popularity checks
    t.answer("1")  # Ryu: attack (a decision being built when the terminal closes)
    assert t.prompt()
    announced = re.search(r"Ctrl-C or a hang-up saves the game to (\S+\.json);", t.transcript)
    assert announced, t.transcript[:1000]
    autosave = Path(announced[1])
    assert autosave.parent == tmp_path and not autosave.exists()
    # the terminal itself closes, as when a connection drops: the kernel sends SIGHUP (pexpect's own
    # close would follow with SIGKILL if the save took more than a few tenths of a second)
    os.close(t.child.child_fd)
    deadline = time.monotonic() + 60
    while os.waitpid(t.child.pid, os.WNOHANG) == (0, 0):
        assert time.monotonic() < deadline, "kassen play did not end when its terminal closed"
        time.sleep(0.05)
    t.child.closed = True
    data = json.loads(autosave.read_text("utf-8"))
    assert data["meta"]["dice"] == "table" and data["log"][0]["dice"] == [4, 2, 6, 5, 5, 6]
    from typer.testing import CliRunner

    from kassen.cli.main import app

    replayed = CliRunner().invoke(app, ["replay", str(autosave)])
    assert replayed.exit_code == 0 and replayed.stdout.startswith("identical:"), replayed.stdout
    resumed = CliRunner().invoke(app, ["resume", str(autosave)], input="quit\n")
    assert resumed.exit_code == 0 and "dice: table" in resumed.stdout
