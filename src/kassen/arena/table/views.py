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
from kassen.arena.words import word
from kassen.core.fight import state_codec
from kassen.core.view import Viewer, Visibility, redact_state
from kassen.i18n import N_, _


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
        text = _("waiting: {who} may override {condition} (or let it stand)")
        lines.append(text.format(who=_name(state, o.fighter), condition=condition_noun(o.condition)))
    for f, seen in zip(state.fighters, shown["fighters"], strict=True):
        lines.append(_fighter(state, rules, f, seen))
    return lines


def _name(state: BoutState, fid: str) -> str:
    return state.fighter(fid).profile.name


def _order(state: BoutState, rules: ArenaRules) -> str:
    names = ", ".join(_name(state, fid) for fid in state.order)
    if state.result is not None:
        return _("the bout is over after subturn {subturn}").format(subturn=state.result.subturn)
    if not state.started:
        text = _("before the bout: the referee begins it ({format} format; acting order {order})")
        return text.format(format=word(state.format.value), order=names)
    parts = []
    for i, fid in enumerate(state.order):
        f = state.fighter(fid)
        if i == state.slot and not state.offers:
            mark = N_("{name} <- acts now")
        elif i < state.slot:
            mark = N_("{name} done")
        elif f.lost or f.incapacitated:
            mark = N_("{name} out")
        elif not can_act(f, rules) and not f.stunned:
            mark = N_("{name} cannot act")
        else:
            mark = N_("{name} to act")
        parts.append(_(mark).format(name=f.profile.name))
    text = _("subturn {subturn}, slots (DX then HT): {slots}")
    return text.format(subturn=state.subturn, slots="; ".join(parts))


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
    values = {"name": p.name, "side": p.side, "position": f.position, "posture": word(f.posture.value)}
    if f.facing is not None:
        text = _("{name} ({side}) at {position} m, {posture}, {facing}: HP {hp}, FP {fp}")
        head = text.format(facing=word(f.facing.value), hp=hp, fp=fp, **values)
    else:
        head = _("{name} ({side}) at {position} m, {posture}: HP {hp}, FP {fp}").format(
            hp=hp, fp=fp, **values
        )
    bits: list[str] = [word(c.value) for c in f.conditions]
    if f.lost:
        bits.append(_("lost the match"))
    for s in f.shocks:
        bits.append(
            _("{kind} -{value} to subturn {until}").format(kind=word(s.kind), value=s.value, until=s.until)
        )
    if f.crippled:
        crippled = ", ".join(word(k) for k in f.crippled)
        bits.append(_("crippled {locations}").format(locations=crippled))
    for g in f.guards:
        bits.append(_("{arm} guards the {location}").format(arm=word(g.arm), location=word(g.location)))
    if f.grappling is not None:
        bits.append(_("holds {target}").format(target=_name(state, f.grappling)))
    holder = held_by(state, f)
    if holder is not None:
        bits.append(_("held by {holder}").format(holder=holder.profile.name))
    if f.no_defense:
        bits.append(_("no defence until its slot (all-out)"))
    if f.fall is not None:
        bits.append(_("falling") if f.fall.falls else _("in the air"))
    if state.started and state.subturn <= f.rooted_until:
        bits.append(_("rooted"))
    points = seen.get("audience_points")
    if points:
        bits.append(_("audience points {points}").format(points=points))
    return head + ("; " + "; ".join(bits) if bits else "")
