"""How a chance is printed: a percentage and the exact fraction, never 100% or 0% unless exact."""

from __future__ import annotations

from fractions import Fraction

from kassen.cli.render import probability_text


def test_a_chance_is_never_printed_as_certain_or_impossible_unless_it_is() -> None:
    assert probability_text(Fraction(1)) == "100.000000% (1/1)"
    assert probability_text(Fraction(0)) == "0.000000% (0/1)"
    assert probability_text(Fraction(1, 4)) == "25.000000% (1/4)"
    near_one = probability_text(Fraction(9999999989, 10**10))
    assert near_one.startswith("> 99.999999% (1 - 1.1e-09)") and "100.0" not in near_one
    tiny = probability_text(Fraction(1, 10**25))
    assert tiny.startswith("1e-23%") and "0.000000%" not in tiny
