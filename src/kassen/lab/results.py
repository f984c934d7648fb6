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
    records: tuple[FightRecord, ...] = field(repr=False, compare=False)
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
        """One row per fight: index, seed, status, winner, rounds, actions, reason."""
        return [
            {
                "fight": i,
                "seed": r.seed,
                "status": r.status,
                "winner": r.winner,
                "rounds": r.summary.rounds if r.summary else None,
                "actions": r.actions,
                "reason": r.message,
            }
            for i, r in enumerate(self.records)
        ]

    def table(
        self, name: Literal["fights", "units", "unit_fights", "sides", "actions", "rounds"]
    ) -> list[Row]:
        """A table as rows: ``fights`` (per fight), ``unit_fights`` (per fight and unit), and the
        aggregates ``sides``, ``units``, ``actions``, ``rounds`` (the histogram)."""
        if name == "fights":
            return self.rows()
        if name == "unit_fights":
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
                for i, r in enumerate(self.records)
                if r.summary is not None
                for u in r.summary.units
            ]
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


def _quantile(sorted_values: Sequence[int], q: int) -> int:
    """The nearest-rank ``q``-th percentile of sorted values."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


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
    """The result of ``records`` (fights in seed order); ``names`` are display names by id;
    ``known_sides`` the scenario's, each listed (with 0 wins) even when no fight ended; ``policies``
    the sides played by a named policy."""
    n = len(records)
    status = Counter(r.status for r in records)
    wins = Counter(r.winner for r in records if r.status == "win")
    ended = [r for r in records if r.summary is not None]
    side_order: dict[str, None] = dict.fromkeys(known_sides)
    unit_order: dict[str, str] = {}
    for r in ended:
        assert r.summary is not None
        for u in r.summary.units:
            side_order.setdefault(u.side, None)
            unit_order.setdefault(u.id, u.side)
    for w in sorted(w for w in wins if w is not None):
        side_order.setdefault(w, None)
    sides = tuple(SideStats(s, names.get(s, s), Interval.of(wins.get(s, 0), n)) for s in side_order)
    rounds = sorted(r.summary.rounds for r in ended if r.summary is not None)
    hist = Counter(rounds)
    round_stats = RoundStats(
        len(rounds),
        round(sum(rounds) / len(rounds), DIGITS) if rounds else None,
        rounds[0] if rounds else None,
        rounds[-1] if rounds else None,
        tuple((q, _quantile(rounds, q)) for q in QUANTILES) if rounds else (),
        tuple(sorted(hist.items())),
    )
    standing: Counter[str] = Counter()
    present: Counter[str] = Counter()
    dealt: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    uses_by: dict[str, Counter[str]] = {}
    attempts: Counter[str] = Counter()
    successes: Counter[str] = Counter()
    action_order: dict[str, None] = {}
    for r in ended:
        s = r.summary
        assert s is not None
        for u in s.units:
            present[u.id] += 1
            standing[u.id] += u.standing
            dealt[u.id] += u.wounds_dealt
            taken[u.id] += u.wounds_taken
        for use in s.uses:
            action_order.setdefault(use.action, None)
            uses[use.action] += 1
            uses_by.setdefault(use.action, Counter())[use.unit] += 1
        for a in s.attempts:
            action_order.setdefault(a.action, None)
            attempts[a.action] += 1
            successes[a.action] += a.success
    units = tuple(
        UnitStats(u, names.get(u, u), side, Interval.of(standing[u], present[u]), dealt[u], taken[u])
        for u, side in unit_order.items()
    )
    actions = tuple(
        ActionStats(
            a,
            uses[a],
            _rate(uses[a], len(ended)),
            attempts[a],
            successes[a],
            tuple(sorted(uses_by.get(a, Counter()).items())),
        )
        for a in sorted(action_order)
    )
    return RunResult(
        scenario,
        source,
        ruleset,
        seed,
        n,
        sides,
        Interval.of(status["draw"], n),
        Interval.of(status["timeout"], n),
        Interval.of(status["error"], n),
        round_stats,
        units,
        actions,
        tuple(records),
        dict(policies or {}),
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
