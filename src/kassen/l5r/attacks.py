"""Attack rolls: the declared attack when its turn comes, and the Point-to-throat holder's extra attack.

:func:`resolve_attack` rolls the attack against its TN (L5.CORE.2, L5.CORE.3, L5.CORE.9), with the exact
chance it had (the same pool the roll uses: :func:`kassen.l5r.pool.chance`); on a hit it hands over to the
special attack's handler (:data:`kassen.l5r.specials.SPECIALS`) or to the damage roll
(:func:`kassen.l5r.damage.deal_damage`).
"""

from __future__ import annotations

__all__ = ["AttackRoll", "attack_roll", "resolve_attack", "throat_strike"]

from dataclasses import dataclass
from fractions import Fraction

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.i18n import N_, S_
from kassen.l5r.actions import Attack, ThroatStrike
from kassen.l5r.character import FighterId
from kassen.l5r.damage import deal_damage
from kassen.l5r.movement import close_in, move
from kassen.l5r.pool import chance, roll_pool
from kassen.l5r.rolls import AttackPool, RaisePlan, attack_pool, attack_tn
from kassen.l5r.specials import SPECIALS, release_bind
from kassen.l5r.state import DuelState, Fighter, ThroatPending
from kassen.l5r.tables import L5Tables
from kassen.l5r.turn import L5Turn
from kassen.l5r.validate import free_raises_for, unthreatened, validate_attack


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """What an attack rolls and against what: its pool, its TN (with the steps that make it) and the
    exact chance that the pool reaches it (L5.CORE.2, L5.CORE.3)."""

    pool: AttackPool
    tn: int
    tn_steps: tuple[Step, ...]

    @property
    def chance(self) -> Fraction:
        """``P(roll >= TN)``, exact (:func:`kassen.l5r.pool.chance`)."""
        return chance(self.pool.pool, self.tn)


def attack_roll(
    state: DuelState,
    attacker: Fighter,
    target: Fighter,
    attack: Attack,
    plan: RaisePlan,
    tables: L5Tables,
    *,
    attacker_wounds: int | None = None,
) -> AttackRoll:
    """The attack roll of ``attack`` (its raises paid by ``plan``) in ``state``: what
    :func:`resolve_attack` rolls, and what the odds shown before declaring it read
    (:mod:`kassen.l5r.odds`)."""
    ap = attack_pool(attacker, tables, state.turn, full_attack=attack.full_attack)
    tn, tn_steps = attack_tn(attacker, target, plan, tables, state.turn, attacker_wounds=attacker_wounds)
    return AttackRoll(ap, tn, tn_steps)


def resolve_attack(
    turn: L5Turn,
    actor: FighterId,
    attack: Attack,
    *,
    extra_free: int = 0,
    attacker_wounds: int | None = None,
    action_index: int | None = None,
    simultaneous: bool = False,
) -> None:
    """Roll the attack (L5.CORE.2, L5.CORE.3, L5.CORE.9); on a hit, apply the special attack or the
    damage. An attack no longer possible when its turn comes (its target down, the attacker disarmed
    or unskilled since declaring raises, the target beyond reach and move...) is lost, with the rule
    that stops it; otherwise the attacker first closes to reach (L5.GAP.1 position model)."""
    t, now = turn.tables, turn.now
    attacker = turn.fighter(actor)
    index = attacker.declarations_made if action_index is None else action_index
    free = extra_free + free_raises_for(attacker, attack.target, index)
    try:
        plan = validate_attack(turn.state, attacker, attack, t, free=free, simultaneous=simultaneous)
    except IllegalActionError as exc:
        turn.event(
            "lost_action",
            S_(
                "{name}'s {attack} cannot be made: {why} ({rule})",
                name=actor,
                attack=attack.describe(),
                why=exc.message,
                rule=exc.rule,
            ),
            exc.rule,
            fighter=actor,
        )
        return
    for s in attacker.active("obstructed", now):
        if s.other == attack.target:
            turn.event(
                "lost_action",
                S_(
                    "{name} is obstructed ({source}) and cannot reach {other}",
                    name=actor,
                    source=s.source,
                    other=s.other,
                ),
                "L5.FOL.1",
                fighter=actor,
            )
            return
    target = turn.fighter(attack.target)
    to, feet = close_in(turn.state, attacker, target, t)
    if feet:  # the turn's move, made with the attack (L5.GAP.1 position model)
        attacker = move(attacker, to)
        turn.put(attacker)
        turn.event(
            "move",
            S_("{name} closes {feet} feet on {target} to strike", name=actor, feet=feet, target=target.name),
            "L5.GAP.1",
            fighter=actor,
            feet=feet,
            position=to,
        )
    aim = attack_roll(turn.state, attacker, target, attack, plan, t, attacker_wounds=attacker_wounds)
    ap, tn, tn_steps, p = aim.pool, aim.tn, aim.tn_steps, aim.chance
    r = roll_pool(ap.pool, turn.dice, S_("attack roll"), "L5.CORE.9", explain=turn.explain)
    hit = r.total >= tn
    steps = [*ap.steps, *tn_steps, *r.steps]
    per = t.core.raises.tn_per_raise
    if hit:
        steps.append(Step(r.total, S_("{roll} >= TN {tn}: hit", roll=r.total, tn=tn), "L5.CORE.2"))
    else:
        steps.append(Step(r.total, S_("{roll} < TN {tn}: miss", roll=r.total, tn=tn), "L5.CORE.2"))
        if plan.paid and r.total >= tn - plan.paid * per:
            steps.append(
                Step(
                    r.total,
                    S_(
                        "it beat the TN without its raises, but a roll that misses the raised TN fails outright"  # noqa: E501
                    ),
                    "L5.CORE.3",
                )
            )
    turn.event(
        "attack",
        S_(
            "{name}: {attack} - rolls {roll} against TN {tn}: {outcome}",
            name=actor,
            attack=attack.describe(),
            roll=r.total,
            tn=tn,
            outcome=N_("hit") if hit else N_("miss"),
        ),
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
    if not hit:
        return
    if any(s.other == attack.target for s in attacker.active("bound", now)):
        turn.event(
            "bind_freed",
            S_("{name} hits the binder with the trapped weapon and frees it", name=actor),
            "L5.BND.1",
            fighter=actor,
        )
        release_bind(turn, actor, attack.target)
    if attack.special is not None:
        SPECIALS[attack.special](turn, actor, attack, r.total)
        return
    deal_damage(turn, actor, attack, damage_raises=attack.damage_raises)


def throat_strike(turn: L5Turn, action: ThroatStrike) -> None:
    """The holder's extra attack with its Free Raises (L5.PTT.1); the point ends with it. The strike
    was validated (:func:`kassen.l5r.validate.validate_strike`)."""
    p = turn.state.pending
    assert isinstance(p, ThroatPending)
    free = turn.tables.special_attacks.point_to_throat.free_raises
    turn.update(pending=None)
    turn.state = unthreatened(turn.state, action.actor, p.threatened)
    turn.event(
        "point_to_throat",
        S_(
            "{name} moves with a point at the throat: {holder} strikes at once with {free} Free Raises",
            name=p.threatened,
            holder=action.actor,
            free=free,
        ),
        "L5.PTT.1",
        fighter=p.threatened,
    )
    resolve_attack(turn, action.actor, action.attack, extra_free=free, action_index=-1)
