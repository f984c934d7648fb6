"""Strength of the search policy: ``kassen lab match`` in every bundled scenario, at a table budget.

Run with ``make bench`` or ``.venv/bin/python bench/bench_match.py [--fights N] [--jobs J] [--only a,b]``.
For each bundled scenario of every ruleset:

1. the budget: the search's iterations (:data:`BUDGETS`, reproducible) and the CPU seconds it spends a
   decision, measured over a few fights in this process (mean and most; the target is at most 1 s);
2. the search against the heuristic, mirrored (each seed twice, each policy on each side), stopped early
   by the SPRT (Elo 0 against +50) or after ``--fights``; its score with a 95% interval over pairs;
3. the search against random and against first-legal (fewer fights: the gap is wide);
4. where the search does not reach the targets, the omniscient search against the heuristic at the same
   budget (an upper bound: it reads the hidden values) and each side's share, so the table says why.

Targets (checked, a miss printed and the exit status 1 unless ``--no-targets``): the search scores
at least 60% against the heuristic with the lower end of its 95% interval above 55%, and at least 75%
against random, in every scenario whose decisions are not all scripted by the scenario itself
(``knockback`` is a scripted demonstration: its numbers are shown, its targets not applied). The README's
strength table is this script's ``--markdown`` output.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from kassen.core.named import build_policy
from kassen.core.policy import Decision
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.lab.match import MatchReport, Sprt, match

#: The search's budget by ruleset: its iterations a decision, at most about a second of CPU (what each
#: scenario's decisions cost is measured and printed). Sengoku's rollouts are cut at 8 actions (the
#: ruleset's search_depth) and cost ~4 ms each: 200 iterations.
BUDGETS = {
    "arena": "search:iterations=400",
    "l5r": "search:iterations=400",
    "sengoku": "search:iterations=200",
}
#: Scenarios whose every decision the scenario scripts (its own policies): shown, targets not applied.
SCRIPTED = {"knockback"}
RULESETS = ("arena", "l5r", "sengoku")


def decision_cpu(scenario: str, spec: str, fights: int = 3) -> tuple[float, float, int]:
    """Mean and most CPU seconds the search spends on one of its decisions (it plays every side)."""
    times: list[float] = []
    for seed in range(fights):
        fight = open_fight(scenario, seed=1000 + seed)
        search = build_policy(spec, fight.ruleset, fight.tables)

        def timed(decision: Decision[Any, Any], search: Any = search) -> Any:
            start = time.process_time()
            action = search(decision)
            if decision.actor.kind in ("unit", "side") and len(decision.legal) > 1:
                times.append(time.process_time() - start)
            return action

        fight.autoplay(timed)
    if not times:
        return 0.0, 0.0, 0
    return statistics.mean(times), max(times), len(times)


def row(name: str, report: MatchReport) -> dict[str, Any]:
    lo, hi = report.interval
    return {
        "score": round(100 * report.score, 1),
        "low": round(100 * lo, 1),
        "high": round(100 * hi, 1),
        "elo": round(report.elo),
        "fights": report.fights,
        "by_side": {k: round(100 * v, 1) for k, v in report.by_side.items()},
        "verdict": report.verdict or "",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fights", type=int, default=400, help="most fights against the heuristic")
    parser.add_argument("--others", type=int, default=60, help="fights against random and first-legal")
    parser.add_argument("--ceiling", type=int, default=100, help="fights of the omniscient search")
    parser.add_argument(
        "--ceiling-budget",
        default="",
        help="the omniscient search's spec (default: the budget's, omniscient); a larger budget "
        "puts a number on what more search could reach",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated scenario names")
    parser.add_argument("--budget", default="", help="the search's spec (default: the ruleset's BUDGETS)")
    parser.add_argument("--no-targets", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="print the README's table too")
    parser.add_argument("--json", default="", help="write every number to this file")
    args = parser.parse_args()
    only = {s for s in args.only.split(",") if s}
    results: dict[str, Any] = {}
    misses: list[str] = []
    for ruleset in RULESETS:
        for s in bundled_scenarios(ruleset):
            if only and s.name not in only:
                continue
            name = f"{ruleset}/{s.name}"
            t0 = time.time()
            budget = args.budget or BUDGETS[ruleset]
            mean, most, n = decision_cpu(name, budget)
            out: dict[str, Any] = {"budget": budget, "cpu_mean": mean, "cpu_max": most, "decisions": n}
            out["heuristic"] = row(
                name,
                match(name, budget, "heuristic", fights=args.fights, jobs=args.jobs, sprt=Sprt(0, 50)),
            )
            out["random"] = row(name, match(name, budget, "random", fights=args.others, jobs=args.jobs))
            out["first-legal"] = row(
                name, match(name, budget, "first-legal", fights=args.others, jobs=args.jobs)
            )
            h = out["heuristic"]
            reached = h["score"] >= 60 and h["low"] > 55 and out["random"]["score"] >= 75
            if not reached:
                omni = args.ceiling_budget or f"{budget},omniscient"
                out["omniscient"] = row(
                    name, match(name, omni, "heuristic", fights=args.ceiling, jobs=args.jobs)
                )
                out["omniscient"]["budget"] = omni
                out["heuristic_mirror"] = row(
                    name, match(name, "heuristic", "heuristic", fights=200, jobs=args.jobs)
                )
                if s.name not in SCRIPTED:
                    misses.append(name)
            out["seconds"] = round(time.time() - t0)
            results[name] = out
            print(json.dumps({name: out}), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    if args.markdown:
        print(markdown(results))
    if misses and not args.no_targets:
        print(f"targets missed in: {', '.join(misses)} (see the omniscient ceiling and each side's share)")
        return 1
    return 0


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "| scenario | budget | vs heuristic | vs random | vs first-legal | CPU a decision (mean, most) "
        "| why not |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, r in results.items():
        h = r["heuristic"]
        note = ""
        if "omniscient" in r:
            o, m = r["omniscient"], r["heuristic_mirror"]
            sides = ", ".join(f"{k} {v}%" for k, v in m["by_side"].items())
            note = (
                f"omniscient search ({o.get('budget', '')}) {o['score']}% ({o['low']}-{o['high']}); "
                f"heuristic mirror wins by side: {sides}"
            )
        lines.append(
            f"| {name} | {r['budget'].removeprefix('search:')} | "
            f"{h['score']}% ({h['low']}-{h['high']}), {h['fights']} fights | "
            f"{r['random']['score']}% | {r['first-legal']['score']}% | "
            f"{r['cpu_mean']:.2f} s / {r['cpu_max']:.2f} s | {note} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
