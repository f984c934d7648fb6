"""``Fight.autoplay`` holds Python's cyclic garbage collector off while it plays (kassen.core.collector):
the premise (a fight makes no reference cycles, for every bundled scenario and its policies) and the
promise (the collector is as it was afterwards, whatever happens, and the fight is the same fight)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from kassen.core.collector import paused
from kassen.core.policy import Decision
from kassen.core.scenario import bundled_scenarios, open_fight

SCENARIOS = [f"{s.ruleset}/{s.name}" for s in bundled_scenarios()]


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_every_bundled_scenario_is_listed() -> None:
    assert {s.split("/")[0] for s in SCENARIOS} == {"arena", "l5r", "sengoku"}
    assert len(SCENARIOS) >= 11


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_fight_leaves_no_reference_cycle(name: str, collector_on: None) -> None:
    # Played with the collector off, nothing a fight dropped is left for it: every object was freed by
    # reference counting alone. (The first fight warms the content; the next ones are measured.)
    open_fight(name, seed=100).autoplay()
    fights = [open_fight(name, seed=seed) for seed in range(3)]
    gc.collect()
    gc.disable()
    try:
        for fight in fights:
            fight.autoplay()
            assert fight.over
        del fights, fight
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0


def test_autoplay_holds_the_collector_off_and_puts_it_back(collector_on: None) -> None:
    seen: list[bool] = []
    fight = open_fight("sengoku/demo", seed=3)
    chosen = fight.policy
    assert chosen is not None

    def watching(decision: Decision[object, object]) -> object:
        seen.append(gc.isenabled())
        return chosen(decision)  # type: ignore[arg-type]

    fight.autoplay(watching)  # type: ignore[arg-type]
    assert seen and not any(seen)
    assert gc.isenabled()


def test_a_caller_who_turned_the_collector_off_keeps_it_off(collector_on: None) -> None:
    gc.disable()
    open_fight("arena/duel", seed=1).autoplay()
    assert not gc.isenabled()


def test_the_collector_is_back_when_a_policy_raises(collector_on: None) -> None:
    def broken(decision: Decision[object, object]) -> object:
        raise RuntimeError("a policy of the caller's own fails")

    fight = open_fight("l5r/first-blood", seed=1)
    with pytest.raises(RuntimeError, match="fails"):
        fight.autoplay(broken)  # type: ignore[arg-type]
    assert gc.isenabled()
    assert not fight.entries  # nothing was played


def test_nested_pauses_resume_only_at_the_outer_one(collector_on: None) -> None:
    with paused():
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block did not pause it, so it does not resume it
    assert gc.isenabled()


def test_the_fight_is_the_same_with_the_collector_on_throughout(collector_on: None) -> None:
    # autoplay's pause changes when memory is looked at, never what is played: the same log as stepping
    # the fight action by action with the collector on
    played = open_fight("sengoku/burning-temple", seed=5)
    played.autoplay()
    stepped = open_fight("sengoku/burning-temple", seed=5)
    while not stepped.over:
        assert gc.isenabled()
        stepped.step()
    assert stepped.to_json() == played.to_json()


def test_the_collector_is_back_when_autoplay_stops_for_dice_typed_at_the_table(collector_on: None) -> None:
    fight = open_fight("arena/duel", seed=2, dice="table")
    waiting = fight.autoplay()
    assert waiting is not None and fight.pending is waiting  # the first die the table must roll
    assert gc.isenabled()


def test_a_lab_batch_holds_the_collector_off_between_its_fights(
    collector_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The lab's worker pauses the collector once for the whole batch (no collection after each fight,
    # while that fight is still alive), puts it back after it, and records the same fights.
    from importlib import resources

    from kassen.lab import engine

    text = resources.files("kassen.sengoku.data").joinpath("scenarios/demo.yaml").read_text("utf-8")
    batch = engine.Batch(0, "demo", text, (), (1, 2, 3))
    original = engine.play_one
    between: list[bool] = []

    def watching(
        opener: engine.Opener, seed: int, max_actions: int | None = None, policies: Any = ()
    ) -> engine.FightRecord:
        between.append(gc.isenabled())
        return original(opener, seed, max_actions, policies)

    monkeypatch.setattr(engine, "play_one", watching)
    records = engine.play_batch(batch)
    assert between == [False, False, False]
    assert gc.isenabled()
    monkeypatch.setattr(engine, "play_one", original)
    opener = engine.opener_for(batch)
    assert records == [original(opener, seed) for seed in batch.seeds]


def test_what_a_run_made_goes_to_the_oldest_generation(collector_on: None) -> None:
    # Resuming does not leave the fight's history young, for a collection to walk at the next allocation
    # (the run made hundreds of thousands of objects; the young generation's count starts again).
    open_fight("sengoku/demo", seed=1).autoplay()
    gc.collect()
    fight = open_fight("sengoku/demo", seed=2)
    fight.autoplay()
    young, middle, _ = gc.get_count()
    assert young < 100 and middle == 0
    assert gc.get_freeze_count() == 0  # nothing left frozen
    assert gc.isenabled() and fight.over


def test_a_callers_frozen_objects_stay_frozen(collector_on: None) -> None:
    kept = [object()]
    gc.freeze()
    try:
        assert not any(o is kept for o in gc.get_objects())  # frozen: in no generation
        open_fight("arena/duel", seed=1).autoplay()
        assert gc.get_freeze_count() > 0
        assert not any(o is kept for o in gc.get_objects())  # not thawed by the run
    finally:
        gc.unfreeze()
    assert any(o is kept for o in gc.get_objects())
