"""What each declaration does when its turn comes: one handler per kind in :data:`ACTS` (DESIGN
principle 9: dispatch by table).

An attack rolls (:func:`kassen.l5r.attacks.resolve_attack`); the other declarations end an injury's
status (regaining grip or footing, clearing the eyes, removing a pinning weapon), free or recover a
weapon, give medical aid, hold a point, release a bind, yield, struggle and disengage in a lock, or
spend the action moving (close, retreat: the position model of :mod:`kassen.l5r.movement`).
"""

from __future__ import annotations

__all__ = ["ACTS", "ActHandler"]

from collections.abc import Callable

from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import N_, S_
from kassen.l5r.actions import Act, ActKind, Attack, Declaration
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import FighterId
from kassen.l5r.damage import release_ties
from kassen.l5r.injuries import end_by_action
from kassen.l5r.movement import action_move, back, distance, nearest_opponent, reach, speed, toward
from kassen.l5r.movement import move as movement_move
from kassen.l5r.pool import roll_pool
from kassen.l5r.rolls import skill_pool, wound_penalty
from kassen.l5r.specials import disengage, release_bind, struggle
from kassen.l5r.state import Exchange
from kassen.l5r.turn import L5Turn, standing

#: ``(turn, who acts, what was declared, the Point-to-throat exchange it is part of, if any)``.
ActHandler = Callable[[L5Turn, FighterId, Declaration, Exchange | None], None]


def _attack(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    assert isinstance(act, Attack)
    wounds = ex.wounds_before if ex is not None else None
    resolve_attack(turn, name, act, attacker_wounds=wounds, simultaneous=ex is not None)


def _full_defense(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    bonus = turn.fighter(name).full_defense_bonus
    turn.event(
        "full_defense",
        S_("{name} stays on Full Defense (+{bonus} TN to be hit this turn)", name=name, bonus=bonus),
        "L5.CORE.7",
        fighter=name,
    )


def _wait(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    turn.event("wait", S_("{name} waits", name=name), fighter=name)


def _yield(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    turn.put(replace(turn.fighter(name), yielded=True))
    turn.event("yield", S_("{name} yields", name=name), "L5.PTT.1", fighter=name)
    release_ties(turn, name)


def _ending(kind: str, rule: str, text: str, nothing: str) -> ActHandler:
    """A declaration that ends the statuses it names (``ended_by``); logged as ``kind``, in the words
    ``text`` (or ``nothing``, when it had nothing to end)."""

    def handler(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
        f, ended = end_by_action(turn.fighter(name), kind)
        turn.event(kind, S_(text if ended else nothing, name=name), rule, fighter=name)
        turn.put(f)

    return handler


def _clear_vision(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    """A full turn at the reduced TN, then the eyes are clear (L5.HED.1)."""
    f = turn.fighter(name)
    statuses = tuple(replace(s, end_turn=turn.now) if s.ended_by == "clear_vision" else s for s in f.statuses)
    turn.event(
        "clear_vision",
        S_(
            "{name} spends the turn clearing the blood from the eyes (clear at the end of the turn)",
            name=name,
        ),
        "L5.HED.1",
        fighter=name,
    )
    turn.put(replace(f, statuses=statuses))


def _free_weapon(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    """Agility + Weapon Skill at full value against the Bind roll (L5.BND.1)."""
    t, now = turn.tables, turn.now
    f = turn.fighter(name)
    binds = f.active("bound", now)
    if not binds:
        turn.event(
            "free_weapon", S_("{name}'s weapon is no longer bound", name=name), "L5.BND.1", fighter=name
        )
        return
    bind = binds[0]
    c = f.character
    pool, steps = skill_pool(
        f,
        t,
        now,
        trait=c.agility,
        trait_name="Agility",
        skill=c.weapon_skill,
        skill_name=S_("{skill} (full value)", skill=c.weapon.skill),
        kinds=("skill",),
    )
    penalty, pen_steps = wound_penalty(f, t)
    tn = bind.roll + penalty
    r = roll_pool(pool, turn.dice, S_("roll to free the weapon"), "L5.BND.1", explain=turn.explain)
    ok = r.total >= tn
    turn.event(
        "free_weapon",
        S_(
            "{name} tries to free the weapon: {roll} against TN {tn}: {outcome}",
            name=name,
            roll=r.total,
            tn=tn,
            outcome=N_("freed") if ok else N_("still bound"),
        ),
        "L5.BND.1",
        steps=(*steps, Step(bind.roll, S_("TN: the Bind roll"), "L5.BND.1"), *pen_steps, *r.steps),
        fighter=name,
        success=ok,
    )
    if ok and bind.other is not None:
        release_bind(turn, name, bind.other)


def _recover_weapon(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    """Go for the dropped weapon (the position model, L5.GAP.1): picked up once reached; a weapon
    farther than the action's move is reached on a later turn (L5.DSM.1 distances)."""
    t, now = turn.tables, turn.now
    f = turn.fighter(name)
    if f.has("hand_unusable", now):
        turn.event(
            "lost_action", S_("{name}'s hand is unusable: cannot recover the weapon", name=name), "L5.HND.1"
        )
        return
    if f.weapon_in_hand:
        turn.event(
            "recover_weapon", S_("{name} has the weapon in hand already", name=name), "L5.GAP.1", fighter=name
        )
        return
    gap = abs(f.weapon_at - f.position)
    allowed = action_move(f, t, now)
    if gap > allowed:
        _step(
            turn,
            name,
            toward(f.position, f.weapon_at, allowed),
            S_("toward the dropped weapon"),
            gap - allowed,
        )
        return
    f = turn.fighter(name)
    turn.put(replace(movement_move(f, f.weapon_at), weapon_in_hand=True, weapon_at=0))
    turn.event(
        "recover_weapon",
        S_("{name} recovers the weapon ({feet} feet away)", name=name, feet=gap)
        if gap
        else S_("{name} recovers the weapon (at the feet)", name=name),
        "L5.DSM.1" if gap else "L5.GAP.1",
        steps=(
            Step(
                gap,
                S_(
                    "the weapon lies {gap} feet away; the action moves up to {allowed}",
                    gap=gap,
                    allowed=allowed,
                ),
                "L5.GAP.1",
            ),
        ),
        fighter=name,
        feet=gap,
    )


def _step(turn: L5Turn, name: FighterId, to: int, why: str, left: int = 0) -> None:
    """Move ``name`` to ``to`` (logged), or say what stops it."""
    f = turn.fighter(name)
    sp = speed(f, turn.tables, turn.now)
    if to == f.position:
        stop = sp.stopped
        text = (
            S_("{name} cannot move ({source})", name=name, source=stop.source)
            if stop
            else S_("{name} cannot move", name=name)
        )
        turn.event("move", text, stop.rule if stop else "L5.GAP.1", steps=sp.steps, fighter=name, feet=0)
        return
    feet = abs(to - f.position)
    slowed = sp.slowed[0].rule if sp.slowed else "L5.GAP.1"
    turn.event(
        "move",
        S_(
            "{name} moves {feet} feet {why}, {left} feet still to go",
            name=name,
            feet=feet,
            why=why,
            left=left,
        )
        if left
        else S_("{name} moves {feet} feet {why}", name=name, feet=feet, why=why),
        slowed,
        steps=sp.steps,
        fighter=name,
        feet=feet,
        position=to,
    )
    turn.put(movement_move(f, to))


def _close(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    """The action spent closing on an opponent, stopping at reach (L5.GAP.1 position model)."""
    assert isinstance(act, Act) and act.target is not None
    t, now = turn.tables, turn.now
    f, o = turn.fighter(name), turn.fighter(act.target)
    gap = distance(f, o) - reach(f, t)
    if gap <= 0 or not standing(o, t):
        text = (
            S_("{name} need not close: {other} is within reach already", name=name, other=o.name)
            if gap <= 0
            else S_("{name} need not close: {other} is out of the fight", name=name, other=o.name)
        )
        turn.event("move", text, "L5.GAP.1", fighter=name, feet=0)
        return
    feet = min(gap, action_move(f, t, now))
    _step(
        turn, name, toward(f.position, o.position, feet), S_("closing on {other}", other=o.name), gap - feet
    )


def _retreat(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    """The action spent moving away from the nearest opponent (L5.GAP.1 position model)."""
    t, now = turn.tables, turn.now
    f = turn.fighter(name)
    o = nearest_opponent(turn.state, f, t)
    if o is None:
        turn.event(
            "move", S_("{name} has no opponent to retreat from", name=name), "L5.GAP.1", fighter=name, feet=0
        )
        return
    to = f.position + back(turn.state, f, o) * action_move(f, t, now)
    _step(turn, name, to, S_("back from {other}", other=o.name))


def _medical_aid(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    """Medical aid stops a maim's bleeding (L5.CS.4; L5.GAP.1 house default: an action, no roll)."""
    assert isinstance(act, Act) and act.target is not None
    stops = set(turn.tables.called_shots.conditions.medical_aid_stops)
    target = turn.fighter(act.target)
    ended = [s for s in target.statuses if s.kind in stops]
    target = target.without(lambda s: s.kind in stops)
    turn.event(
        "medical_aid",
        S_(
            "{name} gives {target} medical aid: {n} bleeding wound(s) stopped",
            name=name,
            target=act.target,
            n=len(ended),
        )
        if ended
        else S_("{name} gives {target} medical aid: nothing to stop", name=name, target=act.target),
        "L5.CS.4",
        fighter=act.target,
    )
    turn.put(target)


def _hold_point(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    held = turn.fighter(name).has("holding_point", turn.now)
    text = (
        S_("{name} holds the point", name=name)
        if held
        else S_("{name} no longer holds a point (it ended earlier)", name=name)
    )
    turn.event("point_to_throat", text, "L5.PTT.1", fighter=name)


def _release_bind(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    for s in turn.fighter(name).active("binding", turn.now):
        if s.other is not None:
            release_bind(turn, s.other, name)
    turn.event("release_bind", S_("{name} releases the bind", name=name), "L5.BND.1", fighter=name)


def _locked(turn: L5Turn, name: FighterId, act: Declaration, ex: Exchange | None) -> None:
    """A continuing lock (L5.CAC.1): both disengage → free, losing all other actions; one disengages →
    its Agility + Defense roll against the Corps-a-Corps roll, failing into a struggle; else a struggle."""
    f = turn.fighter(name)
    locks = f.active("locked", turn.now)
    if not locks or locks[0].other is None:
        turn.event(
            "disengage" if act.do is ActKind.DISENGAGE else "struggle",
            S_("{name} is no longer locked", name=name),
            "L5.CAC.1",
            fighter=name,
        )
        return
    lock = locks[0]
    other_name = lock.other
    assert other_name is not None
    other = turn.fighter(other_name)
    turn.put(replace(other, acted=True))
    mine = act.do
    theirs = other.declared.do if other.declared is not None else ActKind.STRUGGLE
    if mine is ActKind.DISENGAGE and theirs is ActKind.DISENGAGE:
        for who in (name, other_name):
            turn.put(turn.fighter(who).without(lambda s: s.kind == "locked"))
        turn.event(
            "disengage",
            S_(
                "{name} and {other} both disengage: free, losing all other actions this turn",
                name=name,
                other=other_name,
            ),
            "L5.CAC.1",
        )
        return
    if ActKind.DISENGAGE in (mine, theirs):
        who, vs = (name, other_name) if mine is ActKind.DISENGAGE else (other_name, name)
        if disengage(turn, who, vs, lock.roll):
            return
    struggle(turn, name, other_name)


#: Declaration kind → what resolving it does.
ACTS: dict[ActKind, ActHandler] = {
    ActKind.ATTACK: _attack,
    ActKind.FULL_DEFENSE: _full_defense,
    ActKind.WAIT: _wait,
    ActKind.YIELD: _yield,
    ActKind.REGAIN_GRIP: _ending(
        "regain_grip",
        "L5.ARM.1",
        N_("{name} regains a proper grip"),
        N_("{name} regains a proper grip (nothing to end)"),
    ),
    ActKind.REGAIN_FOOTING: _ending(
        "regain_footing",
        "L5.FOT.1",
        N_("{name} regains footing"),
        N_("{name} regains footing (nothing to end)"),
    ),
    ActKind.CLEAR_VISION: _clear_vision,
    ActKind.FREE_WEAPON: _free_weapon,
    ActKind.REMOVE_WEAPON: _ending(
        "remove_weapon",
        "L5.FOT.1",
        N_("{name} removes the pinning weapon"),
        N_("{name} removes the pinning weapon (nothing to end)"),
    ),
    ActKind.RECOVER_WEAPON: _recover_weapon,
    ActKind.MEDICAL_AID: _medical_aid,
    ActKind.HOLD_POINT: _hold_point,
    ActKind.RELEASE_BIND: _release_bind,
    ActKind.STRUGGLE: _locked,
    ActKind.DISENGAGE: _locked,
    ActKind.CLOSE: _close,
    ActKind.RETREAT: _retreat,
}
