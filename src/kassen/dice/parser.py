"""Parse dice notation into an :class:`~kassen.dice.ast.Expression`.

Grammar (case-insensitive; spaces allowed around ``+`` and ``-``, not inside a term)::

    expression := [sign] term (sign term)*
    sign       := "+" | "-"
    term       := NUMBER                      constant
                | [NUMBER] "d" SIDES ["!"] [keep]
                | NUMBER "k" NUMBER           roll-and-keep XkY (d10s, 10s explode)
    SIDES      := NUMBER | "%"                d% is d100
    keep       := ("kh" | "kl" | "k") NUMBER  k alone keeps the highest

The only exception :func:`parse` raises is :class:`~kassen.core.errors.DiceError` (a syntax error names
the 1-based column; a limit error names the limit). Limits are checked as the text is read, so huge
numbers are refused before anything is built.
"""

from __future__ import annotations

__all__ = ["parse"]

from kassen.core.errors import S_, ArgumentError, DiceLimitError, DiceSyntaxError, kind_of
from kassen.dice.ast import Constant, Dice, Expression, Term
from kassen.dice.cache import BoundedCache
from kassen.dice.limits import DEFAULT_LIMITS, DiceLimits

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see kassen.dice.record)
if TYPE_CHECKING:
    from typing import Literal

_EXPECT_TERM = S_("expected a number or dice term")


def parse(text: str, *, unskilled: bool = False, limits: DiceLimits = DEFAULT_LIMITS) -> Expression:
    """Parse ``text``; ``unskilled=True`` turns off explosions on roll-and-keep terms (``XkY``).

    >>> str(parse("2d10 + 5"))
    '2d10 + 5'
    >>> parse("7k3").dice_groups[0].explode
    True
    """
    if not isinstance(text, str):
        raise DiceSyntaxError(S_("a dice expression must be text"), repr(text)[:60])
    if unskilled is not False and unskilled is not True:
        raise ArgumentError(S_("unskilled is True or False, not {kind_of}", kind_of=kind_of(unskilled)))
    if not isinstance(limits, DiceLimits):
        raise ArgumentError(S_("limits are a DiceLimits, not {kind_of}", kind_of=kind_of(limits)))
    return _PARSED.get((text, unskilled, limits), lambda: _Parser(text, unskilled, limits).expression())


#: Parsed expressions by (text, unskilled, limits): a rule rolling "2d10+5" again does not parse it again.
#: An expression is immutable, so every caller may share it; errors are raised, never stored.
_PARSED = BoundedCache(512)


class _Parser:
    def __init__(self, text: str, unskilled: bool, limits: DiceLimits) -> None:
        self.text = text
        # Lower-case ASCII only: str.lower() would turn the Kelvin sign (U+212A) into "k".
        self.low = "".join(c.lower() if c.isascii() else "\x00" for c in text)
        self.pos = 0
        self.unskilled = unskilled
        self.limits = limits
        self.total_dice = 0
        if len(text) > limits.max_length:
            raise DiceLimitError(
                S_(
                    "expression is {n_text} characters long; the limit is {max_length}",
                    n_text=len(text),
                    max_length=limits.max_length,
                ),
                text[:40] + "...",
                limit="max_length",
            )

    # -- helpers ---------------------------------------------------------------------------------------
    def _syntax(self, message: str, pos: int | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, self.text, (self.pos if pos is None else pos) + 1)

    def _limit(self, message: str, limit: str, pos: int) -> DiceLimitError:
        return DiceLimitError(message, self.text, pos + 1, limit=limit)

    def _skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def _peek(self) -> str:
        return self.low[self.pos] if self.pos < len(self.low) else ""

    def _number(self, what: str) -> int | None:
        """Read digits if present; ``None`` if there are none. Refuses over-long numbers unread."""
        start = self.pos
        while self.pos < len(self.low) and self.low[self.pos] in "0123456789":
            self.pos += 1
        if self.pos == start:
            return None
        digits = self.pos - start
        if digits > self.limits.max_digits:
            raise self._limit(
                S_(
                    "{what} has {digits} digits; the limit is {max_digits}",
                    what=what,
                    digits=digits,
                    max_digits=self.limits.max_digits,
                ),
                "max_digits",
                start,
            )
        return int(self.low[start : self.pos])

    def _require_number(self, what: str, expected: str) -> tuple[int, int]:
        pos = self.pos
        value = self._number(what)
        if value is None:
            raise self._syntax(expected)
        return value, pos

    # -- grammar ---------------------------------------------------------------------------------------
    def expression(self) -> Expression:
        terms: list[Term] = []
        self._skip_spaces()
        sign: Literal[1, -1] = 1
        if self._peek() in ("+", "-"):
            sign = -1 if self._peek() == "-" else 1
            self.pos += 1
            self._skip_spaces()
        while True:
            if len(terms) >= self.limits.max_terms:
                raise self._limit(
                    S_("more than {max_terms} terms", max_terms=self.limits.max_terms), "max_terms", self.pos
                )
            terms.append(Term(sign, self.term()))
            self._skip_spaces()
            ch = self._peek()
            if ch == "":
                break
            if ch not in ("+", "-"):
                raise self._syntax(S_("expected '+', '-' or the end of the expression"))
            sign = -1 if ch == "-" else 1
            self.pos += 1
            self._skip_spaces()
        return Expression(tuple(terms), self.text)

    def term(self) -> Constant | Dice:
        start = self.pos
        if self._peek() == "":
            raise self._syntax(_EXPECT_TERM)
        count = self._number("a number")
        ch = self._peek()
        if ch == "d":
            self.pos += 1
            return self.dice(1 if count is None else count, start)
        if ch == "k" and count is not None:
            self.pos += 1
            return self.roll_and_keep(count, start)
        if count is None:
            raise self._syntax(_EXPECT_TERM)
        return Constant(count)

    def _check_count(self, count: int, pos: int) -> None:
        if count < 1:
            raise self._syntax(S_("roll at least one die"), pos)
        if count > self.limits.max_dice:
            raise self._limit(
                S_(
                    "{count} dice in one roll; the limit is {max_dice}",
                    count=count,
                    max_dice=self.limits.max_dice,
                ),
                "max_dice",
                pos,
            )
        self.total_dice += count
        if self.total_dice > self.limits.max_dice:
            raise self._limit(
                S_(
                    "{total_dice} dice in the expression; the limit is {max_dice}",
                    total_dice=self.total_dice,
                    max_dice=self.limits.max_dice,
                ),
                "max_dice",
                pos,
            )

    def dice(self, count: int, start: int) -> Dice:
        sides_pos = self.pos
        if self._peek() == "%":
            self.pos += 1
            sides = 100
        else:
            sides, _ = self._require_number(
                S_("the number of sides"), S_("expected the number of sides after 'd'")
            )
        if sides < 1:
            raise self._syntax(S_("a die needs at least one side"), sides_pos)
        if sides > self.limits.max_sides:
            raise self._limit(
                S_(
                    "d{sides} has too many sides; the limit is {max_sides}",
                    sides=sides,
                    max_sides=self.limits.max_sides,
                ),
                "max_sides",
                sides_pos,
            )
        self._check_count(count, start)
        explode = False
        if self._peek() == "!":
            if sides == 1:
                raise self._syntax(S_("a one-sided die would explode forever"), self.pos)
            explode = True
            self.pos += 1
        keep: Literal["h", "l"] | None = None
        keep_count = 0
        if self._peek() == "k":
            self.pos += 1
            keep = "h"
            if self._peek() in ("h", "l"):
                keep = "l" if self._peek() == "l" else "h"
                self.pos += 1
            keep_count, kpos = self._require_number(
                S_("the number of dice to keep"), S_("expected how many dice to keep")
            )
            self._check_keep(keep_count, count, kpos)
        return Dice(count, sides, explode, keep, keep_count)

    def roll_and_keep(self, roll: int, start: int) -> Dice:
        keep_count, kpos = self._require_number(
            S_("the number of dice to keep"), S_("expected how many dice to keep after 'k'")
        )
        self._check_count(roll, start)
        self._check_keep(keep_count, roll, kpos)
        return Dice(roll, 10, not self.unskilled, "h", keep_count, roll_and_keep=True)

    def _check_keep(self, keep: int, count: int, pos: int) -> None:
        if keep < 1:
            raise self._syntax(S_("keep at least one die"), pos)
        if keep > count:
            raise self._syntax(S_("cannot keep {keep} of {count} dice", keep=keep, count=count), pos)
