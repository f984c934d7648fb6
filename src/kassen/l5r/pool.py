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

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kassen.core.errors import DiceSyntaxError
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.core.rng import DieSource
from kassen.dice import DieRoll, RollResult, distribution, parse, probability_at_least, roll
from kassen.dice.ast import Dice, Expression, Term
from kassen.dice.exact import tolerance_depth
from kassen.dice.limits import DEFAULT_LIMITS, DiceLimits
from kassen.i18n import S_
from kassen.l5r.tables import TenDice

_POOL = re.compile(r"^\s*(\d{1,4})\s*k\s*(\d{1,4})\s*(?:([+-])\s*(\d{1,6}))?\s*$", re.IGNORECASE)


@fast_init
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
        return text if self.explode else S_("{pool} (10s do not explode)", pool=text)

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
        Step(
            new.rolled,
            S_("ten dice rule: {pool} becomes {new}", pool=pool.expression(), new=new.expression()),
            "L5.CORE.1",
        ),
    )


@fast_init
@dataclass(frozen=True, slots=True)
class PoolRoll:
    """A rolled pool: its total, the roll (every die: kept, dropped, exploded; ``None`` when the pool
    rolls no dice) and the steps that explain it."""

    pool: Pool
    total: int
    roll: RollResult | None
    steps: tuple[Step, ...]

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        """Every die, in the order rolled (made when first asked: most rolls only need their total)."""
        return () if self.roll is None else self.roll.dice

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


def roll_pool(
    pool: Pool, rng: DieSource, reason: str, rule: str = "L5.CORE.1", *, explain: bool = True
) -> PoolRoll:
    """Roll ``pool`` with the injected dice; the last step is the total with the dice shown (with
    ``explain`` False, as in the simulation mode, the step's words do not show them)."""
    p = pool.normalized()
    if p.rolled == 0 or p.kept == 0:
        return PoolRoll(
            p, p.bonus, None, (Step(p.bonus, S_("{reason}: no dice to roll", reason=reason), rule),)
        )
    result: RollResult = roll(pool_dice(p.rolled, p.kept, p.explode), rng)
    shown = (
        S_("{reason}: {pool} rolled {dice}", reason=reason, pool=p, dice=_faces_text(result.dice))
        if explain
        else reason
    )
    return PoolRoll(p, result.total + p.bonus, result, (Step(result.total, shown, rule),))


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
    return tuple(distribution(pool_dice(rolled, kept, explode), limits=_limits(rolled)).probabilities.items())


@lru_cache(maxsize=4096)
def _chance(rolled: int, kept: int, explode: bool, tn: int) -> tuple[Fraction, Fraction]:
    if rolled == 0 or kept == 0:
        return (Fraction(1) if tn <= 0 else Fraction(0)), Fraction(0)
    if tn <= kept:  # every die shows at least 1
        return Fraction(1), Fraction(0)
    expr = pool_dice(rolled, kept, explode)
    group = _kept_group(expr)
    if group is not None:
        return _kept_at_least(group, tn)
    return _chance_plain(expr, tn)


def _chance_plain(expr: Expression, tn: int) -> tuple[Fraction, Fraction]:
    """The chance and its error bound read from the dice engine's table of the pool's expression (the
    reference of :func:`_kept_at_least`, and the way beyond its domain)."""
    rolled = sum(t.node.count for t in expr.terms if isinstance(t.node, Dice))
    table = probability_at_least(expr, tn, limits=_limits(rolled))
    return table.at_least(tn), table.error_bound


#: The domain of :func:`_kept_at_least`: pools of at most this many dice (the ten dice rule's cap)...
FAST_MAX_ROLLED = 10
#: ...whose dice explode at most this many times in the dice engine's exact table for the TN. Inside it
#: that table is exact (error 0) and within the engine's limits, which a test checks at its corners.
FAST_MAX_DEPTH = 7

#: The dice engine's limits for the tables of a pool of at most :data:`FAST_MAX_ROLLED` dice: the
#: default work limit guards against any expression a user types, and refuses the tables of the
#: largest pools the ten dice rule allows (8k6 to 10k9, exploding: 1.06M to 2.6M steps, up to ~1.5 s
#: once each); a pool's own rule bounds its work, so it gets room for all of them.
POOL_LIMITS = DiceLimits(
    **{name: getattr(DEFAULT_LIMITS, name) for name in DiceLimits.__match_args__}
    | {"max_exact_work": 3_000_000}
)


def _limits(rolled: int) -> DiceLimits:
    """:data:`POOL_LIMITS` for a pool within the ten dice rule's cap, the engine's default beyond."""
    return POOL_LIMITS if rolled <= FAST_MAX_ROLLED else DEFAULT_LIMITS


def _kept_group(expr: Expression) -> Dice | None:
    """The expression's one group when it is a pool the counting of :func:`_kept_at_least` covers: a
    single group (added, nothing else) keeping its highest dice, of at most :data:`FAST_MAX_ROLLED`."""
    if len(expr.terms) != 1 or expr.terms[0].sign != 1:
        return None
    group = expr.terms[0].node
    if not isinstance(group, Dice) or group.keep != "h" or not 0 < group.keep_count <= group.count:
        return None
    return group if group.count <= FAST_MAX_ROLLED else None


def _depth(group: Dice, tn: int) -> int:
    """How many times a die explodes at most in the dice engine's exact table for ``P(total >= tn)``: a
    kept die worth ``tn - kept + 1`` already makes the total (the other kept dice show 1 at least), so the
    die is capped at the first multiple of its sides from there (:func:`kassen.dice.probability_at_least`)."""
    cap = max(group.sides, tn - group.keep_count + 1)
    return -(-cap // group.sides) - 1


def _kept_at_least(group: Dice, tn: int) -> tuple[Fraction, Fraction]:
    """``P(the kept dice total >= tn)`` and its error bound for the pool ``group`` (L5.CORE.1, L5.CORE.2),
    by counting: the
    dice engine's exact table of the same expression (one icepool pool evaluation for each pool and
    exploding depth, tens of milliseconds) gives the very same fraction, but a fight asks it for every
    new pool and TN. Beyond :data:`FAST_MAX_DEPTH`, that table (:func:`_chance_plain`). Every TN that
    caps the die at the same depth reads one count of the pool at that depth (:func:`_kept_counts`)."""
    depth = _depth(group, tn) if group.explode else None
    if depth is not None and depth > FAST_MAX_DEPTH:
        # with its error bound: past the engine's work limit the table is cut at its tolerance, and a
        # TN beyond the cut reads 0 within that bound, not an exact 0
        return _chance_plain(Expression((Term(1, group),)), tn)
    if tn <= group.keep_count:  # every die shows at least 1
        return Fraction(1), Fraction(0)
    lo, counts, denominator = _kept_counts(group, depth)
    return Fraction(counts[tn - lo] if tn - lo < len(counts) else 0, denominator), Fraction(0)


@lru_cache(maxsize=1024)
def _kept_counts(group: Dice, depth: int | None) -> tuple[int, tuple[int, ...], int]:
    """For every TN from ``lo`` up to the highest whose die is capped at ``depth`` (every TN up to what
    the kept dice can show, unexploded), how many of the equally weighted outcomes reach it, and over how
    many: ``(lo, counts, denominator)``.

    The die is the one the dice engine rolls, capped there (compounding: a d10 shows ``10k + f`` for a
    face ``f`` of 1-9 after ``k`` tens, the cap carrying the rest; no tens rerolled unskilled). Values
    are taken from the highest down: at each value, ``j`` of the dice not placed yet show it (``C(left,
    j)`` ways); while fewer than ``kept`` dice are placed they are the kept ones, and their sum is
    followed up to the highest TN: once there, the rest of the dice fall anywhere lower (``lower **
    left`` ways) and every TN is reached; once ``kept`` dice are placed, their total is final (with the
    rest lower); a total that cannot reach the lowest TN is not followed."""
    rolled, kept, sides = group.count, group.keep_count, group.sides
    weights, denominator = _die(sides, depth)
    if depth is None:
        lo, hi = kept + 1, kept * sides
    else:
        lo = kept + 1 if depth == 0 else sides * depth + kept
        hi = sides * (depth + 1) + kept - 1
    lower = denominator
    top = 0  # ways to reach hi (and so every TN)
    finals = [0] * (hi - lo)  # ways to end on each total from lo to hi - 1
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (dice placed, kept total so far) -> ways
    for i, (value, weight) in enumerate(weights):
        lower -= weight
        # the values still to come are below this one: a total that cannot reach the lowest TN even if
        # every kept die left showed the next value reaches none, and is not followed
        below = weights[i + 1][0] if i + 1 < len(weights) else 0
        after = {
            (placed, total): ways
            for (placed, total), ways in states.items()
            if total + (kept - placed) * below >= lo
        }  # j = 0: no die shows this value
        for (placed, total), ways in states.items():
            left = rolled - placed
            room = kept - placed
            ways_j = ways
            for j in range(1, left + 1):
                ways_j *= weight
                n = _COMB[left][j] * ways_j
                now = placed + j
                reached = total + (j if j < room else room) * value
                if reached >= hi:
                    top += n * lower ** (rolled - now)
                elif now >= kept:
                    if reached >= lo:
                        finals[reached - lo] += n * lower ** (rolled - now)
                elif reached + (kept - now) * below >= lo:
                    key = (now, reached)
                    after[key] = after.get(key, 0) + n
        states = after
    counts = [top]
    for ways in reversed(finals):
        counts.append(counts[-1] + ways)
    return lo, tuple(reversed(counts)), denominator**rolled


#: Binomial coefficients C(n, j) for n up to the fast domain's dice.
_COMB: tuple[tuple[int, ...], ...] = tuple(
    tuple(math.comb(n, j) for j in range(n + 1)) for n in range(FAST_MAX_ROLLED + 1)
)


@lru_cache(maxsize=16)
def _die(sides: int, depth: int | None) -> tuple[tuple[tuple[int, int], ...], int]:
    """A die's values with their weights, highest first, and the weights' total: exploded (compounding)
    ``depth`` times as the dice engine does (level ``k`` shows ``k * sides + f`` for a face ``f`` below
    ``sides``, of weight ``sides ** (depth - k)``; the last level's top face, ``sides * (depth + 1)``, of
    weight 1, stands for everything beyond), or plain (``None``)."""
    if depth is None:
        return tuple((v, 1) for v in range(sides, 0, -1)), sides
    weights = [((depth + 1) * sides, 1)]
    for k in range(depth, -1, -1):
        weights += [(k * sides + face, sides ** (depth - k)) for face in range(sides - 1, 0, -1)]
    return tuple(weights), sides ** (depth + 1)


@lru_cache(maxsize=1024)
def _mean(rolled: int, kept: int, explode: bool) -> Fraction:
    if rolled == 0 or kept == 0:
        return Fraction(0)
    expr = pool_dice(rolled, kept, explode)
    group = _kept_group(expr)
    if group is None:
        return distribution(expr, limits=_limits(rolled)).mean
    return _kept_mean(group, tolerance_depth(group) if group.explode else None)


@lru_cache(maxsize=1024)
def _kept_mean(group: Dice, depth: int | None) -> Fraction:
    """The mean of the kept dice's total for the pool ``group`` with its die capped at ``depth`` (the
    dice engine's die, :func:`_die`), by counting: exactly ``distribution(pool_dice(...)).mean``, the
    mean of that very table, which costs one icepool pool evaluation (0.15-0.4 s a pool) where this
    takes about a millisecond (``tests/l5r/test_pool_mean.py`` compares the two).

    The kept dice are the ``kept`` highest, so their total is the sum over the die's values ``v``
    (ascending) of ``(v - previous value)`` times the number of kept dice showing at least ``v``, which
    is ``min(N, kept)`` for ``N`` the dice of the pool showing at least ``v`` (binomial: each die does
    with the weight of the values from ``v`` up). Its expectation is summed in whole numbers over
    ``denominator ** rolled``."""
    rolled, kept = group.count, group.keep_count
    weights, denominator = _die(group.sides, depth)
    comb = _COMB[rolled]
    ascending: list[tuple[int, int]] = []  # (value, weight of the values from it up)
    up = 0
    for value, weight in weights:  # highest first
        up += weight
        ascending.append((value, up))
    ascending.reverse()
    total = 0
    previous = 0
    for value, s in ascending:
        f = denominator - s
        kept_at_least = sum(
            comb[n] * s**n * f ** (rolled - n) * (n if n < kept else kept) for n in range(1, rolled + 1)
        )
        total += (value - previous) * kept_at_least
        previous = value
    return Fraction(total, denominator**rolled)
