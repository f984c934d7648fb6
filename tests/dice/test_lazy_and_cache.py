"""Rolls build their dice objects only on demand, and exact tables are kept in a bounded, owned cache:
both must give exactly what the eager, uncached code gave."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kassen.core.errors import DiceLimitError
from kassen.core.rng import Rng, ScriptedDice
from kassen.dice import (
    DiceLimits,
    DieRoll,
    GroupRoll,
    RollResult,
    at_least,
    parse,
    probability_at_least,
    roll,
)
from kassen.dice.ast import Constant
from kassen.dice.exact import EXACT_CACHE, ExactCache


def eager(text: str, faces: list[int]) -> RollResult:
    """The roll of ``text`` on ``faces``, built by hand the way the eager roller built it (no keeping,
    no explosions: each face is one die)."""
    expr = parse(text)
    dice = iter(faces)
    groups = []
    constant = 0
    for term in expr.terms:
        node = term.node
        if isinstance(node, Constant):
            constant += term.sign * node.value
            continue
        rolled = tuple(DieRoll(node.sides, (next(dice),)) for _ in range(node.count))
        groups.append(GroupRoll(node, term.sign, rolled))
    total = sum(g.subtotal for g in groups) + constant
    return RollResult(expr, total, tuple(groups), constant)


@pytest.mark.parametrize(
    ("text", "faces"),
    [("2d10+5", [3, 9]), ("3d6-2", [1, 6, 6]), ("1d20 - 1d4 + 3", [17, 2]), ("7", [])],
)
def test_a_lazy_roll_equals_the_eager_record(text: str, faces: list[int]) -> None:
    lazy = roll(text, ScriptedDice(faces))
    built = eager(text, faces)
    assert lazy.total == built.total
    assert lazy == built and hash(lazy) == hash(built)
    assert lazy.groups == built.groups
    assert repr(lazy) == repr(built)
    assert lazy.to_json() == built.to_json()


def test_is_double_reads_the_same_before_and_after_the_dice_are_built() -> None:
    # rule: SG.CHK.2 (a double: exactly two dice showing the same face)
    for seed in range(100):
        fresh, built = roll("2d10", Rng(seed)), roll("2d10", Rng(seed))
        _ = built.dice  # builds the objects
        assert fresh.is_double() == built.is_double() == (built.dice[0].face == built.dice[1].face)
    exploded = roll("2d10!", ScriptedDice([10, 3, 10, 5]))
    assert exploded.is_double()  # the first faces decide, not the exploded values
    assert [d.faces for d in exploded.dice] == [(10, 3), (10, 5)]


def test_kept_and_exploded_dice_survive_the_lazy_record() -> None:
    result = roll("4d6!kh2", ScriptedDice([6, 2, 1, 5, 3]))
    assert [d.faces for d in result.dice] == [(6, 2), (1,), (5,), (3,)]
    assert [d.kept for d in result.dice] == [True, False, True, False]
    assert result.total == 8 + 5


def test_a_roll_result_is_read_only() -> None:
    result = roll("2d10", Rng(1))
    with pytest.raises(AttributeError):
        result.total = 3  # type: ignore[misc]


def test_the_plan_is_not_part_of_an_expressions_value() -> None:
    assert parse("2d10+5") == parse("2d10 + 5".replace(" ", "")) and "_plan" not in repr(parse("2d10"))


def test_exact_cache_is_bounded_and_drops_the_least_recently_used() -> None:
    cache = ExactCache(maxsize=2)
    built: list[str] = []

    def make(value: str) -> str:
        built.append(value)
        return value

    assert cache.get("a", lambda: make("A")) == "A"
    assert cache.get("b", lambda: make("B")) == "B"
    assert cache.get("a", lambda: make("A again")) == "A"  # a hit: not rebuilt, now the newest
    assert cache.get("c", lambda: make("C")) == "C"  # over the bound: "b" goes
    assert len(cache) == 2
    assert cache.get("b", lambda: make("B again")) == "B again"
    assert built == ["A", "B", "C", "B again"]
    assert (cache.hits, cache.misses) == (1, 4)
    with pytest.raises(ValueError):
        ExactCache(maxsize=0)


def test_cached_answers_equal_fresh_ones() -> None:
    questions = [("10k10", 60), ("2d10", 11), ("7k3", 25), ("3d6+2", 12), ("4d6kh3", 15)]
    first = [at_least(text, target) for text, target in questions]
    EXACT_CACHE.clear()
    fresh = [at_least(text, target) for text, target in questions]
    again = [at_least(text, target) for text, target in questions]
    assert first == fresh == again
    assert EXACT_CACHE.hits >= len(questions)
    assert fresh[1] == Fraction(11, 20)
    # the table behind an answer reads the same answer
    assert probability_at_least("10k10", 60).at_least(60) == fresh[0]


def test_refusals_are_never_cached() -> None:
    EXACT_CACHE.clear()
    for _ in range(2):
        with pytest.raises(DiceLimitError):
            at_least("1000d1000", 5)
    assert len(EXACT_CACHE) == 0
    with pytest.raises(TypeError):
        at_least("2d10", 11, tolrance=Fraction(1, 10))


def test_the_shared_cache_stays_within_its_bound() -> None:
    for sides in range(2, 40):
        for target in range(2, 30):
            at_least(f"2d{sides}", target)
    assert len(EXACT_CACHE) <= EXACT_CACHE.maxsize


def icepool_table(text: str, depths: dict[int, int]) -> dict[int, Fraction]:
    """The table of a sum of plain or exploding groups as icepool computes it (the former backend),
    each exploding term ``i`` exploded to ``depths[i]``."""
    import icepool

    total = icepool.Die([0])
    for i, term in enumerate(parse(text).terms):
        node = term.node
        if isinstance(node, Constant):
            total = total + term.sign * node.value
            continue
        die = icepool.d(node.sides)
        if node.explode:
            die = die.explode(depth=depths[i])
        group = die
        for _ in range(node.count - 1):
            group = group + die
        total = total + (group if term.sign > 0 else -group)
    return {int(o): Fraction(q, total.denominator()) for o, q in total.items()}


@pytest.mark.parametrize(
    ("text", "target"),
    [("3d6+2", 12), ("2d10-1d4", 5), ("1d20-1d20", 0), ("4d6!", 30), ("10k10", 60), ("2d6!+1d8!-3", 25)],
)
def test_integer_sums_equal_icepools_tables(text: str, target: int) -> None:
    from kassen.dice.exact import _target_caps

    expr = parse(text)
    caps = _target_caps(expr, target, Fraction(1, 10**13), DiceLimits())
    expected = icepool_table(text, {i: cap.depth for i, cap in caps.items()})
    table = probability_at_least(text, target)
    assert dict(table.probabilities) == expected
    assert at_least(text, target) == sum((p for o, p in expected.items() if o >= target), Fraction(0))
