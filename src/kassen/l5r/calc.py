"""Calculators: the exact odds of a raised roll, and one attack resolved with its explanation.

>>> r = roll_odds("6k3", 20, raises=1)
>>> r.target, r.fraction == chance(Pool(6, 3), 25)
(25, True)
"""

from __future__ import annotations

__all__ = ["AttackOutcome", "OddsResult", "attack_once", "roll_odds"]

from dataclasses import dataclass
from fractions import Fraction

from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event
from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.core.rng import DieSource
from kassen.i18n import N_, S_
from kassen.l5r.actions import Attack, ChooseCorps, ChooseDrive, ChooseInjury
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import Character, FighterId
from kassen.l5r.content import bundled_tables
from kassen.l5r.damage import choose_injury
from kassen.l5r.pool import Pool, chance, error_bound, parse_pool, ten_dice
from kassen.l5r.rolls import attack_pool, attack_tn
from kassen.l5r.specials import choose_corps, choose_drive
from kassen.l5r.state import CorpsPending, DrivePending, DuelState, Fighter, InjuryPending, Phase
from kassen.l5r.tables import L5Tables, SpecialAttackName
from kassen.l5r.turn import L5Turn
from kassen.l5r.validate import validate_attack


@dataclass(frozen=True, slots=True)
class OddsResult:
    """``P(pool >= target)`` exactly, where ``target`` is the TN plus 5 per raise (L5.CORE.3)."""

    pool: Pool
    tn: int
    raises: int
    target: int
    fraction: Fraction
    steps: tuple[Step, ...]
    error_bound: Fraction = Fraction(0)

    def to_json(self) -> dict[str, object]:
        return {
            "success": float(self.fraction),
            "fraction": f"{self.fraction.numerator}/{self.fraction.denominator}",
            "pool": str(self.pool.expression()),
            "explodes": self.pool.explode,
            "tn": self.tn,
            "raises": self.raises,
            "target": self.target,
            "exact": self.error_bound == 0,
            "steps": [s.to_json() for s in self.steps],
        }


def roll_odds(
    pool_text: str, tn: int, *, raises: int = 0, unskilled: bool = False, tables: L5Tables | None = None
) -> OddsResult:
    """Exact chance that ``pool_text`` (``XkY``) reaches ``tn`` + 5 x ``raises``: 10s explode unless
    ``unskilled`` (L5.CORE.1); an unskilled roll may not raise (L5.CORE.3); pools beyond ten dice follow
    the ten dice rule (L5.CORE.1 house default). The chance is :func:`kassen.l5r.pool.chance`, which
    enumerates the very roll-and-keep expression a duel rolls (:func:`kassen.l5r.pool.pool_dice`)."""
    t = tables or bundled_tables()
    if raises < 0:
        raise KassenError(S_("raises cannot be negative ({raises})", raises=raises))
    if unskilled and raises:
        raise IllegalActionError(S_("an unskilled roll may not raise"), rule="L5.CORE.3")
    given = parse_pool(pool_text, unskilled=unskilled)
    pool, steps = ten_dice(given, t.core.ten_dice)
    per = t.core.raises.tn_per_raise
    target = tn + per * raises
    all_steps = [*steps, Step(tn, S_("TN"), "L5.CORE.2")]
    if raises:
        all_steps.append(Step(per * raises, S_("{n} raise(s): +{per} each", n=raises, per=per), "L5.CORE.3"))
    p = chance(pool, target)
    explode = N_("10s explode") if pool.explode else N_("unskilled: 10s do not explode")
    said = S_(
        "P({pool} >= {target}) = {p} ({explode})", pool=pool.expression(), target=target, p=p, explode=explode
    )
    all_steps.append(Step(target, said, "L5.CORE.1"))
    bound = error_bound(pool, target)
    if bound:
        all_steps.append(
            Step(
                target, S_("beyond the exact range: within {bound}", bound=f"{float(bound):.1e}"), "L5.CORE.1"
            )
        )
    return OddsResult(pool, tn, raises, target, p, tuple(all_steps), bound)


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """One attack: its exact chance to hit before rolling, the events (each with steps), the end state."""

    chance: Fraction
    tn: int
    events: tuple[Event, ...]
    state: DuelState
    steps: tuple[Step, ...]

    @property
    def hit(self) -> bool:
        return any(e.kind == "attack" and e.data.get("hit") for e in self.events)


def attack_once(
    attacker: Character,
    target: Character,
    attack: Attack,
    dice: DieSource,
    *,
    tables: L5Tables | None = None,
    free_raises: int = 0,
    target_wounds: int = 0,
    injury: str | None = None,
) -> AttackOutcome:
    """Resolve one attack of ``attacker`` on ``target`` outside a duel (turn 1, nobody else acting).

    A called shot's injury is ``injury`` if given and possible, else the first one listed; a
    Corps-a-Corps is answered with a struggle, a Drive (when the target may refuse) with giving way.
    Illegal declarations raise :class:`IllegalActionError` naming the rule. ``dice``: the seeded
    :class:`~kassen.core.rng.Rng`, or faces given in advance.
    """
    t = tables or bundled_tables()
    if injury is not None:
        # checked before anything is rolled: an injury the attack could never offer was found only
        # when the blow landed (a miss said nothing)
        where = attack.called_shot
        if where is None:
            raise IllegalActionError(
                S_("an injury is chosen only for a called shot, and none is made"), rule="L5.CS.1"
            )
        names = sorted(t.location(where).injuries)
        if injury not in names:
            raise IllegalActionError(
                S_(
                    "{injury} is no injury of the {value} (injuries: {value_2})",
                    injury=repr(injury),
                    value=where.value,
                    value_2=", ".join(names),
                ),
                rule="L5.CS.2",
            )
    if attacker.name == target.name:
        target = replace(target, name=FighterId(target.name + " (target)"))
    a = Fighter(attacker)
    d = Fighter(target, wounds=target_wounds)
    state = DuelState(
        fighters=(a, d),
        name="attack",
        turn=1,
        phase=Phase.RESOLVE,
        act_order=(a.name, d.name),
        declare_order=(d.name, a.name),
        cursor=1,
    )
    attack = replace(attack, target=d.name)
    plan = validate_attack(state, a, attack, t, free=free_raises)
    ap = attack_pool(a, t, 1, full_attack=attack.full_attack)
    tn, tn_steps = attack_tn(a, d, plan, t, 1)
    p = chance(ap.pool, tn)
    turn = L5Turn(state, dice, t)
    resolve_attack(turn, a.name, attack, extra_free=free_raises, action_index=-1)
    for _ in range(8):  # the choices one attack can hand over: at most an injury after a Drive's blow
        pend = turn.state.pending
        if isinstance(pend, InjuryPending):
            pick = injury if injury is not None else pend.options[0]
            if pick not in pend.options:
                raise IllegalActionError(
                    S_(
                        "{pick} is not possible here (possible: {value})",
                        pick=repr(pick),
                        value=", ".join(pend.options),
                    ),
                    rule="L5.CS.3" if pick.startswith("maimed") else "L5.CS.2",
                )
            choose_injury(turn, ChooseInjury(pend.chooser, pick))
        elif isinstance(pend, CorpsPending):
            choose_corps(turn, ChooseCorps(pend.chooser, "struggle"))
        elif isinstance(pend, DrivePending):
            choose_drive(turn, ChooseDrive(pend.chooser, "give_way"))
        else:
            break
    if (
        attack.special is SpecialAttackName.FOUL
        and attack.obstructs is None
        and not any(e.kind == "foul" for e in turn.events)
    ):
        # said on a miss too: outside a duel nobody acts after the attack, so the Foul has no effect
        turn.event(
            "foul",
            S_("nobody acts after {name}: the Foul obstructs no one and has no effect", name=a.name),
            "L5.FOL.1",
            fighter=d.name,
        )
    return AttackOutcome(p, tn, tuple(turn.events), turn.state, (*ap.steps, *tn_steps))
