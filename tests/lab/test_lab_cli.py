"""`kassen lab run|sweep|odds`: output, files, the progress bar, and every bad option as one line and
exit 2 with nothing written."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from kassen.cli.lab import progress_bar
from kassen.cli.main import app

runner = CliRunner()
ONE_CUT = str(Path(__file__).resolve().parent / "data" / "one-cut.yaml")


def run(*args: str) -> Result:
    return runner.invoke(app, ["lab", *args])


def test_run_prints_win_rates_and_replay_hint() -> None:
    result = run("run", "l5r/first-blood", "--fights", "20", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    assert "A contest to first blood (l5r): 20 fights, seeds 3..22" in result.stdout
    assert "Crane" in result.stdout and "95% [" in result.stdout
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    # the replay line holds commands that run as printed (once "--seed 0+i", which is no command)
    line = next(x for x in result.stdout.splitlines() if x.startswith("replay: "))
    assert "kassen fight l5r/first-blood --seed 3 (the first)" in line
    assert "kassen fight l5r/first-blood --seed 22 (the last)" in line
    words = line.split("kassen fight ", 2)[1].split(" (the first)")[0].split()
    replayed = runner.invoke(app, ["fight", *words])
    assert replayed.exit_code == 0, replayed.stderr
    # the answer in one sentence, percentages with one decimal
    last = result.stdout.splitlines()[-1]
    assert " wins " in last and "%) of 20 fights" in last and last.endswith(".")


def test_run_json_is_one_object_and_equals_the_api() -> None:
    from kassen import lab

    result = run("run", "arena/knockback", "-n", "15", "--seed", "1", "--json", "--jobs", "2")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == lab.run("arena/knockback", fights=15, seed=1).to_json()
    assert data["fights"] == 15 and set(data["sides"]) == {"red", "blue"}


def test_run_out_writes_rows_aggregates_plots_and_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run("run", ONE_CUT, "-n", "25", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    names = sorted(p.name for p in out.iterdir())
    for expected in (
        "fights.csv",
        "unit_fights.csv",
        "sides.csv",
        "units.csv",
        "actions.csv",
        "rounds.csv",
        "summary.json",
        "outcomes.png",
        "rounds.png",
        "units.png",
        "report.html",
        "kassen-lab.json",
    ):
        assert expected in names
    assert not [n for n in names if n.startswith(".")]  # no temporary file left
    rows = (out / "fights.csv").read_text("utf-8").splitlines()
    assert len(rows) == 26 and rows[0] == "fight,seed,status,winner,rounds,actions,reason"
    # Rerunning into the same directory is fine (it is the lab's own).
    assert run("run", ONE_CUT, "-n", "5", "--out", str(out), "--no-plots").exit_code == 0


def test_sweep_prints_the_grid_and_reports_invalid_cells(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = [
        "sweep",
        ONE_CUT,
        "--vary",
        "units.oni.zone=own-front,nowhere",
        "--vary",
        "units.oni.overrides.defense=9,12",
        "-n",
        "6",
        "--out",
        str(out),
    ]
    first = run(*args)
    assert first.exit_code == 0, first.stderr
    assert "invalid, skipped" in first.stdout and "no zone 'nowhere'" in first.stdout
    assert (out / "heatmap.png").exists() and (out / "report.html").exists()
    second = run(*args)
    assert second.exit_code == 0
    assert second.stdout.count("(resumed)") == 2


def test_odds_tables() -> None:
    result = run("odds", "sengoku", "--modifiers", "0..2", "--defense", "11..12")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].split() == ["modifier", "\\", "defense", "11", "12"]
    assert "55.0%" in result.stdout  # 2d10 >= 11
    data = json.loads(run("odds", "l5r", "--pools", "3k2..4k2", "--tn", "15", "--json").stdout)
    assert [c["pool"] for c in data["cells"]] == ["3k2", "4k2"]
    arena = run("odds", "arena", "--skill", "10", "--json")
    assert json.loads(arena.stdout)["cells"][0]["success_fraction"] == "1/2"


def _one_error_line(result: Result) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kassen: error: "), result.stderr
    assert result.stdout == ""
    return lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "duel", "-n", "0"], "fights must be between 1 and 200000, got"),
        (["run", "duel", "-n", "999999999"], "fights must be between 1 and 200000, got"),
        (["run", "duel", "-n", "x"], "--fights: must be a whole number, got 'x'"),
        (["run", "duel"], "Missing option"),
        (["run", "duel", "-n", "5", "--jobs", "0"], "jobs must be between 1 and 256"),
        (["run", "duel", "-n", "5", "--jobs", "100000"], "jobs must be between 1 and 256"),
        (["run", "duel", "-n", "5", "--seed", "-3"], "--seed: a seed is between 0 and 2**64 - 1, not -3"),
        (["run", "duel", "-n", "5", "--seed", str(2**64)], "a seed is between 0 and 2**64 - 1"),
        (["run", "duel", "-n", "5", "--backend", "spark"], "backend is local or ray"),
        (["run", "duel", "-n", "5", "--address", "10.0.0.1:6379"], "--address goes with --backend ray"),
        (
            ["run", "duel", "-n", "5", "--backend", "ray", "--address", "127.0.0.1:1"],
            "cannot reach the Ray cluster",
        ),
        (["run", "duel", "-n", "5", "--max-actions", "0"], "max_actions must be between 1"),
        (["run", "duel", "-n", "5", "--format", "xlsx"], "--format is csv or parquet"),
        (["run", "no-such-scenario", "-n", "5"], "no bundled scenario of that name"),
        (["run", "duel", "-n", "5", "--content", "/no/such/dir"], "no such file or directory"),
        (
            ["sweep", "duel", "-n", "5", "--vary", "fighters.ryu.skil=10,12"],
            "did you mean fighters.ryu.skill",
        ),
        (["sweep", "duel", "-n", "5", "--vary", "fighters.ryu.skill"], "--vary takes PATH=V1,V2"),
        (
            [
                "sweep",
                "duel",
                "-n",
                "5",
                "--vary",
                "fighters.ryu.skill=1..30",
                "--vary",
                "fighters.ken.skill=1..30",
            ],
            "at most 400",
        ),
        (
            ["sweep", "duel", "-n", "5", "--vary", "fighters.ryu.skill=10", "--side", "north"],
            "--side 'north' is not a side of this scenario (sides: east, west)",
        ),
        (["sweep", "duel", "-n", "5", "--vary", "fighters.ryu.skill=x,y"], "no cell of the grid validates"),
        (["odds", "sengoku", "--modifiers", "0..2", "--defense", "99"], "--defense must stay within 0..60"),
        (
            ["odds", "sengoku", "--modifiers", "0..2", "--defense", "10", "--metric", "luck"],
            "--metric 'luck'",
        ),
        (["odds", "l5r", "--pools", "5k7", "--tn", "15"], "--pools"),
        (
            ["odds", "l5r", "--pools", "5k3", "--tn", "15", "--raises", "99"],
            "--raises must be between 0 and 20",
        ),
        (["odds", "arena", "--skill", "10..99"], "--skill must stay within -10..30"),
        # the side came with --target, so the message names --target
        (
            ["solve", "duel", "--vary", "fighters.ryu.skill=8..14", "--target", "nobody=0.5", "-n", "4"],
            "--target 'nobody' is not a side of this scenario (sides: east, west)",
        ),
        # a range written right but too wide is told its limits, not its form
        (
            ["odds", "sengoku", "--modifiers", "-1000000..1000000", "--defense", "10"],
            "--modifiers must stay within -50..50, not '-1000000..1000000'",
        ),
        (
            ["odds", "sengoku", "--modifiers", "0..2", "--defense", "1" * 5000],
            "--defense must stay within 0..60",
        ),
        (
            ["odds", "l5r", "--pools", "5k3..1000k3", "--tn", "15"],
            "--pools: rolled and kept go up, each 1..10",
        ),
        (
            ["sweep", "duel", "-n", "5", "--vary", "fighters.ryu.skill=1..99999999999"],
            "the range '1..99999999999' must go up and hold at most 50 values",
        ),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    assert message in _one_error_line(run(*args))


def test_nothing_is_written_in_out_on_an_error(tmp_path: Path) -> None:
    out = tmp_path / "never"
    _one_error_line(run("run", "duel", "-n", "0", "--out", str(out)))
    _one_error_line(run("sweep", "duel", "-n", "5", "--vary", "fighters.x.skill=1", "--out", str(out)))
    _one_error_line(run("odds", "sengoku", "--modifiers", "x", "--defense", "10", "--out", str(out)))
    assert not out.exists()
    file = tmp_path / "file"
    file.write_text("x")
    assert "is a file" in _one_error_line(run("run", "duel", "-n", "1", "--out", str(file)))
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("x")
    assert "holds other files" in _one_error_line(run("run", "duel", "-n", "1", "--out", str(foreign)))
    assert [p.name for p in foreign.iterdir()] == ["thesis.tex"]
    odds = tmp_path / "odds"
    assert run("odds", "arena", "--skill", "10", "--out", str(odds), "--no-plots").exit_code == 0
    assert "holds the lab's odds output, not a run's" in _one_error_line(
        run("run", "duel", "-n", "1", "--out", str(odds))
    )
    missing = tmp_path / "a" / "b"
    assert "does not exist" in _one_error_line(run("run", "duel", "-n", "1", "--out", str(missing)))
    # under a file: refused before any fight is played (it was a NotADirectoryError traceback after)
    under = file / "sub"
    assert "is a file, not a directory" in _one_error_line(run("run", "duel", "-n", "1", "--out", str(under)))
    assert "is a file, not a directory" in _one_error_line(
        run("odds", "sengoku", "--modifiers", "0", "--defense", "10", "--out", str(under))
    )
    assert file.read_text() == "x"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_shows_fights_per_second_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = _Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    with progress_bar(10, "fights", True) as advance:
        assert advance is not None
        advance(4)
        advance(6)
    text = screen.getvalue()
    assert "10/10" in text and "fights/s" in text and "left" in text
    with progress_bar(10, "fights", False) as hidden:
        assert hidden is None
    monkeypatch.setattr("sys.stderr", io.StringIO())
    with progress_bar(10, "fights", True) as not_a_terminal:
        assert not_a_terminal is None


def test_a_run_written_again_into_its_directory_leaves_no_file_of_the_earlier_run(tmp_path: Path) -> None:
    # plots and Parquet tables of seed 0 stayed beside the CSV tables of seed 100
    out = tmp_path / "o1"
    where = ("-q", "--out", str(out))
    assert run("run", "duel", "-n", "3", *where).exit_code == 0
    assert run("run", "duel", "-n", "3", *where, "--no-plots", "--format", "parquet").exit_code == 0
    assert run("run", "duel", "-n", "2", "--seed", "100", *where, "--no-plots").exit_code == 0
    names = sorted(p.name for p in out.iterdir())
    assert not [n for n in names if n.endswith((".png", ".parquet"))], names
    marker = json.loads((out / "kassen-lab.json").read_text(encoding="utf-8"))
    assert marker["seed"] == 100 and sorted([*marker["files"], "kassen-lab.json"]) == names


def test_every_side_is_listed_even_when_no_fight_ended() -> None:
    # with every fight timed out the sides vanished ("sides": {}), where a side that never won is listed
    timed_out = json.loads(run("run", "duel", "-n", "3", "--max-actions", "1", "-q", "--json").stdout)
    played = json.loads(run("run", "duel", "-n", "3", "-q", "--json").stdout)
    assert list(timed_out["sides"]) == list(played["sides"]) == ["east", "west"]
    assert all(s["wins"] == 0 for s in timed_out["sides"].values())


def test_intervals_never_leave_what_is_possible() -> None:
    # Ken deals 3 Wounds in 30 fights: the mean's interval starts at 0, not below
    result = run("run", "duel", "--fights", "30", "--json")
    assert result.exit_code == 0, result.stderr
    units = json.loads(result.stdout)["units"]
    bounds = [units[u][k]["ci95"] for u in units for k in ("wounds_dealt", "wounds_taken")]
    assert min(lo for lo, _hi in bounds) == 0.0
    assert all(0.0 <= lo <= hi for lo, hi in bounds)
    # a cell that loses every fight its baseline wins: -100 points, and its interval stops there
    result = run(
        "sweep", "duel", "--vary", "fighters.ryu.skill=6,8", "--vary", "fighters.ken.dx=10,12",
        "--fights", "10", "--side", "east", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    cells = json.loads(result.stdout)["cells"]
    diffs = [c[k] for c in cells for k in ("versus_baseline", "unpaired")]
    assert min(d["difference"] for d in diffs) == -1.0
    assert all(-1.0 <= d["ci95"][0] <= d["difference"] <= d["ci95"][1] <= 1.0 for d in diffs)
