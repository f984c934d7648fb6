"""Under more than one policy: ``--policies heuristic,search:iterations=200`` runs a run or every cell of
a sweep under each named policy (each playing every side, :mod:`kassen.core.named`) and flags each
conclusion that changes between them — which side is favoured, which cell is best, where the 50% line
lies — so a designer knows which findings hold whoever plays.

Every policy plays the same seeds; the flags compare the answers, not the dice. The flags are worded
in the reader's language (the command line's JSON asks for them in English).
"""

from __future__ import annotations

__all__ = ["compare_runs", "compare_sweeps", "split_specs"]

from collections.abc import Mapping, Sequence

from kassen.core.named import NAMES, parse_policy
from kassen.i18n import _, pgettext
from kassen.lab.grid import SweepResult
from kassen.lab.limits import LabError
from kassen.lab.results import RunResult
from kassen.lab.sentences import crossing, pct

#: Most policies one command compares.
MAX_POLICIES = 6


def split_specs(texts: Sequence[str]) -> list[str]:
    """The policy specs in ``--policies`` (comma-separated, or given again): a comma starts a new spec
    when a policy's name follows it, else it separates a spec's own parameters
    (``heuristic,search:iterations=200,seed=3`` is two specs). Each is checked, none twice."""
    specs: list[str] = []
    for text in texts:
        for part in str(text).split(","):
            part = part.strip()
            if not part:
                raise LabError(_("--policies has an empty spec: {text}").format(text=repr(str(text)[:80])))
            if part.split(":", 1)[0] in NAMES or not specs:
                specs.append(part)
            else:
                specs[-1] += "," + part
    out = [str(parse_policy(s)) for s in specs]
    if len(out) < 2:
        raise LabError(_("--policies compares two or more policies (heuristic,search)"))
    if len(out) > MAX_POLICIES:
        raise LabError(
            _("--policies compares at most {most} policies, not {count}").format(
                most=MAX_POLICIES, count=len(out)
            )
        )
    if len(set(out)) != len(out):
        raise LabError(_("--policies names a policy twice"))
    return out


def _favoured(result: RunResult) -> str | None:
    best = max(result.sides, key=lambda s: s.wins.count, default=None)
    if best is None or sum(s.wins.count == best.wins.count for s in result.sides) > 1:
        return None  # a tie favours nobody
    return best.id


def compare_runs(results: Mapping[str, RunResult]) -> list[str]:
    """What changes between the policies' runs: the favoured side."""
    favoured = {spec: _favoured(r) for spec, r in results.items()}
    if len(set(favoured.values())) <= 1:
        return []
    parts = []
    for spec, r in results.items():
        side = favoured[spec]
        parts.append(
            pgettext("lab", "{policy}: {side} ({rate})").format(
                policy=spec, side=side, rate=pct(r.side(side).wins.rate)
            )
            if side
            else _("{policy}: nobody (a tie)").format(policy=spec)
        )
    return [_("the favoured side changes: {changes}").format(changes=_sep().join(parts))]


def _sep() -> str:
    return pgettext("lab sentence", "; ")


def _nobody(side: str | None) -> str:
    return side or pgettext("lab", "nobody")


def compare_sweeps(results: Mapping[str, SweepResult], side: str) -> list[str]:
    """What changes between the policies' sweeps: the favoured side of any cell, the best cell for
    ``side``, and where ``side``'s rate crosses 50% (one path) or which cells lie above it."""
    flags: list[str] = []
    specs = list(results)
    first = results[specs[0]]
    # the favoured side, cell by cell
    changed = []
    for k, cell in enumerate(first.cells):
        sides = {}
        for spec in specs:
            c = results[spec].cells[k]
            sides[spec] = _favoured(c.result) if c.result is not None else None
        if len(set(sides.values())) > 1:
            label = ", ".join(f"{p.rsplit('.', 1)[-1]} {v}" for p, v in cell.values)
            who = _sep().join(f"{s}: {_nobody(sides[s])}" for s in specs)
            changed.append(f"{label} ({who})")
    if changed:
        flags.append(
            _("the favoured side changes in {count} cells: {cells}").format(
                count=len(changed), cells=_sep().join(changed[:8])
            )
        )
    # the best cell for the side
    best = {}
    for spec in specs:
        done = [c for c in results[spec].cells if c.result is not None]
        if done:
            top = max(done, key=lambda c: c.rate(side) or 0.0)
            best[spec] = ", ".join(f"{p.rsplit('.', 1)[-1]} {v}" for p, v in top.values)
    if len(set(best.values())) > 1:
        flags.append(
            _("the best cell for {side} changes: {cells}").format(
                side=side, cells=_sep().join(f"{s}: {b}" for s, b in best.items())
            )
        )
    # the 50% line
    if len(first.paths) == 1:
        where = {}
        for spec in specs:
            done = [c for c in results[spec].cells if c.result is not None]
            values = [c.values[0][1] for c in done]
            if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
                cross = crossing([float(v) for v in values], [c.rate(side) or 0.0 for c in done], 0.5)
                where[spec] = f"{cross[0]:.1f}" if cross else _("nowhere in the range")
        if len(set(where.values())) > 1:
            flags.append(
                _("{side}'s 50% line moves: {lines}").format(
                    side=side, lines=_sep().join(f"{s}: {w}" for s, w in where.items())
                )
            )
    else:
        above = [{c.index for c in results[spec].cells if (c.rate(side) or 0.0) > 0.5} for spec in specs]
        moved = set[int]().union(*above) - above[0].intersection(*above[1:])
        if moved:
            flags.append(
                _("{side}'s 50% contour moves: {count} cells are above 50% under some policies").format(
                    side=side, count=len(moved)
                )
            )
    return flags
