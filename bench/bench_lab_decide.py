"""Sequential sampling benchmark: the fights ``--decide 0.5`` saves on a 7-cell duel skill sweep
against the same sweep with a fixed number of fights per cell.

Run with ``make bench`` or ``.venv/bin/python bench/bench_lab_decide.py``. Both sweeps play the duel for
Ryu's skill 4..10 on the same seeds (fight i: seed i), at most 1,000 fights a cell; the sequential one
looks after every 100 fights and stops a cell as soon as Ryu's win rate is decided above or below 50%
(wrong at most 5% of the time). The baseline cell (skill 7) plays as long as any other cell does, so
every cell is compared with it on all its seeds. Reported: fights and CPU seconds of each, the share
saved, and whether each cell the sequential sweep decided lies on the side of 50% the fixed sweep's
rate does.
"""

from __future__ import annotations

import os
import sys

from kassen import lab

VARY = ["fighters.ryu.skill=4..10"]
FIGHTS = 1000
EVERY = 100


def cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> int:
    jobs = min(2, os.cpu_count() or 1)
    start = cpu_seconds()
    base = ["fighters.ryu.skill=7"]
    fixed = lab.sweep("duel", VARY, fights=FIGHTS, seed=0, jobs=jobs, side="east", baseline=base)
    fixed_cpu = cpu_seconds() - start
    start = cpu_seconds()
    decided = lab.sweep(
        "duel", VARY, fights=FIGHTS, seed=0, jobs=jobs, side="east", baseline=base,
        decide=0.5, every=EVERY,
    )  # fmt: skip
    decided_cpu = cpu_seconds() - start
    played_fixed = sum(c.result.fights for c in fixed.cells if c.result is not None)
    played = sum(c.result.fights for c in decided.cells if c.result is not None)
    print(f"lab --decide 0.5: the duel, Ryu's skill 4..10 (7 cells), at most {FIGHTS:,} fights a cell")
    print(f"  {'skill':>5}  {'fixed: Ryu wins':>16}  {'--decide: fights':>16}  verdict")
    agree = True
    for f, d in zip(fixed.cells, decided.cells, strict=True):
        assert f.result is not None and d.result is not None and d.result.sequential is not None
        rate = f.result.side("east").wins.rate or 0.0
        verdict = d.result.sequential.verdict
        if decided.baseline is not None and decided.baseline.index == d.index:
            verdict = None  # the baseline plays for the pairs, not to a verdict of its own
        ok = verdict is None or (verdict == "above") == (rate > 0.5)
        agree &= ok
        print(
            f"  {f.values[0][1]:>5}  {rate:>16.1%}  {d.result.fights:>16,}  "
            + (verdict or ("(the baseline)" if d.versus is None else "undecided"))
            + ("" if ok else "  (disagrees with the fixed sweep)")
        )
    saved = 1 - played / played_fixed
    print(
        f"  fights: fixed {played_fixed:,}, --decide {played:,}: {saved:.1%} saved "
        f"(CPU {fixed_cpu:.1f} s against {decided_cpu:.1f} s)"
    )
    print(f"  every decided cell agrees with the fixed sweep: {'yes' if agree else 'NO'}")
    return 0 if agree and played < played_fixed else 1


if __name__ == "__main__":
    sys.exit(main())
