"""Wound ranks (L5.CORE.6): Wounds fill ranks sized by Earth; each rank carries a TN penalty; Out, Dead.

>>> from kassen.l5r.content import bundled_tables
>>> t = bundled_tables()
>>> [wound_rank(w, 3, t).name for w in (0, 15, 16, 51, 52, 57, 58)]
['Healthy', 'Healthy', 'Nicked', 'Down', 'Out', 'Out', 'Dead']
"""

from __future__ import annotations

__all__ = ["RankState", "ladder", "out_ceiling", "wound_rank"]

from dataclasses import dataclass

from kassen.core.explain import Step
from kassen.l5r.tables import L5Tables


@dataclass(frozen=True, slots=True)
class RankState:
    """Where ``wounds`` Wounds put a character: the rank, its TN penalty, Out, Dead."""

    wounds: int
    name: str
    tn_penalty: int
    out: bool
    dead: bool

    @property
    def down(self) -> bool:
        """Out or Dead: no actions."""
        return self.out or self.dead

    def step(self) -> Step:
        if self.dead:
            return Step(self.wounds, "Wounds beyond Out: Dead", "L5.CORE.6")
        if self.out:
            return Step(self.wounds, "Wounds in the Out rank: unconscious, no actions", "L5.CORE.6")
        return Step(
            self.tn_penalty, f"{self.wounds} Wounds: {self.name} (+{self.tn_penalty} TN)", "L5.CORE.6"
        )


def ladder(earth: int, tables: L5Tables) -> tuple[tuple[str, int, int, bool], ...]:
    """``(name, last Wound of the rank, TN penalty, out)`` for each rank, in order."""
    rows = []
    top = 0
    for rank in tables.core.wound_ranks.ranks:
        top += rank.earth_multiple * earth
        rows.append((rank.name, top, rank.tn_penalty, rank.out))
    return tuple(rows)


def out_ceiling(earth: int, tables: L5Tables) -> int:
    """The most Wounds a character can hold without being Dead (the Out rank's last box)."""
    return ladder(earth, tables)[-1][1]


def wound_rank(wounds: int, earth: int, tables: L5Tables) -> RankState:
    """The rank ``wounds`` falls in: a rank holds Wounds up to its last box (L5.CORE.6)."""
    for name, top, penalty, out in ladder(earth, tables):
        if wounds <= top:
            return RankState(wounds, name, 0 if out else penalty, out, False)
    return RankState(wounds, "Dead", 0, False, True)
