"""The turn loop: initiative, declaration, resolution, and the timing of injuries (L5.CORE.8).

Each turn: bloody gashes bleed (L5.LEG.1); everyone standing rolls initiative (L5.CORE.8; dazed and
stunned change it, a stumble loses it); characters declare from the lowest initiative to the highest
(a character who lost initiative first); once all have declared, Full Defense rolls are made
(L5.CORE.7); actions resolve from the highest initiative to the lowest (who lost initiative last);
at the end of the turn, losing blood (L5.TOR.1) and maims (L5.CS.4) bleed and statuses expire.

:func:`advance` runs everything automatic until a decision is needed (a declaration or a choice) or the
duel is over; the ruleset calls it after every decision.
"""

from __future__ import annotations

__all__ = ["ACTS", "advance", "check_over", "decision_maker", "next_declarer", "start_turn"]

from collections.abc import Callable
from dataclasses import replace

from kassen.core.events import Event
from kassen.core.explain import Step
from kassen.core.rng import Rng
from kassen.l5r.actions import Act, ActKind, Attack, Declaration
from kassen.l5r.character import FighterId
from kassen.l5r.injuries import bleeding_due, end_by_action, expire
from kassen.l5r.pool import roll_pool
from kassen.l5r.resolve import (
    add_wounds,
    disengage,
    release_bind,
    release_ties,
    resolve_attack,
    struggle,
)
from kassen.l5r.rolls import full_defense_pool, initiative_pool, is_blacked_out, skill_pool, wound_penalty
from kassen.l5r.state import DuelState, Exchange, Fighter, Phase, ThroatPending
from kassen.l5r.util import event, standing

Out = list[Event]


# -- who decides ------------------------------------------------------------------------------------------
def next_declarer(state: DuelState) -> FighterId | None:
    """The next character to declare this turn (lowest initiative first; L5.CORE.8)."""
    if state.phase is not Phase.DECLARE:
        return None
    for name in state.declare_order:
        f = state.fighter(name)
        if f.declared is None and standing(f, state.tables):
            return name
    return None


def decision_maker(state: DuelState) -> FighterId | None:
    """Who must decide now (``None`` at the start, when only Begin is possible, and when over)."""
    if state.phase is Phase.OVER:
        return None
    if state.pending is not None:
        return state.pending.chooser
    return next_declarer(state)


# -- the loop ---------------------------------------------------------------------------------------------
def advance(state: DuelState, rng: Rng, out: Out) -> DuelState:
    """Resolve everything that needs no decision; stop at a decision or at the end of the duel."""
    while True:
        if state.exchange is not None and state.pending is None and state.phase is Phase.RESOLVE:
            # both actions of a Point-to-throat exchange resolve before anyone is counted out (L5.PTT.1)
            state = _resolve_next(state, rng, out)
            continue
        if state.pending is not None:  # a choice made mid-resolution is made even if it ends the duel
            return state
        state = check_over(state, out)
        if state.phase is Phase.OVER:
            return state
        if state.phase is Phase.DECLARE:
            if next_declarer(state) is not None:
                return state
            state = replace(state, phase=Phase.RESOLVE, cursor=0)
            continue
        if state.phase is Phase.RESOLVE:
            before = state
            state = _roll_full_defenses(state, rng, out)
            if state is not before:
                continue
            if state.cursor < len(state.act_order):
                state = _resolve_next(state, rng, out)
                continue
            state = _end_turn(state, out)
            state = check_over(state, out)
            if state.phase is Phase.OVER:
                return state
            state = start_turn(state, rng, out)
            continue
        return state


def check_over(state: DuelState, out: Out) -> DuelState:
    """End the duel when one side (or none) is left standing, or at first blood (``ends_at``)."""
    if state.phase is Phase.OVER or state.phase is Phase.START:
        return state
    t = state.tables
    if state.ends_at == "first_blood":
        bloodied = {f.side for f in state.fighters if f.bloodied}
        if bloodied:
            others = sorted({f.side for f in state.fighters} - bloodied)
            winner = others[0] if len(others) == 1 else None
            return _over(state, winner, "first blood", out)
    sides = sorted({f.side for f in state.fighters if standing(f, t)})
    if len(sides) <= 1:
        return _over(state, sides[0] if sides else None, "the other side is out of the fight", out)
    return state


def _over(state: DuelState, winner: str | None, why: str, out: Out) -> DuelState:
    text = f"the duel is over ({why}): " + (f"{winner} wins" if winner else "no winner")
    out.append(event("over", text, automatic=True, winner=winner, turn=state.turn))
    return replace(state, phase=Phase.OVER, winner=winner, result=text, pending=None)


# -- start and end of a turn ------------------------------------------------------------------------------
def start_turn(state: DuelState, rng: Rng, out: Out) -> DuelState:
    """A new turn: start-of-turn bleeding (L5.LEG.1), then initiative and the orders (L5.CORE.8)."""
    t = state.tables
    turn = state.turn + 1
    if turn > state.max_turns:
        return _over(state, None, f"no decision in {state.max_turns} turns", out)
    state = replace(state, turn=turn, cursor=0, pending=None, exchange=None, phase=Phase.DECLARE)
    out.append(event("turn", f"turn {turn}", "L5.CORE.8", automatic=True, turn=turn))
    for f in state.fighters:
        for status, amount, rule in bleeding_due(f, t, turn, "start"):
            state = add_wounds(
                state,
                f.name,
                amount,
                out,
                reason=f"{status.source}, at the start of the turn",
                rule=rule,
                automatic=True,
            )
    state = check_over(state, out)
    if state.phase is Phase.OVER:
        return state
    ranking: list[tuple[tuple[int, int, int, int, int], FighterId]] = []
    for index, f in enumerate(state.fighters):
        if not standing(f, t):
            continue
        pool, change, steps = initiative_pool(f, t, turn)
        r = roll_pool(pool, rng, "initiative roll", "L5.CORE.8")
        total = r.total + change
        loses = f.has("lose_initiative", turn)
        all_steps = [*steps, *r.steps]
        if change:
            all_steps.append(Step(total, "initiative after injuries", "L5.CORE.8"))
        if loses:
            src = f.active("lose_initiative", turn)[0]
            all_steps.append(Step(0, f"{src.source}: loses initiative (declares first, acts last)", src.rule))
        state = state.with_fighter(replace(f, initiative=total))
        out.append(
            event(
                "initiative",
                f"{f.name} rolls {total} for initiative" + (" but loses initiative" if loses else ""),
                "L5.CORE.8",
                steps=all_steps,
                automatic=True,
                fighter=f.name,
                total=total,
            )
        )
        c = f.character
        ranking.append(((1 if loses else 0, -total, -c.reflexes, -c.insight_rank, index), f.name))
    act_order = tuple(name for _, name in sorted(ranking))
    return replace(state, act_order=act_order, declare_order=tuple(reversed(act_order)))


def _end_turn(state: DuelState, out: Out) -> DuelState:
    """End-of-turn bleeding (L5.TOR.1 losing blood, L5.CS.4 maims), expiry, and a fresh slate."""
    t, turn = state.tables, state.turn
    for f in state.fighters:
        if f.dead:
            continue
        for status, amount, rule in bleeding_due(f, t, turn, "end"):
            why = "maimed: bleeds every Earth turns" if status.kind == "maim_bleed" else status.source
            state = add_wounds(state, f.name, amount, out, reason=why, rule=rule, automatic=True)
    fighters = []
    for f in state.fighters:
        f, ended = expire(f, turn)
        for s in ended:
            if s.kind not in ("obstructed", "cannot_attack", "free_raise"):
                out.append(
                    event(
                        "status_ended", f"{f.name}: {s.source} ends", s.rule, automatic=True, fighter=f.name
                    )
                )
        f = _drop_used_free_raises(f)
        fighters.append(
            replace(f, declared=None, acted=False, full_defense_bonus=0, full_defense_rolled=False)
        )
    return replace(state, fighters=tuple(fighters), exchange=None)


def _drop_used_free_raises(f: Fighter) -> Fighter:
    """A Free Raise for "the next action only" (L5.CAC.1) is gone once that action has passed."""
    used = f.declarations_made
    return f.without(lambda s: s.kind == "free_raise" and s.roll <= used)


# -- resolution -------------------------------------------------------------------------------------------
def _roll_full_defenses(state: DuelState, rng: Rng, out: Out) -> DuelState:
    """Full Defense rolls, once all have declared: half the total is added to the TN to be hit for the
    turn (L5.CORE.7). A threatened throat: the bonus is settled, then the holder strikes (L5.PTT.1)."""
    t, turn = state.tables, state.turn
    for name in state.declare_order:
        f = state.fighter(name)
        declared = f.declared
        if not (isinstance(declared, Act) and declared.kind is ActKind.FULL_DEFENSE) or f.full_defense_rolled:
            continue
        pool, steps = full_defense_pool(f, t, turn)
        r = roll_pool(pool, rng, "Full Defense roll", "L5.CORE.7")
        bonus = r.total // t.core.full_defense.bonus_divisor
        state = state.with_fighter(replace(f, full_defense_bonus=bonus, full_defense_rolled=True))
        out.append(
            event(
                "full_defense",
                f"{name} takes Full Defense: rolls {r.total}, +{bonus} TN to be hit",
                "L5.CORE.7",
                steps=(*steps, *r.steps, Step(bonus, "half the roll, rounded down", "L5.CORE.7")),
                fighter=name,
                bonus=bonus,
            )
        )
        if f.has("threatened", turn) and "full_defense" in t.special_attacks.point_to_throat.triggers:
            return _trigger_point(state, name, out, exchange=False)
        return state
    return state


def _trigger_point(state: DuelState, name: FighterId, out: Out, *, exchange: bool) -> DuelState:
    """The threatened moved (L5.PTT.1): the holder gets the extra attack, if able to make one."""
    t, turn = state.tables, state.turn
    threat = state.fighter(name).active("threatened", turn)[0]
    holder = state.fighter(threat.other) if threat.other is not None else None
    able = (
        holder is not None
        and standing(holder, t)
        and holder.weapon_in_hand
        and not is_blacked_out(holder, turn)
        and not holder.has("hand_unusable", turn)
    )
    if not able:
        out.append(
            event(
                "point_to_throat",
                f"the point at {name}'s throat lapses: the holder cannot strike",
                "L5.PTT.1",
                automatic=True,
            )
        )
        return state.with_fighter(state.fighter(name).without(lambda s: s.kind == "threatened"))
    assert holder is not None
    ex = Exchange(name, state.fighter(name).wounds) if exchange else None
    return replace(state, pending=ThroatPending(holder.name, name), exchange=ex)


def _resolve_next(state: DuelState, rng: Rng, out: Out) -> DuelState:
    """Resolve the action of the next character in the act order."""
    t, turn = state.tables, state.turn
    name = state.act_order[state.cursor]
    f = state.fighter(name)
    ex = state.exchange if state.exchange is not None and state.exchange.actor == name else None
    if f.acted:
        return replace(state, cursor=state.cursor + 1, exchange=None)
    act = f.declared
    if ex is None:
        lost = _lost_action(state, name)
        if lost is not None:
            state, text, rule = lost
            out.append(event("lost_action", text, rule, fighter=name))
            f = state.fighter(name)
            return replace(state, cursor=state.cursor + 1).with_fighter(replace(f, acted=True))
        assert act is not None
        if act.kind is not ActKind.HOLD_POINT and f.has("holding_point", turn):
            state = _withdraw_point(state, name, out)
        if (
            state.fighter(name).has("threatened", turn)
            and act.kind.value in t.special_attacks.point_to_throat.triggers
        ):
            return _trigger_point(state, name, out, exchange=True)
    assert act is not None
    state = replace(state, cursor=state.cursor + 1)
    state = state.with_fighter(replace(state.fighter(name), acted=True))
    handler = ACTS[act.kind]
    state = handler(state, name, act, rng, out, ex)
    return replace(state, exchange=None) if ex is not None else state


def _lost_action(state: DuelState, name: FighterId) -> tuple[DuelState, str, str] | None:
    """Why the character's action is lost now, if it is: Out, blackout, locked."""
    t, turn = state.tables, state.turn
    f = state.fighter(name)
    if not standing(f, t):
        return state, f"{name} is out of the fight and does not act", "L5.CORE.6"
    if is_blacked_out(f, turn):
        blackout = f.active("blackout", turn)[0]
        rest = tuple(s for s in f.statuses if s is not blackout)
        if blackout.amount > 1:
            rest = (*rest, replace(blackout, amount=blackout.amount - 1))
        state = state.with_fighter(replace(f, statuses=rest))
        return state, f"{name} is blacked out ({blackout.source}) and loses this action", blackout.rule
    act = f.declared
    if act is None:
        return state, f"{name} declared nothing", "L5.CORE.8"
    if f.has("locked", turn) and act.kind not in (ActKind.STRUGGLE, ActKind.DISENGAGE):
        return (
            state,
            f"{name} is locked in a Corps-a-Corps: the declared {act.kind.value} is lost",
            "L5.CAC.1",
        )
    return None


def _withdraw_point(state: DuelState, name: FighterId, out: Out) -> DuelState:
    f = state.fighter(name)
    held = [s.other for s in f.active("holding_point", state.turn)]
    state = state.with_fighter(f.without(lambda s: s.kind == "holding_point"))
    for other in held:
        if other is not None:
            o = state.fighter(other)
            state = state.with_fighter(o.without(lambda s: s.kind == "threatened" and s.other == name))
            out.append(
                event("point_to_throat", f"{name} withdraws the point from {other}'s throat", "L5.PTT.1")
            )
    return state


# -- what each declaration does ---------------------------------------------------------------------------
ActHandler = Callable[[DuelState, FighterId, Declaration, Rng, Out, Exchange | None], DuelState]


def _attack(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    assert isinstance(act, Attack)
    wounds = ex.wounds_before if ex is not None else None
    return resolve_attack(state, name, act, rng, out, attacker_wounds=wounds, simultaneous=ex is not None)


def _full_defense(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    bonus = state.fighter(name).full_defense_bonus
    out.append(
        event(
            "full_defense",
            f"{name} stays on Full Defense (+{bonus} TN to be hit this turn)",
            "L5.CORE.7",
            fighter=name,
        )
    )
    return state


def _wait(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    out.append(event("wait", f"{name} waits", fighter=name))
    return state


def _yield(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    state = state.with_fighter(replace(state.fighter(name), yielded=True))
    out.append(event("yield", f"{name} yields", "L5.PTT.1", fighter=name))
    return release_ties(state, name, out)


def _ending(action: str, rule: str, text: str) -> ActHandler:
    def handler(
        state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
    ) -> DuelState:
        f, ended = end_by_action(state.fighter(name), action)
        out.append(
            event(action, f"{name} {text}" + ("" if ended else " (nothing to end)"), rule, fighter=name)
        )
        return state.with_fighter(f)

    return handler


def _clear_vision(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    """A full turn at the reduced TN, then the eyes are clear (L5.HED.1)."""
    f = state.fighter(name)
    statuses = tuple(
        replace(s, end_turn=state.turn) if s.ended_by == "clear_vision" else s for s in f.statuses
    )
    out.append(
        event(
            "clear_vision",
            f"{name} spends the turn clearing the blood from the eyes (clear at the end of the turn)",
            "L5.HED.1",
            fighter=name,
        )
    )
    return state.with_fighter(replace(f, statuses=statuses))


def _free_weapon(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    """Agility + Weapon Skill at full value against the Bind roll (L5.BND.1)."""
    t, turn = state.tables, state.turn
    f = state.fighter(name)
    binds = f.active("bound", turn)
    if not binds:
        out.append(event("free_weapon", f"{name}'s weapon is no longer bound", "L5.BND.1", fighter=name))
        return state
    bind = binds[0]
    c = f.character
    pool, steps = skill_pool(
        f,
        t,
        turn,
        trait=c.agility,
        trait_name="Agility",
        skill=c.weapon_skill,
        skill_name=f"{c.weapon.skill} (full value)",
        kinds=("skill",),
    )
    penalty, pen_steps = wound_penalty(f, t)
    tn = bind.roll + penalty
    r = roll_pool(pool, rng, "roll to free the weapon", "L5.BND.1")
    ok = r.total >= tn
    out.append(
        event(
            "free_weapon",
            f"{name} tries to free the weapon: {r.total} against TN {tn}: {'freed' if ok else 'still bound'}",
            "L5.BND.1",
            steps=(*steps, Step(bind.roll, "TN: the Bind roll", "L5.BND.1"), *pen_steps, *r.steps),
            fighter=name,
            success=ok,
        )
    )
    if ok and bind.other is not None:
        state = release_bind(state, name, bind.other)
    return state


def _recover_weapon(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    f = state.fighter(name)
    if f.has("hand_unusable", state.turn):
        out.append(event("lost_action", f"{name}'s hand is unusable: cannot recover the weapon", "L5.HND.1"))
        return state
    out.append(
        event(
            "recover_weapon",
            f"{name} recovers the weapon ({f.weapon_feet} feet away; movement is not modelled)",
            "L5.GAP.1",
            fighter=name,
        )
    )
    return state.with_fighter(replace(f, weapon_in_hand=True, weapon_feet=0))


def _medical_aid(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    """Medical aid stops a maim's bleeding (L5.CS.4; L5.GAP.1 house default: an action, no roll)."""
    assert isinstance(act, Act) and act.target is not None
    stops = set(state.tables.called_shots.conditions.medical_aid_stops)
    target = state.fighter(act.target)
    ended = [s for s in target.statuses if s.kind in stops]
    target = target.without(lambda s: s.kind in stops)
    out.append(
        event(
            "medical_aid",
            f"{name} gives {act.target} medical aid: "
            + (f"{len(ended)} bleeding wound(s) stopped" if ended else "nothing to stop"),
            "L5.CS.4",
            fighter=act.target,
        )
    )
    return state.with_fighter(target)


def _hold_point(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    held = state.fighter(name).has("holding_point", state.turn)
    text = f"{name} holds the point" if held else f"{name} no longer holds a point (it ended earlier)"
    out.append(event("point_to_throat", text, "L5.PTT.1", fighter=name))
    return state


def _release_bind(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    f = state.fighter(name)
    for s in f.active("binding", state.turn):
        if s.other is not None:
            state = release_bind(state, s.other, name)
    out.append(event("release_bind", f"{name} releases the bind", "L5.BND.1", fighter=name))
    return state


def _locked(
    state: DuelState, name: FighterId, act: Declaration, rng: Rng, out: Out, ex: Exchange | None
) -> DuelState:
    """A continuing lock (L5.CAC.1): both disengage → free, losing all other actions; one disengages →
    its Agility + Defense roll against the Corps-a-Corps roll, failing into a struggle; else a struggle."""
    turn = state.turn
    f = state.fighter(name)
    locks = f.active("locked", turn)
    if not locks or locks[0].other is None:
        out.append(event(act.kind.value, f"{name} is no longer locked", "L5.CAC.1", fighter=name))
        return state
    lock = locks[0]
    other_name = lock.other
    assert other_name is not None
    other = state.fighter(other_name)
    state = state.with_fighter(replace(other, acted=True))
    mine = act.kind
    theirs = other.declared.kind if other.declared is not None else ActKind.STRUGGLE
    if mine is ActKind.DISENGAGE and theirs is ActKind.DISENGAGE:
        for who in (name, other_name):
            state = state.with_fighter(state.fighter(who).without(lambda s: s.kind == "locked"))
        out.append(
            event(
                "disengage",
                f"{name} and {other_name} both disengage: free, losing all other actions this turn",
                "L5.CAC.1",
            )
        )
        return state
    if ActKind.DISENGAGE in (mine, theirs):
        who, vs = (name, other_name) if mine is ActKind.DISENGAGE else (other_name, name)
        state, ok = disengage(state, who, vs, lock.roll, rng, out)
        if ok:
            return state
    return struggle(state, name, other_name, rng, out)


#: Declaration kind → what resolving it does (DESIGN principle 9: dispatch by table).
ACTS: dict[ActKind, ActHandler] = {
    ActKind.ATTACK: _attack,
    ActKind.FULL_DEFENSE: _full_defense,
    ActKind.WAIT: _wait,
    ActKind.YIELD: _yield,
    ActKind.REGAIN_GRIP: _ending("regain_grip", "L5.ARM.1", "regains a proper grip"),
    ActKind.REGAIN_FOOTING: _ending("regain_footing", "L5.FOT.1", "regains footing"),
    ActKind.CLEAR_VISION: _clear_vision,
    ActKind.FREE_WEAPON: _free_weapon,
    ActKind.REMOVE_WEAPON: _ending("remove_weapon", "L5.FOT.1", "removes the pinning weapon"),
    ActKind.RECOVER_WEAPON: _recover_weapon,
    ActKind.MEDICAL_AID: _medical_aid,
    ActKind.HOLD_POINT: _hold_point,
    ActKind.RELEASE_BIND: _release_bind,
    ActKind.STRUGGLE: _locked,
    ActKind.DISENGAGE: _locked,
}
