"""The Fight API on the test-only coin-flip ruleset: content layers and their path-free hash, typed
dice, undo, policies whose place derives from the actions played, snapshots, and replay checks."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from kassen.content.content import ContentMismatchError
from kassen.core.codec import FormatError
from kassen.core.engine import GM, Actor
from kassen.core.errors import ContentError, IllegalActionError, KassenError, TypedDiceError
from kassen.core.fight import DiceRequest, Fight
from kassen.core.policy import FirstLegal, RandomPolicy, Scripted
from kassen.core.rng import Rng
from kassen.core.scenario import open_fight, read_scenario

SCENARIO = "coinflip/best-of-three"


@pytest.fixture
def stake_layer(tmp_path: Path) -> Path:
    layer = tmp_path / "house"
    layer.mkdir()
    (layer / "coin.yaml").write_text("stake: 2\n", "utf-8")
    return layer


def test_the_same_layer_by_relative_and_absolute_path_has_the_same_hash(
    stake_layer: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(stake_layer.parent)
    relative = open_fight(SCENARIO, content=["house"])
    absolute = open_fight(SCENARIO, content=[stake_layer.resolve()])
    assert relative.content.hash == absolute.content.hash
    assert relative.to_json()["meta"] == absolute.to_json()["meta"]
    assert relative.tables.coin.stake == 2
    assert open_fight(SCENARIO).content.hash != relative.content.hash


def test_replay_with_other_content_is_refused_naming_the_layer_and_entry(
    stake_layer: Path, tmp_path: Path
) -> None:
    fight = open_fight(SCENARIO, content=[stake_layer])
    fight.autoplay()
    data = json.loads(fight.log_json())
    with pytest.raises(ContentMismatchError, match="1 --content layer"):
        Fight.from_json(data)
    other = tmp_path / "other"
    other.mkdir()
    (other / "coin.yaml").write_text("stake: 3\n", "utf-8")
    with pytest.raises(ContentMismatchError, match=r"layer 1: coin\.stake differs"):
        Fight.from_json(data, content=[other])
    assert Fight.from_json(data, content=[stake_layer]).log_json() == fight.log_json()


def test_a_scenario_content_block_is_the_last_layer_and_replays_without_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "ruleset: coinflip\nname: Big stakes\ncontent:\n  coin: {stake: 2}\ntokens: 2\nplayers:\n"
        "  - {id: a, name: A, side: l}\n  - {id: b, name: B, side: r}\n",
        "utf-8",
    )
    fight = open_fight(path, seed=3)
    assert fight.tables.coin.stake == 2
    fight.autoplay()
    assert Fight.from_json(json.loads(fight.log_json())).log_json() == fight.log_json()


def test_content_errors_name_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "coin.yaml").write_text("faces: 2\nstake: 99\n", "utf-8")
    (bad / "extra.yaml").write_text("dice: {}\n", "utf-8")
    with pytest.raises(ContentError) as info:
        open_fight(SCENARIO, content=[bad])
    text = str(info.value)
    assert "extra.yaml:1: dice: unknown section" in text
    assert "coin.stake" in text


def test_table_dice_are_checked_recorded_and_replayed() -> None:
    fight = open_fight(SCENARIO)
    fight.apply(fight.legal_actions()[0])  # the GM begins
    before = (fight.state_id, fight.snapshot.rng)
    flip = fight.legal_actions()[0]
    for faces, words in [
        ([], "a d2 is needed"),
        ([1, 2], "2 faces were typed"),
        ([3], "3 is not one of its faces"),
    ]:
        with pytest.raises(TypedDiceError, match=words):
            fight.apply(flip, dice=faces)
        assert (fight.state_id, fight.snapshot.rng) == before
    fight.apply(flip, dice=[2])  # typed at the table: the RNG does not move
    assert fight.snapshot.rng == before[1]
    assert fight.entries[-1].faces == (2,) and fight.events[-2].data["face"] == 2
    data = json.loads(fight.log_json())
    assert data["log"][1]["dice"] == [2]
    replayed = Fight.from_json(data)
    assert replayed.log_json() == fight.log_json() and replayed.state_id == fight.state_id


def test_table_dice_mode_asks_for_each_die_and_nothing_changes_until_it_has_them() -> None:
    fight = open_fight(SCENARIO, dice="table")
    fight.apply(fight.legal_actions()[0])
    before = fight.state_id
    request = fight.play(fight.legal_actions()[0])
    assert isinstance(request, DiceRequest) and (request.sides, request.index, request.faces) == (2, 0, ())
    assert fight.pending == request and fight.state_id == before and len(fight.entries) == 1
    with pytest.raises(TypedDiceError, match="not one of its faces"):
        fight.roll([5])
    assert fight.pending == request  # a wrong face is refused and asked again
    with pytest.raises(KassenError, match="waiting for dice"):
        fight.apply(fight.legal_actions()[0])
    events = fight.roll([1])
    assert isinstance(events, tuple) and fight.pending is None and fight.entries[-1].faces == (1,)
    # a die left to the RNG: recorded as null, replayed by the same RNG position
    rng_before = fight.snapshot.rng
    assert rng_before == Rng(fight.seed).state  # typed faces never moved the RNG
    request = fight.play(fight.legal_actions()[0])
    assert isinstance(request, DiceRequest)
    fight.roll([None])
    assert fight.entries[-1].faces == (None,) and fight.snapshot.rng != rng_before
    assert Fight.from_json(json.loads(fight.log_json())).log_json() == fight.log_json()
    # undo drops a waiting action first, then steps back
    fight.play(fight.legal_actions()[0])
    assert isinstance(fight.undo(), DiceRequest) and fight.pending is None and len(fight.entries) == 3


def test_an_illegal_action_changes_nothing_and_names_its_rule() -> None:
    fight = open_fight(SCENARIO)
    before = fight.state_id
    with pytest.raises(IllegalActionError) as info:
        fight.apply({"kind": "flip", "player": "ann", "call": "heads"})
    assert info.value.rule == "CF.TURN.1" and fight.state_id == before and not fight.entries
    with pytest.raises(FormatError, match=r"action\.call"):
        fight.apply({"kind": "flip", "player": "ann", "call": "edge"})


def test_to_move_is_the_gm_then_the_players() -> None:
    fight = open_fight(SCENARIO)
    assert fight.to_move == GM
    fight.step()
    assert fight.to_move == Actor("unit", "ann", "left")


def test_the_scripted_policy_rewinds_with_undo(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "ruleset: coinflip\nname: Long\ntokens: 5\nplayers:\n  - {id: ann, name: Ann, side: l}\n"
        "  - {id: bob, name: Bob, side: r, policy: scripted, script: [heads, tails, tails, heads, tails]}\n",
        "utf-8",
    )
    fight = open_fight(path, seed=4)
    fight.autoplay()
    calls = [a.call for a in fight.history if getattr(a, "player", "") == "bob"]
    assert len(calls) >= 2 and calls == ["heads", "tails", "tails", "heads", "tails"][: len(calls)]
    while fight.entries:  # undo to the start: the script's place goes back with the actions
        fight.undo()
    fight.autoplay()
    assert [a.call for a in fight.history if getattr(a, "player", "") == "bob"] == calls


def test_scripted_cursor_counts_the_steps_found_in_order() -> None:
    assert Scripted.cursor(["a", "b", "a"], ["x", "a", "y", "a", "b"]) == 2
    assert Scripted.cursor([], ["x"]) == 0


def test_random_and_first_legal_policies_are_deterministic() -> None:
    runs = []
    for _ in range(2):
        fight = open_fight(SCENARIO, seed=9, policy=RandomPolicy())
        fight.autoplay()
        runs.append(fight.log_json())
    assert runs[0] == runs[1]
    first = open_fight(SCENARIO, seed=9, policy=FirstLegal())
    first.step()
    first.step()
    assert first.history[-1].call == "heads"  # type: ignore[attr-defined]


def test_state_id_is_the_same_for_the_same_state() -> None:
    fight = open_fight(SCENARIO)
    start = fight.state_id
    fight.step()
    assert fight.state_id != start
    fight.undo()
    assert fight.state_id == start


def test_autoplay_stops_at_its_limit() -> None:
    fight = open_fight(SCENARIO)
    with pytest.raises(KassenError, match="did not end within 2 actions"):
        fight.autoplay(max_actions=2)


def test_a_scenario_names_its_ruleset(tmp_path: Path) -> None:
    headless = tmp_path / "x.yaml"
    headless.write_text("name: X\nplayers: []\n", "utf-8")
    with pytest.raises(ContentError, match="names its ruleset"):
        read_scenario(headless)
    assert read_scenario(headless, ruleset="coinflip").ruleset == "coinflip"
    other = tmp_path / "y.yaml"
    other.write_text("ruleset: nosuch\nname: Y\n", "utf-8")
    with pytest.raises(ContentError, match="unknown ruleset 'nosuch'"):
        read_scenario(other)
    with pytest.raises(ContentError, match="no bundled scenario"):
        read_scenario("no-such-scenario")
    long = "x" * 300 + ".yaml"
    with pytest.raises(ContentError):
        read_scenario(os.path.join(str(tmp_path), long))


def test_a_gm_move_is_recorded_as_the_gms_and_replays() -> None:
    fight = open_fight("l5r/kakita-vs-hida", seed=1)
    fight.step()  # the GM begins; now a fighter is to move
    assert fight.to_move is not None and fight.to_move.kind == "unit"
    path: list[str] = []
    menu = fight.menu(gm=True)
    option = next(o for o in menu.options if o.id == "gm_end_duel")
    path.append(option.id)
    while not option.complete:
        option = fight.menu(path, gm=True).options[0]
        path.append(option.id)
    fight.choose(path, gm=True)
    entry = fight.entries[-1]
    assert entry.actor == GM and entry.out_of_turn and fight.over
    data = json.loads(fight.log_json())
    assert data["log"][-1]["by"] == "gm" and "by" not in data["log"][0]  # the GM's Begin was its turn
    replayed = Fight.from_json(data)
    assert replayed.log_json() == fight.log_json() and replayed.entries[-1].actor == GM
    bad = json.loads(fight.log_json())
    bad["log"][-1]["by"] = "kakita"
    with pytest.raises(FormatError, match=r"\.by: expected gm"):
        Fight.from_json(bad)


def test_a_fight_needs_two_sides_and_at_most_the_rulesets_units(tmp_path: Path) -> None:
    alone = tmp_path / "alone.yaml"
    alone.write_text(
        "ruleset: coinflip\nname: Alone\nplayers:\n"
        "  - {id: a, name: A, side: l}\n  - {id: b, name: B, side: l}\n",
        "utf-8",
    )
    with pytest.raises(ContentError, match="at least two sides"):
        open_fight(alone)
    import dataclasses

    import coinflip

    small = dataclasses.replace(coinflip.RULESET.info, max_units=1)
    original = coinflip.RULESET.info
    coinflip.RULESET.info = small  # type: ignore[misc]
    try:
        with pytest.raises(ContentError, match="fields at most 1"):
            open_fight(SCENARIO)
    finally:
        coinflip.RULESET.info = original  # type: ignore[misc]


def test_an_action_object_is_read_through_the_codec_once_and_then_stands_for_itself() -> None:
    fight = open_fight("duel", seed=3)
    legal = fight.legal_actions()
    # an equal copy, not the listed object: read back through the codec
    action = copy.deepcopy(legal[0])
    assert action is not legal[0]
    first = fight._typed(action)
    assert first == action
    assert fight._typed(action) is action  # its round trip gave itself: not read again
    # an object of another type is still refused, and one the codec cannot write is named
    with pytest.raises(FormatError, match="is not an action of"):
        fight._typed(object())  # type: ignore[arg-type]


def test_an_action_built_afresh_equal_to_one_read_back_is_read_through_the_codec_once() -> None:
    from dataclasses import replace

    from kassen.core.fight import state_codec
    from kassen.sengoku.battle.actions import Breath

    first = open_fight("count-example", seed=3)
    first.autoplay()
    second = open_fight("count-example", seed=4)
    codec = state_codec(second.ruleset.info.action_type)
    steps = [a for script in second.policy.scripts.values() for a in script]  # type: ignore[attr-defined]
    # the scenario's steps as a caller might build them again (its own script for a fight of its own)
    played = [copy.deepcopy(step) for step in steps if step in first.history]
    assert len(played) >= 5
    for step in played:
        assert not any(a is step for a in first.history)  # built afresh
        # its equal was read back in the first fight: known without a round trip of its own
        assert codec.knows(step)
        assert second._typed(step) is step
    # equal is not enough: a breath with False for an Aim Focus of 0 is still read, and refused
    breath = next(a for a in played if isinstance(a, Breath))
    sly = replace(breath, uses=(replace(breath.uses[0], aim=False), *breath.uses[1:]))
    assert sly == breath
    with pytest.raises(FormatError, match="aim"):
        second._typed(sly)


def test_bad_viewers_policies_paths_and_actors_are_refused_and_nothing_changes() -> None:
    from kassen.core.menu import MenuError
    from kassen.core.view import Viewer

    fight = open_fight("demo", seed=5)
    fight.step()
    before = (fight.state_id, len(fight.entries))
    refused: list[tuple[Any, type[Exception], str]] = [
        (lambda: fight.view(None), FormatError, "Viewer"),
        (lambda: fight.view("party"), FormatError, "Viewer"),
        (lambda: fight.status(None), FormatError, "Viewer"),
        (lambda: fight.menu(viewer=None), FormatError, "Viewer"),
        (lambda: fight.menu(viewer=Viewer("nope")), KassenError, "no side 'nope'"),
        (lambda: fight.menu(None), MenuError, "a path is a list"),
        (lambda: fight.menu(5), MenuError, "a path is a list"),
        (lambda: fight.choose(None), MenuError, "a path is a list"),
        (lambda: fight.step(5), FormatError, "a policy is called"),
        (lambda: fight.autoplay(5), FormatError, "a policy is called"),
        (lambda: fight.decide("first"), FormatError, "a policy is called"),
        (lambda: open_fight("demo", policy=5), FormatError, "a policy is called"),
        (lambda: fight.apply(fight.legal_actions()[0], by=5), FormatError, "an Actor"),
    ]
    for call, error, words in refused:
        with pytest.raises(error, match=words):
            call()
    assert (fight.state_id, len(fight.entries)) == before


def test_only_whoever_is_to_move_or_the_gm_takes_an_action() -> None:
    # a player acts only for their own units: an action "by" another unit is refused, unlogged
    fight = open_fight("demo", seed=5)
    fight.step()
    mover = fight.to_move
    assert mover is not None and mover.kind == "unit"
    other = next(u for u, side in fight.units().items() if side != mover.side)
    before = (fight.state_id, len(fight.entries))
    with pytest.raises(KassenError, match="only the GM acts out of turn"):
        fight.apply(fight.legal_actions()[0], by=Actor("unit", other, fight.units()[other]))
    assert (fight.state_id, len(fight.entries)) == before
    fight.apply(fight.legal_actions()[0], by=mover)  # the very actor to move: as by=None
    assert fight.entries[-1].actor == mover and not fight.entries[-1].out_of_turn


def test_a_side_sees_only_its_own_menus() -> None:
    from kassen.core.view import Viewer

    fight = open_fight("demo", seed=5)
    fight.step()
    mover = fight.to_move
    assert mover is not None and mover.side is not None
    other = next(s for s in fight.sides() if s != mover.side)
    assert fight.menu(viewer=Viewer(mover.side)).options  # its own decision
    with pytest.raises(KassenError, match="sees only its own menus"):
        fight.menu(viewer=Viewer(other))  # the other side's options tell its reserves
    with pytest.raises(KassenError, match="sees only its own menus"):
        fight.menu(gm=True, viewer=Viewer(mover.side))  # the GM's moves are the GM's
    assert fight.menu(gm=True).options


def test_faces_typed_over_several_rolls_stay_within_what_a_chronicle_reads_back() -> None:
    fight = open_fight("l5r/bridge-ambush", seed=2, dice="table")
    request = fight.step()
    assert isinstance(request, DiceRequest)
    with pytest.raises(FormatError, match="at most 1000"):
        while isinstance(request, DiceRequest):
            request = fight.roll([10])
    assert fight.pending is not None and len(fight.pending.faces) == 1000 and not fight.entries


def test_a_face_the_waiting_die_does_not_have_is_named_against_that_die() -> None:
    # a d10's 0 read "a face is between 1 and 1000": the die asked for is known
    fight = open_fight("l5r/bridge-ambush", seed=2, dice="table")
    request = fight.step()
    assert isinstance(request, DiceRequest) and request.sides == 10
    for face in (0, 11, 10**5000):
        with pytest.raises(TypedDiceError, match=r"is a d10: .* is not one of its faces"):
            fight.roll([face])
        assert fight.pending is not None and fight.pending.faces == ()
