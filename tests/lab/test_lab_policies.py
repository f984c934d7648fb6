"""`--policies`: each cell under several named policies, and every conclusion that changes between them
flagged (the favoured side, the best cell, where the 50% line lies)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen import lab
from kassen.cli.main import app
from kassen.core.errors import KassenError
from kassen.lab.policies import compare_sweeps, split_specs


def test_specs_split_on_names_not_on_a_specs_own_commas() -> None:
    two = split_specs(["heuristic,search:iterations=10,seed=3"])
    assert two == ["heuristic", "search:iterations=10,seed=3"]
    assert split_specs(["random", "first-legal"]) == ["random", "first-legal"]
    bad_specs = [(["heuristic"], "two or more"), (["heuristic,heuristic"], "twice"), (["nope,x"], "nope")]
    for bad, message in bad_specs:
        with pytest.raises(KassenError, match=message):
            split_specs(bad)


def test_a_sweep_under_two_policies_flags_what_changes() -> None:
    vary = ["fighters.ryu.skill=8,11,14"]
    results = {
        spec: lab.sweep("duel", vary, fights=40, seed=0, policies={"east": spec, "west": spec})
        for spec in ("heuristic", "random")
    }
    flags = compare_sweeps(results, "east")
    assert any("favoured side changes" in f for f in flags)  # a random Ryu loses where a good one wins
    same = compare_sweeps({"a": results["heuristic"], "b": results["heuristic"]}, "east")
    assert same == []


def test_the_run_command_compares_policies_and_writes_each(tmp_path: Path) -> None:
    out = tmp_path / "p"
    result = CliRunner().invoke(
        app, ["lab", "run", "duel", "-n", "30", "--policies", "heuristic,random", "--json", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data["policies"]) == {"heuristic", "random"}
    assert data["policies"]["random"]["policies"] == {"east": "random", "west": "random"}
    assert data["answer"].endswith(".")
    assert {p.name for p in out.iterdir()} >= {"report.html", "policy-1", "policy-2"}
    refused = CliRunner().invoke(app, ["lab", "run", "duel", "-n", "3", "--policies", "heuristic,random",
                                       "--policy", "east=random"])  # fmt: skip
    assert refused.exit_code == 2 and "leave out --policy" in refused.stderr
