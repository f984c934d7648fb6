"""Strength, measured: two policies play a scenario mirrored, with a score, an Elo difference and an
optional sequential test (as chess engines are tested).

``match(scenario, a, b)`` plays *pairs* of fights: pair ``i`` uses seed ``S + i`` twice, once with ``a``
playing the scenario's first side and ``b`` the second, once the other way round — so each policy
plays each side on the same seeds, and the luck of the dice and of the side largely cancels. A fight
scores 1 for the policy whose side wins, 0 for the other, ½ for a fight nobody won (a time-out or a
fight broken off by an error scores ½ too, and is counted apart).

The score's 95% interval is the normal interval of the pairs' mean scores (pairs are independent; the
two fights of a pair are not), or, when fewer than 10 pairs were played or every pair scored the same,
the Wilson interval of the fights' scores. The Elo difference is ``-400 log10(1/score - 1)``, its
interval the same transform of the score's.

With ``sprt=Sprt(elo0, elo1, alpha, beta)`` the match stops as soon as the generalised sequential
probability ratio test (the normal approximation over pairs, as Fishtest uses it) accepts ``elo1``
(``a`` is stronger by at least ``elo1``) or ``elo0`` (by at most ``elo0``), looking only after each
block of ``check_every`` pairs, so the result is the same for any ``jobs`` and backend.
"""

from __future__ import annotations

__all__ = ["MatchReport", "Sprt", "check_match", "match"]

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kassen.core.named import parse_policy
from kassen.core.scenario import read_scenario
from kassen.i18n import S_, _, translate_text, use_language
from kassen.lab.backends import Backend, batches, run_batches
from kassen.lab.engine import Batch, FightRecord, Opener
from kassen.lab.limits import MAX_FIGHTS, LabError, check_count

#: The most pairs of fights one match plays (the lab's most fights in one run).
MAX_PAIRS = MAX_FIGHTS // 2
#: The largest Elo difference the SPRT takes either way: a score of 99.7% (far past any question a
#: match is asked), and well inside what its arithmetic can compute.
MAX_ELO = 1000.0


@dataclass(frozen=True, slots=True)
class Sprt:
    """The sequential test: H0 ``elo <= elo0`` against H1 ``elo >= elo1`` at error rates ``alpha`` (a
    false H1) and ``beta`` (a false H0)."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name, elo in (("elo0", self.elo0), ("elo1", self.elo1)):
            if isinstance(elo, bool) or not isinstance(elo, int | float):
                raise LabError(_("{name} is a number, not {kind}").format(name=name, kind=type(elo).__name__))
            if not math.isfinite(elo):
                raise LabError(_("{name} must be a finite number, got {value}").format(name=name, value=elo))
            if not -MAX_ELO <= elo <= MAX_ELO:
                raise LabError(
                    _("{name} must be between {minimum} and {limit}, got {shown}").format(
                        name=name, minimum=f"{-MAX_ELO:g}", limit=f"{MAX_ELO:g}", shown=f"{elo:g}"
                    )
                )  # the words of check_count
        if self.elo1 <= self.elo0:
            raise LabError(
                _("the SPRT's elo1 must be above its elo0 (e.g. 0 and 50), got {elo0} and {elo1}").format(
                    elo0=f"{self.elo0:g}", elo1=f"{self.elo1:g}"
                )
            )
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise LabError(_("the SPRT's alpha and beta are error rates between 0 and 0.5"))

    @property
    def bounds(self) -> tuple[float, float]:
        """The log-likelihood ratio's lower (accept H0) and upper (accept H1) bounds."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, pair_scores: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 against H0 after ``pair_scores`` (each pair's mean score)."""
        n = len(pair_scores)
        if n < 2:
            return 0.0
        mean = sum(pair_scores) / n
        var = sum((x - mean) ** 2 for x in pair_scores) / n
        if var <= 0:
            var = 1e-3  # every pair the same so far: a small variance, not a division by zero
        s0, s1 = _score(self.elo0), _score(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


@dataclass(frozen=True, slots=True)
class MatchReport:
    """A match's outcome (see the module notes): ``a``'s score over ``fights`` fights with its interval,
    the Elo difference, each side's share, time-outs and errors, and the SPRT's verdict when asked."""

    scenario: str
    a: str
    b: str
    sides: tuple[str, str]
    seed: int
    pairs: int
    score: float
    interval: tuple[float, float]
    elo: float
    elo_interval: tuple[float, float]
    wins: int
    losses: int
    draws: int
    broken: int
    by_side: dict[str, float]
    sprt: Sprt | None = None
    llr: float | None = None
    verdict: str | None = None
    omniscient: tuple[str, ...] = ()
    records: tuple[tuple[int, str, str | None, str], ...] = field(default=(), repr=False)

    @property
    def fights(self) -> int:
        return 2 * self.pairs

    def sentence(self) -> str:
        """The answer in one sentence, in the reader's language (the JSON's is in English)."""
        from kassen.lab.sentences import finish

        lo, hi = self.interval
        clauses = [
            _(
                "{a} scores {score} ({interval}) against {b} over {fights} fights of {scenario}, each side "
                "played by each (Elo {elo}, {low} to {high})"
            ).format(
                a=self.a,
                b=self.b,
                score=f"{100 * self.score:.1f}%",
                interval=f"{100 * lo:.1f}-{100 * hi:.1f}%",
                fights=self.fights,
                scenario=self.scenario,
                elo=_signed(self.elo),
                low=_signed(self.elo_interval[0]),
                high=_signed(self.elo_interval[1]),
            )
        ]
        if self.verdict:
            clauses.append(translate_text(self.verdict))
        if self.omniscient:
            clauses.append(
                _("omniscient (reads hidden values): {policies}").format(policies=", ".join(self.omniscient))
            )
        return finish(clauses)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "a": self.a,
            "b": self.b,
            "sides": list(self.sides),
            "seed": self.seed,
            "pairs": self.pairs,
            "fights": self.fights,
            "score": self.score,
            "interval": list(self.interval),
            "elo": _finite(self.elo),
            "elo_interval": [_finite(x) for x in self.elo_interval],
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "broken": self.broken,
            "by_side": self.by_side,
            "sprt": None
            if self.sprt is None
            else {
                "elo0": self.sprt.elo0,
                "elo1": self.sprt.elo1,
                "alpha": self.sprt.alpha,
                "beta": self.sprt.beta,
                "llr": self.llr,
                "bounds": list(self.sprt.bounds),
                "verdict": self.verdict,
            },
            "omniscient": list(self.omniscient),
            "sentence": self.english_sentence(),
        }

    def english_sentence(self) -> str:
        """The answer in English, as the JSON gives it whatever the reader's language."""
        with use_language("en"):
            return self.sentence()


def match(
    scenario: str | Path,
    a: str,
    b: str,
    *,
    fights: int = 100,
    seed: int = 0,
    content: Sequence[str] = (),
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    sprt: Sprt | None = None,
    check_every: int = 10,
    max_actions: int | None = None,
    on_fights: Callable[[int], None] | None = None,
) -> MatchReport:
    """Play ``a`` against ``b`` mirrored on ``scenario`` (see the module notes): ``fights`` fights, an even
    number from 2 (whole pairs; with ``sprt``, at most that many). The options are held to the limits of
    :func:`kassen.lab.run` (:func:`check_match`)."""
    spec_a, spec_b = parse_policy(a), parse_policy(b)
    check_match(fights, seed, jobs, backend, address, max_actions)
    pairs_wanted = fights // 2
    if not 1 <= check_every <= 10_000:
        raise LabError(_("check_every is a number of pairs from 1 to 10000"))
    source = read_scenario(scenario)
    opener = Opener(source, tuple(str(c) for c in content))
    units = getattr(opener.ruleset, "units", None)
    sides = tuple(dict.fromkeys(units(opener.setup.state).values())) if units is not None else ()
    if len(sides) != 2:
        raise LabError(
            _("a match is played between two sides; {scenario} has {sides}").format(
                scenario=source.name, sides=len(sides)
            )
        )
    first, second = sides
    text = source_text(source)
    mirrored = (
        ((first, str(spec_a)), (second, str(spec_b))),
        ((first, str(spec_b)), (second, str(spec_a))),
    )
    per_pair: list[tuple[float, float]] = []
    records: list[tuple[int, str, str | None, str]] = []
    broken = 0
    llr: float | None = None
    verdict: str | None = None
    block = pairs_wanted if sprt is None else check_every
    done = 0
    while done < pairs_wanted and verdict is None:
        size = min(block, pairs_wanted - done)
        seeds = [seed + done + i for i in range(size)]
        work: list[Batch] = []
        for k, policies in enumerate(mirrored):
            work += batches(
                source.name,
                text,
                tuple(str(c) for c in content),
                seeds,
                jobs,
                max_actions,
                cell=k,
                start=len(work),
                policies=policies,
            )
        ran = run_batches(
            work,
            jobs=jobs,
            backend=backend,
            address=address,
            on_batch=(lambda bt, recs: on_fights(len(recs))) if on_fights else None,
        )
        games: list[dict[int, FightRecord]] = [{}, {}]
        for bt in work:
            for rec in ran[bt.index]:
                games[bt.cell][rec.seed] = rec
        for s in seeds:
            pair = []
            for k in (0, 1):
                rec = games[k][s]
                a_side = first if k == 0 else second
                pair.append(_points(rec, a_side))
                broken += rec.status in ("timeout", "error")
                records.append((s, a_side, rec.winner, rec.status))
            per_pair.append((pair[0], pair[1]))
        done += size
        if sprt is not None:
            llr = sprt.llr([(x + y) / 2 for x, y in per_pair])
            low, high = sprt.bounds
            # the verdict is kept in the report's JSON: English, shown through translate_text
            fought = 2 * done
            if llr >= high:
                elo = format(sprt.elo1, "g")
                verdict = S_("the SPRT accepts Elo >= {elo} after {fights} fights", elo=elo, fights=fought)
            elif llr <= low:
                elo = format(sprt.elo0, "g")
                verdict = S_("the SPRT accepts Elo <= {elo} after {fights} fights", elo=elo, fights=fought)
    if sprt is not None and verdict is None:
        ratio = format(llr, ".2f")
        verdict = S_("the SPRT is undecided after {fights} fights (LLR {llr})", fights=2 * done, llr=ratio)
    scores = [x for pair in per_pair for x in pair]
    score = sum(scores) / len(scores)
    interval = _interval(per_pair)
    wins = sum(1 for x in scores if x == 1)
    losses = sum(1 for x in scores if x == 0)
    by_side = {
        first: sum(p[0] for p in per_pair) / len(per_pair),
        second: sum(p[1] for p in per_pair) / len(per_pair),
    }
    omniscient = tuple(str(s) for s in (spec_a, spec_b) if s.omniscient)
    return MatchReport(
        source.name,
        str(spec_a),
        str(spec_b),
        (first, second),
        seed,
        len(per_pair),
        score,
        interval,
        _elo(score, len(scores)),
        (_elo(interval[0], len(scores)), _elo(interval[1], len(scores))),
        wins,
        losses,
        len(scores) - wins - losses,
        broken,
        by_side,
        sprt,
        llr,
        verdict,
        omniscient,
        tuple(records),
    )


def check_match(fights: Any, seed: Any, jobs: Any, backend: Any, address: Any, max_actions: Any) -> None:
    """A match's options, by the checks of every lab command: ``fights`` is an even number from 2 (each
    seed is played twice), and every seed ``seed .. seed + fights/2 - 1`` is a valid seed."""
    from kassen.lab.api import check_options

    check_count(fights, "fights", 2 * MAX_PAIRS, minimum=2)
    if fights % 2:
        raise LabError(
            _(
                "fights must be even: a match plays each seed twice, each policy on each side; got {fights}"
            ).format(fights=fights)
        )
    check_options(fights, seed, jobs, backend, address, max_actions, seeds=fights // 2)


def source_text(source: Any) -> str:
    """The scenario's text, as a batch carries it to a worker."""
    from kassen.lab.api import scenario_text

    return scenario_text(source)


def _points(record: FightRecord, a_side: str) -> float:
    if record.status != "win":
        return 0.5
    return 1.0 if record.winner == a_side else 0.0


def _interval(per_pair: Sequence[tuple[float, float]]) -> tuple[float, float]:
    n = len(per_pair)
    means = [(x + y) / 2 for x, y in per_pair]
    mean = sum(means) / n
    var = sum((m - mean) ** 2 for m in means) / (n - 1) if n > 1 else 0.0
    if n < 10 or var <= 0:
        return _wilson(mean, 2 * n)
    half = 1.96 * math.sqrt(var / n)
    return max(0.0, mean - half), min(1.0, mean + half)


def _wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def _elo(score: float, n: int) -> float:
    # a perfect score has no finite Elo: clipped at half a fight from it
    edge = 1 / (2 * max(1, n))
    s = min(1 - edge, max(edge, score))
    return -400 * math.log10(1 / s - 1)


def _signed(x: float) -> str:
    return f"{x:+.0f}"


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None
