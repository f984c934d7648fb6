"""Wound ranks (L5.CORE.6): sizes from Earth, penalties, Out and Dead."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kassen.l5r.content import bundled_tables
from kassen.l5r.tables import L5Tables
from kassen.l5r.wounds import dead_at, ladder, out_ceiling, wound_rank


def test_ranks_follow_the_house_default_ladder(tables: L5Tables) -> None:
    # rule: L5.CORE.6 — Healthy Earth x 5 (+0), then Nicked +3, Grazed +5, Hurt +10, Injured +15,
    # Crippled +20, Down +40, Out, each Earth x 2; Wounds beyond Out are Dead.
    rows = ladder(3, tables)
    assert [(name, top, penalty) for name, top, penalty, _ in rows] == [
        ("Healthy", 15, 0),
        ("Nicked", 21, 3),
        ("Grazed", 27, 5),
        ("Hurt", 33, 10),
        ("Injured", 39, 15),
        ("Crippled", 45, 20),
        ("Down", 51, 40),
        ("Out", 57, 0),
    ]
    assert out_ceiling(2, tables) == 38
    assert wound_rank(15, 3, tables).name == "Healthy"
    assert wound_rank(16, 3, tables).tn_penalty == 3
    assert wound_rank(51, 3, tables).tn_penalty == 40
    out = wound_rank(52, 3, tables)
    assert out.out and out.down and not out.dead
    # rule: L5.RD.4 — past Out, the Dead rank (Earth x 2 boxes): down and alive until it fills
    dying = wound_rank(58, 3, tables)
    assert dying.dying and dying.down and not dying.dead and dying.name == "Dead rank"
    dead = wound_rank(63, 3, tables)
    assert dead.dead and dead.name == "Dead"


@given(st.integers(1, 6), st.integers(0, 200))
def test_more_wounds_never_mean_a_better_rank(earth: int, wounds: int) -> None:
    # rule: L5.CORE.6 — ranks fill in order: one more Wound never lowers the penalty or revives.
    t = bundled_tables()
    a, b = wound_rank(wounds, earth, t), wound_rank(wounds + 1, earth, t)
    order = [r[0] for r in ladder(earth, t)] + ["Dead rank", "Dead"]
    assert order.index(b.name) >= order.index(a.name)
    assert b.dead or not a.dead
    assert b.down or not a.down
    assert wound_rank(dead_at(earth, t), earth, t).dead
    assert not wound_rank(dead_at(earth, t) - 1, earth, t).dead
