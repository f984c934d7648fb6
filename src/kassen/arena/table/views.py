"""What a side sees of a bout, and the order of play shown above each menu.

- :func:`units`: every fighter's side, by its id — the core's ``units`` hook.
- :func:`visibility`: the content's ``visibility`` table (``kassen/arena/data/visibility.yaml``, a house
  default overridable like the others): what :func:`kassen.core.view.observe` hides from a side.
- :func:`status`: the lines ``kassen play`` prints above each menu — the subturn and the slot order with
  who acts now, whoever has an override to decide, and each fighter's HP and FP, position, posture and
  conditions, as the one deciding may see them (its own side's numbers, and everyone's for the referee),
  by the visibility table itself: a hidden number shows as ``?``.
"""

from __future__ import annotations

__all__ = ["status", "units", "visibility"]

from collections.abc import Mapping, Sequence
from typing import Any

from kassen.arena.bout import BoutState
from kassen.arena.bout.reading import can_act, held_by
from kassen.arena.fighter import FighterState
from kassen.arena.report import condition_noun
from kassen.arena.rules import ArenaRules
from kassen.core.fight import state_codec
from kassen.core.view import Viewer, Visibility, redact_state


def units(state: BoutState) -> Mapping[str, str]:
    """Every fighter's side, by its id."""
    return {f.id: f.profile.side for f in state.fighters}


def visibility(rules: ArenaRules) -> Visibility:
    """The visibility table in force (content data)."""
    return Visibility.of(rules.visibility)


def status(state: BoutState, rules: ArenaRules, viewer: Viewer) -> Sequence[str]:
    """The order of play and the fighters, as ``viewer`` may see them."""
    shown = redact_state(state_codec(BoutState).dump(state), visibility(rules), viewer)
    lines = [_order(state, rules)]
    if state.offers and state.result is None:
        o = state.offers[0]
        lines.append(
            f"waiting: {_name(state, o.fighter)} may override {condition_noun(o.condition)} (or let it stand)"
        )
    for f, seen in zip(state.fighters, shown["fighters"], strict=True):
        lines.append(_fighter(state, rules, f, seen))
    return lines


def _name(state: BoutState, fid: str) -> str:
    return state.fighter(fid).profile.name


def _order(state: BoutState, rules: ArenaRules) -> str:
    names = ", ".join(_name(state, fid) for fid in state.order)
    if state.result is not None:
        return f"the bout is over after subturn {state.result.subturn}"
    if not state.started:
        return f"before the bout: the referee begins it ({state.format.value} format; acting order {names})"
    parts = []
    for i, fid in enumerate(state.order):
        f = state.fighter(fid)
        if i == state.slot and not state.offers:
            mark = "<- acts now"
        elif i < state.slot:
            mark = "done"
        elif f.lost or f.incapacitated:
            mark = "out"
        elif not can_act(f, rules) and not f.stunned:
            mark = "cannot act"
        else:
            mark = "to act"
        parts.append(f"{f.profile.name} {mark}")
    return f"subturn {state.subturn}, slots (DX then HT): " + "; ".join(parts)


def _number(seen: Mapping[str, Any], key: str, most: Any) -> str:
    value = seen.get(key)
    if value is None:
        return "?"
    return f"{value}/{most}" if most is not None else str(value)


def _fighter(state: BoutState, rules: ArenaRules, f: FighterState, seen: Mapping[str, Any]) -> str:
    p = f.profile
    profile = seen.get("profile") or {}
    hp = _number(seen, "hp", profile.get("hp"))
    fp = _number(seen, "fp", profile.get("fp"))
    posture = f.posture.value + (f", {f.facing.value.replace('_', ' ')}" if f.facing is not None else "")
    head = f"{p.name} ({p.side}) at {f.position} m, {posture}: HP {hp}, FP {fp}"
    bits: list[str] = [c.value.replace("_", " ") for c in f.conditions]
    if f.lost:
        bits.append("lost the match")
    for s in f.shocks:
        bits.append(f"{s.kind} -{s.value} to subturn {s.until}")
    if f.crippled:
        bits.append("crippled " + ", ".join(k.replace("_", " ") for k in f.crippled))
    for g in f.guards:
        bits.append(f"{g.arm.replace('_', ' ')} guards the {g.location.replace('_', ' ')}")
    if f.grappling is not None:
        bits.append(f"holds {_name(state, f.grappling)}")
    holder = held_by(state, f)
    if holder is not None:
        bits.append(f"held by {holder.profile.name}")
    if f.no_defense:
        bits.append("no defence until its slot (all-out)")
    if f.fall is not None:
        bits.append("falling" if f.fall.falls else "in the air")
    if state.started and state.subturn <= f.rooted_until:
        bits.append("rooted")
    points = seen.get("audience_points")
    if points:
        bits.append(f"audience points {points}")
    return head + ("; " + "; ".join(bits) if bits else "")
