"""`kassen fight` and `kassen replay` round-trip for every bundled scenario of every ruleset, and a
chronicle altered or malformed in any way exits 2 with one line and no traceback."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.scenario import bundled_scenarios

runner = CliRunner()
BUNDLED = [f"{s.ruleset}/{s.name}" for r in ("sengoku", "l5r", "arena") for s in bundled_scenarios(r)]


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("seed", ["3", "11"])
@pytest.mark.parametrize("scenario", BUNDLED)
def test_fight_then_replay_is_identical(scenario: str, seed: str, tmp_path: Path) -> None:
    code, out, err = run("fight", scenario, "--seed", seed, "--json")
    assert code == 0, err
    path = tmp_path / "log.json"
    path.write_text(out, "utf-8")
    code, out, err = run("replay", str(path))
    assert code == 0, err
    assert out.startswith("identical:") and out.count("\n") == 1


def _demo_log() -> dict[str, Any]:
    code, out, _ = run("fight", "sengoku/count-example", "--seed", "2", "--json")
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


def _arena_state() -> Any:
    _, out, _ = run("fight", "arena/duel", "--seed", "2", "--json")
    return json.loads(out)["initial_state"]


TAMPERING: dict[str, Callable[[dict[str, Any]], Any]] = {
    "seed": lambda d: d.update(seed=d["seed"] + 1),
    "dice": lambda d: d["log"][1]["events"].__setitem__(0, {**d["log"][1]["events"][0], "rule": "SG.X.1"}),
    "typed dice": lambda d: d["log"][1].update(dice=[10, 10]),
    "result": lambda d: d["result"].update(winner="yoma"),
    "meta": lambda d: d["meta"].update(scenario="Another fight", extra=1),
    "content hash": lambda d: d["meta"]["content"].update(hash="0" * 64),
    "a missing key": lambda d: d.pop("initial_state"),
    "a wrong type": lambda d: d.update(log={"0": {}}),
    "a huge number": lambda d: d.update(seed=10**30),
    "a huge state number": lambda d: d["initial_state"]["units"][0].update(wounds=10**40),
    "deep nesting": lambda d: d["meta"].update(notes=json.loads("[" * 500 + "]" * 500)),
    "another ruleset's state": lambda d: d.update(initial_state=_arena_state()),
    "a changed initial state": lambda d: d["initial_state"].update(name="Renamed"),
    "a state id": lambda d: d["log"][-1].update(state_id="0" * 20),
    "an unknown action kind": lambda d: d["log"][1]["action"].update(kind="teleport"),
    "an old format": lambda d: d.pop("format"),
}


@pytest.mark.parametrize("name", list(TAMPERING))
def test_an_altered_or_malformed_chronicle_exits_2_with_one_line(name: str, tmp_path: Path) -> None:
    data = copy.deepcopy(_demo_log())
    TAMPERING[name](data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), "utf-8")
    code, out, err = run("replay", str(path))
    assert code == 2, (name, out, err)
    assert err.startswith("kassen: error:") and err.count("\n") == 1 and "Traceback" not in err, (name, err)


def test_replay_with_the_wrong_content_names_what_differs(tmp_path: Path) -> None:
    layer = tmp_path / "house"
    layer.mkdir()
    (layer / "tweak.yaml").write_text("checks:\n  contest:\n    tie_winner: first\n", "utf-8")
    code, out, _ = run("fight", "arena/duel", "--seed", "2", "--json", "--content", str(layer))
    assert code == 0
    path = tmp_path / "log.json"
    path.write_text(out, "utf-8")
    code, _, err = run("replay", str(path))
    assert code == 2 and "1 --content layer" in err
    code, out, err = run("replay", str(path), "--content", str(layer))
    assert code == 0, err
