"""Each result's answer in one sentence, as a report opens and the command line ends: who is favoured,
by how much with its interval, where a sweep's side breaks even, how a sequential run stopped.
Percentages have one decimal (62.5%, never 62%)."""

from __future__ import annotations

__all__ = [
    "crossing",
    "finish",
    "name_of",
    "pct",
    "run_sentence",
    "span",
    "sweep_sentence",
    "verdict_word",
]

from collections.abc import Sequence
from typing import Any

from kassen.i18n import _, pgettext, translate_text
from kassen.lab.grid import SweepResult
from kassen.lab.results import RunResult


def pct(x: float | None) -> str:
    """A share as a percentage with one decimal; n/a for nothing."""
    return pgettext("lab", "n/a") if x is None else f"{100 * x:.1f}%"


def span(ci: tuple[float, float]) -> str:
    """An interval as ``58.1-68.0%``."""
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def finish(clauses: Sequence[str]) -> str:
    """Clauses of one answer joined (``; `` in English) and ended (``.``), in the reader's language."""
    return pgettext("lab sentence", "; ").join(clauses) + pgettext("lab sentence", ".")


def name_of(name: str) -> str:
    """A name from the scenario (a side's, a unit's, its title) in the reader's language where the
    content's catalog knows it (a fighter's name stays as written)."""
    return translate_text(name)


def _name(result: RunResult, side: str) -> str:
    s = result.side(side)
    name = name_of(s.name)
    return name if s.name == s.id else pgettext("lab", "{name} ({side})").format(name=name, side=s.id)


def verdict_word(verdict: str) -> str:
    """A sequential verdict (``above``/``below``, kept in the data) in words."""
    words = {"above": pgettext("lab verdict", "above"), "below": pgettext("lab verdict", "below")}
    return words.get(verdict, verdict)


def run_sentence(result: RunResult, side: str | None = None) -> str:
    """``East (Ryu) wins 63.0% (58.1-68.0%) of 400 fights; ...``: the favoured side (or ``side``)."""
    if not result.sides:
        return _("No side won any of {fights} fights.").format(fights=f"{result.fights:,}")
    chosen = side or max(result.sides, key=lambda s: s.wins.count).id
    s = result.side(chosen)
    values = {
        "name": _name(result, chosen),
        "rate": pct(s.wins.rate),
        "interval": span(s.wins.ci95),
        "fights": f"{result.fights:,}",
    }
    if result.draws.count:
        first = _("{name} wins {rate} ({interval}) of {fights} fights, {draws} are draws").format(
            draws=pct(result.draws.rate), **values
        )
    else:
        first = _("{name} wins {rate} ({interval}) of {fights} fights").format(**values)
    clauses = [first]
    seq = result.sequential
    if seq is not None:
        if seq.rule == "decide":
            if seq.verdict:
                clauses.append(
                    _(
                        "{side}'s rate is {verdict} {target} (decided after {fights} fights, wrong at "
                        "most {alpha} of the time)"
                    ).format(
                        side=seq.side,
                        verdict=verdict_word(seq.verdict),
                        target=pct(seq.target),
                        fights=f"{result.fights:,}",
                        alpha=pct(seq.alpha),
                    )
                )
            else:
                clauses.append(
                    _("undecided whether {side}'s rate is above or below {target} at the limit").format(
                        side=seq.side, target=pct(seq.target)
                    )
                )
        elif seq.met:
            clauses.append(
                _("stopped once the interval was {width} points wide or less").format(
                    width=f"{100 * seq.target:.1f}"
                )
            )
        else:
            clauses.append(
                _("the interval was still wider than {width} points at the limit").format(
                    width=f"{100 * seq.target:.1f}"
                )
            )
    return finish(clauses)


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
        return _("No cell of the sweep was played.")
    name = name_of(result.side_names().get(side, side))
    rates = [(c.rate(side) or 0.0, c) for c in done]
    low, high = min(rates, key=lambda t: t[0]), max(rates, key=lambda t: t[0])
    label = ", ".join(f"{short(p)} {v}" for p, v in high[1].values)
    clauses = [
        _("{name} wins {low} to {high} over the grid, most at {cell}").format(
            name=name, low=pct(low[0]), high=pct(high[0]), cell=label
        )
    ]
    if len(result.paths) > 1:
        above = sum(r > 0.5 for r, _r in rates)
        clauses.append(_("above 50% in {above} of {cells} cells").format(above=above, cells=len(rates)))
    if len(result.paths) == 1 and _numeric([c.values[0][1] for c in done]):
        xs = [float(c.values[0][1]) for c in done]
        cross = crossing(xs, [r for r, _r in rates], 0.5)
        what = short(result.paths[0])
        if cross is not None:
            clauses.append(
                _("{name} breaks even at {path} {value}").format(
                    name=name, path=what, value=f"{cross[0]:.1f}"
                )
            )
        else:
            first, last = done[0].values[0][1], done[-1].values[0][1]
            clauses.append(
                _("{name}'s rate does not cross 50% over {path} {first}..{last}").format(
                    name=name, path=what, first=first, last=last
                )
            )
    if result.baseline is not None:
        marked = [c for c in done if c.versus is not None and c.versus.significant]
        compared = [c for c in done if c.versus is not None]
        clauses.append(
            _("{marked} of {compared} cells differ significantly from the baseline ({baseline})").format(
                marked=len(marked), compared=len(compared), baseline=translate_text(result.baseline.label())
            )
        )
    return finish(clauses)
