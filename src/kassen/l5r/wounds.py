"""Wound ranks (L5.CORE.6): Wounds fill ranks sized by Earth; each rank carries a TN penalty; Out, Dead.

Past Out comes the Dead rank (L5.RD.4 house default: Earth x 2 boxes, ``core.dead_rank``): Wounds in it
leave the character down and alive until its last box is filled, which kills. With ``earth_multiple:
0`` it has no boxes and the first Wound past Out kills.

>>> from kassen.l5r.content import bundled_tables
>>> t = bundled_tables()
>>> [wound_rank(w, 3, t).name for w in (0, 15, 16, 51, 52, 57, 58, 63)]
['Healthy', 'Healthy', 'Nicked', 'Down', 'Out', 'Out', 'Dead rank', 'Dead']
>>> dead_at(3, t), out_ceiling(3, t)
(63, 57)
"""

from __future__ import annotations

__all__ = ["RankState", "dead_at", "ladder", "out_ceiling", "rank_index", "wound_rank"]

from dataclasses import dataclass

from kassen.core.explain import Step
from kassen.i18n import N_, S_
from kassen.l5r.tables import L5Tables


@dataclass(frozen=True, slots=True)
class RankState:
    """Where ``wounds`` Wounds put a character: the rank, its TN penalty, Out, Dead; ``dying``: in the
    Dead rank, not yet filled (down, no actions: L5.RD.4)."""

    wounds: int
    name: str
    tn_penalty: int
    out: bool
    dead: bool
    dying: bool = False
    dead_at: int = 0

    @property
    def down(self) -> bool:
        """Out, dying or Dead: no actions."""
        return self.out or self.dead or self.dying

    def step(self) -> Step:
        if self.dead:
            return Step(self.wounds, S_("the Dead rank is filled: Dead"), "L5.RD.4")
        if self.dying:
            return Step(
                self.wounds,
                S_(
                    "Wounds in the Dead rank (filled at {n}): down, no actions, alive until it fills",
                    n=self.dead_at,
                ),
                "L5.RD.4",
            )
        if self.out:
            return Step(self.wounds, S_("Wounds in the Out rank: unconscious, no actions"), "L5.CORE.6")
        return Step(
            self.tn_penalty,
            S_("{n} Wounds: {rank} (+{penalty} TN)", n=self.wounds, rank=self.name, penalty=self.tn_penalty),
            "L5.CORE.6",
        )


def ladder(earth: int, tables: L5Tables) -> tuple[tuple[str, int, int, bool], ...]:
    """``(name, last Wound of the rank, TN penalty, out)`` for each rank, in order."""
    memo = tables.memos.ladders
    found = memo.get(earth)
    return found if found is not None else memo.put(earth, _ladder(earth, tables))


def _ladder(earth: int, tables: L5Tables) -> tuple[tuple[str, int, int, bool], ...]:
    rows = []
    top = 0
    for rank in tables.core.wound_ranks.ranks:
        top += rank.earth_multiple * earth
        rows.append((rank.name, top, rank.tn_penalty, rank.out))
    return tuple(rows)


def out_ceiling(earth: int, tables: L5Tables) -> int:
    """The most Wounds a character can hold and still be Out (the Out rank's last box)."""
    return ladder(earth, tables)[-1][1]


def dead_at(earth: int, tables: L5Tables) -> int:
    """Wounds that fill the Dead rank and kill (L5.RD.4): its last box, or the first Wound past Out when
    it has no boxes."""
    return out_ceiling(earth, tables) + max(1, earth * tables.core.dead_rank.earth_multiple)


def wound_rank(wounds: int, earth: int, tables: L5Tables) -> RankState:
    """The rank ``wounds`` falls in: a rank holds Wounds up to its last box (L5.CORE.6); past Out, the
    Dead rank (L5.RD.4)."""
    for name, top, penalty, out in ladder(earth, tables):
        if wounds <= top:
            return RankState(wounds, name, 0 if out else penalty, out, False)
    fatal = dead_at(earth, tables)
    if wounds >= fatal:
        return RankState(wounds, N_("Dead"), 0, False, True, dead_at=fatal)
    return RankState(wounds, N_("Dead rank"), 0, False, False, dying=True, dead_at=fatal)


def rank_index(state: RankState, tables: L5Tables) -> int:
    """How far down the ladder ``state`` is: 0 for the first rank, one more for each rank after it,
    then the Dead rank and Dead (the odds' "wound ranks" count these steps)."""
    names = [r.name for r in tables.core.wound_ranks.ranks]
    if state.dead:
        return len(names) + 1
    if state.dying:
        return len(names)
    return names.index(state.name)
