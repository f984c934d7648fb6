"""The GM's rulings on a unit: a status put on or taken off, a Defense −N added or removed.

Each is an action like any other — validated first (an :class:`~kassen.core.errors.IllegalActionError`
naming the rule), logged, replayed and undone — that the GM may make at any point but while an attack
waits on a decision (SG.RES.2), as for :class:`~kassen.sengoku.battle.actions.GmSetWounds`. The core
offers them through ``fight.menu(gm=True)`` (:mod:`kassen.sengoku.battle.table.gm`).

- Defenseless (SG.DFL.1): put on, it releases a maintained stance at once (SG.DFL.2), as every other
  cause does; taken off, the unit may reserve and declare stances again.
- Bleed (the SG.INP.3 house default): a Wound lost each lull until bound.
- a catalog Defense −N (SG.DBF.1): triggered on the unit as a hit would (a second time accumulates or
  renews as SG.RD.3 reads it); removed, every −N of that source goes.
"""

from __future__ import annotations

__all__ = [
    "STATUS_RULES",
    "gm_problem",
    "on_add_debuff",
    "on_add_status",
    "on_remove_debuff",
    "on_remove_status",
    "removable_debuffs",
]


from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.battle.actions import STATUSES, GmAddDebuff, GmAddStatus, GmRemoveDebuff, GmRemoveStatus
from kassen.sengoku.battle.flow.base import TurnBase
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase, Unit

#: The rule each status is ruled under.
STATUS_RULES = {"defenseless": "SG.DFL.1", "bleeding": "SG.AIM.5"}
_WAITS = (DecisionKind.REACTION, DecisionKind.FATE, DecisionKind.LAST_BASTION, DecisionKind.FUMBLE)


def _has(unit: Unit, status: str) -> bool:
    return unit.defenseless if status == "defenseless" else unit.bleeding


def gm_problem(
    state: BattleState, action: GmAddStatus | GmRemoveStatus | GmAddDebuff | GmRemoveDebuff
) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless the GM may rule ``action`` now."""
    rule = (
        STATUS_RULES.get(action.status, "SG.DFL.1")
        if isinstance(action, GmAddStatus | GmRemoveStatus)
        else "SG.DBF.1"
    )
    if state.phase is Phase.OVER:
        raise IllegalActionError(S_("the combat is over"), rule="SG.END.1")
    d = state.decision
    if state.attack is not None or (d is not None and d.kind in _WAITS):
        raise IllegalActionError(S_("the GM waits until the attack at hand is resolved"), rule="SG.RES.2")
    if not state.has_unit(action.unit):
        raise IllegalActionError(
            S_("no unit {value} in this battle", value=f"{action.unit[:40]!r}"), rule=rule
        )
    unit = state.unit(action.unit)
    if not unit.on_battlefield:
        raise IllegalActionError(S_("{name} is not on the battlefield", name=unit.name), rule="SG.INP.1")
    if isinstance(action, GmAddStatus | GmRemoveStatus):
        if action.status not in STATUSES:
            known = ", ".join(STATUSES)
            raise IllegalActionError(
                S_("unknown status {value} (known: {known})", value=f"{action.status[:40]!r}", known=known),
                rule=rule,
            )
        on = isinstance(action, GmAddStatus)
        if _has(unit, action.status) == on:
            # one template per status: a bare "{name} is not {status}" would match any such sentence
            said = {
                ("defenseless", True): S_("{name} is already defenseless", name=unit.name),
                ("defenseless", False): S_("{name} is not defenseless", name=unit.name),
                ("bleeding", True): S_("{name} is already bleeding", name=unit.name),
                ("bleeding", False): S_("{name} is not bleeding", name=unit.name),
            }.get((action.status, on), f"{unit.name} {'is already' if on else 'is not'} {action.status}")
            raise IllegalActionError(said, rule=rule)


def _debuff_entry(b: TurnBase, action: GmAddDebuff | GmRemoveDebuff) -> str:
    entry = b.rules.catalog.debuffs.get(action.debuff)
    if entry is None:
        known = ", ".join(b.rules.catalog.debuffs) or "none"
        raise IllegalActionError(
            S_("no debuff {value} (known: {known})", value=f"{action.debuff[:40]!r}", known=known),
            rule="SG.DBF.1",
        )
    return entry.name


def on_add_status(b: TurnBase, action: GmAddStatus) -> None:
    gm_problem(b.state, action)
    rule = STATUS_RULES[action.status]
    b.log("gm_status", rule, automatic=False, unit=action.unit, status=action.status, on=True)
    if action.status == "defenseless":
        b.defenseless(action.unit, S_("the GM's ruling"), rule, logged=True)
    else:
        b.put(replace(b.u(action.unit), bleeding=True))


def on_remove_status(b: TurnBase, action: GmRemoveStatus) -> None:
    gm_problem(b.state, action)
    rule = STATUS_RULES[action.status]
    b.log("gm_status", rule, automatic=False, unit=action.unit, status=action.status, on=False)
    unit = b.u(action.unit)
    off = {"defenseless": False} if action.status == "defenseless" else {"bleeding": False}
    b.put(replace(unit, **off))


def on_add_debuff(b: TurnBase, action: GmAddDebuff) -> None:
    gm_problem(b.state, action)
    name = _debuff_entry(b, action)
    entry = b.rules.catalog.debuff(action.debuff)
    unit = b.u(action.unit)
    p, _ = b.rules.debuffed(b.profile(unit), entry.debuff())
    b.put(replace(unit, debuffs=p.debuffs))
    total = sum(d.value for d in p.debuffs)
    b.log(
        "gm_debuff",
        "SG.DBF.1",
        automatic=False,
        unit=unit.id,
        debuff=entry.id,
        name=name,
        value=entry.value,
        total=total,
        on=True,
    )


def on_remove_debuff(b: TurnBase, action: GmRemoveDebuff) -> None:
    gm_problem(b.state, action)
    name = _debuff_entry(b, action)
    unit = b.u(action.unit)
    if not any(d.source == name for d in unit.debuffs):
        # not a catalog template: "{name} has no {debuff}" would match any sentence of that shape
        raise IllegalActionError(f"{unit.name} has no {name}", rule="SG.DBF.1")
    kept = tuple(d for d in unit.debuffs if d.source != name)
    b.put(replace(unit, debuffs=kept))
    b.log(
        "gm_debuff",
        "SG.DBF.1",
        automatic=False,
        unit=unit.id,
        debuff=action.debuff,
        name=name,
        total=sum(d.value for d in kept),
        on=False,
    )


def removable_debuffs(rules: BattleRules, unit: Unit) -> list[str]:
    """The catalog debuffs the unit has (by id)."""
    held = {d.source for d in unit.debuffs}
    return [k for k, e in rules.catalog.debuffs.items() if e.name in held]
