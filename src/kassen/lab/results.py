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
    "ActionStats",
    "CellResult",
    "Interval",
    "RoundStats",
    "RunResult",
    "SideStats",
    "SweepResult",
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

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: The round quantiles reported (percent).
QUANTILES = (5, 25, 50, 75, 95)
#: Digits kept in rates and means (so JSON stays readable; the same fights always give the same digits).
DIGITS = 6

Row = dict[str, Any]


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, round(center - half, DIGITS)), min(1.0, round(center + half, DIGITS))


def _rate(k: int, n: int) -> float:
    return round(k / n, DIGITS) if n else 0.0


@dataclass(frozen=True, slots=True)
class Interval:
    """``count`` of ``total`` fights, the rate and its 95% Wilson interval."""

    count: int
    total: int
    rate: float
    ci95: tuple[float, float]

    @classmethod
    def of(cls, count: int, total: int) -> Interval:
        return cls(count, total, _rate(count, total), wilson(count, total))

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
class UnitStats:
    """A unit over the fights that ended: how often it still stood, Wounds (or HP) it dealt and took."""

    id: str
    name: str
    side: str
    standing: Interval
    wounds_dealt: int
    wounds_taken: int

    def to_json(self) -> dict[str, Any]:
        n = self.standing.total
        return {
            "name": self.name,
            "side": self.side,
            "survival": self.standing.rate,
            "ci95": list(self.standing.ci95),
            "standing": self.standing.count,
            "fights": n,
            "wounds_dealt": {"total": self.wounds_dealt, "mean": _rate(self.wounds_dealt, n)},
            "wounds_taken": {"total": self.wounds_taken, "mean": _rate(self.wounds_taken, n)},
        }


@dataclass(frozen=True, slots=True)
class ActionStats:
    """An action (a maneuver, an action kind): uses over the fights that ended, and, for an attack,
    attempts and successes with the success rate's 95% interval."""

    action: str
    uses: int
    per_fight: float
    attempts: int
    successes: int
    by_unit: tuple[tuple[str, int], ...]

    @property
    def success(self) -> Interval | None:
        return Interval.of(self.successes, self.attempts) if self.attempts else None

    def to_json(self) -> dict[str, Any]:
        ok = self.success
        return {
            "uses": self.uses,
            "per_fight": self.per_fight,
            "attempts": self.attempts,
            "successes": self.successes,
            "success_rate": ok.rate if ok else None,
            "ci95": list(ok.ci95) if ok else None,
            "by_unit": dict(self.by_unit),
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
    actions: tuple[ActionStats, ...]
    #: The fights in seed order, when the caller kept them (``run(..., keep_records=True)``); else
    #: none: a long run streams them (their rows to ``--out``) and keeps only the aggregates.
    records: tuple[FightRecord, ...] = field(repr=False, compare=False)
    #: The first errors (seed, message), whether or not the records were kept.
    first_errors: tuple[tuple[int, str], ...] = field(default=(), repr=False, compare=False)
    #: The sides played by a named policy (side -> spec); the others played the scenario's own.
    policies: Mapping[str, str] = field(default_factory=dict)

    def side(self, side: str) -> SideStats:
        for s in self.sides:
            if s.id == side:
                return s
        raise KeyError(side)

    def win_rate(self, side: str) -> float:
        return self.side(side).wins.rate

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
            "actions": {a.action: a.to_json() for a in self.actions},
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
                }
                for u in self.units
            ]
        if name == "actions":
            rows = []
            for a in self.actions:
                ok = a.success
                rows.append(
                    {
                        "action": a.action,
                        "uses": a.uses,
                        "per_fight": a.per_fight,
                        "attempts": a.attempts,
                        "successes": a.successes,
                        "success_rate": ok.rate if ok else None,
                        "ci95_lo": ok.ci95[0] if ok else None,
                        "ci95_hi": ok.ci95[1] if ok else None,
                    }
                )
            return rows
        if name == "rounds":
            return [{"rounds": r, "fights": n} for r, n in self.rounds.histogram]
        raise KeyError(name)


class Tally:
    """A run's aggregates, kept as its fights come in (:meth:`add`, in seed order): counters, never the
    fights themselves, so a run of a million fights takes the memory of a run of a thousand. The first
    few errors are kept (their seed and message), to name."""

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
        self.uses: Counter[str] = Counter()
        self.uses_by: dict[str, Counter[str]] = {}
        self.attempts: Counter[str] = Counter()
        self.successes: Counter[str] = Counter()
        self.action_order: dict[str, None] = {}
        self.errors: list[tuple[int, str]] = []

    def add(self, r: FightRecord) -> None:
        """Count one more fight (the next in seed order)."""
        self.fights += 1
        self.status[r.status] += 1
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
        for use in s.uses:
            self.action_order.setdefault(use.action, None)
            self.uses[use.action] += 1
            self.uses_by.setdefault(use.action, Counter())[use.unit] += 1
        for a in s.attempts:
            self.action_order.setdefault(a.action, None)
            self.attempts[a.action] += 1
            self.successes[a.action] += a.success

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
                self.dealt[u],
                self.taken[u],
            )
            for u, side in self.unit_order.items()
        )
        actions = tuple(
            ActionStats(
                a,
                self.uses[a],
                _rate(self.uses[a], self.ended),
                self.attempts[a],
                self.successes[a],
                tuple(sorted(self.uses_by.get(a, Counter()).items())),
            )
            for a in sorted(self.action_order)
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
            tuple(records),
            tuple(self.errors),
            dict(policies or {}),
        )


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


# -- sweeps -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CellResult:
    """One cell of a sweep: its values, and its run (None when the cell did not validate: ``error``)."""

    index: int
    values: tuple[tuple[str, Any], ...]
    result: RunResult | None
    error: str = ""
    resumed: bool = False

    def row(self, sides: Sequence[str]) -> Row:
        out: Row = {"cell": self.index, **{p: v for p, v in self.values}}
        r = self.result
        out["status"] = "done" if r is not None else "invalid"
        out["fights"] = r.fights if r is not None else 0
        for s in sides:
            side = next((x for x in r.sides if x.id == s), None) if r is not None else None
            out[f"{s}_wins"] = side.wins.count if side else (0 if r is not None else None)
            out[f"{s}_rate"] = side.wins.rate if side else (0.0 if r is not None else None)
            out[f"{s}_ci95_lo"] = side.wins.ci95[0] if side else None
            out[f"{s}_ci95_hi"] = side.wins.ci95[1] if side else None
        out["draws"] = r.draws.count if r is not None else None
        out["timeouts"] = r.timeouts.count if r is not None else None
        out["errors"] = r.errors.count if r is not None else None
        out["mean_rounds"] = r.rounds.mean if r is not None else None
        out["error"] = self.error or None
        return out


@dataclass(frozen=True)
class SweepResult:
    """A sweep: the paths and values varied, and every cell in grid order (the last path varies
    fastest)."""

    scenario: str
    ruleset: str
    seed: int
    fights: int
    paths: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]
    cells: tuple[CellResult, ...]

    @property
    def sides(self) -> tuple[str, ...]:
        order: dict[str, None] = {}
        for c in self.cells:
            if c.result is not None:
                for s in c.result.sides:
                    order.setdefault(s.id, None)
        return tuple(order)

    def side_names(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for c in self.cells:
            if c.result is not None:
                for s in c.result.sides:
                    out.setdefault(s.id, s.name)
        return out

    def rows(self) -> list[Row]:
        """One row per cell: its values, fights, each side's wins and rate with its interval, draws,
        time-outs, errors, mean rounds, and why an invalid cell was skipped."""
        sides = self.sides
        return [c.row(sides) for c in self.cells]

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "fights": self.fights,
            "vary": {p: list(v) for p, v in zip(self.paths, self.values, strict=True)},
            "cells": [
                {
                    "cell": c.index,
                    "values": dict(c.values),
                    "result": c.result.to_json() if c.result is not None else None,
                    "error": c.error or None,
                }
                for c in self.cells
            ],
        }
