"""One action through the arena's rules, on the core's skeleton: :func:`resolve` validates the action
(nothing rolled, :class:`~kassen.core.errors.IllegalActionError` naming the rule) and runs its handler;
:func:`follow_up` is one automatic step — the next task on the agenda, a slot passing over a fighter
that cannot act, the end of a subturn, the end of the bout. The core drains it under its one cap
(:data:`kassen.core.engine.MAX_AUTOMATIC_STEPS`) until a fighter must decide or the bout is over.
"""

from __future__ import annotations

__all__ = ["follow_up", "resolve"]


from kassen.arena.bout.actions import apply_action
from kassen.arena.bout.legal import validate
from kassen.arena.bout.reading import can_act, can_guts, helpless, override_effects
from kassen.arena.bout.state import Action, BoutState, EndSubturn, Offer, StartSubturn
from kassen.arena.bout.tasks import TASK_HANDLERS
from kassen.arena.bout.turn import BoutTurn, as_bout_turn, with_no_defense, with_slot
from kassen.arena.fighter import FighterState
from kassen.arena.terms import Condition
from kassen.core.engine import Turn
from kassen.core.fastreplace import replace
from kassen.core.order import slots
from kassen.i18n import N_, S_

#: Task type → handler, read by one lookup: some sixty tasks an action run through it.
_TASKS = TASK_HANDLERS.table


def resolve(turn: BoutTurn, action: Action) -> None:
    """Validate ``action``, then apply it to ``turn``."""
    validate(turn.state, action, turn.rules)
    apply_action(turn, action)


def follow_up(turn: Turn[BoutState]) -> bool:
    """One automatic step; False when a fighter must decide (a slot or an offer) or the bout is over.
    The ruleset's own hook (:meth:`kassen.arena.ruleset.ArenaRuleset.follow_up`, some sixty steps an
    action): ``turn`` must be the one its start() made."""
    if type(turn) is not BoutTurn:
        turn = as_bout_turn(turn)
    if turn.state.offers:  # most steps have none to look at
        _drop_stale_offers(turn)
    s = turn.state
    if s.result is not None or s.offers:
        return False
    task = turn.next_task()
    if task is not None:
        _TASKS[type(task)](turn, task)
        return True
    if not s.started:  # before the referee's Begin only the referee's own moves come: no slot passes
        return False
    if _over(turn):
        return False
    if s.slot < len(s.order):
        # the slots of the subturn in order, passing over who cannot take one (a stunned fighter takes
        # its slot to defend or try to recover: AR.STN.1)
        at = slots(s.order, s.slot, lambda fid: _takes_slot(turn.f(fid), turn))
        end = len(s.order) if at is None else at
        # an all-out attack's "no defence" lasts until the fighter's next slot (AR.FTG.1, AR.GAP.2): it
        # ends when that slot comes, whether the fighter takes it or it is passed over (aerial, FP 1...)
        for fid in s.order[s.slot : end + 1 if at is not None else end]:
            f = turn.f(fid)
            if f.no_defense:
                turn.put(with_no_defense(f, False))
                turn.log("defense_back", "AR.FTG.1", fighter=fid)
        if at == s.slot:
            return False
        turn.state = with_slot(turn.state, end)
        return True
    if s.subturn >= turn.rules.match.match.max_subturns:
        turn.finish(None, S_("no decision after {subturns} subturns", subturns=s.subturn))
        return False
    turn.push(EndSubturn(), StartSubturn())
    return True


def _takes_slot(f: FighterState, turn: BoutTurn) -> bool:
    return can_act(f, turn.rules) or (f.stunned and not f.incapacitated and not f.lost)


def _drop_stale_offers(turn: BoutTurn) -> None:
    """Offers whose state has gone (or whose fighter is out) are dropped; one the fighter has no way
    to answer but declining stands at once."""
    if not turn.state.offers:
        return
    offers = list(turn.state.offers)
    while offers:
        o = offers[0]
        f = turn.f(o.fighter)
        if o.condition == "helpless":
            valid = helpless(f, turn.rules) and not f.lost and not f.incapacitated
        else:
            valid = Condition(o.condition) in f.conditions and not f.lost and not f.has(Condition.DEAD)
            if valid and not _offer_has_choice(turn, f, o):
                turn.state = replace(turn.state, offers=tuple(offers[1:]))
                turn.stays(o.fighter, o.condition, o.rule, o.cause)
                offers = list(turn.state.offers)
                continue
        if valid:
            break
        offers.pop(0)
        turn.state = replace(turn.state, offers=tuple(offers))


def _offer_has_choice(turn: BoutTurn, f: FighterState, o: Offer) -> bool:
    return can_guts(f, turn.rules) or bool(override_effects(f, o.condition, turn.rules))


def _over(turn: BoutTurn) -> bool:
    """Ends the bout when at most one side still stands (in a match: has not lost; in a fight: can
    act)."""
    s = turn.state
    if not s.started:
        return False
    match, rules = turn.match(), turn.rules
    standing: list[str] = []  # each side with someone still standing (the order only read when one)
    for f in s.fighters:
        side = f.profile.side
        if side not in standing and (not f.lost if match else not (f.incapacitated or helpless(f, rules))):
            standing.append(side)
    if len(standing) > 1:
        return False
    if standing:
        turn.finish(standing[0], S_("only {side} still stands", side=standing[0]))
    else:
        turn.finish(None, N_("no side still stands"))
    return True
