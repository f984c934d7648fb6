"""Battle engine benchmark: full demo battles per second (heuristic policies, no printing), and where the
time goes next to the dice the same battles roll.

Run with ``make bench`` or ``.venv/bin/python bench/bench_battle.py``. Every unit of the bundled demo
battle (``kassen sengoku battle demo``) plays the heuristic policy; seeds 0..N-1.

1. Battles per second through ``Fight.autoplay`` (legal actions, policy, rules, snapshots, event log).
2. The same battles through a timed loop: time in ``legal_actions``, in the policy, in ``apply`` (the
   rules), and inside ``apply`` the time spent drawing dice (a wrapped ``Rng`` counts and times them).
3. The same number of dice drawn raw from an ``Rng`` in a tight loop.

The ratios say how much each layer costs per unit of raw dice time.
"""

from __future__ import annotations

import statistics
import sys
import time

from kassen.core.engine import drain
from kassen.core.policy import Decision
from kassen.core.rng import Rng
from kassen.sengoku.battle import RULESET, HeuristicPolicy, load_scenario, run_battle

BATTLES = 40
REPEATS = 3


class TimedRng(Rng):
    """An Rng that counts its dice and the time spent drawing them."""

    __slots__ = ("count", "elapsed")

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.count = 0
        self.elapsed = 0.0

    def die(self, sides: int) -> int:
        start = time.perf_counter()
        face = super().die(sides)
        self.elapsed += time.perf_counter() - start
        self.count += 1
        return face


def chronicle_rate() -> float:
    """Median battles per second through Fight.autoplay."""
    scenario = load_scenario("demo")
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for seed in range(BATTLES):
            assert run_battle(scenario, seed).over
        rates.append(BATTLES / (time.perf_counter() - start))
    return statistics.median(rates)


def timed_battles() -> dict[str, float]:
    """Seconds per battle in each layer, and dice, actions and events per battle."""
    scenario = load_scenario("demo")
    ruleset, tables = RULESET, scenario.rules
    policy = HeuristicPolicy(tables)
    total = {
        "legal": 0.0,
        "policy": 0.0,
        "apply": 0.0,
        "dice": 0.0,
        "count": 0.0,
        "actions": 0.0,
        "events": 0.0,
    }
    for seed in range(BATTLES):
        state = scenario.state
        rng = TimedRng(seed)
        history: list[object] = []
        while ruleset.result(state) is None:
            t0 = time.perf_counter()
            legal = ruleset.legal_actions(state, tables)
            t1 = time.perf_counter()
            actor = ruleset.to_move(state)
            assert actor is not None
            action = policy(Decision(state, actor, legal, history, seed, tables, lambda a: True))
            t2 = time.perf_counter()
            turn = ruleset.start(state, rng, tables)  # what kassen.core.engine.advance does
            ruleset.resolve(turn, action)
            drain(lambda: ruleset.follow_up(turn))  # noqa: B023
            state, events = turn.state, turn.events
            t3 = time.perf_counter()
            history.append(action)
            total["legal"] += t1 - t0
            total["policy"] += t2 - t1
            total["apply"] += t3 - t2
            total["actions"] += 1
            total["events"] += len(events)
        total["dice"] += rng.elapsed
        total["count"] += rng.count
    return {k: v / BATTLES for k, v in total.items()}


def raw_dice_seconds(n: int) -> float:
    """Median seconds to draw ``n`` d10 from a plain Rng."""
    times = []
    for _ in range(REPEATS * 3):
        rng = Rng(1)
        die = rng.die
        start = time.perf_counter()
        for _ in range(n):
            die(10)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    version = sys.version.split()[0]
    print(f"kassen battle benchmark: the demo battle, heuristic policies, {BATTLES} seeds (Python {version})")
    rate = chronicle_rate()
    print(f"  full battles (Fight.autoplay, log kept): {rate:,.1f} battles/s ({1000 / rate:.1f} ms each)")
    t = timed_battles()
    n = round(t["count"])
    raw = raw_dice_seconds(n)
    battle = t["legal"] + t["policy"] + t["apply"]
    print(
        f"  per battle: {t['actions']:.0f} actions, {t['events']:.0f} events, {n} dice"
        f" ({t['count'] / t['actions']:.1f} per action)"
    )
    print(f"  time per battle: {battle * 1000:.2f} ms")
    for name, key in (
        ("legal_actions", "legal"),
        ("heuristic policy", "policy"),
        ("apply (the rules)", "apply"),
    ):
        print(f"    {name:<18} {t[key] * 1000:8.2f} ms  {t[key] / battle:6.1%}")
    print(f"    of which dice (timed inside apply) {t['dice'] * 1000:.3f} ms")
    print(f"  the same {n} dice drawn raw from an Rng: {raw * 1000:.3f} ms")
    print("  ratios to raw dice time:")
    print(f"    whole battle      {battle / raw:10,.0f}x")
    print(f"    rules (apply)     {t['apply'] / raw:10,.0f}x")
    print(f"    dice inside apply {t['dice'] / raw:10,.1f}x  (the timer's own cost included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
