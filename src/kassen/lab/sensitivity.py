"""What matters: many parameters ranked by their effect on a side's win rate
(``kassen lab sensitivity SCENARIO --vary PATH=LO..HI ... --fights N``).

The design and the estimators are SALib's (``kassen[lab]``), not hand-written:

* ``morris`` (the default): Morris' elementary effects. ``trajectories`` random walks through a grid of
  ``levels`` values per path, one path changed per step (``trajectories × (paths + 1)`` scenarios).
  ``mu_star`` is the mean absolute change of the win rate when the path moves (scaled to its whole
  range), with a 95% bootstrap interval; ``sigma`` the spread of those changes (large: the effect
  depends on the other values, or is not linear).
* ``sobol``: Sobol' indices from Saltelli's design (``samples × (paths + 2)`` scenarios): ``S1`` the
  share of the win rate's variance a path explains alone, ``ST`` with all its interactions.

Every scenario plays the same N fights (seeds S .. S+N-1: common random numbers, so an effect is what
the values change, not other dice). A whole-number path takes whole values (the design's values
rounded); a scenario the design repeats is played once. The same seed gives the same design.
"""

from __future__ import annotations

__all__ = ["Effect", "SensitivityResult", "sensitivity"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from kassen.i18n import _, pgettext, translate_text, use_language
from kassen.lab.api import Progress, Scenario
from kassen.lab.backends import Backend, batches, run_batches, session
from kassen.lab.engine import Batch, FightRecord
from kassen.lab.limits import MAX_POINTS, MAX_SENSITIVITY_PATHS, LabError, check_count
from kassen.lab.sentences import pct
from kassen.lab.solve import parse_span

Method = Literal["morris", "sobol"]


@dataclass(frozen=True, slots=True)
class Effect:
    """One path's effect on the win rate: Morris ``mu_star`` (with its 95% interval's half-width),
    ``mu`` (signed: up or down) and ``sigma``; or Sobol' ``s1`` and ``st`` with theirs."""

    path: str
    low: float
    high: float
    mu_star: float | None = None
    mu_star_conf: float | None = None
    mu: float | None = None
    sigma: float | None = None
    s1: float | None = None
    s1_conf: float | None = None
    st: float | None = None
    st_conf: float | None = None

    @property
    def size(self) -> float:
        """What the ranking sorts by: ``mu_star`` or ``ST``."""
        return (self.mu_star if self.mu_star is not None else self.st) or 0.0


@dataclass(frozen=True)
class SensitivityResult:
    """Every path's effect, the most important first (see the module notes)."""

    scenario: str
    source: str
    side: str
    side_name: str
    method: Method
    fights: int
    seed: int
    points: int
    effects: tuple[Effect, ...]
    design: tuple[tuple[tuple[float, ...], float], ...] = field(repr=False, default=())
    policies: Mapping[str, str] = field(default_factory=dict)
    #: The paths in the order given (the design's columns).
    paths: tuple[str, ...] = ()

    def sentence(self) -> str:
        """The answer in one sentence, in the reader's language (the JSON's is in English)."""
        from kassen.lab.sentences import finish

        top = self.effects[0]
        last = self.effects[-1]
        side = translate_text(self.side_name)
        design = {"points": self.points, "fights": f"{self.fights:,}"}
        if top.size == 0:
            return _(
                "No path moved {side}'s win rate on these fights ({points} scenarios x {fights} fights, the "
                "same seeds)."
            ).format(side=side, **design)
        name = label(top.path)
        clauses = []
        if self.method == "morris":
            assert top.mu_star is not None
            clauses.append(
                _(
                    "{path} matters most: across its range ({low} to {high}) it moves {side}'s win rate by "
                    "{points} points on average (±{conf})"
                ).format(
                    path=name,
                    low=f"{top.low:g}",
                    high=f"{top.high:g}",
                    side=side,
                    points=f"{100 * top.mu_star:.1f}",
                    conf=f"{100 * (top.mu_star_conf or 0):.1f}",
                )
            )
            if len(self.effects) > 1:
                second = self.effects[1]
                clauses.append(
                    pgettext("lab", "then {path} ({points})").format(
                        path=label(second.path), points=f"{100 * (second.mu_star or 0):.1f}"
                    )
                )
            if len(self.effects) > 2:  # with two paths the second is the last: named once
                clauses.append(
                    pgettext("lab", "least {path} ({size})").format(
                        path=label(last.path), size=f"{100 * (last.mu_star or 0):.1f}"
                    )
                )
        else:
            clauses.append(
                _(
                    "{path} matters most: it explains {total} of the variance of {side}'s win rate with its "
                    "interactions ({alone} alone)"
                ).format(path=name, total=pct(top.st), side=side, alone=pct(top.s1))
            )
            if len(self.effects) == 2:  # the other of two is not "the least" of them
                clauses.append(
                    pgettext("lab", "then {path} ({points})").format(
                        path=label(last.path), points=pct(last.st)
                    )
                )
            elif len(self.effects) > 2:
                clauses.append(
                    pgettext("lab", "least {path} ({size})").format(path=label(last.path), size=pct(last.st))
                )
        clauses[-1] = _("{clause} ({points} scenarios x {fights} fights, the same seeds)").format(
            clause=clauses[-1], **design
        )
        return finish(clauses)

    def english_sentence(self) -> str:
        """The answer in English, as the JSON gives it whatever the reader's language."""
        with use_language("en"):
            return self.sentence()

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "rank": i + 1,
                "path": e.path,
                "low": e.low,
                "high": e.high,
                "mu_star": e.mu_star,
                "mu_star_conf": e.mu_star_conf,
                "mu": e.mu,
                "sigma": e.sigma,
                "S1": e.s1,
                "S1_conf": e.s1_conf,
                "ST": e.st,
                "ST_conf": e.st_conf,
            }
            for i, e in enumerate(self.effects)
        ]

    def design_rows(self) -> list[dict[str, Any]]:
        """Each scenario the design played: its values and the side's win rate."""
        return [{**dict(zip(self.paths, x, strict=True)), "rate": y} for x, y in self.design]

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "side": self.side,
            "method": self.method,
            "fights": self.fights,
            "seed": self.seed,
            "scenarios": self.points,
            "policies": dict(self.policies),
            "effects": self.rows(),
            "sentence": self.english_sentence(),
        }


def label(path: str) -> str:
    """A path's short name: its last two parts (``ryu.skill``)."""
    return ".".join(path.split(".")[-2:])


def _salib() -> Any:
    try:
        import SALib
    except ImportError:
        raise LabError(_("kassen lab sensitivity needs SALib: pip install 'kassen[lab]'")) from None
    import SALib.analyze.morris
    import SALib.analyze.sobol
    import SALib.sample.morris
    import SALib.sample.sobol

    return SALib


def sensitivity(
    scenario: Scenario,
    vary: Sequence[str],
    *,
    fights: int,
    side: str | None = None,
    method: Method = "morris",
    trajectories: int = 10,
    levels: int = 4,
    samples: int = 64,
    seed: int = 0,
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    content: Sequence[str | Path] | str | Path = (),
    max_actions: int | None = None,
    policies: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> SensitivityResult:
    """Rank the ``vary`` paths (``PATH=LO..HI`` each) by their effect on ``side``'s win rate (default:
    the scenario's first side), each scenario of the design played with ``fights`` fights from
    ``seed`` (see the module notes)."""
    from kassen.lab.sweeping import plan_sweep

    salib = _salib()
    if method not in ("morris", "sobol"):
        raise LabError(_("--method is morris or sobol, not {method}").format(method=repr(str(method)[:20])))
    if not 2 <= len(vary) <= MAX_SENSITIVITY_PATHS:
        raise LabError(
            _("sensitivity ranks 2 to {max_sensitivity_paths} paths, not {count}").format(
                max_sensitivity_paths=MAX_SENSITIVITY_PATHS, count=len(vary)
            )
        )
    spans = [parse_span(v) for v in vary]
    if len({s[0] for s in spans}) != len(spans):
        raise LabError(_("a path is varied twice"))
    check_count(trajectories, "trajectories", 200, minimum=2)
    check_count(levels, "levels", 20, minimum=2)
    check_count(samples, "samples", 4096, minimum=2)
    plan = plan_sweep(
        scenario,
        [f"{p}={_value(lo, whole)}" for p, lo, _, whole in spans],
        fights=fights,
        seed=seed,
        jobs=jobs,
        backend=backend,
        address=address,
        content=content,
        max_actions=max_actions,
        policies=policies,
        side=side,
        most_paths=MAX_SENSITIVITY_PATHS,
    )
    chosen = plan.side
    if chosen is None:
        raise LabError(_("the scenario names no side to rank the effects on"))
    problem = {
        "num_vars": len(spans),
        "names": [p for p, *_ in spans],
        "bounds": [[lo, hi] for _, lo, hi, _ in spans],
    }
    draw = seed % (1 << 32)  # the design's own random draws (numpy takes 32 bits); the fights use ``seed``
    if method == "morris":
        design = salib.sample.morris.sample(problem, trajectories, num_levels=levels, seed=draw)
    else:
        design = salib.sample.sobol.sample(problem, samples, calc_second_order=False, seed=draw)
    rows = [tuple(_value(x, whole) for x, (_, _, _, whole) in zip(row, spans, strict=True)) for row in design]
    unique = list(dict.fromkeys(rows))
    if len(unique) > MAX_POINTS or len(unique) * fights > 2_000_000:
        raise LabError(
            _(
                "the design plays {count} scenarios of {fights} fights; at most {max_points} scenarios and "
                "2,000,000 fights: fewer trajectories, samples or fights"
            ).format(
                count=format(len(unique), ","), fights=format(fights, ","), max_points=format(MAX_POINTS, ",")
            )
        )
    rates = _play(plan, unique, chosen, progress)
    import numpy as np

    y = np.array([rates[r] for r in rows], dtype=float)
    effects = []
    if method == "morris":
        out = salib.analyze.morris.analyze(
            problem, design, y, num_levels=levels, seed=draw, num_resamples=1000
        )
        for i, (p, lo, hi, _whole) in enumerate(spans):
            effects.append(
                Effect(p, lo, hi, _r(out["mu_star"][i]), _r(out["mu_star_conf"][i]), _r(out["mu"][i]),
                       _r(out["sigma"][i]))
            )  # fmt: skip
    else:
        out = salib.analyze.sobol.analyze(problem, y, calc_second_order=False, seed=draw)
        for i, (p, lo, hi, _whole) in enumerate(spans):
            effects.append(
                Effect(p, lo, hi, s1=_r(out["S1"][i]), s1_conf=_r(out["S1_conf"][i]), st=_r(out["ST"][i]),
                       st_conf=_r(out["ST_conf"][i]))
            )  # fmt: skip
    ranked = tuple(sorted(effects, key=lambda e: -e.size))
    names = plan.base.opener.ruleset.names(plan.base.opener.setup.state)
    result = SensitivityResult(
        plan.base.opener.setup.title, plan.base.source.name, chosen, str(names.get(chosen, chosen)), method,
        fights, seed, len(unique), ranked, tuple((r, rates[r]) for r in unique), dict(plan.base.policies),
        tuple(p for p, *_ in spans),
    )  # fmt: skip
    return result


def _r(x: Any) -> float | None:
    value = float(x)
    return None if value != value else round(value, 6)  # NaN: not estimable


def _value(x: float, whole: bool) -> Any:
    return round(x) if whole else round(float(x), 6)


def _play(
    plan: Any, points: Sequence[tuple[Any, ...]], side: str, progress: Progress | None
) -> dict[Any, float]:
    """Each point's win rate for ``side``, every point on the same seeds, all played at once."""
    base = plan.base
    work: list[Batch] = []
    for k, values in enumerate(points):
        text, error = plan.cell(list(values))
        if text is None:
            shown = ", ".join(f"{p.text}={v}" for p, v in zip(plan.paths, values, strict=True))
            raise LabError(
                _("the design's scenario {shown} does not validate: {error}").format(
                    shown=shown, error=translate_text(error)
                )
            )
        work += batches(
            base.source.name, text, base.content, base.seeds(), base.jobs, base.max_actions,
            cell=k, start=len(work), policies=base.policies,
        )  # fmt: skip
    wins: dict[int, int] = {}
    counts: dict[int, int] = {}

    def on_batch(b: Batch, records: list[FightRecord]) -> None:
        wins[b.cell] = wins.get(b.cell, 0) + sum(r.status == "win" and r.winner == side for r in records)
        counts[b.cell] = counts.get(b.cell, 0) + len(records)
        if progress:
            progress(len(b.seeds))

    with session(base.backend, base.jobs, base.address):
        run_batches(
            work, jobs=base.jobs, backend=base.backend, address=base.address, on_batch=on_batch, keep=False
        )
    return {values: wins.get(k, 0) / counts[k] for k, values in enumerate(points)}
