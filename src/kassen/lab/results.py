"""The lab's results: typed, frozen, and plain rows for any table tool.

:func:`aggregate` turns the fights of a run (in seed order) into a :class:`RunResult`: each side's wins
with a 95% Wilson interval, draws, time-outs and errors apart, rounds to the end (mean, quantiles,
histogram), each unit's survival and Wounds dealt and taken, each action's uses and its attacks' success
rate. The same fights always give the same result, whatever ran them: everything is computed from the
records in seed order, so ``--jobs`` and the backend cannot change a digit.

Every result turns into rows (lists of plain dicts) for CSV, Parquet or a notebook::

    import pandas as pd
    df = pd.DataFrame(result.rows())          # one row per fight
    pd.DataFrame(result.table("units"))       # one row per unit
"""

from __future__ import annotations

__all__ = [
    "Z95",
    "ActionStats",
    "Interval",
    "Mean",
    "RoundStats",
    "RunResult",
    "Sequential",
    "SideStats",
    "Success",
    "Tally",
    "UnitStats",
    "aggregate",
    "wilson",
]

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from kassen.lab.engine import FightRecord
from kassen.lab.stats import DIGITS, Z95, clustered, mean_interval, wilson

#: The round quantiles reported (percent).
QUANTILES = (5, 25, 50, 75, 95)

Row = dict[str, Any]


def _rate(k: float, n: float) -> float | None:
    """``k / n``, or None (shown as n/a) when there is nothing to divide by."""
    return round(k / n, DIGITS) if n else None


@dataclass(frozen=True, slots=True)
class Interval:
    """``count`` of ``total`` fights, the rate (None: no fight to count) and its 95% Wilson interval."""

    count: int
    total: int
    rate: float | None
    ci95: tuple[float, float]

    @classmethod
    def of(cls, count: int, total: int) -> Interval:
        return cls(count, total, _rate(count, total), wilson(count, total))

    @property
    def share(self) -> float:
        """The rate, 0 when there was nothing to count (for plots)."""
        return self.rate or 0.0

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "rate": self.rate, "ci95": list(self.ci95)}


@dataclass(frozen=True, slots=True)
class SideStats:
    """A side: its id (as ``Fight.result`` names the winner), display name and wins."""

    id: str
    name: str
    wins: Interval

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "wins": self.wins.count,
            "rate": self.wins.rate,
            "ci95": list(self.wins.ci95),
        }


@dataclass(frozen=True, slots=True)
class RoundStats:
    """Rounds to the end of the fights that ended (wins and draws)."""

    count: int
    mean: float | None
    minimum: int | None
    maximum: int | None
    quantiles: tuple[tuple[int, int], ...]
    histogram: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "fights": self.count,
            "mean": self.mean,
            "min": self.minimum,
            "max": self.maximum,
            "quantiles": {f"p{q}": v for q, v in self.quantiles},
            "histogram": {str(r): n for r, n in self.histogram},
        }


@dataclass(frozen=True, slots=True)
class Mean:
    """A per-fight quantity's total over ``fights`` fights, its mean and the mean's 95% interval (None
    with no fight, or fewer than two)."""

    total: int
    fights: int
    mean: float | None
    ci95: tuple[float, float] | None

    @classmethod
    def of(cls, total: int, squares: int, fights: int) -> Mean:
        mean, ci = mean_interval(total, squares, fights)
        return cls(total, fights, mean, ci)

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "mean": self.mean, "ci95": list(self.ci95) if self.ci95 else None}


@dataclass(frozen=True, slots=True)
class UnitStats:
    """A unit over the fights that ended: how often it still stood, Wounds (or HP) it dealt and took
    (totals, and means per fight with their intervals)."""

    id: str
    name: str
    side: str
    standing: Interval
    dealt: Mean
    taken: Mean

    @property
    def wounds_dealt(self) -> int:
        return self.dealt.total

    @property
    def wounds_taken(self) -> int:
        return self.taken.total

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "side": self.side,
            "survival": self.standing.rate,
            "ci95": list(self.standing.ci95),
            "standing": self.standing.count,
            "fights": self.standing.total,
            "wounds_dealt": self.dealt.to_json(),
            "wounds_taken": self.taken.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Success:
    """An attack's successes in its attempts: the rate, its 95% interval clustered by fight (attempts
    in one fight are not independent: :func:`kassen.lab.stats.clustered`), and the design effect."""

    attempts: int
    successes: int
    rate: float | None
    ci95: tuple[float, float]
    design_effect: float

    def to_json(self) -> dict[str, Any]:
        return {
            "attempts": self.attempts,
            "successes": self.successes,
            "success_rate": self.rate,
            "ci95": list(self.ci95),
            "design_effect": self.design_effect,
        }


@dataclass(frozen=True, slots=True)
class ActionStats:
    """An action (a maneuver, a reaction, a special: ``kind``) used by ``unit`` (None: by every unit)
    over the fights that ended: uses, uses per fight, and, for an attack, its success."""

    action: str
    unit: str | None
    kind: str
    uses: int
    per_fight: float | None
    success: Success | None

    @property
    def attempts(self) -> int:
        return self.success.attempts if self.success else 0

    @property
    def successes(self) -> int:
        return self.success.successes if self.success else 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "uses": self.uses, "per_fight": self.per_fight}
        ok = self.success
        none = {"attempts": 0, "successes": 0, "success_rate": None, "ci95": None}
        out.update(ok.to_json() if ok else none)
        return out


@dataclass(frozen=True, slots=True)
class Sequential:
    """How a sequential run went: its rule (``until`` an interval of ``side``'s win rate is narrower
    than ``target``, or ``decide`` whether that rate is above or below ``target``), the fights per look
    (``every``) and at most (``limit``), the looks taken, whether the rule was met, the verdict and the
    interval the rule read (the Wilson interval for ``until``; for ``decide`` the anytime-valid
    confidence sequence at error ``alpha``, :func:`kassen.lab.stats.confidence_sequence`)."""

    rule: Literal["until", "decide"]
    side: str
    target: float
    every: int
    limit: int
    looks: int
    met: bool
    verdict: str | None
    interval: tuple[float, float]
    alpha: float = 0.05

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "side": self.side,
            "target": self.target,
            "every": self.every,
            "limit": self.limit,
            "looks": self.looks,
            "met": self.met,
            "verdict": self.verdict,
            "interval": list(self.interval),
            "alpha": self.alpha,
        }


#: The columns of the per-fight tables (``fights``, ``unit_fights``), in order.
FIGHT_COLUMNS = ("fight", "seed", "status", "winner", "rounds", "actions", "reason")
UNIT_FIGHT_COLUMNS = ("fight", "seed", "unit", "side", "standing", "wounds_dealt", "wounds_taken")


def fight_row(i: int, r: FightRecord) -> Row:
    """The ``fights`` row of fight ``i`` of a run."""
    return {
        "fight": i,
        "seed": r.seed,
        "status": r.status,
        "winner": r.winner,
        "rounds": r.summary.rounds if r.summary else None,
        "actions": r.actions,
        "reason": r.message,
    }


def unit_fight_rows(i: int, r: FightRecord) -> list[Row]:
    """The ``unit_fights`` rows of fight ``i`` of a run (none when it did not end)."""
    if r.summary is None:
        return []
    return [
        {
            "fight": i,
            "seed": r.seed,
            "unit": u.id,
            "side": u.side,
            "standing": u.standing,
            "wounds_dealt": u.wounds_dealt,
            "wounds_taken": u.wounds_taken,
        }
        for u in r.summary.units
    ]


@dataclass(frozen=True)
class RunResult:
    """Everything a run found (see the module notes). ``records`` are the fights in seed order."""

    scenario: str
    source: str
    ruleset: str
    seed: int
    fights: int
    sides: tuple[SideStats, ...]
    draws: Interval
    timeouts: Interval
    errors: Interval
    rounds: RoundStats
    units: tuple[UnitStats, ...]
    #: Each action over every unit (``unit`` None).
    actions: tuple[ActionStats, ...]
    #: Each action of each unit that used it (or attacked with it).
    unit_actions: tuple[ActionStats, ...]
    #: The fights in seed order, when the caller kept them (``run(..., keep_records=True)``); else
    #: none: a long run streams them (their rows to ``--out``) and keeps only the aggregates.
    records: tuple[FightRecord, ...] = field(repr=False, compare=False)
    #: The first errors (seed, message), whether or not the records were kept.
    first_errors: tuple[tuple[int, str], ...] = field(default=(), repr=False, compare=False)
    #: The sides played by a named policy (side -> spec); the others played the scenario's own.
    policies: Mapping[str, str] = field(default_factory=dict)
    #: Each fight's winner in seed order (None: nobody won it), for paired comparisons between runs on
    #: the same seeds (a sweep's cells).
    winners: tuple[str | None, ...] = field(default=(), repr=False, compare=False)
    #: How a sequential run stopped (None: it played all its fights).
    sequential: Sequential | None = None

    def side(self, side: str) -> SideStats:
        for s in self.sides:
            if s.id == side:
                return s
        raise KeyError(side)

    def win_rate(self, side: str) -> float:
        return self.side(side).wins.share

    def to_json(self) -> dict[str, Any]:
        """The aggregate as one JSON object (what ``kassen lab run --json`` prints)."""
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "fights": self.fights,
            "seed": self.seed,
            "policies": dict(self.policies),
            "sides": {s.id: s.to_json() for s in self.sides},
            "draws": self.draws.to_json(),
            "timeouts": self.timeouts.to_json(),
            "errors": self.errors.to_json(),
            "rounds": self.rounds.to_json(),
            "units": {u.id: u.to_json() for u in self.units},
            "sequential": self.sequential.to_json() if self.sequential else None,
            "actions": {
                a.action: a.to_json()
                | {"by_unit": {u.unit: u.to_json() for u in self.unit_actions if u.action == a.action}}
                for a in self.actions
            },
        }

    # -- rows --------------------------------------------------------------------------------------------
    def rows(self) -> list[Row]:
        """One row per fight kept (:attr:`records`): index, seed, status, winner, rounds, actions, reason."""
        return [fight_row(i, r) for i, r in enumerate(self.records)]

    def table(
        self, name: Literal["fights", "units", "unit_fights", "sides", "actions", "rounds"]
    ) -> list[Row]:
        """A table as rows: ``fights`` (per fight), ``unit_fights`` (per fight and unit), and the
        aggregates ``sides``, ``units``, ``actions``, ``rounds`` (the histogram)."""
        if name == "fights":
            return self.rows()
        if name == "unit_fights":
            return [row for i, r in enumerate(self.records) for row in unit_fight_rows(i, r)]
        if name == "sides":
            rows = [
                {
                    "outcome": "win",
                    "side": s.id,
                    "name": s.name,
                    "count": s.wins.count,
                    "rate": s.wins.rate,
                    "ci95_lo": s.wins.ci95[0],
                    "ci95_hi": s.wins.ci95[1],
                }
                for s in self.sides
            ]
            for label, iv in (("draw", self.draws), ("timeout", self.timeouts), ("error", self.errors)):
                rows.append(
                    {
                        "outcome": label,
                        "side": None,
                        "name": None,
                        "count": iv.count,
                        "rate": iv.rate,
                        "ci95_lo": iv.ci95[0],
                        "ci95_hi": iv.ci95[1],
                    }
                )
            return rows
        if name == "units":
            return [
                {
                    "unit": u.id,
                    "name": u.name,
                    "side": u.side,
                    "fights": u.standing.total,
                    "survival": u.standing.rate,
                    "ci95_lo": u.standing.ci95[0],
                    "ci95_hi": u.standing.ci95[1],
                    "wounds_dealt": u.wounds_dealt,
                    "wounds_taken": u.wounds_taken,
                    "dealt_per_fight": u.dealt.mean,
                    "dealt_ci95_lo": u.dealt.ci95[0] if u.dealt.ci95 else None,
                    "dealt_ci95_hi": u.dealt.ci95[1] if u.dealt.ci95 else None,
                    "taken_per_fight": u.taken.mean,
                    "taken_ci95_lo": u.taken.ci95[0] if u.taken.ci95 else None,
                    "taken_ci95_hi": u.taken.ci95[1] if u.taken.ci95 else None,
                }
                for u in self.units
            ]
        if name == "actions":
            return [_action_row(a) for a in (*self.actions, *self.unit_actions)]
        if name == "rounds":
            return [{"rounds": r, "fights": n} for r, n in self.rounds.histogram]
        raise KeyError(name)


class _Sums:
    """Per-fight sums of one action (or one unit's action), for its uses and its clustered interval."""

    __slots__ = ("attempts", "cross", "kind", "sq_attempts", "sq_successes", "successes", "uses")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.uses = self.attempts = self.successes = 0
        self.sq_attempts = self.sq_successes = self.cross = 0

    def add(self, uses: int, attempts: int, successes: int) -> None:
        self.uses += uses
        self.attempts += attempts
        self.successes += successes
        self.sq_attempts += attempts * attempts
        self.sq_successes += successes * successes
        self.cross += attempts * successes

    def stats(self, action: str, unit: str | None, fights: int) -> ActionStats:
        ok = None
        if self.attempts:
            ci, deff = clustered(
                self.attempts, self.successes, fights, self.sq_attempts, self.sq_successes, self.cross
            )
            ok = Success(self.attempts, self.successes, _rate(self.successes, self.attempts), ci, deff)
        return ActionStats(action, unit, self.kind, self.uses, _rate(self.uses, fights), ok)


class Tally:
    """A run's aggregates, kept as its fights come in (:meth:`add`, in seed order): counters and sums,
    never the fights themselves, so a run of a million fights takes the memory of a run of a thousand.
    The first few errors are kept (their seed and message), to name."""

    #: Errors kept by seed and message.
    ERRORS = 10

    def __init__(self, known_sides: Sequence[str] = ()) -> None:
        self.fights = 0
        self.status: Counter[str] = Counter()
        self.wins: Counter[str | None] = Counter()
        self.side_order: dict[str, None] = dict.fromkeys(known_sides)
        self.unit_order: dict[str, str] = {}
        self.ended = 0
        self.rounds: Counter[int] = Counter()
        self.standing: Counter[str] = Counter()
        self.present: Counter[str] = Counter()
        self.dealt: Counter[str] = Counter()
        self.taken: Counter[str] = Counter()
        self.dealt_sq: Counter[str] = Counter()
        self.taken_sq: Counter[str] = Counter()
        #: (unit or None for every unit, action) -> its per-fight sums
        self.sums: dict[tuple[str | None, str], _Sums] = {}
        self.errors: list[tuple[int, str]] = []
        #: Each fight's winner in seed order (None: a draw, a time-out or an error), for paired comparisons.
        self.winners: list[str | None] = []

    def add(self, r: FightRecord) -> None:
        """Count one more fight (the next in seed order)."""
        self.fights += 1
        self.status[r.status] += 1
        self.winners.append(r.winner if r.status == "win" else None)
        if r.status == "win":
            self.wins[r.winner] += 1
        elif r.status == "error" and len(self.errors) < self.ERRORS:
            self.errors.append((r.seed, r.message))
        s = r.summary
        if s is None:
            return
        self.ended += 1
        self.rounds[s.rounds] += 1
        for u in s.units:
            self.side_order.setdefault(u.side, None)
            self.unit_order.setdefault(u.id, u.side)
            self.present[u.id] += 1
            self.standing[u.id] += u.standing
            self.dealt[u.id] += u.wounds_dealt
            self.taken[u.id] += u.wounds_taken
            self.dealt_sq[u.id] += u.wounds_dealt * u.wounds_dealt
            self.taken_sq[u.id] += u.wounds_taken * u.wounds_taken
        # this fight's uses, attempts and successes of each (unit, action) and (every unit, action)
        fight: dict[tuple[str | None, str], list[int]] = {}
        kinds: dict[str, str] = {}
        keys: tuple[tuple[str | None, str], ...]
        for use in s.uses:
            kinds.setdefault(use.action, use.kind)
            keys = ((None, use.action), (use.unit, use.action))
            for key in keys:
                fight.setdefault(key, [0, 0, 0])[0] += 1
        for a in s.attempts:
            keys = ((None, a.action), (a.unit, a.action))
            for key in keys:
                row = fight.setdefault(key, [0, 0, 0])
                row[1] += 1
                row[2] += a.success
        for at, (uses, attempts, successes) in fight.items():
            sums = self.sums.get(at)
            if sums is None:
                sums = self.sums[at] = _Sums(kinds.get(at[1], "maneuver"))
            sums.add(uses, attempts, successes)

    def result(
        self,
        *,
        scenario: str,
        source: str,
        ruleset: str,
        seed: int,
        names: Mapping[str, str],
        records: Sequence[FightRecord] = (),
        policies: Mapping[str, str] | None = None,
    ) -> RunResult:
        """The :class:`RunResult` of the fights counted (``records``: the fights themselves, when the
        caller kept them; ``policies``: the sides played by a named policy)."""
        n = self.fights
        side_order = dict(self.side_order)
        for w in sorted(w for w in self.wins if w is not None):
            side_order.setdefault(w, None)
        sides = tuple(SideStats(s, names.get(s, s), Interval.of(self.wins.get(s, 0), n)) for s in side_order)
        count = sum(self.rounds.values())
        histogram = tuple(sorted(self.rounds.items()))
        round_stats = RoundStats(
            count,
            round(sum(r * k for r, k in histogram) / count, DIGITS) if count else None,
            histogram[0][0] if histogram else None,
            histogram[-1][0] if histogram else None,
            tuple((q, _quantile(histogram, count, q)) for q in QUANTILES) if count else (),
            histogram,
        )
        units = tuple(
            UnitStats(
                u,
                names.get(u, u),
                side,
                Interval.of(self.standing[u], self.present[u]),
                Mean.of(self.dealt[u], self.dealt_sq[u], self.present[u]),
                Mean.of(self.taken[u], self.taken_sq[u], self.present[u]),
            )
            for u, side in self.unit_order.items()
        )
        order = {u: i for i, u in enumerate(self.unit_order)}
        keys = sorted(self.sums, key=lambda k: (k[1], -1 if k[0] is None else order.get(k[0], len(order))))
        actions = tuple(self.sums[k].stats(k[1], None, self.ended) for k in keys if k[0] is None)
        # a unit's rates per fight are over the fights it was in
        unit_actions = tuple(
            self.sums[k].stats(k[1], k[0], self.present[k[0]]) for k in keys if k[0] is not None
        )
        return RunResult(
            scenario,
            source,
            ruleset,
            seed,
            n,
            sides,
            Interval.of(self.status["draw"], n),
            Interval.of(self.status["timeout"], n),
            Interval.of(self.status["error"], n),
            round_stats,
            units,
            actions,
            unit_actions,
            tuple(records),
            tuple(self.errors),
            dict(policies or {}),
            tuple(self.winners),
        )


def _action_row(a: ActionStats) -> Row:
    ok = a.success
    return {
        "action": a.action,
        "unit": a.unit if a.unit is not None else "(all)",
        "kind": a.kind,
        "uses": a.uses,
        "per_fight": a.per_fight,
        "attempts": a.attempts,
        "successes": a.successes,
        "success_rate": ok.rate if ok else None,
        "ci95_lo": ok.ci95[0] if ok else None,
        "ci95_hi": ok.ci95[1] if ok else None,
        "design_effect": ok.design_effect if ok else None,
    }


def _quantile(histogram: Sequence[tuple[int, int]], count: int, q: int) -> int:
    """The nearest-rank ``q``-th percentile of ``count`` values, from their histogram (value, times)
    in increasing order."""
    rank = max(1, math.ceil(q / 100 * count))
    seen = 0
    for value, times in histogram:
        seen += times
        if seen >= rank:
            return value
    return histogram[-1][0]


def aggregate(
    records: Sequence[FightRecord],
    *,
    scenario: str,
    source: str,
    ruleset: str,
    seed: int,
    names: Mapping[str, str],
    known_sides: Sequence[str] = (),
    policies: Mapping[str, str] | None = None,
) -> RunResult:
    """The result of ``records`` (fights in seed order), kept with it; ``names`` are display names by
    id; ``known_sides`` the scenario's, each listed (with 0 wins) even when no fight ended; ``policies``
    the sides played by a named policy."""
    tally = Tally(known_sides)
    for r in records:
        tally.add(r)
    return tally.result(
        scenario=scenario,
        source=source,
        ruleset=ruleset,
        seed=seed,
        names=names,
        records=records,
        policies=policies,
    )
