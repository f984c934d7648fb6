"""Exact distributions of dice expressions: sums in plain integers, kept pools with icepool.

Everything is a :class:`fractions.Fraction`. Non-exploding expressions are exact, full stop.

Exploding dice have infinitely many outcomes, so an exploding die is computed *capped*: icepool's
``explode(depth=D)`` gives exactly ``min(X, S*(D+1))`` (the last level's maximum face carries the whole
tail mass ``S^-(D+1)``). That yields two guarantees:

- :func:`probability_at_least` is **exact** (error 0) whenever every exploding group is added (not
  subtracted): the cap is chosen so that a die reaching it already makes the total reach the target, so
  capping cannot change whether ``total >= target``. (Only if that cap would exceed
  ``DiceLimits.max_exact_die_outcomes`` or ``max_exact_work`` does it fall back to the tolerance below,
  and says so in ``error_bound``.)
- Every table is refused with a ``DiceLimitError`` (``max_exact_work``) before any work is done when its
  estimated cost is too high, so no request runs for more than a fraction of a second.
- :func:`distribution` (the whole table) caps every exploding die where its remaining tail mass is below
  ``tolerance`` (default 10^-13 for the whole expression); :attr:`Distribution.error_bound` is an upper
  bound on the probability mass moved by the caps (total-variation distance to the true distribution).

Sums are convolved in plain integers here (so ``kassen odds 2d10`` never imports icepool); only a group
that keeps some of its dice (``7k3``, ``4d6kh3``) asks icepool for its pool evaluation.

Tables are kept between calls in :data:`EXACT_CACHE`, a bounded :class:`~kassen.dice.cache.BoundedCache`
(least recently used first out): each dice group's table (the exploded die is the costly part of a
roll-and-keep table), each finished :class:`Distribution` and each :func:`at_least` answer, keyed by
value (expression, caps, target, tolerance, limits). Everything cached is immutable, so a repeated
question is answered from the cache with the same objects; a :class:`Distribution` returned from it is
shared and must not be mutated.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_TOLERANCE",
    "EXACT_CACHE",
    "Distribution",
    "ExactCache",
    "at_least",
    "distribution",
    "enumerate_faces",
    "probability_at_least",
    "tolerance_depth",
]

import itertools
import math
from fractions import Fraction

from kassen.core.errors import S_, ArgumentError, DiceLimitError, check_whole, kind_of
from kassen.dice.ast import Constant, Dice, Expression
from kassen.dice.cache import BoundedCache
from kassen.dice.limits import DEFAULT_LIMITS, DiceLimits
from kassen.dice.parser import parse
from kassen.dice.record import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see kassen.dice.record)
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    #: A table in whole numbers: outcome -> weight, and the weights' common denominator.
    _Weights = tuple[dict[int, int], int]

DEFAULT_TOLERANCE = Fraction(1, 10**13)


#: The cache class of the exact tables (the general bounded cache of kassen.dice).
ExactCache = BoundedCache


#: The tables every function of this module shares (see the module notes).
EXACT_CACHE = BoundedCache(512)


class Distribution(Record):
    """Outcome → exact probability, in increasing outcome order.

    ``error_bound`` is 0 for an exact table; for a capped exploding expression it bounds the mass that
    sits at a cap instead of beyond it.
    """

    __slots__ = ("error_bound", "probabilities")
    __match_args__ = ("probabilities", "error_bound")
    probabilities: Mapping[int, Fraction]
    error_bound: Fraction

    def __init__(self, probabilities: Mapping[int, Fraction], error_bound: Fraction = Fraction(0)) -> None:
        self._set(probabilities, error_bound)

    def at_least(self, target: int) -> Fraction:
        target = check_whole(target, "target")
        return sum((p for o, p in self.probabilities.items() if o >= target), Fraction(0))

    def at_most(self, target: int) -> Fraction:
        target = check_whole(target, "target")
        return sum((p for o, p in self.probabilities.items() if o <= target), Fraction(0))

    def equal(self, target: int) -> Fraction:
        return self.probabilities.get(check_whole(target, "target"), Fraction(0))

    @property
    def mean(self) -> Fraction:
        return sum((o * p for o, p in self.probabilities.items()), Fraction(0))

    @property
    def minimum(self) -> int:
        return min(self.probabilities)

    @property
    def maximum(self) -> int:
        return max(self.probabilities)

    @property
    def exact(self) -> bool:
        return self.error_bound == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "outcomes": {str(o): str(p) for o, p in self.probabilities.items()},
            "error_bound": float(self.error_bound),
        }


def distribution(
    expression: Expression | str,
    *,
    unskilled: bool = False,
    tolerance: Fraction = DEFAULT_TOLERANCE,
    limits: DiceLimits = DEFAULT_LIMITS,
) -> Distribution:
    """The distribution of the total of ``expression``.

    >>> distribution("2d6").equal(7)
    Fraction(1, 6)
    """
    tolerance = _tolerance(tolerance)
    expr = _expr(expression, unskilled, limits)
    exploding = list(_exploding(expr))
    caps: dict[int, _Cap] = {}
    for i, group in exploding:
        depth = _tolerance_depth(group, tolerance / len(exploding))
        caps[i] = _Cap(depth, _tail(group, depth))
    return _cached_build(expr, caps, limits)


def probability_at_least(
    expression: Expression | str,
    target: int,
    *,
    unskilled: bool = False,
    tolerance: Fraction = DEFAULT_TOLERANCE,
    limits: DiceLimits = DEFAULT_LIMITS,
) -> Distribution:
    """A distribution from which ``P(total >= target)`` reads exactly (see the module notes).

    Returns the :class:`Distribution`, so callers also see ``error_bound`` (0 when exact); use
    :func:`at_least` for just the fraction.
    """
    target = check_whole(target, "target")
    tolerance = _tolerance(tolerance)
    expr = _expr(expression, unskilled, limits)
    return _cached_build(expr, _target_caps(expr, target, tolerance, limits), limits)


def _target_caps(expr: Expression, target: int, tolerance: Fraction, limits: DiceLimits) -> dict[int, _Cap]:
    """How deep each exploding group is computed so that ``P(total >= target)`` reads exactly."""
    exploding = list(_exploding(expr))
    lowest = expr.minimum
    caps: dict[int, _Cap] = {}
    for i, group in exploding:
        fallback = _tolerance_depth(group, tolerance / len(exploding))
        if lowest is None:  # a subtracted exploding group: no cap is safe, use the tolerance
            caps[i] = _Cap(fallback, _tail(group, fallback))
            continue
        # A kept die worth ``cap`` or more already makes the total at least lowest - 1 + cap >= target,
        # so capping it there cannot change the event total >= target.
        cap = max(group.sides, target - lowest + 1)
        depth = math.ceil(cap / group.sides) - 1
        if depth <= fallback or (
            group.sides * (depth + 1) <= limits.max_exact_die_outcomes
            and _group_work(group, depth)[0] <= limits.max_exact_work
        ):
            caps[i] = _Cap(depth, Fraction(0))
        else:
            caps[i] = _Cap(fallback, _tail(group, fallback))
    return caps


def at_least(expression: Expression | str, target: int, **kwargs: Any) -> Fraction:
    """``P(total >= target)`` as a fraction (see :func:`probability_at_least` for its exactness).

    >>> at_least("2d10", 11)
    Fraction(11, 20)
    """
    unskilled = kwargs.pop("unskilled", False)
    tolerance: Fraction = kwargs.pop("tolerance", DEFAULT_TOLERANCE)
    limits: DiceLimits = kwargs.pop("limits", DEFAULT_LIMITS)
    if kwargs:  # the same refusal probability_at_least would give
        raise ArgumentError(
            S_("at_least() got unexpected keyword arguments: {items}", items=", ".join(sorted(kwargs)))
        )
    target = check_whole(target, "target")
    tolerance = _tolerance(tolerance)
    expr = _expr(expression, unskilled, limits)
    return EXACT_CACHE.get(
        ("at_least", expr, target, tolerance, limits), lambda: _at_least(expr, target, tolerance, limits)
    )


def _at_least(expr: Expression, target: int, tolerance: Fraction, limits: DiceLimits) -> Fraction:
    # Read from the table in whole numbers: one Fraction, not one per outcome.
    caps = _target_caps(expr, target, tolerance, limits)
    weights, denominator, constant, _ = _cached_weights(expr, caps, limits)
    return Fraction(sum([w for o, w in weights.items() if o + constant >= target]), denominator)


def enumerate_faces(
    count: int, sides: int, *, limits: DiceLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, ...]]:
    """Every equally likely tuple of faces of ``count`` dice with ``sides`` faces (each has probability
    ``sides ** -count``). For rules that look at faces, not totals (doubles: SG.CHK.2)."""
    count = check_whole(count, "count")
    sides = check_whole(sides, "sides")
    _limits(limits)
    if count < 1 or sides < 1:
        raise DiceLimitError(
            S_("cannot enumerate {count}d{sides}", count=count, sides=sides),
            f"{count}d{sides}",
            limit="max_enumerated_faces",
        )
    if count > limits.max_enumerated_faces or sides ** min(count, 64) > limits.max_enumerated_faces:
        cases = f"{sides**count:,}" if count * sides.bit_length() <= 128 else "too many"
        raise DiceLimitError(
            S_(
                "enumerating {count}d{sides} gives {cases} cases; the limit is {max_enumerated_faces}",
                count=count,
                sides=sides,
                cases=cases,
                max_enumerated_faces=format(limits.max_enumerated_faces, ","),
            ),
            f"{count}d{sides}",
            limit="max_enumerated_faces",
        )
    return itertools.product(range(1, sides + 1), repeat=count)


# -- internals -----------------------------------------------------------------------------------------
def _expr(expression: Expression | str, unskilled: bool, limits: DiceLimits) -> Expression:
    if isinstance(expression, str):
        return parse(expression, unskilled=unskilled, limits=limits)
    if not isinstance(expression, Expression):
        raise ArgumentError(
            S_(
                "a dice expression is text such as '2d6' or a parsed Expression, not {kind_of}",
                kind_of=kind_of(expression),
            )
        )
    if unskilled is not False and unskilled is not True:
        raise ArgumentError(S_("unskilled is True or False, not {kind_of}", kind_of=kind_of(unskilled)))
    _limits(limits)
    return expression


def _limits(limits: object) -> None:
    if not isinstance(limits, DiceLimits):
        raise ArgumentError(S_("limits are a DiceLimits, not {kind_of}", kind_of=kind_of(limits)))


def _tolerance(tolerance: object) -> Fraction:
    """A tolerance: an exact fraction (or whole number) above 0 and below 1."""
    if isinstance(tolerance, bool) or not isinstance(tolerance, Fraction | int):
        raise ArgumentError(
            S_("tolerance is a Fraction between 0 and 1, not {kind_of}", kind_of=kind_of(tolerance))
        )
    if not 0 < tolerance < 1:
        raise ArgumentError(
            S_("tolerance is a Fraction between 0 and 1, not {tolerance}", tolerance=tolerance)
        )
    return Fraction(tolerance)


def _exploding(expr: Expression) -> Iterator[tuple[int, Dice]]:
    for i, t in enumerate(expr.terms):
        if isinstance(t.node, Dice) and t.node.explode:
            yield i, t.node


class _Cap(Record):
    __slots__ = ("depth", "error")
    __match_args__ = ("depth", "error")
    depth: int
    error: Fraction

    def __init__(self, depth: int, error: Fraction) -> None:
        self._set(depth, error)


def _tail(group: Dice, depth: int) -> Fraction:
    """Upper bound on the chance that some die of ``group`` explodes past ``depth``."""
    return Fraction(group.count, group.sides ** (depth + 1))


def tolerance_depth(group: Dice, tolerance: Fraction = DEFAULT_TOLERANCE) -> int:
    """How many times :func:`distribution` explodes ``group`` when it is the expression's only exploding
    group (its tail, the chance that some die explodes further, within ``tolerance``): what a caller
    that counts the same table another way caps its die at."""
    return _tolerance_depth(group, tolerance)


def _tolerance_depth(group: Dice, tolerance: Fraction) -> int:
    """Smallest depth D whose tail (see :func:`_tail`) is within ``tolerance``."""
    if tolerance <= 0:
        raise ValueError("tolerance must be positive")
    depth = 0
    while _tail(group, depth) > tolerance:
        depth += 1
    return depth


def _group_work(group: Dice, depth: int | None) -> tuple[int, int]:
    """``(steps, span)``: a rough count of the steps icepool takes to build the table of ``group``
    (calibrated on icepool 2.1), and how many totals that table spans."""
    if group.explode and depth is not None:
        span = group.sides * (depth + 1)
        distinct = (group.sides - 1) * (depth + 1) + 1
        steps = span * span // 2  # the explosion, level by level
    else:
        span = distinct = group.sides
        steps = 0
    if group.keep is None or group.keep_count == group.count:
        steps += group.count * (group.count - 1) // 2 * span * distinct  # count - 1 convolutions
    else:
        # One pool evaluation; measured about half as costly per outcome pair for exploding dice.
        steps += (group.keep_count * distinct) ** 2 * (group.count + 10) // (10 if group.explode else 5)
    return steps, group.kept * span


def _cached_build(expr: Expression, caps: dict[int, _Cap], limits: DiceLimits) -> Distribution:
    key = ("table", expr, tuple(sorted(caps.items(), key=lambda item: item[0])), limits)

    def build() -> Distribution:
        weights, denominator, constant, error = _cached_weights(expr, caps, limits)
        probabilities = {o + constant: Fraction(weights[o], denominator) for o in sorted(weights)}
        return Distribution(probabilities, error)

    return EXACT_CACHE.get(key, build)


def _cached_weights(
    expr: Expression, caps: dict[int, _Cap], limits: DiceLimits
) -> tuple[dict[int, int], int, int, Fraction]:
    """The table of ``expr`` in whole numbers: weights by outcome (before the constant), their common
    denominator, the constant, and the error bound."""
    key = ("weights", expr, tuple(sorted(caps.items(), key=lambda item: item[0])), limits)
    return EXACT_CACHE.get(key, lambda: _build(expr, caps, limits))


def _build(
    expr: Expression, caps: dict[int, _Cap], limits: DiceLimits
) -> tuple[dict[int, int], int, int, Fraction]:
    # Estimate the work first, so that a huge table is refused at once instead of computed for hours.
    steps, span = 0, 1
    for i, term in enumerate(expr.terms):
        if isinstance(term.node, Dice):
            cap = caps.get(i)
            group_steps, group_span = _group_work(term.node, None if cap is None else cap.depth)
            steps += group_steps + span * group_span  # the group's table, then adding it to the total
            span += group_span
    if steps > limits.max_exact_work:
        raise DiceLimitError(
            S_(
                "an exact table of {expr} needs about {steps} steps; the limit is {max_exact_work}",
                expr=expr,
                steps=format(steps, ","),
                max_exact_work=format(limits.max_exact_work, ","),
            ),
            expr.text or str(expr),
            limit="max_exact_work",
        )
    total: _Weights = ({0: 1}, 1)
    constant = 0
    error = Fraction(0)
    try:
        for i, term in enumerate(expr.terms):
            node = term.node
            if isinstance(node, Constant):
                constant += term.sign * node.value
                continue
            cap = caps.get(i)
            die = _group_die(node, None if cap is None else cap.depth, expr, limits)
            if cap is not None:
                error += cap.error
            total = _add(total, die, term.sign)
    except RecursionError:  # icepool recurses once per outcome of a pooled die; never let it escape
        raise DiceLimitError(
            S_("an exact table of {expr} is too deep to compute", expr=expr),
            expr.text or str(expr),
            limit="max_exact_work",
        ) from None
    weights, denominator = total
    return weights, denominator, constant, min(error, Fraction(1))


def _group_die(group: Dice, depth: int | None, expr: Expression, limits: DiceLimits) -> _Weights:
    if group.explode:
        assert depth is not None
        if group.sides * (depth + 1) > limits.max_exact_die_outcomes:
            raise DiceLimitError(
                S_(
                    "an exact table of {group} needs {value} outcomes per die; the limit is "
                    "{max_exact_die_outcomes}",
                    group=group,
                    value=group.sides * (depth + 1),
                    max_exact_die_outcomes=limits.max_exact_die_outcomes,
                ),
                expr.text or str(expr),
                limit="max_exact_die_outcomes",
            )
    if (group.explode or group.keep is not None) and group.count > limits.max_exact_pool:
        raise DiceLimitError(
            S_(
                "an exact table of {group} needs a pool of {count} dice; the limit is {max_exact_pool}",
                group=group,
                count=group.count,
                max_exact_pool=limits.max_exact_pool,
            ),
            expr.text or str(expr),
            limit="max_exact_pool",
        )
    # Only the dice matter, not how the group was written (roll_and_keep changes only its text).
    shape = (group.count, group.sides, group.explode, group.keep, group.keep_count, depth)
    return EXACT_CACHE.get(("group", shape), lambda: _new_group_die(group, depth))


def _base_die(sides: int, depth: int | None) -> _Weights:
    """One die, exploded (compounding) to ``depth`` when given, as icepool's ``explode(depth=depth)``:
    level ``k`` (0..depth) shows ``k * sides + f`` for each face ``f < sides`` with weight
    ``sides ** (depth - k)``, and the last level's maximum ``(depth + 1) * sides`` carries the tail
    (weight 1), all over ``sides ** (depth + 1)``."""
    if depth is None:
        return dict.fromkeys(range(1, sides + 1), 1), sides
    weights: dict[int, int] = {}
    for k in range(depth + 1):
        weight = sides ** (depth - k)
        for face in range(1, sides):
            weights[k * sides + face] = weight
    weights[(depth + 1) * sides] = 1
    return weights, sides ** (depth + 1)


def _add(a: _Weights, b: _Weights, sign: int = 1) -> _Weights:
    """The table of the sum of two independent totals (``b`` subtracted when ``sign`` is -1)."""
    out: dict[int, int] = {}
    get = out.get
    b_items = [(sign * y, q) for y, q in b[0].items()]
    for x, p in a[0].items():
        for y, q in b_items:
            out[x + y] = get(x + y, 0) + p * q
    return out, a[1] * b[1]


def _new_group_die(group: Dice, depth: int | None) -> _Weights:
    base = _base_die(group.sides, depth if group.explode else None)
    if group.keep is None or group.keep_count == group.count:
        # Keeping every die is a plain sum: convolved here, one die at a time, in plain integers
        # (no icepool: ``kassen odds 2d10`` starts without importing it).
        total = base
        for _ in range(group.count - 1):
            total = _add(total, base)
        return total
    # Keeping some dice of a pool: icepool's pool evaluation, imported only here.
    import icepool

    die: Any = icepool.Die(base[0])
    pool = die.pool(group.count)
    kept = pool.highest(group.keep_count) if group.keep == "h" else pool.lowest(group.keep_count)
    table: Any = kept.sum()
    return {int(o): int(q) for o, q in table.items()}, int(table.denominator())
