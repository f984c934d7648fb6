"""``kassen sengoku defense``: readable breakdown, exact JSON, one-line errors with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.sengoku import defense as defense_module

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["sengoku", "defense", *args])
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> dict[str, object]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_readable_breakdown() -> None:
    # rule: SG.DIR.4 — shuriken [Direct 2] vs heavy armor + Immovable Formation: 16 → 14.
    code, out, _ = run("--armor", "heavy", "--bonus", "stance=2:Immovable Formation", "--tag", "Direct 2")
    assert code == 0
    assert "base (Veteran)" in out
    assert "+4 heavy armor" in out
    assert "+2 stance (Immovable Formation)" in out
    assert "[Direct 2] removes stance +2" in out
    assert "SG.DIR.1" in out
    assert "Defense 14" in out


def test_json_shape_is_exact() -> None:
    # rule: SG.PRC.5 — heavy armor + Defenseless with [Pierce all] → 10 → 6.
    data = run_json("--armor", "heavy", "--defenseless", "--tag", "Pierce all")
    assert set(data) == {"defense", "steps", "released"}
    assert data["defense"] == 6 and data["released"] == []
    steps = data["steps"]
    assert isinstance(steps, list)
    for step in steps:
        assert set(step) == {"value", "reason", "rule"}
        assert isinstance(step["value"], int) and isinstance(step["reason"], str)
    assert steps[-1] == {"value": 6, "reason": "Defenseless −4", "rule": "SG.DFL.2"}


@pytest.mark.parametrize(
    ("args", "defense"),
    [
        ((), 10),
        (("--grade", "MOB"), 8),
        (("--grade", "minion", "--armor", "light", "--shield"), 12),
        (("--armor", "heavy-battle", "--tag", "[Pierce all]"), 10),
        (("--armor", "heavy", "--tag", "pierce 2"), 12),
        (("--armor", "light", "--bonus", "barrier=2", "--tag", "Direct all"), 12),
        (("--bonus", "barrier=2", "--tag", "Direct all"), 10),
        (("--natural-armor", "4", "--tag", "Pierce all"), 14),
        (("--natural-armor", "4", "--tag", "Pierce all", "--pierce-natural"), 10),
        (("--armor", "heavy", "--armor-bonus", "1", "--armor-damage", "2"), 13),
        (("--grade", "mob", "--stat-defense", "6"), 6),
        (("--debuff", "2", "--debuff", "-1:parasitism"), 7),
        (("--grade", "mob", "--defenseless", "--debuff", "5"), 2),
        (("--tag", "Incorporeal", "--incorporeal-defense", "2", "--armor", "heavy"), 11),
        (("--tag", "Incorporeal", "--exorcism", "Novice"), 11),
        (("--tag", "Pierce 3", "--tag", "Break", "--armor", "heavy"), 11),
    ],
)
def test_defense_values(args: tuple[str, ...], defense: int) -> None:
    # rule: SG.DEF.5 rule: SG.PRC.4 rule: SG.INC.3 rule: SG.DBF.2 rule: SG.DEF.6
    assert run_json(*args)["defense"] == defense


def test_immune_exorcist() -> None:
    # rule: SG.INC.2 — Licensed and above: full exemption from [Incorporeal] attacks.
    code, out, _ = run("--tag", "Incorporeal", "--exorcism", "licensed")
    assert code == 0
    assert "Immune" in out
    data = run_json("--tag", "Incorporeal", "--exorcism", "saint")
    assert data["steps"][0]["rule"] == "SG.INC.2"  # type: ignore[index]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--grade", "god"), "--grade: unknown value 'god'"),
        (("--armor", "plate"), "--armor: unknown value 'plate'"),
        (("--tag", "Smash 2"), "unknown tag 'Smash'"),
        (("--tag", "Pierce -1"), "cannot be negative"),
        (("--tag", "Pierce"), "needs exactly one N"),
        (("--natural-armor", "-1"), "--natural-armor: must be between 0 and 1000000, got -1"),
        (("--armor-bonus", "x"), "--armor-bonus: must be a whole number, got 'x'"),
        (("--incorporeal-defense", "-2"), "--incorporeal-defense"),
        (("--bonus", "luck=2"), "unknown bonus kind 'luck'"),
        (("--bonus", "stance"), "expected KIND=N"),
        (("--bonus", "stance=-2"), "must be between 0 and 1000000, got -2"),
        (("--debuff", "lots"), "N for Defense −N: must be a whole number"),
        (("--exorcism", "archbishop"), "--exorcism: unknown value"),
        (("--tag", "Defense -2"), "SG.DBF.4"),
        (("--tag", "Pierce 1", "--tag", "Pierce 2"), "given twice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], needle: str) -> None:
    # rule: SG.PRC.1 — bad tags and profiles are refused with a clear message, no traceback.
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.startswith("kassen: error: ")
    assert err.count("\n") == 1
    assert needle in err
    assert "Traceback" not in err


def test_every_problem_at_once() -> None:
    # rule: SG.DEF.4 — a bonus kind outside the non-armor category is refused, with the other problems.
    code, _, err = run("--grade", "god", "--bonus", "luck=2", "--natural-armor", "-1")
    assert code == 2
    lines = err.splitlines()
    assert lines[0] == "kassen: error: 3 problems:" and len(lines) == 4  # one a line, not one long line
    assert all(line.startswith("  command line: --") for line in lines[1:])


def test_rules_override_file(tmp_path: Path) -> None:
    # rule: SG.RD.9 — the table setting for natural armor is switchable in the user's data file.
    bundled = Path(defense_module.__file__).parent / "data" / "defense.yaml"
    path = tmp_path / "defense.yaml"
    path.write_text(
        bundled.read_text(encoding="utf-8").replace("pierce_default: false", "pierce_default: true"),
        encoding="utf-8",
    )
    assert run_json("--natural-armor", "4", "--tag", "Pierce all", "--rules", str(path))["defense"] == 10
    code, _, err = run("--rules", str(tmp_path / "missing.yaml"))
    assert code == 2
    assert "cannot read" in err


@pytest.mark.parametrize("unit", [(), ("--unit", "samurai")])
def test_defenseless_releases_a_maintained_stance_first(unit: tuple[str, ...]) -> None:
    # rule: SG.DFL.2 — "Immediately release any maintained [stance]" before Defense −4: heavy armor +
    # Immovable Formation + Defenseless is 14 − 4 = 10, not 16 − 4 = 12 (the battle engine's number); the
    # release is shown, through the resolution's own make_defenseless
    armor = () if unit else ("--armor", "heavy")
    data = run_json(*unit, *armor, "--stance", "immovable-formation", "--defenseless")
    assert data["defense"] == 10
    assert [s["rule"] for s in data["released"]] == ["SG.DFL.2"]
    assert "Immovable Formation" in data["released"][0]["reason"]
    assert not any("stance" in s["reason"] for s in data["steps"])
    code, out, _ = run(*unit, *armor, "--stance", "immovable-formation", "--defenseless")
    assert code == 0 and "released, Defenseless" in out and "Defense 10" in out
    held = run_json(*unit, *armor, "--stance", "immovable-formation")
    assert held["defense"] == 16 and held["released"] == []
