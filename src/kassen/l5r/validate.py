"""Is this decision legal now? Each check raises :class:`~kassen.core.errors.IllegalActionError` naming
the rule that forbids it, before anything is rolled or changed.

:func:`validate` checks any action of the ruleset; :func:`validate_declaration` and
:func:`validate_attack` are its parts, which the legal-action list and the heuristic also use.
"""

from __future__ import annotations

__all__ = [
    "act_allowed",
    "check_act",
    "check_attack_form",
    "check_attacker_and_target",
    "free_raises_for",
    "next_declarer",
    "skip_reason",
    "unthreatened",
    "validate",
    "validate_attack",
    "validate_declaration",
    "validate_strike",
]

from collections.abc import Callable

from kassen.core.errors import IllegalActionError
from kassen.i18n import N_, S_
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
from kassen.l5r.injuries import maim_threshold
from kassen.l5r.movement import check_reach, distance, nearest_opponent, reach, speed
from kassen.l5r.rolls import RaisePlan, attack_pool, is_blacked_out, plan_raises
from kassen.l5r.state import (
    CorpsPending,
    DrivePending,
    DuelState,
    Fighter,
    InjuryPending,
    Phase,
    ThroatPending,
)
from kassen.l5r.tables import L5Tables, SpecialAttackName
from kassen.l5r.turn import standing


def next_declarer(state: DuelState) -> FighterId | None:
    """The next character to declare this turn (lowest initiative first; L5.CORE.8).

    The declaration order holds the characters standing when the turn began (:func:`start_turn
    <kassen.l5r.flow.start_turn>` leaves out the Out, the dead and who yielded), and nothing is resolved
    until every one of them has declared, so the next one is the first who has not declared yet (dead
    or yielded ones are skipped all the same). It needs no tables: who decides is read from the state
    alone (``RULESET.to_move``)."""
    if state.phase is not Phase.DECLARE:
        return None
    for name in state.declare_order:
        f = state.fighter(name)
        if f.declared is None and not f.dead and not f.yielded:
            return name
    return None


def free_raises_for(attacker: Fighter, target: FighterId, action_index: int) -> int:
    """Free Raises the attacker holds against ``target`` for its action number ``action_index``
    (a successful disengage: L5.CAC.1, L5.CORE.4)."""
    return sum(
        s.amount
        for s in attacker.statuses
        if s.kind == "free_raise" and s.other == target and s.roll == action_index
    )


# -- the whole action -------------------------------------------------------------------------------------
def validate(state: DuelState, action: Action, tables: L5Tables) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` may be taken now."""
    check = _CHECKS.get(type(action))
    if check is None:
        raise IllegalActionError(
            S_("not an action of this ruleset: {action}", action=repr(action)), rule="L5.CORE.8"
        )
    if state.phase is Phase.OVER:
        raise IllegalActionError(S_("the duel is over"), rule="L5.CORE.6")
    check(state, action, tables)


def _begin(state: DuelState, action: Action, tables: L5Tables) -> None:
    if state.phase is not Phase.START:
        raise IllegalActionError(S_("the duel has already begun"), rule="L5.CORE.8")


def _declare(state: DuelState, action: Action, tables: L5Tables) -> None:
    assert isinstance(action, Declare)
    validate_declaration(state, action.actor, action.act, tables)
    for step in action.skipped:
        try:
            validate_declaration(state, action.actor, step, tables)
        except IllegalActionError:
            continue
        raise IllegalActionError(
            S_(
                "a script step is skipped only when it is no longer possible: {step} is", step=step.describe()
            ),
            rule="L5.CORE.8",
        )


def skip_reason(
    state: DuelState, actor: FighterId, step: Declaration, tables: L5Tables
) -> IllegalActionError:
    """Why a skipped script step is not possible now (the error :func:`validate_declaration` raises)."""
    try:
        validate_declaration(state, actor, step, tables)
    except IllegalActionError as exc:
        return exc
    raise IllegalActionError(S_("{step} is possible now", step=step.describe()), rule="L5.CORE.8")


def _pending_of(state: DuelState, kind: type, actor: FighterId, rule: str) -> None:
    p = state.pending
    if p is None or not isinstance(p, kind):
        raise IllegalActionError(
            S_("no such choice is waiting ({value})", value=type(p).__name__ if p else "none"), rule=rule
        )
    if p.chooser != actor:
        raise IllegalActionError(
            S_("{chooser} makes this choice, not {actor}", chooser=p.chooser, actor=actor), rule=rule
        )


def _choose_injury(state: DuelState, action: Action, tables: L5Tables) -> None:
    """The injury chosen must be one the hit allows (L5.CS.2), a maim only past the threshold (L5.CS.3)."""
    assert isinstance(action, ChooseInjury)
    _pending_of(state, InjuryPending, action.actor, "L5.CS.2")
    p = state.pending
    assert isinstance(p, InjuryPending)
    if action.injury is None or action.injury in p.options:
        return
    row = tables.location(p.location)
    if action.injury in row.injuries and row.injuries[action.injury].maim:
        threshold, _ = maim_threshold(state.fighter(p.target), p.location, tables)
        raise IllegalActionError(
            S_(
                "{damage} damage does not reach {threshold} needed to maim the {value}",
                damage=p.damage,
                threshold=threshold,
                value=p.location.value,
            ),
            rule="L5.CS.3",
        )
    raise IllegalActionError(
        S_("{injury} is not an injury of the {value}", injury=repr(action.injury), value=p.location.value),
        rule="L5.CS.2",
    )


def _choose_corps(state: DuelState, action: Action, tables: L5Tables) -> None:
    assert isinstance(action, ChooseCorps)
    _pending_of(state, CorpsPending, action.actor, "L5.CAC.1")


def _choose_drive(state: DuelState, action: Action, tables: L5Tables) -> None:
    assert isinstance(action, ChooseDrive)
    _pending_of(state, DrivePending, action.actor, "L5.DRV.1")


def _throat_strike(state: DuelState, action: Action, tables: L5Tables) -> None:
    assert isinstance(action, ThroatStrike)
    _pending_of(state, ThroatPending, action.actor, "L5.PTT.1")
    validate_strike(state, action, tables)


_CHECKS: dict[type, Callable[[DuelState, Action, L5Tables], None]] = {
    Begin: _begin,
    Declare: _declare,
    ChooseInjury: _choose_injury,
    ChooseCorps: _choose_corps,
    ChooseDrive: _choose_drive,
    ThroatStrike: _throat_strike,
}


# -- declarations -----------------------------------------------------------------------------------------
#: What a non-attack declaration needs: (test on the fighter, rule, what is missing).
_NEEDS: dict[ActKind, tuple[Callable[[DuelState, Fighter], bool], str, str]] = {
    ActKind.REGAIN_GRIP: (
        lambda s, f: any(x.ended_by == "regain_grip" for x in f.statuses),
        "L5.ARM.1",
        N_("{name} has no loose grip to regain"),
    ),
    ActKind.REGAIN_FOOTING: (lambda s, f: f.has("prone", s.turn), "L5.FOT.1", N_("{name} is not prone")),
    ActKind.CLEAR_VISION: (
        lambda s, f: any(x.ended_by == "clear_vision" for x in f.statuses),
        "L5.HED.1",
        N_("{name} has no blood in the eyes"),
    ),
    ActKind.FREE_WEAPON: (lambda s, f: f.has("bound", s.turn), "L5.BND.1", N_("{name} has no bound weapon")),
    ActKind.REMOVE_WEAPON: (
        lambda s, f: f.has("cannot_move", s.turn),
        "L5.FOT.1",
        N_("{name} is not pinned"),
    ),
    ActKind.RECOVER_WEAPON: (
        lambda s, f: not f.weapon_in_hand and not f.has("hand_unusable", s.turn),
        "L5.HND.1",
        N_("{name} has no dropped weapon it can pick up"),
    ),
    ActKind.HOLD_POINT: (
        lambda s, f: f.has("holding_point", s.turn),
        "L5.PTT.1",
        N_("{name} holds no point at a throat"),
    ),
    ActKind.RELEASE_BIND: (lambda s, f: f.has("binding", s.turn), "L5.BND.1", N_("{name} binds no weapon")),
    ActKind.YIELD: (
        lambda s, f: f.has("threatened", s.turn),
        "L5.PTT.1",
        N_("{name} may yield only with a point at the throat"),
    ),
}


def validate_declaration(state: DuelState, actor: FighterId, act: Declaration, tables: L5Tables) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``actor`` may declare ``act`` now."""
    if state.phase is not Phase.DECLARE or state.pending is not None:
        raise IllegalActionError(S_("this is not the declaration phase"), rule="L5.CORE.8")
    if not state.has_fighter(actor):
        raise IllegalActionError(S_("no fighter named {actor}", actor=repr(actor)), rule="L5.CORE.8")
    turn_of = next_declarer(state)
    if actor != turn_of:
        raise IllegalActionError(
            S_("{turn_of} declares now, not {actor} (lowest initiative first)", turn_of=turn_of, actor=actor),
            rule="L5.CORE.8",
        )
    f = state.fighter(actor)
    if isinstance(act, Attack):
        free = free_raises_for(f, act.target, f.declarations_made + 1)
        validate_attack(state, f, act, tables, free=free)
        return
    check_act(state, f, act, tables)


def check_act(state: DuelState, f: Fighter, act: Act, tables: L5Tables) -> None:
    """:func:`validate_declaration`'s checks of a non-attack ``act``, once it is known to be the
    declaration phase with ``f`` declaring next (the legal list checks that once per decision)."""
    actor = f.name
    kind = act.do
    if kind is ActKind.ATTACK:
        raise IllegalActionError(S_("an attack names its target and raises (Attack)"), rule="L5.CORE.3")
    if (act.target is not None) != (kind in (ActKind.MEDICAL_AID, ActKind.CLOSE)):
        raise IllegalActionError(
            S_("only medical aid and closing name a target (whom to aid, whom to close on)"),
            rule="L5.CS.4" if kind is ActKind.MEDICAL_AID else "L5.GAP.1",
        )
    if is_blacked_out(f, state.turn) and kind is not ActKind.WAIT:
        what = (
            N_("may not declare Full Defense")
            if kind is ActKind.FULL_DEFENSE
            else N_("loses the next action")
        )
        raise IllegalActionError(
            S_("{actor} is blacked out and {what}", actor=actor, what=what), rule="L5.HED.1"
        )
    locked = f.has("locked", state.turn)
    if locked and kind not in (ActKind.STRUGGLE, ActKind.DISENGAGE) and not is_blacked_out(f, state.turn):
        raise IllegalActionError(
            S_("{actor} is locked in a Corps-a-Corps: struggle or disengage", actor=actor), rule="L5.CAC.1"
        )
    if kind in (ActKind.STRUGGLE, ActKind.DISENGAGE) and not locked:
        raise IllegalActionError(S_("{actor} is not locked in a Corps-a-Corps", actor=actor), rule="L5.CAC.1")
    if kind is ActKind.MEDICAL_AID:
        _check_aid(state, f, act, tables)
    if kind in (ActKind.CLOSE, ActKind.RETREAT, ActKind.RECOVER_WEAPON):
        _check_move(state, f, act, tables)
    need = _NEEDS.get(kind)
    if need is not None and not need[0](state, f):
        raise IllegalActionError(S_(need[2], name=actor), rule=need[1])


def act_allowed(
    state: DuelState, f: Fighter, act: Act, tables: L5Tables, *, blacked: bool, locked: bool
) -> bool:
    """:func:`check_act`'s verdict, without building the refusal's message: what the legal list asks of
    every plain act of every decision. ``blacked`` and ``locked``: ``is_blacked_out(f, state.turn)`` and
    ``f.has("locked", state.turn)``, the same for every act of one decision. The acts that need more
    (aid, moving) are checked by check_act itself; ``test_legal_lists_what_validation_allows`` holds
    the list to validate_declaration."""
    kind = act.do
    if kind is ActKind.ATTACK or (act.target is not None) != (kind in (ActKind.MEDICAL_AID, ActKind.CLOSE)):
        return False
    if blacked and kind is not ActKind.WAIT:
        return False
    lock_acts = kind is ActKind.STRUGGLE or kind is ActKind.DISENGAGE
    if (locked and not lock_acts and not blacked) or (lock_acts and not locked):
        return False
    # check_act's checks must all pass, so the cheap need (a dropped weapon to recover, most often not)
    # goes first: no move worked out, no refusal built, where it already says no
    need = _NEEDS.get(kind)
    if need is not None and not need[0](state, f):
        return False
    if kind in (ActKind.MEDICAL_AID, ActKind.CLOSE, ActKind.RETREAT, ActKind.RECOVER_WEAPON):
        try:
            check_act(state, f, act, tables)
        except IllegalActionError:
            return False
    return True


def _check_aid(state: DuelState, f: Fighter, act: Act, tables: L5Tables) -> None:
    target = act.target
    if target is None or not state.has_fighter(target):
        raise IllegalActionError(S_("no fighter named {target} to aid", target=repr(target)), rule="L5.GAP.1")
    t = state.fighter(target)
    if t.side != f.side or t.dead:
        raise IllegalActionError(
            S_("{name} can aid only a living companion (or itself)", name=f.name), rule="L5.GAP.1"
        )
    stops = set(tables.called_shots.conditions.medical_aid_stops)
    if not any(s.kind in stops for s in t.statuses):
        raise IllegalActionError(
            S_("{target} has no bleeding that medical aid stops", target=target), rule="L5.CS.4"
        )


def _check_move(state: DuelState, f: Fighter, act: Act, tables: L5Tables) -> None:
    """Closing, retreating, going for a dropped weapon: the fighter must be able to move (L5.GAP.1
    position model; pinned: L5.FOT.1), toward an opponent beyond reach, away from one, to its weapon."""
    sp = speed(f, tables, state.turn)
    if act.do is ActKind.RECOVER_WEAPON:
        if f.weapon_in_hand or f.weapon_at == f.position or sp.feet:
            return
    elif act.do is ActKind.CLOSE:
        assert act.target is not None
        if not state.has_fighter(act.target) or act.target == f.name:
            raise IllegalActionError(
                S_("no opponent named {target} to close on", target=repr(act.target)), rule="L5.GAP.1"
            )
        o = state.fighter(act.target)
        if o.side == f.side or not standing(o, tables):
            raise IllegalActionError(
                S_("{name} is not an opponent in the fight", name=o.name), rule="L5.GAP.1"
            )
        if distance(f, o) <= reach(f, tables):
            raise IllegalActionError(
                S_("{name} is already within {name_2}'s reach", name=o.name, name_2=f.name), rule="L5.GAP.1"
            )
    elif nearest_opponent(state, f, tables) is None:
        raise IllegalActionError(S_("{name} has no opponent to retreat from", name=f.name), rule="L5.GAP.1")
    if sp.feet == 0:
        why = sp.stopped.source if sp.stopped is not None else "no movement"
        rule = sp.stopped.rule if sp.stopped is not None else "L5.GAP.1"
        raise IllegalActionError(S_("{name} cannot move ({why})", name=f.name, why=why), rule=rule)


# -- attacks ----------------------------------------------------------------------------------------------
def validate_attack(
    state: DuelState,
    attacker: Fighter,
    attack: Attack,
    tables: L5Tables,
    *,
    free: int,
    simultaneous: bool = False,
) -> RaisePlan:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``attacker`` may make ``attack`` now;
    return how its raises are paid."""
    check_attacker_and_target(state, attacker, attack.target, tables, simultaneous=simultaneous)
    check_attack_form(state, attacker, attack, tables)
    ap = attack_pool(attacker, tables, state.turn, full_attack=attack.full_attack)
    return plan_raises(
        attack, attacker, tables, free=free, unskilled=ap.unskilled, unskilled_rule=ap.unskilled_rule
    )


def check_attacker_and_target(
    state: DuelState,
    attacker: Fighter,
    target_name: FighterId,
    tables: L5Tables,
    *,
    simultaneous: bool = False,
) -> None:
    """:func:`validate_attack`'s first checks, which every attack on ``target_name`` shares (the target,
    the attacker's hands and weapon, reach): the legal list makes them once per target."""
    t, turn = tables, state.turn
    if target_name == attacker.name:
        raise IllegalActionError(S_("{name} cannot attack itself", name=attacker.name), rule="L5.CORE.2")
    if not state.has_fighter(target_name):
        raise IllegalActionError(
            S_("no fighter named {target_name} to attack", target_name=repr(target_name)), rule="L5.CORE.2"
        )
    target = state.fighter(target_name)
    if not standing(target, t):
        raise IllegalActionError(S_("{name} is out of the fight", name=target.name), rule="L5.CORE.6")
    if is_blacked_out(attacker, turn) and not simultaneous:
        raise IllegalActionError(
            S_("{name} is blacked out and loses the next action", name=attacker.name), rule="L5.HED.1"
        )
    if attacker.has("locked", turn):
        raise IllegalActionError(
            S_("{name} is locked in a Corps-a-Corps: struggle or disengage", name=attacker.name),
            rule="L5.CAC.1",
        )
    if not attacker.weapon_in_hand:
        raise IllegalActionError(S_("{name} has no weapon in hand", name=attacker.name), rule="L5.DSM.1")
    if attacker.has("hand_unusable", turn):
        raise IllegalActionError(S_("{name}'s weapon hand is unusable", name=attacker.name), rule="L5.HND.1")
    if attacker.has("binding", turn) or attacker.has("cannot_attack", turn):
        raise IllegalActionError(
            S_("{name}'s weapon is binding and cannot attack", name=attacker.name), rule="L5.BND.1"
        )
    check_reach(attacker, target, t, turn)


def check_attack_form(state: DuelState, attacker: Fighter, attack: Attack, tables: L5Tables) -> None:
    """:func:`validate_attack`'s checks of the attack's own form (raises, special, Foul), after
    :func:`check_attacker_and_target` and before the raises are paid."""
    t = tables
    if attack.damage_raises < 0:
        raise IllegalActionError(S_("raises for damage cannot be negative"), rule="L5.DMG.1")
    if attack.obstructs is not None and attack.special is not SpecialAttackName.FOUL:
        raise IllegalActionError(S_("only a Foul obstructs another attacker"), rule="L5.FOL.1")
    if attack.special is not None:
        row = t.special(attack.special)
        if attack.full_attack and not row.full_attack:
            raise IllegalActionError(
                S_("{value} may not be part of a Full Attack", value=attack.special.value), rule="L5.SPC.2"
            )
        if not row.damage and (attack.damage_raises or attack.called_shot is not None):
            raise IllegalActionError(
                S_(
                    "{value} deals no Wounds: no raises for damage or called shot with it",
                    value=attack.special.value,
                ),
                rule="L5.SPC.1",
            )
        if attack.special is SpecialAttackName.FOUL:
            _check_foul(state, attacker, attack, t)


def _check_foul(state: DuelState, attacker: Fighter, attack: Attack, tables: L5Tables) -> None:
    other = attack.obstructs
    if (
        other is None
        and tables.special_attacks.foul.unobstructed == "ineffective"
        and not any(
            o.side != attacker.side and o.name != attack.target and standing(o, tables)
            for o in state.fighters
        )
    ):
        # no other opponent to obstruct: the Foul is ineffective (its blow is a plain one), not illegal
        # ("at least one opponent must come after the attack ... for this action to be effective")
        return
    if other is None or other in (attack.target, attacker.name) or not state.has_fighter(other):
        raise IllegalActionError(
            S_("a Foul names another opponent for the target to obstruct"), rule="L5.FOL.1"
        )
    o = state.fighter(other)
    if o.side == attacker.side or not standing(o, tables):
        raise IllegalActionError(S_("{other} is not an opponent in the fight", other=other), rule="L5.FOL.1")


def validate_strike(state: DuelState, action: ThroatStrike, tables: L5Tables) -> RaisePlan:
    """The Point-to-throat holder's extra attack (L5.PTT.1): at the threatened, a plain attack (raises
    for damage and called shots; Subdue's lighter blow too, not a Full Attack, not a Foul), with the
    Free Raises, as if the point were already withdrawn."""
    p = state.pending
    assert isinstance(p, ThroatPending)
    attack = action.attack
    if attack.target != p.threatened:
        raise IllegalActionError(
            S_("the extra attack strikes {threatened}, whose throat is threatened", threatened=p.threatened),
            rule="L5.PTT.1",
        )
    if (
        attack.full_attack
        or attack.special is SpecialAttackName.FOUL
        or (attack.special is not None and not tables.special(attack.special).damage)
    ):
        raise IllegalActionError(
            S_("the extra attack is a plain attack: raises for damage and called shots only"), rule="L5.PTT.1"
        )
    free = tables.special_attacks.point_to_throat.free_raises
    freed = unthreatened(state, action.actor, p.threatened)
    return validate_attack(freed, freed.fighter(action.actor), attack, tables, free=free)


def unthreatened(state: DuelState, holder: FighterId, threatened: FighterId) -> DuelState:
    """``state`` with the holder's point at ``threatened``'s throat withdrawn."""
    h = state.fighter(holder).without(lambda s: s.kind == "holding_point" and s.other == threatened)
    v = state.fighter(threatened).without(lambda s: s.kind == "threatened" and s.other == holder)
    return state.with_fighter(h).with_fighter(v)
