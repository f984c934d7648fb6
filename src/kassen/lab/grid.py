"""A sweep's results: each cell's run, compared with the baseline cell on the same seeds.

Every cell of a sweep plays the same seeds, so its difference from the baseline (the scenario as
written, or ``--baseline PATH=V``) is measured fight by fight: the *paired* interval
(:func:`~kassen.lab.stats.paired`), far narrower than the interval two independent runs would give
(which is kept beside it, ``unpaired``, to show what the pairing is worth); both stay within -1..1. A
cell whose paired interval excludes 0 differs significantly from the baseline.
"""

from __future__ import annotations

__all__ = ["Baseline", "CellResult", "SweepResult", "compare"]

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kassen.i18n import S_
from kassen.lab.results import Row, RunResult
from kassen.lab.stats import Diff, paired, unpaired


@dataclass(frozen=True)
class Baseline:
    """The cell every other is compared with: its values, its grid index (None: played apart, not a
    cell of the grid) and its run."""

    values: tuple[tuple[str, Any], ...]
    index: int | None
    result: RunResult
    key: str | None = None

    def label(self) -> str:
        return ", ".join(f"{p}={_show(v)}" for p, v in self.values) or S_("the scenario as written")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


@dataclass(frozen=True)
class CellResult:
    """One cell of a sweep: its values, its run (None when the cell did not validate: ``error``), the
    key it is stored under in ``--out`` (``cells/KEY/``), and its difference from the baseline in the
    compared side's win rate (``versus``: paired on the seeds both played; ``unpaired``: the same
    difference with the interval of independent runs)."""

    index: int
    values: tuple[tuple[str, Any], ...]
    result: RunResult | None
    error: str = ""
    resumed: bool = False
    key: str | None = None
    versus: Diff | None = None
    unpaired: Diff | None = None

    def rate(self, side: str) -> float | None:
        if self.result is None:
            return None
        return next((s.wins.rate for s in self.result.sides if s.id == side), 0.0)

    def row(self, sides: Sequence[str]) -> Row:
        out: Row = {"cell": self.index, **{p: v for p, v in self.values}}
        r = self.result
        out["status"] = "done" if r is not None else "invalid"
        out["key"] = self.key
        out["fights"] = r.fights if r is not None else 0
        for s in sides:
            side = next((x for x in r.sides if x.id == s), None) if r is not None else None
            out[f"{s}_wins"] = side.wins.count if side else (0 if r is not None else None)
            out[f"{s}_rate"] = side.wins.rate if side else (0.0 if r is not None else None)
            out[f"{s}_ci95_lo"] = side.wins.ci95[0] if side else None
            out[f"{s}_ci95_hi"] = side.wins.ci95[1] if side else None
        d, u = self.versus, self.unpaired
        out["vs_baseline"] = d.difference if d else None
        out["vs_ci95_lo"] = d.ci95[0] if d else None
        out["vs_ci95_hi"] = d.ci95[1] if d else None
        out["vs_significant"] = d.significant if d else None
        out["vs_unpaired_ci95_lo"] = u.ci95[0] if u else None
        out["vs_unpaired_ci95_hi"] = u.ci95[1] if u else None
        out["draws"] = r.draws.count if r is not None else None
        out["timeouts"] = r.timeouts.count if r is not None else None
        out["errors"] = r.errors.count if r is not None else None
        out["mean_rounds"] = r.rounds.mean if r is not None else None
        seq = r.sequential if r is not None else None
        out["stopped"] = (seq.verdict or ("met" if seq.met else "limit")) if seq else None
        out["error"] = self.error or None
        return out


@dataclass(frozen=True)
class SweepResult:
    """A sweep: the paths and values varied, every cell in grid order (the last path varies fastest),
    the side compared and the baseline."""

    scenario: str
    ruleset: str
    seed: int
    fights: int
    paths: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]
    cells: tuple[CellResult, ...]
    side: str | None = None
    baseline: Baseline | None = None
    source: str = ""
    policies: dict[str, str] = field(default_factory=dict)

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
        """One row per cell: its values, its key, fights, each side's wins and rate with its interval,
        the difference from the baseline with its paired (and unpaired) interval, draws, time-outs,
        errors, mean rounds, how a sequential cell stopped, and why an invalid cell was skipped."""
        sides = self.sides
        return [c.row(sides) for c in self.cells]

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "fights": self.fights,
            "side": self.side,
            "policies": dict(self.policies),
            "vary": {p: list(v) for p, v in zip(self.paths, self.values, strict=True)},
            "baseline": None
            if self.baseline is None
            else {
                "values": dict(self.baseline.values),
                "cell": self.baseline.index,
                "result": self.baseline.result.to_json() if self.baseline.index is None else None,
            },
            "cells": [
                {
                    "cell": c.index,
                    "key": c.key,
                    "values": dict(c.values),
                    "result": c.result.to_json() if c.result is not None else None,
                    "versus_baseline": _diff(c.versus),
                    "unpaired": _diff(c.unpaired),
                    "error": c.error or None,
                }
                for c in self.cells
            ],
        }


def _diff(d: Diff | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"n": d.n, "difference": d.difference, "ci95": list(d.ci95), "significant": d.significant}


def compare(result: RunResult, baseline: RunResult, side: str) -> tuple[Diff | None, Diff | None]:
    """``result``'s win rate for ``side`` minus ``baseline``'s, on the seeds both played: paired, and
    unpaired (as if the runs had independent dice)."""
    a = [1.0 if w == side else 0.0 for w in result.winners]
    b = [1.0 if w == side else 0.0 for w in baseline.winners]
    n = min(len(a), len(b))
    return paired(a[:n], b[:n]), unpaired(a[:n], b[:n])
