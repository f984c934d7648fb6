"""Exact odds before committing (principle 4): the chance an attack hits, the damage it is expected to
do, and the chance of a knockout, all as fractions.

>>> from kassen.arena.checks import check_odds
>>> hit_chance(10, None) == check_odds(10).success
True
"""

from __future__ import annotations

__all__ = ["damage_table", "expected_final", "hit_chance", "knockout_chance"]

import json
from fractions import Fraction
from functools import lru_cache

from kassen.arena.checks import check_is_critical, check_succeeds, roll_distribution
from kassen.arena.damage import DamageResult, Reduction, divide_ht, resolve_damage
from kassen.arena.rules import ArenaRules, DiceSpec, load_rules
from kassen.arena.terms import DamageType
from kassen.dice import distribution


def hit_chance(attack: int, defense: int | None, rules: ArenaRules | None = None) -> Fraction:
    """P(an attack at effective skill ``attack`` hits a defender at effective ``defense``; None: no
    defence): the attack succeeds and wins the quick contest (AR.CORE.2), or is a critical success
    (the house-default attack rule, AR.GAP.2)."""
    r = rules or load_rules()
    c = r.checks.criticals
    dist = roll_distribution(r.checks.dice, r.checks.sides)
    outcomes = sum(dist.values())
    hits = 0
    for a, na in dist.items():
        if not check_succeeds(a, attack, c):
            continue
        if defense is None or check_is_critical(a, attack, True, c):
            hits += na * outcomes
            continue
        for d, nd in dist.items():
            if (attack - a) > (defense - d):
                hits += na * nd
    return Fraction(hits, outcomes * outcomes)


@lru_cache(maxsize=4096)
def damage_table(
    dice: DiceSpec,
    damage_type: DamageType,
    ht: int,
    location: str,
    armor: int,
    bone: int | None,
    soft: int | None,
    reductions: tuple[Reduction, ...],
    prior: int,
    overrides: str = "{}",
) -> tuple[tuple[Fraction, DamageResult], ...]:
    """Every basic-damage outcome of ``dice`` with its probability and its full pipeline result."""
    r = load_rules(json.loads(overrides) or None)
    table = distribution(dice.notation)
    return tuple(
        (
            p,
            resolve_damage(
                basic,
                damage_type,
                ht=ht,
                location=location,
                armor_dr=armor,
                bone_dr=bone,
                soft_dr=soft,
                reductions=reductions,
                prior_location_damage=prior,
                rules=r,
            ),
        )
        for basic, p in table.probabilities.items()
    )


def expected_final(table: tuple[tuple[Fraction, DamageResult], ...]) -> Fraction:
    """The mean final damage of a :func:`damage_table`."""
    return sum((p * d.final for p, d in table), Fraction(0))


def knockout_chance(
    table: tuple[tuple[Fraction, DamageResult], ...], ht: int, rules: ArenaRules | None = None
) -> Fraction:
    """P(the hit stuns automatically: final damage ≥ HT/2, AR.INJ.5) — the chance a hit takes the
    target out of the exchange."""
    r = rules or load_rules()
    half = divide_ht(ht, r.injury.stun.ht_divisor, r)
    return sum((p for p, d in table if d.final >= half), Fraction(0))
