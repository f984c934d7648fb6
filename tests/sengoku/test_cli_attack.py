"""``kassen sengoku odds`` and ``kassen sengoku attack``: output, JSON, one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["sengoku", *args])


def test_odds_text_shows_fractions_and_percentages() -> None:
    # rule: SG.CHK.1
    r = run("odds", "--modifier", "5", "--defense", "12")
    assert r.exit_code == 0
    assert "17/20" in r.stdout and "85.00%" in r.stdout
    assert "7/100" in r.stdout and "23/25" in r.stdout


def test_odds_json_has_exactly_the_six_keys() -> None:
    # rule: SG.CRT.1
    r = run("odds", "--modifier", "3", "--defense", "12", "--json")
    data = json.loads(r.stdout)
    assert set(data) == {
        "hit",
        "critical",
        "fumble",
        "heavenly_mandate",
        "karmic_retribution",
        "expected_wounds",
    }
    assert data["hit"] == pytest.approx(0.72) and data["critical"] == pytest.approx(0.06)


def test_attack_json_from_a_seed() -> None:
    # rule: SG.CRT.4 — seed 196 is a double 10: Critical Hit and the decisive moment table
    r = run(
        "attack",
        "--weapon",
        "thrust",
        "--attribute",
        "3",
        "--skill",
        "2",
        "--target-armor",
        "heavy",
        "--seed",
        "196",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["defense"] == 12 and data["faces"] == [10, 10] and data["outcome"] == "critical"
    assert (data["wounds_before"], data["wounds_after"]) == (4, 2)
    assert data["table"]["table"] == "decisive_moment" and data["table"]["roll"] == 18
    assert data["seed"] == 196 and data["tags"] == "[Pierce 2]"


def test_attack_text_shows_roll_defense_outcome_and_wounds() -> None:
    # rule: SG.WND.4 — a Mob falls to one hit: Incapacitated
    r = run("attack", "--modifier", "2", "--target-grade", "mob", "--faces", "4,5")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "[4, 5]" in out and "= 11" in out and "Defense 8" in out
    assert "base (Mob)" in out and "SG.DEF.1" in out
    assert "hit" in out and "1 → 0" in out and "Incapacitated" in out


def test_attack_with_table_dice_fate_and_fumble_extras() -> None:
    # rule: SG.FAT.1 — --fate-die moves die 2 (4-5 → 4-4); against Defense 14 that fumbles
    r = run(
        "attack",
        "--modifier",
        "3",
        "--target-armor",
        "heavy",
        "--faces",
        "4,5",
        "--fate-die",
        "2",
        "--fate-points",
        "1",
        "--fumble-extra",
        "drop-weapon",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["faces_rolled"] == [4, 5] and data["faces"] == [4, 4]
    assert data["outcome"] == "fumble" and data["attacker_defenseless"]
    assert "fumble_extra" in [e["kind"] for e in data["events"]]


def test_last_bastion_from_the_command_line() -> None:
    # rule: SG.FAT.2
    r = run(
        "attack",
        "--faces",
        "5,6",
        "--target-wounds",
        "1",
        "--target-fate-points",
        "1",
        "--last-bastion",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["outcome"] == "miss" and data["wounds_after"] == 1


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("odds", "--modifier", "x", "--defense", "12"), "--modifier"),
        (("odds", "--defense", "12"), "--modifier: is required"),
        (("attack", "--weapon", "katana"), "unknown weapon or technique 'katana'"),
        (("attack", "--target-grade", "boss"), "--target-grade"),
        (("attack", "--fate-die", "3"), "--fate-die"),
        (("attack", "--faces", "4,12"), "--faces"),
        (("attack", "--faces", "10,10"), "--d100"),
        (("attack", "--faces", "4,5", "--fate-die", "1"), "SG.FAT.1"),
        (("attack", "--faces", "5,6", "--last-bastion"), "SG.FAT.2"),
        (("attack", "--tag", "Pierce x"), "--tag"),
        (("attack", "--fumble-extra", "sneeze"), "--fumble-extra"),
        (("attack", "--seed", "1", "--faces", "3,4"), "not both"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args: tuple[str, ...], needle: str) -> None:
    r = run(*args)
    assert r.exit_code == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: error:") and needle in lines[0]
