"""Solving for a target: at which value of a path does a side's win rate cross a rate?
(``kassen lab solve SCENARIO --vary PATH=LO..HI --target SIDE=RATE``).

Every value tried plays the same fights (seeds S .. S+N-1: common random numbers, so neighbouring values
differ by what the value changes, not by other dice). The ends are played first; when the side's rate
is on the same side of the target at both, no value in the range reaches it, and the answer says so
with both rates. Otherwise the range is bisected — whole numbers for a whole-number range (to two
neighbours), else real values (``steps`` halvings) — always keeping the part where the rate crosses.
The answer is where the straight line between the last two values crosses the target.

Its 95% interval is a bootstrap over the *seeds*: the fights are drawn again with replacement, the
same draws for every value tried (so the pairing is kept), the crossing is found again over all values
tried, and the 2.5% and 97.5% points of those crossings are the interval (fixed draws from the seed:
the same answer every time). A rate that is not monotone in the value is bisected all the same, to one
of its crossings.
"""

from __future__ import annotations

__all__ = ["Point", "SolveResult", "parse_span", "solve"]

import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kassen.i18n import _, translate_text, use_language
from kassen.lab.api import Progress, Scenario, _aggregate, _opener, known_sides
from kassen.lab.backends import Backend, batches, run_batches, session
from kassen.lab.engine import Batch, FightRecord
from kassen.lab.limits import LabError
from kassen.lab.results import RunResult
from kassen.lab.sentences import crossing, pct
from kassen.lab.sequential import check_side

#: Bootstrap draws for the answer's interval.
DRAWS = 500
#: Most halvings of a real range.
MAX_STEPS = 20
_SPAN = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*$")


@dataclass(frozen=True, slots=True)
class Point:
    """One value tried: the side's wins of the fights and its rate with a 95% Wilson interval."""

    value: float
    wins: int
    fights: int
    rate: float
    ci95: tuple[float, float]


@dataclass(frozen=True)
class SolveResult:
    """Where ``side``'s win rate crosses ``target`` along ``path`` (see the module notes): the values
    tried (in order of value), the answer (None: no value in the range reaches it), the two values it
    lies between, and the answer's 95% bootstrap interval."""

    scenario: str
    source: str
    path: str
    side: str
    side_name: str
    target: float
    low: float
    high: float
    integer: bool
    fights: int
    seed: int
    points: tuple[Point, ...]
    answer: float | None
    between: tuple[float, float] | None
    interval: tuple[float, float] | None
    policies: Mapping[str, str] = field(default_factory=dict)

    def _show(self, x: float) -> str:
        return f"{x:g}" if self.integer and x == int(x) else f"{x:.2f}".rstrip("0").rstrip(".")

    def sentence(self) -> str:
        """The answer in one sentence, in the reader's language (the JSON's is in English)."""
        what = self.path.rsplit(".", 1)[-1]
        side = translate_text(self.side_name)
        if self.answer is None or self.between is None:
            return _(
                "No value of {path} from {low} to {high} brings {side}'s win rate to {target} ({low_rate} at "
                "{low}, {high_rate} at {high}, {fights} fights each)."
            ).format(
                path=what, low=self._show(self.low), high=self._show(self.high), side=side,
                target=pct(self.target), low_rate=pct(self.points[0].rate),
                high_rate=pct(self.points[-1].rate), fights=f"{self.fights:,}",
            )  # fmt: skip
        lo, hi = self.between
        values = {
            "side": side, "target": pct(self.target), "path": what, "answer": f"{self.answer:.1f}",
            "first": self._show(lo), "second": self._show(hi), "fights": f"{self.fights:,}",
        }  # fmt: skip
        if self.interval is not None:
            return _(
                "{side} wins {target} at {path} {answer} (95%: {low} to {high}), between {first} and "
                "{second} ({fights} fights each, the same seeds)."
            ).format(low=f"{self.interval[0]:.1f}", high=f"{self.interval[1]:.1f}", **values)
        return _(
            "{side} wins {target} at {path} {answer}, between {first} and {second} ({fights} fights each, "
            "the same seeds)."
        ).format(**values)

    def english_sentence(self) -> str:
        """The answer in English, as the JSON gives it whatever the reader's language."""
        with use_language("en"):
            return self.sentence()

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "value": p.value,
                "wins": p.wins,
                "fights": p.fights,
                "rate": p.rate,
                "ci95_lo": p.ci95[0],
                "ci95_hi": p.ci95[1],
            }
            for p in self.points
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "path": self.path,
            "side": self.side,
            "target": self.target,
            "range": [self.low, self.high],
            "integer": self.integer,
            "fights": self.fights,
            "seed": self.seed,
            "policies": dict(self.policies),
            "answer": self.answer,
            "between": list(self.between) if self.between else None,
            "ci95": list(self.interval) if self.interval else None,
            "points": self.rows(),
            "sentence": self.english_sentence(),
        }


def parse_span(spec: str) -> tuple[str, float, float, bool]:
    """``PATH=LO..HI``: the path, the ends, and whether both are whole numbers."""
    if not isinstance(spec, str) or "=" not in spec:
        raise LabError(
            _("--vary takes PATH=LO..HI (e.g. fighters.ryu.skill=10..16), not {spec}").format(
                spec=repr(str(spec)[:80])
            )
        )
    path, _eq, rest = spec.partition("=")
    m = _SPAN.match(rest)
    if not m or not path.strip():
        raise LabError(
            _("--vary takes PATH=LO..HI with LO below HI, not {spec}").format(spec=repr(spec[:80]))
        )
    lo_text, hi_text = m.group(1), m.group(2)
    lo, hi = float(lo_text), float(hi_text)
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo or max(abs(lo), abs(hi)) > 1e9:
        raise LabError(
            _("--vary takes PATH=LO..HI with LO below HI, not {spec}").format(spec=repr(spec[:80]))
        )
    integer = "." not in lo_text and "." not in hi_text
    return path.strip(), lo, hi, integer


def parse_target(spec: str) -> tuple[str, float]:
    """``SIDE=RATE`` with RATE strictly between 0 and 1."""
    side, _eq, rate = str(spec).partition("=")
    try:
        value = float(rate)
    except ValueError:
        value = math.nan
    if not side.strip() or not 0 < value < 1:
        shown = str(spec)[:60]
        raise LabError(
            _("--target takes SIDE=RATE with RATE between 0 and 1 (east=0.5), not {shown}").format(
                shown=repr(shown)
            )
        )
    return side.strip(), value


def solve(
    scenario: Scenario,
    vary: str,
    target: str,
    *,
    fights: int,
    seed: int = 0,
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    content: Sequence[str | Path] | str | Path = (),
    max_actions: int | None = None,
    policies: Mapping[str, str] | None = None,
    steps: int = 8,
    progress: Progress | None = None,
) -> SolveResult:
    """Find where ``target`` (``SIDE=RATE``) is crossed along ``vary`` (``PATH=LO..HI``), each value
    tried with ``fights`` fights from ``seed`` (see the module notes); ``steps`` halvings of a real
    range at most."""
    from kassen.lab.sweeping import plan_sweep

    path, lo, hi, integer = parse_span(vary)
    side, rate = parse_target(target)
    if not 1 <= steps <= MAX_STEPS:
        raise LabError(_("steps is a number of halvings from 1 to {max_steps}").format(max_steps=MAX_STEPS))
    ends: list[Any] = [int(lo), int(hi)] if integer else [lo, hi]
    plan = plan_sweep(
        scenario,
        [f"{path}={ends[0]},{ends[1]}"],
        fights=fights,
        seed=seed,
        jobs=jobs,
        backend=backend,
        address=address,
        content=content,
        max_actions=max_actions,
        policies=policies,
    )
    base = plan.base
    check_side(side, known_sides(base.opener), "--target")  # the side came with the target, not --side
    tried: dict[float, list[bool]] = {}
    names: dict[str, str] = {}

    def play(values: Sequence[Any]) -> None:
        """Play every value not tried yet, all at once (each on the same seeds)."""
        todo = [v for v in values if float(v) not in tried]
        work: list[Batch] = []
        for k, v in enumerate(todo):
            text, error = plan.cell([v])
            if text is None:
                raise LabError(
                    _("{path}={v} does not validate: {error}").format(
                        path=path, v=v, error=translate_text(error)
                    )
                )
            work += batches(
                base.source.name, text, base.content, base.seeds(), base.jobs, base.max_actions,
                cell=k, start=len(work), policies=base.policies,
            )  # fmt: skip
        got: dict[int, dict[int, list[FightRecord]]] = {}

        def on_batch(b: Batch, records: list[FightRecord]) -> None:
            got.setdefault(b.cell, {})[b.index] = records
            if progress:
                progress(len(b.seeds))

        run_batches(work, jobs=base.jobs, backend=base.backend, address=base.address, on_batch=on_batch)
        for k, v in enumerate(todo):
            records = [r for i in sorted(got.get(k, {})) for r in got[k][i]]
            tried[float(v)] = [r.status == "win" and r.winner == side for r in records]
            if not names:
                text, _error = plan.cell([v])
                assert text is not None
                opener = _opener(base.source.name, text, base.content)
                result: RunResult = _aggregate(opener, base.source, records, seed)
                names.update({s.id: s.name for s in result.sides})

    def rate_of(v: float) -> float:
        wins = tried[float(v)]
        return sum(wins) / len(wins)

    a, b = ends
    with session(base.backend, base.jobs, base.address):
        play([a, b])
        between: tuple[float, float] | None = None
        if (rate_of(a) - rate) * (rate_of(b) - rate) <= 0:
            for _step in range(MAX_STEPS if integer else steps):
                if (integer and b - a <= 1) or rate_of(a) == rate or rate_of(b) == rate:
                    break
                mid: Any = (a + b) // 2 if integer else (a + b) / 2
                play([mid])
                if (rate_of(a) - rate) * (rate_of(mid) - rate) <= 0:
                    b = mid
                else:
                    a = mid
            between = (float(a), float(b))
    values = sorted(tried)
    answer = interval = None
    if between is not None:
        answer = _cross(values, [rate_of(v) for v in values], rate, between)
        interval = _bootstrap(values, tried, rate, between, random.Random(seed))
    from kassen.lab.stats import wilson

    points = tuple(
        Point(v, sum(tried[v]), len(tried[v]), round(rate_of(v), 6), wilson(sum(tried[v]), len(tried[v])))
        for v in values
    )
    return SolveResult(
        base.opener.setup.title, base.source.name, path, side, names.get(side, side), rate, lo, hi, integer,
        fights, seed, points, answer, between, interval, dict(base.policies),
    )  # fmt: skip


def _cross(
    xs: Sequence[float], ys: Sequence[float], target: float, near: tuple[float, float]
) -> float | None:
    """The crossing of ``target`` nearest the bracket ``near`` (a rate that is not monotone may cross
    more than once)."""
    found = []
    for i in range(1, len(xs)):
        c = crossing(xs[i - 1 : i + 1], ys[i - 1 : i + 1], target)
        if c is not None:
            found.append(c[0])
    if not found:
        return None
    mid = (near[0] + near[1]) / 2
    return min(found, key=lambda x: abs(x - mid))


def _bootstrap(
    xs: Sequence[float],
    wins: Mapping[float, Sequence[bool]],
    target: float,
    near: tuple[float, float],
    rng: random.Random,
) -> tuple[float, float] | None:
    n = min(len(wins[x]) for x in xs)
    columns = [wins[x] for x in xs]
    found: list[float] = []
    for _draw in range(DRAWS):
        picks = [rng.randrange(n) for _pick in range(n)]
        ys = [sum(col[i] for i in picks) / n for col in columns]
        c = _cross(xs, ys, target, near)
        # a draw whose rates never reach the target puts the crossing past the end it is nearest
        if c is None:
            c = xs[0] if abs(ys[0] - target) < abs(ys[-1] - target) else xs[-1]
        found.append(c)
    found.sort()
    lo = found[int(0.025 * (len(found) - 1))]
    hi = found[math.ceil(0.975 * (len(found) - 1))]
    return round(lo, 4), round(hi, 4)
