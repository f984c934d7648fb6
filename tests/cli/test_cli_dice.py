"""The dice commands of the ``kassen`` CLI: ``roll`` and ``odds`` (Typer's CliRunner, stderr apart)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner, Result

from kassen.cli.main import app

# Typer >= 0.2x ships its own Click and its CliRunner always keeps stderr apart from stdout, so there is
# no mix_stderr flag to pass; result.stderr is only what went to stderr.
runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_roll_json_is_valid_and_reproducible() -> None:
    first = run("roll", "2d10+5", "--seed", "7", "--json")
    second = run("roll", "2d10+5", "--seed", "7", "--json")
    assert first.exit_code == 0, first.stderr
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert {"expression", "total", "dice"} <= set(data)
    assert data["expression"] == "2d10 + 5"
    assert data["seed"] == 7
    assert len(data["dice"]) == 2
    assert data["total"] == sum(d["value"] for d in data["dice"]) + 5
    assert 7 <= data["total"] <= 25
    assert first.stderr == ""


def test_roll_text_output() -> None:
    result = run("roll", "2d10+5", "--seed", "7")
    assert result.exit_code == 0
    assert result.stdout == "2d10 + 5: [8, 10] + 5 = 23\n"  # pinned: seed 7 is a replay contract


def test_roll_without_seed_shows_the_seed_used() -> None:
    result = run("roll", "1d6")
    assert result.exit_code == 0
    assert "(seed " in result.stdout


def test_roll_unskilled() -> None:
    data = json.loads(run("roll", "7k3", "--seed", "1", "--unskilled", "--json").stdout)
    assert data["expression"] == "7k3 unskilled"
    assert not any(d["exploded"] for d in data["dice"])


def test_odds_json_two_d10() -> None:
    result = run("odds", "2d10", "--at-least", "11", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["probability"] == 0.55
    assert data["fraction"] == "11/20"
    assert data["expression"] == "2d10"
    assert data["at_least"] == 11
    assert data["error_bound"] == 0.0


def test_odds_json_roll_and_keep() -> None:
    data = json.loads(run("odds", "7k3", "--at-least", "25", "--json").stdout)
    assert data["fraction"] == "60154863/100000000"
    assert data["error_bound"] == 0.0


def test_odds_text() -> None:
    result = run("odds", "2d10", "--at-least", "11")
    assert result.exit_code == 0
    assert "55.000000%" in result.stdout
    assert "11/20" in result.stdout
    assert "exact" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("roll", "2d10+"), "column 6"),
        (("roll", "1000000d1000000"), "limit"),
        (("odds", "2d10"), "--at-least"),
        (("odds", "1000d1000", "--at-least", "5"), "the limit is"),
        (("odds", "2d10", "--at-least", "many"), "--at-least"),
        (("roll",), "EXPRESSION"),
        (("dice",), "dice"),
    ],
)
def test_errors_are_one_line_on_stderr_with_exit_code_2(args: tuple[str, ...], fragment: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("kassen: error: ")
    assert fragment in lines[0]
    assert "Traceback" not in result.stderr
    assert "Traceback" not in result.output


def test_help_still_works() -> None:
    result = run("roll", "--help")
    assert result.exit_code == 0
    assert "EXPRESSION" in result.stdout.upper()


def test_a_negative_expression_is_an_argument_not_an_option() -> None:
    # `kassen roll -1d4+5` used to fail with "No such option: -1"
    result = runner.invoke(app, ["roll", "-1d4+5", "--seed", "3"])
    assert result.exit_code == 0 and result.stdout.startswith("-1d4 + 5:")
    result = runner.invoke(app, ["odds", "-1d4+5", "--at-least", "3"])
    assert result.exit_code == 0 and "(1/2)" in result.stdout
    result = runner.invoke(app, ["roll", "--sed", "3", "2d6"])  # a misspelt option still says so
    assert result.exit_code == 2 and "kassen: error:" in result.stderr
