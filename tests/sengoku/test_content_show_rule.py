"""``kassen content show RULE``: a rule the seeds settle without a house default points to ``kassen
rules``, with the rule's own words; a house default shows its rationale as before."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kassen.cli.main import app

runner = CliRunner()


def test_a_rule_without_a_house_default_points_to_kassen_rules() -> None:
    # rule: SG.CHK.1 — cited by every attack's explanation, settled by the seed: no house default
    r = runner.invoke(app, ["content", "show", "SG.CHK.1"])
    assert r.exit_code == 0 and "kassen rules SG.CHK.1" in r.stdout and "Checks" in r.stdout
    data = json.loads(runner.invoke(app, ["content", "show", "sg.chk.1", "--json"]).stdout)
    assert data["kind"] == "rule" and data["id"] == "SG.CHK.1" and data["see"] == "kassen rules SG.CHK.1"
    assert data["house_defaults"] == [] and "2d10" in data["text"]


def test_a_house_default_and_an_unknown_rule() -> None:
    # rule: SG.CNT.4 — a gap's house default is shown with its rationale; an unknown ID is one line, exit 2
    r = runner.invoke(app, ["content", "show", "SG.CNT.4", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["kind"] == "house-default"
    r = runner.invoke(app, ["content", "show", "SG.XYZ.1"])
    assert r.exit_code == 2 and "no house default for 'SG.XYZ.1'" in r.stderr
    assert "kassen rules --ruleset sengoku" in r.stderr
