"""The lab's Python API: :func:`run` (N fights of one scenario), the writers of the ``--out``
directories; sweeps (a grid of runs over varied values) are in :mod:`kassen.lab.sweeping`.

Each call checks every argument first (a :class:`~kassen.lab.limits.LabError` names the bad one), then
plays; :func:`plan_run` (and :func:`~kassen.lab.sweeping.plan_sweep`) do the checking alone, so the
CLI can refuse bad input before anything runs or is written.

>>> from kassen.lab import run
>>> result = run("l5r/first-blood", fights=6, seed=0)
>>> result.fights, sum(s.wins.count for s in result.sides) + result.draws.count
(6, 6)
"""

from __future__ import annotations

__all__ = [
    "RunPlan",
    "check_options",
    "execute_run",
    "plan_run",
    "run",
    "run_spec",
    "write_odds",
    "write_run",
    "write_sweep",
]

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kassen.content.content import read_layer
from kassen.core.fastreplace import replace
from kassen.core.scenario import ScenarioSource, read_scenario
from kassen.i18n import _
from kassen.lab.backends import Backend, batches, run_batches, session
from kassen.lab.engine import Batch, FightRecord, Opener
from kassen.lab.limits import (
    MAX_FIGHTS,
    LabError,
    check_count,
    check_jobs,
    check_seed_range,
)
from kassen.lab.paths import (
    cell_text,
)
from kassen.lab.results import RunResult, Tally
from kassen.lab.sequential import Rule, check_rule
from kassen.lab.stream import InOrder, RunRows
from kassen.lab.writing import run_spec, write_odds, write_run, write_sweep

#: Most actions a fight may be given with ``max_actions``.
MAX_ACTIONS = 1_000_000
#: Called with the number of fights just finished.
Progress = Callable[[int], None]
Scenario = str | Path | ScenarioSource


# -- checking -------------------------------------------------------------------------------------------
def check_options(
    fights: Any,
    seed: Any,
    jobs: Any,
    backend: Any,
    address: Any,
    max_actions: Any,
    *,
    seeds: int | None = None,
) -> None:
    """The options every lab command shares, checked against the lab's limits (a :class:`LabError`
    names the first bad one). ``seeds`` is how many seeds ``seed`` starts (default: one per fight; a
    match plays each seed twice)."""
    check_count(fights, "fights", MAX_FIGHTS)
    check_seed_range(seed, fights if seeds is None else seeds)
    check_jobs(jobs)
    if backend not in ("local", "ray"):
        raise LabError(_("backend is local or ray, not {backend}").format(backend=repr(str(backend)[:20])))
    if address is not None and backend != "ray":
        raise LabError(_("--address goes with --backend ray"))
    if address is not None and (not isinstance(address, str) or not 0 < len(address) <= 200):
        raise LabError(_("--address is a Ray address such as 10.0.0.5:6379 or auto"))
    if backend == "ray":
        from kassen.lab.backends import ray_available, reachable

        if not ray_available():
            raise LabError(_("the ray backend needs Ray: pip install 'kassen[ray]'"))
        if address is not None and not reachable(address):
            raise LabError(
                _("cannot reach the Ray cluster at {address} (nothing answers there)").format(
                    address=repr(address[:100])
                )
            )
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
    #: The stopping rule (None: play all ``fights``; else ``fights`` is the most played).
    rule: Rule | None = None

    def seeds(self, start: int = 0, count: int | None = None) -> list[int]:
        """The seeds of fights ``start`` .. (all, or ``count`` of them)."""
        end = self.fights if count is None else min(self.fights, start + count)
        return [self.seed + i for i in range(start, end)]


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
    until: float | None = None,
    decide: float | None = None,
    side: str | None = None,
    every: int | None = None,
) -> RunPlan:
    """Check a run's arguments and read its scenario (raises before anything plays); ``policies``
    names the policy of each side that does not play the scenario's own (``{"party": "search"}``);
    ``until``/``decide`` stop it early (:mod:`kassen.lab.sequential`) on ``side``'s win rate, looking
    after every ``every`` fights."""
    check_options(fights, seed, jobs, backend, address, max_actions)
    named = _policies(policies)
    layers = _layers(content)
    source = _read(scenario)
    text = scenario_text(source)
    opener = _opener(source.name, text, layers)
    opener.open(seed, named)  # every side named is one of the scenario's, every spec builds
    rule = check_rule(until, decide, side, every, known_sides(opener))
    return RunPlan(
        source, text, layers, fights, seed, jobs, backend, address, max_actions, opener, named, rule
    )


def _policies(policies: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    from kassen.core.named import parse_policies

    if policies is None:
        return ()
    if not isinstance(policies, Mapping):
        raise LabError(_("policies is a mapping of side -> policy spec"))
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
    ``records``); ``rows`` writes each one's per-fight rows as it comes (``kassen lab run --out``). A
    run with a stopping rule plays look after look until the rule is met or ``fights`` are played."""
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

    rule = plan.rule
    block = plan.fights if rule is None else rule.every
    done = looks = started = 0
    with session(plan.backend, plan.jobs, plan.address):
        while done < plan.fights:
            seeds = plan.seeds(done, block)
            work = batches(
                plan.source.name,
                plan.text,
                plan.content,
                seeds,
                plan.jobs,
                plan.max_actions,
                policies=plan.policies,
                start=started,
            )
            started += len(work)
            run_batches(
                work,
                jobs=plan.jobs,
                backend=plan.backend,
                address=plan.address,
                on_batch=on_batch,
                keep=False,
            )
            done += len(seeds)
            looks += 1
            if rule is not None and rule.read(tally)[0]:
                break
    result = _result(plan.opener, plan.source, tally, plan.seed, kept, plan.policies)
    if rule is not None:
        result = replace(result, sequential=rule.report(tally, plan.fights, looks))
    return result


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
    until: float | None = None,
    decide: float | None = None,
    side: str | None = None,
    every: int | None = None,
) -> RunResult:
    """Play ``fights`` fights of ``scenario`` (a bundled name, ``ruleset/name``, a path or a read
    scenario) with its policies, fight ``i`` with seed ``seed + i``, on ``jobs`` local processes or Ray
    tasks (``backend="ray"``, ``address`` of a cluster or a local Ray); ``content`` are ``--content``
    layers, ``max_actions`` caps each fight (default: the scenario's limit; a fight that reaches it is
    a time-out); ``policies`` plays each side it names by a named policy (``{"party": "search"}``,
    :mod:`kassen.core.named`) instead of the scenario's; ``until`` (a width) or ``decide`` (a rate)
    stops early on ``side``'s win rate, ``fights`` then the most it plays (:mod:`kassen.lab.sequential`)."""
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
        until=until,
        decide=decide,
        side=side,
        every=every,
    )
    return execute_run(plan, progress)
