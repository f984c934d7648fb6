"""Documented limits on dice expressions, so abusive input is refused at once instead of computed.

Every limit is a field of :class:`DiceLimits`; a :class:`~kassen.core.errors.DiceLimitError` names the
field it hit. Callers that need more can pass their own ``DiceLimits``.
"""

from __future__ import annotations

__all__ = ["DEFAULT_LIMITS", "DiceLimits"]

from kassen.dice.record import Record


class DiceLimits(Record):
    __slots__ = (
        "max_dice",
        "max_digits",
        "max_enumerated_faces",
        "max_exact_die_outcomes",
        "max_exact_pool",
        "max_exact_work",
        "max_explosions",
        "max_length",
        "max_sides",
        "max_terms",
    )
    __match_args__ = (
        "max_length",
        "max_terms",
        "max_digits",
        "max_dice",
        "max_sides",
        "max_explosions",
        "max_exact_die_outcomes",
        "max_exact_pool",
        "max_exact_work",
        "max_enumerated_faces",
    )
    #: Characters in one expression.
    max_length: int
    #: Terms (dice groups and constants) in one expression.
    max_terms: int
    #: Digits in one number (checked before converting, so "9" * 5000 costs nothing).
    max_digits: int
    #: Dice rolled in one group (``NdS``) and in the whole expression, explosions not counted.
    max_dice: int
    #: Faces on one die.
    max_sides: int
    #: Re-rolls one exploding die may add when *rolling*; the die stops exploding after that many
    #: (for a d10 the chance of reaching it is 10^-100).
    max_explosions: int
    #: Exact distributions: outcomes one die may have after explosions are expanded (cap / sides).
    max_exact_die_outcomes: int
    #: Exact distributions: dice in one group that keeps or explodes (each needs a pool evaluation).
    max_exact_pool: int
    #: Exact distributions: estimated steps (outcome pairs combined, a fraction of a microsecond each) to
    #: build one table, so that ``1000d1000`` or ``30d1000kh3`` is refused at once instead of computed
    #: for minutes (the largest tables allowed take about a third of a second; ``10k10`` fits).
    max_exact_work: int
    #: Face tuples :func:`~kassen.dice.exact.enumerate_faces` may list (rules that look at faces).
    max_enumerated_faces: int

    def __init__(
        self,
        max_length: int = 200,
        max_terms: int = 40,
        max_digits: int = 9,
        max_dice: int = 1000,
        max_sides: int = 1000,
        max_explosions: int = 100,
        max_exact_die_outcomes: int = 2_000,
        max_exact_pool: int = 30,
        max_exact_work: int = 1_000_000,
        max_enumerated_faces: int = 1_000_000,
    ) -> None:
        self._set(
            max_length,
            max_terms,
            max_digits,
            max_dice,
            max_sides,
            max_explosions,
            max_exact_die_outcomes,
            max_exact_pool,
            max_exact_work,
            max_enumerated_faces,
        )


DEFAULT_LIMITS = DiceLimits()
