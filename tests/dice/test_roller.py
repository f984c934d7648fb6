"""kassen.dice.roller: every die is kept in the result; keep marks, explosions and JSON."""

from __future__ import annotations

import json

import pytest

from kassen.dice import DiceLimits, DieRoll, Rng, parse, roll


def test_keep_highest_marks_and_total() -> None:
    for seed in range(200):
        result = roll("4d6kh3", Rng(seed))
        assert len(result.dice) == 4
        kept = [d for d in result.dice if d.kept]
        dropped = [d for d in result.dice if not d.kept]
        assert len(kept) == 3
        assert len(dropped) == 1
        assert result.total == sum(d.value for d in kept)
        assert min(d.value for d in kept) >= dropped[0].value
        assert result.kept == tuple(kept)


def test_keep_lowest_marks_and_total() -> None:
    for seed in range(200):
        result = roll("5d10kl2", Rng(seed))
        kept = [d for d in result.dice if d.kept]
        dropped = [d for d in result.dice if not d.kept]
        assert len(kept) == 2
        assert result.total == sum(d.value for d in kept)
        assert max(d.value for d in kept) <= min(d.value for d in dropped)


@pytest.mark.parametrize("text", ["6d4kh3", "6d4kl3", "5d6!kh2"])
def test_ties_keep_the_earlier_die(text: str) -> None:
    saw_tie = False
    for seed in range(300):
        dice = roll(text, Rng(seed)).dice
        for i, a in enumerate(dice):
            for j, b in enumerate(dice):
                if a.value == b.value and a.kept != b.kept:
                    saw_tie = True
                    kept_index, dropped_index = (i, j) if a.kept else (j, i)
                    assert kept_index < dropped_index, (seed, dice)
    assert saw_tie  # the property was really exercised


def test_keep_marks_are_deterministic() -> None:
    a = roll("8d4kh3", Rng(77))
    b = roll("8d4kh3", Rng(77))
    assert [d.kept for d in a.dice] == [d.kept for d in b.dice]
    assert a.to_json() == b.to_json()


def test_exploding_die_adds_faces_to_the_same_die() -> None:
    # Pinned: with seed 1 the third die of 3d6! shows 6, explodes and adds a 1.
    result = roll("3d6!", Rng(1))
    assert [d.faces for d in result.dice] == [(4,), (3,), (6, 1)]
    boom = result.dice[2]
    assert boom.exploded
    assert boom.value == 7
    assert boom.face == 6
    assert not result.dice[0].exploded
    assert result.total == 14
    assert boom.to_json() == {"sides": 6, "faces": [6, 1], "value": 7, "kept": True, "exploded": True}


def test_explosions_continue_only_on_the_maximum() -> None:
    exploded = 0
    for seed in range(300):
        for die in roll("4d4!", Rng(seed)).dice:
            assert len(die.faces) == 1 or all(f == 4 for f in die.faces[:-1])
            assert die.faces[-1] < 4  # far below max_explosions, so every explosion ran out by itself
            assert die.value == sum(die.faces)
            exploded += die.exploded
    assert exploded > 100  # about a quarter of 1200 dice


def test_roll_and_keep_explodes_on_ten_and_keeps_whole_dice() -> None:
    saw_explosion = False
    for seed in range(200):
        result = roll("7k3", Rng(seed))
        assert len(result.dice) == 7
        assert len(result.kept) == 3
        values = sorted((d.value for d in result.dice), reverse=True)
        assert result.total == sum(values[:3])
        for d in result.dice:
            assert d.sides == 10
            if d.exploded:
                saw_explosion = True
                assert d.faces[0] == 10
    assert saw_explosion


def test_unskilled_roll_and_keep_never_explodes() -> None:
    for seed in range(200):
        result = roll("7k3", Rng(seed), unskilled=True)
        assert not any(d.exploded for d in result.dice)
        assert result.total <= 30


def test_max_explosions_is_respected() -> None:
    limits = DiceLimits(max_explosions=2)
    result = roll("1000d2!", Rng(4), limits=limits)
    lengths = [len(d.faces) for d in result.dice]
    assert max(lengths) == 3  # at most 2 re-rolls per die, and with 1000 d2s some die needs both
    capped = [d for d in result.dice if d.faces == (2, 2, 2)]
    assert capped  # stopped by the limit while still showing the maximum
    assert all(d.value <= 6 for d in result.dice)
    unlimited = roll("1000d2!", Rng(4))
    assert max(len(d.faces) for d in unlimited.dice) > 3


def test_to_json_shape() -> None:
    result = roll("2d10+5-1d4", Rng(7))
    data = result.to_json()
    assert set(data) == {"expression", "total", "dice"}
    assert data["expression"] == "2d10 + 5 - 1d4"
    assert data["total"] == result.total
    assert len(data["dice"]) == 3
    for item in data["dice"]:
        assert set(item) == {"sides", "faces", "value", "kept", "exploded", "group", "sign"}
    assert [d["group"] for d in data["dice"]] == [0, 0, 1]
    assert [d["sign"] for d in data["dice"]] == [1, 1, -1]
    json.dumps(data)  # plain JSON types only


def test_total_is_constant_plus_signed_subtotals() -> None:
    for seed in range(100):
        result = roll("10 - 2d6 + 3d4kh2 - 1", Rng(seed))
        assert result.constant == 9
        assert result.total == result.constant + sum(g.subtotal for g in result.groups)
        assert result.groups[0].subtotal <= -2


def test_constant_only_expression() -> None:
    result = roll("-5", Rng(0))
    assert result.total == -5
    assert result.dice == ()
    assert result.groups == ()


def test_parsed_and_text_roll_identically() -> None:
    expr = parse("3d6!+1d4")
    assert roll(expr, Rng(3)).to_json() == roll("3d6!+1d4", Rng(3)).to_json()


def test_each_roll_advances_the_injected_rng() -> None:
    rng = Rng(9)
    first = roll("2d10", rng)
    second = roll("2d10", rng)
    replay = Rng(9)
    assert roll("2d10", replay).to_json() == first.to_json()
    assert roll("2d10", replay).to_json() == second.to_json()
    assert rng.state == replay.state


def test_is_double() -> None:
    def fake(faces: tuple[int, ...]) -> DieRoll:
        return DieRoll(10, faces)

    doubles = [r for r in (roll("2d10", Rng(s)) for s in range(200)) if r.is_double()]
    assert doubles
    for r in doubles:
        assert r.dice[0].face == r.dice[1].face
    assert not roll("3d10", Rng(0)).is_double()  # exactly two dice, by rule
    # The first face decides, not the exploded value.
    assert fake((10, 3)).face == fake((10, 5)).face
