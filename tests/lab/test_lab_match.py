"""`kassen lab match`: its options are held to the limits of the other lab commands (the same checks,
the same words), and a bad one is one line and exit 2 before a fight is played."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner, Result

from kassen.cli.main import app
from kassen.lab.limits import SEED_MAX, LabError
from kassen.lab.match import Sprt, match

runner = CliRunner()
MATCH = ["lab", "match", "l5r/first-blood", "--a", "random", "--b", "heuristic", "-q"]


def run_match(*args: str) -> Result:
    return runner.invoke(app, [*MATCH, *args])


def _one_error_line(result: Result) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("kassen: error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # the checks of `lab run`, word for word
        (["-n", "4", "--jobs", "0"], "jobs must be between 1 and 256, got 0"),
        (["-n", "4", "--jobs", "-3"], "jobs must be between 1 and 256, got -3"),
        (["-n", "4", "--jobs", "1000"], "jobs must be between 1 and 256, got 1000"),
        (["-n", "4", "--max-actions", "0"], "max_actions must be between 1 and 1000000, got 0"),
        (["-n", "4", "--max-actions", "-1"], "max_actions must be between 1 and 1000000, got -1"),
        (["-n", "4", "--backend", "spark"], "backend is local or ray"),
        (["-n", "4", "--address", "10.0.0.1:6379"], "--address goes with --backend ray"),
        # a match plays pairs: at least one, and whole ones
        (["-n", "0"], "fights must be between 2 and 200000, got 0"),
        (["-n", "-5"], "fights must be between 2 and 200000, got -5"),
        (["-n", "1"], "fights must be between 2 and 200000, got 1"),
        (["-n", "200002"], "fights must be between 2 and 200000, got 200002"),
        (["-n", "5"], "fights must be even: a match plays each seed twice, each policy on each side; got 5"),
        # 2 pairs use seeds S and S+1: the last seed that fits is 2**64 - 2
        (["-n", "4", "--seed", str(SEED_MAX)], "seed must be between 0 and 2**64 - 2"),
        # the SPRT's bounds: finite, within what a match can mean, in order
        (["-n", "4", "--sprt", "--elo0", "nan"], "elo0 must be a finite number, got nan"),
        (["-n", "4", "--sprt", "--elo1", "inf"], "elo1 must be a finite number, got inf"),
        (["-n", "4", "--sprt", "--elo1", "1e308"], "elo1 must be between -1000 and 1000, got 1e+308"),
        (["-n", "4", "--sprt", "--elo0", "-2000"], "elo0 must be between -1000 and 1000, got -2000"),
        (
            ["-n", "4", "--sprt", "--elo0", "60"],
            "the SPRT's elo1 must be above its elo0 (e.g. 0 and 50), got 60 and 50",
        ),
        (["-n", "4", "--elo1", "30"], "--elo0 and --elo1 are the bounds of --sprt"),
    ],
)
def test_bad_match_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    assert message in _one_error_line(run_match(*args))


def test_the_last_seeds_that_fit_are_played_and_none_is_broken() -> None:
    # 2 pairs from 2**64 - 2: seeds 2**64 - 2 and 2**64 - 1, each valid (none overflows into an error)
    result = run_match("-n", "4", "--seed", str(SEED_MAX - 1), "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["fights"] == 4 and report["pairs"] == 2 and report["broken"] == 0


def test_the_api_refuses_what_the_command_line_refuses() -> None:
    with pytest.raises(LabError, match="fights must be even"):
        match("l5r/first-blood", "random", "heuristic", fights=3)
    with pytest.raises(LabError, match="jobs must be between 1 and 256"):
        match("l5r/first-blood", "random", "heuristic", fights=4, jobs=0)
    with pytest.raises(LabError, match="elo1 must be a finite number"):
        Sprt(0.0, float("nan"))
    with pytest.raises(LabError, match="elo0 is a number, not str"):
        Sprt("0", 50.0)  # type: ignore[arg-type]
