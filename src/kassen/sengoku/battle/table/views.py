"""What a side sees of a battle, and the count track shown above each menu.

- :func:`units`: every unit's side, by id — the core's ``units`` hook (views, ``--human``, the lab).
- :func:`visibility`: the content's ``visibility`` table (``data/catalog/visibility.yaml``, a house
  default overridable like the others): what :func:`kassen.core.view.observe` hides from a side — by
  default another side's reserved techniques (SG.RES.1) and Fate points (SG.FAT.1-2).
- :func:`status`: the lines ``kassen play`` prints above each menu — the round and the count, who
  breathes (or answers, or decides), the count track (every unit on the battlefield by the count it
  acts at, highest first: its Energy and a pending initiative, SG.CNT.1-4; then who passed and who is
  off the battlefield), and each unit with its zone, Energy, Wounds and statuses — as a viewer may see
  them (``kassen play`` shows the deciding side's, or the GM's): a field the visibility table hides from
  its side is left out (the GM sees all).
"""

from __future__ import annotations

__all__ = ["status", "units", "visibility"]

from collections.abc import Mapping, Sequence
from typing import Any

from kassen.core.fight import state_codec
from kassen.core.view import GM_VIEW, Viewer, Visibility, redact_state
from kassen.sengoku.battle.plan import acting_value
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase, Unit


def units(state: BattleState) -> Mapping[str, str]:
    """Every unit's side, by its id."""
    return {u.id: u.side for u in state.units}


def visibility(rules: BattleRules) -> Visibility:
    """The visibility table in force (content data)."""
    return Visibility.of(rules.catalog.visibility)


def seen_state(state: BattleState, rules: BattleRules, viewer: Viewer) -> dict[str, Any]:
    """The state's JSON as ``viewer`` sees it (what the visibility table hides is null)."""
    data = state_codec(BattleState).dump(state)
    sides = units(state)
    shown: dict[str, Any] = redact_state(data, visibility(rules), viewer, lambda u: sides.get(str(u)))
    return shown


def status(state: BattleState, rules: BattleRules, viewer: Viewer = GM_VIEW) -> Sequence[str]:
    """The round, the count track and the units, as ``viewer`` may see them."""
    shown = {u["id"]: u for u in seen_state(state, rules, viewer)["units"]}
    lines = [_header(state, rules)]
    if state.phase in (Phase.COUNT, Phase.LULL):
        lines.append(_track(state, rules))
    lines += [_unit(state, rules, u, shown[u.id]) for u in state.units]
    return lines


def _name(state: BattleState, uid: str) -> str:
    return state.unit(uid).name if state.has_unit(uid) else uid


def _header(state: BattleState, rules: BattleRules) -> str:
    if state.phase is Phase.START:
        return "before the battle: the GM begins it (round 1: every unit at its maximum Energy)"
    if state.phase is Phase.OVER:
        r = state.result
        return f"the combat is over ({r.reason})" if r is not None else "the combat is over"
    d = state.decision
    where = f"round {state.round}, " + (f"count {state.count}" if state.phase is Phase.COUNT else "lull")
    if d is None:
        return where
    who = _name(state, d.unit)
    words = {
        DecisionKind.BREATH: f"{who} breathes",
        DecisionKind.REACTION: f"{who} may answer {_name(state, d.attacker)}'s attack",
        DecisionKind.UPKEEP: f"{who}'s upkeep",
        DecisionKind.ENVIRONMENT: "the GM's environment",
        DecisionKind.FATE: f"{who} may spend Fate on the roll",
        DecisionKind.LAST_BASTION: f"{who} may spend Fate on Last Bastion",
        DecisionKind.FUMBLE: f"the GM's extras on {_name(state, d.attacker)}'s fumble",
    }
    return f"{where}: {words[d.kind]}"


def _track(state: BattleState, rules: BattleRules) -> str:
    """``count track (highest first): Kuro 14 (12 +2 initiative) > Genzaburo 11 | passed: … | off: …``."""
    live = [u for u in state.units if u.on_battlefield and not u.passed]
    live.sort(key=lambda u: (-acting_value(u), rules.tie_key(state, u)))
    parts = []
    for u in live:
        at = acting_value(u)
        extra = f" ({u.energy} +{u.initiative} initiative)" if u.initiative else ""
        parts.append(f"{u.name} {at}{extra}")
    text = "count track (highest first): " + (" > ".join(parts) or "nobody left to breathe")
    passed = [u.name for u in state.units if u.on_battlefield and u.passed]
    off = [u.name for u in state.units if not u.on_battlefield]
    if passed:
        text += " | passed: " + ", ".join(passed)
    if off:
        text += " | off the battlefield: " + ", ".join(off)
    return text


def _unit(state: BattleState, rules: BattleRules, u: Unit, seen: Mapping[str, Any]) -> str:
    head = f"{u.name} ({state.side(u.side).name})"
    if u.incapacitated:
        return f"{head}: Incapacitated"
    if u.retreated:
        return f"{head}: left the battlefield"
    wounds = seen.get("wounds")
    health = f"Wounds {wounds}/{u.wounds_max}" if wounds is not None else "Wounds not seen"
    energy = [f"Energy {u.energy}/{u.max_energy}"] if state.phase is not Phase.START else []
    bits = [f"in {u.zone}", *energy, health]
    if u.cohesion is not None:
        bits.append(f"Cohesion {u.cohesion}")
    if u.stances:
        bits.append("holds " + ", ".join(rules.maneuver(s).name for s in u.stances))
    if u.defenseless:
        bits.append("Defenseless")
    if u.routed:
        bits.append("routed")
    if u.bleeding:
        bits.append("bleeding")
    if u.debuffs:
        bits.append(", ".join(f"{d.source or 'Defense'} −{d.value}" for d in u.debuffs))
    if u.dropped:
        bits.append(f"{rules.catalog.weapon(u.dropped).name} on the ground")
    reserved = seen.get("reservations")
    if reserved:
        bits.append("reserved: " + ", ".join(rules.maneuver(r["maneuver"]).name for r in reserved))
    fate = seen.get("fate_points")
    if fate:
        bits.append(f"Fate {fate}")
    return f"{head}: " + "; ".join(bits)
