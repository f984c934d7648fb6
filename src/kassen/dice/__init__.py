"""kassen.dice: notation → immutable expression tree → a roll that keeps every die, or an exact table.

>>> from kassen.dice import Rng, at_least, roll
>>> at_least("2d10", 11)
Fraction(11, 20)
>>> roll("2d10+5", Rng(7)).total == roll("2d10+5", Rng(7)).total
True
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see kassen.dice.record)
if TYPE_CHECKING:
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

# Loaded on first use: `kassen roll` needs the parser and the roller, not the exact tables (fractions).
_LAZY = {
    "DiceError": "kassen.core.errors",
    "DiceLimitError": "kassen.core.errors",
    "DiceSyntaxError": "kassen.core.errors",
    "Rng": "kassen.core.rng",
    "Constant": "kassen.dice.ast",
    "Dice": "kassen.dice.ast",
    "Expression": "kassen.dice.ast",
    "Term": "kassen.dice.ast",
    "DEFAULT_TOLERANCE": "kassen.dice.exact",
    "Distribution": "kassen.dice.exact",
    "at_least": "kassen.dice.exact",
    "distribution": "kassen.dice.exact",
    "enumerate_faces": "kassen.dice.exact",
    "probability_at_least": "kassen.dice.exact",
    "DEFAULT_LIMITS": "kassen.dice.limits",
    "DiceLimits": "kassen.dice.limits",
    "parse": "kassen.dice.parser",
    "DieRoll": "kassen.dice.roller",
    "GroupRoll": "kassen.dice.roller",
    "RollResult": "kassen.dice.roller",
    "roll": "kassen.dice.roller",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kassen.dice' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
