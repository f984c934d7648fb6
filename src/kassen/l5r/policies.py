"""Who decides in a duel: a heuristic that weighs exact odds, and a scripted character's preferences.

Both are the core's :class:`~kassen.core.policy.Policy` (called with a
:class:`~kassen.core.policy.Decision`: the state, who decides, the legal actions, the content's tables).
Policies are not rules: they only pick among the legal actions, deterministically (ties go to the first
listed), so a duel is a function of its scenario and seed. A scenario's scripts are played by
:class:`SkippingScript` (the core's :class:`~kassen.core.policy.Scripted`, a step no longer possible
skipped with a logged note; see :mod:`kassen.l5r.scenario`); :class:`Prefers` answers the rules'
choices for a scripted character, in front of the heuristic.

The heuristic scores each attack by its exact chance to hit times the mean damage it would deal (plus a
small value for what called shots and special attacks do), weighs a Full Attack against the extra
chance it gives the opponent, and tends to its own injuries first (footing, grip, weapon, bleeding);
with no opponent within reach and move, it closes on the nearest.
"""

from __future__ import annotations

__all__ = ["Heuristic", "Preferences", "Prefers", "SkippingScript", "heuristic"]

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal

from pydantic import Field

from kassen.content.yamlio import StrictModel
from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.core.policy import Decision, Listed, Policy, Scripted
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
from kassen.l5r.legal import checked_attack
from kassen.l5r.movement import distance
from kassen.l5r.pool import Pool, chance, mean
from kassen.l5r.rolls import (
    attack_pool,
    attack_tn,
    damage_pool,
    defense_tn,
    rank,
    skill_pool,
    wound_penalty,
)
from kassen.l5r.state import CorpsPending, DuelState, Fighter, InjuryPending, Phase
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName
from kassen.l5r.validate import free_raises_for, next_declarer

#: Injury preferences of the heuristic, best first (a policy choice, not a rule).
_INJURIES = {
    "head": ("critical", "blackout", "blood_in_eyes", "dazed"),
    "torso": ("vitals", "losing_blood", "painful", "stunned"),
    "arm": ("deep_gash", "loose_grip", "numb_arm"),
    "leg": ("bloody_gash", "stumble", "weak_leg", "limping"),
    "foot": ("fall", "no_weight", "pinned"),
    "hand": ("no_grip", "numb_hand", "deep_gash"),
}
_ZERO = Fraction(0)
#: What first blood is worth: the duel.
_FIRST_BLOOD = Fraction(100)
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


def _attack_value(
    state: DuelState, attacker: Fighter, attack: Attack, tables: L5Tables, *, free: int
) -> Fraction:
    t, turn = tables, state.turn
    target = state.fighter(attack.target)
    try:
        plan = checked_attack(state, attacker, attack, t, free=free)
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
        worth -= _full_attack_risk(state, attacker, t)
    if state.ends_at == "first_blood":
        worth = Fraction(100)
    return p_hit * worth


def _full_attack_risk(state: DuelState, me: Fighter, tables: L5Tables) -> Fraction:
    """Extra Wounds the opponents may expect from my TN to be hit dropping by the Full Attack."""
    t, turn = tables, state.turn
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
    tables: L5Tables,
) -> Action | None:
    """The first option of the highest :func:`_attack_value` (exact Fractions; ties: the first listed).

    Worked out as _attack_value does, with what is the same for the whole decision read once: an attack's
    value depends only on its target's TN to be hit, Full Attack, raise plan, special, called shot and
    raises for damage, so each such key is valued once; an option whose key was valued before cannot be
    better than the best so far (which is at least that value) and is passed over, as ``>`` would.
    Values are compared by their nearest floats first (``float`` of a Fraction is correctly rounded,
    hence never reverses an order), exactly only when the floats are equal.
    ``test_best_is_the_plain_maximum`` holds this to valuing every option."""
    t, turn = tables, state.turn
    first_blood = state.ends_at == "first_blood"
    penalty, _ = wound_penalty(actor, t)
    tn_of: dict[FighterId, int] = {}
    free_of: dict[FighterId, int] = {}
    seen: set[tuple[int, bool, SpecialAttackName | None, Location | None, int]] = set()
    weigh = _Weigher(state, actor, t, first_blood)
    best: Action | None = None
    best_value, best_float = Fraction(-1), -1.0
    for action, attack in options:
        target = attack.target
        free = free_of.get(target)
        if free is None:
            free = free_of[target] = free_for(attack)
        try:
            plan = checked_attack(state, actor, attack, t, free=free)
        except IllegalActionError:
            continue  # valued -1: never above the best so far
        base = tn_of.get(target)
        if base is None:
            base = tn_of[target] = defense_tn(state.fighter(target), t, turn)[0]
        # the weigher is handed exactly this key: what it reads of the attack and its TN
        key = (
            base + plan.tn_change + penalty,
            attack.full_attack,
            attack.special,
            attack.called_shot,
            attack.damage_raises,
        )
        if key in seen:
            continue
        seen.add(key)
        value, value_float = weigh(*key)
        if value_float > best_float or (value_float == best_float and value > best_value):
            best, best_value, best_float = action, value, value_float
    return best


class _Weigher:
    """:func:`_attack_value` of the legal attacks of one decision (by their attack roll's TN), and its
    nearest float: what is the same for every attack of the decision (the attack pools, the damage
    pools, the Full Attack risk) read once, each value remembered by the tables (``L5Memos.values``) by
    plain values."""

    __slots__ = ("attacker", "damage", "first_blood", "pools", "risk", "state", "tables")

    def __init__(self, state: DuelState, attacker: Fighter, tables: L5Tables, first_blood: bool) -> None:
        self.state, self.attacker, self.tables, self.first_blood = state, attacker, tables, first_blood
        self.pools: dict[bool, Pool] = {}
        self.damage: dict[tuple[object, ...], Pool] = {}
        self.risk: Fraction | None = None

    def __call__(
        self,
        tn: int,
        full: bool,
        special: SpecialAttackName | None,
        called_shot: Location | None,
        damage_raises: int,
    ) -> tuple[Fraction, float]:
        """The value of an attack with these terms against this TN (all it reads of the attack)."""
        t = self.tables
        # attack values by what decides them (the pools, TN, bonus, Full Attack risk: plain values), each
        # worked out by a function of exactly its key: the same few recur from decision to decision and
        # fight to fight
        values = t.memos.values
        pool = self.pools.get(full)
        if pool is None:
            pool = self.pools[full] = attack_pool(self.attacker, t, self.state.turn, full_attack=full).pool
        if special is not None and not t.special(special).damage:
            worth = _SPECIAL_WORTH.get(special, Fraction(0))
            if special is SpecialAttackName.MARK and self.first_blood:
                worth = _FIRST_BLOOD
            return self._worth(pool, tn, worth)
        if self.first_blood:  # whatever the damage: first blood is worth the duel
            return self._worth(pool, tn, _FIRST_BLOOD)
        dmg = self.damage.get((special, damage_raises))
        if dmg is None:
            # the damage pool reads of the attack only its special (its memo key)
            dmg = self.damage[(special, damage_raises)] = damage_pool(
                self.attacker, self.attack_of(special), t, self.state.turn, damage_raises=damage_raises
            )[0]
        bonus = 0
        if called_shot is not None:
            skill = self.attacker.character.weapon_skill
            bonus = {"head": 5, "torso": skill}.get(called_shot.value, 2)
        risk = _ZERO
        if full:
            if self.risk is None:
                self.risk = _full_attack_risk(self.state, self.attacker, t)
            risk = self.risk
        key = (pool, tn, dmg, bonus, risk)
        found = values.get(key)
        return found if found is not None else values.put(key, _damage_worth(*key))

    def attack_of(self, special: SpecialAttackName | None) -> Attack:
        """An attack with this special (all that the damage pool reads of an attack)."""
        return Attack(self.attacker.name, special=special)

    def _worth(self, pool: Pool, tn: int, worth: Fraction) -> _Value:
        key = (pool, tn, worth)
        values = self.tables.memos.values
        found = values.get(key)
        return found if found is not None else values.put(key, _worth(*key))


#: An attack's exact value and its nearest float.
_Value = tuple[Fraction, float]


def _exact(value: Fraction) -> _Value:
    return value, float(value)


def _worth(pool: Pool, tn: int, worth: Fraction) -> _Value:
    """A hit's chance times a fixed worth (a special attack that deals no damage, or first blood)."""
    return _exact(chance(pool, tn) * worth)


def _damage_worth(pool: Pool, tn: int, damage: Pool, bonus: int, risk: Fraction) -> _Value:
    """A hit's chance times its mean damage and bonus, less the Full Attack risk."""
    return _exact(chance(pool, tn) * (mean(damage) + bonus - risk))


def _declare(state: DuelState, legal: Sequence[Action], tables: L5Tables) -> Action:
    declares = [a for a in legal if isinstance(a, Declare)]
    if not declares:
        return legal[0]
    me = state.fighter(declares[0].actor)
    acts = {a.act.do: a for a in declares if isinstance(a.act, Act) and a.act.target is None}
    aid = [a for a in declares if isinstance(a.act, Act) and a.act.do is ActKind.MEDICAL_AID]
    if ActKind.STRUGGLE in acts and ActKind.DISENGAGE in acts:
        return _lock_choice(state, me, acts, tables)
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
    if ActKind.YIELD in acts and rank(me, tables).tn_penalty >= 15:
        return acts[ActKind.YIELD]
    if ActKind.HOLD_POINT in acts:
        return acts[ActKind.HOLD_POINT]
    foes = {f.name for f in state.fighters if f.side != me.side}
    attacks = [(a, a.act) for a in declares if isinstance(a.act, Attack) and a.act.target in foes]
    best = _best(
        state, me, attacks, lambda at: free_raises_for(me, at.target, me.declarations_made + 1), tables
    )
    if best is not None:
        return best
    closes = [a for a in declares if isinstance(a.act, Act) and a.act.do is ActKind.CLOSE]
    if closes:  # no attack reaches: close on the nearest opponent (the position model)
        return min(closes, key=lambda a: distance(me, state.fighter(_target(a))))
    for kind in (ActKind.FULL_DEFENSE, ActKind.WAIT):
        if kind in acts:
            return acts[kind]
    return declares[0]


def _target(action: Declare) -> FighterId:
    assert action.act.target is not None
    return action.act.target


def _lock_choice(state: DuelState, me: Fighter, acts: dict[ActKind, Declare], tables: L5Tables) -> Action:
    lock = me.active("locked", state.turn)[0]
    p = _disengage_chance(state, me, lock.roll, tables)
    return acts[ActKind.DISENGAGE] if p >= Fraction(1, 2) else acts[ActKind.STRUGGLE]


def _disengage_chance(state: DuelState, me: Fighter, tn: int, tables: L5Tables) -> Fraction:
    t = tables
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


def _choose(state: DuelState, legal: Sequence[Action], tables: L5Tables) -> Action:
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
        want = "disengage" if _disengage_chance(state, me, p.roll, tables) >= Fraction(1, 2) else "struggle"
        return next(a for a in legal if isinstance(a, ChooseCorps) and a.choice == want)
    if isinstance(first, ChooseDrive):
        return next(a for a in legal if isinstance(a, ChooseDrive) and a.choice == "refuse")
    if isinstance(first, ThroatStrike):
        holder = state.fighter(first.actor)
        free = tables.special_attacks.point_to_throat.free_raises
        options = [(a, a.attack) for a in legal if isinstance(a, ThroatStrike)]
        best = _best(state, holder, options, lambda at: free, tables)
        return best if best is not None else first
    return first


def heuristic(state: DuelState, legal: Sequence[Action], tables: L5Tables) -> Action:
    """Pick a legal action by the heuristic described in the module notes."""
    if not legal:
        raise IllegalActionError("no legal action to choose from", rule="L5.CORE.8")
    if isinstance(legal[0], Begin) or len(legal) == 1:
        return legal[0]
    if state.pending is not None:
        return _choose(state, legal, tables)
    return _declare(state, legal, tables)


class Heuristic:
    """The heuristic as a policy (``RULESET.heuristic(tables)``): it keeps nothing between calls."""

    def __call__(self, decision: Decision[DuelState, Action]) -> Action:
        return heuristic(decision.state, decision.legal, decision.tables)


class SkippingScript(Scripted[DuelState, Action]):
    """A scenario's scripts, as the core's :class:`~kassen.core.policy.Scripted` plays them, except that
    a step no longer possible when its character declares is **skipped**, not waited for: the
    declaration made instead (the next possible step, or the fallback's choice) carries the steps it
    passes over in :attr:`Declare.skipped <kassen.l5r.actions.Declare>`, the duel checks that each is
    indeed impossible and logs why, with the rule (``script_skipped``). The script's place is still
    derived from the actions played (skips included), so undo and replay rewind it."""

    @staticmethod
    def cursor(script: Sequence[Action], history: Sequence[Action]) -> int:
        at = 0
        for action in history:
            if not isinstance(action, Declare):
                continue
            for step in action.skipped:
                if at < len(script) and script[at] == Declare(action.actor, step):
                    at += 1
            # ``replace(action, skipped=()) == script[at]``, without building the copy (Declare's
            # equality: same class, then field by field)
            if at < len(script):
                scripted = script[at]
                if (
                    type(scripted) is Declare
                    and not scripted.skipped
                    and scripted.actor == action.actor
                    and scripted.act == action.act
                ):
                    at += 1
        return at

    def __call__(self, decision: Decision[DuelState, Action]) -> Action:
        script = self.scripts.get(decision.actor.id, ())
        if not script or not _declaring(decision):
            return self.fallback(decision)
        at = self.cursor(script, decision.history)
        skipped: list[Declaration] = []
        listed: Action | None = None
        legal = decision.legal
        # listed already (by someone else): the step found among them; else the fight tries it on a copy
        # and keeps what it worked out for the play that follows, and the list is never made
        known = not isinstance(legal, Listed) or legal.listed
        while at < len(script):
            listed = _listed(legal, script[at]) if known else None
            if listed is not None or decision.is_legal(script[at]):
                break
            step = script[at]
            assert isinstance(step, Declare)
            skipped.append(step.act)
            at += 1
        chosen = script[at] if at < len(script) else self.fallback(decision)
        if skipped and isinstance(chosen, Declare):
            return replace(chosen, skipped=(*chosen.skipped, *skipped))
        return listed if listed is not None and at < len(script) else chosen


def _declaring(decision: Decision[DuelState, Action]) -> bool:
    """Whether the decision is a declaration (its legal actions are declarations, L5.CORE.8): read from
    the state when the fight lists the actions lazily, so that a script need not have them listed."""
    legal = decision.legal
    if isinstance(legal, Listed) and not legal.listed:
        state = decision.state
        return state.phase is Phase.DECLARE and state.pending is None and next_declarer(state) is not None
    return any(isinstance(a, Declare) for a in legal)


def _listed(legal: Sequence[Action], step: Action) -> Action | None:
    """The listed action equal to the script's ``step`` (a listed action is legal: asking the fight,
    which plays it on a copy, is needed only for a step the list does not hold). Returning the listed
    object itself also lets the fight take it as listed, without reading it back through the codec."""
    if not isinstance(step, Declare):
        return None
    act = step.act
    for a in legal:
        if isinstance(a, Declare) and a.act == act and a == step:
            return a
    return None


class Preferences(StrictModel):
    """How a scripted character answers the rules' choices (the heuristic decides what is left open)."""

    injuries: list[str] = Field(default_factory=list)
    corps_a_corps: Literal["disengage", "struggle"] | None = None
    drive: Literal["give_way", "refuse"] | None = None


class Prefers:
    """A character's :class:`Preferences` for the choices the rules hand it mid-resolution (an injury,
    a Corps-a-Corps answer, a Drive), in front of ``fallback`` for everything else."""

    def __init__(self, preferences: Preferences, fallback: Policy[DuelState, Action]) -> None:
        self.preferences = preferences
        self.fallback = fallback

    def __call__(self, decision: Decision[DuelState, Action]) -> Action:
        prefs, who, p = self.preferences, decision.actor.id, decision.state.pending
        if p is not None:
            if isinstance(p, InjuryPending):
                for name in prefs.injuries:
                    if name in p.options:
                        return ChooseInjury(FighterId(who), name)
            if isinstance(p, CorpsPending) and prefs.corps_a_corps:
                return ChooseCorps(FighterId(who), prefs.corps_a_corps)
            if prefs.drive and any(isinstance(a, ChooseDrive) for a in decision.legal):
                return ChooseDrive(FighterId(who), prefs.drive)
        return self.fallback(decision)
