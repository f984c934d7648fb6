"""Resolving what was declared: attacks, damage, Wounds, called-shot injuries, special attacks, choices.

Pure functions ``(state, ..., rng, out) -> state``: they return a new :class:`~kassen.l5r.state.DuelState`
and append the events they cause to ``out`` (each with its explanation steps and rule ID). When a rule
hands a choice to a character mid-resolution (an injury, a Corps-a-Corps answer, giving way to a Drive,
the Point-to-throat strike), they set ``state.pending`` and stop; the matching ``choose_*`` continues.
"""

from __future__ import annotations

__all__ = [
    "SPECIALS",
    "add_wounds",
    "choose_corps",
    "choose_drive",
    "choose_injury",
    "deal_damage",
    "drop_weapon",
    "free_raises_for",
    "release_bind",
    "resolve_attack",
    "throat_strike",
    "validate_attack",
]

from collections.abc import Callable
from dataclasses import replace

from kassen.core.errors import IllegalActionError
from kassen.core.events import Event
from kassen.core.explain import Step
from kassen.core.rng import Rng
from kassen.dice import roll
from kassen.l5r.actions import Attack, ChooseCorps, ChooseDrive, ChooseInjury, ThroatStrike
from kassen.l5r.character import FighterId, earth
from kassen.l5r.injuries import TIES, injury_effects, injury_options, maim_threshold
from kassen.l5r.pool import chance, roll_pool
from kassen.l5r.rolls import (
    RaisePlan,
    attack_pool,
    attack_tn,
    damage_pool,
    hand_to_hand,
    is_blacked_out,
    plan_raises,
    rank,
    skill_pool,
    wound_penalty,
)
from kassen.l5r.state import (
    CorpsPending,
    DrivePending,
    DuelState,
    Fighter,
    InjuryPending,
    Status,
    ThroatPending,
)
from kassen.l5r.tables import RollKind, SpecialAttackName
from kassen.l5r.util import event, standing
from kassen.l5r.wounds import out_ceiling

Out = list[Event]


# -- validation -------------------------------------------------------------------------------------------
def free_raises_for(attacker: Fighter, target: FighterId, action_index: int) -> int:
    """Free Raises the attacker holds against ``target`` for its action number ``action_index``
    (a successful disengage: L5.CAC.1, L5.CORE.4)."""
    return sum(
        s.amount
        for s in attacker.statuses
        if s.kind == "free_raise" and s.other == target and s.roll == action_index
    )


def validate_attack(
    state: DuelState, attacker: Fighter, attack: Attack, *, free: int, simultaneous: bool = False
) -> RaisePlan:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``attacker`` may make ``attack`` now;
    return how its raises are paid."""
    t, turn = state.tables, state.turn
    if attack.target == attacker.name:
        raise IllegalActionError(f"{attacker.name} cannot attack itself", rule="L5.CORE.2")
    if not state.has_fighter(attack.target):
        raise IllegalActionError(f"no fighter named {attack.target!r} to attack", rule="L5.CORE.2")
    target = state.fighter(attack.target)
    if not standing(target, t):
        raise IllegalActionError(f"{target.name} is out of the fight", rule="L5.CORE.6")
    if is_blacked_out(attacker, turn) and not simultaneous:
        raise IllegalActionError(f"{attacker.name} is blacked out and loses the next action", rule="L5.HED.1")
    if attacker.has("locked", turn):
        raise IllegalActionError(
            f"{attacker.name} is locked in a Corps-a-Corps: struggle or disengage", rule="L5.CAC.1"
        )
    if not attacker.weapon_in_hand:
        raise IllegalActionError(f"{attacker.name} has no weapon in hand", rule="L5.DSM.1")
    if attacker.has("hand_unusable", turn):
        raise IllegalActionError(f"{attacker.name}'s weapon hand is unusable", rule="L5.HND.1")
    if attacker.has("binding", turn) or attacker.has("cannot_attack", turn):
        raise IllegalActionError(f"{attacker.name}'s weapon is binding and cannot attack", rule="L5.BND.1")
    if attack.damage_raises < 0:
        raise IllegalActionError("raises for damage cannot be negative", rule="L5.DMG.1")
    if attack.obstructs is not None and attack.special is not SpecialAttackName.FOUL:
        raise IllegalActionError("only a Foul obstructs another attacker", rule="L5.FOL.1")
    if attack.special is not None:
        row = t.special(attack.special)
        if attack.full_attack and not row.full_attack:
            raise IllegalActionError(
                f"{attack.special.value} may not be part of a Full Attack", rule="L5.SPC.2"
            )
        if not row.damage and (attack.damage_raises or attack.called_shot is not None):
            raise IllegalActionError(
                f"{attack.special.value} deals no Wounds: no raises for damage or called shot with it",
                rule="L5.SPC.1",
            )
        if attack.special is SpecialAttackName.FOUL:
            _check_foul(state, attacker, attack)
    ap = attack_pool(attacker, t, turn, full_attack=attack.full_attack)
    return plan_raises(
        attack, attacker, t, free=free, unskilled=ap.unskilled, unskilled_rule=ap.unskilled_rule
    )


def _check_foul(state: DuelState, attacker: Fighter, attack: Attack) -> None:
    other = attack.obstructs
    if other is None or other in (attack.target, attacker.name) or not state.has_fighter(other):
        raise IllegalActionError("a Foul names another opponent for the target to obstruct", rule="L5.FOL.1")
    o = state.fighter(other)
    if o.side == attacker.side or not standing(o, state.tables):
        raise IllegalActionError(f"{other} is not an opponent in the fight", rule="L5.FOL.1")


# -- Wounds ----------------------------------------------------------------------------------------------
def add_wounds(
    state: DuelState,
    name: FighterId,
    amount: int,
    out: Out,
    *,
    reason: str,
    rule: str,
    out_floor: bool = False,
    death: str = "",
    distinctive: bool = False,
    automatic: bool = False,
    steps: tuple[Step, ...] = (),
) -> DuelState:
    """Add Wounds; report rank changes, Out and Dead (L5.CORE.6). ``out_floor``: never below Out
    (L5.SUB.1)."""
    t = state.tables
    f = state.fighter(name)
    if f.dead or amount <= 0:
        return state
    before = rank(f, t)
    new = f.wounds + amount
    all_steps = list(steps)
    if out_floor:
        ceiling = out_ceiling(earth(f.character, t), t)
        if new > ceiling:
            new = max(f.wounds, ceiling)
            all_steps.append(
                Step(new, f"Subdue never takes {name} below Out: Wounds stop at {ceiling}", "L5.SUB.1")
            )
    f2 = replace(f, wounds=new, bloodied=True)
    after = rank(f2, t)
    all_steps.append(after.step())
    taken = new - f.wounds
    out.append(
        event(
            "wounds",
            f"{name} takes {taken} Wounds ({reason}): {new} in all, {after.name}",
            rule,
            steps=all_steps,
            automatic=automatic,
            fighter=name,
            wounds=taken,
            total=new,
            rank=after.name,
        )
    )
    if after.dead:
        cause = death or reason
        f2 = replace(f2, dead=True, death=cause)
        text = f"{name} dies: {cause}" + (" (a distinctive death)" if distinctive else "")
        out.append(
            event(
                "death",
                text,
                "L5.CS.5" if distinctive else "L5.CORE.6",
                automatic=automatic,
                fighter=name,
                cause=cause,
                distinctive=distinctive,
            )
        )
    elif after.out and not before.out:
        out.append(
            event(
                "out",
                f"{name} is Out: unconscious, no actions",
                "L5.CORE.6",
                automatic=automatic,
                fighter=name,
            )
        )
    state = state.with_fighter(f2)
    return release_ties(state, name, out) if after.down else state


def release_ties(state: DuelState, name: FighterId, out: Out) -> DuelState:
    """A fighter who leaves the fight ends every bind, lock and point it was part of."""
    changed = False
    fighters = []
    for f in state.fighters:
        keep = tuple(s for s in f.statuses if not (s.kind in TIES and (f.name == name or s.other == name)))
        if len(keep) != len(f.statuses):
            changed = True
            f = replace(f, statuses=keep)
        fighters.append(f)
    if not changed:
        return state
    out.append(
        event("released", f"binds, locks and points involving {name} end", automatic=True, fighter=name)
    )
    return replace(state, fighters=tuple(fighters))


def drop_weapon(state: DuelState, name: FighterId, feet: int) -> DuelState:
    """The weapon falls ``feet`` away; a bind or point held with it ends (L5.DSM.1, L5.HND.1)."""
    f = state.fighter(name)
    f = replace(f, weapon_in_hand=False, weapon_feet=feet)
    held = {s.other for s in f.statuses if s.kind in ("binding", "holding_point")}
    f = f.without(lambda s: s.kind in ("binding", "holding_point"))
    state = state.with_fighter(f)
    for other in held:
        if other is not None and state.has_fighter(other):
            o = state.fighter(other)
            state = state.with_fighter(
                o.without(lambda s: s.kind in ("bound", "threatened") and s.other == name)
            )
    return state


# -- attacks ---------------------------------------------------------------------------------------------
def resolve_attack(
    state: DuelState,
    actor: FighterId,
    attack: Attack,
    rng: Rng,
    out: Out,
    *,
    extra_free: int = 0,
    attacker_wounds: int | None = None,
    action_index: int | None = None,
    simultaneous: bool = False,
) -> DuelState:
    """Roll the attack (L5.CORE.2, L5.CORE.3, L5.CORE.9); on a hit, apply the special attack or the
    damage. An attack no longer possible when its turn comes (its target down, the attacker disarmed
    or unskilled since declaring raises...) is lost, with the rule that stops it."""
    t, turn = state.tables, state.turn
    attacker = state.fighter(actor)
    index = attacker.declarations_made if action_index is None else action_index
    free = extra_free + free_raises_for(attacker, attack.target, index)
    try:
        plan = validate_attack(state, attacker, attack, free=free, simultaneous=simultaneous)
    except IllegalActionError as exc:
        out.append(
            event(
                "lost_action", f"{actor}'s {attack.describe()} cannot be made: {exc}", exc.rule, fighter=actor
            )
        )
        return state
    for s in attacker.active("obstructed", turn):
        if s.other == attack.target:
            out.append(
                event(
                    "lost_action",
                    f"{actor} is obstructed ({s.source}) and cannot reach {s.other}",
                    "L5.FOL.1",
                    fighter=actor,
                )
            )
            return state
    target = state.fighter(attack.target)
    ap = attack_pool(attacker, t, turn, full_attack=attack.full_attack)
    tn, tn_steps = attack_tn(attacker, target, plan, t, turn, attacker_wounds=attacker_wounds)
    p = chance(ap.pool, tn)
    r = roll_pool(ap.pool, rng, "attack roll", "L5.CORE.9")
    hit = r.total >= tn
    steps = [*ap.steps, *tn_steps, *r.steps]
    per = t.core.raises.tn_per_raise
    if hit:
        steps.append(Step(r.total, f"{r.total} >= TN {tn}: hit", "L5.CORE.2"))
    else:
        steps.append(Step(r.total, f"{r.total} < TN {tn}: miss", "L5.CORE.2"))
        if plan.paid and r.total >= tn - plan.paid * per:
            steps.append(
                Step(
                    r.total,
                    "it beat the TN without its raises, but a roll that misses the raised TN fails outright",
                    "L5.CORE.3",
                )
            )
    out.append(
        event(
            "attack",
            f"{actor}: {attack.describe()} - rolls {r.total} against TN {tn}: {'hit' if hit else 'miss'}",
            "L5.CORE.3",
            steps=steps,
            attacker=actor,
            target=attack.target,
            roll=r.total,
            tn=tn,
            hit=hit,
            raises=plan.needed,
            free_raises=plan.free_used,
            chance=f"{p.numerator}/{p.denominator}",
        )
    )
    if not hit:
        return state
    if any(s.other == attack.target for s in attacker.active("bound", turn)):
        out.append(
            event(
                "bind_freed",
                f"{actor} hits the binder with the trapped weapon and frees it",
                "L5.BND.1",
                fighter=actor,
            )
        )
        state = release_bind(state, actor, attack.target)
    if attack.special is not None:
        return SPECIALS[attack.special](state, actor, attack, r.total, rng, out)
    return deal_damage(state, actor, attack, rng, out, damage_raises=attack.damage_raises)


def deal_damage(
    state: DuelState,
    actor: FighterId,
    attack: Attack,
    rng: Rng,
    out: Out,
    *,
    damage_raises: int,
    out_floor: bool = False,
) -> DuelState:
    """Roll damage (L5.CORE.5, L5.DMG.1) and apply it; a called shot then hands the injury choice to
    the attacker (L5.CS.2), unless the blow kills: a maim-sized killing blow is a distinctive death
    (L5.CS.5)."""
    t, turn = state.tables, state.turn
    attacker, target = state.fighter(actor), state.fighter(attack.target)
    pool, steps = damage_pool(attacker, attack, t, turn, damage_raises=damage_raises)
    r = roll_pool(pool, rng, "damage roll", "L5.CORE.5")
    damage = r.total
    out.append(
        event(
            "damage",
            f"{actor} rolls {damage} damage against {target.name}",
            "L5.CORE.5",
            steps=(*steps, *r.steps),
            attacker=actor,
            target=target.name,
            damage=damage,
        )
    )
    loc = attack.called_shot
    if loc is None:
        state = add_wounds(
            state, target.name, damage, out, reason=f"{actor}'s blow", rule="L5.CORE.5", out_floor=out_floor
        )
        return _after_damage(state, actor, attack, out)
    threshold, th_step = maim_threshold(target, loc, t)
    row = t.location(loc)
    dies = not out_floor and rank(target, t, target.wounds + damage).dead
    if dies:
        distinctive = damage >= threshold
        cause = (
            f"{row.distinctive_death} (maimed by {actor}'s called shot to the {loc.value})"
            if distinctive
            else f"{actor}'s called shot to the {loc.value}"
        )
        state = add_wounds(
            state,
            target.name,
            damage,
            out,
            reason=f"called shot to the {loc.value}",
            rule="L5.CS.5" if distinctive else "L5.CS.2",
            death=cause,
            distinctive=distinctive,
            steps=(th_step,),
        )
        return _after_damage(state, actor, attack, out)
    state = add_wounds(
        state,
        target.name,
        damage,
        out,
        reason=f"called shot to the {loc.value}",
        rule="L5.CS.2",
        out_floor=out_floor,
    )
    options = injury_options(state.fighter(target.name), loc, damage, t)
    dropped = tuple(sorted((d.value for d in r.dice if not d.kept), reverse=True))
    pending = InjuryPending(actor, target.name, loc, damage, dropped, options, out_floor, attack.obstructs)
    out.append(
        event(
            "injury_choice",
            f"{actor} chooses an injury to the {loc.value}: {', '.join(options)}",
            "L5.CS.2",
            steps=(th_step,),
            chooser=actor,
            options=list(options),
        )
    )
    return replace(state, pending=pending)


def _after_damage(state: DuelState, actor: FighterId, attack: Attack, out: Out) -> DuelState:
    if attack.special is SpecialAttackName.FOUL and attack.obstructs is not None:
        return _obstruct(state, actor, attack.target, attack.obstructs, out)
    return state


def choose_injury(state: DuelState, action: ChooseInjury, out: Out) -> DuelState:
    """Apply the chosen injury (L5.CS.2; cumulative even when repeated) or maim (L5.CS.3)."""
    p = state.pending
    assert isinstance(p, InjuryPending)
    t, turn = state.tables, state.turn
    if action.injury is not None and action.injury not in p.options:
        row = t.location(p.location)
        if action.injury in row.injuries and row.injuries[action.injury].maim:
            threshold, _ = maim_threshold(state.fighter(p.target), p.location, t)
            raise IllegalActionError(
                f"{p.damage} damage does not reach {threshold} needed to maim the {p.location.value}",
                rule="L5.CS.3",
            )
        raise IllegalActionError(
            f"{action.injury!r} is not an injury of the {p.location.value}", rule="L5.CS.2"
        )
    state = replace(state, pending=None)
    if action.injury is None:
        out.append(event("injury", f"{action.actor} chooses no injury", "L5.CS.2", fighter=p.target))
        return _foul_after_choice(state, p, out)
    attacker = state.fighter(p.chooser)
    outcome = injury_effects(
        state.fighter(p.target),
        p.location,
        action.injury,
        turn=turn,
        tables=t,
        attacker_weapon_skill=attacker.character.weapon_skill,
        dropped=p.dropped,
    )
    state = state.with_fighter(outcome.fighter)
    rule = t.location(p.location).rule
    kind = "maim" if outcome.maimed else "injury"
    text = f"{p.target} is {'maimed' if outcome.maimed else 'injured'}: {p.location.value} - {action.injury}"
    if outcome.maimed:
        text += " (healing restores the Wounds, never this)"
    out.append(
        event(
            kind,
            text,
            "L5.CS.3" if outcome.maimed else rule,
            steps=outcome.steps,
            fighter=p.target,
            location=p.location.value,
            injury=action.injury,
        )
    )
    if outcome.drops_weapon:
        state = drop_weapon(state, p.target, 0)
        out.append(event("weapon_dropped", f"{p.target} drops the weapon", rule, fighter=p.target))
    if outcome.extra_wounds:
        state = add_wounds(
            state,
            p.target,
            outcome.extra_wounds,
            out,
            reason=f"{p.location.value}: {action.injury}",
            rule=rule,
            out_floor=p.out_floor,
        )
    return _foul_after_choice(state, p, out)


def _foul_after_choice(state: DuelState, p: InjuryPending, out: Out) -> DuelState:
    if p.foul_obstructs is None:
        return state
    return _obstruct(state, p.chooser, p.target, p.foul_obstructs, out)


# -- special attacks -------------------------------------------------------------------------------------
Special = Callable[[DuelState, FighterId, Attack, int, Rng, Out], DuelState]


def _bind(state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out) -> DuelState:
    """Bind (L5.BND.1): the opponent loses skill on attacks equal to the binder's weapon skill."""
    turn = state.turn
    binder = state.fighter(actor)
    skill = binder.character.weapon_skill
    target = state.fighter(attack.target).with_status(
        Status(
            "bound", f"bound by {actor}", "L5.BND.1", amount=skill, start_turn=turn, other=actor, roll=total
        )
    )
    binder = binder.with_status(
        Status("binding", f"binding {attack.target}", "L5.BND.1", start_turn=turn, other=attack.target)
    )
    out.append(
        event(
            "bind",
            f"{actor} binds {attack.target}'s weapon: -{skill} skill on its attacks until freed "
            f"(TN {total} to free it)",
            "L5.BND.1",
            fighter=attack.target,
            penalty=skill,
            roll=total,
        )
    )
    return state.with_fighter(target).with_fighter(binder)


def release_bind(state: DuelState, bound: FighterId, binder: FighterId) -> DuelState:
    """The trapped weapon is free; the binding weapon may not attack this turn (L5.BND.1)."""
    b = state.fighter(bound).without(lambda s: s.kind == "bound" and s.other == binder)
    state = state.with_fighter(b)
    if state.has_fighter(binder):
        w = state.fighter(binder).without(lambda s: s.kind == "binding" and s.other == bound)
        w = w.with_status(
            Status(
                "cannot_attack",
                "the bind was just freed",
                "L5.BND.1",
                start_turn=state.turn,
                end_turn=state.turn,
            )
        )
        state = state.with_fighter(w)
    return state


def _clipping(
    state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out
) -> DuelState:
    """Clipping (L5.CLP.1): no harm, very intimidating; the intimidation is recorded (GAP house default)."""
    cond = state.tables.special_attacks.clipping.condition
    target = state.fighter(attack.target)
    target = replace(target, conditions=(*target.conditions, cond))
    out.append(
        event(
            "clipping",
            f"{actor} clips {attack.target} without harming him: {cond} (recorded, no mechanical effect)",
            "L5.CLP.1",
            fighter=attack.target,
        )
    )
    return state.with_fighter(target)


def _corps_a_corps(
    state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out
) -> DuelState:
    """Corps-a-Corps (L5.CAC.1): weapons lock; the defender chooses to disengage or struggle."""
    state = _lock(state, actor, attack.target, total)
    out.append(
        event(
            "corps_a_corps",
            f"{actor} locks weapons with {attack.target}; {attack.target} chooses: disengage or struggle",
            "L5.CAC.1",
            roll=total,
        )
    )
    return replace(state, pending=CorpsPending(attack.target, actor, total))


def _lock(state: DuelState, a: FighterId, b: FighterId, roll_total: int) -> DuelState:
    for me, other in ((a, b), (b, a)):
        f = state.fighter(me).without(lambda s: s.kind == "locked")
        f = f.with_status(
            Status(
                "locked",
                f"locked with {other}",
                "L5.CAC.1",
                start_turn=state.turn,
                other=other,
                roll=roll_total,
            )
        )
        state = state.with_fighter(f)
    return state


def _unlock(state: DuelState, a: FighterId, b: FighterId) -> DuelState:
    for me in (a, b):
        state = state.with_fighter(state.fighter(me).without(lambda s: s.kind == "locked"))
    return state


def choose_corps(state: DuelState, action: ChooseCorps, rng: Rng, out: Out) -> DuelState:
    """The defender's answer (L5.CAC.1): disengage (Agility + Defense against the Corps-a-Corps roll;
    failing becomes a struggle) or struggle."""
    p = state.pending
    assert isinstance(p, CorpsPending)
    state = replace(state, pending=None)
    if action.choice == "disengage":
        state, ok = disengage(state, p.chooser, p.attacker, p.roll, rng, out)
        if ok:
            return state
    return struggle(state, p.attacker, p.chooser, rng, out)


def disengage(
    state: DuelState, who: FighterId, other: FighterId, tn_roll: int, rng: Rng, out: Out
) -> tuple[DuelState, bool]:
    """Agility + Defense against the Corps-a-Corps roll; success: free, with a Free Raise to strike
    ``other`` on the next action only (L5.CAC.1, L5.RD.1)."""
    t, turn = state.tables, state.turn
    f = state.fighter(who)
    c = f.character
    skill_name = t.core.skills.defense
    pool, steps = skill_pool(
        f,
        t,
        turn,
        trait=c.agility,
        trait_name="Agility",
        skill=c.skill(skill_name),
        skill_name=skill_name,
        kinds=("skill",),
    )
    penalty, pen_steps = wound_penalty(f, t)
    tn = tn_roll + penalty
    r = roll_pool(pool, rng, "disengage roll", "L5.CAC.1")
    ok = r.total >= tn
    out.append(
        event(
            "disengage",
            f"{who} tries to disengage: {r.total} against TN {tn}: "
            f"{'disengaged' if ok else 'fails, they struggle'}",
            "L5.CAC.1",
            steps=(*steps, Step(tn_roll, "TN: the Corps-a-Corps roll", "L5.CAC.1"), *pen_steps, *r.steps),
            fighter=who,
            roll=r.total,
            tn=tn,
            success=ok,
        )
    )
    if not ok:
        return state, False
    state = _unlock(state, who, other)
    f = state.fighter(who)
    grant = t.special_attacks.corps_a_corps.disengage_free_raises
    if grant:
        index = f.declarations_made + (1 if f.acted else 0)  # its next action: this turn's, if still to come
        f = f.with_status(
            Status(
                "free_raise",
                f"disengaged from {other}",
                "L5.CAC.1",
                amount=grant,
                start_turn=turn,
                other=other,
                roll=index,
            )
        )
        state = state.with_fighter(f)
    return state, True


def struggle(state: DuelState, a: FighterId, b: FighterId, rng: Rng, out: Out) -> DuelState:
    """Opposed Strength + Hand-to-Hand: the loser is thrown prone and takes Wounds equal to the victor's
    Strength; a close contest keeps them locked into the next turn (L5.CAC.1, L5.RD.1)."""
    t, turn = state.tables, state.turn
    totals: dict[FighterId, int] = {}
    all_steps: list[Step] = []
    for name in (a, b):
        f = state.fighter(name)
        skill_name, skill = hand_to_hand(f, t)
        pool, steps = skill_pool(
            f,
            t,
            turn,
            trait=f.character.strength,
            trait_name="Strength",
            skill=skill,
            skill_name=skill_name,
            kinds=("skill",),
        )
        r = roll_pool(pool, rng, f"{name}'s struggle roll", "L5.CAC.1")
        penalty, _ = wound_penalty(f, t)
        totals[name] = r.total - penalty
        all_steps += [*steps, *r.steps]
        if penalty:
            all_steps.append(Step(-penalty, f"{name}'s wound penalty (opposed roll)", "L5.CORE.6"))
    diff = totals[a] - totals[b]
    rule = t.special_attacks.corps_a_corps
    close = abs(diff) <= rule.close_margin
    winner, loser = (a, b) if diff >= 0 else (b, a)
    all_steps.append(
        Step(abs(diff), f"margin {abs(diff)}: " + ("close (stay locked)" if close else "decisive"), "L5.RD.1")
    )
    text = f"{a} and {b} struggle: {totals[a]} to {totals[b]}"
    out.append(
        event(
            "struggle",
            text + (" - close: they stay locked" if close else f" - {winner} wins"),
            "L5.CAC.1",
            steps=all_steps,
            totals={k: v for k, v in totals.items()},
            close=close,
        )
    )
    if close:  # the lock from the Corps-a-Corps holds into the next turn
        if not (rule.close_loser_thrown and diff != 0):
            return state
    else:
        state = _unlock(state, a, b)
    return _throw(state, loser, winner, out)


def _throw(state: DuelState, loser: FighterId, winner: FighterId, out: Out) -> DuelState:
    strength = state.fighter(winner).character.strength
    state = _prone(state, loser, f"thrown by {winner}", "L5.CAC.1")
    out.append(event("thrown", f"{loser} is thrown to the ground (prone)", "L5.CAC.1", fighter=loser))
    return add_wounds(state, loser, strength, out, reason=f"thrown: {winner}'s Strength", rule="L5.CAC.1")


def _prone(state: DuelState, name: FighterId, source: str, rule: str) -> DuelState:
    f = state.fighter(name)
    return state.with_fighter(
        f.with_status(Status("prone", source, rule, start_turn=state.turn, ended_by="regain_footing"))
    )


def _disarm(state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out) -> DuelState:
    """Disarm (L5.DSM.1): weapon skill + Strength, keeping weapon skill, against the Disarm roll; on a
    failure the weapon lands (attacker's Strength + one die) feet away."""
    t, turn = state.tables, state.turn
    target = state.fighter(attack.target)
    c = target.character
    pool, steps = skill_pool(
        target,
        t,
        turn,
        trait=c.strength,
        trait_name="Strength",
        skill=c.weapon_skill,
        skill_name=c.weapon.skill,
        kinds=("skill",),
        keep_skill=True,
    )
    penalty, pen_steps = wound_penalty(target, t)
    tn = total + penalty
    r = roll_pool(pool, rng, "roll to keep the weapon", "L5.DSM.1")
    kept = r.total >= tn
    steps_all = (*steps, Step(total, "TN: the Disarm roll", "L5.DSM.1"), *pen_steps, *r.steps)
    if kept:
        out.append(
            event(
                "disarm",
                f"{attack.target} keeps the weapon: {r.total} against TN {tn}",
                "L5.DSM.1",
                steps=steps_all,
                fighter=attack.target,
                success=False,
            )
        )
        return state
    d = t.special_attacks.disarm
    strength = state.fighter(actor).character.strength
    feet = strength
    if d.distance_dice:
        feet_roll = roll(f"{d.distance_dice}d{d.distance_sides}", rng)
        feet += feet_roll.total
    out.append(
        event(
            "disarm",
            f"{attack.target} is disarmed ({r.total} against TN {tn}): the weapon lands {feet} feet away",
            "L5.DSM.1",
            steps=(
                *steps_all,
                Step(
                    feet,
                    f"{actor}'s Strength {strength} + {d.distance_dice}d{d.distance_sides} feet",
                    "L5.DSM.1",
                ),
            ),
            fighter=attack.target,
            success=True,
            feet=feet,
        )
    )
    return drop_weapon(state, attack.target, feet)


def _drive(state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out) -> DuelState:
    """Drive (L5.DRV.1): force the opponent back; one aware of danger may refuse (its raise then counts
    for damage). A pinned opponent cannot give way (L5.GAP.1)."""
    target = state.fighter(attack.target)
    if target.has("cannot_move", state.turn):
        out.append(
            event(
                "drive",
                f"{attack.target} is pinned and cannot give way: the Drive's raise counts as a "
                "raise for damage",
                "L5.DRV.1",
                fighter=attack.target,
            )
        )
        return deal_damage(state, actor, attack, rng, out, damage_raises=1)
    if target.character.hazard_behind:
        out.append(
            event("drive", f"{attack.target}, aware of danger behind, gives way or refuses", "L5.DRV.1")
        )
        return replace(state, pending=DrivePending(attack.target, actor, total, 1))
    return _give_way(state, actor, attack, total, rng, out)


def choose_drive(state: DuelState, action: ChooseDrive, rng: Rng, out: Out) -> DuelState:
    """Give way (driven back, keep footing or fall prone) or refuse (the raise counts for damage)."""
    p = state.pending
    assert isinstance(p, DrivePending)
    state = replace(state, pending=None)
    attack = Attack(p.chooser, special=SpecialAttackName.DRIVE)
    if action.choice == "refuse":
        out.append(
            event(
                "drive",
                f"{p.chooser} refuses to give way: the Drive's raise counts as a raise for damage",
                "L5.DRV.1",
                fighter=p.chooser,
            )
        )
        return deal_damage(state, p.attacker, attack, rng, out, damage_raises=p.damage_raises)
    return _give_way(state, p.attacker, attack, p.roll, rng, out)


def _give_way(
    state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out
) -> DuelState:
    t, turn = state.tables, state.turn
    attacker, target = state.fighter(actor), state.fighter(attack.target)
    feet = attacker.character.strength + attacker.character.weapon_skill
    state = state.with_fighter(replace(target, feet_driven=target.feet_driven + feet))
    target = state.fighter(attack.target)
    c = target.character
    skill_name = t.core.skills.athletics
    balance = "drive_footing" in t.called_shots.conditions.balance_rolls
    kinds: tuple[RollKind, ...] = ("balance", "skill") if balance else ("skill",)
    pool, steps = skill_pool(
        target,
        t,
        turn,
        trait=c.agility,
        trait_name="Agility",
        skill=c.skill(skill_name),
        skill_name=skill_name,
        kinds=kinds,
    )
    divisor = t.special_attacks.drive.footing_tn_divisor
    penalty, pen_steps = wound_penalty(target, t)
    tn = total // divisor + penalty
    r = roll_pool(pool, rng, "roll to keep footing", "L5.DRV.1")
    ok = r.total >= tn
    out.append(
        event(
            "drive",
            f"{actor} drives {attack.target} back {feet} feet; footing {r.total} against TN {tn}: "
            f"{'keeps footing' if ok else 'falls prone'}",
            "L5.DRV.1",
            steps=(
                Step(feet, f"up to Strength + weapon skill = {feet} feet", "L5.DRV.1"),
                *steps,
                Step(total // divisor, f"TN: half the Drive roll {total}, rounded down", "L5.DRV.1"),
                *pen_steps,
                *r.steps,
            ),
            fighter=attack.target,
            feet=feet,
            success=ok,
        )
    )
    if not ok:
        state = _prone(state, attack.target, f"tripped by {actor}'s Drive", "L5.DRV.1")
    if t.special_attacks.drive.give_way_deals_damage:
        out.append(
            event("drive", "a Drive the defender gives way to also deals normal damage (reading)", "L5.RD.2")
        )
        return deal_damage(state, actor, attack, rng, out, damage_raises=0)
    return state


def _foul(state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out) -> DuelState:
    """Foul (L5.FOL.1): normal damage, and the target obstructs an attacker acting later."""
    return deal_damage(state, actor, attack, rng, out, damage_raises=attack.damage_raises)


def _obstruct(
    state: DuelState, fouler: FighterId, target: FighterId, other: FighterId, out: Out
) -> DuelState:
    o = state.fighter(other)
    later = other in state.act_order[state.cursor :] and not o.acted
    if not later or not standing(o, state.tables):
        out.append(
            event(
                "foul",
                f"{other} does not act after {fouler} this turn: the Foul obstructs no one",
                "L5.FOL.1",
                fighter=other,
            )
        )
        return state
    o = o.with_status(
        Status(
            "obstructed",
            f"{target} driven into the way",
            "L5.FOL.1",
            start_turn=state.turn,
            end_turn=state.turn,
            other=fouler,
        )
    )
    out.append(
        event(
            "foul",
            f"{target} is driven into {other}'s way: {other} cannot reach {fouler} this turn",
            "L5.FOL.1",
            fighter=other,
        )
    )
    return state.with_fighter(o)


def _mark(state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out) -> DuelState:
    """Mark (L5.MRK.1): no real damage, but the opponent is bloodied."""
    target = replace(state.fighter(attack.target), bloodied=True)
    out.append(
        event(
            "mark", f"{actor} marks {attack.target}: bloodied, no Wounds", "L5.MRK.1", fighter=attack.target
        )
    )
    return state.with_fighter(target)


def _point_to_throat(
    state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out
) -> DuelState:
    """Point-to-throat (L5.PTT.1): no damage; if the opponent attacks or moves suddenly, the holder
    strikes at once with Free Raises."""
    turn = state.turn
    target = state.fighter(attack.target).with_status(
        Status("threatened", f"{actor}'s point at the throat", "L5.PTT.1", start_turn=turn, other=actor)
    )
    holder = state.fighter(actor).with_status(
        Status(
            "holding_point",
            f"point at {attack.target}'s throat",
            "L5.PTT.1",
            start_turn=turn,
            other=attack.target,
        )
    )
    free = state.tables.special_attacks.point_to_throat.free_raises
    out.append(
        event(
            "point_to_throat",
            f"{actor} rests the point at {attack.target}'s throat: any attack or sudden "
            f"move brings an attack with {free} Free Raises",
            "L5.PTT.1",
            fighter=attack.target,
        )
    )
    return state.with_fighter(target).with_fighter(holder)


def _subdue(state: DuelState, actor: FighterId, attack: Attack, total: int, rng: Rng, out: Out) -> DuelState:
    """Subdue (L5.SUB.1): damage -1k0, never below Out."""
    return deal_damage(state, actor, attack, rng, out, damage_raises=attack.damage_raises, out_floor=True)


#: Special attack → its resolution (DESIGN principle 9: dispatch by table).
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


def throat_strike(state: DuelState, action: ThroatStrike, rng: Rng, out: Out) -> DuelState:
    """The holder's extra attack with its Free Raises (L5.PTT.1); the point ends with it."""
    p = state.pending
    assert isinstance(p, ThroatPending)
    t = state.tables
    attack = action.attack
    if attack.target != p.threatened:
        raise IllegalActionError(
            f"the extra attack strikes {p.threatened}, whose throat is threatened", rule="L5.PTT.1"
        )
    if attack.full_attack or (attack.special is not None and not t.special(attack.special).damage):
        raise IllegalActionError(
            "the extra attack is a plain attack: raises for damage and called shots only", rule="L5.PTT.1"
        )
    free = t.special_attacks.point_to_throat.free_raises
    holder = state.fighter(action.actor)
    validate_attack(_unthreatened(state, action.actor, p.threatened), holder, attack, free=free)
    state = _unthreatened(replace(state, pending=None), action.actor, p.threatened)
    out.append(
        event(
            "point_to_throat",
            f"{p.threatened} moves with a point at the throat: {action.actor} strikes "
            f"at once with {free} Free Raises",
            "L5.PTT.1",
            fighter=p.threatened,
        )
    )
    return resolve_attack(state, action.actor, attack, rng, out, extra_free=free, action_index=-1)


def _unthreatened(state: DuelState, holder: FighterId, threatened: FighterId) -> DuelState:
    h = state.fighter(holder).without(lambda s: s.kind == "holding_point" and s.other == threatened)
    v = state.fighter(threatened).without(lambda s: s.kind == "threatened" and s.other == holder)
    return state.with_fighter(h).with_fighter(v)
