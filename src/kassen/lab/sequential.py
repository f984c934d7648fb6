"""Stopping a run as soon as its question is answered: ``--until WIDTH`` and ``--decide RATE``.

A sequential run plays its fights in *looks* of ``every`` fights (fight i keeps seed S+i) and reads its
rule only when a whole look is in, so where it stops depends on the fights alone — never on how many
jobs played them or which finished first: the same for any ``--jobs`` and either backend.

* ``until WIDTH``: stop when the 95% Wilson interval of ``side``'s win rate is at most WIDTH wide. The
  width depends on the number of fights and the rate's distance from 50% only, not on which way the
  rate erred, so the interval reported at the stop keeps its coverage (checked by the tests).
* ``decide RATE``: stop when ``side``'s win rate is above or below RATE by the anytime-valid
  confidence sequence of :mod:`kassen.lab.stats`: whatever the true rate, the verdict is wrong with
  probability at most ``alpha`` (5%), however many looks were taken. A rate equal to RATE, or too close
  to it for the fights allowed, ends undecided at the limit.
"""

from __future__ import annotations

__all__ = ["DEFAULT_EVERY", "Rule", "check_rule", "check_side"]

import math
from dataclasses import dataclass
from typing import Any, Literal

from kassen.i18n import _
from kassen.lab.limits import MAX_FIGHTS, LabError, check_count
from kassen.lab.results import Sequential, Tally
from kassen.lab.stats import Decide, confidence_sequence, wilson

#: Fights per look when ``every`` is not given.
DEFAULT_EVERY = 100


@dataclass(frozen=True, slots=True)
class Rule:
    """A stopping rule (see the module notes) on ``side``'s win rate."""

    kind: Literal["until", "decide"]
    target: float
    side: str
    every: int = DEFAULT_EVERY
    alpha: float = 0.05

    def read(self, tally: Tally) -> tuple[bool, str | None, tuple[float, float]]:
        """Whether the rule is met after the fights counted, the verdict, and the interval it read."""
        k, n = tally.wins.get(self.side, 0), tally.fights
        if self.kind == "until":
            lo, hi = wilson(k, n)
            return n > 0 and hi - lo <= self.target, None, (lo, hi)
        verdict = Decide(self.target, self.alpha).verdict(k, n)
        return verdict is not None, verdict, confidence_sequence(k, n, self.alpha)

    def report(self, tally: Tally, limit: int, looks: int) -> Sequential:
        met, verdict, interval = self.read(tally)
        return Sequential(
            self.kind, self.side, self.target, self.every, limit, looks, met, verdict, interval, self.alpha
        )

    def spec(self) -> dict[str, Any]:
        """What decides the fights a rule plays (a stored sweep cell is reused only under the same)."""
        return {"rule": self.kind, "target": self.target, "side": self.side, "every": self.every}


def check_rule(until: Any, decide: Any, side: str | None, every: Any, sides: tuple[str, ...]) -> Rule | None:
    """The rule the options ask for (None: play every fight), checked: one of ``until`` (0 < WIDTH
    <= 1) and ``decide`` (0 < RATE < 1), a ``side`` of the scenario (default: its first), ``every``
    a number of fights."""
    if until is None and decide is None:
        if every is not None:
            raise LabError(_("--every goes with --until or --decide"))
        return None
    if until is not None and decide is not None:
        raise LabError(_("give --until WIDTH or --decide RATE, not both"))
    look = DEFAULT_EVERY if every is None else check_count(every, "every", MAX_FIGHTS)
    who = check_side(side if side is not None else (sides[0] if sides else None), sides)
    if until is not None:
        width = _number(until, "--until")
        if not 0 < width <= 1:
            raise LabError(
                _("--until is an interval's width between 0 and 1 (0.05: 5 points), not {width}").format(
                    width=format(width, "g")
                )
            )
        return Rule("until", width, who, look)
    rate = _number(decide, "--decide")
    if not 0 < rate < 1:
        raise LabError(
            _("--decide is a win rate strictly between 0 and 1, not {rate}").format(rate=format(rate, "g"))
        )
    return Rule("decide", rate, who, look)


def check_side(who: str | None, sides: tuple[str, ...], option: str = "--side") -> str:
    """``who`` if it is one of the scenario's ``sides`` (any, when the scenario names none), else a
    :class:`LabError` naming the ``option`` that gave it (``--side``, or ``--target`` of a solve)."""
    if who is None or (sides and who not in sides):
        raise LabError(
            _("{option} {who} is not a side of this scenario (sides: {names})").format(
                option=option, who=repr(str(who)[:40]), names=", ".join(sides)
            )
        )
    return who


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LabError(_("{name} is a number, not {value}").format(name=name, value=repr(str(value)[:20])))
    return float(value)
