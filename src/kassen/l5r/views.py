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
from kassen.l5r.rolls import rank
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
        inits = ", ".join(f"{n} {state.fighter(n).initiative}" for n in state.act_order)
        lines.append(f"acting order (highest initiative first): {inits}")
    waiting = _waiting(state)
    if waiting:
        lines.append(waiting)
    seen = _seen(state, tables, viewer)
    lines += [_fighter(f, tables, state.turn, *seen[f.name]) for f in state.fighters]
    return lines


def _order(state: DuelState) -> str:
    if state.phase is Phase.START:
        return "before the duel: the GM begins it, and everyone rolls initiative"
    if state.phase is Phase.OVER:
        return f"the duel is over ({state.reason})"
    if state.phase is Phase.DECLARE:
        now = next_declarer(state)
        parts = []
        for name in state.declare_order:
            f = state.fighter(name)
            if f.declared is not None:
                parts.append(f"{name} declared {f.declared.describe()}")
            else:
                parts.append(f"{name} <- declares now" if name == now else f"{name} to declare")
        return f"turn {state.turn}, declarations (lowest initiative first): " + "; ".join(parts)
    parts = []
    for i, name in enumerate(state.act_order):
        f = state.fighter(name)
        mark = "done" if f.acted or i < state.cursor else "to act"
        what = f.declared.describe() if f.declared is not None else "nothing declared"
        parts.append(f"{name} ({what}) {mark}")
    return f"turn {state.turn}, resolving (highest initiative first): " + "; ".join(parts)


def _waiting(state: DuelState) -> str:
    p = state.pending
    if p is None:
        return ""
    if isinstance(p, InjuryPending):
        return f"waiting: {p.chooser} chooses the injury to {p.target}'s {p.location.value}"
    if isinstance(p, CorpsPending):
        return f"waiting: {p.chooser} answers {p.attacker}'s Corps-a-Corps"
    if isinstance(p, DrivePending):
        return f"waiting: {p.chooser} gives way to {p.attacker}'s Drive or refuses"
    return f"waiting: {p.chooser} strikes {p.threatened}, who moved with a point at the throat"


def _fighter(f: Fighter, tables: L5Tables, turn: int, wounds: bool, ranked: bool) -> str:
    head = f"{f.name} ({f.side}): "
    if f.dead:
        return head + (f"Dead ({f.death})" if f.death else "Dead")
    r = rank(f, tables)
    health = r.name if ranked else "rank not seen"
    if wounds:
        health += f", {f.wounds} Wounds"
    if r.tn_penalty and ranked:
        health += f" (+{r.tn_penalty} TN)"
    bits: list[str] = [health, f"at {f.position} ft"]
    if f.yielded:
        bits.append("yielded")
    if not f.weapon_in_hand:
        bits.append(f"weapon on the ground at {f.weapon_at} ft")
    noted = sorted({s.source for s in f.statuses if s.kind in _NOTED and s.active(turn)})
    bits += noted[:4]
    bits += list(dict.fromkeys(f.conditions))[:4]
    return head + "; ".join(bits)
