"""Odds before committing: the exact outcome distribution of an attack a menu offers.

:func:`attack_preview` reads an attack the way it will resolve — the same rule functions, nothing
re-implemented: the raises paid by :func:`~kassen.l5r.validate.validate_attack`, the roll and its TN by
:func:`~kassen.l5r.attacks.attack_roll` (what :func:`~kassen.l5r.attacks.resolve_attack` rolls), the
chance by :func:`~kassen.l5r.pool.chance`, the damage pool by :func:`~kassen.l5r.rolls.damage_pool`, the
Wounds it adds by :func:`~kassen.l5r.damage.wounds_after` (Subdue stops at Out) and the wound rank they
reach by :func:`~kassen.l5r.rolls.rank`. It gives (:class:`kassen.core.menu.Odds`):

- ``hit``: the roll reaches the TN with every declared raise met (a roll that misses the raised TN fails
  outright, L5.CORE.3); ``TN before raises``: it would reach the TN without the paid raises — what the
  raises cost; ``target down``: the blow leaves the target Out, dying or dead (L5.CORE.6, L5.RD.4);
- expected ``Wounds`` the blow adds and expected ``wound ranks`` the target goes down, for an attack that
  deals Wounds on a hit (a plain attack, Foul, Subdue). A called shot's injury is chosen after the hit and
  a refused Drive's damage by the defender: neither is counted.

The attack is read as the duel stands at the declaration: the attacker having declared it, the target
as it is — with one thing known to come first: a Full Defense the target has already declared is rolled
before any action (L5.CORE.7), so the chance is the exact mixture over that roll. What other characters
acting earlier in the turn may change is not foreseen. Probabilities are exact fractions; expected values
and the Full Defense mixture read the dice engine's distributions, whose exploding tails are capped with
less than 1e-13 of the mass moved.
"""

from __future__ import annotations

__all__ = ["AttackPreview", "attack_preview", "declared_state"]

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.core.menu import Odds
from kassen.i18n import N_, S_
from kassen.l5r.actions import Action, ActKind, Attack, Declare, ThroatStrike
from kassen.l5r.attacks import attack_roll
from kassen.l5r.damage import wounds_after
from kassen.l5r.pool import Pool, chance, outcomes
from kassen.l5r.rolls import damage_pool, full_defense_pool, rank
from kassen.l5r.state import DuelState, Fighter, ThroatPending
from kassen.l5r.tables import L5Tables
from kassen.l5r.validate import free_raises_for, unthreatened, validate_attack
from kassen.l5r.wounds import rank_index


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """An attack before it is declared: the pool it rolls, its TN as the duel stands (``full_defense``:
    the target's declared Full Defense, still to be rolled, will add to it), the damage pool (``None``:
    no Wounds on a hit) and the exact :class:`~kassen.core.menu.Odds`."""

    pool: Pool
    tn: int
    full_defense: bool
    damage: Pool | None
    odds: Odds

    def summary(self) -> str:
        """``6k3 vs TN 25, damage 7k2`` (``TN 25 + Full Defense`` while it is still to be rolled)."""
        said = {"pool": self.pool.expression(), "tn": self.tn}
        if self.damage is None:
            if self.full_defense:
                return S_("{pool} vs TN {tn} + Full Defense", **said)
            return S_("{pool} vs TN {tn}", **said)
        said["damage_pool"] = self.damage.expression()
        if self.full_defense:
            return S_("{pool} vs TN {tn} + Full Defense, damage {damage_pool}", **said)
        return S_("{pool} vs TN {tn}, damage {damage_pool}", **said)


def declared_state(state: DuelState, action: Declare) -> DuelState:
    """``state`` as it will be once ``action`` is declared: the declaration recorded and counted."""
    f = state.fighter(action.actor)
    return state.with_fighter(replace(f, declared=action.act, declarations_made=f.declarations_made + 1))


def attack_preview(state: DuelState, tables: L5Tables, action: Action) -> AttackPreview | None:
    """The preview of an attack-like decision — a declared :class:`~kassen.l5r.actions.Attack`, or the
    Point-to-throat holder's :class:`~kassen.l5r.actions.ThroatStrike` — ``None`` for any other, or for
    one the rules refuse now."""
    t = tables
    if isinstance(action, Declare) and isinstance(action.act, Attack):
        now = declared_state(state, action)
        attack, actor, extra, index = action.act, action.actor, 0, None
    elif isinstance(action, ThroatStrike) and isinstance(state.pending, ThroatPending):
        now = unthreatened(state, action.actor, state.pending.threatened)
        attack, actor, index = action.attack, action.actor, -1
        extra = t.special_attacks.point_to_throat.free_raises
    else:
        return None
    if not now.has_fighter(attack.target):
        return None
    attacker, target = now.fighter(actor), now.fighter(attack.target)
    # as resolve_attack reads them: the Free Raises held for this action, then the raises' plan
    number = attacker.declarations_made if index is None else index
    free = extra + free_raises_for(attacker, attack.target, number)
    try:
        plan = validate_attack(now, attacker, attack, t, free=free)
    except IllegalActionError:
        return None
    per = t.core.raises.tn_per_raise
    shown = attack_roll(now, attacker, target, attack, plan, t)
    bonuses = _defense_bonuses(target, t, now.turn)
    if len(bonuses) == 1:
        hit, unraised = shown.chance, chance(shown.pool.pool, shown.tn - plan.paid * per)
    else:  # the mixture over the Full Defense roll: the attack's distribution read at each TN
        reaches = _at_least(shown.pool.pool)
        hit = unraised = Fraction(0)
        for bonus, weight in bonuses:
            guarded = replace(target, full_defense_bonus=bonus, full_defense_rolled=True)
            aim = attack_roll(now, attacker, guarded, attack, plan, t)
            hit += weight * reaches(aim.tn)
            unraised += weight * reaches(aim.tn - plan.paid * per)
    found: list[tuple[str, Fraction]] = [(N_("hit"), hit)]
    if plan.paid:
        found.append((N_("TN before raises"), unraised))
    expected: list[tuple[str, Fraction]] = []
    row = t.special(attack.special) if attack.special is not None else None
    dmg: Pool | None = None
    if row is None or row.damage:
        dmg, _ = damage_pool(attacker, attack, t, now.turn, damage_raises=attack.damage_raises)
        floor = row.out_floor if row is not None else False
        before = rank(target, t)
        wounds = ranks = down = Fraction(0)
        for damage, q in outcomes(dmg):
            new, _ = wounds_after(target, damage, t, out_floor=floor)
            after = rank(target, t, new)
            wounds += q * (new - target.wounds)
            ranks += q * (rank_index(after, t) - rank_index(before, t))
            if after.down and not before.down:
                down += q
        found.append((N_("target down"), hit * down))
        expected = [(N_("Wounds"), hit * wounds), (N_("wound ranks"), hit * ranks)]
    return AttackPreview(
        shown.pool.pool, shown.tn, len(bonuses) > 1, dmg, Odds(tuple(found), tuple(expected))
    )


def _at_least(pool: Pool) -> Callable[[int], Fraction]:
    """``P(total >= x)`` for any ``x``, read from the pool's distribution (:func:`outcomes`)."""
    table = outcomes(pool)
    tails: list[Fraction] = []
    running = Fraction(0)
    for _, q in reversed(table):
        running += q
        tails.append(running)
    tails.reverse()
    values = [v for v, _ in table]

    def reaches(x: int) -> Fraction:
        i = bisect_left(values, x)
        return tails[i] if i < len(tails) else Fraction(0)

    return reaches


def _defense_bonuses(target: Fighter, tables: L5Tables, turn: int) -> tuple[tuple[int, Fraction], ...]:
    """The target's Full Defense bonus as it will be when the attack resolves: the one it has, for
    sure — unless it declared Full Defense still to be rolled (rolled before any action,
    L5.CORE.7): then each bonus (half the roll, rounded down) with its probability."""
    declared = target.declared
    if declared is None or declared.do is not ActKind.FULL_DEFENSE or target.full_defense_rolled:
        return ((target.full_defense_bonus, Fraction(1)),)
    pool, _ = full_defense_pool(target, tables, turn)
    divisor = tables.core.full_defense.bonus_divisor
    bonuses: dict[int, Fraction] = {}
    for total, q in outcomes(pool):
        bonuses[total // divisor] = bonuses.get(total // divisor, Fraction(0)) + q
    return tuple((b, q) for b, q in bonuses.items())
