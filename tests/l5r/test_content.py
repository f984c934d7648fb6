"""The tables as the fight's content (kassen.content): layers merged over the bundled tables section by
section, a scenario's own ``content:`` block, ``--tables DIR`` as a layer, the scenario's ``tables:``
key, and every problem with file, line and field. No table lives in the duel's state."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen import open_fight
from kassen.cli.main import app
from kassen.content.content import ContentMismatchError
from kassen.core.errors import ContentError
from kassen.core.fight import Fight
from kassen.l5r.content import bundled_content, content_for
from kassen.l5r.scenario import load_scenario, run_duel
from kassen.l5r.state import DuelState

DUEL = """\
ruleset: l5r
name: Two ronin
seed: 4
characters:
  - name: A
    skills: {kenjutsu: 3}
  - name: B
    skills: {kenjutsu: 3}
"""


def test_the_state_holds_no_tables() -> None:
    assert "tables" not in {f.name for f in dataclasses.fields(DuelState)}
    fight = open_fight("l5r/kakita-vs-hida", seed=1)
    assert "tables" not in fight.to_json()["initial_state"]
    assert fight.tables is bundled_content().tables and fight.content.hash == bundled_content().hash


def test_a_scenarios_own_content_block_is_the_last_layer(tmp_path: Path) -> None:
    # rule: L5.CORE.2 — the TN to be hit is data; a scenario may change it for itself.
    path = tmp_path / "duel.yaml"
    path.write_text(
        DUEL + "content:\n  core:\n    tn_to_be_hit: {reflexes_multiplier: 6}\n", encoding="utf-8"
    )
    fight = open_fight(path)
    assert fight.tables.core.tn_to_be_hit.reflexes_multiplier == 6
    assert fight.tables.core.tn_to_be_hit.armor == bundled_content().tables.core.tn_to_be_hit.armor
    assert fight.content.hash != bundled_content().hash
    fight.autoplay()
    tn = next(e for e in fight.events if e.kind == "attack").data["steps"]
    assert {"value": 12, "reason": "Reflexes 2 x 6", "rule": "L5.CORE.2"} in tn
    data = json.loads(fight.log_json())
    assert data["meta"]["content"]["scenario"] == {"core": {"tn_to_be_hit": {"reflexes_multiplier": 6}}}
    assert Fight.from_json(data).log_json() == fight.log_json()  # the block travels with the log
    # an error in the block names the scenario file, the line and the field
    path.write_text(DUEL + "content:\n  core:\n    raises: {limit: sometimes}\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        open_fight(path)
    [issue] = err.value.issues
    assert (issue.file, issue.field, issue.line) == (str(path), "core.raises.limit", 11)


def test_tables_option_is_a_content_layer_that_a_replay_needs(tmp_path: Path) -> None:
    # rule: L5.CORE.3 — +5 TN per raise is data (tn_per_raise): a --tables layer changes it for odds and
    # duels alike, and a duel played with it records it.
    layer = tmp_path / "tables"
    layer.mkdir()
    (layer / "core.yaml").write_text("raises: {tn_per_raise: 10}\n", encoding="utf-8")
    runner = CliRunner()
    odds = runner.invoke(
        app, ["l5r", "odds", "6k3", "--tn", "20", "--raises", "1", "--json", "--tables", str(layer)]
    )
    assert odds.exit_code == 0 and json.loads(odds.stdout)["target"] == 30
    played = runner.invoke(
        app, ["l5r", "duel", "kakita-vs-hida", "--seed", "3", "--json", "--tables", str(layer)]
    )
    assert played.exit_code == 0
    data = json.loads(played.stdout)
    assert [x["label"] for x in data["meta"]["content"]["layers"]] == ["bundled", "layer 1"]
    assert data["meta"]["content"]["hash"] == content_for(layer).hash != bundled_content().hash
    with pytest.raises(ContentMismatchError) as err:
        Fight.from_json(data)
    assert "--content" in str(err.value)
    assert Fight.from_json(data, content=[layer]).to_json() == data
    replay = runner.invoke(app, ["replay", "-", "--content", str(layer)], input=played.stdout)
    assert replay.exit_code == 0 and "identical" in replay.stdout


def test_the_scenarios_tables_key_is_read_by_the_rulesets_own_loader(tmp_path: Path) -> None:
    # rule: L5.CORE.2 — a scenario's `tables: DIR` (relative to the file) overrides the tables for it.
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "core.yaml").write_text("tn_to_be_hit: {base: 5}\n", encoding="utf-8")
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL + "tables: mine\n", encoding="utf-8")
    src = load_scenario(path)
    assert "tables" not in src.data and src.content == {"core": {"tn_to_be_hit": {"base": 5}}}
    fight = run_duel(src)
    assert fight.tables.core.tn_to_be_hit.base == 5
    assert Fight.from_json(fight.to_json()).log_json() == fight.log_json()  # no --content needed
    # the generic loader cannot read a directory relative to the file: it says what to do instead
    with pytest.raises(ContentError) as err:
        open_fight(path)
    [issue] = err.value.issues
    assert issue.field == "tables" and issue.line == 9 and "--content" in issue.message
    # the directory's own errors name its files
    (tmp_path / "mine" / "core.yaml").write_text("tn_to_be_hit: {base: x}\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_scenario(path)
    assert err.value.issues[0].file.endswith("core.yaml") and err.value.issues[0].line == 1


def test_a_file_without_the_header_loads_through_the_duel_command(tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text(DUEL.removeprefix("ruleset: l5r\n"), encoding="utf-8")
    runner = CliRunner()
    own = runner.invoke(app, ["l5r", "duel", str(path)])
    assert own.exit_code == 0 and "(seed 4)" in own.stdout
    generic = runner.invoke(app, ["fight", str(path)])
    assert generic.exit_code == 2 and "ruleset" in generic.stderr
