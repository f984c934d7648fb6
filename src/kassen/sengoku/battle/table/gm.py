"""The GM's own moves: what ``fight.menu(gm=True)`` offers at any point of a battle.

The core derives the GM's menus from :func:`gm_actions` (kind → unit → value) and words them with
:func:`gm_label`. Each move is an action of the ruleset, logged as the GM's, replayed and undone:

- set a unit's Wounds (:class:`~kassen.sengoku.battle.actions.GmSetWounds`: 0 incapacitates it,
  SG.WND.4, SG.INP.1);
- put a status on a unit or take it off — Defenseless (SG.DFL.1), Bleed (SG.AIM.5) — and add or
  remove a catalog Defense −N (SG.DBF.1) (:mod:`kassen.sengoku.battle.flow.gm`);
- end the combat, naming the winning side or none (:class:`~kassen.sengoku.battle.actions.GmEndCombat`,
  SG.END.1, when the house default lets the GM end it).

None is offered while an attack waits on a decision (a reaction, Fate, the fumble's extras: SG.RES.2) —
the GM waits for it to be resolved. The GM's decisions in the flow itself — the lull's environment
(the yoma roll, a battlefield change, SG.LUL.3) and a fumble's extras (SG.FUM.2) — are the GM's turn to
decide (``fight.menu()`` when the GM is to move), and the d100 rows of the decisive moment and the
critical mistake (SG.CRT.4, SG.FUM.3) are rolled by the GM at the table and typed (``--dice table``).
"""

from __future__ import annotations

__all__ = ["gm_actions", "gm_label"]

from collections.abc import Sequence
from typing import Any

from kassen.i18n import N_, _, ngettext, pgettext
from kassen.sengoku.battle.actions import (
    STATUSES,
    Action,
    GmAddDebuff,
    GmAddStatus,
    GmEndCombat,
    GmRemoveDebuff,
    GmRemoveStatus,
    GmSetWounds,
)
from kassen.sengoku.battle.flow.gm import removable_debuffs
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase
from kassen.sengoku.words import content_word

_WAITS = (DecisionKind.REACTION, DecisionKind.FATE, DecisionKind.LAST_BASTION, DecisionKind.FUMBLE)
_KINDS = {
    "gm_set_wounds": N_("Set a unit's Wounds"),
    "gm_add_status": N_("Put a status on a unit (Defenseless, Bleed)"),
    "gm_remove_status": N_("Take a status off a unit"),
    "gm_add_debuff": N_("Put a Defense −N on a unit"),
    "gm_remove_debuff": N_("Take a Defense −N off a unit"),
    "gm_end_combat": N_("End the combat"),
}
_STATUS_WORDS = {"defenseless": N_("Defenseless"), "bleeding": N_("Bleed")}


def gm_actions(state: BattleState, rules: BattleRules) -> Sequence[Action]:
    """Every move the GM may make now (none once the combat is over, nor while an attack waits)."""
    d = state.decision
    if state.phase is Phase.OVER or state.attack is not None or (d is not None and d.kind in _WAITS):
        return []
    units = [u for u in state.units if u.on_battlefield]
    out: list[Action] = []
    for u in units:
        out += [GmSetWounds(u.id, w) for w in range(u.wounds_max + 1) if w != u.wounds]
    for u in units:
        out += [
            GmAddStatus(u.id, s)
            for s in STATUSES
            if not (u.defenseless if s == "defenseless" else u.bleeding)
        ]
    for u in units:
        out += [
            GmRemoveStatus(u.id, s) for s in STATUSES if (u.defenseless if s == "defenseless" else u.bleeding)
        ]
    for u in units:
        out += [GmAddDebuff(u.id, k) for k in rules.catalog.debuffs]
    for u in units:
        out += [GmRemoveDebuff(u.id, k) for k in removable_debuffs(rules, u)]
    if rules.end.gm_may_end:
        out += [GmEndCombat(winner=s.id) for s in state.sides]
        out.append(GmEndCombat(winner=None))
    return out


def gm_label(state: BattleState, rules: BattleRules, field: str, value: Any) -> str | None:
    """Words for the GM's derived menus (``None``: the core's default words)."""
    if field == "kind" and isinstance(value, str):
        kind = _KINDS.get(value)
        return _(kind) if kind is not None else None
    if field == "unit" and isinstance(value, str) and state.has_unit(value):
        u = state.unit(value)
        return _("{unit} ({side}; Wounds {wounds}/{wounds_max})").format(
            unit=u.name, side=state.side(u.side).name, wounds=u.wounds, wounds_max=u.wounds_max
        )
    if field == "wounds" and isinstance(value, int):
        if value == 0:
            return _("0 Wounds (Incapacitated)")
        return ngettext("{n} Wound", "{n} Wounds", value).format(n=value)
    if field == "status" and isinstance(value, str):
        word = _STATUS_WORDS.get(value)
        return _(word) if word is not None else value
    if field == "debuff" and isinstance(value, str) and value in rules.catalog.debuffs:
        e = rules.catalog.debuffs[value]
        return _("{debuff} (Defense −{value})").format(debuff=content_word(e.name), value=e.value)
    if field == "winner":
        return (
            _("no winner")
            if value is None
            else pgettext("sengoku", "{side} wins").format(side=state.side(str(value)).name)
        )
    return None
