"""kassen.dice.exact: hand-checkable values, the exploding-cap exactness claim, and refusals."""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any

import icepool
import pytest

from kassen.core.errors import DiceError, DiceLimitError
from kassen.dice import (
    DEFAULT_TOLERANCE,
    DiceLimits,
    Distribution,
    Rng,
    at_least,
    distribution,
    enumerate_faces,
    parse,
    probability_at_least,
    roll,
)

# -- hand-checkable values -------------------------------------------------------------------------------


def test_two_d10_at_least_eleven() -> None:
    assert at_least("2d10", 11) == Fraction(55, 100)


def test_doubles_on_two_d10_by_enumeration() -> None:
    cases = list(enumerate_faces(2, 10))
    assert len(cases) == 100
    doubles = sum(1 for a, b in cases if a == b)
    assert Fraction(doubles, len(cases)) == Fraction(1, 10)


def test_doubles_on_two_d10_by_rolling() -> None:
    rng = Rng(2024)
    n = 20_000
    hits = sum(roll("2d10", rng).is_double() for _ in range(n))
    se = math.sqrt(0.1 * 0.9 / n)
    assert abs(hits / n - 0.1) < 4 * se


def test_three_d6_at_most_ten_is_one_half() -> None:
    table = distribution("3d6")
    assert isinstance(table, Distribution)
    assert table.at_most(10) == Fraction(1, 2)
    assert table.at_least(11) == Fraction(1, 2)
    assert table.exact


def test_roll_and_keep_seven_keep_three_at_least_25_is_exact() -> None:
    table = probability_at_least("7k3", 25)
    assert table.error_bound == 0
    assert table.at_least(25) == Fraction(60154863, 10**8)
    assert at_least("7k3", 25) == Fraction(60154863, 10**8)


def test_small_tables() -> None:
    table = distribution("2d6")
    assert table.equal(7) == Fraction(1, 6)
    assert table.equal(13) == 0
    assert table.mean == 7
    assert (table.minimum, table.maximum) == (2, 12)
    assert sum(table.probabilities.values()) == 1
    assert distribution("4d6kh3").mean == Fraction(15869, 1296)
    assert distribution("2d20kl1").equal(1) == Fraction(39, 400)
    assert distribution("10-1d6").probabilities == {o: Fraction(1, 6) for o in range(4, 10)}
    assert distribution("5").probabilities == {5: Fraction(1)}


def test_targets_outside_the_range() -> None:
    assert at_least("2d6+1", 3) == 1
    assert at_least("2d6+1", -100) == 1
    assert at_least("2d6+1", 14) == 0
    assert at_least("3d6!", 3) == 1
    assert at_least("3d6!", -5) == 1


def test_to_json() -> None:
    data = distribution("1d4").to_json()
    assert data == {"outcomes": {"1": "1/4", "2": "1/4", "3": "1/4", "4": "1/4"}, "error_bound": 0.0}


# -- exploding dice: the cap is exact for P(total >= T) -------------------------------------------------

DEEP = 30


def _deep(expr_text: str) -> Any:
    """The same expression built directly in icepool with a much deeper explosion (depth 30): its
    truncation error is below 4 * 4^-31 < 1e-18 for the cases here."""
    if expr_text == "3d6!":
        die = icepool.d(6).explode(depth=DEEP)
        return die + die + die
    if expr_text == "2d4!kh1":
        return icepool.d(4).explode(depth=DEEP).pool(2).highest(1).sum()
    if expr_text == "4k2":
        return icepool.d(10).explode(depth=DEEP).pool(4).highest(2).sum()
    if expr_text == "1d6!+2":
        return icepool.d(6).explode(depth=DEEP) + 2
    raise AssertionError(expr_text)


def _deep_at_least(die: Any, target: int) -> Fraction:
    denominator = die.denominator()
    return Fraction(sum(q for o, q in die.items() if o >= target), denominator)


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("3d6!", [3, 10, 18, 19, 25, 40]),
        ("2d4!kh1", [1, 4, 5, 9, 13, 20]),
        ("4k2", [2, 15, 20, 21, 30, 45]),
        ("1d6!+2", [3, 8, 9, 14, 21, 30]),
    ],
)
def test_exploding_cap_is_exact_for_at_least(text: str, targets: list[int]) -> None:
    deep = _deep(text)
    for target in targets:
        table = probability_at_least(text, target)
        assert table.error_bound == 0
        exact = table.at_least(target)
        assert abs(exact - _deep_at_least(deep, target)) < Fraction(1, 10**20), (text, target)


@pytest.mark.parametrize("text", ["3d6!", "2d4!kh1", "4k2", "1d6!+2", "7k3", "10-1d6!"])
def test_exploding_tables_sum_to_one_within_the_tolerance(text: str) -> None:
    table = distribution(text)
    assert sum(table.probabilities.values()) == 1
    assert 0 < table.error_bound <= DEFAULT_TOLERANCE
    assert not table.exact


def test_exploding_table_is_close_to_the_deep_one() -> None:
    table = distribution("3d6!")
    deep = _deep("3d6!")
    for target in (3, 10, 18, 30, 60):
        assert abs(table.at_least(target) - _deep_at_least(deep, target)) <= table.error_bound


def test_subtracted_explosion_is_approximate_but_bounded() -> None:
    table = probability_at_least("10-1d6!", 2)
    assert 0 < table.error_bound <= DEFAULT_TOLERANCE
    deep = 10 - icepool.d(6).explode(depth=DEEP)
    assert abs(table.at_least(2) - _deep_at_least(deep, 2)) <= table.error_bound


def test_custom_tolerance() -> None:
    loose = distribution("3d6!", tolerance=Fraction(1, 100))
    tight = distribution("3d6!")
    assert loose.error_bound <= Fraction(1, 100)
    assert loose.maximum < tight.maximum
    with pytest.raises(ValueError):
        distribution("3d6!", tolerance=Fraction(0))  # used to loop forever


def test_unskilled_option() -> None:
    assert at_least("7k3", 31, unskilled=True) == 0
    assert at_least("7k3", 31) > 0
    assert distribution("2k1", unskilled=True).maximum == 10


# -- enumerate_faces ------------------------------------------------------------------------------------


def test_enumerate_faces() -> None:
    faces = list(enumerate_faces(3, 6))
    assert len(faces) == 216
    assert len(set(faces)) == 216
    assert faces[0] == (1, 1, 1)
    assert faces[-1] == (6, 6, 6)
    assert sum(1 for f in faces if sum(f) <= 10) == 108  # 3d6 <= 10 again, the long way
    with pytest.raises(DiceLimitError) as err:
        enumerate_faces(7, 10)
    assert err.value.limit == "max_enumerated_faces"
    assert err.value.limit in set(DiceLimits.field_names())
    with pytest.raises(DiceLimitError):
        enumerate_faces(0, 6)
    assert len(list(enumerate_faces(3, 6, limits=DiceLimits(max_enumerated_faces=216)))) == 216


# -- abusive but valid exact requests: refused at once, or computed quickly ------------------------------

LIMIT_NAMES = {"max_exact_work", "max_exact_pool", "max_exact_die_outcomes"}


@pytest.mark.parametrize(
    ("text", "target", "limit"),
    [
        ("1000d1000", 5, "max_exact_work"),  # was hours of convolution (and a RecursionError)
        ("1000d2", 5, "max_exact_work"),  # was a RecursionError from icepool
        ("30d1000kh3", 5, "max_exact_work"),  # was about 7 seconds
        ("2d1000kh1", 5, "max_exact_work"),  # was a RecursionError from icepool
        ("10d1000", 5, "max_exact_work"),  # was about 10 seconds
        ("31d6kh3", 5, "max_exact_pool"),
        ("40d10!", 5, "max_exact_pool"),
    ],
)
def test_huge_exact_tables_are_refused_at_once(text: str, target: int, limit: str) -> None:
    start = time.perf_counter()
    with pytest.raises(DiceLimitError) as info:
        at_least(text, target)
    assert time.perf_counter() - start < 0.1
    assert info.value.limit == limit
    with pytest.raises(DiceLimitError):
        distribution(text)


@pytest.mark.parametrize(
    ("text", "target", "error_bound"),
    [
        ("7k3", 100_000, True),  # cap too deep: tolerance fallback, answer 0 within 1e-13
        ("7k3", 1500, True),  # was a RecursionError (a 1350-outcome die in a pool)
        ("7k3", 200, False),  # exact: a 200-outcome cap still fits the work limit
        ("7k3", 100, False),
        ("1d2!", 1900, True),  # was 1.3 s
        ("10k10", 60, False),
        ("40d6", 100, False),
        ("1d1000", 5, False),
    ],
)
def test_large_targets_are_computed_within_their_bound(text: str, target: int, error_bound: bool) -> None:
    # how fast is make bench's to measure (CPU time, never a timed unit test): here, that each answers at all
    table = probability_at_least(text, target)
    p = table.at_least(target)
    assert 0 <= p <= 1
    assert (table.error_bound > 0) == error_bound
    assert table.error_bound <= DEFAULT_TOLERANCE


def test_seven_keep_three_at_least_100000() -> None:
    table = probability_at_least("7k3", 100_000)
    assert table.at_least(100_000) <= table.error_bound  # the true value is below 10^-9000
    assert 0 < table.error_bound <= DEFAULT_TOLERANCE


def test_work_limit_is_a_dice_limits_field() -> None:
    assert DiceLimits().max_exact_work > 0
    roomy = DiceLimits(max_exact_work=10**7)
    assert at_least("2d1000", 1001, limits=roomy) == Fraction(1, 2) + Fraction(1, 2000)
    with pytest.raises(DiceLimitError) as info:
        at_least("2d1000", 1001)
    assert info.value.limit in LIMIT_NAMES
    assert isinstance(info.value, DiceError)


def test_refusal_names_the_limit_in_the_message() -> None:
    with pytest.raises(DiceLimitError, match=r"limit is 1,000,000"):
        at_least(parse("1000d1000"), 5)
