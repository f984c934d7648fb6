"""kassen.dice.parser: every documented form, errors that name the column, limits that name the limit."""

from __future__ import annotations

import time

import pytest

from kassen.core.errors import DiceError, DiceLimitError, DiceSyntaxError
from kassen.dice import Constant, Dice, DiceLimits, Expression, Term, parse

LIMIT_NAMES = set(DiceLimits.field_names())


def terms(*items: tuple[int, Constant | Dice]) -> tuple[Term, ...]:
    return tuple(Term(sign, node) for sign, node in items)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2d10+5", terms((1, Dice(2, 10)), (1, Constant(5)))),
        ("d20-1", terms((1, Dice(1, 20)), (-1, Constant(1)))),
        ("3d6+1d4", terms((1, Dice(3, 6)), (1, Dice(1, 4)))),
        (
            "d100",
            terms(
                (1, Dice(1, 100)),
            ),
        ),
        (
            "d%",
            terms(
                (1, Dice(1, 100)),
            ),
        ),
        (
            "2d%",
            terms(
                (1, Dice(2, 100)),
            ),
        ),
        (
            "4d6kh3",
            terms(
                (1, Dice(4, 6, keep="h", keep_count=3)),
            ),
        ),
        (
            "4d6k3",
            terms(
                (1, Dice(4, 6, keep="h", keep_count=3)),
            ),
        ),
        (
            "2d10kl1",
            terms(
                (1, Dice(2, 10, keep="l", keep_count=1)),
            ),
        ),
        (
            "3d6!",
            terms(
                (1, Dice(3, 6, explode=True)),
            ),
        ),
        (
            "2d4!kh1",
            terms(
                (1, Dice(2, 4, explode=True, keep="h", keep_count=1)),
            ),
        ),
        (
            "7k3",
            terms(
                (1, Dice(7, 10, explode=True, keep="h", keep_count=3, roll_and_keep=True)),
            ),
        ),
        ("2d10 + 5", terms((1, Dice(2, 10)), (1, Constant(5)))),
        ("  2d10  -  5  ", terms((1, Dice(2, 10)), (-1, Constant(5)))),
        ("2d10\t+\t5", terms((1, Dice(2, 10)), (1, Constant(5)))),
        (
            "-2d6",
            terms(
                (-1, Dice(2, 6)),
            ),
        ),
        ("- 2d6 + 3", terms((-1, Dice(2, 6)), (1, Constant(3)))),
        (
            "+5",
            terms(
                (1, Constant(5)),
            ),
        ),
        (
            "0",
            terms(
                (1, Constant(0)),
            ),
        ),
        ("2D10+5", terms((1, Dice(2, 10)), (1, Constant(5)))),
        (
            "4D6KH3",
            terms(
                (1, Dice(4, 6, keep="h", keep_count=3)),
            ),
        ),
        (
            "2D10KL1",
            terms(
                (1, Dice(2, 10, keep="l", keep_count=1)),
            ),
        ),
        (
            "7K3",
            terms(
                (1, Dice(7, 10, explode=True, keep="h", keep_count=3, roll_and_keep=True)),
            ),
        ),
        (
            "1d1",
            terms(
                (1, Dice(1, 1)),
            ),
        ),
        (
            "10-3d6+2d8!kl1-4",
            terms((1, Constant(10)), (-1, Dice(3, 6)), (1, Dice(2, 8, True, "l", 1)), (-1, Constant(4))),
        ),
    ],
)
def test_valid_forms_parse_to_the_right_tree(text: str, expected: tuple[Term, ...]) -> None:
    expr = parse(text)
    assert isinstance(expr, Expression)
    assert expr.terms == expected
    assert expr.text == text


@pytest.mark.parametrize(
    "text",
    [
        "2d10+5",
        "d20-1",
        "3d6+1d4",
        "d%",
        "4d6k3",
        "4d6kh3",
        "2d10kl1",
        "3d6!",
        "2d4!kh1",
        "7k3",
        "-2d6+3",
        "10-3d6+2d8!kl1-4",
        "5",
        "1d1000+0",
        "3D6!KL2",
    ],
)
def test_str_round_trips_through_parse(text: str) -> None:
    expr = parse(text)
    again = parse(str(expr))
    assert again.terms == expr.terms
    assert str(again) == str(expr)


def test_str_is_canonical() -> None:
    assert str(parse("2d10+5")) == "2d10 + 5"
    assert str(parse("-d%-3")) == "-1d100 - 3"
    assert str(parse("4d6k3")) == "4d6kh3"
    assert str(parse("7K3")) == "7k3"
    assert str(parse("3d6!kl1")) == "3d6!kl1"


def test_unskilled_turns_off_explosion_on_roll_and_keep_only() -> None:
    expr = parse("7k3 + 3d6! + 2d10", unskilled=True)
    rak, exploding, plain = expr.dice_groups
    assert rak == Dice(7, 10, explode=False, keep="h", keep_count=3, roll_and_keep=True)
    assert exploding.explode  # written with '!', so it still explodes
    assert not plain.explode
    assert str(expr) == "7k3 unskilled + 3d6! + 2d10"
    assert parse("7k3").dice_groups[0].explode
    assert expr.maximum is None  # 3d6! still unbounded
    assert parse("7k3", unskilled=True).maximum == 30


def test_minimum_and_maximum() -> None:
    assert (parse("2d10+5").minimum, parse("2d10+5").maximum) == (7, 25)
    assert (parse("4d6kh3").minimum, parse("4d6kh3").maximum) == (3, 18)
    assert (parse("10-2d6").minimum, parse("10-2d6").maximum) == (-2, 8)
    assert (parse("3d6!").minimum, parse("3d6!").maximum) == (3, None)
    assert (parse("10-1d6!").minimum, parse("10-1d6!").maximum) == (None, 9)
    assert (parse("7k3").minimum, parse("7k3").maximum) == (3, None)


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("2d10+", 6, "expected a number or dice term"),
        ("2d10 +", 7, "expected a number or dice term"),
        ("2d", 3, "number of sides"),
        ("d", 2, "number of sides"),
        ("2d10kh", 7, "how many dice to keep"),
        ("4d6kh5", 6, "cannot keep 5 of 4"),
        ("4d6k0", 5, "keep at least one"),
        ("0d6", 1, "at least one die"),
        ("d0", 2, "at least one side"),
        ("1d1!", 4, "explode forever"),
        ("2x3", 2, "expected '+', '-' or the end"),
        ("2 d6", 3, "expected '+', '-' or the end"),
        ("3d6!!", 5, "expected '+', '-' or the end"),
        ("++2", 2, "expected a number or dice term"),
        ("", 1, "expected a number or dice term"),
        ("   ", 4, "expected a number or dice term"),
        ("-", 2, "expected a number or dice term"),
        ("k3", 1, "expected a number or dice term"),
        ("7k", 3, "how many dice to keep"),
        ("7k8", 3, "cannot keep 8 of 7"),
    ],
)
def test_syntax_errors_name_the_column(text: str, column: int, fragment: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    err = info.value
    assert err.column == column
    assert fragment in err.message
    assert f"at column {column}" in str(err)
    assert err.expression == text


def test_the_issue_example_message() -> None:
    with pytest.raises(DiceSyntaxError, match=r"expected a number or dice term at column 6"):
        parse("2d10+")


def test_non_text_is_a_dice_error() -> None:
    with pytest.raises(DiceSyntaxError):
        parse(42)  # type: ignore[arg-type]
    with pytest.raises(DiceSyntaxError):
        parse(None)  # type: ignore[arg-type]


# -- limits ----------------------------------------------------------------------------------------------
def _limit_of(text: str, limits: DiceLimits | None = None) -> str:
    with pytest.raises(DiceLimitError) as info:
        parse(text) if limits is None else parse(text, limits=limits)
    assert info.value.limit in LIMIT_NAMES
    return info.value.limit


def test_huge_dice_are_refused_fast_naming_a_limit() -> None:
    start = time.perf_counter()
    limit = _limit_of("1000000d1000000")
    assert time.perf_counter() - start < 0.5
    assert limit in {"max_sides", "max_dice"}


def test_many_digit_number_refused_without_converting_it() -> None:
    # With the default limits the text is already too long.
    assert _limit_of("9" * 5000) == "max_length"
    # Past the length limit, the digit limit fires before int(): Python itself refuses to convert more
    # than 4300 digits (ValueError), so a DiceLimitError here proves the digits were never converted.
    wide = DiceLimits(max_length=1_000_000)
    start = time.perf_counter()
    assert _limit_of("9" * 5000, wide) == "max_digits"
    assert _limit_of("2d" + "9" * 100_000, wide) == "max_digits"
    assert time.perf_counter() - start < 0.5
    assert _limit_of("1234567890") == "max_digits"
    assert parse("123456789").terms == terms(
        (1, Constant(123456789)),
    )


def test_over_long_text() -> None:
    assert _limit_of("1+" * 100 + "1") == "max_length"
    assert parse("2d6" + " " * 197).dice_groups == (Dice(2, 6),)  # exactly 200 characters is fine
    assert _limit_of("2d6" + " " * 198) == "max_length"


def test_term_limit() -> None:
    assert len(parse("+".join(["1"] * 40)).terms) == 40
    assert _limit_of("+".join(["1"] * 41)) == "max_terms"


def test_dice_limit_per_group_and_in_total() -> None:
    assert parse("1000d1").dice_groups[0].count == 1000
    assert _limit_of("1001d6") == "max_dice"
    assert _limit_of("1000d1+1d1") == "max_dice"
    assert len(parse("500d6+500d6+1").dice_groups) == 2
    assert _limit_of("500d6+500d6+1d6") == "max_dice"


def test_sides_limit() -> None:
    assert parse("d1000").dice_groups[0].sides == 1000
    assert _limit_of("d1001") == "max_sides"


def test_custom_limits_are_respected() -> None:
    tight = DiceLimits(max_dice=3, max_terms=2)
    assert _limit_of("4d6", tight) == "max_dice"
    assert _limit_of("1+2+3", tight) == "max_terms"
    assert parse("3d6+1", limits=tight).dice_groups[0].count == 3


def test_limit_errors_are_dice_errors() -> None:
    with pytest.raises(DiceError):
        parse("1001d6")


def test_non_ascii_look_alikes_are_not_dice_letters() -> None:
    # The Kelvin sign lower-cases to "k" in Python; it must not read as roll-and-keep.
    with pytest.raises(DiceSyntaxError) as err:
        parse("7\u212a3")
    assert err.value.column == 2
