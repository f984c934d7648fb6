"""Fuzz the dice grammar: any text is parsed or refused with a DiceError (a KassenError), and what parses
rolls a total within the expression's own bounds and has an exact chance between 0 and 1."""

from __future__ import annotations

from fractions import Fraction

import pytest
from harness import long, quick, run_api
from hypothesis import given
from hypothesis import strategies as st
from strategies import dice_texts

from kassen.dice import Rng, parse, probability_at_least, roll


def _case(text: str, seed: int, target: int) -> None:
    expr = run_api(f"parse {text!r}", lambda: parse(text))
    if expr is None:
        return
    result = run_api(f"roll {text!r}", lambda: roll(expr, Rng(seed)))
    if result is not None:
        low, high = expr.minimum, expr.maximum
        assert low is None or result.total >= low, (text, result.total, low)
        assert high is None or result.total <= high, (text, result.total, high)
    table = run_api(f"at_least {text!r} {target}", lambda: probability_at_least(expr, target))
    if table is not None:
        p = table.at_least(target)
        assert isinstance(p, Fraction) and 0 <= p <= 1, (text, target, p)


SEEDS = st.integers(0, 2**64 - 1)
TARGETS = st.integers(-50, 2000)


@quick()
@given(dice_texts(), SEEDS, TARGETS)
def test_dice_text_parses_rolls_or_is_refused(text: str, seed: int, target: int) -> None:
    _case(text, seed, target)


@pytest.mark.slow
@long("dice")
@given(dice_texts(), SEEDS, TARGETS)
def test_dice_text_parses_rolls_or_is_refused_long(text: str, seed: int, target: int) -> None:
    _case(text, seed, target)
