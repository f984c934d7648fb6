"""Exact odds of an attack check, before committing to it.

The 100 equally likely ``(d1, d2)`` rolls are run through the same :func:`resolve_check` and
:func:`classify` as a real attack, so the odds can never disagree with the resolution. The result only
depends on ``Defense - modifier`` (clamped to the reachable 2..21) and the doubles readings, so each
combination is computed once and cached.

>>> odds = attack_odds(3, 12)
>>> odds.hit, odds.critical, odds.fumble
(Fraction(18, 25), Fraction(3, 50), Fraction(1, 25))
"""

from __future__ import annotations

__all__ = ["ODDS_KEYS", "AttackOdds", "attack_odds"]

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kassen.sengoku.check import CheckKind, CheckOutcome, DoublesPolicy, classify, resolve_check
from kassen.sengoku.resolution import EffectKind, ResolutionRules, load_resolution
from kassen.sengoku.technique import BASE_ATTACK, Technique
from kassen.sengoku.wounds import critical_wounds, hit_wounds

#: The keys of :meth:`AttackOdds.to_json`, in order.
ODDS_KEYS = ("hit", "critical", "fumble", "heavenly_mandate", "karmic_retribution", "expected_wounds")


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact chances of one attack check. ``hit`` includes Critical Hits; ``fumble`` is among the
    misses; ``expected_wounds`` is the mean Wounds of the attack (base: 1 on a hit, 2 on a critical)."""

    modifier: int
    defense: int
    hit: Fraction
    critical: Fraction
    fumble: Fraction
    heavenly_mandate: Fraction
    karmic_retribution: Fraction
    expected_wounds: Fraction

    @property
    def miss(self) -> Fraction:
        return 1 - self.hit

    @property
    def ordinary_hit(self) -> Fraction:
        return self.hit - self.critical

    def fractions(self) -> dict[str, Fraction]:
        """The six chances, keyed as in :data:`ODDS_KEYS`."""
        return {key: getattr(self, key) for key in ODDS_KEYS}

    def to_json(self) -> dict[str, float]:
        """Floats, for display: keys ``hit, critical, fumble, heavenly_mandate, karmic_retribution,
        expected_wounds``."""
        return {key: float(value) for key, value in self.fractions().items()}


@dataclass(frozen=True, slots=True)
class _Counts:
    """How many of the 100 rolls give each outcome."""

    hit: int
    critical: int
    fumble: int
    heavenly_mandate: int
    karmic_retribution: int
    rolls: int


@lru_cache(maxsize=1024)
def _counts(need: int, sides: int, policy: DoublesPolicy) -> _Counts:
    tally: Counter[str] = Counter()
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            kind = classify(resolve_check((a, b), 0, need, sides=sides), kind=CheckKind.ATTACK, policy=policy)
            tally["hit"] += kind.outcome.succeeded
            tally["critical"] += kind.outcome is CheckOutcome.CRITICAL
            tally["fumble"] += kind.outcome is CheckOutcome.FUMBLE
            tally["heavenly_mandate"] += kind.heavenly_mandate
            tally["karmic_retribution"] += kind.karmic_retribution
    return _Counts(
        tally["hit"],
        tally["critical"],
        tally["fumble"],
        tally["heavenly_mandate"],
        tally["karmic_retribution"],
        sides * sides,
    )


def _wounds_of(tech: Technique, rules: ResolutionRules) -> tuple[int, int]:
    """Wounds of an ordinary hit and of a Critical Hit with ``tech`` (with its added effects)."""
    extra_hit = sum(e.wounds for e in tech.on_hit if e.kind is EffectKind.EXTRA_WOUNDS)
    extra_crit = sum(e.wounds for e in tech.on_critical if e.kind is EffectKind.EXTRA_WOUNDS)
    return (
        hit_wounds(tech, rules)[0] + extra_hit,
        critical_wounds(tech, rules)[0] + extra_hit + extra_crit,
    )


def attack_odds(
    modifier: int,
    defense: int,
    *,
    rules: ResolutionRules | None = None,
    technique: Technique = BASE_ATTACK,
) -> AttackOdds:
    """Exact odds of ``2d10 + modifier >= defense`` with its doubles (SG.CHK.1-2, SG.CRT.1, SG.CRT.4,
    SG.FUM.1, SG.FUM.3, under the SG.RD.4 readings), and the expected Wounds of ``technique`` (a base
    1-Wound attack by default; SG.WND.1-2, SG.RD.1)."""
    r = rules or load_resolution()
    sides = r.check.sides
    need = min(max(defense - modifier, 2), 2 * sides + 1)
    c = _counts(need, sides, DoublesPolicy.from_rules(r))
    n = c.rolls
    hit_w, crit_w = _wounds_of(technique, r)
    return AttackOdds(
        modifier=modifier,
        defense=defense,
        hit=Fraction(c.hit, n),
        critical=Fraction(c.critical, n),
        fumble=Fraction(c.fumble, n),
        heavenly_mandate=Fraction(c.heavenly_mandate, n),
        karmic_retribution=Fraction(c.karmic_retribution, n),
        expected_wounds=Fraction((c.hit - c.critical) * hit_w + c.critical * crit_w, n),
    )
