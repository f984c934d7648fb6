"""``kassen content list|show|validate|schema`` and the catalog options of ``kassen sengoku``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.sengoku.catalog import CatalogFile, load_catalog

runner = CliRunner()
LEDGER = Path(__file__).resolve().parents[3] / "shared" / "rules" / "sengoku.md"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def gap_ids() -> list[str]:
    """Ledger IDs that are gaps ("GAP", "House default needed") or readings (SG.RD.*)."""
    ids = []
    for line in LEDGER.read_text(encoding="utf-8").splitlines():
        m = re.match(r"- \*\*(SG\.[A-Z0-9]+\.\d+)\*\*", line)
        if m and ("GAP" in line or "House default needed" in line or m.group(1).startswith("SG.RD.")):
            ids.append(m.group(1))
    return ids


# -------------------------------------------------------------------------------------------- list


def test_list_everything_and_by_kind() -> None:
    code, out, _ = run("content", "list", "--json")
    assert code == 0
    rows = json.loads(out)
    kinds = {r["kind"] for r in rows}
    assert kinds == {
        "weapon",
        "armor",
        "shield",
        "maneuver",
        "creature",
        "trait",
        "debuff",
        "house-default",
        "table",
    }
    code, out, _ = run("content", "list", "stance", "--json")
    assert {r["id"] for r in json.loads(out)} == {
        "immovable-formation",
        "defensive-stance",
        "squad-formation",
    }
    code, out, _ = run("content", "list", "weapons")
    assert code == 0 and "uchigatana" in out and "thrust" in out and "oni" not in out
    code, out, _ = run("content", "list", "tables", "--json")
    assert [r["id"] for r in json.loads(out)] == ["decisive-moment", "critical-mistake", "yoma-encounter"]


def test_list_an_unknown_kind_is_one_line_and_exit_2() -> None:
    code, out, err = run("content", "list", "spells")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [err.strip()] and "unknown kind 'spells'" in err


def test_list_with_user_content(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text("debuffs:\n  - {id: fear, name: Fear, value: 1}\n", encoding="utf-8")
    code, out, _ = run("content", "list", "debuff", "--content", str(tmp_path), "--json")
    assert code == 0 and "fear" in {r["id"] for r in json.loads(out)}


# -------------------------------------------------------------------------------------------- show


def test_show_an_entry_with_its_house_default() -> None:
    code, out, _ = run("content", "show", "heavy-blow")
    assert code == 0
    assert "heavy-blow" in out and "cost: 3" in out and "House default SG.MAN.1" in out
    assert "Rationale:" in out and "Oni's Heavy Blow costs 3" in " ".join(out.split())
    code, out, _ = run("content", "show", "nodachi", "--json")
    data = json.loads(out)
    assert data["kind"] == "weapon" and data["entry"]["critical"] == {"wounds": 3}
    assert data["source"].startswith("kassen/sengoku/data/catalog/weapons.yaml:")


@pytest.mark.skipif(not LEDGER.exists(), reason="the rules ledger is not next to the project")
def test_every_gap_of_the_ledger_is_shown_with_its_rationale() -> None:
    ids = gap_ids()
    assert len(ids) >= 30
    for rule in ids:
        code, out, err = run("content", "show", rule, "--json")
        assert code == 0, (rule, err)
        views = json.loads(out)["house_defaults"]
        assert views and any(len(v["rationale"]) > 150 for v in views), rule


def test_show_a_rule_in_text() -> None:
    # The tie order: its value and why.
    code, out, _ = run("content", "show", "SG.CNT.4")
    assert code == 0 and "House default SG.CNT.4" in out and "setup-order" in out and "Rationale:" in out


def test_show_a_table() -> None:
    code, out, _ = run("content", "show", "yoma-encounter", "--json")
    data = json.loads(out)
    assert code == 0 and data["rule"] == "SG.LUL.3" and len(data["entry"]["rows"]) == 6
    code, out, _ = run("content", "show", "decisive-moment")
    assert code == 0 and "Rhythm of Victory" in out


def test_show_an_unknown_id() -> None:
    code, out, err = run("content", "show", "thurst")
    assert code == 2 and out == "" and "did you mean thrust" in err
    code, _, err = run("content", "show", "SG.XYZ.1")
    assert code == 2 and "no house default for 'SG.XYZ.1'" in err


# ---------------------------------------------------------------------------------------- validate


def test_validate_a_clean_directory(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("debuffs:\n  - {id: fear, name: Fear, value: 1}\n", encoding="utf-8")
    code, out, _ = run("content", "validate", str(tmp_path))
    assert code == 0 and out.startswith("ok:") and "6 debuff" in " ".join(out.split())
    code, out, _ = run("content", "validate", str(tmp_path / "a.yaml"), "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_validate_lists_every_error_one_per_line(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        "maneuvers:\n  - id: jab\n    name: Jab\n    kind: attack\n    cost: two\n    wounds: 1\n",
        encoding="utf-8",
    )
    (tmp_path / "b.yaml").write_text(
        "creatures:\n  - {id: bandit, name: Bandit, grade: boss, weapons: [nunchaku]}\n", encoding="utf-8"
    )
    (tmp_path / "c.yaml").write_text("debuffs: [\n", encoding="utf-8")
    code, out, err = run("content", "validate", str(tmp_path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 5
    assert lines[0] == f"{tmp_path / 'a.yaml'}:5: maneuvers.jab.cost: " + (
        "Input should be a valid integer, unable to parse string as an integer, got 'two'"
    )
    assert lines[1].startswith(f"{tmp_path / 'b.yaml'}:2: creatures.bandit.grade: ")
    assert lines[2] == f"{tmp_path / 'b.yaml'}:2: creatures.bandit.weapons.0: unknown weapon 'nunchaku' " + (
        "(`kassen content list weapon` lists them)"
    )
    assert lines[3].startswith(f"{tmp_path / 'c.yaml'}:") and "invalid YAML" in lines[3]
    assert lines[4] == f"kassen: error: 4 problem(s) in {tmp_path}; nothing loaded"
    code, out, _ = run("content", "validate", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 2 and data["ok"] is False and len(data["issues"]) == 4
    assert data["issues"][0] == {
        "file": str(tmp_path / "a.yaml"),
        "line": 5,
        "field": "maneuvers.jab.cost",
        "message": "Input should be a valid integer, unable to parse string as an integer, got 'two'",
    }


def test_validate_a_missing_path() -> None:
    code, _, err = run("content", "validate", "/nonexistent/dir")
    assert code == 2 and "/nonexistent/dir: (file): no such file or directory" in err


# ------------------------------------------------------------------------------------------ schema


def test_schema_describes_every_section() -> None:
    code, out, _ = run("content", "schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["title"] == "kassen Sengoku catalog file"
    assert set(schema["properties"]) == set(CatalogFile.model_fields)
    assert schema["additionalProperties"] is False
    maneuver = schema["$defs"]["Maneuver"]
    assert {"id", "name", "kind", "cost"} <= set(maneuver["required"])


def test_the_bundled_files_fit_the_schema_model() -> None:
    # The file model of the schema accepts every bundled file.
    root = Path(load_catalog.__code__.co_filename).parent / "data" / "catalog"
    import yaml

    for path in sorted(root.glob("*.yaml")):
        CatalogFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


# ----------------------------------------------------------------------------- sengoku with units


def test_sengoku_attack_between_catalog_units() -> None:
    # rule: SG.PRC.5 — Kuro's Thrust [Pierce 2] at a samurai in heavy armor: Defense 14 → 12
    code, out, err = run(
        "sengoku",
        "attack",
        "--attacker",
        "kuro",
        "--weapon",
        "thrust",
        "--target",
        "samurai",
        "--faces",
        "4,5",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert (data["attacker"], data["target"], data["technique"]) == ("Kuro", "Samurai", "Thrust")
    assert (data["defense"], data["modifier"], data["outcome"]) == (12, 5, "hit")  # 4 + 5 + 5 >= 12
    # With a stance the target maintains, and the attacker's own weapon by default (ninja-to: Attack A).
    code, out, err = run(
        "sengoku", "attack", "--attacker", "kuro", "--target", "samurai",
        "--target-stance", "immovable-formation", "--faces", "9,9", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0, err
    assert (data["technique"], data["defense"], data["modifier"]) == ("Reverse-Grip Cut", 16, 5)
    assert data["outcome"] == "critical"


def test_sengoku_attack_with_user_content(tmp_path: Path) -> None:
    (tmp_path / "u.yaml").write_text(
        "creatures:\n  - {id: bandit, name: Bandit, grade: mob, weapons: [yari], skills: {spear: 2}}\n",
        encoding="utf-8",
    )
    code, out, err = run(
        "sengoku", "attack", "--content", str(tmp_path), "--attacker", "bandit", "--target", "oni",
        "--faces", "5,6", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert (data["technique"], data["modifier"]) == ("Spear Thrust", 2)
    assert (
        data["defense"] == 11
    )  # Oni 12 (natural armor +2, which its entry says [Pierce] reaches) → [Pierce 1]


def test_sengoku_attack_catalog_errors() -> None:
    code, out, err = run(
        "sengoku", "attack", "--attacker", "kurro", "--target", "oni", "--target-armor", "heavy"
    )
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert lines[0] == "kassen: error: 2 problems:" and len(lines) == 3  # every problem, one a line
    assert "--attacker: unknown creature 'kurro'; did you mean kuro?" in lines[1]
    assert "--target-armor: give --target ID or the target's build options, not both" in lines[2]
    code, _, err = run("sengoku", "attack", "--target-stance", "walk", "--faces", "4,5")
    assert code == 2 and "Walk grants no Defense" in err
    code, _, err = run("sengoku", "attack", "--content", "/nonexistent", "--faces", "4,5")
    assert code == 2 and "no such file or directory" in err


def test_sengoku_defense_of_a_catalog_unit() -> None:
    # rule: SG.PRC.4 — the turtle's shell: its entry says [Pierce] does not reach it
    code, out, _ = run("sengoku", "defense", "--unit", "tetsu-kame", "--tag", "Pierce all", "--json")
    assert code == 0 and json.loads(out)["defense"] == 13
    code, out, _ = run("sengoku", "defense", "--armor", "heavy", "--stance", "immovable-formation", "--json")
    assert json.loads(out)["defense"] == 16
    code, _, err = run("sengoku", "defense", "--unit", "oni", "--armor", "heavy")
    assert code == 2 and "--armor: give --unit ID" in err
