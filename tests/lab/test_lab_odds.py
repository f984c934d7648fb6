"""Exact tables: every cell is the ruleset's own chance function's answer, as a fraction."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from kassen.arena.checks import check_odds
from kassen.arena.odds import hit_chance
from kassen.l5r.calc import roll_odds
from kassen.lab import LabError, arena_table, l5r_table, sengoku_table, write_odds
from kassen.lab.odds import parse_pools, parse_range
from kassen.sengoku.odds import attack_odds


def test_sengoku_table_is_attack_odds_cell_by_cell() -> None:
    table = sengoku_table(range(-2, 9, 2), range(8, 21, 3))
    assert table.rows == ("-2", "0", "2", "4", "6", "8") and table.columns == ("8", "11", "14", "17", "20")
    for i, m in enumerate(range(-2, 9, 2)):
        for j, d in enumerate(range(8, 21, 3)):
            odds = attack_odds(m, d)
            assert table.metric("hit")[i][j] == odds.hit
            assert table.metric("expected_wounds")[i][j] == odds.expected_wounds
            assert table.metric("fumble")[i][j] == odds.fumble
    assert sengoku_table([3], [12]).metric("hit") == ((Fraction(18, 25),),)  # the module's own example


def test_l5r_table_is_roll_odds_with_raises() -> None:
    pools = parse_pools("3k2..5k3")
    assert pools == ((3, 2), (3, 3), (4, 2), (4, 3), (5, 2), (5, 3))
    table = l5r_table(pools, (15, 20), raises=1)
    for i, (x, y) in enumerate(pools):
        for j, tn in enumerate((15, 20)):
            assert table.metric("success")[i][j] == roll_odds(f"{x}k{y}", tn, raises=1).fraction
    assert table.metric("success")[0][0] == l5r_table([(3, 2)], [20]).metric("success")[0][0]  # +5 per raise
    unskilled = l5r_table([(4, 2)], [15], unskilled=True).metric("success")[0][0]
    assert unskilled == roll_odds("4k2", 15, unskilled=True).fraction
    with pytest.raises(LabError, match="may not raise"):
        l5r_table([(4, 2)], [15], raises=1, unskilled=True)


def test_arena_tables_are_check_odds_and_hit_chance() -> None:
    checks = arena_table(range(6, 19))
    for i, s in enumerate(range(6, 19)):
        assert checks.metric("success")[i][0] == check_odds(s).success
        assert checks.metric("critical_failure")[i][0] == check_odds(s).critical_failure
    hits = arena_table([10, 14], [8, 12])
    assert hits.metric("hit")[1][0] == hit_chance(14, 8)
    rows = hits.table()
    assert rows[0] == {
        "skill": "10",
        "defense": "8",
        "hit": float(hit_chance(10, 8)),
        "hit_fraction": f"{hit_chance(10, 8).numerator}/{hit_chance(10, 8).denominator}",
    }


def test_odds_write_heatmaps_and_a_report(tmp_path: Path) -> None:
    files = write_odds(sengoku_table(range(0, 4), range(10, 13)), tmp_path / "odds")
    names = {f.name for f in files}
    assert {"odds.csv", "odds.json", "hit.png", "expected_wounds.png", "report.html"} <= names
    assert (tmp_path / "odds" / "hit.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("text", "lo", "hi", "message"),
    [
        ("8..", 0, 60, "takes N"),
        ("20..8", 0, 60, "must go up"),
        ("0..99", 0, 60, "within 0..60"),
        ("1..900", 0, 1000, "at most 200"),
        ("1..9/0", 0, 60, "step"),
    ],
)
def test_ranges_are_checked(text: str, lo: int, hi: int, message: str) -> None:
    with pytest.raises(LabError, match=message):
        parse_range(text, "defense", lo, hi)
    assert parse_range("8..20/4", "defense", 0, 60) == (8, 12, 16, 20)


@pytest.mark.parametrize("text", ["5k7", "3k2..2k1", "11k2", "k2", "3k2..12k5"])
def test_bad_pools_are_refused(text: str) -> None:
    with pytest.raises(LabError):
        parse_pools(text)
