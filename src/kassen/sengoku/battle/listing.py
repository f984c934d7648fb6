"""A unit's legal breaths as the planner found them, grouped: :class:`Listing` (SG.BRT.1, SG.CNT.5).

The candidates (:mod:`~kassen.sengoku.battle.candidates`) are a few plain breaths and, for each attack,
an :class:`~kassen.sengoku.battle.plan.AttackGroup`: the same shapes (the attack alone, twice, with a
reservation, with Aim Focus...) at each target in reach. The planner plans the shapes at one target and
only checks the others, so a group's verdict is one price per shape and, per target, whether it may be
struck: :class:`GroupVerdicts`. A :class:`Listing` keeps them so, in candidate order; :meth:`Listing.flat`
spells them out as the breaths ``legal_actions`` lists (each :class:`~kassen.sengoku.battle.actions.
Breath` built once), while the heuristic weighs a group without spelling it out
(:mod:`~kassen.sengoku.battle.weigh`). Prices are Energy aside: what the unit can pay for now is read
last (:meth:`~kassen.sengoku.battle.plan.Planner.affordable`).
"""

from __future__ import annotations

__all__ = ["GroupVerdicts", "Listing", "Priced"]

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kassen.core.fastinit import fast_init
from kassen.sengoku.battle.actions import Breath

if TYPE_CHECKING:
    from kassen.sengoku.battle.plan import AttackGroup

#: A plain legal breath and the Energy it costs.
Priced = tuple[Breath, int]


@fast_init
@dataclass(frozen=True, slots=True)
class GroupVerdicts:
    """An attack group's verdicts: ``prices[i]`` are the Energy of each shape at the group's ``i``-th
    target (0: not a legal breath), or None when that target may not be struck."""

    group: AttackGroup
    prices: tuple[tuple[int, ...] | None, ...]


class Listing:
    """Every legal breath of a unit's candidates with its price, in candidate order: plain breaths and
    the verdicts of each attack group (see the module notes). Never changed once made; the breaths of
    :meth:`flat` are built on first use and kept (the content remembers a listing for every state in
    the same situation, ``candidates.listing_key``)."""

    __slots__ = ("_flat", "_known", "_made", "items", "unit", "weighing")

    def __init__(self, unit: str, items: tuple[Priced | GroupVerdicts, ...]) -> None:
        self.unit = unit
        self.items = items
        self._flat: tuple[Priced, ...] | None = None
        self._made: dict[tuple[int, int, int], Breath] = {}
        # every breath object of the listing by its id (each kept alive by the listing): :meth:`has`
        self._known: dict[int, Breath] = {id(i[0]): i[0] for i in items if not isinstance(i, GroupVerdicts)}
        #: What the heuristic reads of the listing the same way in every state it is met in, worked out
        #: on its first weighing (``kassen.sengoku.battle.weigh``); a reading of the listing, not state.
        self.weighing: object | None = None

    def breath(self, item: int, row: int, shape: int) -> Breath:
        """The breath of shape ``shape`` at target ``row`` of the group ``items[item]``, built once."""
        key = (item, row, shape)
        found = self._made.get(key)
        if found is None:
            group = self.items[item]
            assert isinstance(group, GroupVerdicts)
            found = self._made[key] = Breath(self.unit, group.group.rows[row][shape])
            self._known[id(found)] = found
        return found

    def flat(self) -> tuple[Priced, ...]:
        """Every legal breath with its price, as ``legal_actions`` lists them (groups spelled out: each
        target's row of shapes in turn)."""
        found = self._flat
        if found is None:
            out: list[Priced] = []
            for k, item in enumerate(self.items):
                if isinstance(item, GroupVerdicts):
                    for i, prices in enumerate(item.prices):
                        if prices is not None:
                            out += [(self.breath(k, i, j), p) for j, p in enumerate(prices) if p]
                else:
                    out.append(item)
            found = self._flat = tuple(out)
        return found

    def has(self, breath: Breath) -> bool:
        """Whether ``breath`` is one of this listing's own breath objects (a plain one, or one
        :meth:`breath` built): a breath it lists, found by identity."""
        return self._known.get(id(breath)) is breath

    def has_single(self, energy: int) -> bool:
        """Whether one maneuver alone is a breath the unit can pay for with ``energy`` (SG.CNT.6)."""
        for item in self.items:
            if isinstance(item, GroupVerdicts):
                for row, prices in zip(item.group.rows, item.prices, strict=True):
                    if prices is not None and any(
                        len(uses) == 1 and 0 < p <= energy for uses, p in zip(row, prices, strict=True)
                    ):
                        return True
            elif len(item[0].uses) == 1 and item[1] <= energy:
                return True
        return False
