"""kassen.core.errors: one hierarchy, stable codes, messages that say where."""

from __future__ import annotations

import pytest

from kassen.core.errors import (
    ContentError,
    ContentIssue,
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    IllegalActionError,
    KassenError,
)


@pytest.mark.parametrize(
    ("cls", "code"),
    [
        (KassenError, "kassen"),
        (DiceError, "dice"),
        (DiceSyntaxError, "dice.syntax"),
        (DiceLimitError, "dice.limit"),
        (IllegalActionError, "illegal_action"),
        (ContentError, "content"),
    ],
)
def test_every_error_is_a_kassen_error_with_a_stable_code(cls: type[KassenError], code: str) -> None:
    assert issubclass(cls, KassenError)
    assert issubclass(cls, ValueError)  # callers that only know ValueError still catch it
    assert cls.code == code


def test_dice_errors_share_one_base() -> None:
    assert issubclass(DiceSyntaxError, DiceError)
    assert issubclass(DiceLimitError, DiceError)
    assert not issubclass(IllegalActionError, DiceError)


def test_dice_error_message_names_column_and_expression() -> None:
    err = DiceSyntaxError("expected a number or dice term", "2d10+", 6)
    assert err.message == "expected a number or dice term"
    assert err.expression == "2d10+"
    assert err.column == 6
    assert str(err) == "expected a number or dice term at column 6 in '2d10+'"


def test_dice_error_without_column_or_expression() -> None:
    assert str(DiceError("too many dice")) == "too many dice"
    assert str(DiceError("too many dice", "9d9")) == "too many dice in '9d9'"
    assert DiceError("x").column is None


def test_long_expressions_are_shortened_in_the_message() -> None:
    text = "1+" * 100
    err = DiceSyntaxError("bad", text, 3)
    assert err.expression == text  # the full text is kept on the object
    assert "..." in str(err)
    assert len(str(err)) < 100


def test_dice_limit_error_names_its_limit() -> None:
    err = DiceLimitError("1001 dice", "1001d6", 1, limit="max_dice")
    assert err.limit == "max_dice"
    assert err.column == 1
    assert "1001 dice" in str(err)


def test_illegal_action_error_names_its_rule() -> None:
    err = IllegalActionError("cannot attack twice", rule="SG.ACT.1")
    assert err.rule == "SG.ACT.1"
    assert str(err) == "cannot attack twice (SG.ACT.1)"


def test_content_error_reports_every_issue() -> None:
    one = ContentIssue("a.yaml", "name", "missing", line=3)
    two = ContentIssue("b.yaml", "grade", "not a number")
    assert str(one) == "a.yaml:3: name: missing"
    assert str(two) == "b.yaml: grade: not a number"
    single = ContentError(one)
    assert single.issues == [one]
    assert str(single) == "a.yaml:3: name: missing"
    both = ContentError([one, two])
    assert both.issues == [one, two]
    assert str(both).startswith("2 problems: ")
    assert "a.yaml:3" in str(both)
    assert "b.yaml" in str(both)
