"""What each action does (the decided part of the rules), dispatched by action type, and what each
audience effect does (AR.AUD.3), dispatched by its kind. Every handler runs after
:func:`~kassen.arena.bout.legal.validate` accepted the action; what it schedules goes on the agenda.
"""

from __future__ import annotations

__all__ = ["ACTION_HANDLERS", "apply_action", "step_in"]

from collections.abc import Callable, Sequence
from typing import Any

from kassen.arena.audience import audience_effect
from kassen.arena.bout.reading import (
    active_targets,
    attack_location,
    attack_target,
    can_attack_someone,
    can_defend,
    damage_to,
    defense_target,
    guts_target,
    helpless,
    move_allowance,
    struck_location,
    weapon_damage,
)
from kassen.arena.bout.state import (
    Action,
    ApplyHit,
    Attack,
    AutoStun,
    Begin,
    Cheer,
    Decline,
    FallStunCheck,
    GiveUp,
    Grapple,
    Guts,
    HeadBlow,
    HitRecord,
    Move,
    Offer,
    PopularityCheck,
    Rise,
    SetGuard,
    SpendFp,
    StartSubturn,
    Task,
    VitalCheck,
    Wait,
)
from kassen.arena.bout.turn import BoutTurn, with_guards, with_no_defense, with_offers
from kassen.arena.checks import AttackOutcome, CheckResult, resolve_attack
from kassen.arena.fighter import Cause, CheckBonus, Guard
from kassen.arena.rules import AudienceEffectKind
from kassen.arena.terms import CheckKind, Condition
from kassen.core.engine import Handlers
from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import N_, S_


def apply_action(turn: BoutTurn, action: Action) -> None:
    """Run ``action``'s handler (it has been validated)."""
    _ACTIONS[type(action)](turn, action)


def _on_begin(b: BoutTurn, action: Begin) -> None:
    b.state = replace(b.state, started=True)
    b.log("bout_begins", "AR.CORE.3", automatic=False, order=list(b.state.order), format=b.state.format.value)
    tasks: list[Task] = []
    if b.match():
        tasks += [PopularityCheck(fid) for fid in b.state.order]
    tasks.append(StartSubturn())
    b.push(*tasks)


def step_in(b: BoutTurn, actor: str, target: str, reach: int) -> None:
    """The attack's step toward its target (the data's ``attack_step``, 0 by default): just far enough
    to reach it, when it stands beyond reach (validation made sure the step is allowed)."""
    a, t = b.f(actor), b.f(target)
    gap = abs(a.position - t.position) - reach  # distance(), of the two already found
    if gap <= 0:
        return
    to = a.position + (gap if t.position > a.position else -gap)
    _moved(b, actor, to, N_("a step with the attack"))


def _attack_data(
    action: Attack,
    attacker: str,
    target: str,
    location: str,
    hit: bool,
    outcome: AttackOutcome,
    steps: Sequence[Step],
) -> dict[str, Any]:
    """An attack event's data (AR.GAP.2): who on whom, where, all-out or not, whether and why it hit,
    and the steps to the attack's target number."""
    return {
        "attacker": attacker,
        "target": target,
        "location": location,
        "all_out": action.all_out,
        "hit": hit,
        "reason": outcome.reason,
        "target_steps": [s.to_json() for s in steps],
    }


def _moved(b: BoutTurn, fid: str, to: int, why: str) -> None:
    f = b.f(fid)
    allowance, steps = move_allowance(b.state, f, b.rules)
    b.place(fid, to)
    foes = active_targets(b.state, b.f(fid))
    nearest = min(foes, key=lambda o: (abs(o.position - to), o.id), default=None)
    b.log_later(
        "moved",
        "AR.GAP.2",
        lambda: {
            "fighter": fid,
            "position_from": f.position,
            "position_to": to,
            "metres": abs(to - f.position),
            "move": allowance,
            "why": why,
            "nearest": nearest.id if nearest is not None else None,
            "distance": abs(nearest.position - to) if nearest is not None else None,
            "steps": [x.to_json() for x in steps],
        },
        automatic=False,
    )


def _on_attack(b: BoutTurn, action: Attack) -> None:
    rules = b.rules
    aid, tid = action.actor, action.target  # the ids of a and t, read once
    step_in(b, aid, tid, b.f(aid).profile.reach)
    a, t = b.f(aid), b.f(tid)
    if a.idle_slots:  # an attack ends a run of idle slots (AR.OUT.1); none to end: nothing to copy
        b.put(replace(a, idle_slots=0))
    loc = rules.locations.find(attack_location(action.location, rules))
    atk_target, atk_steps = attack_target(b.state, aid, tid, loc.key, action.all_out, rules=rules)
    attack = b.check(
        aid, CheckKind.ATTACK, atk_target, N_("effective skill"), (), "AR.GAP.2", automatic=False
    )

    def defend() -> CheckResult:
        target, _ = defense_target(b.state, tid, rules=rules)
        return b.check(tid, CheckKind.DEFENSE, target, N_("effective defence"), (), "AR.GAP.2")

    outcome = resolve_attack(
        attack,
        defend if can_defend(t, rules) else None,
        rules=rules.checks,
        undefended=S_("{target} cannot defend", target=tid),
    )
    hit, contest = outcome.hit, outcome.contest
    margin_of_loss = contest.margin_of_loss if contest is not None and hit else 0
    if contest is not None:
        b.log(
            "quick_contest",
            "AR.CORE.2",
            attacker=aid,
            defender=tid,
            winner=contest.winner,
            margin_of_loss=contest.margin_of_loss,
        )
    b.log_later(
        "attack",
        "AR.GAP.2",
        _attack_data,
        action,
        aid,
        tid,
        loc.key,
        hit,
        outcome,
        atk_steps,
        automatic=False,
    )
    if action.all_out:
        b.put(with_no_defense(b.f(aid), True))
    b.end_slot()
    tasks: list[Task] = []
    if hit:
        where, guard = struck_location(t, loc.key, rules)
        if guard is not None:
            b.log("guarded", "AR.GAP.2", fighter=tid, location=loc.key, arm=guard.arm)
        weapon = a.profile.weapon
        basic = b.roll_damage(weapon_damage(a.profile, rules), weapon.adds, weapon.name, "AR.DMG.1", aid)
        damage = damage_to(t, basic, weapon.damage_type, where, rules=rules)
        record = HitRecord(b.next_hit_id(), tid, damage, aid, weapon.painful, margin_of_loss)
        tasks.append(ApplyHit(record))
    if action.all_out:
        tasks.append(SpendFp(aid, rules.injury.fatigue.all_out_cost, "AR.FTG.1", N_("all-out attack")))
    b.push(*tasks)


def _on_grapple(b: BoutTurn, action: Grapple) -> None:
    rules = b.rules
    step_in(b, action.actor, action.target, rules.match.position.grapple_reach)
    a, t = b.f(action.actor), b.f(action.target)
    b.put(replace(a, idle_slots=0))
    atk, _ = attack_target(b.state, a.id, t.id, rules.damage.basic.default_location, False, rules=rules)
    attack = b.check(a.id, CheckKind.GRAPPLE, atk, N_("effective skill"), (), "AR.GAP.2", automatic=False)

    def defend() -> CheckResult:
        target, _ = defense_target(b.state, t.id, rules=rules)
        return b.check(t.id, CheckKind.DEFENSE, target, N_("effective defence"), (), "AR.GAP.2")

    held = resolve_attack(attack, defend if can_defend(t, rules) else None, rules=rules.checks).hit
    if held:
        b.put(replace(b.f(a.id), grappling=t.id))
    b.log("grapple", "AR.GAP.2", automatic=False, fighter=a.id, target=t.id, held=held)
    b.end_slot()


def _on_guard(b: BoutTurn, action: SetGuard) -> None:
    f = b.f(action.actor)
    guards = tuple(g for g in f.guards if g.arm != action.arm and g.location != action.location)
    if action.location:
        guards = (*guards, Guard(action.arm, action.location))
    b.put(with_guards(f, guards))
    b.log(
        "guard", "AR.GAP.2", automatic=False, fighter=f.id, arm=action.arm, location=action.location or None
    )
    b.end_slot()


def _on_move(b: BoutTurn, action: Move) -> None:
    """Move up to the effective Move (validated): closing or retreating (the AR.GAP.2 position model).
    Moving while an opponent was within reach passes a slot without attacking (lost will, AR.OUT.1)."""
    f = b.f(action.actor)
    could_attack = can_attack_someone(b.state, f, b.rules)
    toward = N_("closing") if _closer(b, f.id, action.to) else N_("retreating")
    _moved(b, f.id, action.to, toward)
    b.end_slot()
    _idle(b, f.id, could_attack)


def _closer(b: BoutTurn, fid: str, to: int) -> bool:
    """Whether moving to ``to`` brings ``fid`` nearer its nearest opponent."""
    f = b.f(fid)
    foes = active_targets(b.state, f)
    if not foes:
        return False
    return min(abs(o.position - to) for o in foes) < min(abs(o.position - f.position) for o in foes)


def _idle(b: BoutTurn, fid: str, could_attack: bool) -> None:
    """A slot passed without attacking while able to (an opponent within reach) counts toward losing
    the will to fight (AR.OUT.1, AR.GAP.2); one without anyone to attack does not."""
    if not could_attack:
        return
    f = b.f(fid)
    idle = f.idle_slots + 1
    b.put(replace(f, idle_slots=idle))
    if idle >= b.rules.match.match.lost_will_idle_slots:
        b.incapacitate(fid, Condition.LOST_WILL, "AR.OUT.1", Cause())


def _on_rise(b: BoutTurn, action: Rise) -> None:
    f = b.f(action.actor)
    posture = b.rules.match.combat.rise[f.posture]
    b.put(replace(f, posture=posture, facing=None))
    b.log("rise", "AR.GAP.2", automatic=False, fighter=f.id, posture=posture.value)
    b.end_slot()


def _on_wait(b: BoutTurn, action: Wait) -> None:
    f = b.f(action.actor)
    could_attack = can_attack_someone(b.state, f, b.rules)
    b.log("wait", "AR.STN.1" if f.stunned else "AR.GAP.2", automatic=False, fighter=f.id)
    b.end_slot()
    _idle(b, f.id, could_attack)


def _on_give_up(b: BoutTurn, action: GiveUp) -> None:
    f = b.f(action.actor)
    b.put(replace(f.with_condition(Condition.GAVE_UP), guards=()))
    b.log("gave_up", "AR.OUT.1", automatic=False, fighter=f.id)
    b.release_holds(f.id)
    b.end_slot()
    b.stays(f.id, Condition.GAVE_UP.value, "AR.OUT.1")


#: The scheduled checks an overridden automatic unconsciousness exempts (AR.INJ.10).
_UNCONSCIOUS_GROUP = (HeadBlow, VitalCheck, FallStunCheck)


def _on_guts(b: BoutTurn, action: Guts) -> None:
    rules = b.rules
    fid = action.actor
    offer: Offer | None = None
    if b.state.offers:
        offer = b.state.offers[0]
        b.state = replace(b.state, offers=b.state.offers[1:])
    f = b.f(fid)
    cause = offer.cause if offer is not None else f.stun_cause
    condition = offer.condition if offer is not None else Condition.STUNNED.value
    b.lose_fp(fid, rules.injury.guts.fp_cost, "AR.GUT.1", N_("guts check"))
    f = b.f(fid)
    target, steps = guts_target(f, cause, rules)
    bonus = next((x for x in f.check_bonuses if CheckKind.GUTS in x.checks), None)
    if bonus is not None:
        f = replace(f, check_bonuses=tuple(x for x in f.check_bonuses if x is not bonus))
    b.put(replace(f, guts_checks=f.guts_checks + 1))
    result = b.roll_check(fid, CheckKind.GUTS, target, steps, "AR.GUT.1", automatic=False, against=condition)
    if not result.success:
        if offer is not None:
            b.stays(fid, condition, offer.rule, offer.cause)
        return
    f = b.f(fid)
    exempt: tuple[type[AutoStun | HeadBlow | VitalCheck | FallStunCheck], ...]
    if condition == Condition.STUNNED.value:
        b.put(f.without_condition(Condition.STUNNED))
        b.log(
            "overridden",
            "AR.GUT.1",
            automatic=False,
            fighter=fid,
            condition=condition,
            now=N_("acts normally"),
        )
        exempt = (AutoStun,)
    else:
        b.put(
            replace(
                f.without_condition(Condition(condition)).with_condition(Condition.STUNNED), stun_cause=cause
            )
        )
        b.log(
            "overridden",
            "AR.GUT.1",
            automatic=False,
            fighter=fid,
            condition=condition,
            now=N_("stunned instead"),
        )
        exempt = _UNCONSCIOUS_GROUP
    if offer is not None and offer.automatic and cause.hit_id:
        agenda = b.agenda
        kept = tuple(t for t in agenda if not (isinstance(t, exempt) and t.hit.hit_id == cause.hit_id))
        dropped = len(agenda) - len(kept)
        if dropped:
            b.set_agenda(kept)
            b.log("exempted", "AR.INJ.10", fighter=fid, hit=cause.hit_id, exempted=dropped)


def _on_cheer(b: BoutTurn, action: Cheer) -> None:
    f = b.f(action.actor)
    effect = audience_effect(action.effect, b.rules)
    f = replace(f, audience_points=f.audience_points - 1)
    b.put(f)
    b.log(
        "audience_point",
        "AR.AUD.3",
        automatic=False,
        fighter=f.id,
        effect=action.effect,
        effect_kind=effect.kind.value,
    )
    AUDIENCE_HANDLERS[effect.kind](b, f.id, action.effect)


def _on_decline(b: BoutTurn, action: Decline) -> None:
    o = b.state.offers[0]
    b.state = with_offers(b.state, b.state.offers[1:])
    b.log("declined", o.rule, automatic=False, fighter=o.fighter, condition=o.condition)
    b.stays(o.fighter, o.condition, o.rule, o.cause)


#: Action type → handler (each handler's signature names its own action type).
ACTION_HANDLERS: Handlers[BoutTurn] = (
    Handlers[BoutTurn]()
    .add(Begin, _on_begin)
    .add(Attack, _on_attack)
    .add(Grapple, _on_grapple)
    .add(SetGuard, _on_guard)
    .add(Move, _on_move)
    .add(Rise, _on_rise)
    .add(Wait, _on_wait)
    .add(GiveUp, _on_give_up)
    .add(Guts, _on_guts)
    .add(Cheer, _on_cheer)
    .add(Decline, _on_decline)
)


#: Action type → handler, read by one lookup (:func:`apply_action`).
_ACTIONS = ACTION_HANDLERS.table


# -- audience effects (AR.AUD.3), dispatched by kind ------------------------------------------------------
def _recover_fp(b: BoutTurn, fid: str, name: str) -> None:
    f = b.f(fid)
    e = b.rules.match.audience.effects[name]
    fp = min(f.profile.fp, f.fp + e.amount)
    b.put(replace(f, fp=fp))
    b.log("fp_recovered", "AR.AUD.3", fighter=fid, fp_before=f.fp, fp_after=fp)
    offers = b.state.offers
    if (
        offers
        and offers[0].fighter == fid
        and offers[0].condition == "helpless"
        and not helpless(b.f(fid), b.rules)
    ):
        b.state = replace(b.state, offers=offers[1:])
        b.log(
            "overridden",
            "AR.RD.6",
            automatic=False,
            fighter=fid,
            condition="helpless",
            now=S_("FP {fp}", fp=fp),
        )


def _check_bonus(b: BoutTurn, fid: str, name: str) -> None:
    f = b.f(fid)
    e = b.rules.match.audience.effects[name]
    b.put(replace(f, check_bonuses=(*f.check_bonuses, CheckBonus(e.name, e.amount, e.checks))))


def _clear_shock(b: BoutTurn, fid: str, name: str) -> None:
    f = b.f(fid)
    b.put(replace(f, shocks=()))
    b.log("shock_cleared", "AR.AUD.3", fighter=fid)


AUDIENCE_HANDLERS: dict[AudienceEffectKind, Callable[[BoutTurn, str, str], None]] = {
    AudienceEffectKind.RECOVER_FP: _recover_fp,
    AudienceEffectKind.CHECK_BONUS: _check_bonus,
    AudienceEffectKind.CLEAR_SHOCK: _clear_shock,
}
