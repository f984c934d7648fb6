"""The GM's own moves: available at any point of a duel, to the GM only.

Each is an action of the ruleset like any other — logged, replayed, undone, resolved through
``RULESET.resolve`` (validated first, an :class:`~kassen.core.errors.IllegalActionError` naming the rule
when it cannot be made) — but never among a character's legal decisions: the core offers them through
``fight.menu(gm=True)`` (the hook :func:`gm_actions`), and ``kassen play`` through the answer ``gm``.

- :class:`GmSetWounds`: a fighter's Wounds, set outright (its rank follows, L5.CORE.6; Out, the Dead
  rank and Dead as the rules say, L5.RD.4).
- :class:`GmInjure`: a status the rules know how to apply — any injury of the called-shot tables, its
  statuses and conditions (L5.CS.2, L5.CS.3: a fall is prone, a blackout loses the next action...), not
  its extra Wounds (set those apart).
- :class:`GmRemoveStatus`, :class:`GmAddCondition`, :class:`GmRemoveCondition`: take a status off, give
  or take a named condition (a disadvantage with its lasting effects, L5.GAP.1; ``intimidated``...).
- :class:`GmDangerBehind`: what the seed leaves to the GM's judgement — whether a defender "is aware of
  the dangerous nature of the area he is being driven into" and so may refuse a Drive (L5.DRV.1).
- :class:`GmEndDuel`: the duel ends now, with the winning side the GM names (or none).

A fighter the GM puts down during the declarations is taken out of this turn's declaring order (it
would have nothing to declare); one the GM brings back up rolls initiative from the next turn.
"""

from __future__ import annotations

__all__ = [
    "GM_ACTIONS",
    "GmAction",
    "GmAddCondition",
    "GmDangerBehind",
    "GmEndDuel",
    "GmInjure",
    "GmRemoveCondition",
    "GmRemoveStatus",
    "GmSetWounds",
    "apply_gm",
    "check_gm",
    "gm_actions",
    "status_label",
]

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from kassen.core.engine import Handlers
from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.i18n import N_, S_
from kassen.l5r.character import FighterId, earth
from kassen.l5r.damage import drop_weapon, release_ties
from kassen.l5r.flow import end_duel
from kassen.l5r.injuries import TIES, injury_effects, with_disadvantage
from kassen.l5r.rolls import rank
from kassen.l5r.state import DuelState, Fighter, Phase, Status
from kassen.l5r.tables import L5Tables, Location
from kassen.l5r.turn import L5Turn
from kassen.l5r.wounds import dead_at

#: The statuses a tie pairs (removing one side of a bind, lock or point removes the other).
_PAIRED = {
    "bound": "binding",
    "binding": "bound",
    "threatened": "holding_point",
    "holding_point": "threatened",
}


@dataclass(frozen=True, slots=True)
class GmSetWounds:
    """The GM sets ``fighter``'s Wounds to ``wounds``."""

    fighter: FighterId
    wounds: int


@dataclass(frozen=True, slots=True)
class GmInjure:
    """The GM gives ``fighter`` the statuses of an injury (``location``, ``injury``)."""

    fighter: FighterId
    location: Location
    injury: str


@dataclass(frozen=True, slots=True)
class GmRemoveStatus:
    """The GM takes a status off ``fighter``: the first one whose :func:`status_label` is ``status``."""

    fighter: FighterId
    status: str


@dataclass(frozen=True, slots=True)
class GmAddCondition:
    """The GM gives ``fighter`` a named condition, with its lasting effects."""

    fighter: FighterId
    condition: str


@dataclass(frozen=True, slots=True)
class GmRemoveCondition:
    """The GM takes a named condition (one of it, with its effects) off ``fighter``."""

    fighter: FighterId
    condition: str


@dataclass(frozen=True, slots=True)
class GmDangerBehind:
    """The GM rules whether ``fighter`` knows of danger behind it (L5.DRV.1: it may refuse a Drive)."""

    fighter: FighterId
    aware: bool


@dataclass(frozen=True, slots=True)
class GmEndDuel:
    """The GM ends the duel; ``winner`` is a side, or ``None`` for no winner."""

    winner: str | None


GmAction: TypeAlias = (
    GmSetWounds | GmInjure | GmRemoveStatus | GmAddCondition | GmRemoveCondition | GmDangerBehind | GmEndDuel
)
#: Every GM action type (for ``isinstance``).
GM_ACTIONS = (
    GmSetWounds,
    GmInjure,
    GmRemoveStatus,
    GmAddCondition,
    GmRemoveCondition,
    GmDangerBehind,
    GmEndDuel,
)


_GM_MAIMED = N_("the GM rules {name} maimed: {location} - {injury}")
_GM_INJURED = N_("the GM rules {name} injured: {location} - {injury}")


def status_label(status: Status) -> str:
    """How a status is named in the GM's menu and in :class:`GmRemoveStatus`: ``prone: foot: fall``."""
    return f"{status.kind}: {status.source}"


def _conditions(tables: L5Tables) -> list[str]:
    known = {*tables.called_shots.disadvantages.effects, tables.special_attacks.clipping.condition}
    return sorted(known)


# -- what the GM may do now -------------------------------------------------------------------------------
def gm_actions(state: DuelState, tables: L5Tables) -> Sequence[GmAction]:
    """Every GM move open now (none once the duel is over)."""
    if state.phase is Phase.OVER:
        return []
    t = tables
    living = [f for f in state.fighters if not f.dead]
    out: list[GmAction] = []
    for f in living:
        top = dead_at(earth(f.character, t), t)
        out += [GmSetWounds(f.name, w) for w in range(top + 1) if w != f.wounds]
    for f in living:
        for loc in Location:
            out += [GmInjure(f.name, loc, name) for name in sorted(t.location(loc).injuries)]
    for f in living:
        out += [GmRemoveStatus(f.name, label) for label in dict.fromkeys(map(status_label, f.statuses))]
    for f in living:
        out += [GmAddCondition(f.name, c) for c in _conditions(t)]
    for f in living:
        out += [GmRemoveCondition(f.name, c) for c in dict.fromkeys(f.conditions)]
    out += [GmDangerBehind(f.name, aware) for f in living for aware in (True, False)]
    out += [GmEndDuel(side) for side in dict.fromkeys(f.side for f in state.fighters)]
    out.append(GmEndDuel(None))
    return out


# -- validation -------------------------------------------------------------------------------------------
def _living(state: DuelState, name: str, rule: str) -> Fighter:
    if not state.has_fighter(name):
        raise IllegalActionError(S_("no fighter named {name} in this duel", name=repr(name[:40])), rule=rule)
    f = state.fighter(name)
    if f.dead:
        raise IllegalActionError(
            S_("{name} is dead: the Dead rank is filled for good", name=f.name), rule="L5.RD.4"
        )
    return f


def _check_wounds(state: DuelState, a: GmAction, tables: L5Tables) -> None:
    assert isinstance(a, GmSetWounds)
    f = _living(state, a.fighter, "L5.CORE.6")
    top = dead_at(earth(f.character, tables), tables)
    if isinstance(a.wounds, bool) or not 0 <= a.wounds <= top:
        raise IllegalActionError(
            S_("{name}'s Wounds are 0 to {top} (the last box of the Dead rank)", name=f.name, top=top),
            rule="L5.CORE.6",
        )


def _check_injure(state: DuelState, a: GmAction, tables: L5Tables) -> None:
    assert isinstance(a, GmInjure)
    _living(state, a.fighter, "L5.CS.2")
    if a.injury not in tables.location(a.location).injuries:
        known = ", ".join(sorted(tables.location(a.location).injuries))
        raise IllegalActionError(
            S_(
                "{injury} is not an injury of the {location} (known: {known})",
                injury=repr(a.injury[:40]),
                location=a.location.value,
                known=known,
            ),
            rule="L5.CS.2",
        )


def _check_remove_status(state: DuelState, a: GmAction, tables: L5Tables) -> None:
    assert isinstance(a, GmRemoveStatus)
    f = _living(state, a.fighter, "L5.GAP.1")
    if not any(status_label(s) == a.status for s in f.statuses):
        raise IllegalActionError(
            S_("{name} has no status {status}", name=f.name, status=repr(a.status[:60])), rule="L5.GAP.1"
        )


def _check_add_condition(state: DuelState, a: GmAction, tables: L5Tables) -> None:
    assert isinstance(a, GmAddCondition)
    _living(state, a.fighter, "L5.GAP.1")
    if a.condition not in _conditions(tables):
        known = ", ".join(_conditions(tables))
        raise IllegalActionError(
            S_(
                "unknown condition {condition} (known: {known})",
                condition=repr(a.condition[:40]),
                known=known,
            ),
            rule="L5.GAP.1",
        )


def _check_remove_condition(state: DuelState, a: GmAction, tables: L5Tables) -> None:
    assert isinstance(a, GmRemoveCondition)
    f = _living(state, a.fighter, "L5.GAP.1")
    if a.condition not in f.conditions:
        raise IllegalActionError(
            S_("{name} has no condition {condition}", name=f.name, condition=repr(a.condition[:40])),
            rule="L5.GAP.1",
        )


def _check_danger(state: DuelState, a: GmAction, tables: L5Tables) -> None:
    assert isinstance(a, GmDangerBehind)
    _living(state, a.fighter, "L5.DRV.1")


def _check_end(state: DuelState, a: GmAction, tables: L5Tables) -> None:
    assert isinstance(a, GmEndDuel)
    sides = list(dict.fromkeys(f.side for f in state.fighters))
    if a.winner is not None and a.winner not in sides:
        raise IllegalActionError(
            S_(
                "{side} is no side of this duel (sides: {sides})",
                side=repr(a.winner[:40]),
                sides=", ".join(sides),
            ),
            rule="L5.CORE.6",
        )


_CHECKS: dict[type, Callable[[DuelState, GmAction, L5Tables], None]] = {
    GmSetWounds: _check_wounds,
    GmInjure: _check_injure,
    GmRemoveStatus: _check_remove_status,
    GmAddCondition: _check_add_condition,
    GmRemoveCondition: _check_remove_condition,
    GmDangerBehind: _check_danger,
    GmEndDuel: _check_end,
}


def check_gm(state: DuelState, action: GmAction, tables: L5Tables) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless the GM may make ``action`` now."""
    if state.phase is Phase.OVER:
        raise IllegalActionError(S_("the duel is over"), rule="L5.CORE.6")
    _CHECKS[type(action)](state, action, tables)


# -- what each does ---------------------------------------------------------------------------------------
def _set_wounds(turn: L5Turn, a: GmSetWounds) -> None:
    t = turn.tables
    f = turn.fighter(a.fighter)
    before, after = rank(f, t), rank(f, t, a.wounds)
    f = replace(f, wounds=a.wounds, bloodied=f.bloodied or a.wounds > f.wounds)
    turn.event(
        "gm_wounds",
        S_("the GM sets {name}'s Wounds to {n}: {rank}", name=f.name, n=a.wounds, rank=after.name),
        "L5.CORE.6",
        steps=(after.step(),),
        fighter=f.name,
        wounds=a.wounds,
        rank=after.name,
    )
    if after.dead:
        f = replace(f, dead=True, death=S_("the GM's ruling"))
        turn.event(
            "death",
            S_("{name} dies: {cause}", name=f.name, cause=f.death),
            "L5.RD.4",
            fighter=f.name,
            cause=f.death,
        )
    elif after.dying and not before.dying:
        turn.event(
            "dying", S_("{name} is in the Dead rank: down, alive", name=f.name), "L5.RD.4", fighter=f.name
        )
    elif after.out and not before.out:
        turn.event(
            "out", S_("{name} is Out: unconscious, no actions", name=f.name), "L5.CORE.6", fighter=f.name
        )
    turn.put(f)
    if after.down:
        release_ties(turn, f.name)
        _off_the_declarations(turn, f.name)


def _off_the_declarations(turn: L5Turn, name: FighterId) -> None:
    """A fighter put down before declaring has nothing to declare this turn."""
    s = turn.state
    if s.phase is Phase.DECLARE and s.fighter(name).declared is None and name in s.declare_order:
        turn.update(declare_order=tuple(n for n in s.declare_order if n != name))


def _injure(turn: L5Turn, a: GmInjure) -> None:
    t = turn.tables
    outcome = injury_effects(
        turn.fighter(a.fighter),
        a.location,
        a.injury,
        turn=turn.now,
        tables=t,
        attacker_weapon_skill=0,
        dropped=(),
    )
    turn.put(outcome.fighter)
    rule = "L5.CS.3" if outcome.maimed else t.location(a.location).rule
    turn.event(
        "gm_injury",
        S_(
            _GM_MAIMED if outcome.maimed else _GM_INJURED,
            name=a.fighter,
            location=a.location.value,
            injury=a.injury.replace("_", " "),
        ),
        rule,
        steps=outcome.steps,
        fighter=a.fighter,
        location=a.location.value,
        injury=a.injury,
    )
    if outcome.drops_weapon:
        drop_weapon(turn, a.fighter, turn.fighter(a.fighter).position)
        turn.event("weapon_dropped", S_("{name} drops the weapon", name=a.fighter), rule, fighter=a.fighter)


def _remove_status(turn: L5Turn, a: GmRemoveStatus) -> None:
    f = turn.fighter(a.fighter)
    gone = next(s for s in f.statuses if status_label(s) == a.status)
    turn.put(replace(f, statuses=tuple(s for s in f.statuses if s is not gone)))
    turn.event(
        "gm_status_removed",
        S_(
            "the GM ends {name}'s {source} ({kind})",
            name=f.name,
            source=gone.source,
            kind=gone.kind.replace("_", " "),
        ),
        gone.rule,
        fighter=f.name,
        status=a.status,
    )
    if gone.kind in TIES and gone.other is not None and turn.state.has_fighter(gone.other):
        pair = _PAIRED.get(gone.kind, gone.kind)
        other = turn.fighter(gone.other)
        turn.put(other.without(lambda s: s.kind == pair and s.other == f.name))


def _add_condition(turn: L5Turn, a: GmAddCondition) -> None:
    f = with_disadvantage(turn.fighter(a.fighter), a.condition, turn.tables, turn.now)
    turn.put(f)
    turn.event(
        "gm_condition",
        S_("the GM gives {name} the condition {condition}", name=f.name, condition=a.condition),
        "L5.GAP.1",
        fighter=f.name,
        condition=a.condition,
    )


def _remove_condition(turn: L5Turn, a: GmRemoveCondition) -> None:
    f = turn.fighter(a.fighter)
    conditions = list(f.conditions)
    conditions.remove(a.condition)
    statuses = list(f.statuses)
    for row in turn.tables.called_shots.disadvantages.effects.get(a.condition, []):
        hit = next((s for s in statuses if s.source == a.condition and s.kind == row.kind), None)
        if hit is not None:
            statuses.remove(hit)
    turn.put(replace(f, conditions=tuple(conditions), statuses=tuple(statuses)))
    turn.event(
        "gm_condition_removed",
        S_("the GM takes the condition {condition} off {name}", condition=a.condition, name=f.name),
        "L5.GAP.1",
        fighter=f.name,
        condition=a.condition,
    )


def _danger(turn: L5Turn, a: GmDangerBehind) -> None:
    f = turn.fighter(a.fighter)
    turn.put(replace(f, character=replace(f.character, hazard_behind=a.aware)))
    text = (
        S_("the GM rules {name} knows of danger behind: may refuse a Drive", name=f.name)
        if a.aware
        else S_("the GM rules {name} sees no danger behind: gives way", name=f.name)
    )
    turn.event("gm_danger", text, "L5.DRV.1", fighter=f.name, aware=a.aware)


def _end(turn: L5Turn, a: GmEndDuel) -> None:
    end_duel(turn, a.winner, S_("ended by the GM"))


_APPLY: Handlers[L5Turn] = (
    Handlers[L5Turn]()
    .add(GmSetWounds, _set_wounds)
    .add(GmInjure, _injure)
    .add(GmRemoveStatus, _remove_status)
    .add(GmAddCondition, _add_condition)
    .add(GmRemoveCondition, _remove_condition)
    .add(GmDangerBehind, _danger)
    .add(GmEndDuel, _end)
)


def apply_gm(turn: L5Turn, action: GmAction) -> None:
    """Validate the GM's ``action`` (naming the rule) and make it."""
    check_gm(turn.state, action, turn.tables)
    _APPLY(turn, action)
