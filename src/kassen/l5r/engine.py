"""The roll-and-keep ruleset on the shared :class:`~kassen.core.events.Chronicle`.

``L5Ruleset`` supplies what the core asks of a ruleset: :meth:`~L5Ruleset.legal_actions` and a pure
:meth:`~L5Ruleset.apply` (validate the decision, resolve it and everything automatic after it, return the
new state and the events), plus JSON for states and actions. An illegal action raises
:class:`~kassen.core.errors.IllegalActionError` naming its rule and changes nothing. It is registered as
``"l5r"``, so ``Chronicle.replay`` finds it.
"""

from __future__ import annotations

__all__ = ["RULESET", "L5Ruleset", "validate_declaration"]

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from kassen.core.errors import IllegalActionError
from kassen.core.events import Event, JSONValue, register_ruleset
from kassen.core.rng import Rng
from kassen.l5r.actions import (
    Act,
    Action,
    ActKind,
    Attack,
    Begin,
    ChooseCorps,
    ChooseDrive,
    ChooseInjury,
    Declaration,
    Declare,
    ThroatStrike,
)
from kassen.l5r.character import FighterId
from kassen.l5r.codec import from_json, to_json
from kassen.l5r.flow import advance, next_declarer, start_turn
from kassen.l5r.resolve import (
    choose_corps,
    choose_drive,
    choose_injury,
    free_raises_for,
    throat_strike,
    validate_attack,
)
from kassen.l5r.rolls import is_blacked_out, raise_cost, raise_limit
from kassen.l5r.state import (
    CorpsPending,
    DrivePending,
    DuelState,
    Fighter,
    InjuryPending,
    Phase,
    ThroatPending,
)
from kassen.l5r.tables import Location, SpecialAttackName
from kassen.l5r.util import event, standing

Out = list[Event]

#: What a non-attack declaration needs: (test on the fighter, rule, what is missing).
_NEEDS: dict[ActKind, tuple[Callable[[DuelState, Fighter], bool], str, str]] = {
    ActKind.REGAIN_GRIP: (
        lambda s, f: any(x.ended_by == "regain_grip" for x in f.statuses),
        "L5.ARM.1",
        "has no loose grip to regain",
    ),
    ActKind.REGAIN_FOOTING: (lambda s, f: f.has("prone", s.turn), "L5.FOT.1", "is not prone"),
    ActKind.CLEAR_VISION: (
        lambda s, f: any(x.ended_by == "clear_vision" for x in f.statuses),
        "L5.HED.1",
        "has no blood in the eyes",
    ),
    ActKind.FREE_WEAPON: (lambda s, f: f.has("bound", s.turn), "L5.BND.1", "has no bound weapon"),
    ActKind.REMOVE_WEAPON: (lambda s, f: f.has("cannot_move", s.turn), "L5.FOT.1", "is not pinned"),
    ActKind.RECOVER_WEAPON: (
        lambda s, f: not f.weapon_in_hand and not f.has("hand_unusable", s.turn),
        "L5.HND.1",
        "has no dropped weapon it can pick up",
    ),
    ActKind.HOLD_POINT: (
        lambda s, f: f.has("holding_point", s.turn),
        "L5.PTT.1",
        "holds no point at a throat",
    ),
    ActKind.RELEASE_BIND: (lambda s, f: f.has("binding", s.turn), "L5.BND.1", "binds no weapon"),
    ActKind.YIELD: (
        lambda s, f: f.has("threatened", s.turn),
        "L5.PTT.1",
        "may yield only with a point at the throat",
    ),
}


def validate_declaration(state: DuelState, actor: FighterId, act: Declaration) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``actor`` may declare ``act`` now."""
    if state.phase is not Phase.DECLARE or state.pending is not None:
        raise IllegalActionError("this is not the declaration phase", rule="L5.CORE.8")
    if not state.has_fighter(actor):
        raise IllegalActionError(f"no fighter named {actor!r}", rule="L5.CORE.8")
    turn_of = next_declarer(state)
    if actor != turn_of:
        raise IllegalActionError(
            f"{turn_of} declares now, not {actor} (lowest initiative first)", rule="L5.CORE.8"
        )
    f = state.fighter(actor)
    if isinstance(act, Attack):
        validate_attack(state, f, act, free=free_raises_for(f, act.target, f.declarations_made + 1))
        return
    kind = act.kind
    if kind is ActKind.ATTACK:
        raise IllegalActionError("an attack names its target and raises (Attack)", rule="L5.CORE.3")
    if (act.target is not None) != (kind is ActKind.MEDICAL_AID):
        raise IllegalActionError("only medical aid names a target", rule="L5.CS.4")
    if is_blacked_out(f, state.turn) and kind is not ActKind.WAIT:
        what = "may not declare Full Defense" if kind is ActKind.FULL_DEFENSE else "loses the next action"
        raise IllegalActionError(f"{actor} is blacked out and {what}", rule="L5.HED.1")
    locked = f.has("locked", state.turn)
    if locked and kind not in (ActKind.STRUGGLE, ActKind.DISENGAGE) and not is_blacked_out(f, state.turn):
        raise IllegalActionError(
            f"{actor} is locked in a Corps-a-Corps: struggle or disengage", rule="L5.CAC.1"
        )
    if kind in (ActKind.STRUGGLE, ActKind.DISENGAGE) and not locked:
        raise IllegalActionError(f"{actor} is not locked in a Corps-a-Corps", rule="L5.CAC.1")
    if kind is ActKind.MEDICAL_AID:
        _check_aid(state, f, act)
    need = _NEEDS.get(kind)
    if need is not None and not need[0](state, f):
        raise IllegalActionError(f"{actor} {need[2]}", rule=need[1])


def _check_aid(state: DuelState, f: Fighter, act: Act) -> None:
    target = act.target
    if target is None or not state.has_fighter(target):
        raise IllegalActionError(f"no fighter named {target!r} to aid", rule="L5.GAP.1")
    t = state.fighter(target)
    if t.side != f.side or t.dead:
        raise IllegalActionError(f"{f.name} can aid only a living companion (or itself)", rule="L5.GAP.1")
    stops = set(state.tables.called_shots.conditions.medical_aid_stops)
    if not any(s.kind in stops for s in t.statuses):
        raise IllegalActionError(f"{target} has no bleeding that medical aid stops", rule="L5.CS.4")


# -- legal actions ----------------------------------------------------------------------------------------
def _attack_candidates(
    state: DuelState, f: Fighter, target: Fighter, free: int, *, strike: bool = False
) -> Iterator[Attack]:
    t = state.tables
    limit = raise_limit(f, t)
    # no limit: the list stops at the data's max_enumerated_raises (L5.CORE.3 house default)
    budget = (t.core.raises.max_enumerated_raises if limit is None else limit) + free
    opponents = [
        o.name for o in state.fighters if o.side != f.side and o.name != target.name and standing(o, t)
    ]
    for full in (False,) if strike else (False, True):
        for special in (None, *SpecialAttackName):
            row = None if special is None else t.special(special)
            if strike and row is not None and not row.damage:
                continue
            if row is not None and not row.damage:
                yield Attack(target.name, special=special, full_attack=full)
                continue
            obstructs: list[FighterId | None] = [None]
            if special is SpecialAttackName.FOUL:
                if strike:
                    continue
                obstructs = list(opponents)
            for loc in (None, *Location):
                for dmg in range(budget + 1):
                    for other in obstructs:
                        a = Attack(target.name, dmg, loc, special, full, other)
                        if raise_cost(a, t)[0] <= budget:
                            yield a


def _declarations(state: DuelState, actor: FighterId) -> list[Declaration]:
    f = state.fighter(actor)
    t = state.tables
    out: list[Declaration] = []
    for kind in ActKind:
        if kind is ActKind.ATTACK:
            continue
        if kind is ActKind.MEDICAL_AID:
            out += [Act(kind, o.name) for o in state.fighters if o.side == f.side]
        else:
            out.append(Act(kind))
    for target in state.fighters:  # any other fighter still standing, allies included
        if target.name != f.name and standing(target, t):
            free = free_raises_for(f, target.name, f.declarations_made + 1)
            out += list(_attack_candidates(state, f, target, free))
    legal: list[Declaration] = []
    for d in out:
        try:
            validate_declaration(state, actor, d)
        except IllegalActionError:
            continue
        legal.append(d)
    return legal


def _choices(state: DuelState) -> list[Action]:
    p = state.pending
    if isinstance(p, InjuryPending):
        injuries: list[Action] = [ChooseInjury(p.chooser, o) for o in p.options]
        return [*injuries, ChooseInjury(p.chooser, None)]
    if isinstance(p, CorpsPending):
        return [ChooseCorps(p.chooser, "disengage"), ChooseCorps(p.chooser, "struggle")]
    if isinstance(p, DrivePending):
        return [ChooseDrive(p.chooser, "give_way"), ChooseDrive(p.chooser, "refuse")]
    if isinstance(p, ThroatPending):
        holder, target = state.fighter(p.chooser), state.fighter(p.threatened)
        free = state.tables.special_attacks.point_to_throat.free_raises
        strikes: list[Action] = []
        for a in _attack_candidates(state, holder, target, free, strike=True):
            try:
                validate_attack(state, holder, a, free=free)
            except IllegalActionError:
                continue
            strikes.append(ThroatStrike(p.chooser, a))
        return strikes
    return []


# -- applying ---------------------------------------------------------------------------------------------
def _begin(state: DuelState, action: Any, rng: Rng, out: Out) -> DuelState:
    if state.phase is not Phase.START:
        raise IllegalActionError("the duel has already begun", rule="L5.CORE.8")
    out.append(event("begin", "the duel begins: " + " vs ".join(f.name for f in state.fighters), "L5.CORE.8"))
    return start_turn(state, rng, out)


def _declare(state: DuelState, action: Any, rng: Rng, out: Out) -> DuelState:
    assert isinstance(action, Declare)
    validate_declaration(state, action.actor, action.act)
    f = state.fighter(action.actor)
    f = replace(f, declared=action.act, declarations_made=f.declarations_made + 1)
    out.append(
        event(
            "declare",
            f"{action.actor} declares: {action.act.describe()}",
            "L5.CORE.8",
            fighter=action.actor,
            act=to_json(action.act),
        )
    )
    return state.with_fighter(f)


def _pending_of(state: DuelState, kind: type, actor: FighterId, rule: str) -> None:
    p = state.pending
    if p is None or not isinstance(p, kind):
        raise IllegalActionError(
            f"no such choice is waiting ({type(p).__name__ if p else 'none'})", rule=rule
        )
    if p.chooser != actor:
        raise IllegalActionError(f"{p.chooser} makes this choice, not {actor}", rule=rule)


def _choose_injury(state: DuelState, action: Any, rng: Rng, out: Out) -> DuelState:
    _pending_of(state, InjuryPending, action.actor, "L5.CS.2")
    return choose_injury(state, action, out)


def _choose_corps(state: DuelState, action: Any, rng: Rng, out: Out) -> DuelState:
    _pending_of(state, CorpsPending, action.actor, "L5.CAC.1")
    return choose_corps(state, action, rng, out)


def _choose_drive(state: DuelState, action: Any, rng: Rng, out: Out) -> DuelState:
    _pending_of(state, DrivePending, action.actor, "L5.DRV.1")
    return choose_drive(state, action, rng, out)


def _throat_strike(state: DuelState, action: Any, rng: Rng, out: Out) -> DuelState:
    _pending_of(state, ThroatPending, action.actor, "L5.PTT.1")
    return throat_strike(state, action, rng, out)


_APPLY: dict[type, Callable[[DuelState, Any, Rng, Out], DuelState]] = {
    Begin: _begin,
    Declare: _declare,
    ChooseInjury: _choose_injury,
    ChooseCorps: _choose_corps,
    ChooseDrive: _choose_drive,
    ThroatStrike: _throat_strike,
}


class L5Ruleset:
    """The roll-and-keep raises ruleset (seed 003, ledger ``L5.*``) for :class:`~kassen.core.Chronicle`."""

    name = "l5r"

    def legal_actions(self, state: DuelState) -> Sequence[Action]:
        if state.phase is Phase.OVER:
            return []
        if state.phase is Phase.START:
            return [Begin()]
        if state.pending is not None:
            return _choices(state)
        actor = next_declarer(state)
        if actor is None:
            return []
        return [Declare(actor, d) for d in _declarations(state, actor)]

    def apply(self, state: DuelState, action: Action, rng: Rng) -> tuple[DuelState, Sequence[Event]]:
        """Validate and resolve ``action``, then everything automatic until the next decision. Pure."""
        handler = _APPLY.get(type(action))
        if handler is None:
            raise IllegalActionError(f"not an action of this ruleset: {action!r}", rule="L5.CORE.8")
        if state.phase is Phase.OVER:
            raise IllegalActionError("the duel is over", rule="L5.CORE.6")
        out: Out = []
        state = handler(state, action, rng, out)
        state = advance(state, rng, out)
        return state, out

    def is_over(self, state: DuelState) -> bool:
        return state.phase is Phase.OVER

    def state_to_json(self, state: DuelState) -> JSONValue:
        return to_json(state)

    def state_from_json(self, data: JSONValue) -> DuelState:
        value: DuelState = from_json(DuelState, data)
        return value

    def action_to_json(self, action: Action) -> JSONValue:
        return to_json(action)

    def action_from_json(self, data: JSONValue) -> Action:
        value: Action = from_json(Action, data)
        return value


RULESET = L5Ruleset()
register_ruleset(RULESET)
