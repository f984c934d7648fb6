"""``kassen l5r``: odds, attack, duel, scenarios, defaults; bad input is one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.fight import Fight
from kassen.l5r.pool import Pool, chance

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["l5r", *args])
    return r.exit_code, r.stdout, r.stderr


def test_odds_json_is_exact_for_tn_plus_five_per_raise() -> None:
    # rule: L5.CORE.3 — odds for reaching TN + 5 x raises, exact.
    code, out, _ = run("odds", "6k3", "--tn", "20", "--raises", "2", "--json")
    assert code == 0
    data = json.loads(out)
    p = chance(Pool(6, 3), 30)
    assert data["fraction"] == f"{p.numerator}/{p.denominator}" and data["success"] == float(p)
    code, out, _ = run("odds", "7k3", "--tn", "25")
    assert code == 0 and "60154863/100000000" in out


def test_odds_unskilled_does_not_explode_and_may_not_raise() -> None:
    # rule: L5.CORE.1 — unskilled: no exploding 10s.  rule: L5.CORE.3 — and no raises.
    code, out, _ = run("odds", "2k2", "--tn", "21", "--unskilled", "--json")
    assert code == 0 and json.loads(out)["fraction"] == "0/1"
    code, out, err = run("odds", "6k3", "--tn", "20", "--raises", "1", "--unskilled")
    assert code == 2 and err.strip().count("\n") == 0 and "L5.CORE.3" in err and "Traceback" not in err


def test_bad_input_is_one_line_on_stderr_with_exit_2() -> None:
    for args in (
        ["odds", "6x3", "--tn", "5"],
        ["odds", "6k3", "--tn", "5", "--raises", "-1"],
        ["attack", "--called-shot", "elbow"],
        ["attack", "--special", "teleport"],
        ["attack", "--damage-raises", "3"],
        ["attack", "--special", "mark", "--full-attack", "--void", "4"],
        ["attack", "--target-armor", "paper"],
        ["attack", "--weapon", "2k5"],
        ["duel", "no-such-duel"],
        ["attack", "--agility", "0"],
    ):
        code, _out, err = run(*args)
        assert code == 2, args
        assert err.startswith("kassen: error:") and err.count("\n") == 1, (args, err)


def test_attack_explains_every_step_and_is_reproducible() -> None:
    # rule: L5.CS.1 — a head called shot carries 4 raises (+20 TN) here.
    args = (
        "attack",
        "--agility",
        "4",
        "--void",
        "4",
        "--called-shot",
        "head",
        "--injury",
        "critical",
        "--seed",
        "3",
    )
    code, out, _ = run(*args)
    assert code == 0 and "[L5.CS.1]" in out and "chance to hit" in out
    assert run(*args)[1] == out
    code, out, _ = run(*args, "--json")
    data = json.loads(out)
    assert data["tn"] == 10 + 20 and data["events"][0]["kind"] == "attack"


def test_duel_json_is_a_chronicle_that_replays(tmp_path: Path) -> None:
    code, out, _ = run("duel", "kakita-vs-hida", "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert Fight.from_json(data).to_json() == data
    assert data["format"] == 3 and data["ruleset"] == "l5r" and data["seed"] == 5
    code, out, _ = run("duel", "kakita-vs-hida", "--seed", "5")
    assert code == 0 and "(seed 5)" in out and "== Turn 1 ==" in out


def test_scenarios_and_defaults_list() -> None:
    # rule: L5.GAP.1 — the house defaults in force are listed with their rationale.
    code, out, _ = run("scenarios")
    assert code == 0 and "kakita-vs-hida" in out
    code, out, _ = run("defaults", "--json")
    rules = {row["rule"] for row in json.loads(out)}
    assert {"L5.GAP.1", "L5.RD.1", "L5.RD.2", "L5.RD.3", "L5.CLP.1", "L5.CORE.6"} <= rules
