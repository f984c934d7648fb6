"""`kassen lab solve`: it finds where a single roll's chance crosses 50%, known exactly, and says when no
value in the range reaches the target."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen import lab
from kassen.cli.main import app
from kassen.core.scenario import read_scenario
from kassen.lab.engine import Opener
from kassen.lab.solve import parse_span, solve
from kassen.lab.sweeping import plan_sweep
from kassen.sengoku.odds import attack_odds

KILLS = str(Path(__file__).resolve().parent / "data" / "one-cut-kills.yaml")
SKILL = "catalog.creatures.genzaburo.skills.swordsmanship"


def _exact(values: range) -> dict[int, float]:
    """The party's exact win rate at each skill: the cut's hit chance (one hit takes the Oni out)."""
    plan = plan_sweep(KILLS, [f"{SKILL}={values.start}..{values.stop - 1}"], fights=1)
    out = {}
    for cell in plan.cells:
        assert cell.text is not None
        fight = Opener(read_scenario("cell", text=cell.text), ()).open(0)
        fight.autoplay()
        (attack,) = [e.data for e in fight.events if e.kind == "attack"]
        out[int(cell.cell.values[0][1])] = float(attack_odds(attack["modifier"], attack["defense"]).hit)
    return out


def test_solve_finds_where_a_single_cut_crosses_even_odds() -> None:
    # rule: SG.CHK.1
    exact = _exact(range(0, 11))
    (below,) = [k for k in exact if exact[k] < 0.5 <= exact[k + 1]] if all(
        exact[k] < exact[k + 1] for k in range(0, 10)) else []  # fmt: skip
    truth = below + (0.5 - exact[below]) / (exact[below + 1] - exact[below])
    result = solve(KILLS, f"{SKILL}=0..10", "party=0.5", fights=800, seed=0, jobs=2)
    print(f"\nexact crossing {truth:.3f}; found {result.answer} {result.interval}; {result.sentence()}")
    assert result.between == (below, below + 1)
    assert result.answer is not None and result.interval is not None
    assert result.interval[0] <= truth <= result.interval[1]
    assert abs(result.answer - truth) < 0.5
    assert result.sentence().startswith("The party wins 50.0% at swordsmanship ")
    assert len(result.points) <= 6  # bisected, not swept: ends, then halvings


def test_solve_says_when_no_value_reaches_the_target() -> None:
    result = solve(KILLS, f"{SKILL}=6..10", "party=0.5", fights=100, seed=0)
    assert result.answer is None and result.between is None and result.interval is None
    assert result.sentence().startswith("No value of swordsmanship from 6 to 10 brings The party's win rate")
    assert [p.value for p in result.points] == [6.0, 10.0]


def test_solve_checks_its_options() -> None:
    assert parse_span("a.b=1..5") == ("a.b", 1.0, 5.0, True)
    assert parse_span("a.b=0.5..2") == ("a.b", 0.5, 2.0, False)
    for bad in ("a.b=5..1", "a.b=1,2", "a.b", "=1..2"):
        with pytest.raises(lab.LabError, match=r"PATH=LO\.\.HI"):
            parse_span(bad)
    for target in ("party=1.5", "party", "=0.5", "party=x"):
        with pytest.raises(lab.LabError, match="--target"):
            solve(KILLS, f"{SKILL}=0..4", target, fights=10)
    with pytest.raises(lab.LabError, match="not a side"):
        solve(KILLS, f"{SKILL}=0..4", "north=0.5", fights=10)


def test_the_solve_command_writes_its_report(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["lab", "solve", KILLS, "--vary", f"{SKILL}=1..6", "--target", "party=0.5", "--fights", "200",
         "--out", str(tmp_path / "s")],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "wins 50.0% at swordsmanship" in result.stdout
    names = {p.name for p in (tmp_path / "s").iterdir()}
    assert {"solve.json", "solve.csv", "solve.png", "report.html"} <= names
