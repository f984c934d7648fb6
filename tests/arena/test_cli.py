"""``kassen arena damage|check|bout|replay``: JSON shapes, exact odds, one-line errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["arena", *args])
    return result.exit_code, result.stdout, result.stderr


def test_damage_json_has_every_stage_and_effects_with_rules() -> None:
    # rule: AR.DMG.3, AR.DMG.4, AR.DMG.5, AR.DMG.6, AR.INJ.7
    code, out, _ = run(
        "damage",
        "--basic",
        "12",
        "--type",
        "cut",
        "--location",
        "left_arm",
        "--armor-dr",
        "2",
        "--ht",
        "10",
        "--hp",
        "10",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert (data["basic"], data["primary_penetration"], data["penetrating"], data["final"]) == (12, 10, 10, 6)
    assert data["capped"] is True and data["crippled"] is True
    effects = [(e["effect"], e["rule"]) for e in data["effects"]]
    assert ("shock", "AR.INJ.2") in effects and ("stun", "AR.INJ.7") in effects
    assert ("knockdown_check", "AR.INJ.6") in effects
    assert all({"value", "reason", "rule"} <= set(s) for s in data["steps"])


def test_damage_head_blow_and_hp_effects() -> None:
    # rule: AR.INJ.9, AR.HP.3
    _code, out, _ = run(
        "damage", "--basic", "8", "--type", "cr", "--location", "brain", "--ht", "10", "--hp", "5", "--json"
    )
    data = json.loads(out)
    effects = [e["effect"] for e in data["effects"]]
    assert data["final"] == 20 and data["capped"] is True
    assert "unconscious" in effects and effects.count("death_check") == 2  # at -10 and -15
    assert data["hp_after"] == -15


def test_damage_defaults_to_the_torso_and_reports_knockback() -> None:
    # rule: AR.DMG.1, AR.KNB.1
    _code, out, _ = run("damage", "--basic", "20", "--type", "cr", "--ht", "12", "--st", "12", "--json")
    data = json.loads(out)
    assert data["location"] == "torso" and data["knockback_m"] == 2
    assert {"effect": "knockback", "rule": "AR.KNB.1", "value": 2} in data["effects"]


def test_damage_falling_and_self_sources() -> None:
    # rule: AR.FAL.1, AR.SLF.1
    data = json.loads(
        run(
            "damage",
            "--basic",
            "6",
            "--type",
            "cr",
            "--armor-dr",
            "4",
            "--ht",
            "10",
            "--source",
            "falling",
            "--json",
        )[1]
    )
    assert data["primary_penetration"] == 4
    assert ("fall_stun_check", "AR.FAL.2") in [(e["effect"], e["rule"]) for e in data["effects"]]
    data = json.loads(
        run(
            "damage",
            "--basic",
            "6",
            "--type",
            "cr",
            "--armor-dr",
            "4",
            "--ht",
            "10",
            "--source",
            "self",
            "--json",
        )[1]
    )
    assert data["penetrating"] == 6


def test_damage_text_output() -> None:
    code, out, _ = run("damage", "--basic", "7", "--type", "imp", "--location", "vitals", "--ht", "10")
    assert code == 0 and "final damage 20 (capped)" in out and "[AR.DMG.6]" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--type", "zap", "--ht", "10"], "unknown damage type 'zap'"),
        (["--type", "cr", "--ht", "10", "--location", "tail"], "unknown hit location 'tail'"),
        (["--type", "cr", "--ht", "10", "--armor-dr", "-1"], "armor DR cannot be negative"),
        (["--type", "cr", "--ht", "10", "--bone-dr", "-2"], "bone DR cannot be negative"),
        (["--type", "cr", "--ht", "10", "--soft-dr", "-3"], "soft DR cannot be negative"),
        (["--type", "cr", "--ht", "0"], "HT must be at least 1"),
        (["--type", "cr", "--ht", "10", "--source", "magic"], "unknown damage source"),
        # rule: AR.HP.4 — at -5 x HT the target is dead already; as `arena odds` refuses it
        (["--type", "cr", "--ht", "10", "--hp", "-1000"], "--hp must be above -5 x HT (-50)"),
        (["--type", "cr", "--ht", "10", "--hp", "-50"], "--hp must be above -5 x HT (-50)"),
        (["--type", "cr", "--ht", "10", "--hp", "100000"], "at most 1000"),
    ],
)
def test_bad_damage_input_exits_2_with_one_clear_line(args: list[str], message: str) -> None:
    code, out, err = run("damage", "--basic", "5", *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("kassen: error: ") and message in err


def test_check_odds_are_exact_fractions_over_216() -> None:
    # rule: AR.CORE.1
    code, out, _ = run("check", "10", "--json")
    data = json.loads(out)
    assert data["denominator"] == 216
    assert data["success"] == {"over_216": 108, "fraction": "1/2", "probability": 0.5}
    assert data["critical_success"]["over_216"] == 4 and data["critical_failure"]["over_216"] == 4
    assert Fraction(data["critical_success"]["fraction"]) == Fraction(4, 216)
    code, out, _ = run("check", "14")
    assert code == 0 and "success: 196/216" in out


def test_check_bad_target_exits_2() -> None:
    code, _, err = run("check", "ten")
    assert code == 2
    code, _, err = run("check", "--", "99999")
    assert code == 2 and err.count("\n") == 1


def test_bout_json_replays_identically(tmp_path: Path) -> None:
    # rule: AR.CORE.3
    code, out, _ = run("bout", "duel", "--seed", "9", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "arena" and data["seed"] == 9 and data["result"]["winner"] in ("east", "west")
    assert data["meta"]["scenario"] == "Arena duel" and data["format"] == 3
    assert "hash" in data["meta"]["content"]
    log = tmp_path / "log.json"
    log.write_text(out, encoding="utf-8")
    code, out2, _ = run("replay", str(log))
    assert code == 0 and "identical" in out2
    data["log"][1]["events"][0]["data"]["faces"] = [9, 9, 9]
    log.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run("replay", str(log))
    assert code == 2 and err.count("\n") == 1 and "log[1].events[0].data.faces" in err  # the first difference


def test_bout_text_and_bad_scenario() -> None:
    code, out, _ = run("bout", "knockback", "--seed", "3")
    assert code == 0 and "Result: winner: Bo" in out and "Subturn 1" in out  # in words, the winner by name
    assert "fighter=" not in out and "tetsu" not in out  # no key=val dumps, no ids
    code, _, err = run("bout", "no-such-bout")
    assert code == 2 and err.count("\n") == 1 and "bundled: crusher, duel" in err


def test_bout_account_is_the_generic_one() -> None:
    # `kassen arena bout` and `kassen fight` tell the same fight through the same renderers
    _, ours, _ = run("bout", "melee", "--seed", "2")
    generic = runner.invoke(app, ["fight", "arena/melee", "--seed", "2"]).stdout
    # (the generic command lets the terminal wrap long lines: compare the words)
    assert ours.split("\n", 1)[1].split() == generic.split("\n", 1)[1].split()
    _, verbose, _ = run("bout", "melee", "--seed", "2", "--verbose")
    assert len(verbose.splitlines()) > len(ours.splitlines()) and "3d6 =" in verbose


def test_bout_takes_content_layers(tmp_path: Path) -> None:
    # rule: AR.CORE.2 (the tie reading is data: a --content layer switches it)
    layer = tmp_path / "checks.yaml"  # named after its section: the file is the section's body
    layer.write_text("contest: {tie_winner: first}\n", encoding="utf-8")
    code, out, _ = run("bout", "duel", "--seed", "9", "--json", "--content", str(layer))
    assert code == 0
    data = json.loads(out)
    assert (
        data["meta"]["content"]["sections"]["checks"]
        != json.loads(run("bout", "duel", "--json")[1])["meta"]["content"]["sections"]["checks"]
    )
    log = tmp_path / "log.json"
    log.write_text(out, encoding="utf-8")
    code, _, err = run("replay", str(log))
    assert code == 2 and "content" in err  # replayed without the layer: refused, naming what differs
    code, out2, _ = run("replay", str(log), "--content", str(layer))
    assert code == 0 and "identical" in out2


def test_bout_file_without_a_header_loads_through_the_arena_command(tmp_path: Path) -> None:
    text = (Path(__file__).parents[2] / "src/kassen/arena/data/bouts/duel.yaml").read_text(encoding="utf-8")
    bare = tmp_path / "bare.yaml"
    bare.write_text(text.replace("ruleset: arena\n", ""), encoding="utf-8")
    code, out, _ = run("bout", str(bare), "--seed", "9")
    assert code == 0 and "Result:" in out
    assert runner.invoke(app, ["fight", str(bare)]).exit_code == 2  # the generic command needs the header


def test_the_installed_command_exits_2_with_one_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "kassen", "arena", "damage", "--basic", "3", "--type", "pi+++", "--ht", "10"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "unknown damage type" in proc.stderr
