"""The search's two hooks for a Sengoku battle: what a side guesses of what it may not see
(:func:`determinize`), and what a battle not yet over is worth to each side (:func:`value`).

Both are house defaults (the seeds say nothing of how a player guesses); docs/sengoku/battle.md
describes them with the other readings.

What a side does not see (the ``visibility`` table, SG.RES.1, SG.FAT.1-2): another side's reserved
defense techniques, its Fate points left, and the rest of a breath of another side's unit while it is
being resolved. :func:`determinize` is given only the state as the side sees it (those fields null) and
the side's view of the log, and fills them in:

* **reservations** — that a unit reserved shows (a ``reserve`` event, its technique hidden), and so
  does a reaction using one: a unit is taken to hold as many reservations as it made since the last
  lull less the reactions it made, each the first defense technique it knows;
* **Fate points** — the unit's template's Fate (the catalog's, or the scenario's stat block), less the
  costs of the Fate Interventions and Last Bastions it was seen to spend (SG.FAT.1-2);
* **a breath under way** — the maneuver being resolved is seen (the attack in the state), the rest is
  not: the breath is taken to end with it.

:func:`value` scores a battle by the Wounds each side has left on its units still able to fight (a
routed or retreated unit, or one off the battlefield, counts nothing), as a share of all: 1 for a side
that alone has units left, ½ each for two sides equally strong.
"""

from __future__ import annotations

__all__ = ["determinize", "value"]

from collections.abc import Mapping, Sequence
from typing import Any

from kassen.core.fastreplace import replace
from kassen.core.fight import state_codec
from kassen.core.rng import Rng
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Reservation, Unit
from kassen.sengoku.entries import ManeuverKind


def value(state: BattleState, tables: BattleRules) -> Mapping[str, float]:
    """Each side's share of the Wounds left on units still able to fight (see the module notes)."""
    left: dict[str, float] = {}
    for u in state.units:
        strength = float(u.wounds) if u.able else 0.0
        if u.cohesion is not None and u.cohesion_max:
            strength *= 0.5 + 0.5 * max(0, u.cohesion) / u.cohesion_max
        left[u.side] = left.get(u.side, 0.0) + strength
    total = sum(left.values())
    if total <= 0:
        return dict.fromkeys(left, 0.5)
    return {side: s / total for side, s in left.items()}


def determinize(
    seen: dict[str, Any], events: Sequence[Mapping[str, Any]], tables: BattleRules, side: str, rng: Rng
) -> BattleState:
    """A whole state from what ``side`` sees (``seen``: the state's JSON with hidden fields null;
    ``events``: its view of the log), every hidden value guessed as the module notes say."""
    reserved, reacted, spent = _counts(events, tables)
    for unit in seen.get("units", ()):
        if unit.get("reservations") is None:
            unit["reservations"] = []
        if unit.get("fate_points") is None:
            unit["fate_points"] = 0
    breath = seen.get("breath")
    if isinstance(breath, dict) and (breath.get("uses") is None or breath.get("costs") is None):
        breath["uses"], breath["costs"], breath["index"] = [], [], 0
    state: BattleState = state_codec(BattleState).load(seen, "the side's view")
    p, fate = state.attack, tables.resolution.fate
    if p is not None:
        # a Fate Intervention or Last Bastion chosen for the attack under way is paid when it lands:
        # its event is in the log already, its cost not yet off the unit
        if p.fate_die is not None:
            spent[p.attacker] = spent.get(p.attacker, 0) - fate.intervention_cost
        if p.last_bastion:
            spent[p.target] = spent.get(p.target, 0) - fate.last_bastion_cost
    units = []
    for u in state.units:
        if u.side == side:
            units.append(u)
            continue
        left = max(0, tables.creature(u).fate_points - spent.get(u.id, 0))
        held = max(0, reserved.get(u.id, 0) - reacted.get(u.id, 0))
        guard = _first_defense(tables, u)
        reservations = tuple(Reservation(guard) for _ in range(held)) if guard else ()
        units.append(_with(u, left, reservations))
    state = _replace_units(state, tuple(units))
    if state.breath is not None and not state.breath.uses and state.attack is not None:
        state = _breath_ending_with_attack(state)
    return state


def _counts(
    events: Sequence[Mapping[str, Any]], tables: BattleRules
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Per unit: reservations made since the last lull, reactions made since, and Fate spent (seen)."""
    reserved: dict[str, int] = {}
    reacted: dict[str, int] = {}
    spent: dict[str, int] = {}
    costs = tables.resolution.fate
    for e in events:
        kind, data = e.get("kind"), e.get("data") or {}
        unit = data.get("unit")
        if kind == "lull":
            reserved.clear()
            reacted.clear()
        elif not isinstance(unit, str):
            continue
        elif kind == "reserve":
            reserved[unit] = reserved.get(unit, 0) + 1
        elif kind == "reaction":
            reacted[unit] = reacted.get(unit, 0) + 1
        elif kind == "fate_intervention":
            spent[unit] = spent.get(unit, 0) + costs.intervention_cost
        elif kind == "last_bastion":
            spent[unit] = spent.get(unit, 0) + costs.last_bastion_cost
    return reserved, reacted, spent


def _first_defense(tables: BattleRules, unit: Unit) -> str | None:
    for key in tables.known(unit):
        if tables.maneuver(key).kind is ManeuverKind.DEFENSE:
            return key
    return None


def _with(unit: Unit, fate: int, reservations: tuple[Reservation, ...]) -> Unit:
    return replace(unit, fate_points=fate, reservations=reservations)


def _replace_units(state: BattleState, units: tuple[Unit, ...]) -> BattleState:
    return replace(state, units=units)


def _breath_ending_with_attack(state: BattleState) -> BattleState:
    """The breath under way as another side sees it: the attack resolving now is its last maneuver."""
    from kassen.sengoku.battle.state import Use

    p, b = state.attack, state.breath
    assert p is not None and b is not None
    use = Use(p.maneuver, p.target, weapon=p.weapon or None)
    return replace(state, breath=replace(b, uses=(use,), costs=(0,), index=0))
