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

from dataclasses import dataclass
from typing import Literal

Keep = Literal["h", "l"]


@dataclass(frozen=True, slots=True)
class Constant:
    value: int

    def __str__(self) -> str:
        return str(self.value)

    @property
    def minimum(self) -> int:
        return self.value

    @property
    def maximum(self) -> int | None:
        return self.value


@dataclass(frozen=True, slots=True)
class Dice:
    count: int
    sides: int
    explode: bool = False
    keep: Keep | None = None
    keep_count: int = 0
    #: Written as roll-and-keep (``7k3``) rather than ``7d10!kh3``; only changes how it is shown.
    roll_and_keep: bool = False

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


@dataclass(frozen=True, slots=True)
class Term:
    sign: Literal[1, -1]
    node: Constant | Dice

    def __str__(self) -> str:
        return str(self.node)


@dataclass(frozen=True, slots=True)
class Expression:
    """A signed sum of terms, as parsed from ``text``."""

    terms: tuple[Term, ...]
    text: str = ""

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
