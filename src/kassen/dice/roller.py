"""Roll an expression with an injected :class:`~kassen.core.rng.Rng`, keeping every die.

A :class:`RollResult` remembers each die's faces (an exploded die has several), whether it exploded and
whether it was kept, so rulesets can look for doubles and interfaces can show what happened.
"""

from __future__ import annotations

__all__ = ["DieRoll", "GroupRoll", "RollResult", "roll"]

from kassen.core.errors import S_, DiceError
from kassen.dice.ast import Dice, Expression
from kassen.dice.limits import DEFAULT_LIMITS, DiceLimits
from kassen.dice.parser import parse
from kassen.dice.record import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see kassen.dice.record)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from kassen.core.rng import DieSource

    #: One rolled group as :func:`roll` records it: the term, its sign, each die's first face, each
    #: die's faces when the group explodes (``None``: one face a die), the kept indexes (``None``: every
    #: die counts). The :class:`GroupRoll` and :class:`DieRoll` objects are built from it only when
    #: something asks for them (building them was most of the cost of a roll).
    _RawGroup = tuple[Dice, int, tuple[int, ...], tuple[tuple[int, ...], ...] | None, frozenset[int] | None]


class DieRoll(Record):
    """One die: ``faces`` in the order rolled (more than one when it exploded)."""

    __slots__ = ("faces", "kept", "sides")
    __match_args__ = ("sides", "faces", "kept")
    sides: int
    faces: tuple[int, ...]
    kept: bool

    def __init__(self, sides: int, faces: tuple[int, ...], kept: bool = True) -> None:
        self._set(sides, faces, kept)

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


class GroupRoll(Record):
    """The dice of one ``Dice`` term, with its sign in the expression."""

    __slots__ = ("dice", "group", "sign")
    __match_args__ = ("group", "sign", "dice")
    group: Dice
    sign: int
    dice: tuple[DieRoll, ...]

    def __init__(self, group: Dice, sign: int, dice: tuple[DieRoll, ...]) -> None:
        self._set(group, sign, dice)

    @property
    def subtotal(self) -> int:
        return self.sign * sum(d.value for d in self.dice if d.kept)


class RollResult:
    """A roll: ``total`` at once; ``groups`` (every die, kept or not, exploded or not) built on first use.

    Read-only and compared by value like the frozen record it replaces: ``RollResult(expression, total,
    groups, constant)`` still builds one from finished groups.
    """

    __slots__ = ("_constant", "_expression", "_groups", "_raw", "_total")

    _expression: Expression
    _total: int
    _constant: int
    _groups: tuple[GroupRoll, ...] | None
    _raw: tuple[_RawGroup, ...]

    def __init__(
        self,
        expression: Expression,
        total: int,
        groups: tuple[GroupRoll, ...] | None,
        constant: int,
        *,
        raw: tuple[_RawGroup, ...] = (),
    ) -> None:
        # groups None: built from ``raw`` (each group's first faces, explosions and kept dice) when read
        self._expression = expression
        self._total = total
        self._constant = constant
        self._groups = groups
        self._raw = raw

    @property
    def expression(self) -> Expression:
        return self._expression

    @property
    def total(self) -> int:
        return self._total

    @property
    def constant(self) -> int:
        """The sum of the expression's constant terms."""
        return self._constant

    @property
    def groups(self) -> tuple[GroupRoll, ...]:
        """Each dice term's roll, in expression order."""
        groups = self._groups
        if groups is None:
            groups = self._groups = tuple(
                GroupRoll(
                    node,
                    sign,
                    tuple(
                        DieRoll(node.sides, (face,) if faces is None else faces[i], kept is None or i in kept)
                        for i, face in enumerate(first)
                    ),
                )
                for node, sign, first, faces, kept in self._raw
            )
        return groups

    def _key(self) -> tuple[Expression, int, tuple[GroupRoll, ...], int]:
        return (self._expression, self._total, self.groups, self._constant)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RollResult):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"RollResult(expression={self._expression!r}, total={self._total!r}, "
            f"groups={self.groups!r}, constant={self._constant!r})"
        )

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        """Every die of the roll, in expression order."""
        return tuple(d for g in self.groups for d in g.dice)

    @property
    def kept(self) -> tuple[DieRoll, ...]:
        return tuple(d for d in self.dice if d.kept)

    def is_double(self) -> bool:
        """Exactly two dice were rolled and they show the same face (SG.CHK.2)."""
        if self._groups is None:  # read from the raw faces: no objects needed
            first = [f for raw in self._raw for f in raw[2]]
            return len(first) == 2 and first[0] == first[1]
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
        return {"expression": str(self._expression), "total": self._total, "dice": dice}


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
    if type(expression) is not Expression:
        if isinstance(expression, str):
            expression = parse(expression, unskilled=unskilled, limits=limits)
        elif not isinstance(expression, Expression):
            raise DiceError(
                S_(
                    "a dice expression is text or a parsed Expression, not {name}",
                    name=type(expression).__name__,
                )
            )
    die = getattr(rng, "die", None)
    if not callable(die):
        raise DiceError(
            S_("dice are rolled with an Rng (or ScriptedDice), not {name}", name=type(rng).__name__)
        )
    constant, groups, simple = expression._plan
    total = constant
    raw: list[_RawGroup] = []
    first: tuple[int, ...]
    for node, sides, count, sign in groups:
        if simple or (not node.explode and node.keep is None):  # plain dice, summed
            # two dice (a check, 2d10+5) without building a list
            first = (die(sides), die(sides)) if count == 2 else tuple([die(sides) for _ in range(count)])
            total += sign * sum(first)
            raw.append((node, sign, first, None, None))
            continue
        faces, kept = _roll_group(node, die, limits.max_explosions)
        total += sign * sum([sum(f) for i, f in enumerate(faces) if kept is None or i in kept])
        raw.append((node, sign, tuple([f[0] for f in faces]), faces if node.explode else None, kept))
    return RollResult(expression, total, None, constant, raw=tuple(raw))


def _roll_group(
    group: Dice, die: Callable[[int], int], max_explosions: int
) -> tuple[tuple[tuple[int, ...], ...], frozenset[int] | None]:
    sides = group.sides
    faces_per_die: list[tuple[int, ...]] = []
    for _ in range(group.count):
        face = die(sides)
        if group.explode and face == sides:
            faces = [face]
            while face == sides and len(faces) <= max_explosions:
                face = die(sides)
                faces.append(face)
            faces_per_die.append(tuple(faces))
        else:
            faces_per_die.append((face,))
    if group.keep is None:
        return tuple(faces_per_die), None
    # Ties keep the earlier die, so the marking is deterministic.
    values = [sum(f) for f in faces_per_die]
    high = group.keep == "h"
    order = sorted(range(len(values)), key=lambda i: (-values[i] if high else values[i], i))
    return tuple(faces_per_die), frozenset(order[: group.keep_count])
