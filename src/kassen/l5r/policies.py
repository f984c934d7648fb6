"""Who decides in a duel: a heuristic that weighs exact odds, and scripts from a scenario.

A policy is ``policy(state, legal_actions) -> action`` (what :meth:`Chronicle.run` calls). Policies are
not rules: they only pick among the legal actions, deterministically (ties go to the first listed), so a
duel is a function of its scenario and seed.

The heuristic scores each attack by its exact chance to hit times the mean damage it would deal (plus a
small value for what called shots and special attacks do), weighs a Full Attack against the extra
chance it gives the opponent, and tends to its own injuries first (footing, grip, weapon, bleeding).
"""

from __future__ import annotations

__all__ = ["Policy", "heuristic", "scenario_policy"]

from collections.abc import Callable, Sequence
from fractions import Fraction

from kassen.core.errors import IllegalActionError
from kassen.l5r.actions import (
    Act,
    Action,
    ActKind,
    Attack,
    Begin,
    ChooseCorps,
    ChooseDrive,
    ChooseInjury,
    Declare,
    ThroatStrike,
)
from kassen.l5r.engine import validate_declaration
from kassen.l5r.flow import decision_maker
from kassen.l5r.pool import chance, mean
from kassen.l5r.resolve import free_raises_for, validate_attack
from kassen.l5r.rolls import attack_pool, attack_tn, damage_pool, defense_tn, rank, skill_pool
from kassen.l5r.scenario import Scenario
from kassen.l5r.state import CorpsPending, DuelState, Fighter, InjuryPending
from kassen.l5r.tables import SpecialAttackName

Policy = Callable[[DuelState, Sequence[Action]], Action]

#: Injury preferences of the heuristic, best first (a policy choice, not a rule).
_INJURIES = {
    "head": ("critical", "blackout", "blood_in_eyes", "dazed"),
    "torso": ("vitals", "losing_blood", "painful", "stunned"),
    "arm": ("deep_gash", "loose_grip", "numb_arm"),
    "leg": ("bloody_gash", "stumble", "weak_leg", "limping"),
    "foot": ("fall", "no_weight", "pinned"),
    "hand": ("no_grip", "numb_hand", "deep_gash"),
}
#: Rough worth, in Wounds, of what a hit with this special attack does (a policy choice).
_SPECIAL_WORTH = {
    SpecialAttackName.DISARM: Fraction(8),
    SpecialAttackName.POINT_TO_THROAT: Fraction(6),
    SpecialAttackName.BIND: Fraction(2),
    SpecialAttackName.CORPS_A_CORPS: Fraction(1),
    SpecialAttackName.DRIVE: Fraction(1),
    SpecialAttackName.CLIPPING: Fraction(0),
    SpecialAttackName.MARK: Fraction(0),
}


def _attack_value(state: DuelState, attacker: Fighter, attack: Attack, *, free: int) -> Fraction:
    t, turn = state.tables, state.turn
    target = state.fighter(attack.target)
    try:
        plan = validate_attack(state, attacker, attack, free=free)
    except IllegalActionError:
        return Fraction(-1)
    ap = attack_pool(attacker, t, turn, full_attack=attack.full_attack)
    tn, _ = attack_tn(attacker, target, plan, t, turn)
    p_hit = chance(ap.pool, tn)
    if attack.special is not None and not t.special(attack.special).damage:
        worth = _SPECIAL_WORTH.get(attack.special, Fraction(0))
        if attack.special is SpecialAttackName.MARK and state.ends_at == "first_blood":
            worth = Fraction(100)
        return p_hit * worth
    pool, _ = damage_pool(attacker, attack, t, turn, damage_raises=attack.damage_raises)
    worth = mean(pool)
    if attack.called_shot is not None:
        worth += {"head": 5, "torso": attacker.character.weapon_skill}.get(attack.called_shot.value, 2)
    if attack.full_attack:
        worth -= _full_attack_risk(state, attacker)
    if state.ends_at == "first_blood":
        worth = Fraction(100)
    return p_hit * worth


def _full_attack_risk(state: DuelState, me: Fighter) -> Fraction:
    """Extra Wounds the opponents may expect from my TN to be hit dropping by the Full Attack."""
    t, turn = state.tables, state.turn
    change = -t.core.full_attack.tn_to_be_hit_change
    base, _ = defense_tn(me, t, turn)
    risk = Fraction(0)
    for o in state.fighters:
        if o.side == me.side or o.dead or rank(o, t).down or not o.weapon_in_hand:
            continue
        ap = attack_pool(o, t, turn, full_attack=False)
        pool, _ = damage_pool(o, Attack(me.name), t, turn, damage_raises=0)
        risk += (chance(ap.pool, base - change) - chance(ap.pool, base)) * mean(pool)
    return risk


def _best(
    state: DuelState,
    actor: Fighter,
    options: Sequence[tuple[Action, Attack]],
    free_for: Callable[[Attack], int],
) -> Action | None:
    best: Action | None = None
    best_value = Fraction(-1)
    for action, attack in options:
        value = _attack_value(state, actor, attack, free=free_for(attack))
        if value > best_value:
            best, best_value = action, value
    return best


def _declare(state: DuelState, legal: Sequence[Action]) -> Action:
    declares = [a for a in legal if isinstance(a, Declare)]
    if not declares:
        return legal[0]
    me = state.fighter(declares[0].actor)
    t, turn = state.tables, state.turn
    acts = {a.act.kind: a for a in declares if isinstance(a.act, Act) and a.act.target is None}
    aid = [a for a in declares if isinstance(a.act, Act) and a.act.kind is ActKind.MEDICAL_AID]
    for kind in (ActKind.STRUGGLE,):
        if kind in acts and ActKind.DISENGAGE in acts:
            return _lock_choice(state, me, acts)
    own_aid = [a for a in aid if isinstance(a.act, Act) and a.act.target == me.name]
    if own_aid:
        return own_aid[0]
    for kind in (
        ActKind.REGAIN_FOOTING,
        ActKind.RECOVER_WEAPON,
        ActKind.REGAIN_GRIP,
        ActKind.FREE_WEAPON,
        ActKind.REMOVE_WEAPON,
    ):
        if kind in acts:
            return acts[kind]
    if ActKind.YIELD in acts and rank(me, t).tn_penalty >= 15:
        return acts[ActKind.YIELD]
    if ActKind.HOLD_POINT in acts:
        return acts[ActKind.HOLD_POINT]
    attacks = [
        (a, a.act)
        for a in declares
        if isinstance(a.act, Attack) and state.fighter(a.act.target).side != me.side
    ]
    best = _best(state, me, attacks, lambda at: free_raises_for(me, at.target, me.declarations_made + 1))
    if best is not None:
        return best
    for kind in (ActKind.FULL_DEFENSE, ActKind.WAIT):
        if kind in acts:
            return acts[kind]
    del turn
    return declares[0]


def _lock_choice(state: DuelState, me: Fighter, acts: dict[ActKind, Declare]) -> Action:
    lock = me.active("locked", state.turn)[0]
    p = _disengage_chance(state, me, lock.roll)
    return acts[ActKind.DISENGAGE] if p >= Fraction(1, 2) else acts[ActKind.STRUGGLE]


def _disengage_chance(state: DuelState, me: Fighter, tn: int) -> Fraction:
    t = state.tables
    c = me.character
    name = t.core.skills.defense
    pool, _ = skill_pool(
        me,
        t,
        state.turn,
        trait=c.agility,
        trait_name="Agility",
        skill=c.skill(name),
        skill_name=name,
        kinds=("skill",),
    )
    return chance(pool, tn + rank(me, t).tn_penalty)


def _choose(state: DuelState, legal: Sequence[Action]) -> Action:
    p = state.pending
    first = legal[0]
    if isinstance(first, ChooseInjury) and isinstance(p, InjuryPending):
        for name in _INJURIES.get(p.location.value, ()):
            for a in legal:
                if isinstance(a, ChooseInjury) and a.injury == name:
                    return a
        return first
    if isinstance(first, ChooseCorps) and isinstance(p, CorpsPending):
        me = state.fighter(p.chooser)
        want = "disengage" if _disengage_chance(state, me, p.roll) >= Fraction(1, 2) else "struggle"
        return next(a for a in legal if isinstance(a, ChooseCorps) and a.choice == want)
    if isinstance(first, ChooseDrive):
        return next(a for a in legal if isinstance(a, ChooseDrive) and a.choice == "refuse")
    if isinstance(first, ThroatStrike):
        holder = state.fighter(first.actor)
        free = state.tables.special_attacks.point_to_throat.free_raises
        options = [(a, a.attack) for a in legal if isinstance(a, ThroatStrike)]
        best = _best(state, holder, options, lambda at: free)
        return best if best is not None else first
    return first


def heuristic(state: DuelState, legal: Sequence[Action]) -> Action:
    """Pick a legal action by the heuristic described in the module notes."""
    if not legal:
        raise IllegalActionError("no legal action to choose from", rule="L5.CORE.8")
    if isinstance(legal[0], Begin) or len(legal) == 1:
        return legal[0]
    if state.pending is not None:
        return _choose(state, legal)
    return _declare(state, legal)


def scenario_policy(scenario: Scenario) -> Policy:
    """Scripted characters follow their scripts (then the heuristic); choices follow their preferences."""

    def policy(state: DuelState, legal: Sequence[Action]) -> Action:
        who = decision_maker(state)
        if who is None or who not in scenario.scripted:
            return heuristic(state, legal)
        p = state.pending
        prefs = scenario.prefers(who)
        if p is None:
            script = scenario.script(who)
            index = state.fighter(who).declarations_made
            if index < len(script):
                try:
                    validate_declaration(state, who, script[index])
                except IllegalActionError as exc:
                    raise IllegalActionError(
                        f"{who}'s script step {index + 1} ({script[index].describe()}) is not possible in "
                        f"turn {state.turn}: {str(exc).removesuffix(f' ({exc.rule})')}",
                        rule=exc.rule,
                    ) from None
                return Declare(who, script[index])
            return heuristic(state, legal)
        if isinstance(p, InjuryPending):
            for name in prefs.injuries:
                if name in p.options:
                    return ChooseInjury(who, name)
        if isinstance(p, CorpsPending) and prefs.corps_a_corps:
            return ChooseCorps(who, prefs.corps_a_corps)
        if prefs.drive and any(isinstance(a, ChooseDrive) for a in legal):
            return ChooseDrive(who, prefs.drive)
        return heuristic(state, legal)

    return policy
