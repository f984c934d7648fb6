"""The special attacks (L5.SPC.1) once they hit, and their contested rolls: one handler per special in
:data:`SPECIALS` (DESIGN principle 9: dispatch by table).

Bind and its freeing (L5.BND.1), Clipping (L5.CLP.1), Corps-a-Corps with its disengage and struggle
(L5.CAC.1, L5.RD.1), Disarm (L5.DSM.1), Drive (L5.DRV.1, L5.RD.2), Foul (L5.FOL.1), Mark (L5.MRK.1),
Point-to-throat (L5.PTT.1) and Subdue (L5.SUB.1). Where the rules hand the defender a choice (a
Corps-a-Corps answer, giving way to a Drive) the handler sets ``state.pending`` and stops;
:func:`choose_corps` and :func:`choose_drive` continue.
"""

from __future__ import annotations

__all__ = [
    "SPECIALS",
    "choose_corps",
    "choose_drive",
    "disengage",
    "release_bind",
    "struggle",
]

from collections.abc import Callable

from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.dice import roll
from kassen.i18n import N_, S_
from kassen.l5r.actions import Attack, ChooseCorps, ChooseDrive
from kassen.l5r.character import FighterId
from kassen.l5r.damage import add_wounds, deal_damage, drop_weapon, make_prone
from kassen.l5r.movement import back, move
from kassen.l5r.pool import roll_pool
from kassen.l5r.rolls import hand_to_hand, skill_pool, wound_penalty
from kassen.l5r.state import CorpsPending, DrivePending, Status
from kassen.l5r.tables import RollKind, SpecialAttackName
from kassen.l5r.turn import L5Turn

#: A special attack that hit: ``(turn, attacker, attack, the attack roll's total)``.
Special = Callable[[L5Turn, FighterId, Attack, int], None]


# -- Bind ------------------------------------------------------------------------------------------------
def _bind(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Bind (L5.BND.1): the opponent loses skill on attacks equal to the binder's weapon skill."""
    now = turn.now
    binder = turn.fighter(actor)
    skill = binder.character.weapon_skill
    target = turn.fighter(attack.target).with_status(
        Status(
            "bound",
            S_("bound by {name}", name=actor),
            "L5.BND.1",
            amount=skill,
            start_turn=now,
            other=actor,
            roll=total,
        )
    )
    binder = binder.with_status(
        Status(
            "binding",
            S_("binding {name}", name=attack.target),
            "L5.BND.1",
            start_turn=now,
            other=attack.target,
        )
    )
    turn.event(
        "bind",
        S_(
            "{name} binds {target}'s weapon: -{skill} skill on its attacks until freed (TN {tn} to free it)",
            name=actor,
            target=attack.target,
            skill=skill,
            tn=total,
        ),
        "L5.BND.1",
        fighter=attack.target,
        penalty=skill,
        roll=total,
    )
    turn.put(target, binder)


def release_bind(turn: L5Turn, bound: FighterId, binder: FighterId) -> None:
    """The trapped weapon is free; the binding weapon may not attack this turn (L5.BND.1)."""
    turn.put(turn.fighter(bound).without(lambda s: s.kind == "bound" and s.other == binder))
    if turn.state.has_fighter(binder):
        w = turn.fighter(binder).without(lambda s: s.kind == "binding" and s.other == bound)
        w = w.with_status(
            Status(
                "cannot_attack",
                S_("the bind was just freed"),
                "L5.BND.1",
                start_turn=turn.now,
                end_turn=turn.now,
            )
        )
        turn.put(w)


# -- Clipping, Mark, Point-to-throat ---------------------------------------------------------------------
def _clipping(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Clipping (L5.CLP.1): no harm, very intimidating; the intimidation is recorded (GAP house default)."""
    cond = turn.tables.special_attacks.clipping.condition
    target = turn.fighter(attack.target)
    target = replace(target, conditions=(*target.conditions, cond))
    turn.event(
        "clipping",
        S_(
            "{name} clips {target} without harming him: {condition} (recorded, no mechanical effect)",
            name=actor,
            target=attack.target,
            condition=cond,
        ),
        "L5.CLP.1",
        fighter=attack.target,
    )
    turn.put(target)


def _mark(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Mark (L5.MRK.1): no real damage, but the opponent is bloodied."""
    target = replace(turn.fighter(attack.target), bloodied=True)
    turn.event(
        "mark",
        S_("{name} marks {target}: bloodied, no Wounds", name=actor, target=attack.target),
        "L5.MRK.1",
        fighter=attack.target,
    )
    turn.put(target)


def _point_to_throat(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Point-to-throat (L5.PTT.1): no damage; if the opponent attacks or moves suddenly, the holder
    strikes at once with Free Raises."""
    now = turn.now
    target = turn.fighter(attack.target).with_status(
        Status(
            "threatened",
            S_("{name}'s point at the throat", name=actor),
            "L5.PTT.1",
            start_turn=now,
            other=actor,
        )
    )
    holder = turn.fighter(actor).with_status(
        Status(
            "holding_point",
            S_("point at {name}'s throat", name=attack.target),
            "L5.PTT.1",
            start_turn=now,
            other=attack.target,
        )
    )
    free = turn.tables.special_attacks.point_to_throat.free_raises
    turn.event(
        "point_to_throat",
        S_(
            "{name} rests the point at {target}'s throat: any attack or sudden move brings an attack with "
            "{free} Free Raises",
            name=actor,
            target=attack.target,
            free=free,
        ),
        "L5.PTT.1",
        fighter=attack.target,
    )
    turn.put(target, holder)


# -- Foul, Subdue: damaging specials --------------------------------------------------------------------
def _out_floor(turn: L5Turn, attack: Attack) -> bool:
    """Whether the special attack's blow stops at Out (``out_floor`` in its row: Subdue, L5.SUB.1)."""
    return attack.special is not None and turn.tables.special(attack.special).out_floor


def _foul(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Foul (L5.FOL.1): normal damage, and the target obstructs an attacker acting later; with no other
    opponent to obstruct, only the damage (the Foul has no effect)."""
    if attack.obstructs is None:
        turn.event(
            "foul",
            S_(
                "no other opponent acts after {name}: the Foul obstructs no one and has no effect beyond its damage",  # noqa: E501
                name=actor,
            ),
            "L5.FOL.1",
            fighter=attack.target,
        )
    deal_damage(turn, actor, attack, damage_raises=attack.damage_raises, out_floor=_out_floor(turn, attack))


def _subdue(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Subdue (L5.SUB.1): damage -1k0, never below Out."""
    deal_damage(turn, actor, attack, damage_raises=attack.damage_raises, out_floor=_out_floor(turn, attack))


# -- Corps-a-Corps ---------------------------------------------------------------------------------------
def _corps_a_corps(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Corps-a-Corps (L5.CAC.1): weapons lock; the defender chooses to disengage or struggle."""
    _lock(turn, actor, attack.target, total)
    turn.event(
        "corps_a_corps",
        S_(
            "{name} locks weapons with {target}; {target_again} chooses: disengage or struggle",
            name=actor,
            target=attack.target,
            target_again=attack.target,
        ),
        "L5.CAC.1",
        roll=total,
    )
    turn.update(pending=CorpsPending(attack.target, actor, total))


def _lock(turn: L5Turn, a: FighterId, b: FighterId, roll_total: int) -> None:
    for me, other in ((a, b), (b, a)):
        f = turn.fighter(me).without(lambda s: s.kind == "locked")
        f = f.with_status(
            Status(
                "locked",
                S_("locked with {name}", name=other),
                "L5.CAC.1",
                start_turn=turn.now,
                other=other,
                roll=roll_total,
            )
        )
        turn.put(f)


def _unlock(turn: L5Turn, a: FighterId, b: FighterId) -> None:
    for me in (a, b):
        turn.put(turn.fighter(me).without(lambda s: s.kind == "locked"))


def choose_corps(turn: L5Turn, action: ChooseCorps) -> None:
    """The defender's answer (L5.CAC.1): disengage (Agility + Defense against the Corps-a-Corps roll;
    failing becomes a struggle) or struggle."""
    p = turn.state.pending
    assert isinstance(p, CorpsPending)
    turn.update(pending=None)
    if action.choice == "disengage" and disengage(turn, p.chooser, p.attacker, p.roll):
        return
    struggle(turn, p.attacker, p.chooser)


def disengage(turn: L5Turn, who: FighterId, other: FighterId, tn_roll: int) -> bool:
    """Agility + Defense against the Corps-a-Corps roll; success: free, with a Free Raise to strike
    ``other`` on the next action only (L5.CAC.1, L5.RD.1). Returns whether it succeeded."""
    t, now = turn.tables, turn.now
    f = turn.fighter(who)
    c = f.character
    skill_name = t.core.skills.defense
    pool, steps = skill_pool(
        f,
        t,
        now,
        trait=c.agility,
        trait_name="Agility",
        skill=c.skill(skill_name),
        skill_name=skill_name,
        kinds=("skill",),
    )
    penalty, pen_steps = wound_penalty(f, t)
    tn = tn_roll + penalty
    r = roll_pool(pool, turn.dice, S_("disengage roll"), "L5.CAC.1", explain=turn.explain)
    ok = r.total >= tn
    outcome = N_("disengaged") if ok else N_("fails, they struggle")
    turn.event(
        "disengage",
        S_(
            "{name} tries to disengage: {roll} against TN {tn}: {outcome}",
            name=who,
            roll=r.total,
            tn=tn,
            outcome=outcome,
        ),
        "L5.CAC.1",
        steps=(*steps, Step(tn_roll, S_("TN: the Corps-a-Corps roll"), "L5.CAC.1"), *pen_steps, *r.steps),
        fighter=who,
        roll=r.total,
        tn=tn,
        success=ok,
    )
    if not ok:
        return False
    _unlock(turn, who, other)
    f = turn.fighter(who)
    grant = t.special_attacks.corps_a_corps.disengage_free_raises
    if grant:
        index = f.declarations_made + (1 if f.acted else 0)  # its next action: this turn's, if still to come
        f = f.with_status(
            Status(
                "free_raise",
                S_("disengaged from {name}", name=other),
                "L5.CAC.1",
                amount=grant,
                start_turn=now,
                other=other,
                roll=index,
            )
        )
        turn.put(f)
    return True


def struggle(turn: L5Turn, a: FighterId, b: FighterId) -> None:
    """Opposed Strength + Hand-to-Hand: the loser is thrown prone and takes Wounds equal to the victor's
    Strength; a close contest keeps them locked into the next turn (L5.CAC.1, L5.RD.1)."""
    t, now = turn.tables, turn.now
    totals: dict[FighterId, int] = {}
    all_steps: list[Step] = []
    for name in (a, b):
        f = turn.fighter(name)
        skill_name, skill = hand_to_hand(f, t)
        pool, steps = skill_pool(
            f,
            t,
            now,
            trait=f.character.strength,
            trait_name="Strength",
            skill=skill,
            skill_name=skill_name,
            kinds=("skill",),
        )
        r = roll_pool(
            pool, turn.dice, S_("{name}'s struggle roll", name=name), "L5.CAC.1", explain=turn.explain
        )
        penalty, _ = wound_penalty(f, t)
        totals[name] = r.total - penalty
        all_steps += [*steps, *r.steps]
        if penalty:
            all_steps.append(
                Step(-penalty, S_("{name}'s wound penalty (opposed roll)", name=name), "L5.CORE.6")
            )
    diff = totals[a] - totals[b]
    rule = t.special_attacks.corps_a_corps
    close = abs(diff) <= rule.close_margin
    winner, loser = (a, b) if diff >= 0 else (b, a)
    all_steps.append(
        Step(
            abs(diff),
            S_("margin {n}: close (stay locked)", n=abs(diff))
            if close
            else S_("margin {n}: decisive", n=abs(diff)),
            "L5.RD.1",
        )
    )
    said = dict(a=a, b=b, total_a=totals[a], total_b=totals[b])
    turn.event(
        "struggle",
        S_("{a} and {b} struggle: {total_a} to {total_b} - close: they stay locked", **said)
        if close
        else S_("{a} and {b} struggle: {total_a} to {total_b} - {winner} wins", winner=winner, **said),
        "L5.CAC.1",
        steps=all_steps,
        totals=dict(totals),
        close=close,
    )
    if close:  # the lock from the Corps-a-Corps holds into the next turn
        if not (rule.close_loser_thrown and diff != 0):
            return
    else:
        _unlock(turn, a, b)
    strength = turn.fighter(winner).character.strength
    make_prone(turn, loser, S_("thrown by {name}", name=winner), "L5.CAC.1")
    turn.event("thrown", S_("{name} is thrown to the ground (prone)", name=loser), "L5.CAC.1", fighter=loser)
    add_wounds(turn, loser, strength, reason=S_("thrown: {name}'s Strength", name=winner), rule="L5.CAC.1")


# -- Disarm ----------------------------------------------------------------------------------------------
def _disarm(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Disarm (L5.DSM.1): weapon skill + Strength, keeping weapon skill, against the Disarm roll; on a
    failure the weapon lands (attacker's Strength + one die) feet away."""
    t = turn.tables
    target = turn.fighter(attack.target)
    c = target.character
    pool, steps = skill_pool(
        target,
        t,
        turn.now,
        trait=c.strength,
        trait_name="Strength",
        skill=c.weapon_skill,
        skill_name=c.weapon.skill,
        kinds=("skill",),
        keep_skill=True,
    )
    penalty, pen_steps = wound_penalty(target, t)
    tn = total + penalty
    r = roll_pool(pool, turn.dice, S_("roll to keep the weapon"), "L5.DSM.1", explain=turn.explain)
    steps_all = (*steps, Step(total, S_("TN: the Disarm roll"), "L5.DSM.1"), *pen_steps, *r.steps)
    if r.total >= tn:
        turn.event(
            "disarm",
            S_("{name} keeps the weapon: {roll} against TN {tn}", name=attack.target, roll=r.total, tn=tn),
            "L5.DSM.1",
            steps=steps_all,
            fighter=attack.target,
            success=False,
        )
        return
    d = t.special_attacks.disarm
    strength = turn.fighter(actor).character.strength
    feet = strength
    if d.distance_dice:
        feet += roll(f"{d.distance_dice}d{d.distance_sides}", turn.dice).total
    disarmed = turn.fighter(attack.target)
    at = disarmed.position + back(turn.state, disarmed, turn.fighter(actor)) * feet
    turn.event(
        "disarm",
        S_(
            "{name} is disarmed ({roll} against TN {tn}): the weapon lands {feet} feet away, behind him",
            name=attack.target,
            roll=r.total,
            tn=tn,
            feet=feet,
        ),
        "L5.DSM.1",
        steps=(
            *steps_all,
            Step(
                feet,
                S_(
                    "{name}'s Strength {strength} + {dice} feet",
                    name=actor,
                    strength=strength,
                    dice=f"{d.distance_dice}d{d.distance_sides}",
                ),
                "L5.DSM.1",
            ),
        ),
        fighter=attack.target,
        success=True,
        feet=feet,
        weapon_at=at,
    )
    drop_weapon(turn, attack.target, at)


# -- Drive -----------------------------------------------------------------------------------------------
def _drive(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    """Drive (L5.DRV.1): force the opponent back; one aware of danger may refuse (its raise then counts
    for damage). A pinned opponent cannot give way (L5.GAP.1)."""
    target = turn.fighter(attack.target)
    if target.has("cannot_move", turn.now):
        turn.event(
            "drive",
            S_(
                "{name} is pinned and cannot give way: the Drive's raise counts as a raise for damage",
                name=attack.target,
            ),
            "L5.DRV.1",
            fighter=attack.target,
        )
        deal_damage(turn, actor, attack, damage_raises=1)
        return
    if target.character.hazard_behind:
        turn.event(
            "drive",
            S_("{name}, aware of danger behind, gives way or refuses", name=attack.target),
            "L5.DRV.1",
        )
        turn.update(pending=DrivePending(attack.target, actor, total, 1))
        return
    _give_way(turn, actor, attack, total)


def choose_drive(turn: L5Turn, action: ChooseDrive) -> None:
    """Give way (driven back, keep footing or fall prone) or refuse (the raise counts for damage)."""
    p = turn.state.pending
    assert isinstance(p, DrivePending)
    turn.update(pending=None)
    attack = Attack(p.chooser, special=SpecialAttackName.DRIVE)
    if action.choice == "refuse":
        turn.event(
            "drive",
            S_("{name} refuses to give way: the Drive's raise counts as a raise for damage", name=p.chooser),
            "L5.DRV.1",
            fighter=p.chooser,
        )
        deal_damage(turn, p.attacker, attack, damage_raises=p.damage_raises)
        return
    _give_way(turn, p.attacker, attack, p.roll)


def _give_way(turn: L5Turn, actor: FighterId, attack: Attack, total: int) -> None:
    t = turn.tables
    attacker, target = turn.fighter(actor), turn.fighter(attack.target)
    feet = attacker.character.strength + attacker.character.weapon_skill
    to = target.position + back(turn.state, target, attacker) * feet  # straight back (L5.GAP.1)
    turn.put(move(target, to))
    target = turn.fighter(attack.target)
    c = target.character
    skill_name = t.core.skills.athletics
    balance = "drive_footing" in t.called_shots.conditions.balance_rolls
    kinds: tuple[RollKind, ...] = ("balance", "skill") if balance else ("skill",)
    pool, steps = skill_pool(
        target,
        t,
        turn.now,
        trait=c.agility,
        trait_name="Agility",
        skill=c.skill(skill_name),
        skill_name=skill_name,
        kinds=kinds,
    )
    divisor = t.special_attacks.drive.footing_tn_divisor
    penalty, pen_steps = wound_penalty(target, t)
    tn = total // divisor + penalty
    r = roll_pool(pool, turn.dice, S_("roll to keep footing"), "L5.DRV.1", explain=turn.explain)
    ok = r.total >= tn
    turn.event(
        "drive",
        S_(
            "{name} drives {target} back {feet} feet; footing {roll} against TN {tn}: {outcome}",
            name=actor,
            target=attack.target,
            feet=feet,
            roll=r.total,
            tn=tn,
            outcome=N_("keeps footing") if ok else N_("falls prone"),
        ),
        "L5.DRV.1",
        steps=(
            Step(feet, S_("up to Strength + weapon skill = {feet} feet", feet=feet), "L5.DRV.1"),
            *steps,
            Step(
                total // divisor, S_("TN: half the Drive roll {total}, rounded down", total=total), "L5.DRV.1"
            ),
            *pen_steps,
            *r.steps,
        ),
        fighter=attack.target,
        feet=feet,
        position=to,
        success=ok,
    )
    if not ok:
        make_prone(turn, attack.target, S_("tripped by {name}'s Drive", name=actor), "L5.DRV.1")
    if t.special_attacks.drive.give_way_deals_damage:
        turn.event(
            "drive", S_("a Drive the defender gives way to also deals normal damage (reading)"), "L5.RD.2"
        )
        deal_damage(turn, actor, attack, damage_raises=0)


#: Special attack → its resolution once the attack roll hit (DESIGN principle 9: dispatch by table).
SPECIALS: dict[SpecialAttackName, Special] = {
    SpecialAttackName.BIND: _bind,
    SpecialAttackName.CLIPPING: _clipping,
    SpecialAttackName.CORPS_A_CORPS: _corps_a_corps,
    SpecialAttackName.DISARM: _disarm,
    SpecialAttackName.DRIVE: _drive,
    SpecialAttackName.FOUL: _foul,
    SpecialAttackName.MARK: _mark,
    SpecialAttackName.POINT_TO_THROAT: _point_to_throat,
    SpecialAttackName.SUBDUE: _subdue,
}
