"""Each result's answer in one sentence, as a report opens and the command line ends: who is favoured,
by how much with its interval, where a sweep's side breaks even, how a sequential run stopped.
Percentages have one decimal (62.5%, never 62%)."""

from __future__ import annotations

__all__ = ["crossing", "pct", "run_sentence", "span", "sweep_sentence"]

from collections.abc import Sequence
from typing import Any

from kassen.lab.grid import SweepResult
from kassen.lab.results import RunResult


def pct(x: float | None) -> str:
    """A share as a percentage with one decimal; n/a for nothing."""
    return "n/a" if x is None else f"{100 * x:.1f}%"


def span(ci: tuple[float, float]) -> str:
    """An interval as ``58.1-68.0%``."""
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def _name(result: RunResult, side: str) -> str:
    s = result.side(side)
    return s.name if s.name == s.id else f"{s.name} ({s.id})"


def run_sentence(result: RunResult, side: str | None = None) -> str:
    """``East (Ryu) wins 63.0% (58.1-68.0%) of 400 fights; ...``: the favoured side (or ``side``)."""
    if not result.sides:
        return f"No side won any of {result.fights:,} fights."
    chosen = side or max(result.sides, key=lambda s: s.wins.count).id
    s = result.side(chosen)
    text = f"{_name(result, chosen)} wins {pct(s.wins.rate)} ({span(s.wins.ci95)})"
    text += f" of {result.fights:,} fights"
    if result.draws.count:
        text += f", {pct(result.draws.rate)} are draws"
    seq = result.sequential
    if seq is not None:
        if seq.rule == "decide":
            if seq.verdict:
                text += (
                    f"; {seq.side}'s rate is {seq.verdict} {pct(seq.target)} (decided after "
                    f"{result.fights:,} fights, wrong at most {pct(seq.alpha)} of the time)"
                )
            else:
                text += f"; undecided whether {seq.side}'s rate is above or below {pct(seq.target)}"
                text += " at the limit"
        elif seq.met:
            text += f"; stopped once the interval was {100 * seq.target:.1f} points wide or less"
        else:
            text += f"; the interval was still wider than {100 * seq.target:.1f} points at the limit"
    return text + "."


def crossing(xs: Sequence[float], ys: Sequence[float], target: float) -> tuple[float, int] | None:
    """Where ``ys`` first crosses ``target`` along increasing ``xs`` (linear between neighbours), and
    the index of the first point past it; None when it never does."""
    for i in range(1, len(xs)):
        a, b = ys[i - 1] - target, ys[i] - target
        if a == 0:
            return xs[i - 1], i - 1
        if a * b < 0:
            return xs[i - 1] + (xs[i] - xs[i - 1]) * a / (a - b), i
    if ys and ys[-1] == target:
        return xs[-1], len(xs) - 1
    return None


def short(path: str) -> str:
    """A path's short name: its last two parts (``ryu.skill``)."""
    return ".".join(path.split(".")[-2:])


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def sweep_sentence(result: SweepResult) -> str:
    """The side's range of win rates over the grid, its best cell, the cells that differ from the
    baseline, and (one numeric path) where it breaks even."""
    side = result.side or (result.sides[0] if result.sides else None)
    done = [c for c in result.cells if c.result is not None]
    if side is None or not done:
        return "No cell of the sweep was played."
    name = result.side_names().get(side, side)
    rates = [(c.rate(side) or 0.0, c) for c in done]
    low, high = min(rates, key=lambda t: t[0]), max(rates, key=lambda t: t[0])
    label = ", ".join(f"{short(p)} {v}" for p, v in high[1].values)
    text = f"{name} wins {pct(low[0])} to {pct(high[0])} over the grid, most at {label}"
    if len(result.paths) > 1:
        above = sum(r > 0.5 for r, _ in rates)
        text += f"; above 50% in {above} of {len(rates)} cells"
    if len(result.paths) == 1 and _numeric([c.values[0][1] for c in done]):
        xs = [float(c.values[0][1]) for c in done]
        cross = crossing(xs, [r for r, _ in rates], 0.5)
        what = short(result.paths[0])
        if cross is not None:
            text += f"; {name} breaks even at {what} {cross[0]:.1f}"
        else:
            first, last = done[0].values[0][1], done[-1].values[0][1]
            text += f"; {name}'s rate does not cross 50% over {what} {first}..{last}"
    if result.baseline is not None:
        marked = [c for c in done if c.versus is not None and c.versus.significant]
        compared = [c for c in done if c.versus is not None]
        text += (
            f"; {len(marked)} of {len(compared)} cells differ significantly from the baseline "
            f"({result.baseline.label()})"
        )
    return text + "."
