"""The balance lab: thousands of fights, sweeps over a scenario's values, exact tables, plots.

A designer's questions — who wins this fight how often, what heavy armour does to the raiders' odds,
from which skill the samurai beats the oni half the time — answered for any ruleset::

    from kassen import lab

    result = lab.run("duel", fights=2000, seed=0, jobs=2)      # fight i uses seed 0 + i
    result.side("east").wins.rate, result.side("east").wins.ci95
    result.to_json()                                            # what `kassen lab run --json` prints
    rows = result.rows()                                        # one dict per fight: pd.DataFrame(rows)

    grid = lab.sweep("duel", ["fighters.ryu.skill=10..16"], fights=500)
    grid.rows()                                                 # one row per cell

    lab.sengoku_table(range(-2, 9), range(8, 21)).metric("hit")   # exact, as fractions

Results are frozen dataclasses (:mod:`kassen.lab.results`); the aggregate is the same for any number
of jobs and either backend (local processes or Ray: ``kassen[ray]``). Plots need ``kassen[lab]``
(matplotlib), Parquet ``kassen[parquet]`` (pyarrow). The command line: ``kassen lab run|sweep|odds``.
"""

from __future__ import annotations

__all__ = [
    "ActionStats",
    "CellResult",
    "ExactTable",
    "FightRecord",
    "FightSummary",
    "Interval",
    "LabError",
    "RoundStats",
    "RunResult",
    "SideStats",
    "SweepResult",
    "UnitStats",
    "UnitSummary",
    "arena_table",
    "l5r_table",
    "run",
    "sengoku_table",
    "sweep",
    "write_odds",
    "write_run",
    "write_sweep",
]

from kassen.lab.api import run, write_odds, write_run, write_sweep
from kassen.lab.engine import FightRecord
from kassen.lab.grid import CellResult, SweepResult
from kassen.lab.limits import LabError
from kassen.lab.odds import ExactTable, arena_table, l5r_table, sengoku_table
from kassen.lab.results import (
    ActionStats,
    Interval,
    RoundStats,
    RunResult,
    SideStats,
    UnitStats,
)
from kassen.lab.summary import FightSummary, UnitSummary
from kassen.lab.sweeping import sweep
