"""``kassen sengoku odds`` and ``kassen sengoku attack``: output, JSON, one-line errors with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
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
        (("attack", "--faces", "0,5"), "two d10 faces (1 to 10)"),  # one line, the die's own range
        (("attack", "--faces", "a,b"), "two d10 faces (1 to 10)"),
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


def test_attack_on_a_defenseless_target_releases_its_stance_first() -> None:
    # rule: SG.DFL.2 — the calculator agrees with the battle: a Defenseless target in Immovable Formation
    # (heavy armor) is rolled against 10, its stance released first (SG.PRC.5's order: base, armor, then
    # the Defenseless −4)
    for target in (("--target", "samurai"), ("--target-armor", "heavy")):
        r = run(
            "attack",
            *target,
            "--target-stance",
            "immovable-formation",
            "--target-defenseless",
            "--modifier",
            "0",
            "--faces",
            "4,5",
            "--json",
        )
        assert r.exit_code == 0, r.stderr
        data = json.loads(r.stdout)
        assert data["defense"] == 10 and data["outcome"] == "miss"
        assert [s["rule"] for s in data["released"]] == ["SG.DFL.2"]


def test_a_break_hit_leaves_its_pierce_on_the_armor_until_repaired() -> None:
    # rule: SG.BRK.2 — Crushing Blow [Pierce 3] + [Break], an ordinary kanabo against ordinary heavy
    # armor: the 3 points its Pierce removed are gone until repaired, and the calculator says so
    r = run(
        "attack", "--attacker", "oni", "--weapon", "crushing-blow", "--target", "samurai", "--faces", "5,6"
    )
    assert r.exit_code == 0, r.stderr
    assert "armor loses 3 point(s) until repaired" in r.stdout and "SG.BRK.2" in r.stdout
    args = ("attack", "--attacker", "oni", "--weapon", "crushing-blow", "--target", "samurai")
    data = json.loads(run(*args, "--faces", "5,6", "--json").stdout)
    assert data["defense"] == 11 and data["outcome"] == "hit" and data["armor_damage"] == 3
    missed = json.loads(run(*args, "--faces", "1,2", "--json").stdout)
    assert missed["outcome"] == "miss" and missed["armor_damage"] == 0  # a miss breaks nothing


def test_a_break_against_a_higher_grade_armor_is_void(tmp_path: Path) -> None:
    # rule: SG.BRK.3 — an ordinary weapon's [Break] cannot harm masterwork armor: the Pierce applied, the
    # armor holds, and the calculator says why
    general = {"id": "general", "name": "General", "grade": "elite", "armor": "masterwork-heavy-armor"}
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump({"creatures": [general]}), encoding="utf-8")
    args = ("--weapon", "armor-splitting-thrust", "--target", "general", "--modifier", "5", "--faces", "5,6")
    r = run("attack", *args, "--content", str(tmp_path), "--json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["outcome"] == "hit" and data["armor_damage"] == 0
    assert "armor_holds" in [e["kind"] for e in data["events"]]
    text = run("attack", *args, "--content", str(tmp_path)).stdout
    assert "immune to a ordinary [Break]" in text and "SG.BRK.3" in text


def test_decisive_blow_incapacitates_the_target() -> None:
    # rule: SG.CRT.4 — `--faces 10,10 --d100 95`: a Heavenly Mandate, the house table's Decisive Blow (91-
    # 100): the target is Incapacitated at once, the row applied, not only named
    r = run("attack", "--faces", "10,10", "--d100", "95", "--json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["table"]["name"] == "Decisive Blow"
    assert data["wounds_after"] == 0 and data["incapacitated"]
    text = run("attack", "--faces", "10,10", "--d100", "95").stdout
    assert "Incapacitated at once" in text and "Wounds: 4 → 0" in text


def test_decisive_blow_on_a_lord_takes_one_more_wound() -> None:
    # rule: SG.CRT.4 — "(a Lord instead loses 1 more Wound)": Critical Hit 2 + 1 more
    r = run("attack", "--target", "lord", "--modifier", "5", "--faces", "10,10", "--d100", "95", "--json")
    data = json.loads(r.stdout)
    assert data["wounds_before"] - data["wounds_after"] == 3 and not data["incapacitated"]


@pytest.mark.parametrize(
    ("d100", "key", "value"),
    [
        (20, "target_defenseless", True),  # Shattered Guard
        (50, "armor_damage", 2),  # Armor Split: [Pierce 2] + [Break] on heavy armor
    ],
)
def test_other_decisive_rows_take_effect(d100: int, key: str, value: object) -> None:
    # rule: SG.CRT.4 — each row does what it says to the two profiles the calculator holds
    r = run(
        "attack",
        "--target-armor",
        "heavy",
        "--modifier",
        "0",
        "--faces",
        "10,10",
        "--d100",
        str(d100),
        "--json",
    )
    data = json.loads(r.stdout)
    seen = {"target_defenseless": "becomes Defenseless", "armor_damage": "armor loses 2 point(s)"}[key]
    texts = [e["data"]["text"] for e in data["events"] if e["kind"] == "table_effect"]
    assert any(seen in t for t in texts)
    if key == "armor_damage":
        assert data["armor_damage"] == value


@pytest.mark.parametrize(
    ("d100", "pending", "wounds"),
    [
        (10, ["energy"], None),  # Overextended: Energy is the battle's
        (30, ["drop-weapon"], None),  # Weapon Flung Away
        (50, [], 4),  # Self-Injury: the roller loses 1 Wound (PC 5 → 4)
        (70, ["wounds"], None),  # Friendly Blow: the nearest ally, in a battle
        (90, ["break-weapon"], None),  # Weapon Destroyed
    ],
)
def test_critical_mistake_rows_take_effect_or_wait_for_a_battle(
    d100: int, pending: list[str], wounds: int | None
) -> None:
    # rule: SG.FUM.3 — Karmic Retribution (double 1 on a failure): what the two profiles hold applies
    # here; Energy, weapons and other units are said as what a battle applies
    r = run("attack", "--modifier", "0", "--faces", "1,1", "--d100", str(d100), "--json")
    data = json.loads(r.stdout)
    assert data["outcome"] == "fumble" and data["table"]["table"] == "critical_mistake"
    assert [p["kind"] for p in data["pending"]] == pending
    text = run("attack", "--modifier", "0", "--faces", "1,1", "--d100", str(d100)).stdout
    if pending:
        assert "in a battle," in text
    if wounds is not None:
        selfhurt = [
            e for e in data["events"] if e["kind"] == "wounds_lost" and e["data"]["unit"] == "attacker"
        ]
        assert selfhurt and selfhurt[0]["data"]["after"] == wounds


def test_a_hit_that_wounds_nobody_says_so() -> None:
    # rule: SG.DBF.1 — a Chain Bind hit binds (Defense −2) and takes no Wound: "no Wounds lost", never
    # "Wounds 4 → 4"
    r = run("attack", "--weapon", "chain-bind", "--modifier", "2", "--faces", "5,6")
    assert r.exit_code == 0, r.stderr
    assert "no Wounds lost" in r.stdout and "4 → 4" not in r.stdout
    assert "kusarigama-bind" in r.stdout
