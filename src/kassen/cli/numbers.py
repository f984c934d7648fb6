"""Numbers on the command line, read the same way by every command.

One reading (the dice parser's): an optional sign and ASCII digits, with ASCII spaces around them as in
dice notation, nothing else — no ``５`` or ``٣`` (Python's ``int`` would take them), no ``1_000``,
``0x10`` or ``5.0``. One wording per kind of mistake, whichever command it is: ``must be a whole
number, got '３'``, ``must be between 1 and 1000, got 5000``, ``a seed is between 0 and 2**64 - 1, not
-1`` (the core's own words, :func:`kassen.core.fight.check_seed`). A seed is never wrapped.

Options use them through Typer's ``parser=`` (:func:`whole`, :data:`SeedOption`); a problem is a
``typer.BadParameter``, which the ``kassen`` group prints as ``command line: --OPTION: why`` — the same
line as :class:`~kassen.cli.common.OptionIssues` prints for the options a command checks itself
(:func:`whole_problem`, :func:`seed_problem`).
"""

from __future__ import annotations

__all__ = [
    "COUNT",
    "MAX_DIGITS",
    "MAX_OPTION",
    "NUMBER",
    "SEED_MAX",
    "SeedOption",
    "is_negative_number",
    "parse_seed",
    "seed_problem",
    "whole",
    "whole_problem",
]

import re
from collections.abc import Callable
from typing import Annotated

import typer

from kassen.i18n import N_, S_

#: The largest seed: seeds are 0 .. 2**64 - 1 (the RNG's state), as in scenario files and chronicles.
SEED_MAX = (1 << 64) - 1
#: No number on the command line has more digits than this (a 5,000-digit number is refused before
#: Python converts it, which would take time and raise its own error).
MAX_DIGITS = 20

#: A number an option takes, where the rules give it no range of their own, is within ±MAX_OPTION.
MAX_OPTION = 1_000_000

_WHOLE = re.compile(r"[+-]?[0-9]+")
#: A token that reads as a negative number or a negative dice expression (``-3``, ``-1d4+5``): an
#: argument, not an option.
_NEGATIVE = re.compile(r"-[0-9]")


def is_negative_number(token: str) -> bool:
    """``-3`` and ``-1d4+5`` are values, not options (``--json`` and ``-v`` are options)."""
    return _NEGATIVE.match(token) is not None


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def _digits(n: int, negative: bool) -> str:
    if negative:
        return S_("a {n}-digit negative number", n=n)
    return S_("a {n}-digit number", n=n)


def whole_problem(text: str, low: int | None = None, high: int | None = None) -> tuple[int | None, str]:
    """``(value, "")`` for a whole number within ``low .. high``, else ``(None, why)``."""
    raw = text.strip(" \t")  # ASCII spaces around it, as the dice parser allows
    if _WHOLE.fullmatch(raw) is None:
        return None, S_("must be a whole number, got {value}", value=_shown(text))
    negative = raw.startswith("-")
    digits = raw.lstrip("+-").lstrip("0")
    value = int(raw) if len(digits) <= MAX_DIGITS else None
    if value is None:  # beyond any range: out of it on the side of its sign
        shown = _digits(len(digits), negative)
        too_low, too_high = negative, not negative
    else:
        shown = str(value)
        too_low, too_high = low is not None and value < low, high is not None and value > high
    if (too_low and low is not None) or (too_high and high is not None):
        if low is not None and high is not None:
            return None, S_("must be between {low} and {high}, got {value}", low=low, high=high, value=shown)
        if low is not None:
            return None, S_("must be at least {low}, got {value}", low=low, value=shown)
        return None, S_("must be at most {high}, got {value}", high=high, value=shown)
    if value is None:
        return None, S_("must have at most {most} digits, got {value}", most=MAX_DIGITS, value=shown)
    return value, ""


def seed_problem(text: str) -> tuple[int | None, str]:
    """``(seed, "")`` for a seed in ``0 .. 2**64 - 1``, else ``(None, why)`` (never wrapped)."""
    value, why = whole_problem(text, 0, SEED_MAX)
    if value is not None:
        return value, ""
    if why.startswith("must be a whole"):
        return None, why
    number = text.strip(" \t+")
    digits = len(number.lstrip("-"))
    shown = number if len(number) <= 24 else _digits(digits, number.startswith("-"))
    return None, S_("a seed is between 0 and 2**64 - 1, not {value}", value=shown)


def whole(low: int | None = None, high: int | None = None) -> Callable[[object], int]:
    """A Typer ``parser=`` for a whole number within ``low .. high`` (either end open)."""

    def parse(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool):  # a default, already a number
            return value
        number, why = whole_problem(str(value), low, high)
        if number is None:
            raise typer.BadParameter(why)
        return number

    parse.__name__ = "whole"
    return parse


#: ``parser=`` of a number the rules give no range of their own: within ±:data:`MAX_OPTION`.
NUMBER = whole(-MAX_OPTION, MAX_OPTION)
#: ``parser=`` of a count (Wounds, raises, DR...): 0 .. :data:`MAX_OPTION`.
COUNT = whole(0, MAX_OPTION)


def parse_seed(value: object) -> int:
    """A Typer ``parser=`` for a seed (``--seed``): 0 .. 2**64 - 1, never wrapped."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    number, why = seed_problem(str(value))
    if number is None:
        raise typer.BadParameter(why)
    return number


#: ``--seed N``, the same on every command: 0 .. 2**64 - 1, refused outside it (one wording), never wrapped.
SeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        parser=parse_seed,
        metavar=N_("SEED"),
        help=N_("Seed for a reproducible run, 0 .. 2**64-1 (default: the scenario's, else random)."),
    ),
]
