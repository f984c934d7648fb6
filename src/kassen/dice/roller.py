"""Roll an expression with an injected :class:`~kassen.core.rng.Rng`, keeping every die.

A :class:`RollResult` remembers each die's faces (an exploded die has several), whether it exploded and
whether it was kept, so rulesets can look for doubles and interfaces can show what happened.
"""

from __future__ import annotations

__all__ = ["DieRoll", "GroupRoll", "RollResult", "roll"]

from dataclasses import dataclass
from typing import Any

from kassen.core.errors import DiceError
from kassen.core.rng import DieSource
from kassen.dice.ast import Constant, Dice, Expression
from kassen.dice.limits import DEFAULT_LIMITS, DiceLimits
from kassen.dice.parser import parse


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die: ``faces`` in the order rolled (more than one when it exploded)."""

    sides: int
    faces: tuple[int, ...]
    kept: bool = True

    @property
    def value(self) -> int:
        return sum(self.faces)

    @property
    def exploded(self) -> bool:
        return len(self.faces) > 1

    @property
    def face(self) -> int:
        """The first face shown, the one that makes a double."""
        return self.faces[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "faces": list(self.faces),
            "value": self.value,
            "kept": self.kept,
            "exploded": self.exploded,
        }


@dataclass(frozen=True, slots=True)
class GroupRoll:
    """The dice of one ``Dice`` term, with its sign in the expression."""

    group: Dice
    sign: int
    dice: tuple[DieRoll, ...]

    @property
    def subtotal(self) -> int:
        return self.sign * sum(d.value for d in self.dice if d.kept)


@dataclass(frozen=True, slots=True)
class RollResult:
    expression: Expression
    total: int
    groups: tuple[GroupRoll, ...]
    constant: int

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        """Every die of the roll, in expression order."""
        return tuple(d for g in self.groups for d in g.dice)

    @property
    def kept(self) -> tuple[DieRoll, ...]:
        return tuple(d for d in self.dice if d.kept)

    def is_double(self) -> bool:
        """Exactly two dice were rolled and they show the same face (SG.CHK.2)."""
        dice = self.dice
        return len(dice) == 2 and dice[0].face == dice[1].face

    def to_json(self) -> dict[str, Any]:
        """``{"expression": str, "total": int, "dice": [...]}`` (each die: sides, faces, value, kept,
        exploded, and the index of its term in the expression)."""
        dice: list[dict[str, Any]] = []
        for index, g in enumerate(self.groups):
            for d in g.dice:
                item = d.to_json()
                item["group"] = index
                item["sign"] = g.sign
                dice.append(item)
        return {"expression": str(self.expression), "total": self.total, "dice": dice}


def roll(
    expression: Expression | str,
    rng: DieSource,
    *,
    unskilled: bool = False,
    limits: DiceLimits = DEFAULT_LIMITS,
) -> RollResult:
    """Roll ``expression`` (text or a parsed tree), drawing every face from ``rng`` (an
    :class:`~kassen.core.rng.Rng`, or :class:`~kassen.core.rng.ScriptedDice` for dice rolled at the table).

    >>> from kassen.core.rng import Rng, ScriptedDice
    >>> roll("2d10+3", ScriptedDice([4, 4])).total
    11
    >>> r = roll("4d6kh3", Rng(1))
    >>> len(r.dice), len(r.kept)
    (4, 3)
    """
    if not isinstance(expression, str | Expression):
        raise DiceError(f"a dice expression is text or a parsed Expression, not {type(expression).__name__}")
    if not callable(getattr(rng, "die", None)):
        raise DiceError(f"dice are rolled with an Rng (or ScriptedDice), not {type(rng).__name__}")
    expr = (
        parse(expression, unskilled=unskilled, limits=limits) if isinstance(expression, str) else expression
    )
    groups: list[GroupRoll] = []
    constant = 0
    total = 0
    for term in expr.terms:
        node = term.node
        if isinstance(node, Constant):
            constant += term.sign * node.value
            continue
        dice = _roll_group(node, rng, limits.max_explosions)
        group = GroupRoll(node, term.sign, dice)
        groups.append(group)
        total += group.subtotal
    return RollResult(expr, total + constant, tuple(groups), constant)


def _roll_group(group: Dice, rng: DieSource, max_explosions: int) -> tuple[DieRoll, ...]:
    sides = group.sides
    faces_per_die: list[tuple[int, ...]] = []
    for _ in range(group.count):
        face = rng.die(sides)
        if group.explode and face == sides:
            faces = [face]
            while face == sides and len(faces) <= max_explosions:
                face = rng.die(sides)
                faces.append(face)
            faces_per_die.append(tuple(faces))
        else:
            faces_per_die.append((face,))
    if group.keep is None:
        return tuple(DieRoll(sides, f) for f in faces_per_die)
    # Ties keep the earlier die, so the marking is deterministic.
    order = sorted(
        range(len(faces_per_die)),
        key=lambda i: (-sum(faces_per_die[i]) if group.keep == "h" else sum(faces_per_die[i]), i),
    )
    kept = set(order[: group.keep_count])
    return tuple(DieRoll(sides, f, i in kept) for i, f in enumerate(faces_per_die))
