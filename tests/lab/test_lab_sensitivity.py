"""`kassen lab sensitivity`: SALib's Morris and Sobol' estimates over scenarios that share their seeds
rank a path that decides the fight above one that cannot change it."""

from __future__ import annotations

from pathlib import Path

import pytest
from labflip import one_flip
from typer.testing import CliRunner

from kassen import lab
from kassen.cli.main import app
from kassen.lab.sensitivity import Effect, Method, SensitivityResult, sensitivity

pytest.importorskip("SALib", reason="the lab extra (make test installs it)")
#: The coin's faces decide Ann's chance (1/faces); the stake cannot matter when one token is all each has.
VARY = ["content.coin.faces=2..6", "content.coin.stake=1..4"]


def test_morris_ranks_what_decides_the_fight_first(coinflip: None, tmp_path: Path) -> None:
    result = sensitivity(one_flip(tmp_path), VARY, fights=200, side="left", trajectories=6, seed=1)
    faces, stake = result.effects
    assert faces.path == "content.coin.faces" and stake.path == "content.coin.stake"
    assert stake.mu_star == 0.0  # the same seeds, and the stake changes nothing: exactly no effect
    assert faces.mu_star is not None and faces.mu_star > 0.2 and faces.mu is not None and faces.mu < 0
    assert result.sentence().startswith("coin.faces matters most")
    assert result.points <= 6 * 3  # trajectories x (paths + 1), repeats played once
    again = sensitivity(one_flip(tmp_path), VARY, fights=200, side="left", trajectories=6, seed=1)
    assert again.to_json() == result.to_json()  # the same seed, the same design and answer


def test_sobol_gives_the_variance_to_the_faces(coinflip: None, tmp_path: Path) -> None:
    result = sensitivity(one_flip(tmp_path), VARY, fights=100, side="left", method="sobol", samples=8)
    faces, stake = result.effects
    assert faces.path == "content.coin.faces" and faces.st is not None and faces.st > 0.5
    assert stake.st is not None and abs(stake.st) < 0.05


def test_the_sensitivity_command_writes_a_ranked_report(coinflip: None, tmp_path: Path) -> None:
    out = tmp_path / "sens"
    result = CliRunner().invoke(
        app,
        ["lab", "sensitivity", str(one_flip(tmp_path)), *[w for v in VARY for w in ("--vary", v)],
         "--fights", "60", "--trajectories", "4", "--side", "left", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "1. content.coin.faces" in result.stdout
    names = {p.name for p in out.iterdir()}
    assert {"sensitivity.json", "effects.csv", "design.csv", "sensitivity.png", "report.html"} <= names


def test_bad_sensitivity_options_are_refused(coinflip: None, tmp_path: Path) -> None:
    flip = one_flip(tmp_path)
    for vary, options, message in [
        (VARY[:1], {}, "2 to 12 paths"),
        ([VARY[0], VARY[0]], {}, "twice"),
        (VARY, {"method": "fast"}, "morris or sobol"),
        (VARY, {"trajectories": 1}, "trajectories"),
        (["content.coin.faces=2..6", "content.coin.nope=1..2"], {}, "nope"),
    ]:
        with pytest.raises(lab.LabError, match=message):
            sensitivity(flip, vary, fights=10, **options)


def _ranked(method: Method, sizes: list[float]) -> SensitivityResult:
    paths = [f"fighters.ryu.{p}" for p in ("skill", "dx", "ht")[: len(sizes)]]
    if method == "morris":
        effects = [
            Effect(p, 8, 14, mu_star=x, mu_star_conf=0.05, mu=x, sigma=0.1)
            for p, x in zip(paths, sizes, strict=True)
        ]
    else:
        effects = [
            Effect(p, 8, 14, s1=x, s1_conf=0.05, st=x, st_conf=0.05)
            for p, x in zip(paths, sizes, strict=True)
        ]
    return SensitivityResult(
        "Arena duel",
        "duel",
        "east",
        "Ryu",
        method,
        10,
        0,
        40,
        tuple(effects),
    )


@pytest.mark.parametrize("method", ["morris", "sobol"])
def test_the_sentence_names_each_path_once_however_many_there_are(method: Method) -> None:
    two = _ranked(method, [0.6, 0.412]).sentence()
    assert two.startswith("ryu.skill matters most") and "then ryu.dx" in two
    assert "least" not in two and two.count("ryu.dx") == 1  # the second of two is not also "the least"
    three = _ranked(method, [0.6, 0.412, 0.05]).sentence()
    assert "least ryu.ht" in three and three.count("ryu.ht") == 1
    assert ("then ryu.dx" in three) == (method == "morris")  # Sobol' names the most and the least
