"""The turn loop: initiative, declaration, resolution, and the timing of injuries (L5.CORE.8).

Each turn: bloody gashes bleed (L5.LEG.1); everyone standing rolls initiative (L5.CORE.8; dazed and
stunned change it, a stumble loses it); characters declare from the lowest initiative to the highest
(a character who lost initiative first); once all have declared, Full Defense rolls are made
(L5.CORE.7); actions resolve from the highest initiative to the lowest (who lost initiative last);
at the end of the turn, losing blood (L5.TOR.1) and maims (L5.CS.4) bleed and statuses expire.

:func:`step` is one automatic step of that loop (the ruleset's ``follow_up``): it returns False when a
decision is needed (a declaration or a choice) or the duel is over; the core calls it again until then,
under its one cap on automatic steps.
"""

from __future__ import annotations

__all__ = ["check_over", "end_duel", "end_turn", "roll_full_defenses", "start_turn", "step"]


from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.core.order import initiative
from kassen.i18n import S_
from kassen.l5r.actions import ActKind
from kassen.l5r.acts import ACTS
from kassen.l5r.character import FighterId
from kassen.l5r.damage import add_wounds
from kassen.l5r.injuries import bleeding_due, expire
from kassen.l5r.movement import can_reach
from kassen.l5r.pool import roll_pool
from kassen.l5r.rolls import full_defense_pool, initiative_pool, is_blacked_out
from kassen.l5r.state import Exchange, Fighter, Phase, ThroatPending
from kassen.l5r.turn import L5Turn, standing
from kassen.l5r.validate import next_declarer


def step(turn: L5Turn) -> bool:
    """One automatic step; False when someone must decide or the duel is over."""
    s = turn.state
    if s.exchange is not None and s.pending is None and s.phase is Phase.RESOLVE:
        # both actions of a Point-to-throat exchange resolve before anyone is counted out (L5.PTT.1)
        _resolve_next(turn)
        return True
    if s.pending is not None:  # a choice made mid-resolution is made even if it ends the duel
        return False
    check_over(turn)
    s = turn.state
    if s.phase is Phase.OVER:
        return False
    if s.phase is Phase.DECLARE:
        if next_declarer(s) is not None:
            return False
        turn.update(phase=Phase.RESOLVE, cursor=0)
        return True
    if s.phase is Phase.RESOLVE:
        if roll_full_defenses(turn):
            return True
        if turn.state.cursor < len(turn.state.act_order):
            _resolve_next(turn)
            return True
        end_turn(turn)
        check_over(turn)
        if turn.state.phase is Phase.OVER:
            return False
        start_turn(turn)
        return True
    return False


def check_over(turn: L5Turn) -> None:
    """End the duel when one side (or none) is left standing, or at first blood (``ends_at``)."""
    s = turn.state
    if s.phase is Phase.OVER or s.phase is Phase.START:
        return
    if s.ends_at == "first_blood":
        bloodied = {f.side for f in s.fighters if f.bloodied}
        if bloodied:
            others = sorted({f.side for f in s.fighters} - bloodied)
            _over(turn, others[0] if len(others) == 1 else None, S_("first blood"))
            return
    sides = sorted({f.side for f in s.fighters if standing(f, turn.tables)})
    if len(sides) <= 1:
        _over(turn, sides[0] if sides else None, S_("the other side is out of the fight"))


def end_duel(turn: L5Turn, winner: str | None, why: str) -> None:
    """The duel is over now: ``winner`` (a side, or ``None``) and why, in words."""
    _over(turn, winner, why)


def _over(turn: L5Turn, winner: str | None, why: str) -> None:
    text = (
        S_("the duel is over ({why}): {winner} wins", why=why, winner=winner)
        if winner
        else S_("the duel is over ({why}): no winner", why=why)
    )
    turn.event("over", text, automatic=True, winner=winner, turn=turn.now)
    turn.update(phase=Phase.OVER, winner=winner, reason=why, pending=None)


# -- start and end of a turn ------------------------------------------------------------------------------
def start_turn(turn: L5Turn) -> None:
    """A new turn: start-of-turn bleeding (L5.LEG.1), then initiative and the orders (L5.CORE.8)."""
    t = turn.tables
    now = turn.now + 1
    if now > turn.state.max_turns:
        _over(turn, None, S_("no decision in {n} turns", n=turn.state.max_turns))
        return
    turn.update(turn=now, cursor=0, pending=None, exchange=None, phase=Phase.DECLARE)
    turn.event("turn", S_("turn {n}", n=now), "L5.CORE.8", automatic=True, turn=now)
    for f in turn.state.fighters:
        for status, amount, rule in bleeding_due(f, t, now, "start"):
            add_wounds(
                turn,
                f.name,
                amount,
                reason=S_("{source}, at the start of the turn", source=status.source),
                rule=rule,
                automatic=True,
            )
    check_over(turn)
    if turn.state.phase is Phase.OVER:
        return
    ranking: list[tuple[tuple[int, int, int, int, int], FighterId]] = []
    for index, f in enumerate(turn.state.fighters):
        if not standing(f, t):
            continue
        pool, change, steps = initiative_pool(f, t, now)
        r = roll_pool(pool, turn.dice, S_("initiative roll"), "L5.CORE.8", explain=turn.explain)
        total = r.total + change
        loses = f.has("lose_initiative", now)
        all_steps = [*steps, *r.steps]
        if change:
            all_steps.append(Step(total, S_("initiative after injuries"), "L5.CORE.8"))
        if loses:
            src = f.active("lose_initiative", now)[0]
            all_steps.append(
                Step(
                    0,
                    S_("{source}: loses initiative (declares first, acts last)", source=src.source),
                    src.rule,
                )
            )
        turn.put(replace(f, initiative=total))
        turn.event(
            "initiative",
            S_("{name} rolls {total} for initiative but loses initiative", name=f.name, total=total)
            if loses
            else S_("{name} rolls {total} for initiative", name=f.name, total=total),
            "L5.CORE.8",
            steps=all_steps,
            automatic=True,
            fighter=f.name,
            total=total,
        )
        c = f.character
        ranking.append(((1 if loses else 0, -total, -c.reflexes, -c.insight_rank, index), f.name))
    act_order, declare_order = initiative(ranking)
    turn.update(act_order=act_order, declare_order=declare_order)


def end_turn(turn: L5Turn) -> None:
    """End-of-turn bleeding (L5.TOR.1 losing blood, L5.CS.4 maims), expiry, and a fresh slate."""
    t, now = turn.tables, turn.now
    for f in turn.state.fighters:
        if f.dead:
            continue
        for status, amount, rule in bleeding_due(f, t, now, "end"):
            why = S_("maimed: bleeds every Earth turns") if status.kind == "maim_bleed" else status.source
            add_wounds(turn, f.name, amount, reason=why, rule=rule, automatic=True)
    fighters = []
    for f in turn.state.fighters:
        f, ended = expire(f, now)
        for s in ended:
            if s.kind not in ("obstructed", "cannot_attack", "free_raise"):
                turn.event(
                    "status_ended",
                    S_("{name}: {source} ends", name=f.name, source=s.source),
                    s.rule,
                    automatic=True,
                    fighter=f.name,
                )
        f = _drop_used_free_raises(f)
        fighters.append(
            replace(f, declared=None, acted=False, full_defense_bonus=0, full_defense_rolled=False)
        )
    turn.update(fighters=tuple(fighters), exchange=None)


def _drop_used_free_raises(f: Fighter) -> Fighter:
    """A Free Raise for "the next action only" (L5.CAC.1) is gone once that action has passed."""
    used = f.declarations_made
    return f.without(lambda s: s.kind == "free_raise" and s.roll <= used)


# -- resolution -------------------------------------------------------------------------------------------
def roll_full_defenses(turn: L5Turn) -> bool:
    """Full Defense rolls, once all have declared: half the total is added to the TN to be hit for the
    turn (L5.CORE.7). A threatened throat: the bonus is settled, then the holder strikes (L5.PTT.1).
    Rolls one and returns True, or returns False when none is left to roll."""
    t, now = turn.tables, turn.now
    for name in turn.state.declare_order:
        f = turn.fighter(name)
        declared = f.declared
        if declared is None or declared.do is not ActKind.FULL_DEFENSE or f.full_defense_rolled:
            continue
        pool, steps = full_defense_pool(f, t, now)
        r = roll_pool(pool, turn.dice, S_("Full Defense roll"), "L5.CORE.7", explain=turn.explain)
        bonus = r.total // t.core.full_defense.bonus_divisor
        turn.put(replace(f, full_defense_bonus=bonus, full_defense_rolled=True))
        turn.event(
            "full_defense",
            S_(
                "{name} takes Full Defense: rolls {roll}, +{bonus} TN to be hit",
                name=name,
                roll=r.total,
                bonus=bonus,
            ),
            "L5.CORE.7",
            steps=(*steps, *r.steps, Step(bonus, S_("half the roll, rounded down"), "L5.CORE.7")),
            fighter=name,
            bonus=bonus,
        )
        if f.has("threatened", now) and "full_defense" in t.special_attacks.point_to_throat.triggers:
            _trigger_point(turn, name, exchange=False)
        return True
    return False


def _trigger_point(turn: L5Turn, name: FighterId, *, exchange: bool) -> None:
    """The threatened moved (L5.PTT.1): the holder gets the extra attack, if able to make one."""
    t, now = turn.tables, turn.now
    threat = turn.fighter(name).active("threatened", now)[0]
    holder = turn.fighter(threat.other) if threat.other is not None else None
    if (
        holder is None
        or not standing(holder, t)
        or not holder.weapon_in_hand
        or is_blacked_out(holder, now)
        or holder.has("hand_unusable", now)
        or not can_reach(turn.state, holder, turn.fighter(name), t)
    ):
        turn.event(
            "point_to_throat",
            S_("the point at {name}'s throat lapses: the holder cannot strike", name=name),
            "L5.PTT.1",
            automatic=True,
        )
        turn.put(turn.fighter(name).without(lambda s: s.kind == "threatened"))
        return
    ex = Exchange(name, turn.fighter(name).wounds) if exchange else None
    turn.update(pending=ThroatPending(holder.name, name), exchange=ex)


def _resolve_next(turn: L5Turn) -> None:
    """Resolve the action of the next character in the act order."""
    t, now = turn.tables, turn.now
    s = turn.state
    name = s.act_order[s.cursor]
    f = s.fighter(name)
    ex = s.exchange if s.exchange is not None and s.exchange.actor == name else None
    if f.acted:
        turn.update(cursor=s.cursor + 1, exchange=None)
        return
    act = f.declared
    if ex is None:
        lost = _lost_action(turn, name)
        if lost is not None:
            text, rule = lost
            turn.event("lost_action", text, rule, fighter=name)
            turn.update(cursor=turn.state.cursor + 1)
            turn.put(replace(turn.fighter(name), acted=True))
            return
        assert act is not None
        if act.do is not ActKind.HOLD_POINT and f.has("holding_point", now):
            _withdraw_point(turn, name)
        if (
            turn.fighter(name).has("threatened", now)
            and act.do.value in t.special_attacks.point_to_throat.triggers
        ):
            _trigger_point(turn, name, exchange=True)
            return
    assert act is not None
    turn.update(cursor=turn.state.cursor + 1)
    turn.put(replace(turn.fighter(name), acted=True))
    ACTS[act.do](turn, name, act, ex)
    if ex is not None:
        turn.update(exchange=None)


def _lost_action(turn: L5Turn, name: FighterId) -> tuple[str, str] | None:
    """Why the character's action is lost now, if it is (Out, blackout, locked): its words and rule."""
    now = turn.now
    f = turn.fighter(name)
    if not standing(f, turn.tables):
        return S_("{name} is out of the fight and does not act", name=name), "L5.CORE.6"
    if is_blacked_out(f, now):
        blackout = f.active("blackout", now)[0]
        rest = tuple(s for s in f.statuses if s is not blackout)
        if blackout.amount > 1:
            rest = (*rest, replace(blackout, amount=blackout.amount - 1))
        turn.put(replace(f, statuses=rest))
        return (
            S_("{name} is blacked out ({source}) and loses this action", name=name, source=blackout.source),
            blackout.rule,
        )
    act = f.declared
    if act is None:
        return S_("{name} declared nothing", name=name), "L5.CORE.8"
    if f.has("locked", now) and act.do not in (ActKind.STRUGGLE, ActKind.DISENGAGE):
        return (
            S_(
                "{name} is locked in a Corps-a-Corps: the declared {act} is lost", name=name, act=act.do.value
            ),
            "L5.CAC.1",
        )
    return None


def _withdraw_point(turn: L5Turn, name: FighterId) -> None:
    f = turn.fighter(name)
    held = [s.other for s in f.active("holding_point", turn.now)]
    turn.put(f.without(lambda s: s.kind == "holding_point"))
    for other in held:
        if other is not None:
            o = turn.fighter(other)
            turn.put(o.without(lambda s: s.kind == "threatened" and s.other == name))
            turn.event(
                "point_to_throat",
                S_("{name} withdraws the point from {other}'s throat", name=name, other=other),
                "L5.PTT.1",
            )
