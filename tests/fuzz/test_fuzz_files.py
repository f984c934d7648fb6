"""Fuzz the files kassen reads: mutated scenarios of every ruleset, mutated catalog layers and mutated
chronicles are accepted or refused with a KassenError (never a traceback or a hang), and a refused
chronicle given to ``kassen replay``/``resume`` writes nothing."""

from __future__ import annotations

import json
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from harness import long, quick, run_api, run_cli
from hypothesis import given
from hypothesis import strategies as st
from strategies import CHRONICLE, json_mutations, yaml_mutations

import kassen
from kassen.core.scenario import _bundled_files, bundled_scenarios
from kassen.sengoku.catalog import load_catalog

SCENARIOS = {
    f"{s.ruleset}/{s.name}": _bundled_files(s.ruleset)[s.name].read_text("utf-8") for s in bundled_scenarios()
}
CATALOG = {
    name: resources.files("kassen.sengoku.data").joinpath("catalog", name).read_text("utf-8")
    for name in ("weapons.yaml", "maneuvers.yaml", "creatures.yaml", "armor.yaml", "traits.yaml")
}


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(SCENARIOS)))
    return name, draw(yaml_mutations(SCENARIOS[name]))


@st.composite
def mutated_layers(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(CATALOG)))
    return name, draw(yaml_mutations(CATALOG[name]))


def _scenario_case(name: str, text: str, parent: Path) -> None:
    root = Path(tempfile.mkdtemp(dir=parent))
    path = root / "mutated.yaml"
    path.write_text(text, encoding="utf-8")
    fight = run_api(f"open_fight mutated {name}", lambda: kassen.open_fight(path, seed=1))
    if fight is not None:  # what opens also plays: a few actions, then its chronicle replays
        run_api(f"play mutated {name}", lambda: [fight.step() for _ in range(5) if not fight.over])
        data = fight.to_json()
        again = run_api(f"replay mutated {name}", lambda: kassen.Fight.from_json(data))
        assert again is not None and again.log_json() == fight.log_json(), name


def _layer_case(name: str, text: str, parent: Path) -> None:
    root = Path(tempfile.mkdtemp(dir=parent))
    (root / name).write_text(text, encoding="utf-8")
    run_api(f"catalog layer {name}", lambda: load_catalog([root]))


def _chronicle_case(data: Any, parent: Path) -> None:
    run_api("Fight.from_json(mutated)", lambda: kassen.Fight.from_json(data))
    root = Path(tempfile.mkdtemp(dir=parent))
    try:
        text = json.dumps(data, allow_nan=True)
    except (ValueError, UnicodeEncodeError):
        return
    (root / "chronicle.json").write_text(text, encoding="utf-8", errors="surrogatepass")
    run_cli(["replay", "chronicle.json"], root)
    code, _, _ = run_cli(["resume", "chronicle.json", "--save", "after.json"], root)
    assert code == 0 or not (root / "after.json").exists()


@quick()
@given(case=mutated_scenarios())
def test_mutated_scenarios_open_or_are_refused(case: tuple[str, str], workdir: Path) -> None:
    _scenario_case(*case, workdir)


@quick()
@given(case=mutated_layers())
def test_mutated_catalog_layers_load_or_are_refused(case: tuple[str, str], workdir: Path) -> None:
    _layer_case(*case, workdir)


@quick()
@given(data=json_mutations(CHRONICLE))
def test_mutated_chronicles_replay_or_are_refused(data: Any, workdir: Path) -> None:
    _chronicle_case(data, workdir)


@pytest.mark.slow
@long("scenario")
@given(case=mutated_scenarios())
def test_mutated_scenarios_open_or_are_refused_long(case: tuple[str, str], workdir: Path) -> None:
    _scenario_case(*case, workdir)


@pytest.mark.slow
@long("catalog")
@given(case=mutated_layers())
def test_mutated_catalog_layers_load_or_are_refused_long(case: tuple[str, str], workdir: Path) -> None:
    _layer_case(*case, workdir)


@pytest.mark.slow
@long("chronicle")
@given(data=json_mutations(CHRONICLE))
def test_mutated_chronicles_replay_or_are_refused_long(data: Any, workdir: Path) -> None:
    _chronicle_case(data, workdir)
