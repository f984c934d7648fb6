"""Exact odds before committing (principle 4): the chance an attack hits, the damage it is expected to
do, and the chance of a knockout, all as fractions.

Each walks every outcome through the function the bout resolves it with: :func:`hit_chance` resolves
each pair of attack and defence outcomes with :func:`~kassen.arena.checks.resolve_attack` (so a tie in
the quick contest goes where the data's ``contest.tie_winner`` says), :func:`damage_table` sends each
basic damage of the roll's exact distribution through :func:`~kassen.arena.damage.resolve_damage`.

>>> from kassen.arena.checks import check_odds
>>> hit_chance(10, None) == check_odds(10).success
True
"""

from __future__ import annotations

__all__ = [
    "AttackRollOdds",
    "attack_roll_odds",
    "damage_outcomes",
    "damage_table",
    "expected_final",
    "hit_chance",
    "knockout_chance",
    "mean_final",
]

import math
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kassen.arena.checks import CheckResult, check_outcomes, resolve_attack, success_chance
from kassen.arena.content import load_rules
from kassen.arena.damage import DamageResult, Reduction, damage_finals, divide_ht, finals_key, resolve_damage
from kassen.arena.rules import ArenaRules, CheckRules, DiceSpec
from kassen.arena.terms import DamageType
from kassen.core.fastinit import fast_init
from kassen.dice import distribution


@fast_init
@dataclass(frozen=True, slots=True)
class AttackRollOdds:
    """Exact odds of an attack's rolls (the attack check, then the defence): it ``hit`` (by a
    ``critical`` success among them), the ``defended`` attack (the roll succeeded, the defence won the
    contest), and the ``missed`` one (the attack roll failed)."""

    hit: Fraction
    critical: Fraction
    defended: Fraction
    missed: Fraction


def attack_roll_odds(attack: int, defense: int | None, rules: ArenaRules | None = None) -> AttackRollOdds:
    """Every outcome of the attack check against ``attack`` and of the defence check against ``defense``
    (None: the defender cannot defend), each pair resolved by :func:`~kassen.arena.checks.resolve_attack`
    (the house-default attack rule, AR.GAP.2; the quick contest, AR.CORE.2)."""
    return _attack_rolls(attack, defense, (rules or load_rules()).checks)


@lru_cache(maxsize=4096)
def _attack_rolls(attack: int, defense: int | None, r: CheckRules) -> AttackRollOdds:
    """:func:`attack_roll_odds`, kept by value (the check tables are frozen: hashed by their values).

    :func:`~kassen.arena.checks.resolve_attack` reads an attack outcome only through its success, its
    critical success and its margin, and a defence only through its critical success and its margin,
    the margins only compared (AR.CORE.2, AR.RD.9): so each pair is tallied by its class (the attack's
    success and critical success, the defence's critical success, how the margins compare), and
    ``resolve_attack`` decides one representative pair of each class (a handful a table, where every
    pair resolved in full cost a contest and its words each: the heuristic asks a new table for every
    new attack/defence pair). Within an attack row the class changes only where the defence's margin
    passes the attack's: the defences of each critical-or-not kind are sorted by margin once, and a row
    takes the counts of those below, at and above its margin by bisection, instead of one look per pair.
    ``tests/arena/test_odds_engine.py`` resolves every pair and compares the two."""
    hits = crits = defended = missed = total = 0
    defences = check_outcomes(defense, rules=r) if defense is not None else ()
    groups = _by_margin(defense, r) if defense is not None else ()
    row = sum(nd for _, nd in defences)
    decided: dict[tuple[bool, int], bool] = {}
    #: a row no defence is rolled against (none at all, or the attack failed or is critical) goes one
    #: way, by the attack's success and critical success (all resolve_attack reads of it then)
    undefended: dict[tuple[bool, bool], bool] = {}
    for a, na in check_outcomes(attack, rules=r):
        success, critical = a.success, a.critical_success
        known = undefended.get((success, critical))
        if not defences:
            total += na
            if known is None:
                known = undefended[(success, critical)] = resolve_attack(a, None, rules=r).hit
            hits += na if known else 0
            crits += na if known and critical else 0
            missed += 0 if known else na
            continue
        if not success or critical:  # no defence is rolled: the whole row goes one way
            total += na * row
            if known is None:
                known = undefended[(success, critical)] = resolve_attack(
                    a, _rolled(defences[0][0]), rules=r
                ).hit
            hit = known
            hits += na * row if hit else 0
            crits += na * row if hit and critical else 0
            missed += na * row if not success else 0
            defended += na * row if success and not hit else 0
            continue
        # a success, not critical: the class of a pair is the defence's critical success and how the two
        # margins compare (the attack's success and critical success are the same all row long)
        margin = a.margin
        for critical_defence, margins, below, outcomes in groups:
            at = bisect_left(margins, margin)
            past = at + 1 if at < len(margins) and margins[at] == margin else at
            for lo, hi, compared in ((0, at, 1), (at, past, 0), (past, len(margins), -1)):
                n = below[hi] - below[lo]
                if not n:
                    continue
                key = (critical_defence, compared)
                known = decided.get(key)
                if known is None:  # one representative pair of the class decides it
                    known = decided[key] = resolve_attack(a, _rolled(outcomes[lo]), rules=r).hit
                total += na * n
                if known:
                    hits += na * n
                else:
                    defended += na * n
    return AttackRollOdds(
        Fraction(hits, total), Fraction(crits, total), Fraction(defended, total), Fraction(missed, total)
    )


_Group = tuple[bool, list[int], list[int], list[CheckResult]]


def _by_margin(defense: int, r: CheckRules) -> tuple[_Group, ...]:
    """The outcomes of a defence against ``defense`` split by critical success, each kind sorted by
    margin: whether critical, the margins, how many face tuples lie below each index (a running count,
    one longer), the outcomes. A pure function of the target and the check rules, asked again by every
    new attack target against the same defence (remembered by the check rules, kassen.core.memo)."""
    memo = r.memos.by_margin
    found = memo.get(defense)
    return found if found is not None else memo.put(defense, _grouped(check_outcomes(defense, rules=r)))


def _grouped(defences: tuple[tuple[CheckResult, int], ...]) -> tuple[_Group, ...]:
    groups: list[_Group] = []
    for critical in (False, True):
        kind = sorted(
            ((d.margin, nd, d) for d, nd in defences if d.critical_success == critical), key=_margin
        )
        below = [0]
        for _, nd, _ in kind:
            below.append(below[-1] + nd)
        groups.append((critical, [m for m, _, _ in kind], below, [d for _, _, d in kind]))
    return tuple(groups)


def _margin(entry: tuple[int, int, CheckResult]) -> int:
    return entry[0]


def hit_chance(attack: int, defense: int | None, rules: ArenaRules | None = None) -> Fraction:
    """P(an attack at effective skill ``attack`` hits a defender at effective ``defense``; None: no
    defence): every outcome of the attack check and of the defence check, resolved by
    :func:`~kassen.arena.checks.resolve_attack` (:func:`attack_roll_odds`). With no defence an attack
    hits exactly when its roll succeeds (``resolve_attack``: a failed roll misses, any success hits), so
    its chance is the check's own, read at the nearest target with the same chance
    (:func:`~kassen.arena.checks.success_chance`)."""
    if defense is None:
        return success_chance(attack, rules=(rules or load_rules()).checks)
    return attack_roll_odds(attack, defense, rules).hit


def _rolled(check: CheckResult) -> Callable[[], CheckResult]:
    """A defence that "rolls" the given outcome (the enumeration's stand-in for the dice)."""
    return lambda: check


def damage_outcomes(
    dice: DiceSpec, resolve: Callable[[int], DamageResult]
) -> tuple[tuple[Fraction, DamageResult], ...]:
    """Every basic damage of ``dice``'s exact distribution with its probability, resolved by ``resolve``
    (the function the bout resolves that damage with)."""
    return tuple((p, resolve(basic)) for basic, p in _probabilities(dice.notation))


@lru_cache(maxsize=256)
def _probabilities(notation: str) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of a damage roll (``2d6+1``), kept by its notation."""
    return tuple(distribution(notation).probabilities.items())


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
    rules: ArenaRules | None = None,
) -> tuple[tuple[Fraction, DamageResult], ...]:
    """Every basic-damage outcome of ``dice`` with its probability and its full pipeline result."""
    r = rules or load_rules()
    return damage_outcomes(
        dice,
        lambda basic: resolve_damage(
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


def expected_final(table: tuple[tuple[Fraction, DamageResult], ...]) -> Fraction:
    """The mean final damage of a :func:`damage_table`."""
    return sum((p * d.final for p, d in table), Fraction(0))


def mean_final(
    dice: DiceSpec,
    damage_type: DamageType,
    ht: int,
    location: str,
    armor: int,
    bone: int | None,
    soft: int | None,
    reductions: tuple[Reduction, ...],
    prior: int,
    rules: ArenaRules | None = None,
    cap: int | None = None,
) -> Fraction:
    """``expected_final(damage_table(...))``, exact, without the table: each basic damage's final
    damage alone (:func:`~kassen.arena.damage.damage_finals`, the pipeline without its words), summed
    over the roll's distribution as whole numbers over one common denominator. What the heuristic
    weighs every attack by: the table's records, steps and fractions were made and thrown away. With
    ``cap``, each final damage counts up to ``cap`` (E[min(final, cap)]): what more would not change."""
    r = rules or load_rules()
    # remembered by the rules (kassen.core.memo), by what the finals read (finals_key): a location whose
    # terms another had already (the other arm, leg, hand...) is weighed with its mean
    terms = finals_key(
        damage_type, ht=ht, location=location, armor_dr=armor, bone_dr=bone, soft_dr=soft, rules=r
    )
    key = (dice.notation, terms, reductions, prior, cap)
    memo = r.memos.means
    found = memo.get(key)
    if found is None:
        mean = _mean_final(dice, damage_type, ht, location, armor, bone, soft, reductions, prior, r, cap)
        found = memo.put(key, mean)
    return found


def _mean_final(
    dice: DiceSpec,
    damage_type: DamageType,
    ht: int,
    location: str,
    armor: int,
    bone: int | None,
    soft: int | None,
    reductions: tuple[Reduction, ...],
    prior: int,
    r: ArenaRules,
    cap: int | None = None,
) -> Fraction:
    outcomes = _probabilities(dice.notation)
    finals = damage_finals(
        (basic for basic, _ in outcomes),
        damage_type,
        ht=ht,
        location=location,
        armor_dr=armor,
        bone_dr=bone,
        soft_dr=soft,
        reductions=reductions,
        prior_location_damage=prior,
        rules=r,
    )
    common = math.lcm(*(p.denominator for _, p in outcomes))
    total = 0
    for (_, p), final in zip(outcomes, finals, strict=True):
        total += p.numerator * (common // p.denominator) * (final if cap is None else min(final, cap))
    return Fraction(total, common)


def knockout_chance(
    table: tuple[tuple[Fraction, DamageResult], ...], ht: int, rules: ArenaRules | None = None
) -> Fraction:
    """P(the hit stuns automatically: final damage ≥ HT/2, AR.INJ.5) — the chance a hit takes the
    target out of the exchange."""
    r = rules or load_rules()
    half = divide_ht(ht, r.injury.stun.ht_divisor, r)
    return sum((p for p, d in table if d.final >= half), Fraction(0))
