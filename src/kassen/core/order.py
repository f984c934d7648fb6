"""Turn order as a strategy (DESIGN principle 8): who acts next, three ways the rulesets use.

* :func:`count_down` — Sengoku's Energy count: the highest value still at or above a floor acts, ties
  broken by a key; everyone else waits for the count to come down to them.
* :func:`initiative` — roll-and-keep initiative: a ranking by key gives the acting order (best first)
  and the declaring order (the same reversed: the worst declares first and acts last).
* :func:`slots` — arena subturns: a fixed order of slots taken in turn, skipping who cannot act.

Each is a pure function of what the ruleset passes in (its units, their values and keys), so the
ruleset keeps its state and the order keeps one meaning.

>>> energy = {"kuro": 12, "oni": 10, "genzaburo": 12}
>>> count_down(["kuro", "oni", "genzaburo"], energy.get, tie=["genzaburo", "kuro", "oni"].index)
(12, ['genzaburo', 'kuro'])
>>> initiative([((-17,), "hida"), ((-21,), "kakita")])
(('kakita', 'hida'), ('hida', 'kakita'))
>>> slots(["ryu", "ken"], 0, lambda f: f != "ryu")
1
"""

from __future__ import annotations

__all__ = ["count_down", "initiative", "slots"]

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def count_down(
    candidates: Iterable[T], value: Callable[[T], int | None], *, tie: Callable[[T], Any], floor: int = 1
) -> tuple[int, list[T]] | None:
    """The count now — the highest ``value`` at or above ``floor`` among ``candidates`` (``None``: not
    counted) — and everyone at it, in ``tie`` order; ``None`` when nobody is left on the count."""
    counted = [(v, c) for c in candidates if (v := value(c)) is not None and v >= floor]
    if not counted:
        return None
    top = max(v for v, _ in counted)
    at = [c for v, c in counted if v == top]
    # one alone at the count needs no tie broken (``tie`` may be dear: it is not asked)
    return top, sorted(at, key=tie) if len(at) > 1 else at


def initiative(ranking: Iterable[tuple[Sequence[Any], Hashable]]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``(acting order, declaring order)`` from ``(key, who)`` pairs: the lowest key acts first and
    declares last (the ruleset's key puts the best initiative lowest)."""
    acting = tuple(who for _, who in sorted(ranking, key=lambda pair: tuple(pair[0])))
    return acting, tuple(reversed(acting))


def slots(order: Sequence[T], slot: int, can_act: Callable[[T], bool]) -> int | None:
    """The first slot from ``slot`` on whose holder can act (``None``: the round of slots is over)."""
    for i in range(slot, len(order)):
        if can_act(order[i]):
            return i
    return None
