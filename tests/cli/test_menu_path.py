"""Terminal play says where a decision built in steps stands in the words of its menus: the prompt's
"(after ...)" names each choice made so far as it was listed, never by its id, and ``back`` (at a menu or at
the dice prompt) takes the last one off."""

from __future__ import annotations

from typer.testing import CliRunner

from kassen.cli.main import app


def prompts(answers: list[str]) -> list[str]:
    result = CliRunner().invoke(
        app,
        ["play", "sengoku/count-example", "--seed", "4", "--dice", "table"],
        input="\n".join(answers) + "\n",
    )
    assert result.exit_code == 0, result.stderr
    return [line for line in result.stdout.splitlines() if line.startswith("Kuro, count 12:")]


def test_the_path_of_a_breath_is_said_in_the_menus_words() -> None:
    # rule: SG.BRT.1 — a breath is built maneuver by maneuver: Stealth Movement, its zone, Stroke of Fire
    shown = prompts(["1", "4", "2", "3", "back", "back", "quit"])
    assert shown[1].endswith("(after Stealth Movement (movement; 3 Energy))")
    assert shown[2].endswith("(after Stealth Movement (movement; 3 Energy) > own-front (front))")
    assert shown[3].endswith(
        "(after Stealth Movement (movement; 3 Energy) > own-front (front)"
        " > Stroke of Fire (attack; 2 Energy))"
    )
    assert shown[4] == shown[2] and shown[5] == shown[1]  # back, back: one choice off each time
    assert not any("stealth-movement" in line or "stroke-of-fire" in line for line in shown)


def test_back_at_the_dice_prompt_says_the_path_left() -> None:
    # rule: SG.CHK.1 — the breath's stealth check waits for the table's dice; back drops it to its last choice
    shown = prompts(["1", "4", "2", "3", "1", "1", "back", "quit"])
    # the breath ended ("1": end the breath) waits for dice; back: the choices before that one, in words
    assert shown[-1].startswith("Kuro, count 12: choose the next maneuver, or end the breath")
    assert shown[-1].endswith(
        "(after Stealth Movement (movement; 3 Energy) > own-front (front) > Stroke of Fire (attack; 2 Energy)"
        " > Oni (The Oni; own-front) - [Ambush]: a Critical Hit with no check)"
    )


def test_undo_while_a_decision_is_built_drops_its_choices_and_says_so() -> None:
    # rule: SG.BRT.1 — the breath being built is taken back, not a decision already played
    result = CliRunner().invoke(
        app,
        ["play", "sengoku/count-example", "--seed", "4", "--dice", "table"],
        input="1\n4\n2\nundo\nquit\n",
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "the choices so far are dropped: the decision starts again" in out
    assert "nothing to undo" not in out
    after = out[out.index("the choices so far are dropped") :]
    assert "Kuro, count 12: choose a maneuver (or Hold, or Pass)" in after and "(after" not in after
