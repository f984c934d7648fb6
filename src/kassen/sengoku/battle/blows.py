"""What an attack is worth to the Sengoku heuristic at a target with so many Wounds left: the expected
Wounds it *takes*, not the Wounds it deals.

A target can lose no more Wounds than it has (SG.WND.4: at 0 it falls and is removed, SG.INP.1), and a
breath's later attack at a fallen target is forfeited with its Energy already paid (SG.BRT.1). So what a
breath's attacks at one target are worth is the expectation of the *capped* sum, ``E[min(X1 + X2 + ...,
W)]``, read from each attack's exact chance of each number of Wounds
(:attr:`~kassen.sengoku.odds.AttackOdds.wound_chances`, the attack's own resolution over every roll) —
not the sum of the expectations capped, ``min(E[X1] + E[X2], W)``, which counts two shots that each
fell a 1-Wound target half the time (together: 3 times in 4) as a sure kill, and so never pays for the
dearer, surer shot of Aim Focus (SG.AIM.2). When the target has Wounds enough for every Wound the
attacks can take, the two are the same sum.

A :class:`Blow` holds one attack's chances (a ready reaction counted as turning away half the attacks,
the heuristic's reading), its mean, and the capped values of the attack alone and twice at every Wound
count below its reach, exact and rounded once, worked out once for every state the same attack meets
the same Defense class (the content keeps them, ``BattleRules.attack_values``). :func:`dealt` and
:func:`rough_dealt` value any list of a breath's attacks at one target, the first perhaps made from a
Stealth Movement that turns it into an automatic Critical Hit with some chance (SG.AMB.2): exactly, and
in floating point for ranking (the same sums over floats; the exact values settle near ties).
"""

from __future__ import annotations

__all__ = ["NOTHING", "Blow", "Hit", "blow_of", "dealt", "rough_dealt", "standing_of"]

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from kassen.core.fastinit import fast_init

if TYPE_CHECKING:
    from kassen.sengoku.battle.state import BattleState

_ZERO = Fraction(0)
_HALF = Fraction(1, 2)


@fast_init
@dataclass(frozen=True, slots=True)
class Blow:
    """One attack at one Defense class, as the heuristic weighs it (see the module notes).

    ``chances[k]`` is the chance it takes ``k`` Wounds; ``bonus`` a hair added to its value whatever the
    target's Wounds (the heuristic's preference for [Pierce] against heavy armor); ``mean`` the expected
    Wounds plus ``bonus`` and ``rough`` its float; ``most`` the most Wounds it can take. ``once[w]`` is
    ``E[min(X, w)] + bonus`` and ``twice[w]`` the same of two such attacks, for every ``w`` below
    ``most`` (twice: ``2 * most``), with their floats: at a target with more Wounds left the cap takes
    nothing off (:meth:`at`, :meth:`twice_at`)."""

    mean: Fraction
    rough: float
    chances: tuple[Fraction, ...]
    rough_chances: tuple[float, ...]
    bonus: Fraction
    most: int
    once: tuple[Fraction, ...]
    rough_once: tuple[float, ...]
    twice: tuple[Fraction, ...]
    rough_twice: tuple[float, ...]

    def at(self, wounds: int) -> Fraction:
        """``E[min(X, wounds)]`` plus the bonus: what the attack takes from a target with ``wounds`` left."""
        return self.mean if wounds >= self.most else self.once[wounds]

    def rough_at(self, wounds: int) -> float:
        return self.rough if wounds >= self.most else self.rough_once[wounds]

    def twice_at(self, wounds: int) -> Fraction:
        """The same of the attack made twice at the target (two independent rolls)."""
        return self.mean + self.mean if wounds >= 2 * self.most else self.twice[wounds]

    def rough_twice_at(self, wounds: int) -> float:
        return self.rough + self.rough if wounds >= 2 * self.most else self.rough_twice[wounds]


def blow_of(chances: Sequence[Fraction], *, bonus: Fraction = _ZERO, halved: bool = False) -> Blow:
    """The :class:`Blow` of an attack that takes ``k`` Wounds with chance ``chances[k]`` (they sum to
    1), plus ``bonus``; ``halved``: the target has a reaction ready, read as turning away half such
    attacks (nothing taken then, the bonus halved too)."""
    odds = tuple(chances) or (Fraction(1),)
    if halved:
        odds = ((1 + odds[0]) * _HALF, *(p * _HALF for p in odds[1:]))
        bonus = bonus * _HALF
    while len(odds) > 1 and not odds[-1]:
        odds = odds[:-1]
    most = len(odds) - 1
    mean = sum((k * p for k, p in enumerate(odds)), _ZERO) + bonus
    pair = _convolved(odds, odds)
    once = (_ZERO, *(_capped(odds, w) + bonus for w in range(1, most)))
    twice = (_ZERO, *(_capped(pair, w) + 2 * bonus for w in range(1, 2 * most)))
    return Blow(
        mean,
        float(mean),
        odds,
        tuple(float(p) for p in odds),
        bonus,
        most,
        once if most else (),
        tuple(float(v) for v in once) if most else (),
        twice if most else (),
        tuple(float(v) for v in twice) if most else (),
    )


def _convolved(a: Sequence[Fraction], b: Sequence[Fraction]) -> tuple[Fraction, ...]:
    out = [_ZERO] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                out[i + j] += p * q
    return tuple(out)


def _capped(chances: Sequence[Fraction], wounds: int) -> Fraction:
    """``E[min(X, wounds)]`` of ``X`` taking ``k`` with chance ``chances[k]``."""
    return sum((min(k, wounds) * p for k, p in enumerate(chances) if p), _ZERO)


#: One attack of a breath at a target: its blow, the chance the Stealth Movement before it makes it an
#: automatic Critical Hit (0: none) and that critical's Wounds.
Hit = tuple[Blow, Fraction, int]


def dealt(hits: Sequence[Hit], wounds: int) -> Fraction:
    """Exactly what ``hits`` (a breath's attacks at one target, in order) take from a target with
    ``wounds`` left: ``E[min(sum, wounds)]`` plus their bonuses (see the module notes)."""
    if len(hits) == 1:
        blow, sneak, critical = hits[0]
        if not sneak:
            return blow.at(wounds)
        return sneak * min(critical, wounds) + (1 - sneak) * blow.at(wounds)
    if len(hits) == 2 and hits[0][0] is hits[1][0] and not hits[0][1] and not hits[1][1]:
        return hits[0][0].twice_at(wounds)
    reach = sum(max(b.most, c if s else 0) for b, s, c in hits)
    if reach <= wounds:  # the cap takes nothing off: the sum of the means
        total = _ZERO
        for blow, sneak, critical in hits:
            total += sneak * critical + (1 - sneak) * blow.mean if sneak else blow.mean
        return total
    # the chance of each capped sum so far, attack by attack
    sums = [_ZERO] * (wounds + 1)
    sums[0] = Fraction(1)
    bonus = _ZERO
    for blow, sneak, critical in hits:
        odds: Sequence[Fraction] = blow.chances
        if sneak:
            mixed = [(1 - sneak) * p for p in odds] + [_ZERO] * max(0, critical + 1 - len(odds))
            mixed[critical] += sneak
            odds = mixed
            bonus += (1 - sneak) * blow.bonus
        else:
            bonus += blow.bonus
        after = [_ZERO] * (wounds + 1)
        for s, ps in enumerate(sums):
            if ps:
                for k, pk in enumerate(odds):
                    if pk:
                        after[min(s + k, wounds)] += ps * pk
        sums = after
    return sum((s * p for s, p in enumerate(sums) if p), _ZERO) + bonus


def rough_dealt(hits: Sequence[tuple[Blow, float, int]], wounds: int) -> float:
    """:func:`dealt` in floating point, for ranking: the same sums over the floats (each capped value
    of one attack, or one attack twice, rounded once from its exact value)."""
    if len(hits) == 1:
        blow, sneak, critical = hits[0]
        if not sneak:
            return blow.rough_at(wounds)
        return sneak * min(critical, wounds) + (1 - sneak) * blow.rough_at(wounds)
    if len(hits) == 2 and hits[0][0] is hits[1][0] and not hits[0][1] and not hits[1][1]:
        return hits[0][0].rough_twice_at(wounds)
    reach = sum(max(b.most, c if s else 0) for b, s, c in hits)
    if reach <= wounds:
        total = 0.0
        for blow, sneak, critical in hits:
            total += sneak * critical + (1 - sneak) * blow.rough if sneak else blow.rough
        return total
    sums = [0.0] * (wounds + 1)
    sums[0] = 1.0
    bonus = 0.0
    for blow, sneak, critical in hits:
        odds: Sequence[float] = blow.rough_chances
        if sneak:
            mixed = [(1 - sneak) * p for p in odds] + [0.0] * max(0, critical + 1 - len(odds))
            mixed[critical] += sneak
            odds = mixed
            bonus += (1 - sneak) * float(blow.bonus)
        else:
            bonus += float(blow.bonus)
        after = [0.0] * (wounds + 1)
        for s, ps in enumerate(sums):
            if ps:
                for k, pk in enumerate(odds):
                    if pk:
                        after[min(s + k, wounds)] += ps * pk
        sums = after
    return sum(s * p for s, p in enumerate(sums)) + bonus


def standing_of(state: BattleState, targets: Iterable[str]) -> int:
    """The Wounds the units ``targets`` (each counted once) have left: what the Energy a breath leaves
    can still take from them later (``policies._later``)."""
    return sum(state.unit(t).wounds for t in set(targets))


#: An attack with no chance of any Wound (a target off the battlefield, or immune).
NOTHING = blow_of((Fraction(1),))
