"""The lab's Python API: :func:`run` (N fights of one scenario), :func:`sweep` (a grid of runs over
varied values), and the writers of their ``--out`` directories.

Each call checks every argument first (a :class:`~kassen.lab.limits.LabError` names the bad one), then
plays; :func:`plan_run`/:func:`plan_sweep` do the checking alone, so the CLI can refuse bad input
before anything runs or is written.

>>> from kassen.lab import run
>>> result = run("l5r/first-blood", fights=6, seed=0)
>>> result.fights, sum(s.wins.count for s in result.sides) + result.draws.count
(6, 6)
"""

from __future__ import annotations

__all__ = [
    "RunPlan",
    "SweepPlan",
    "execute_run",
    "execute_sweep",
    "plan_run",
    "plan_sweep",
    "run",
    "run_spec",
    "sweep",
    "write_odds",
    "write_run",
    "write_sweep",
]

import hashlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from kassen.content.content import read_layer
from kassen.core.errors import KassenError
from kassen.core.scenario import ScenarioSource, read_scenario
from kassen.lab.backends import Backend, batches, run_batches
from kassen.lab.engine import Batch, FightRecord, Opener
from kassen.lab.limits import (
    MAX_CELLS,
    MAX_FIGHTS,
    MAX_SWEEP_FIGHTS,
    MAX_VARY,
    LabError,
    check_count,
    check_jobs,
    check_seed_range,
)
from kassen.lab.output import CellStore, start_out
from kassen.lab.paths import (
    Cell,
    ContentView,
    Resolved,
    Scalar,
    VaryPath,
    apply_values,
    cell_text,
    parse_vary,
    resolve,
)
from kassen.lab.results import CellResult, RunResult, SweepResult, Tally
from kassen.lab.stream import InOrder, RunRows
from kassen.lab.writing import run_spec, write_odds, write_run, write_sweep

#: Most actions a fight may be given with ``max_actions``.
MAX_ACTIONS = 1_000_000
#: Called with the number of fights just finished.
Progress = Callable[[int], None]
Scenario = str | Path | ScenarioSource


# -- checking -------------------------------------------------------------------------------------------
def _common(fights: Any, seed: Any, jobs: Any, backend: Any, address: Any, max_actions: Any) -> None:
    check_count(fights, "fights", MAX_FIGHTS)
    check_seed_range(seed, fights)
    check_jobs(jobs)
    if backend not in ("local", "ray"):
        raise LabError(f"backend is local or ray, not {str(backend)[:20]!r}")
    if address is not None and backend != "ray":
        raise LabError("--address goes with --backend ray")
    if address is not None and (not isinstance(address, str) or not 0 < len(address) <= 200):
        raise LabError("--address is a Ray address such as 10.0.0.5:6379 or auto")
    if backend == "ray":
        from kassen.lab.backends import ray_available, reachable

        if not ray_available():
            raise LabError("the ray backend needs Ray: pip install 'kassen[ray]'")
        if address is not None and not reachable(address):
            raise LabError(f"cannot reach the Ray cluster at {address[:100]!r} (nothing answers there)")
    if max_actions is not None:
        check_count(max_actions, "max_actions", MAX_ACTIONS)


def _layers(content: Sequence[str | Path] | str | Path) -> tuple[str, ...]:
    items = [content] if isinstance(content, str | Path) else list(content)
    for p in items:
        read_layer(p, "layer")  # refuses what cannot be read, now rather than in every worker
    return tuple(str(p) for p in items)


def scenario_text(source: ScenarioSource) -> str:
    """The scenario as YAML text, header and own content block included (what workers read)."""
    data: dict[str, Any] = {"ruleset": source.ruleset, **source.data}
    if source.content is not None:
        data["content"] = dict(source.content)
    return cell_text(data)


def _read(scenario: Scenario) -> ScenarioSource:
    if isinstance(scenario, ScenarioSource):
        return scenario
    return read_scenario(scenario)


def _opener(name: str, text: str, content: Sequence[str]) -> Opener:
    from kassen.lab.engine import _opener as cached

    return cached(name, hashlib.sha256(text.encode("utf-8")).hexdigest(), text, tuple(content))


@dataclass(frozen=True)
class RunPlan:
    """A checked run: the scenario as text, its opener (content built, setup validated), the options."""

    source: ScenarioSource
    text: str
    content: tuple[str, ...]
    fights: int
    seed: int
    jobs: int
    backend: Backend
    address: str | None
    max_actions: int | None
    opener: Opener = field(repr=False)
    #: Each side played by a named policy rather than the scenario's (side, spec), in the order given.
    policies: tuple[tuple[str, str], ...] = ()

    def seeds(self) -> list[int]:
        return [self.seed + i for i in range(self.fights)]


def plan_run(
    scenario: Scenario,
    *,
    fights: int,
    seed: int = 0,
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    content: Sequence[str | Path] | str | Path = (),
    max_actions: int | None = None,
    policies: Mapping[str, str] | None = None,
) -> RunPlan:
    """Check a run's arguments and read its scenario (raises before anything plays); ``policies``
    names the policy of each side that does not play the scenario's own (``{"party": "search"}``)."""
    _common(fights, seed, jobs, backend, address, max_actions)
    named = _policies(policies)
    layers = _layers(content)
    source = _read(scenario)
    text = scenario_text(source)
    opener = _opener(source.name, text, layers)
    opener.open(seed, named)  # every side named is one of the scenario's, every spec builds
    return RunPlan(source, text, layers, fights, seed, jobs, backend, address, max_actions, opener, named)


def _policies(policies: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    from kassen.core.named import parse_policies

    if policies is None:
        return ()
    if not isinstance(policies, Mapping):
        raise LabError("policies is a mapping of side -> policy spec")
    return tuple((side, str(spec)) for side, spec in parse_policies(policies).items())


def execute_run(
    plan: RunPlan,
    progress: Progress | None = None,
    *,
    keep_records: bool = True,
    rows: RunRows | None = None,
) -> RunResult:
    """Play a planned run; the result is the same for any ``jobs`` and backend. Its fights are counted
    as they finish (in seed order) and dropped after, unless ``keep_records`` (the result's
    ``records``); ``rows`` writes each one's per-fight rows as it comes (``kassen lab run --out``)."""
    work = batches(
        plan.source.name,
        plan.text,
        plan.content,
        plan.seeds(),
        plan.jobs,
        plan.max_actions,
        policies=plan.policies,
    )
    tally = Tally(known_sides(plan.opener))
    kept: list[FightRecord] = []

    def take(r: FightRecord) -> None:
        tally.add(r)
        if keep_records:
            kept.append(r)
        if rows is not None:
            rows.add(r)

    ordered = InOrder(take)

    def on_batch(b: Batch, records: list[FightRecord]) -> None:
        ordered.put(b, records)
        if progress:
            progress(len(b.seeds))

    run_batches(
        work, jobs=plan.jobs, backend=plan.backend, address=plan.address, on_batch=on_batch, keep=False
    )
    return _result(plan.opener, plan.source, tally, plan.seed, kept, plan.policies)


def known_sides(opener: Opener) -> tuple[str, ...]:
    """Every side of the scenario, in the order its units come (listed with 0 wins when no fight ended)."""
    hook = getattr(opener.ruleset, "units", None)
    return tuple(dict.fromkeys(dict(hook(opener.setup.state)).values())) if hook is not None else ()


def _result(
    opener: Opener,
    source: ScenarioSource,
    tally: Tally,
    seed: int,
    records: Sequence[FightRecord] = (),
    policies: Sequence[tuple[str, str]] = (),
) -> RunResult:
    return tally.result(
        scenario=opener.setup.title,
        source=source.name,
        ruleset=source.ruleset,
        seed=seed,
        names=dict(opener.ruleset.names(opener.setup.state)),
        records=records,
        policies=dict(policies),
    )


def _aggregate(
    opener: Opener,
    source: ScenarioSource,
    records: Sequence[FightRecord],
    seed: int,
    policies: Sequence[tuple[str, str]] = (),
) -> RunResult:
    tally = Tally(known_sides(opener))
    for r in records:
        tally.add(r)
    return _result(opener, source, tally, seed, records, policies)


def run(
    scenario: Scenario,
    *,
    fights: int,
    seed: int = 0,
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    content: Sequence[str | Path] | str | Path = (),
    max_actions: int | None = None,
    progress: Progress | None = None,
    policies: Mapping[str, str] | None = None,
) -> RunResult:
    """Play ``fights`` fights of ``scenario`` (a bundled name, ``ruleset/name``, a path or a read
    scenario) with its policies, fight ``i`` with seed ``seed + i``, on ``jobs`` local processes or Ray
    tasks (``backend="ray"``, ``address`` of a cluster or a local Ray); ``content`` are ``--content``
    layers, ``max_actions`` caps each fight (default: the scenario's limit; a fight that reaches it is
    a time-out); ``policies`` plays each side it names by a named policy (``{"party": "search"}``,
    :mod:`kassen.core.named`) instead of the scenario's."""
    plan = plan_run(
        scenario,
        fights=fights,
        seed=seed,
        jobs=jobs,
        backend=backend,
        address=address,
        content=content,
        max_actions=max_actions,
        policies=policies,
    )
    return execute_run(plan, progress)


# -- sweeps ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CellPlan:
    """A cell made ready: its scenario text (None: it did not validate, ``error`` says why)."""

    cell: Cell
    text: str | None
    error: str = ""


@dataclass(frozen=True)
class SweepPlan:
    """A checked sweep: the base run's options, the varied paths and every cell of the grid."""

    base: RunPlan
    paths: tuple[VaryPath, ...]
    cells: tuple[CellPlan, ...]

    @cached_property
    def layer_digests(self) -> list[str]:
        """A digest of each ``--content`` layer's files, as they are now."""
        out = []
        for p in self.base.content:
            layer = read_layer(p, "layer")
            text = "\0".join(f"{s.name}\0{s.text}" for s in layer.sources)
            out.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
        return out

    def spec(self, cell: CellPlan) -> dict[str, Any]:
        """Everything that decides a cell's fights (a stored cell with the same spec is reused)."""
        from kassen import __version__

        return {
            "kassen": __version__,
            "scenario": hashlib.sha256((cell.text or "").encode("utf-8")).hexdigest(),
            "content": self.layer_digests,
            "seed": self.base.seed,
            "fights": self.base.fights,
            "max_actions": self.base.max_actions,
            "policies": [list(p) for p in self.base.policies],
        }


def _build(base: RunPlan, view: ContentView | None, values: Sequence[tuple[Resolved, Scalar]]) -> str:
    return cell_text(apply_values(base.source, view, values))


def _validate(base: RunPlan, text: str) -> str:
    """'' if the cell's scenario validates, else why not (one line)."""
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
) -> SweepPlan:
    """Check a sweep: every path resolved (an unknown one refused with the nearest known paths), every
    content path proved to change nothing but its value, the grid within the limits, every cell built
    and validated (a cell that does not validate is kept with its error, and skipped)."""
    if not vary:
        raise LabError("a sweep needs at least one --vary PATH=V1,V2,...")
    if len(vary) > MAX_VARY:
        raise LabError(f"a sweep varies at most {MAX_VARY} paths, not {len(vary)}")
    paths = tuple(v if isinstance(v, VaryPath) else parse_vary(v) for v in vary)
    if len({p.text for p in paths}) != len(paths):
        raise LabError("a path is varied twice")
    size = 1
    for p in paths:
        size *= len(p.values)
    if size > MAX_CELLS:
        raise LabError(f"the grid has {size:,} cells; at most {MAX_CELLS}")
    check_count(fights, "fights", MAX_FIGHTS)
    if size * fights > MAX_SWEEP_FIGHTS:
        raise LabError(f"the sweep would play {size * fights:,} fights; at most {MAX_SWEEP_FIGHTS:,}")
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
    )
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
                raise LabError(
                    f"cannot vary {r.vary.text!r}: rewriting it with its current value "
                    f"({current!r}) does not give the same content"
                    + (f" ({error})" if error else "")
                    + "; vary it in a --content layer of your own instead"
                )
        elif not r.exists:
            errors = [_validate(base, _build(base, view, [(r, v)])) for v in r.vary.values]
            if all(errors):
                close = _suggest(base, view, r.vary.text)
                hint = f"; did you mean {' or '.join(close)}?" if close else ""
                raise LabError(
                    f"unknown path {r.vary.text!r}: the scenario has no such value and none of its values "
                    f"validates ({errors[0][:160]}){hint}"
                )
    cells = []
    for i, combo in enumerate(itertools.product(*(p.values for p in paths))):
        cell = Cell(i, tuple((p.text, v) for p, v in zip(paths, combo, strict=True)))
        text = _build(base, view, list(zip(resolved, combo, strict=True)))
        error = _validate(base, text)
        cells.append(CellPlan(cell, None if error else text, error))
    return SweepPlan(base, paths, tuple(cells))


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
        raise LabError(f"{r.vary.text!r} holds a {type(value).__name__}, not a single value a sweep can vary")
    return value


def execute_sweep(
    plan: SweepPlan, *, store: CellStore | None = None, progress: Progress | None = None
) -> SweepResult:
    """Play every valid cell (cells already in ``store`` with the same spec are read back, not played);
    each cell is stored as soon as its last fight finishes."""
    base = plan.base
    results: dict[int, list[FightRecord]] = {}
    resumed: set[int] = set()
    work: list[Batch] = []
    keys: dict[int, str] = {}
    for cp in plan.cells:
        if cp.text is None:
            continue
        i = cp.cell.index
        if store is not None:
            keys[i] = store.key(plan.spec(cp))
            loaded = store.load(keys[i])
            if loaded is not None and len(loaded) == base.fights:
                results[i] = loaded
                resumed.add(i)
                continue
        work += batches(
            base.source.name,
            cp.text,
            base.content,
            base.seeds(),
            base.jobs,
            base.max_actions,
            cell=i,
            start=len(work),
            policies=base.policies,
        )
    expected: dict[int, int] = {}
    for b in work:
        expected[b.cell] = expected.get(b.cell, 0) + 1
    got: dict[int, dict[int, list[FightRecord]]] = {}
    texts = {cp.cell.index: cp.text for cp in plan.cells}

    # Resumed cells count on the progress bar when the first batch is done: the bar's thread must not
    # run while the worker processes are forked.
    unreported = [sum(len(results[i]) for i in resumed)]

    def report(n: int) -> None:
        if progress:
            progress(n + unreported[0])
            unreported[0] = 0

    def on_batch(b: Batch, records: list[FightRecord]) -> None:
        got.setdefault(b.cell, {})[b.index] = records
        if len(got[b.cell]) == expected[b.cell]:
            ordered = [r for k in sorted(got[b.cell]) for r in got[b.cell][k]]
            results[b.cell] = ordered
            if store is not None:
                text = texts[b.cell]
                assert text is not None
                store.save(keys[b.cell], text, plan.spec(_plan_of(plan, b.cell)), ordered)
        report(len(b.seeds))

    run_batches(
        work, jobs=base.jobs, backend=base.backend, address=base.address, on_batch=on_batch, keep=False
    )
    if unreported[0]:
        report(0)
    cells = []
    for cp in plan.cells:
        i = cp.cell.index
        if cp.text is None:
            cells.append(CellResult(i, cp.cell.values, None, cp.error))
            continue
        opener = _opener(base.source.name, cp.text, base.content)
        cells.append(
            CellResult(
                i,
                cp.cell.values,
                _aggregate(opener, base.source, results[i], base.seed, base.policies),
                "",
                i in resumed,
            )
        )
    return SweepResult(
        base.opener.setup.title,
        base.source.ruleset,
        base.seed,
        base.fights,
        tuple(p.text for p in plan.paths),
        tuple(p.values for p in plan.paths),
        tuple(cells),
    )


def _plan_of(plan: SweepPlan, index: int) -> CellPlan:
    return plan.cells[index]


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
) -> SweepResult:
    """Run ``scenario`` for every combination of the ``vary`` values (``"PATH=V1,V2,..."``), each cell
    a :func:`run` of ``fights`` fights from ``seed`` (the same seeds in every cell). With ``out``,
    finished cells are stored there and a rerun skips them; :func:`write_sweep` writes the tables,
    plots and report."""
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
    )
    store = None
    if out is not None:
        from kassen.lab.output import prepare_out

        target = Path(out)
        prepare_out(target, "sweep")
        start_out(target, "sweep", {"scenario": plan.base.source.name})
        store = CellStore(target)
    return execute_sweep(plan, store=store, progress=progress)
