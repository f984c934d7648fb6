"""kassen.dice: notation → immutable expression tree → a roll that keeps every die, or an exact table.

>>> from kassen.dice import Rng, at_least, roll
>>> at_least("2d10", 11)
Fraction(11, 20)
>>> roll("2d10+5", Rng(7)).total == roll("2d10+5", Rng(7)).total
True
"""

from kassen.core.errors import DiceError, DiceLimitError, DiceSyntaxError
from kassen.core.rng import Rng
from kassen.dice.ast import Constant, Dice, Expression, Term
from kassen.dice.exact import (
    DEFAULT_TOLERANCE,
    Distribution,
    at_least,
    distribution,
    enumerate_faces,
    probability_at_least,
)
from kassen.dice.limits import DEFAULT_LIMITS, DiceLimits
from kassen.dice.parser import parse
from kassen.dice.roller import DieRoll, GroupRoll, RollResult, roll

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_TOLERANCE",
    "Constant",
    "Dice",
    "DiceError",
    "DiceLimitError",
    "DiceLimits",
    "DiceSyntaxError",
    "DieRoll",
    "Distribution",
    "Expression",
    "GroupRoll",
    "Rng",
    "RollResult",
    "Term",
    "at_least",
    "distribution",
    "enumerate_faces",
    "parse",
    "probability_at_least",
    "roll",
]
