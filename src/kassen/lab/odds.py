"""Exact tables: a ruleset's chances over a grid, computed by the ruleset's own chance functions.

* Sengoku — :func:`kassen.sengoku.odds.attack_odds` over modifiers x Defense: hit, critical, fumble,
  decisive moment, critical mistake, expected Wounds (every ``2d10`` roll through the attack's own
  resolution);
* roll-and-keep — :func:`kassen.l5r.calc.roll_odds` over pools (``3k2..10k5``) x TN, with raises and
  unskilled rolls as a duel rolls them (the ten dice rule included);
* arena — :func:`kassen.arena.checks.check_odds` over skills (success, critical success, critical
  failure), and with defences :func:`kassen.arena.odds.hit_chance` over skill x defence.

Every cell is a :class:`~fractions.Fraction`; floats appear only in rows and plots.
"""

from __future__ import annotations

__all__ = ["ExactTable", "arena_table", "l5r_table", "parse_pools", "parse_range", "sengoku_table"]

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kassen.core.errors import kind_of
from kassen.i18n import S_, _
from kassen.lab.limits import MAX_ODDS_CELLS, LabError, check_count

# any number of digits: a well-formed range whose numbers are too large is told its limits, not its form
_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:\.\.\s*(-?\d+)\s*(?:/\s*(\d+)\s*)?)?$")
#: The longest range text read (a number longer than this is out of every range anyway).
_RANGE_CHARS = 80
_POOLS = re.compile(r"^\s*(\d+)\s*k\s*(\d+)\s*(?:\.\.\s*(\d+)\s*k\s*(\d+)\s*)?$", re.IGNORECASE)
#: Most values along one axis of an exact table.
MAX_AXIS = 200
#: The largest pool an exact table takes (ten dice, as the ten dice rule caps a roll).
MAX_POOL = 10
#: The values each axis of an exact table takes (the command line's ranges, the Python API's too).
SENGOKU_MODIFIERS = (-50, 50)
SENGOKU_DEFENSES = (0, 60)
L5R_TNS = (1, 200)
L5R_RAISES = (0, 20)
ARENA_SKILLS = (-10, 30)
ARENA_DEFENSES = (-10, 30)


@dataclass(frozen=True, slots=True)
class ExactTable:
    """Exact chances over a grid: ``rows`` x ``columns`` labels, and one matrix per metric (rows of
    fractions; ``None`` where a cell does not apply). ``columns`` is ``("",)`` for a one-axis table."""

    ruleset: str
    title: str
    row_name: str
    column_name: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    metrics: tuple[tuple[str, tuple[tuple[Fraction | None, ...], ...]], ...]

    def metric(self, name: str) -> tuple[tuple[Fraction | None, ...], ...]:
        for n, m in self.metrics:
            if n == name:
                return m
        raise KeyError(name)

    @property
    def metric_names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.metrics)

    def table(self) -> list[dict[str, Any]]:
        """One row per cell: its row and column labels, each metric as a float and as a fraction."""
        out = []
        for i, r in enumerate(self.rows):
            for j, c in enumerate(self.columns):
                row: dict[str, Any] = {self.row_name: r}
                if self.column_name:
                    row[self.column_name] = c
                for name, m in self.metrics:
                    v = m[i][j]
                    row[name] = float(v) if v is not None else None
                    row[f"{name}_fraction"] = f"{v.numerator}/{v.denominator}" if v is not None else None
                out.append(row)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "title": self.title,
            "rows": {"name": self.row_name, "values": list(self.rows)},
            "columns": {"name": self.column_name, "values": list(self.columns)},
            "cells": self.table(),
        }


def parse_range(text: str, name: str, lo: int, hi: int) -> tuple[int, ...]:
    """``A``, ``A..B`` or ``A..B/STEP`` (whole numbers from A to B), each within ``lo .. hi``."""
    m = _RANGE.match(text) if isinstance(text, str) else None
    if m is None:
        raise LabError(
            _("--{name} takes N, A..B or A..B/STEP (e.g. 8..20), not {text}").format(
                name=name, text=repr(str(text)[:40])
            )
        )
    if len(text) > _RANGE_CHARS:  # digits beyond any limit: not turned into a number at all
        raise LabError(
            _("--{name} must stay within {lo}..{hi}, not {text}").format(
                name=name, lo=lo, hi=hi, text=repr(text.strip()[:40] + "…")
            )
        )
    a = int(m.group(1))
    b = int(m.group(2)) if m.group(2) is not None else a
    step = int(m.group(3)) if m.group(3) is not None else 1
    if step < 1:
        raise LabError(_("--{name}: the step must be at least 1").format(name=name))
    if b < a:
        raise LabError(
            _("--{name} {text} must go up (A..B with A <= B)").format(name=name, text=repr(text.strip()))
        )
    if a < lo or b > hi:
        raise LabError(
            _("--{name} must stay within {lo}..{hi}, not {text}").format(
                name=name, lo=lo, hi=hi, text=repr(text.strip())
            )
        )
    values = tuple(range(a, b + 1, step))
    if len(values) > MAX_AXIS:
        raise LabError(
            _("--{name} has {count} values; at most {max_axis}").format(
                name=name, count=len(values), max_axis=MAX_AXIS
            )
        )
    return values


def parse_pools(text: str) -> tuple[tuple[int, int], ...]:
    """``XkY`` or ``XkY..ZkW``: every pool with X..Z dice rolled and Y..W kept (kept <= rolled)."""
    m = _POOLS.match(text) if isinstance(text, str) and len(text) <= _RANGE_CHARS else None
    if m is None:
        raise LabError(
            _("--pools takes XkY or XkY..ZkW (e.g. 3k2..10k5), not {text}").format(text=repr(str(text)[:40]))
        )
    x1, y1 = int(m.group(1)), int(m.group(2))
    x2, y2 = (int(m.group(3)), int(m.group(4))) if m.group(3) is not None else (x1, y1)
    if not (1 <= x1 <= x2 <= MAX_POOL and 1 <= y1 <= y2 <= MAX_POOL):
        raise LabError(
            _("--pools: rolled and kept go up, each 1..{max_pool} ({text})").format(
                max_pool=MAX_POOL, text=repr(text.strip())
            )
        )
    pools = tuple((x, y) for x in range(x1, x2 + 1) for y in range(y1, y2 + 1) if y <= x)
    if not pools:
        raise LabError(
            _("--pools {text} holds no pool that keeps at most the dice it rolls").format(
                text=repr(text.strip())
            )
        )
    return pools


def _axis(values: Any, name: str, bounds: tuple[int, int]) -> tuple[int, ...]:
    """An axis given through the Python API: a list, tuple or range of whole numbers within
    ``bounds``, at most :data:`MAX_AXIS` of them (else a :class:`LabError` naming it)."""
    if isinstance(values, str | bytes) or not isinstance(values, list | tuple | range):
        raise LabError(
            _("{name} are a list of whole numbers, not {kind}").format(name=name, kind=kind_of(values))
        )
    if len(values) > MAX_AXIS:
        raise LabError(
            _("{name} has {count} values; at most {max_axis}").format(
                name=name, count=len(values), max_axis=MAX_AXIS
            )
        )
    lo, hi = bounds
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise LabError(_("{name} are whole numbers, not {kind}").format(name=name, kind=kind_of(v)))
        if not lo <= v <= hi:
            shown = v if abs(v) < 10**15 else "…"
            raise LabError(
                _("{name} must stay within {lo}..{hi}, not {shown}").format(
                    name=name, lo=lo, hi=hi, shown=shown
                )
            )
    return tuple(values)


def _pools(pools: Any) -> tuple[tuple[int, int], ...]:
    """Pools given through the Python API: (rolled, kept) pairs, each 1 .. :data:`MAX_POOL`."""
    if isinstance(pools, str | bytes) or not isinstance(pools, list | tuple | range):
        raise LabError(_("pools are a list of (rolled, kept) pairs, not {kind}").format(kind=kind_of(pools)))
    if len(pools) > MAX_AXIS:
        raise LabError(
            _("pools has {count} values; at most {max_axis}").format(count=len(pools), max_axis=MAX_AXIS)
        )
    out = []
    for p in pools:
        pair = _axis(p, "a pool (rolled, kept)", (1, MAX_POOL)) if isinstance(p, list | tuple) else None
        if pair is None or len(pair) != 2 or pair[1] > pair[0]:
            raise LabError(
                _("a pool is (rolled, kept) with 1 <= kept <= rolled <= {max_pool}, not {p}").format(
                    max_pool=MAX_POOL, p=format(repr(p), ".40")
                )
            )
        out.append((pair[0], pair[1]))
    return tuple(out)


def _check_size(rows: int, columns: int) -> None:
    if rows * columns > MAX_ODDS_CELLS:
        raise LabError(
            _("an exact table of {rows} x {columns} cells; at most {max_odds_cells}").format(
                rows=rows, columns=columns, max_odds_cells=format(MAX_ODDS_CELLS, ",")
            )
        )


def sengoku_table(modifiers: Sequence[int], defenses: Sequence[int]) -> ExactTable:
    """Sengoku attack odds (bundled resolution rules) for each modifier (rows) and Defense (columns)."""
    from kassen.sengoku.odds import ODDS_KEYS, attack_odds

    modifiers = _axis(modifiers, "modifiers", SENGOKU_MODIFIERS)
    defenses = _axis(defenses, "defenses", SENGOKU_DEFENSES)
    _check_size(len(modifiers), len(defenses))
    cells = [[attack_odds(m, d) for d in defenses] for m in modifiers]
    metrics = tuple((key, tuple(tuple(getattr(c, key) for c in row) for row in cells)) for key in ODDS_KEYS)
    return ExactTable(
        "sengoku",
        S_("Sengoku attack: 2d10 + modifier vs Defense"),
        "modifier",
        "defense",
        tuple(str(m) for m in modifiers),
        tuple(str(d) for d in defenses),
        metrics,
    )


def l5r_table(
    pools: Sequence[tuple[int, int]], tns: Sequence[int], *, raises: int = 0, unskilled: bool = False
) -> ExactTable:
    """Roll-and-keep: the exact chance each pool (rows) reaches each TN + 5 x ``raises`` (columns)."""
    from kassen.core.errors import KassenError
    from kassen.l5r.calc import roll_odds

    pools = _pools(pools)
    tns = _axis(tns, "tns", L5R_TNS)
    raises = check_count(raises, "raises", L5R_RAISES[1], minimum=L5R_RAISES[0])
    if unskilled is not False and unskilled is not True:
        raise LabError(_("unskilled is True or False, not {kind}").format(kind=kind_of(unskilled)))
    _check_size(len(pools), len(tns))
    rows = []
    for x, y in pools:
        row: list[Fraction | None] = []
        for tn in tns:
            try:
                row.append(roll_odds(f"{x}k{y}", tn, raises=raises, unskilled=unskilled).fraction)
            except KassenError as exc:
                raise LabError(str(exc)) from None
        rows.append(tuple(row))
    # the title is kept in the table's JSON: English, shown through translate_text
    if raises:
        if unskilled:
            title = S_(
                "Roll-and-keep: P(unskilled XkY >= TN + 5 x raises) with {raises} raise(s)", raises=raises
            )
        else:
            title = S_("Roll-and-keep: P(XkY >= TN + 5 x raises) with {raises} raise(s)", raises=raises)
    else:
        title = (
            S_("Roll-and-keep: P(unskilled XkY >= TN)") if unskilled else S_("Roll-and-keep: P(XkY >= TN)")
        )
    return ExactTable(
        "l5r",
        title,
        "pool",
        "tn",
        tuple(f"{x}k{y}" for x, y in pools),
        tuple(str(t) for t in tns),
        (("success", tuple(rows)),),
    )


def arena_table(skills: Sequence[int], defenses: Sequence[int] | None = None) -> ExactTable:
    """Arena: each skill's 3d6 check (success, critical success, critical failure); with ``defenses``,
    the chance an attack at each skill (rows) hits a defender at each defence (columns)."""
    from kassen.arena.checks import check_odds
    from kassen.arena.odds import hit_chance

    skills = _axis(skills, "skills", ARENA_SKILLS)
    if defenses is not None:
        defenses = _axis(defenses, "defenses", ARENA_DEFENSES)
    if defenses:
        _check_size(len(skills), len(defenses))
        grid = tuple(tuple(hit_chance(s, d) for d in defenses) for s in skills)
        return ExactTable(
            "arena",
            S_("Arena: P(an attack at skill S hits a defender at defence D)"),
            "skill",
            "defense",
            tuple(str(s) for s in skills),
            tuple(str(d) for d in defenses),
            (("hit", grid),),
        )
    _check_size(len(skills), 1)
    odds = [check_odds(s) for s in skills]
    names = ("success", "critical_success", "critical_failure")
    return ExactTable(
        "arena",
        S_("Arena: a 3d6 check against skill S"),
        "skill",
        "",
        tuple(str(s) for s in skills),
        ("",),
        tuple((n, tuple((getattr(o, n),) for o in odds)) for n in names),
    )
