"""The immutable expression tree of a dice expression.

An :class:`Expression` is a signed sum of terms; a term is a :class:`Constant` or a :class:`Dice` group.
Every dice form kassen reads is one ``Dice`` node:

- ``NdS``: N dice with S faces, summed.
- ``NdSkhK`` / ``NdSklK`` (``k`` alone means ``kh``): keep the K highest / lowest.
- ``NdS!``: exploding. A die showing its maximum is rolled again and the new face is *added to the same
  die*, again and again (a "compounding" explosion). Keeping then looks at each die's whole value.
- ``XkY``: roll-and-keep, exactly ``Xd10!khY``: X d10, every 10 explodes, keep the Y highest. An
  *unskilled* roll-and-keep does not explode (``explode=False``).
"""

from __future__ import annotations

__all__ = ["Constant", "Dice", "Expression", "Term"]

from kassen.dice.record import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see kassen.dice.record)
if TYPE_CHECKING:
    from typing import Literal

    Keep = Literal["h", "l"]
    Sign = Literal[1, -1]


class Constant(Record):
    __slots__ = ("value",)
    __match_args__ = ("value",)
    value: int

    def __init__(self, value: int) -> None:
        self._set(value)

    def __str__(self) -> str:
        return str(self.value)

    @property
    def minimum(self) -> int:
        return self.value

    @property
    def maximum(self) -> int | None:
        return self.value


class Dice(Record):
    __slots__ = ("count", "explode", "keep", "keep_count", "roll_and_keep", "sides")
    __match_args__ = ("count", "sides", "explode", "keep", "keep_count", "roll_and_keep")
    count: int
    sides: int
    explode: bool
    keep: Keep | None
    keep_count: int
    #: Written as roll-and-keep (``7k3``) rather than ``7d10!kh3``; only changes how it is shown.
    roll_and_keep: bool

    def __init__(
        self,
        count: int,
        sides: int,
        explode: bool = False,
        keep: Keep | None = None,
        keep_count: int = 0,
        roll_and_keep: bool = False,
    ) -> None:
        self._set(count, sides, explode, keep, keep_count, roll_and_keep)

    @property
    def kept(self) -> int:
        """How many dice count towards the total."""
        return self.keep_count if self.keep is not None else self.count

    @property
    def minimum(self) -> int:
        return self.kept

    @property
    def maximum(self) -> int | None:
        """``None`` when unbounded (exploding)."""
        return None if self.explode else self.kept * self.sides

    def __str__(self) -> str:
        if self.roll_and_keep:
            text = f"{self.count}k{self.keep_count}"
            return text if self.explode else text + " unskilled"
        text = f"{self.count}d{self.sides}" + ("!" if self.explode else "")
        if self.keep is not None:
            text += f"k{self.keep}{self.keep_count}"
        return text


class Term(Record):
    __slots__ = ("node", "sign")
    __match_args__ = ("sign", "node")
    sign: Sign
    node: Constant | Dice

    def __init__(self, sign: Sign, node: Constant | Dice) -> None:
        self._set(sign, node)

    def __str__(self) -> str:
        return str(self.node)


class Expression(Record):
    """A signed sum of terms, as parsed from ``text``."""

    __slots__ = ("_plan", "terms", "text")
    __match_args__ = ("terms", "text")
    terms: tuple[Term, ...]
    text: str
    #: How :func:`~kassen.dice.roller.roll` walks the terms, worked out once per expression (parsed
    #: expressions are cached, so a rule rolling ``2d10+5`` again pays nothing): the constants' sum, each
    #: dice term as ``(node, sides, count, sign)``, and whether every dice term is plain (no keep, no
    #: explosion). Not part of the value: excluded from comparison, hashing and repr.
    _plan: tuple[int, tuple[tuple[Dice, int, int, int], ...], bool]

    def __init__(self, terms: tuple[Term, ...], text: str = "") -> None:
        self._set(terms, text)
        constant = 0
        groups: list[tuple[Dice, int, int, int]] = []
        for t in terms:
            if isinstance(t.node, Constant):
                constant += t.sign * t.node.value
            else:
                groups.append((t.node, t.node.sides, t.node.count, t.sign))
        simple = all(not g.explode and g.keep is None for g, _, _, _ in groups)
        object.__setattr__(self, "_plan", (constant, tuple(groups), simple))

    def __str__(self) -> str:
        out = ""
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                out += "-" if i == 0 else " - "
            elif i:
                out += " + "
            out += str(term)
        return out

    @property
    def dice_groups(self) -> tuple[Dice, ...]:
        return tuple(t.node for t in self.terms if isinstance(t.node, Dice))

    @property
    def minimum(self) -> int | None:
        """Smallest possible total, ``None`` if unbounded below (a subtracted exploding group)."""
        total = 0
        for t in self.terms:
            bound = t.node.minimum if t.sign > 0 else t.node.maximum
            if bound is None:
                return None
            total += t.sign * bound
        return total

    @property
    def maximum(self) -> int | None:
        """Largest possible total, ``None`` if unbounded above (an exploding group)."""
        total = 0
        for t in self.terms:
            bound = t.node.maximum if t.sign > 0 else t.node.minimum
            if bound is None:
                return None
            total += t.sign * bound
        return total
