"""The search's two hooks for a roll-and-keep duel: what a side guesses of what it may not see
(:func:`determinize`), and what a duel not yet over is worth to each side (:func:`value`).

Both are house defaults (the seed says nothing of how a player guesses); docs/l5r/house-defaults.md
describes them with the other readings.

What a side does not see (the ``visibility`` table, L5.CORE.6): another side's Wounds count — its wound
rank is seen (each ``wounds`` event names it, and the GM describes how hurt a fighter looks) — and the
Wounds a threatened fighter had before a Point-to-throat exchange. :func:`determinize` is given only the
duel as the side sees it and its view of the log, and guesses:

* **another side's Wounds** — the middle of the rank it was last seen in (the first rank, no Wounds,
  when it was never seen hurt), from its Earth and the wound ladder (L5.CORE.6);
* **the Wounds before an exchange** — the threatened fighter's Wounds as known or guessed now.

:func:`value` scores a duel by each side's fighters still standing: the share of their Wounds ladder
(up to Out) left, nothing for a fighter dead, out or yielded, as a share of all sides' total; in a
duel to first blood a bloodied fighter counts nothing either.
"""

from __future__ import annotations

__all__ = ["determinize", "value"]

from collections.abc import Mapping, Sequence
from typing import Any

from kassen.core.fastreplace import replace
from kassen.core.fight import state_codec
from kassen.core.rng import Rng
from kassen.l5r.character import earth
from kassen.l5r.state import DuelState
from kassen.l5r.tables import L5Tables
from kassen.l5r.wounds import ladder, out_ceiling, wound_rank


def value(state: DuelState, tables: L5Tables) -> Mapping[str, float]:
    """Each side's share of the Wounds its standing fighters can still take (see the module notes)."""
    left: dict[str, float] = {}
    first_blood = state.ends_at == "first_blood"
    for f in state.fighters:
        side = f.character.side
        ceiling = out_ceiling(earth(f.character, tables), tables)
        strength = 0.0
        down = f.dead or f.yielded or wound_rank(f.wounds, earth(f.character, tables), tables).out
        if not down and not (first_blood and f.bloodied):
            strength = 0.1 + max(0, ceiling - f.wounds) / max(1, ceiling)
        left[side] = left.get(side, 0.0) + strength
    total = sum(left.values())
    if total <= 0:
        return dict.fromkeys(left, 0.5)
    return {side: s / total for side, s in left.items()}


def determinize(
    seen: dict[str, Any], events: Sequence[Mapping[str, Any]], tables: L5Tables, side: str, rng: Rng
) -> DuelState:
    """A whole duel from what ``side`` sees, every hidden value guessed as the module notes say."""
    ranks = _ranks(events)
    unknown = set()
    for f in seen.get("fighters", ()):
        if f.get("wounds") is None:
            f["wounds"] = 0
            unknown.add((f.get("character") or {}).get("name"))
    exchange = seen.get("exchange")
    if isinstance(exchange, dict) and exchange.get("wounds_before") is None:
        exchange["wounds_before"] = 0
    state: DuelState = state_codec(DuelState).load(seen, "the side's view")
    fighters = []
    for f in state.fighters:
        name = f.character.name
        if name in unknown and f.character.side != side:
            f = replace(f, wounds=_middle(ranks.get(name), earth(f.character, tables), tables))
        fighters.append(f)
    state = replace(state, fighters=tuple(fighters))
    if state.exchange is not None and isinstance(exchange, dict):
        threatened = next((f for f in state.fighters if f.character.name == state.exchange.actor), None)
        if threatened is not None:
            state = replace(state, exchange=replace(state.exchange, wounds_before=threatened.wounds))
    return state


def _ranks(events: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The wound rank each fighter was last seen in (``wounds`` and ``gm_wounds`` events name it)."""
    out: dict[str, str] = {}
    for e in events:
        data = e.get("data") or {}
        if e.get("kind") in ("wounds", "gm_wounds") and isinstance(data.get("rank"), str):
            who = data.get("fighter")
            if isinstance(who, str):
                out[who] = data["rank"]
    return out


def _middle(rank: str | None, earth_ring: int, tables: L5Tables) -> int:
    """The Wounds in the middle of ``rank``'s boxes (0 when no rank was seen)."""
    if rank is None:
        return 0
    low = 0
    for name, top, _penalty, _out in ladder(earth_ring, tables):
        if name == rank:
            return (low + 1 + top) // 2 if top > low else top
        low = top
    return low  # past the ladder (the Dead rank): its first box
