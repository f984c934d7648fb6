"""Who may know a fight's seed (docs/core.md, "Seeds: who may know them"): a scenario's own seed is
public, so a table plays on 64 fresh random bits unless a seed is typed; a designer's run by name keeps
the scenario's seed; the chronicle records the seed used; and nothing a side receives is computed from
the seed (the view id of a side is the same whatever the seed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kassen
from kassen.cli.main import app
from kassen.core.fight import Fight
from kassen.core.rng import fresh_seed
from kassen.core.scenario import _bundled_files
from kassen.core.view import GM_VIEW, Viewer

runner = CliRunner()


def test_fresh_seeds_are_64_random_bits() -> None:
    seeds = {fresh_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= s < 2**64 for s in seeds)
    assert max(seeds) >= 2**60  # 64 draws all below 2**60 would have a chance of 2**-256


def test_open_fight_keeps_a_stated_seed_and_draws_one_otherwise(tmp_path: Path) -> None:
    assert kassen.open_fight("arena/duel").seed == 7  # the scenario states seed: 7 (a designer's run)
    assert kassen.open_fight("arena/duel", seed=3).seed == 3
    text = _bundled_files("arena")["duel"].read_text("utf-8")
    unseeded = tmp_path / "unseeded.yaml"
    unseeded.write_text("\n".join(x for x in text.splitlines() if not x.startswith("seed:")), "utf-8")
    a, b = kassen.open_fight(unseeded), kassen.open_fight(unseeded)
    assert a.seed != b.seed
    a.autoplay()
    assert a.to_json()["seed"] == a.seed and Fight.from_json(a.to_json()).seed == a.seed


def test_kassen_play_never_plays_on_the_scenarios_seed(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "arena/duel", "--save", str(save)], input="1\n" * 200)
    assert result.exit_code == 0, result.stderr
    assert "a fresh random seed" in result.stdout.splitlines()[0]
    seed = json.loads(save.read_text("utf-8"))["seed"]
    assert seed != 7 and str(seed) not in result.stdout  # never shown at the table
    typed = ["play", "arena/duel", "--seed", "12", "--save", str(save)]
    result = runner.invoke(app, typed, input="1\n" * 200)
    assert result.exit_code == 0 and "(seed 12;" in result.stdout
    assert json.loads(save.read_text("utf-8"))["seed"] == 12


@pytest.mark.parametrize("scenario", ["arena/duel", "l5r/kakita-vs-hida", "sengoku/count-example"])
def test_a_sides_view_id_holds_nothing_of_the_seed(scenario: str) -> None:
    """The same fight on two seeds, the same action played with the same typed dice: every side's
    view id is equal (it is computed from what the side sees), the GM's state ids differ (they hash the
    seed), and the id moves with every action."""
    a = kassen.open_fight(scenario, seed=123457, dice="table")
    b = kassen.open_fight(scenario, seed=fresh_seed(), dice="table")
    sides = a.sides()
    before = {s: a.view_id(Viewer(s)) for s in sides}
    assert before == {s: b.view_id(Viewer(s)) for s in sides}
    assert a.view_id(GM_VIEW) != b.view_id(GM_VIEW)
    action = a.legal_actions()[0]
    for fight in (a, b):
        done = fight.play(action)
        while not isinstance(done, tuple):
            done = fight.roll([1])
    after = {s: a.view_id(Viewer(s)) for s in sides}
    assert after == {s: b.view_id(Viewer(s)) for s in sides}
    assert all(after[s] != before[s] for s in sides)
    for s in sides:
        assert str(a.seed) not in json.dumps(a.view(Viewer(s)))
