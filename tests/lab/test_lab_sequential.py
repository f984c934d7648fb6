"""Sequential runs (``--until``, ``--decide``): they stop only after whole looks, so the result is the
same for any ``--jobs`` and either backend, and their stated error rate holds over many runs of a
single roll whose chance is known exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from labflip import one_flip

from kassen import lab

RUNS = 200


def test_a_sequential_run_is_the_same_for_any_jobs_and_ray() -> None:
    one = lab.run("duel", fights=600, seed=4, decide=0.85, every=40, side="east")
    two = lab.run("duel", fights=600, seed=4, decide=0.85, every=40, side="east", jobs=2)
    assert one.sequential is not None and one.sequential.looks > 1  # it looked more than once
    assert one.fights < 600 and one.fights % 40 == 0
    assert two.to_json() == one.to_json()
    assert [r.seed for r in one.records] == list(range(4, 4 + one.fights))  # fight i keeps seed S+i
    pytest.importorskip("ray", reason="the ray extra (make test installs it)")
    on_ray = lab.run("duel", fights=600, seed=4, decide=0.85, every=40, side="east", jobs=2, backend="ray")
    assert on_ray.to_json() == one.to_json()


def test_a_sequential_sweep_is_the_same_for_any_jobs() -> None:
    vary = ["fighters.ryu.skill=9,12,15"]
    one = lab.sweep("duel", vary, fights=400, decide=0.5, every=50)
    two = lab.sweep("duel", vary, fights=400, decide=0.5, every=50, jobs=2)
    assert one.to_json() == two.to_json()
    played = [c.result.fights for c in one.cells if c.result is not None]
    assert min(played) < 400  # some cell stopped early


def test_decide_errs_at_most_alpha_over_200_runs_of_a_fair_coin(coinflip: None, tmp_path: Path) -> None:
    """Ann wins one flip of a d2 with chance exactly 1/2. Asked whether her rate is above or below 1/2,
    every verdict is wrong: at most 5% of the runs may give one, however many looks they take."""
    scenario = one_flip(tmp_path, faces=2)
    verdicts = []
    for k in range(RUNS):
        r = lab.run(scenario, fights=1000, seed=k * 10_000, decide=0.5, every=50, side="left")
        assert r.sequential is not None
        verdicts.append(r.sequential.verdict)
    wrong = sum(v is not None for v in verdicts)
    print(f"\n--decide 0.5 on a rate of exactly 1/2: {wrong} wrong verdicts in {RUNS} runs (alpha 5%)")
    assert wrong <= 0.05 * RUNS


def test_decide_errs_at_most_alpha_near_the_rate_and_saves_fights(coinflip: None, tmp_path: Path) -> None:
    """The same coin asked against 0.45: "above" is right, "below" wrong (at most 5%)."""
    scenario = one_flip(tmp_path, faces=2)
    right = wrong = fights = 0
    for k in range(RUNS):
        r = lab.run(scenario, fights=2000, seed=k * 10_000, decide=0.45, every=100, side="left")
        assert r.sequential is not None
        right += r.sequential.verdict == "above"
        wrong += r.sequential.verdict == "below"
        fights += r.fights
    print(
        f"\n--decide 0.45 on a rate of 1/2: {right} right, {wrong} wrong, {RUNS - right - wrong} undecided "
        f"in {RUNS} runs; {fights / RUNS:.0f} fights a run of at most 2,000"
    )
    assert wrong <= 0.05 * RUNS
    assert right >= 0.5 * RUNS  # it does decide, most of the time, well before the limit
    assert fights < 0.9 * 2000 * RUNS


def test_until_keeps_its_intervals_coverage(coinflip: None, tmp_path: Path) -> None:
    """Stopping when the interval is narrow enough: the interval at the stop covers the exact 1/3."""
    scenario = one_flip(tmp_path, faces=3)
    covered = 0
    for k in range(RUNS):
        r = lab.run(scenario, fights=2000, seed=k * 10_000, until=0.12, every=25, side="left")
        lo, hi = r.side("left").wins.ci95
        assert r.sequential is not None and r.sequential.met and hi - lo <= 0.12
        covered += lo <= 1 / 3 <= hi
    print(f"\n--until 0.12: the 95% interval covered 1/3 in {covered} of {RUNS} runs")
    assert covered >= 0.9 * RUNS


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"until": 0.1, "decide": 0.5}, "not both"),
        ({"until": 0.0}, "--until"),
        ({"decide": 1.0}, "--decide"),
        ({"decide": 0.5, "side": "north"}, "not a side"),
        ({"every": 10}, "--every goes with"),
        ({"decide": 0.5, "every": 0}, "every"),
    ],
)
def test_bad_sequential_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(lab.LabError, match=message):
        lab.run("duel", fights=10, **options)  # type: ignore[arg-type]
