"""The scheduled, automatic part of the rules: one handler per kind of task on the agenda (subturns,
popularity, fatigue, stun recovery, HT at 0 HP, landings, shock expiry, each hit's injury effects, death
checks, knockback, FP thresholds). :func:`kassen.arena.bout.flow.follow_up` runs them one at a time.
"""

from __future__ import annotations

__all__ = ["TASK_HANDLERS"]

from fractions import Fraction
from functools import lru_cache
from typing import Any

from kassen.arena.audience import popularity
from kassen.arena.bout.hits import hit_plan
from kassen.arena.bout.reading import attribute_modifiers, damage_to, override_effects
from kassen.arena.bout.state import (
    AddShock,
    ApplyHit,
    AutoStun,
    BoutState,
    Death,
    DeathCheck,
    EndSubturn,
    ExpireEffects,
    FallStunCheck,
    FatigueTick,
    FpThresholds,
    HeadBlow,
    HitRecord,
    Knockback,
    KnockdownCheck,
    Land,
    Offer,
    PopularityCheck,
    SpendFp,
    StartSubturn,
    StunRecovery,
    Task,
    VitalCheck,
    ZeroHpCheck,
)
from kassen.arena.bout.turn import BoutTurn, with_posture_fall
from kassen.arena.damage import fall_modifiers, plan_fall, round_ratio, strength_damage
from kassen.arena.fighter import Cause, Fall, FighterState, Shock
from kassen.arena.injury import effective_move
from kassen.arena.knockback import landing_facing, limb_knockback_outcome, posture_factor
from kassen.arena.terms import CheckKind, Condition, DamageSource, Facing, Posture
from kassen.core.engine import Handlers
from kassen.core.explain import Step
from kassen.core.fastreplace import replace, replacer
from kassen.i18n import N_, S_

#: The hottest copies of the automatic rules, each written once for its fields (fastreplace.replacer).
_with_subturn = replacer(BoutState, "subturn", "slot")
_with_death_check = replacer(FighterState, "death_checks_done", "last_death_check_hp")
_with_shocks = replacer(FighterState, "shocks")
_with_landing = replacer(FighterState, "posture", "facing", "fall", "altitude")
_with_audience_points = replacer(FighterState, "audience_points")

#: The altitude of a fighter on the ground (a Fraction, made once: an immutable value).
_GROUND = Fraction(0)


def _t_start_subturn(b: BoutTurn, _: StartSubturn) -> None:
    n = b.state.subturn + 1
    b.state = _with_subturn(b.state, n, 0)
    b.log("subturn", "AR.CORE.3", subturn=n)
    every = b.rules.injury.fatigue.every_subturns
    fatigue = n > 1 and (n - 1) % every == 0
    order = b.state.order
    b.push(*_subturn_tasks(order, fatigue))


@lru_cache(maxsize=64)
def _subturn_tasks(order: tuple[str, ...], fatigue: bool) -> tuple[Task, ...]:
    """What the start of a subturn schedules for the fighters in ``order``: fatigue (every 10
    subturns, AR.FTG.1), stun recovery (AR.STN.2), the HT check at 0 HP (AR.HP.2). Immutable values,
    built once for each order (remembered by its arguments, which are all it reads)."""
    tasks: list[Task] = []
    if fatigue:
        tasks += [FatigueTick(fid) for fid in order]
    tasks += [StunRecovery(fid) for fid in order]
    tasks += [ZeroHpCheck(fid) for fid in order]
    return tuple(tasks)


def _t_end_subturn(b: BoutTurn, _: EndSubturn) -> None:
    tasks: list[Task] = [Land(f.id) for f in b.state.fighters if f.fall is not None]
    b.push(*tasks, ExpireEffects())


def _t_popularity(b: BoutTurn, task: PopularityCheck) -> None:
    fid = task.fighter
    f = b.f(fid)
    p = f.profile
    value, steps = popularity(
        champion=p.champion,
        holds_title=p.holds_title,
        matches=p.matches,
        age=p.age,
        reactions=p.reactions,
        rules=b.rules,
    )
    b.log_later(
        "popularity",
        "AR.AUD.1",
        lambda: {"fighter": fid, "popularity": value, "steps": [s.to_json() for s in steps]},
    )
    result = b.check(fid, CheckKind.POPULARITY, value, "popularity", (), "AR.AUD.2")
    if result.success:
        points = b.rules.match.audience.points_on_success
        g = b.f(fid)
        b.put(_with_audience_points(g, g.audience_points + points))
        b.log("audience_points", "AR.AUD.2", fighter=fid, points=points)


def _t_fatigue(b: BoutTurn, task: FatigueTick) -> None:
    fid = task.fighter
    f = b.f(fid)
    if f.has(Condition.DEAD):
        return
    every = b.rules.injury.fatigue.every_subturns
    b.lose_fp(
        fid,
        f.profile.encumbrance + 1,
        "AR.FTG.1",
        S_(
            "{every} subturns passed: encumbrance level {level} + 1",
            every=every,
            level=f.profile.encumbrance,
        ),
    )


def _t_stun_recovery(b: BoutTurn, task: StunRecovery) -> None:
    fid = task.fighter
    f = b.f(fid)
    if not f.stunned or f.incapacitated or f.lost:
        return
    result = b.ht_check(fid, CheckKind.STUN_RECOVERY, "AR.STN.2")
    if result.success:
        b.put(b.f(fid).without_condition(Condition.STUNNED))
        b.log("stun_ended", "AR.STN.2", fighter=fid)


def _t_zero_hp(b: BoutTurn, task: ZeroHpCheck) -> None:
    fid = task.fighter
    f = b.f(fid)
    if f.hp > b.rules.injury.hp.ht_check_at_or_below or f.incapacitated or f.lost:
        return
    if not b.ht_check(fid, CheckKind.ZERO_HP, "AR.HP.2").success:
        b.incapacitate(fid, Condition.UNCONSCIOUS, "AR.HP.2", Cause())


def _t_land(b: BoutTurn, task: Land) -> None:
    fid = task.fighter
    f = b.f(fid)
    fall = f.fall
    if fall is None:
        return
    rules = b.rules
    landing = rules.falling.knockback.landing
    height = f.altitude
    if fall.falls:
        b.put(_with_landing(f, Posture.LYING, fall.facing, None, _GROUND))
        b.log(
            "landed",
            "AR.KNB.6",
            fighter=fid,
            posture="lying",
            facing=fall.facing.value,
            location=fall.location,
            height=str(height),
        )
    else:
        b.put(with_posture_fall(f, fall.land_posture, None))
        b.log("landed", "AR.KNB.2", fighter=fid, posture=fall.land_posture.value, on_its_feet=True)
    tasks: list[Task] = []
    p = f.profile
    if fall.falls and landing.fall_over_damage:
        plan = plan_fall(height, p.weight_kg, b.state.ground, rules)
        if plan.dice is not None:
            basic = b.roll_damage(
                plan.dice, plan.bonus, S_("falling {height} m", height=height), "AR.FAL.1", fid
            )
            tasks.append(ApplyHit(_fall_hit(b, f, basic, fall.location, DamageSource.FALLING)))
    if fall.knocker_st is not None and (fall.falls or landing.knockback_damage == "every_landing"):
        spec = strength_damage(fall.knocker_st, "thrust", rules)
        bonus = 0
        if landing.knockback_gets_fall_modifiers:
            bonus, _ = fall_modifiers(spec.dice, p.weight_kg, b.state.ground, rules)
        sb = fall.knocker_st_bonus
        label = (
            S_(
                "knockback: thrust for ST {st} (ST {base} {bonus} in bonuses)",
                st=fall.knocker_st,
                base=fall.knocker_st - sb,
                bonus=format(sb, "+d"),
            )
            if sb
            else S_("knockback: thrust for ST {st}", st=fall.knocker_st)
        )
        raw = b.roll_damage(spec, bonus, label, "AR.KNB.3", fid)
        basic = round_ratio(max(raw, 0) * fall.knockback_factor, landing.halving)
        b.log(
            "knockback_damage",
            "AR.KNB.4",
            fighter=fid,
            rolled=raw,
            factor=str(fall.knockback_factor),
            basic=basic,
        )
        tasks.append(ApplyHit(_fall_hit(b, f, basic, fall.location, DamageSource.KNOCKBACK)))
    b.push(*tasks)


def _fall_hit(b: BoutTurn, f: FighterState, basic: int, location: str, source: DamageSource) -> HitRecord:
    kind = (
        b.rules.falling.falling.damage_type
        if source is DamageSource.FALLING
        else b.rules.falling.knockback.damage_type
    )
    return HitRecord(b.next_hit_id(), f.id, damage_to(f, basic, kind, location, rules=b.rules, source=source))


def _t_expire(b: BoutTurn, _: ExpireEffects) -> None:
    n = b.state.subturn
    for f in b.state.fighters:
        ended = [s for s in f.shocks if s.until <= n]
        if ended:
            b.put(_with_shocks(f, tuple(s for s in f.shocks if s.until > n)))
            b.log(
                "shock_expired",
                "AR.INJ.2",
                fighter=f.id,
                subturn=n,
                ended=[{"kind": s.kind, "value": s.value} for s in ended],
            )


def _t_apply_hit(b: BoutTurn, task: ApplyHit) -> None:
    hit: HitRecord = task.hit
    rules = b.rules
    fid = hit.victim
    f = b.f(fid)
    d = hit.damage
    b.log_later("damage", "AR.DMG.5", _damage_data, hit)
    if f.has(Condition.DEAD):
        return
    plan = hit_plan(f, hit, rules)
    before, f = f.hp, plan.fighter
    after = f.hp
    b.put(f)
    b.log("injury", "AR.INJ.1", fighter=fid, hit=hit.hit_id, final=d.final, hp_before=before, hp_after=after)
    hp = rules.injury.hp
    if before > hp.move_halved_at_or_below >= after:
        _log_move_halved(b, f, "AR.HP.1", hp_before=before, fp_before=f.fp)
    if before > hp.ht_check_at_or_below >= after:
        b.log("ht_checks_each_subturn", "AR.HP.2", fighter=fid, hp=after)
    if plan.newly_crippled:
        b.log("crippled", "AR.DMG.6", fighter=fid, location=d.location)
    b.push(*plan.tasks)


def _damage_data(hit: HitRecord) -> dict[str, Any]:
    """A damage event's data (AR.DMG.5): whose, which hit, by whom, and the damage's every value."""
    return {"fighter": hit.victim, "hit": hit.hit_id, "attacker": hit.attacker, **hit.damage.to_json()}


def _t_death_check(b: BoutTurn, task: DeathCheck) -> None:
    hit: HitRecord = task.hit
    fid = hit.victim
    f = b.f(fid)
    if f.has(Condition.DEAD):
        return
    b.put(_with_death_check(f, (*f.death_checks_done, task.threshold), f.hp))
    b.log("death_check_due", "AR.HP.3", fighter=fid, threshold=task.threshold, hp=f.hp)
    if not b.ht_check(fid, CheckKind.DEATH, "AR.HP.3").success:
        b.incapacitate(fid, Condition.DEAD, "AR.HP.3", hit.cause)


def _t_death(b: BoutTurn, task: Death) -> None:
    b.incapacitate(task.hit.victim, Condition.DEAD, "AR.HP.4", task.hit.cause)


def _t_head_blow(b: BoutTurn, task: HeadBlow) -> None:
    hit: HitRecord = task.hit
    b.incapacitate(hit.victim, Condition.UNCONSCIOUS, "AR.INJ.9", hit.cause, automatic=True)


def _t_vital(b: BoutTurn, task: VitalCheck) -> None:
    hit: HitRecord = task.hit
    if b.f(hit.victim).incapacitated:
        return
    if not b.ht_check(hit.victim, CheckKind.VITAL, "AR.INJ.8").success:
        b.incapacitate(hit.victim, Condition.UNCONSCIOUS, "AR.INJ.8", hit.cause)


def _t_auto_stun(b: BoutTurn, task: AutoStun) -> None:
    hit: HitRecord = task.hit
    b.stun(hit.victim, task.rule, hit.cause, automatic=True)


def _t_knockdown(b: BoutTurn, task: KnockdownCheck) -> None:
    hit: HitRecord = task.hit
    fid = hit.victim
    f = b.f(fid)
    if f.incapacitated or f.posture is Posture.LYING:
        return
    if not b.ht_check(fid, CheckKind.KNOCKDOWN, "AR.INJ.6").success:
        tier = b.rules.locations.locations[hit.damage.location].tier
        b.fall_over(fid, landing_facing(tier), "AR.INJ.6")
        b.log("lands_facing", "AR.KNB.7", fighter=fid, tier=tier.value, facing=landing_facing(tier).value)


def _t_fall_stun(b: BoutTurn, task: FallStunCheck) -> None:
    hit: HitRecord = task.hit
    fid = hit.victim
    f = b.f(fid)
    if f.incapacitated:
        return
    which = b.rules.falling.falling.readings.stun_check_attribute
    p = f.profile
    attr = ("ht" if p.ht >= p.per else "per") if which == "higher" else which
    base = p.ht if attr == "ht" else p.per
    mod = Step(-hit.damage.final, S_("falling damage {final}", final=hit.damage.final), "AR.FAL.2")
    rule_step = Step(
        0, S_("stun check on {attribute} ({reading})", attribute=attr.upper(), reading=which), "AR.RD.4"
    )
    mods = (rule_step, mod, *attribute_modifiers(b.state, fid, attr, b.rules))
    result = b.check(fid, CheckKind.FALL_STUN, base, attr.upper(), mods, "AR.FAL.2", ht_based=attr == "ht")
    if result.success:
        return
    if result.margin_of_failure >= b.rules.falling.falling.stun_check.unconscious_margin:
        b.incapacitate(fid, Condition.UNCONSCIOUS, "AR.FAL.2", hit.cause)
    else:
        b.stun(fid, "AR.FAL.2", hit.cause, automatic=False)


def _t_knockback(b: BoutTurn, task: Knockback) -> None:
    hit: HitRecord = task.hit
    rules = b.rules
    fid = hit.victim
    f = b.f(fid)
    if f.incapacitated:
        return
    distance: int = task.distance
    loc = rules.locations.locations[hit.damage.location]
    knocker = b.f(hit.attacker).profile if hit.attacker else None
    if loc.limb is not None:
        b.log("knocked_back", "AR.KNB.1", fighter=fid, metres=distance, location=loc.key)
        _limb_knockback(b, f, loc.key, distance)
        return
    # knocked back: pushed away from the attacker along the line (the AR.GAP.2 position model), once the
    # DX check below is made where (and as held as) the fighter was struck
    to = f.position
    if hit.attacker is not None:
        a = b.f(hit.attacker)
        sides = _sides(b)
        away = (
            1 if (f.position, sides.index(f.profile.side)) > (a.position, sides.index(a.profile.side)) else -1
        )
        to = f.position + away * distance
    b.log(
        "knocked_back",
        "AR.KNB.1",
        fighter=fid,
        metres=distance,
        location=loc.key,
        position_from=f.position,
        position_to=to,
        attacker=hit.attacker,
    )
    falling = f.fall is not None and f.fall.falls
    before = f.fall.from_posture if f.fall is not None else f.posture
    factor, fstep = posture_factor(before, f.altitude, rules)
    # the check takes the DX penalties in force: shock and pain left from earlier hits (this hit's shock
    # comes after its effects, AR.INJ.2) and being held (AR.GAP.2)
    mods = [Step(-distance, S_("knocked back {distance} m", distance=distance), "AR.KNB.2")]
    mods += attribute_modifiers(b.state, fid, "dx", rules)
    result = b.check(fid, CheckKind.KNOCKBACK, f.profile.dx, "DX", mods, "AR.KNB.2")
    b.place(fid, to)
    f = b.f(fid)
    st = knocker.knockback_st if knocker is not None else 0
    st_bonus = knocker.st_bonus if knocker is not None else 0
    knockdown_stands = rules.falling.knockback.facing.knockdown_and_failed_knockback == "knockdown"
    if falling and f.fall is not None and (result.success or knockdown_stands):
        # AR.RD.9: a fall already under way keeps its facing and landing; by the other reading a failed
        # check does too, the knockback only adding its damage
        fall = replace(f.fall, knocker_st=st, knockback_factor=factor, knocker_st_bonus=st_bonus)
    elif not result.success:
        fall = Fall(
            True, landing_facing(None), Posture.LYING, rules.locations.brain, before, st, factor, st_bonus
        )
    else:
        fall = Fall(
            False,
            Facing.FACE_UP,
            before if before is not Posture.AERIAL else Posture.STANDING,
            rules.damage.basic.default_location,
            before,
            st,
            factor,
            st_bonus,
        )
    b.put(with_posture_fall(f, Posture.AERIAL, fall))
    b.log(
        "aerial",
        "AR.KNB.2",
        fighter=fid,
        falls=fall.falls,
        lands_on=fall.location if fall.falls else None,
        knockback_factor=str(factor),
        factor_reason=fstep.reason,
    )


def _sides(b: BoutTurn) -> list[str]:
    """Which way a knockback pushes when two fighters stand at the same point: by the order the sides
    were listed in (a fighter's rank is its side's index here)."""
    return list(dict.fromkeys(x.profile.side for x in b.state.fighters))


def _limb_knockback(b: BoutTurn, f: FighterState, location: str, distance: int) -> None:
    """Force on a limb: an ST − distance check (with the ST penalties in force, AR.FTG.2) instead of
    being knocked back; an arm drops its guard, a leg is rooted and may fall (AR.KNB.5)."""
    rules = b.rules
    loc = rules.locations.locations[location]
    assert loc.limb is not None
    mods = [Step(-distance, S_("knocked back {distance} m", distance=distance), "AR.KNB.5")]
    mods += attribute_modifiers(b.state, f.id, "st", rules)
    result = b.check(f.id, CheckKind.LIMB_KNOCKBACK, f.profile.st, "ST", mods, "AR.KNB.5")
    outcome = limb_knockback_outcome(loc.limb, result.success, result.margin_of_failure, rules)
    f = b.f(f.id)
    if outcome.drop_guard:
        arm = rules.locations.limb_root(loc.key)
        if any(g.arm == arm for g in f.guards):
            b.put(replace(f, guards=tuple(g for g in f.guards if g.arm != arm)))
            b.log("guard_dropped", "AR.KNB.5", fighter=f.id, arm=arm)
    if outcome.rooted:
        b.put(replace(b.f(f.id), rooted_until=b.state.subturn))
        b.log("rooted", "AR.KNB.5", fighter=f.id, until_subturn=b.state.subturn)
    if outcome.falls:
        f = b.f(f.id)
        if f.posture is Posture.LYING or (f.fall is not None and f.fall.falls):
            # a fighter already down, or already falling, has nowhere to fall: the failure roots it
            # and nothing more (AR.KNB.5 makes it fall over; AR.KNB.6 is a fall from one's feet)
            down = "falling" if f.posture is not Posture.LYING else "lying"
            b.log("cannot_fall", "AR.KNB.5", fighter=f.id, already=down, cause=N_("leg knockback"))
        else:
            b.fall_over(f.id, landing_facing(None, leg_knockback=True), "AR.KNB.5")
            b.log(
                "lands_facing",
                "AR.KNB.7",
                fighter=f.id,
                facing=Facing.FACE_DOWN.value,
                cause=N_("leg knockback"),
            )


def _t_add_shock(b: BoutTurn, task: AddShock) -> None:
    hit: HitRecord = task.hit
    fid = hit.victim
    f = b.f(fid)
    if f.has(Condition.DEAD):
        return
    until = b.state.subturn + b.rules.checks.subturns.until_end_of_next
    new = [Shock("shock", hit.damage.final, until)]
    if hit.painful:
        new.append(Shock("pain", hit.damage.final, until))
    b.put(_with_shocks(f, (*f.shocks, *new)))
    b.log("shock", "AR.INJ.2", fighter=fid, penalty=hit.damage.final, until_end_of_subturn=until)
    if hit.painful:
        b.log("pain", "AR.INJ.3", fighter=fid, penalty=hit.damage.final, until_end_of_subturn=until)


def _t_spend_fp(b: BoutTurn, task: SpendFp) -> None:
    b.lose_fp(task.fighter, task.amount, task.rule, task.reason)


def _t_fp_thresholds(b: BoutTurn, task: FpThresholds) -> None:
    """The FP thresholds crossed from ``before`` to ``after`` (both taken when the FP were spent, so
    each crossing is told once): ST checks at −3 (AR.FTG.2), Move halved unless injury already halved
    it (AR.FTG.3), FP 1 (AR.FTG.4), FP 0 (AR.FTG.5)."""
    fid = task.fighter
    f = b.f(fid)
    fat = b.rules.injury.fatigue
    before, fp = task.before, task.after
    if before > fat.st_penalty_at_or_below >= fp:
        b.log("fatigued", "AR.FTG.2", fighter=fid, fp=fp, st_checks=fat.st_penalty)
    injured = f.hp <= b.rules.injury.hp.move_halved_at_or_below
    if before > fat.move_halved_at_or_below >= fp and not injured:
        _log_move_halved(b, f, "AR.FTG.3", fp_before=before, fp_after=fp)
    if fp <= fat.unconscious_at_or_below < before:
        b.incapacitate(fid, Condition.UNCONSCIOUS, "AR.FTG.5", Cause())
    elif fp == fat.helpless_at != before and not f.incapacitated and not f.lost:
        b.log("helpless", "AR.FTG.4", fighter=fid, fp=fp)
        if b.match():
            if override_effects(f, "helpless", b.rules):
                b.offer(Offer(fid, "helpless", "AR.FTG.4"))
                b.log("override_offered", "AR.RD.6", fighter=fid, condition="helpless")
            else:
                b.stays(fid, "helpless", "AR.FTG.4")


def _log_move_halved(
    b: BoutTurn,
    f: FighterState,
    rule: str,
    *,
    hp_before: int | None = None,
    fp_before: int | None = None,
    fp_after: int | None = None,
) -> None:
    """Log Move halved by injury (AR.HP.1) or fatigue (AR.FTG.3) with the Move before and after (it
    limits how far the fighter moves in a slot)."""
    p = f.profile
    hp0 = f.hp if hp_before is None else hp_before
    fp0 = f.fp if fp_before is None else fp_before
    fp1 = f.fp if fp_after is None else fp_after
    rules = b.rules
    old, _ = effective_move(p.move, encumbrance=p.encumbrance, hp=hp0, fp=fp0, rules=rules)
    new, _ = effective_move(p.move, encumbrance=p.encumbrance, hp=f.hp, fp=fp1, rules=rules)
    if rule == "AR.HP.1":
        b.log("move_halved", rule, fighter=f.id, hp=f.hp, move_before=old, move_after=new)
    else:
        b.log("move_halved", rule, fighter=f.id, fp=fp1, move_before=old, move_after=new)


#: Task type → handler (each handler's signature names its own task type).
TASK_HANDLERS: Handlers[BoutTurn] = (
    Handlers[BoutTurn]()
    .add(StartSubturn, _t_start_subturn)
    .add(EndSubturn, _t_end_subturn)
    .add(PopularityCheck, _t_popularity)
    .add(FatigueTick, _t_fatigue)
    .add(StunRecovery, _t_stun_recovery)
    .add(ZeroHpCheck, _t_zero_hp)
    .add(Land, _t_land)
    .add(ExpireEffects, _t_expire)
    .add(ApplyHit, _t_apply_hit)
    .add(DeathCheck, _t_death_check)
    .add(Death, _t_death)
    .add(HeadBlow, _t_head_blow)
    .add(VitalCheck, _t_vital)
    .add(AutoStun, _t_auto_stun)
    .add(KnockdownCheck, _t_knockdown)
    .add(FallStunCheck, _t_fall_stun)
    .add(Knockback, _t_knockback)
    .add(AddShock, _t_add_shock)
    .add(SpendFp, _t_spend_fp)
    .add(FpThresholds, _t_fp_thresholds)
)
