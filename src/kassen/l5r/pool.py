"""Roll-and-keep pools: ``XkY`` with its modifiers, the ten dice rule, rolls and exact odds.

A :class:`Pool` is what a rule asks to roll: X dice rolled, Y kept, whether 10s explode (L5.CORE.1), and
a flat bonus (the ten dice rule's +2s).

One chance rule (DESIGN principle 4): :func:`pool_dice` writes a pool as the shared dice engine's
roll-and-keep expression (:mod:`kassen.dice`: X d10, a 10 rolled again and added to the same die, keep
the Y highest), and that one expression is what :func:`roll_pool` rolls in a duel and what
:func:`chance` (``kassen l5r odds``, the chance shown with every attack) enumerates exactly, so the odds
cannot drift from the engine. The roll keeps every die (a head Critical reads the next highest die);
``P(total >= TN)`` is an exact :class:`~fractions.Fraction`, explosions included.

>>> from kassen.l5r.content import bundled_tables
>>> ten = bundled_tables().core.ten_dice
>>> str(ten_dice(Pool(12, 4), ten)[0]), str(ten_dice(Pool(13, 9), ten)[0])
('10k5', '10k10+2')
>>> chance(Pool(7, 3), 25)
Fraction(60154863, 100000000)
"""

from __future__ import annotations

__all__ = [
    "Pool",
    "PoolRoll",
    "chance",
    "error_bound",
    "mean",
    "outcomes",
    "parse_pool",
    "pool_dice",
    "roll_pool",
    "ten_dice",
]

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kassen.core.errors import DiceSyntaxError
from kassen.core.explain import Step
from kassen.core.rng import DieSource
from kassen.dice import DieRoll, RollResult, distribution, parse, probability_at_least, roll
from kassen.dice.ast import Expression
from kassen.l5r.tables import TenDice

_POOL = re.compile(r"^\s*(\d{1,4})\s*k\s*(\d{1,4})\s*(?:([+-])\s*(\d{1,6}))?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Pool:
    """``rolled`` k ``kept`` (+ ``bonus``); ``explode`` False for unskilled rolls (L5.CORE.1)."""

    rolled: int
    kept: int
    explode: bool = True
    bonus: int = 0

    def __str__(self) -> str:
        text = f"{self.rolled}k{self.kept}"
        if self.bonus:
            text += f"{self.bonus:+d}"
        return text if self.explode else text + " (10s do not explode)"

    def normalized(self) -> Pool:
        """No negative dice; never keep more dice than are rolled."""
        rolled = max(0, self.rolled)
        kept = max(0, min(self.kept, rolled))
        if rolled == self.rolled and kept == self.kept:
            return self  # already normal (frozen: the same value)
        return Pool(rolled, kept, self.explode, self.bonus)

    def expression(self) -> str:
        """The pool as written for a reader (``6k2``, ``10k10+4``)."""
        text = f"{self.rolled}k{self.kept}"
        return text + (f"{self.bonus:+d}" if self.bonus else "")


@lru_cache(maxsize=1024)
def pool_dice(rolled: int, kept: int, explode: bool) -> Expression:
    """The dice of a pool (its bonus aside) as the dice engine's expression: the one roll-and-keep rule
    that :func:`roll_pool` rolls and :func:`chance` enumerates (L5.CORE.1)."""
    return parse(f"{rolled}k{kept}", unskilled=not explode)


def parse_pool(text: str, *, unskilled: bool = False) -> Pool:
    """Read ``XkY`` (optionally ``XkY+N``) as typed by a user. Raises :class:`DiceSyntaxError`.

    ``kept`` may exceed ``rolled`` only where the ten dice rule will convert it (``10k12``).
    """
    m = _POOL.match(text) if isinstance(text, str) else None
    if m is None:
        raise DiceSyntaxError("expected a roll-and-keep pool such as 6k3 or 10k10+4", str(text))
    rolled, kept = int(m.group(1)), int(m.group(2))
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if rolled < 1 or kept < 1:
        raise DiceSyntaxError("roll and keep at least one die", text)
    if kept > rolled and rolled < 10:
        raise DiceSyntaxError(f"cannot keep {kept} of {rolled} dice", text)
    return Pool(rolled, kept, not unskilled, bonus)


def ten_dice(pool: Pool, rule: TenDice) -> tuple[Pool, tuple[Step, ...]]:
    """The ten dice rule (L5.CORE.1 house default): no roll uses more than ``max_dice`` dice.

    Every ``rolled_per_kept`` rolled dice beyond the cap become one more kept die; once the kept dice
    reach the cap, every extra rolled or kept die is ``bonus_per_excess`` to the total; an odd rolled die
    left over while fewer than the cap are kept is lost.
    """
    if not rule.enabled or (pool.rolled <= rule.max_dice and pool.kept <= rule.max_dice):
        return pool, ()
    cap = rule.max_dice
    rolled, kept, bonus = pool.rolled, pool.kept, pool.bonus
    excess = max(0, rolled - cap)
    rolled = min(rolled, cap)
    while excess >= rule.rolled_per_kept and kept < cap:
        kept += 1
        excess -= rule.rolled_per_kept
    if kept >= cap:
        bonus += rule.bonus_per_excess * (excess + (kept - cap))
        kept = cap
    new = Pool(rolled, kept, pool.explode, bonus)
    return new, (
        Step(new.rolled, f"ten dice rule: {pool.expression()} becomes {new.expression()}", "L5.CORE.1"),
    )


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """A rolled pool: its total, every die (kept, dropped, exploded) and the steps that explain it."""

    pool: Pool
    total: int
    dice: tuple[DieRoll, ...]
    steps: tuple[Step, ...]

    def next_highest(self, count: int = 1) -> int:
        """Sum of the ``count`` highest dice that were *not* kept (a head Critical: L5.HED.1)."""
        dropped = sorted((d.value for d in self.dice if not d.kept), reverse=True)
        return sum(dropped[:count])

    def faces_text(self) -> str:
        return _faces_text(self.dice)


def _faces_text(dice: tuple[DieRoll, ...]) -> str:
    """The dice as a roll shows them: exploded ones as their faces added up, dropped ones struck out."""
    parts = []
    for d in dice:
        text = "+".join(str(f) for f in d.faces) if d.exploded else str(d.face)
        parts.append(text if d.kept else f"~~{text}~~")
    return "[" + ", ".join(parts) + "]"


def roll_pool(pool: Pool, rng: DieSource, reason: str, rule: str = "L5.CORE.1") -> PoolRoll:
    """Roll ``pool`` with the injected dice; the last step is the total with the dice shown."""
    p = pool.normalized()
    if p.rolled == 0 or p.kept == 0:
        return PoolRoll(p, p.bonus, (), (Step(p.bonus, f"{reason}: no dice to roll", rule),))
    result: RollResult = roll(pool_dice(p.rolled, p.kept, p.explode), rng)
    dice = result.dice
    step = Step(result.total, f"{reason}: {p} rolled {_faces_text(dice)}", rule)
    return PoolRoll(p, result.total + p.bonus, dice, (step,))


def chance(pool: Pool, tn: int) -> Fraction:
    """Exact ``P(total >= tn)`` (L5.CORE.2), explosions included (see :func:`error_bound`)."""
    p = pool.normalized()
    return _chance(p.rolled, p.kept, p.explode, tn - p.bonus)[0]


def error_bound(pool: Pool, tn: int) -> Fraction:
    """0 when :func:`chance` is exact, which the dice engine guarantees for any TN up to its limit on
    exploding outcomes (a die worth 2,000); beyond that, a bound on the error."""
    p = pool.normalized()
    return _chance(p.rolled, p.kept, p.explode, tn - p.bonus)[1]


def mean(pool: Pool) -> Fraction:
    """The expected total (exploding tails capped by the dice engine's tolerance, error below 1e-12)."""
    p = pool.normalized()
    return _mean(p.rolled, p.kept, p.explode) + p.bonus


def outcomes(pool: Pool) -> tuple[tuple[int, Fraction], ...]:
    """Every total of ``pool`` with its probability, lowest first: the distribution of the very
    expression :func:`roll_pool` rolls (exploding tails capped by the dice engine's tolerance, less
    than 1e-13 of the mass moved to the cap; see :func:`kassen.dice.distribution`)."""
    p = pool.normalized()
    return tuple((total + p.bonus, q) for total, q in _outcomes(p.rolled, p.kept, p.explode))


@lru_cache(maxsize=1024)
def _outcomes(rolled: int, kept: int, explode: bool) -> tuple[tuple[int, Fraction], ...]:
    if rolled == 0 or kept == 0:
        return ((0, Fraction(1)),)
    return tuple(distribution(pool_dice(rolled, kept, explode)).probabilities.items())


@lru_cache(maxsize=4096)
def _chance(rolled: int, kept: int, explode: bool, tn: int) -> tuple[Fraction, Fraction]:
    if rolled == 0 or kept == 0:
        return (Fraction(1) if tn <= 0 else Fraction(0)), Fraction(0)
    if tn <= kept:  # every die shows at least 1
        return Fraction(1), Fraction(0)
    table = probability_at_least(pool_dice(rolled, kept, explode), tn)
    return table.at_least(tn), table.error_bound


@lru_cache(maxsize=1024)
def _mean(rolled: int, kept: int, explode: bool) -> Fraction:
    if rolled == 0 or kept == 0:
        return Fraction(0)
    return distribution(pool_dice(rolled, kept, explode)).mean
