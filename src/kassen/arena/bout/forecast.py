"""Exact odds of a fighter's choice before it is made (DESIGN principle 4), computed by the
functions the bout resolves the choice with, so the odds cannot drift from the engine.

An attack (:func:`attack_forecast`) is forecast as the bout resolves it (:mod:`kassen.arena.bout.actions`):
the step toward the target (``step_in``), the attack and defence targets with their bonuses
(:func:`~kassen.arena.bout.reading.check_terms`), every pair of check outcomes through
:func:`~kassen.arena.checks.resolve_attack` (:func:`~kassen.arena.odds.attack_roll_odds`: hit, critical,
defended), the location a guard redirects the hit to (``struck_location``), every basic damage of the
weapon's dice through :func:`~kassen.arena.bout.reading.damage_to` (expected injury: the mean final
damage, 0 on a miss), and for each damage the hit's own plan (:func:`~kassen.arena.bout.hits.hit_plan`:
the tasks the bout runs, in its order), walked with the exact odds of every HT check in it
(:func:`~kassen.arena.checks.check_odds` of the check's terms, guts and audience bonuses included):

- ``KO``: the hit kills (HP −5 × HT, AR.HP.4; a failed death check, AR.HP.3) or knocks out (a head blow,
  AR.INJ.9; a failed vital-organ check, AR.INJ.8);
- ``stun``: the hit stuns (AR.INJ.5, AR.INJ.7) a fighter not yet stunned, and does not knock it out;
- ``knock-down``: the knockdown check (AR.INJ.6) fails and the fighter falls over.

The odds are those of the hit's own effects with every override the victim is offered let stand (a guts
check that overrides a stun comes after the stun, and costs FP a later check may miss): what the attacker
commits to. A grapple (:func:`grapple_odds`) is the same contest (held, critical); a guts check
(:func:`guts_chance`) its Will check against the guts penalties (AR.GUT.1-2).
"""

from __future__ import annotations

__all__ = ["AttackForecast", "attack_forecast", "choice_odds", "grapple_odds", "guts_chance"]

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kassen.arena.bout.actions import step_in
from kassen.arena.bout.hits import hit_plan
from kassen.arena.bout.reading import (
    attack_location,
    attack_target,
    can_defend,
    check_terms,
    damage_to,
    defense_target,
    guts_target,
    ht_check_terms,
    struck_location,
    weapon_damage,
)
from kassen.arena.bout.state import (
    Action,
    Attack,
    AutoStun,
    BoutState,
    Death,
    DeathCheck,
    Grapple,
    Guts,
    HeadBlow,
    HitRecord,
    KnockdownCheck,
    VitalCheck,
)
from kassen.arena.bout.turn import BoutTurn
from kassen.arena.checks import check_odds
from kassen.arena.fighter import FighterState
from kassen.arena.odds import AttackRollOdds, attack_roll_odds, damage_outcomes
from kassen.arena.rules import ArenaRules, CheckRules, DiceSpec
from kassen.arena.terms import CheckKind, Condition, Posture
from kassen.core.errors import KassenError
from kassen.core.fastreplace import replace
from kassen.core.menu import Odds
from kassen.i18n import N_


@lru_cache(maxsize=1024)
def _success(target: int, checks: CheckRules) -> Fraction:
    """P(a check against ``target`` succeeds): :func:`~kassen.arena.checks.check_odds`, kept by value."""
    return check_odds(target, rules=checks).success


class _NoDice:
    """The dice of a forecast's scratch turn: a step toward the target rolls nothing."""

    def die(self, sides: int) -> int:
        raise KassenError("a forecast rolls no dice")


@dataclass(frozen=True, slots=True)
class AttackForecast:
    """An attack's exact odds: its rolls, and the chances and expected injury of its hit (see the module
    notes); ``attack``/``defense`` are the effective targets (``defense`` None: no defence), ``location``
    where a hit strikes."""

    attack: int
    defense: int | None
    location: str
    rolls: AttackRollOdds
    stun: Fraction
    knockdown: Fraction
    ko: Fraction
    injury: Fraction

    def odds(self) -> Odds:
        r = self.rolls
        return Odds(
            (
                ("hit", r.hit),
                ("critical", r.critical),
                ("defended", r.defended),
                ("stun", self.stun),
                ("knock-down", self.knockdown),
                ("KO", self.ko),
            ),
            (("injury", self.injury),),
        )


def _with(state: BoutState, f: FighterState) -> BoutState:
    return replace(state, fighters=tuple(f if x.id == f.id else x for x in state.fighters))


def _stepped(state: BoutState, actor: str, target: str, reach: int, rules: ArenaRules) -> BoutState:
    """The bout once ``actor`` has made the step its attack or grapple makes toward ``target``."""
    b = BoutTurn(state, _NoDice(), rules)
    step_in(b, actor, target, reach)
    return b.settled()


def _contest(
    state: BoutState, a: FighterState, t: FighterState, kind: CheckKind, attack: int, rules: ArenaRules
) -> tuple[AttackRollOdds, FighterState | None, int | None]:
    """The attack (or grapple) check's odds against ``t``'s defence, the defender after its defence
    check took its bonuses (None: it cannot defend), and the effective defence."""
    terms = check_terms(a, kind, attack, N_("effective skill"), (), "AR.GAP.2", rules=rules)
    if not can_defend(t, rules):
        return attack_roll_odds(terms.target, None, rules), None, None
    target, _ = defense_target(state, t.id, rules=rules)
    defence = check_terms(t, CheckKind.DEFENSE, target, N_("effective defence"), (), "AR.GAP.2", rules=rules)
    return attack_roll_odds(terms.target, defence.target, rules), defence.after(t), defence.target


@dataclass(frozen=True, slots=True)
class _Chances:
    stun: Fraction = Fraction(0)
    knockdown: Fraction = Fraction(0)
    ko: Fraction = Fraction(0)


def _hit_chances(state: BoutState, hit: HitRecord, rules: ArenaRules) -> _Chances:
    """The chances of one hit's effects on its victim (KO, stun, knock-down), walking the tasks the bout
    runs for it in their order, every offered override let stand (see the module notes)."""
    f = state.fighter(hit.victim)
    if f.has(Condition.DEAD):
        return _Chances()
    plan = hit_plan(f, hit, rules)
    f = plan.fighter
    out = state
    standing = Fraction(1)  # P(not knocked out so far)
    ko = stun = knockdown = Fraction(0)
    incapacitated, stunned = f.incapacitated, f.stunned
    fatigue = rules.injury.fatigue

    def ht_check(kind: CheckKind, rule: str) -> Fraction:
        """P(success) of ``f``'s HT check; its bonuses taken (a guts bonus spends FP: FP 0 knocks out,
        AR.FTG.5, though not as this hit's KO)."""
        nonlocal f, out, incapacitated
        terms = ht_check_terms(_with(out, f), f.id, kind, rule, rules)
        before = f.fp
        f = terms.after(f)
        out = _with(out, f)
        if terms.guts_fp and f.fp <= fatigue.unconscious_at_or_below < before:
            incapacitated = True
        return _success(terms.target, rules.checks)

    for task in plan.tasks:
        if isinstance(task, Death):
            ko += standing
            standing = Fraction(0)
        elif isinstance(task, DeathCheck):
            f = replace(f, death_checks_done=(*f.death_checks_done, task.threshold), last_death_check_hp=f.hp)
            p = ht_check(CheckKind.DEATH, "AR.HP.3")
            ko += standing * (1 - p)
            standing *= p
        elif isinstance(task, HeadBlow) and not incapacitated:
            ko += standing
            standing = Fraction(0)
        elif isinstance(task, VitalCheck) and not incapacitated:
            p = ht_check(CheckKind.VITAL, "AR.INJ.8")
            ko += standing * (1 - p)
            standing *= p
        elif isinstance(task, AutoStun) and not incapacitated and not stunned:
            stun += standing
            stunned = True
        elif isinstance(task, KnockdownCheck) and not incapacitated and f.posture is not Posture.LYING:
            p = ht_check(CheckKind.KNOCKDOWN, "AR.INJ.6")
            if not (f.fall is not None and f.fall.falls):
                knockdown += standing * (1 - p)
    return _Chances(stun, knockdown, ko)


def attack_forecast(state: BoutState, action: Attack, rules: ArenaRules) -> AttackForecast:
    """The exact odds of ``action`` (legal now) as the bout would resolve it (see the module notes)."""
    s1 = _stepped(state, action.actor, action.target, state.fighter(action.actor).profile.reach, rules)
    a, t = s1.fighter(action.actor), s1.fighter(action.target)
    loc = rules.locations.find(attack_location(action.location, rules))
    attack, _ = attack_target(s1, a.id, t.id, loc.key, action.all_out, rules=rules)
    rolls, defended, defense = _contest(s1, replace(a, idle_slots=0), t, CheckKind.ATTACK, attack, rules)
    where, _ = struck_location(t, loc.key, rules)
    w = a.profile.weapon
    base = weapon_damage(a.profile, rules)
    table = damage_outcomes(
        DiceSpec.of(base.dice, base.adds + w.adds),
        lambda basic: damage_to(t, basic, w.damage_type, where, rules=rules),
    )
    # the victim the hit lands on: as it stood (a critical success rolls no defence), or after its
    # defence check took its bonuses
    branches = (
        [(rolls.hit, t)]
        if defended is None
        else [(rolls.critical, t), (rolls.hit - rolls.critical, defended)]
    )
    stun = knockdown = ko = Fraction(0)
    for weight, victim in branches:
        if not weight:
            continue
        at = _with(s1, victim)
        for p, damage in table:
            hit = HitRecord(state.next_hit, victim.id, damage, a.id, w.painful)
            c = _hit_chances(at, hit, rules)
            stun += weight * p * c.stun
            knockdown += weight * p * c.knockdown
            ko += weight * p * c.ko
    injury = rolls.hit * sum((p * d.final for p, d in table), Fraction(0))
    return AttackForecast(attack, defense, where, rolls, stun, knockdown, ko, injury)


def grapple_odds(state: BoutState, action: Grapple, rules: ArenaRules) -> AttackRollOdds:
    """The exact odds of a grapple (a quick contest of skill against defence, AR.GAP.2): held (``hit``),
    by a critical success, defended, missed."""
    reach = rules.match.position.grapple_reach
    s1 = _stepped(state, action.actor, action.target, reach, rules)
    a, t = s1.fighter(action.actor), s1.fighter(action.target)
    attack, _ = attack_target(s1, a.id, t.id, rules.damage.basic.default_location, False, rules=rules)
    return _contest(s1, replace(a, idle_slots=0), t, CheckKind.GRAPPLE, attack, rules)[0]


def guts_chance(state: BoutState, fid: str, rules: ArenaRules) -> Fraction:
    """P(``fid``'s guts check succeeds) against the first offer, or its own stun (AR.GUT.1-2)."""
    f = state.fighter(fid)
    cause = state.offers[0].cause if state.offers else f.stun_cause
    return _success(guts_target(f, cause, rules)[0], rules.checks)


def choice_odds(state: BoutState, action: Action, rules: ArenaRules) -> Odds | None:
    """The exact odds of an attack-like choice (an attack, a grapple, a guts check), else None."""
    if isinstance(action, Attack):
        return attack_forecast(state, action, rules).odds()
    if isinstance(action, Grapple):
        r = grapple_odds(state, action, rules)
        return Odds((("held", r.hit), ("critical", r.critical), ("defended", r.defended)))
    if isinstance(action, Guts):
        return Odds((("overrides", guts_chance(state, action.actor, rules)),))
    return None
