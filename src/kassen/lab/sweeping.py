"""Sweeps: a grid of runs over a scenario's values, each cell on the same seeds, compared with a
baseline cell (:mod:`kassen.lab.grid`), each cell stopping early under a sequential rule
(:mod:`kassen.lab.sequential`).

:func:`plan_sweep` checks everything and builds every cell's scenario text before a fight is played;
:func:`execute_sweep` plays the cells in *rounds*: each round plays the next look of every cell still
going (all of them at once, on every job), then reads each cell's rule. A cell stops when its rule is
met or its fights are played; the baseline plays on while any cell does, so that every cell is paired
with it on all its seeds. Where a cell stops depends on its own fights alone: the same for any
``--jobs`` and either backend.
"""

from __future__ import annotations

__all__ = ["CellPlan", "SweepPlan", "execute_sweep", "plan_sweep", "sweep"]

import hashlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from kassen.content.content import read_layer
from kassen.core.errors import KassenError, kind_of
from kassen.core.fastreplace import replace
from kassen.i18n import S_, _, translate_text, use_language
from kassen.lab.api import Progress, RunPlan, Scenario, _aggregate, _opener, plan_run
from kassen.lab.backends import Backend, batches, run_batches, session
from kassen.lab.engine import Batch, FightRecord
from kassen.lab.grid import Baseline, CellResult, SweepResult, compare
from kassen.lab.limits import MAX_CELLS, MAX_FIGHTS, MAX_SWEEP_FIGHTS, MAX_VARY, LabError, check_count
from kassen.lab.output import CellStore, start_out
from kassen.lab.paths import (
    Cell,
    ContentView,
    Resolved,
    Scalar,
    VaryPath,
    apply_values,
    cell_text,
    did_you_mean,
    get_at,
    parse_vary,
    resolve,
)
from kassen.lab.results import Tally
from kassen.lab.sequential import check_side


@dataclass(frozen=True)
class CellPlan:
    """A cell made ready: its scenario text (None: it did not validate, ``error`` says why)."""

    cell: Cell
    text: str | None
    error: str = ""


@dataclass(frozen=True)
class SweepPlan:
    """A checked sweep: the base run's options (its stopping rule too), the varied paths, every cell of
    the grid, the side compared, and the baseline: a cell of the grid (``baseline_index``) or a
    scenario played apart (``baseline_text``), with its values."""

    base: RunPlan
    paths: tuple[VaryPath, ...]
    cells: tuple[CellPlan, ...]
    side: str | None = None
    baseline_values: tuple[tuple[str, Any], ...] = ()
    baseline_index: int | None = None
    baseline_text: str | None = None
    #: Where each path points, and the content view content paths are written through.
    resolved: tuple[Resolved, ...] = field(default=(), repr=False, compare=False)
    view: ContentView | None = field(default=None, repr=False, compare=False)

    def cell(self, values: Sequence[Scalar]) -> tuple[str | None, str]:
        """The scenario text of the cell with ``values`` (one per path), or None and why it does not
        validate: a cell the grid did not list (``kassen lab solve`` tries values as it goes)."""
        text = _build(self.base, self.view, list(zip(self.resolved, values, strict=True)))
        error = _validate(self.base, text)
        return (None if error else text), error

    @cached_property
    def layer_digests(self) -> list[str]:
        """A digest of each ``--content`` layer's files, as they are now."""
        out = []
        for p in self.base.content:
            layer = read_layer(p, "layer")
            text = "\0".join(f"{s.name}\0{s.text}" for s in layer.sources)
            out.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
        return out

    def spec(self, text: str | None) -> dict[str, Any]:
        """Everything that decides a cell's fights (a stored cell with the same spec is reused)."""
        from kassen import __version__

        rule = self.base.rule
        return {
            "kassen": __version__,
            "scenario": hashlib.sha256((text or "").encode("utf-8")).hexdigest(),
            "content": self.layer_digests,
            "seed": self.base.seed,
            "fights": self.base.fights,
            "max_actions": self.base.max_actions,
            "policies": [list(p) for p in self.base.policies],
            "rule": rule.spec() if rule is not None else None,
        }


def _build(base: RunPlan, view: ContentView | None, values: Sequence[tuple[Resolved, Scalar]]) -> str:
    return cell_text(apply_values(base.source, view, values))


def _validate(base: RunPlan, text: str) -> str:
    """'' if the cell's scenario validates, else why not (one line, in English: the cell's error is kept
    in the sweep's JSON and files, the same in every language, and shown through translate_text)."""
    with use_language("en"):
        return _validate_in_english(base, text)


def _validate_in_english(base: RunPlan, text: str) -> str:
    try:
        _opener(base.source.name, text, base.content)
    except KassenError as exc:
        return " ".join(str(exc).split())[:300]
    except Exception as exc:  # a value no check foresaw: the cell is reported, the sweep goes on
        return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:300]
    return ""


def plan_sweep(
    scenario: Scenario,
    vary: Sequence[str | VaryPath],
    *,
    fights: int,
    seed: int = 0,
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    content: Sequence[str | Path] | str | Path = (),
    max_actions: int | None = None,
    policies: Mapping[str, str] | None = None,
    side: str | None = None,
    baseline: Sequence[str] = (),
    until: float | None = None,
    decide: float | None = None,
    every: int | None = None,
    most_paths: int = MAX_VARY,
) -> SweepPlan:
    """Check a sweep: every path resolved (an unknown one refused with the nearest known paths), every
    content path proved to change nothing but its value, the grid within the limits, every cell built
    and validated (a cell that does not validate is kept with its error, and skipped), the side
    compared (default: the first), the baseline (``PATH=V`` for some of the paths, the others as
    written) and the stopping rule."""
    if isinstance(vary, str | bytes) or not isinstance(vary, list | tuple):
        raise LabError(_("vary is a list of PATH=V1,V2,... texts, not {kind}").format(kind=kind_of(vary)))
    if not all(isinstance(v, str | VaryPath) for v in vary):
        raise LabError(_("vary is a list of PATH=V1,V2,... texts"))
    if not vary:
        raise LabError(_("a sweep needs at least one --vary PATH=V1,V2,..."))
    if len(vary) > most_paths:
        raise LabError(
            _("a sweep varies at most {most_paths} paths, not {count}").format(
                most_paths=most_paths, count=len(vary)
            )
        )
    paths = tuple(v if isinstance(v, VaryPath) else parse_vary(v) for v in vary)
    if len({p.text for p in paths}) != len(paths):
        raise LabError(_("a path is varied twice"))
    size = 1
    for p in paths:
        size *= len(p.values)
    if size > MAX_CELLS:
        raise LabError(
            _("the grid has {size} cells; at most {max_cells}").format(
                size=format(size, ","), max_cells=MAX_CELLS
            )
        )
    check_count(fights, "fights", MAX_FIGHTS)
    if size * fights > MAX_SWEEP_FIGHTS:
        raise LabError(
            _("the sweep would play {size} fights; at most {max_sweep_fights}").format(
                size=format(size * fights, ","), max_sweep_fights=format(MAX_SWEEP_FIGHTS, ",")
            )
        )
    base = plan_run(
        scenario,
        fights=fights,
        seed=seed,
        jobs=jobs,
        backend=backend,
        address=address,
        content=content,
        max_actions=max_actions,
        policies=policies,
        until=until,
        decide=decide,
        side=side,
        every=every,
    )
    from kassen.lab.api import known_sides

    sides = known_sides(base.opener)
    if side is not None:
        check_side(side, sides)
    compared = side if side is not None else (base.rule.side if base.rule else (sides[0] if sides else None))
    view = None
    if any(p.in_content for p in paths):
        view = ContentView(base.source, base.content, list(base.opener.content.sections))
    resolved = [resolve(p, base.source.data, view) for p in paths]
    for r in resolved:
        if r.vary.in_content:
            current = _current(r, view)
            text = _build(base, view, [(r, current)])
            error = _validate(base, text)
            same = (
                not error
                and _opener(base.source.name, text, base.content).content.hash == base.opener.content.hash
            )
            if not same:
                if error:
                    message = _(
                        "cannot vary {path}: rewriting it with its current value ({current}) does not give "
                        "the same content ({error}); vary it in a --content layer of your own instead"
                    )
                else:
                    message = _(
                        "cannot vary {path}: rewriting it with its current value ({current}) does not give "
                        "the same content; vary it in a --content layer of your own instead"
                    )
                raise LabError(
                    message.format(path=repr(r.vary.text), current=repr(current), error=translate_text(error))
                )
        elif not r.exists:
            errors = [_validate(base, _build(base, view, [(r, v)])) for v in r.vary.values]
            if all(errors):
                close = _suggest(base, view, r.vary.text)
                hint = did_you_mean(close)
                raise LabError(
                    _(
                        "unknown path {text}: the scenario has no such value and none of its values "
                        "validates ({errors}){hint}"
                    ).format(text=repr(r.vary.text), errors=translate_text(errors[0])[:160], hint=hint)
                )
    cells = []
    for i, combo in enumerate(itertools.product(*(p.values for p in paths))):
        cell = Cell(i, tuple((p.text, v) for p, v in zip(paths, combo, strict=True)))
        text = _build(base, view, list(zip(resolved, combo, strict=True)))
        error = _validate(base, text)
        cells.append(CellPlan(cell, None if error else text, error))
    chosen = _baseline(base, view, paths, resolved, baseline)
    index = next((c.cell.index for c in cells if c.cell.values == chosen and c.text is not None), None)
    apart = None
    if index is None:
        known = [(r, v) for r, (_, v) in zip(resolved, chosen, strict=True) if v is not _MISSING]
        apart = _build(base, view, known)
        error = _validate(base, apart)
        if error:
            raise LabError(
                _("the baseline ({label}) does not validate: {error}").format(
                    label=translate_text(_label(chosen)), error=translate_text(error)
                )
            )
    shown = tuple((p, v) for p, v in chosen if v is not _MISSING)
    return SweepPlan(base, paths, tuple(cells), compared, shown, index, apart, tuple(resolved), view)


#: A path the scenario does not hold (the baseline leaves it unset).
_MISSING: Any = object()


def _label(values: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{p}={v}" for p, v in values if v is not _MISSING) or S_("the scenario as written")


def _baseline(
    base: RunPlan,
    view: ContentView | None,
    paths: Sequence[VaryPath],
    resolved: Sequence[Resolved],
    given: Sequence[str],
) -> tuple[tuple[str, Any], ...]:
    """The baseline's value of each path: as given (``PATH=V``), else as the scenario has it."""
    named: dict[str, Any] = {}
    for spec in given:
        v = parse_vary(spec)
        if v.text not in {p.text for p in paths}:
            varied = ", ".join(p.text for p in paths)
            raise LabError(
                _("--baseline {text} is not a varied path ({varied})").format(
                    text=repr(v.text[:80]), varied=varied
                )
            )
        if len(v.values) != 1:
            raise LabError(_("--baseline {text} takes one value").format(text=repr(v.text[:80])))
        if v.text in named:
            raise LabError(_("--baseline {text} is given twice").format(text=repr(v.text[:80])))
        named[v.text] = v.values[0]
    out = []
    for p, r in zip(paths, resolved, strict=True):
        if p.text in named:
            out.append((p.text, named[p.text]))
        elif r.vary.in_content:
            out.append((p.text, _current(r, view)))
        elif r.exists:
            out.append((p.text, get_at(base.source.data, r.keys)))
        else:
            out.append((p.text, _MISSING))
    return tuple(out)


def _suggest(base: RunPlan, view: ContentView | None, path: str) -> list[str]:
    """The known paths nearest ``path``: the scenario's values and the content's (``catalog.``)."""
    from kassen.lab.paths import leaf_paths, suggest

    if view is None:
        view = ContentView(base.source, base.content, list(base.opener.content.sections))
    known = list(leaf_paths(base.source.data)) + [f"catalog.{p}" for p in leaf_paths(view.data())]
    return suggest(path, known)


def _current(r: Resolved, view: ContentView | None) -> Scalar:
    from kassen.lab.paths import get_at

    assert view is not None
    section = str(r.keys[0])
    data: Any = view.entries[section] if r.entries else view.tables[section]
    value = get_at(data, r.keys[1:])
    if value is not None and not isinstance(value, int | float | bool | str):
        raise LabError(
            _("{text} holds a {kind}, not a single value a sweep can vary").format(
                text=repr(r.vary.text), kind=type(value).__name__
            )
        )
    return value


def execute_sweep(
    plan: SweepPlan, *, store: CellStore | None = None, progress: Progress | None = None
) -> SweepResult:
    """Play every valid cell and the baseline in rounds (see the module notes); cells already in
    ``store`` with the same spec are read back, not played; each cell is stored as soon as it stops."""
    base = plan.base
    rule = base.rule
    block = base.fights if rule is None else rule.every
    texts: dict[int, str] = {cp.cell.index: cp.text for cp in plan.cells if cp.text is not None}
    apart = len(plan.cells)  # the baseline played apart, when it is no cell of the grid
    if plan.baseline_text is not None:
        texts[apart] = plan.baseline_text
    base_index = apart if plan.baseline_text is not None else plan.baseline_index
    results: dict[int, list[FightRecord]] = {i: [] for i in texts}
    tallies: dict[int, Tally] = {i: Tally() for i in texts}
    keys: dict[int, str] = {}
    resumed: set[int] = set()
    going: list[int] = []
    looks: dict[int, int] = dict.fromkeys(texts, 0)
    for i, text in texts.items():
        if store is not None:
            keys[i] = store.key(plan.spec(text))
            loaded = store.load(keys[i])
            if loaded is not None and _whole(loaded, base.fights, rule is not None):
                results[i] = loaded
                for r in loaded:
                    tallies[i].add(r)
                looks[i] = -(-len(loaded) // block)
                resumed.add(i)
                continue
        going.append(i)
    # Resumed cells count on the progress bar when the first batch is done: the bar's thread must not
    # run while the worker processes are forked.
    unreported = [sum(len(results[i]) for i in resumed)]

    def report(n: int) -> None:
        if progress:
            progress(n + unreported[0])
            unreported[0] = 0

    def finish(i: int) -> None:
        if store is not None:
            store.save(keys[i], texts[i], plan.spec(texts[i]), results[i])

    with session(base.backend, base.jobs, base.address):
        _rounds(plan, going, texts, results, tallies, looks, base_index, report, finish)
    if unreported[0]:
        report(0)
    return _assemble(plan, results, tallies, looks, keys, resumed, base_index)


def _rounds(
    plan: SweepPlan,
    going: list[int],
    texts: dict[int, str],
    results: dict[int, list[FightRecord]],
    tallies: dict[int, Tally],
    looks: dict[int, int],
    base_index: int | None,
    report: Progress,
    finish: Callable[[int], None],
) -> None:
    """Play round after round until no cell goes on (see the module notes)."""
    base = plan.base
    rule = base.rule
    block = base.fights if rule is None else rule.every
    while going:
        work: list[Batch] = []
        for i in going:
            seeds = base.seeds(len(results[i]), block)
            work += batches(
                base.source.name,
                texts[i],
                base.content,
                seeds,
                base.jobs,
                base.max_actions,
                cell=i,
                start=len(work),
                policies=base.policies,
            )
        got = _play_round(work, base, report)
        still = []
        for i in going:
            for k in sorted(got.get(i, {})):
                for r in got[i][k]:
                    results[i].append(r)
                    tallies[i].add(r)
            looks[i] += 1
            done = len(results[i]) >= base.fights or (
                rule is not None and i != base_index and rule.read(tallies[i])[0]
            )
            if not done:
                still.append(i)
        # the baseline plays on while a cell does (each cell is paired on all its seeds)
        if base_index in still and not any(i != base_index for i in still):
            still.remove(base_index)
        for i in going:
            if i not in still:
                finish(i)
        going = still


def _play_round(
    work: Sequence[Batch], base: RunPlan, report: Progress
) -> dict[int, dict[int, list[FightRecord]]]:
    """One round's batches played: each cell's records by batch index."""
    got: dict[int, dict[int, list[FightRecord]]] = {}

    def on_batch(b: Batch, records: list[FightRecord]) -> None:
        got.setdefault(b.cell, {})[b.index] = records
        report(len(b.seeds))

    run_batches(
        work, jobs=base.jobs, backend=base.backend, address=base.address, on_batch=on_batch, keep=False
    )
    return got


def _whole(records: Sequence[FightRecord], fights: int, sequential: bool) -> bool:
    """Whether a stored cell is finished: all its fights, or (a sequential one) as many as it played."""
    return len(records) == fights or (sequential and 0 < len(records) < fights)


def _assemble(
    plan: SweepPlan,
    results: dict[int, list[FightRecord]],
    tallies: dict[int, Tally],
    looks: dict[int, int],
    keys: dict[int, str],
    resumed: set[int],
    base_index: int | None,
) -> SweepResult:
    base = plan.base
    rule = base.rule

    def run_of(i: int, text: str) -> Any:
        opener = _opener(base.source.name, text, base.content)
        out = _aggregate(opener, base.source, results[i], base.seed, base.policies)
        if rule is not None:
            out = replace(out, sequential=rule.report(tallies[i], base.fights, looks[i]))
        return out

    runs = {i: run_of(i, text) for i, text in _texts(plan).items()}
    baseline = None
    if base_index is not None:
        baseline = Baseline(plan.baseline_values, plan.baseline_index, runs[base_index], keys.get(base_index))
    cells = []
    for cp in plan.cells:
        i = cp.cell.index
        if cp.text is None:
            cells.append(CellResult(i, cp.cell.values, None, cp.error))
            continue
        versus = unpaired = None
        if baseline is not None and plan.side is not None and i != base_index:
            versus, unpaired = compare(runs[i], baseline.result, plan.side)
        cells.append(CellResult(i, cp.cell.values, runs[i], "", i in resumed, keys.get(i), versus, unpaired))
    return SweepResult(
        base.opener.setup.title,
        base.source.ruleset,
        base.seed,
        base.fights,
        tuple(p.text for p in plan.paths),
        tuple(p.values for p in plan.paths),
        tuple(cells),
        plan.side,
        baseline,
        base.source.name,
        dict(base.policies),
    )


def _texts(plan: SweepPlan) -> dict[int, str]:
    out = {cp.cell.index: cp.text for cp in plan.cells if cp.text is not None}
    if plan.baseline_text is not None:
        out[len(plan.cells)] = plan.baseline_text
    return out


def sweep(
    scenario: Scenario,
    vary: Sequence[str | VaryPath],
    *,
    fights: int,
    seed: int = 0,
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    content: Sequence[str | Path] | str | Path = (),
    max_actions: int | None = None,
    out: Path | str | None = None,
    progress: Progress | None = None,
    policies: Mapping[str, str] | None = None,
    side: str | None = None,
    baseline: Sequence[str] = (),
    until: float | None = None,
    decide: float | None = None,
    every: int | None = None,
) -> SweepResult:
    """Run ``scenario`` for every combination of the ``vary`` values (``"PATH=V1,V2,..."``), each cell
    a :func:`~kassen.lab.api.run` of ``fights`` fights from ``seed`` (the same seeds in every cell),
    each compared with the baseline (``baseline``: ``"PATH=V"`` values; default the scenario as
    written) in ``side``'s win rate; ``until``/``decide`` stop each cell early. With ``out``, finished
    cells are stored there and a rerun skips them; :func:`~kassen.lab.writing.write_sweep` writes the
    tables, plots and report."""
    plan = plan_sweep(
        scenario,
        vary,
        fights=fights,
        seed=seed,
        jobs=jobs,
        backend=backend,
        address=address,
        content=content,
        max_actions=max_actions,
        policies=policies,
        side=side,
        baseline=baseline,
        until=until,
        decide=decide,
        every=every,
    )
    store = None
    if out is not None:
        from kassen.lab.output import prepare_out

        target = Path(out)
        prepare_out(target, "sweep")
        start_out(target, "sweep", {"scenario": plan.base.source.name})
        store = CellStore(target)
    return execute_sweep(plan, store=store, progress=progress)
