"""What a side sees of a duel, and the turn order shown above each menu.

- :func:`units`: every fighter's side (a fighter's id is its name) — the core's ``units`` hook.
- :func:`visibility`: the content's ``visibility`` table (``kassen/l5r/data/visibility.yaml``, a house
  default overridable like the others): what :func:`kassen.core.view.observe` hides from a side.
- :func:`status`: the lines ``kassen play`` prints above each menu — the turn, who declares next (lowest
  initiative first, L5.CORE.8) and what each has declared (declarations are made aloud), the order
  they act in (highest first), whoever has a choice waiting, and each fighter's wound rank, position and
  lasting troubles, as the one deciding may see them: the exact Wounds of its own side's fighters only
  (and of everyone for the GM), unless the visibility table says otherwise.
"""

from __future__ import annotations

__all__ = ["status", "units", "visibility"]

from collections.abc import Mapping, Sequence

from kassen.core.fight import state_codec
from kassen.core.view import Viewer, Visibility, redact_event, redact_state
from kassen.i18n import _
from kassen.l5r.rolls import rank
from kassen.l5r.say import say, say_declaration
from kassen.l5r.state import CorpsPending, DrivePending, DuelState, Fighter, InjuryPending, Phase
from kassen.l5r.tables import L5Tables
from kassen.l5r.validate import next_declarer

#: Statuses worth naming in the status line (the rest show in the rolls they change).
_NOTED = ("prone", "bound", "binding", "locked", "threatened", "holding_point", "cannot_move", "blackout")


def units(state: DuelState) -> Mapping[str, str]:
    """Every fighter's side, by its id (its name)."""
    return {str(f.name): f.side for f in state.fighters}


def visibility(tables: L5Tables) -> Visibility:
    """The visibility table in force (content data)."""
    return Visibility.of(tables.visibility)


def _seen(state: DuelState, tables: L5Tables, viewer: Viewer) -> dict[str, tuple[bool, bool]]:
    """Per fighter: whether ``viewer`` sees its exact Wounds (the state rule) and its rank (the rank
    field of the ``wounds`` event), by the visibility table itself."""
    if viewer.gm:
        return {f.name: (True, True) for f in state.fighters}
    rules = visibility(tables)
    sides = units(state)
    shown = redact_state(state_codec(DuelState).dump(state), rules, viewer)
    out: dict[str, tuple[bool, bool]] = {}
    for f, seen in zip(state.fighters, shown["fighters"], strict=True):
        probe = {"kind": "wounds", "data": {"fighter": f.name, "rank": "-"}}
        event = redact_event(probe, rules, viewer, lambda u: sides.get(str(u)))
        out[f.name] = (seen.get("wounds") is not None, event["data"].get("rank") is not None)
    return out


def status(state: DuelState, tables: L5Tables, viewer: Viewer) -> Sequence[str]:
    """The turn order and the fighters, as ``viewer`` may see them."""
    lines = [_order(state)]
    if state.phase in (Phase.DECLARE, Phase.RESOLVE) and state.act_order:
        inits = _(", ").join(
            _("{name} {initiative}").format(name=n, initiative=state.fighter(n).initiative)
            for n in state.act_order
        )
        lines.append(_("acting order (highest initiative first): {order}").format(order=inits))
    waiting = _waiting(state)
    if waiting:
        lines.append(waiting)
    seen = _seen(state, tables, viewer)
    lines += [_fighter(f, tables, state.turn, *seen[f.name]) for f in state.fighters]
    return lines


def _order(state: DuelState) -> str:
    if state.phase is Phase.START:
        return _("before the duel: the GM begins it, and everyone rolls initiative")
    if state.phase is Phase.OVER:
        return _("the duel is over ({why})").format(why=say(state.reason or ""))
    if state.phase is Phase.DECLARE:
        now = next_declarer(state)
        parts = []
        for name in state.declare_order:
            f = state.fighter(name)
            if f.declared is not None:
                parts.append(
                    _("{name} declared {act}").format(name=name, act=say_declaration(f.declared.describe()))
                )
            else:
                parts.append(
                    _("{name} <- declares now").format(name=name)
                    if name == now
                    else _("{name} to declare").format(name=name)
                )
        return _("turn {n}, declarations (lowest initiative first): {order}").format(
            n=state.turn, order=_("; ").join(parts)
        )
    parts = []
    for i, name in enumerate(state.act_order):
        f = state.fighter(name)
        what = say_declaration(f.declared.describe()) if f.declared is not None else _("nothing declared")
        done = f.acted or i < state.cursor
        parts.append(
            _("{name} ({act}) done").format(name=name, act=what)
            if done
            else _("{name} ({act}) to act").format(name=name, act=what)
        )
    return _("turn {n}, resolving (highest initiative first): {order}").format(
        n=state.turn, order=_("; ").join(parts)
    )


def _waiting(state: DuelState) -> str:
    p = state.pending
    if p is None:
        return ""
    if isinstance(p, InjuryPending):
        return _("waiting: {name} chooses the injury to {target}'s {location}").format(
            name=p.chooser, target=p.target, location=say(p.location.value)
        )
    if isinstance(p, CorpsPending):
        return _("waiting: {name} answers {attacker}'s Corps-a-Corps").format(
            name=p.chooser, attacker=p.attacker
        )
    if isinstance(p, DrivePending):
        return _("waiting: {name} gives way to {attacker}'s Drive or refuses").format(
            name=p.chooser, attacker=p.attacker
        )
    return _("waiting: {name} strikes {target}, who moved with a point at the throat").format(
        name=p.chooser, target=p.threatened
    )


def _fighter(f: Fighter, tables: L5Tables, turn: int, wounds: bool, ranked: bool) -> str:
    if f.dead:
        said = _("Dead ({cause})").format(cause=say(f.death)) if f.death else _("Dead")
        return _("{name} ({side}): {state}").format(name=f.name, side=f.side, state=said)
    r = rank(f, tables)
    health = say(r.name) if ranked else _("rank not seen")
    if wounds:
        health = _("{rank}, {n} Wounds").format(rank=health, n=f.wounds)
    if r.tn_penalty and ranked:
        health = _("{rank} (+{penalty} TN)").format(rank=health, penalty=r.tn_penalty)
    bits: list[str] = [health, _("at {feet} ft").format(feet=f.position)]
    if f.yielded:
        bits.append(_("yielded"))
    if not f.weapon_in_hand:
        bits.append(_("weapon on the ground at {feet} ft").format(feet=f.weapon_at))
    noted = sorted({s.source for s in f.statuses if s.kind in _NOTED and s.active(turn)})
    bits += [say(n) for n in noted[:4]]
    bits += [say(c) for c in list(dict.fromkeys(f.conditions))[:4]]
    return _("{name} ({side}): {state}").format(name=f.name, side=f.side, state=_("; ").join(bits))
