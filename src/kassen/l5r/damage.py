"""Harm: damage rolls, Wounds and their ranks, called-shot injuries, dropped weapons, the Foul's obstruction.

Each function rewrites the :class:`~kassen.l5r.turn.L5Turn`'s state and logs what it did (each event
with its explanation steps and rule ID). A called shot that hits hands the injury choice to the
attacker (``state.pending``); :func:`choose_injury` continues once it is made.
"""

from __future__ import annotations

__all__ = [
    "add_wounds",
    "after_damage",
    "choose_injury",
    "deal_damage",
    "drop_weapon",
    "make_prone",
    "obstruct",
    "release_ties",
    "wounds_after",
]


from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.l5r.actions import Attack, ChooseInjury
from kassen.l5r.character import FighterId, earth
from kassen.l5r.injuries import TIES, injury_effects, injury_options, maim_threshold
from kassen.l5r.pool import roll_pool
from kassen.l5r.rolls import damage_pool, rank
from kassen.l5r.state import Fighter, InjuryPending, Status
from kassen.l5r.tables import L5Tables, SpecialAttackName
from kassen.l5r.turn import L5Turn, standing
from kassen.l5r.wounds import out_ceiling


def add_wounds(
    turn: L5Turn,
    name: FighterId,
    amount: int,
    *,
    reason: str,
    rule: str,
    out_floor: bool = False,
    death: str = "",
    distinctive: bool = False,
    automatic: bool = False,
    steps: tuple[Step, ...] = (),
) -> None:
    """Add Wounds; report rank changes, Out and Dead (L5.CORE.6). ``out_floor``: never below Out
    (L5.SUB.1)."""
    t = turn.tables
    f = turn.fighter(name)
    if f.dead or amount <= 0:
        return
    before = rank(f, t)
    new, floor = wounds_after(f, amount, t, out_floor=out_floor)
    all_steps = [*steps, *floor]
    f2 = replace(f, wounds=new, bloodied=True)
    after = rank(f2, t)
    all_steps.append(after.step())
    taken = new - f.wounds
    turn.event(
        "wounds",
        S_(
            "{name} takes {n} Wounds ({reason}): {total} in all, {rank}",
            name=name,
            n=taken,
            reason=reason,
            total=new,
            rank=after.name,
        ),
        rule,
        steps=all_steps,
        automatic=automatic,
        fighter=name,
        wounds=taken,
        total=new,
        rank=after.name,
    )
    if after.dead:
        cause = death or reason
        f2 = replace(f2, dead=True, death=cause)
        text = (
            S_("{name} dies: {cause} (a distinctive death)", name=name, cause=cause)
            if distinctive
            else S_("{name} dies: {cause}", name=name, cause=cause)
        )
        turn.event(
            "death",
            text,
            "L5.CS.5" if distinctive else "L5.CORE.6",
            automatic=automatic,
            fighter=name,
            cause=cause,
            distinctive=distinctive,
        )
    elif after.dying and not before.dying:
        turn.event(
            "dying",
            S_(
                "{name} is in the Dead rank: down, alive until its last box fills ({n} Wounds)",
                name=name,
                n=after.dead_at,
            ),
            "L5.RD.4",
            automatic=automatic,
            fighter=name,
        )
    elif after.out and not before.out:
        turn.event(
            "out",
            S_("{name} is Out: unconscious, no actions", name=name),
            "L5.CORE.6",
            automatic=automatic,
            fighter=name,
        )
    turn.put(f2)
    if after.down:
        release_ties(turn, name)


def wounds_after(
    fighter: Fighter, amount: int, tables: L5Tables, *, out_floor: bool = False
) -> tuple[int, tuple[Step, ...]]:
    """The Wounds ``fighter`` has once ``amount`` more are added (L5.CORE.6); ``out_floor``: never
    below Out (L5.SUB.1), with the step that says so. What :func:`add_wounds` applies and the odds shown
    before an attack (:mod:`kassen.l5r.odds`) read."""
    new = fighter.wounds + amount
    if out_floor:
        ceiling = out_ceiling(earth(fighter.character, tables), tables)
        if new > ceiling:
            new = max(fighter.wounds, ceiling)
            why = S_("Subdue never takes {name} below Out: Wounds stop at {n}", name=fighter.name, n=ceiling)
            return new, (Step(new, why, "L5.SUB.1"),)
    return new, ()


def release_ties(turn: L5Turn, name: FighterId) -> None:
    """A fighter who leaves the fight ends every bind, lock and point it was part of."""
    changed = False
    fighters = []
    for f in turn.state.fighters:
        keep = tuple(s for s in f.statuses if not (s.kind in TIES and (f.name == name or s.other == name)))
        if len(keep) != len(f.statuses):
            changed = True
            f = replace(f, statuses=keep)
        fighters.append(f)
    if not changed:
        return
    turn.event(
        "released",
        S_("binds, locks and points involving {name} end", name=name),
        automatic=True,
        fighter=name,
    )
    turn.update(fighters=tuple(fighters))


def drop_weapon(turn: L5Turn, name: FighterId, at: int) -> None:
    """The weapon falls, to lie at position ``at``; a bind or point held with it ends (L5.DSM.1,
    L5.HND.1)."""
    f = turn.fighter(name)
    f = replace(f, weapon_in_hand=False, weapon_at=at)
    held = {s.other for s in f.statuses if s.kind in ("binding", "holding_point")}
    f = f.without(lambda s: s.kind in ("binding", "holding_point"))
    turn.put(f)
    for other in held:
        if other is not None and turn.state.has_fighter(other):
            o = turn.fighter(other)
            turn.put(o.without(lambda s: s.kind in ("bound", "threatened") and s.other == name))


def make_prone(turn: L5Turn, name: FighterId, source: str, rule: str) -> None:
    """Prone until an action regains footing (L5.FOT.1, L5.GAP.1)."""
    f = turn.fighter(name)
    turn.put(f.with_status(Status("prone", source, rule, start_turn=turn.now, ended_by="regain_footing")))


def deal_damage(
    turn: L5Turn, actor: FighterId, attack: Attack, *, damage_raises: int, out_floor: bool = False
) -> None:
    """Roll damage (L5.CORE.5, L5.DMG.1) and apply it; a called shot then hands the injury choice to
    the attacker (L5.CS.2), unless the blow kills: a maim-sized killing blow is a distinctive death
    (L5.CS.5)."""
    t = turn.tables
    attacker, target = turn.fighter(actor), turn.fighter(attack.target)
    pool, steps = damage_pool(attacker, attack, t, turn.now, damage_raises=damage_raises)
    r = roll_pool(pool, turn.dice, S_("damage roll"), "L5.CORE.5", explain=turn.explain)
    damage = r.total
    turn.event(
        "damage",
        S_("{name} rolls {damage} damage against {target}", name=actor, damage=damage, target=target.name),
        "L5.CORE.5",
        steps=(*steps, *r.steps),
        attacker=actor,
        target=target.name,
        damage=damage,
    )
    loc = attack.called_shot
    if loc is None:
        add_wounds(
            turn,
            target.name,
            damage,
            reason=S_("{name}'s blow", name=actor),
            rule="L5.CORE.5",
            out_floor=out_floor,
        )
        after_damage(turn, actor, attack)
        return
    threshold, th_step = maim_threshold(target, loc, t)
    row = t.location(loc)
    if not out_floor and rank(target, t, target.wounds + damage).dead:
        distinctive = damage >= threshold
        cause = (
            S_(
                "{death} (maimed by {name}'s called shot to the {location})",
                death=row.distinctive_death,
                name=actor,
                location=loc.value,
            )
            if distinctive
            else S_("{name}'s called shot to the {location}", name=actor, location=loc.value)
        )
        add_wounds(
            turn,
            target.name,
            damage,
            reason=S_("called shot to the {location}", location=loc.value),
            rule="L5.CS.5" if distinctive else "L5.CS.2",
            death=cause,
            distinctive=distinctive,
            steps=(th_step,),
        )
        after_damage(turn, actor, attack)
        return
    add_wounds(
        turn,
        target.name,
        damage,
        reason=S_("called shot to the {location}", location=loc.value),
        rule="L5.CS.2",
        out_floor=out_floor,
    )
    options = injury_options(turn.fighter(target.name), loc, damage, t)
    dropped = tuple(sorted((d.value for d in r.dice if not d.kept), reverse=True))
    turn.event(
        "injury_choice",
        S_(
            "{name} chooses an injury to the {location}: {options}",
            name=actor,
            location=loc.value,
            options=", ".join(options),
        ),
        "L5.CS.2",
        steps=(th_step,),
        chooser=actor,
        options=list(options),
    )
    turn.update(
        pending=InjuryPending(actor, target.name, loc, damage, dropped, options, out_floor, attack.obstructs)
    )


def after_damage(turn: L5Turn, actor: FighterId, attack: Attack) -> None:
    """A Foul's blow is dealt: its target now obstructs the other opponent it names (L5.FOL.1)."""
    if attack.special is SpecialAttackName.FOUL and attack.obstructs is not None:
        obstruct(turn, actor, attack.target, attack.obstructs)


def choose_injury(turn: L5Turn, action: ChooseInjury) -> None:
    """Apply the chosen injury (L5.CS.2; cumulative even when repeated) or maim (L5.CS.3); the choice
    was validated (:mod:`kassen.l5r.validate`)."""
    p = turn.state.pending
    assert isinstance(p, InjuryPending)
    t = turn.tables
    turn.update(pending=None)
    if action.injury is None:
        turn.event("injury", S_("{name} chooses no injury", name=action.actor), "L5.CS.2", fighter=p.target)
        _foul_after_choice(turn, p)
        return
    attacker = turn.fighter(p.chooser)
    outcome = injury_effects(
        turn.fighter(p.target),
        p.location,
        action.injury,
        turn=turn.now,
        tables=t,
        attacker_weapon_skill=attacker.character.weapon_skill,
        dropped=p.dropped,
    )
    turn.put(outcome.fighter)
    rule = t.location(p.location).rule
    said = dict(name=p.target, location=p.location.value, injury=action.injury)
    text = (
        S_("{name} is maimed: {location} - {injury} (healing restores the Wounds, never this)", **said)
        if outcome.maimed
        else S_("{name} is injured: {location} - {injury}", **said)
    )
    turn.event(
        "maim" if outcome.maimed else "injury",
        text,
        "L5.CS.3" if outcome.maimed else rule,
        steps=outcome.steps,
        fighter=p.target,
        location=p.location.value,
        injury=action.injury,
    )
    if outcome.drops_weapon:
        drop_weapon(turn, p.target, turn.fighter(p.target).position)
        turn.event("weapon_dropped", S_("{name} drops the weapon", name=p.target), rule, fighter=p.target)
    if outcome.extra_wounds:
        add_wounds(
            turn,
            p.target,
            outcome.extra_wounds,
            reason=f"{p.location.value}: {action.injury}",  # a word of kassen.l5r.words
            rule=rule,
            out_floor=p.out_floor,
        )
    _foul_after_choice(turn, p)


def _foul_after_choice(turn: L5Turn, p: InjuryPending) -> None:
    if p.foul_obstructs is not None:
        obstruct(turn, p.chooser, p.target, p.foul_obstructs)


def obstruct(turn: L5Turn, fouler: FighterId, target: FighterId, other: FighterId) -> None:
    """The Foul's target is driven into ``other``'s way: ``other``, acting later this turn, cannot
    reach the fouler (L5.FOL.1)."""
    s = turn.state
    o = s.fighter(other)
    later = other in s.act_order[s.cursor :] and not o.acted
    if not later or not standing(o, turn.tables):
        turn.event(
            "foul",
            S_(
                "{name} does not act after {fouler} this turn: the Foul obstructs no one",
                name=other,
                fouler=fouler,
            ),
            "L5.FOL.1",
            fighter=other,
        )
        return
    o = o.with_status(
        Status(
            "obstructed",
            S_("{name} driven into the way", name=target),
            "L5.FOL.1",
            start_turn=s.turn,
            end_turn=s.turn,
            other=fouler,
        )
    )
    turn.event(
        "foul",
        S_(
            "{name} is driven into {other}'s way: {other_again} cannot reach {fouler} this turn",
            name=target,
            other=other,
            other_again=other,
            fouler=fouler,
        ),
        "L5.FOL.1",
        fighter=other,
    )
    turn.put(o)
