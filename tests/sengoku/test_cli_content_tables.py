"""``kassen sengoku attack``, ``defense`` and ``odds`` with ``--content``: a layer's tables (defense.yaml,
grades.yaml, resolution.yaml patches) are the ones the calculators use, in every step they explain —
as in a battle on the same content (``tests/sengoku/battle/test_content_in_force.py``)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.odds import attack_odds

runner = CliRunner()


def layer(tmp_path: Path, data: dict[str, Any]) -> str:
    (tmp_path / "house.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(tmp_path)


def run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["sengoku", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_defense_reads_the_layers_armor_row_and_defenseless(tmp_path: Path) -> None:
    # rule: SG.DEF.2 — the armor row; rule: SG.DFL.2 — Defenseless −N; rule: SG.DEF.5 — the order: a
    # layer's heavy armor +7 and Defenseless −6 make the samurai 10 + 7 = 17, and 17 − 6 = 11 Defenseless
    # (bundled 14 and 10)
    content = layer(
        tmp_path,
        {"defense": {"armor": {"rows": {"heavy": {"defense": 7}}}, "reductions": {"defenseless": 6}}},
    )
    assert run_json("defense", "--unit", "samurai")["defense"] == 14
    assert run_json("defense", "--unit", "samurai", "--defenseless")["defense"] == 10
    assert run_json("defense", "--unit", "samurai", "--content", content)["defense"] == 17
    data = run_json("defense", "--unit", "samurai", "--defenseless", "--content", content)
    assert data["defense"] == 11
    assert any(s["reason"] == "Defenseless −6" and s["rule"] == "SG.DFL.2" for s in data["steps"])


def test_a_stance_released_by_defenseless_then_the_layers_penalty(tmp_path: Path) -> None:
    # rule: SG.DFL.2 — becoming Defenseless releases the maintained stance and costs Defense −N: the
    # samurai's Immovable Formation (+2) is released, then the layer's −6: 14 − 6 = 8 (bundled 10)
    content = layer(tmp_path, {"defense": {"reductions": {"defenseless": 6}}})
    args = ("defense", "--unit", "samurai", "--stance", "immovable-formation", "--defenseless")
    assert run_json(*args)["defense"] == 10
    data = run_json(*args, "--content", content)
    assert data["defense"] == 8 and [s["value"] for s in data["released"]] == [-2]


def test_attack_a_fumble_makes_the_attacker_defenseless_by_the_layers_reduction(tmp_path: Path) -> None:
    # rule: SG.FUM.1 — a fumble makes the attacker Defenseless; rule: SG.DFL.2 — by the table's −N: the
    # explanation says −6 under a layer's 6 (bundled −4)
    def said(*extra: str) -> list[Any]:
        data = run_json("attack", "--modifier", "0", "--faces", "2,2", *extra)
        assert data["outcome"] == "fumble" and data["attacker_defenseless"]
        return [s["value"] for s in data["steps"] if s["reason"].startswith("Defenseless: Defense")]

    assert said() == [-4]
    assert said("--content", layer(tmp_path, {"defense": {"reductions": {"defenseless": 6}}})) == [-6]


def test_attack_reads_the_layers_defense_wounds_and_rows(tmp_path: Path) -> None:
    # rule: SG.DFL.2 — a Defenseless target at the table's −N (samurai 14 − 6 = 8); rule: SG.WND.5 —
    # the grade's Wounds (a Veteran at 7); rule: SG.WND.2 — a Critical Hit's Wounds (3); rule: SG.CRT.4 —
    # the decisive moment's rows (the layer's one row): all from one layer
    row = {
        "low": 1,
        "high": 100,
        "name": "Heaven's Gift",
        "effect": "The attacker gains 3 Fate points.",
        "effects": [{"kind": "fate", "who": "attacker", "amount": 3}],
    }
    content = layer(
        tmp_path,
        {
            "defense": {"reductions": {"defenseless": 6}},
            "grades": {"grades": {"veteran": {"wounds": 7}}},
            "resolution": {"wounds": {"critical": 3}, "decisive_moment": {"rows": [row]}},
        },
    )
    target = ("--target", "samurai", "--target-defenseless")
    assert run_json("attack", *target, "--faces", "1,2")["defense"] == 10
    assert run_json("attack", *target, "--faces", "1,2", "--content", content)["defense"] == 8
    hit = run_json("attack", "--modifier", "5", "--faces", "5,6", "--content", content)
    assert (hit["wounds_before"], hit["wounds_after"]) == (7, 6)
    critical = run_json("attack", "--modifier", "5", "--faces", "4,4", "--content", content)
    assert critical["outcome"] == "critical" and critical["wounds_after"] == 7 - 3
    mandate = run_json("attack", "--modifier", "5", "--faces", "10,10", "--d100", "77", "--content", content)
    assert mandate["table"]["name"] == "Heaven's Gift" and mandate["wounds_after"] == 7 - 3


def test_odds_read_the_layers_resolution(tmp_path: Path) -> None:
    # rule: SG.WND.2 — a Critical Hit's Wounds (4 under the layer); rule: SG.RD.4 — a failed double 10
    # read as a miss: `kassen sengoku odds --content` gives the odds of the layer's resolution data
    content = layer(
        tmp_path, {"resolution": {"wounds": {"critical": 4}, "doubles": {"double_ten_failure": "miss"}}}
    )
    args = ("odds", "--modifier", "-9", "--defense", "12")
    assert run_json(*args) == attack_odds(-9, 12).to_json()
    expected = attack_odds(-9, 12, rules=load_catalog([content]).resolution)
    assert run_json(*args, "--content", content) == expected.to_json()
    assert expected.fumble == attack_odds(-9, 12).fumble - Fraction(1, 100)  # 10-10 is no fumble now
    hit = run_json("odds", "--modifier", "5", "--defense", "12", "--content", content)
    assert hit["expected_wounds"] > run_json("odds", "--modifier", "5", "--defense", "12")["expected_wounds"]


def test_the_calculators_never_read_the_bundled_tables_with_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rule: SG.DEF.5 — the Defense; rule: SG.CHK.1 — the check and its odds: with `--content`, attack,
    # defense and odds read every table from the merged content, never from the bundled loaders (made to
    # fail here)
    content = layer(tmp_path, {"defense": {"reductions": {"defenseless": 5}}})
    load_catalog([content])  # the bundled layer is read once, before the loaders fail

    def bundled(*_: object) -> Any:
        raise AssertionError("a calculator reached for the bundled tables instead of the content's")

    for module in ("defense_rules", "resolution", "grades"):
        monkeypatch.setattr(f"kassen.sengoku.{module}._bundled", bundled)
    monkeypatch.setattr("kassen.sengoku.odds._bundled_table", bundled)
    c = ("--content", content)
    assert run_json("defense", "--unit", "samurai", "--defenseless", *c)["defense"] == 9
    fumble = run_json(
        "attack", "--attacker", "oni", "--target", "samurai", "--faces", "1,1", "--d100", "5", *c
    )
    assert fumble["outcome"] == "fumble" and fumble["table"] is not None
    assert run_json("attack", "--target", "lord", "--faces", "10,10", "--d100", "95", *c)["table"] is not None
    assert run_json("odds", "--modifier", "3", "--defense", "12", "--weapon", "nodachi", *c)["hit"] > 0
