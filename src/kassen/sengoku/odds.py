"""Exact odds of an attack, before committing to it: the attack's own resolution, over every roll.

One chance rule (DESIGN principle 4): the odds are not computed beside the rules but *by* them. Each of
the ``sides × sides`` equally likely ``(d1, d2)`` rolls is run through
:func:`~kassen.sengoku.attack.resolve_attack` — the very function the battle resolves an attack with —
and its outcome, d100 table and Wounds are counted, so the odds can never drift from the engine. A
non-attack check (a Stealth Movement, say) is enumerated the same way through
:func:`~kassen.sengoku.check.resolve_check` (:func:`check_chance`).

The outcome of a roll depends only on ``Defense - modifier`` (clamped to the reachable range), the
resolution rules and the technique's Wounds, so an :class:`OddsTable` (one per set of resolution rules,
bounded) enumerates each combination once.

>>> odds = attack_odds(3, 12)
>>> odds.hit, odds.critical, odds.fumble
(Fraction(18, 25), Fraction(3, 50), Fraction(1, 25))
"""

from __future__ import annotations

__all__ = ["ODDS_KEYS", "AttackOdds", "OddsTable", "attack_odds", "blow_of", "check_chance"]

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kassen.core.fastinit import fast_init
from kassen.core.memo import Memo
from kassen.sengoku.attack import Attack, AttackOutcome, FixedDefense, resolve_attack
from kassen.sengoku.check import resolve_check
from kassen.sengoku.defense import DefenseRules
from kassen.sengoku.grades import GradeTable
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import ResolutionRules, load_resolution
from kassen.sengoku.technique import BASE_ATTACK, Technique

#: The keys of :meth:`AttackOdds.to_json`, in order.
ODDS_KEYS = ("hit", "critical", "fumble", "heavenly_mandate", "karmic_retribution", "expected_wounds")
#: The most ``(need, technique)`` combinations one :class:`OddsTable` remembers.
TABLE_LIMIT = 2048


@fast_init
@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact chances of one attack check. ``hit`` includes Critical Hits; ``fumble`` is among the
    misses; ``expected_wounds`` is the mean Wounds of the attack (base: 1 on a hit, 2 on a critical);
    ``wound_chances[k]`` the chance it takes exactly ``k`` Wounds (from 0 to the most any roll takes,
    summing to 1): what the Wounds a target has left make of it (the chance a blow fells, the Wounds
    it can still take) is read from it."""

    modifier: int
    defense: int
    hit: Fraction
    critical: Fraction
    fumble: Fraction
    heavenly_mandate: Fraction
    karmic_retribution: Fraction
    expected_wounds: Fraction
    wound_chances: tuple[Fraction, ...]

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
class _Tally:
    """The chance of each outcome over every roll, and the mean Wounds."""

    hit: Fraction
    critical: Fraction
    fumble: Fraction
    heavenly_mandate: Fraction
    karmic_retribution: Fraction
    wounds: Fraction
    #: The chance of each number of Wounds, from 0.
    spread: tuple[Fraction, ...]


class _TableDie:
    """The d100 of a decisive moment or a critical mistake, counted once whatever its face. Face 1 is
    each house table's first row (Rhythm of Victory, Overextended), which touches no Wounds, so the
    expected Wounds are the blow's; what the rarer rows add (a Decisive Blow, a self-injury) depends on
    the units and the battlefield and is left to the rows themselves (``resolution.yaml``)."""

    def die(self, sides: int) -> int:
        return 1


#: The attack's two sides in the enumeration: a target that can take every Wound of any blow (so the
#: Wounds counted are the blow's, never capped by the Wounds it has left), and an attacker no row can
#: fell. Both state their Wounds, so no grade table is read for them.
_ATTACKER = CombatProfile(name="attacker", grade=Grade.PC, wounds_max=1_000)
_TARGET = CombatProfile(name="target", grade=Grade.LORD, wounds_max=1_000)


class OddsTable:
    """Exact attack odds under one set of resolution rules (see the module notes).

    ``defense_rules`` and ``grades`` are the other tables of the content in force (a battle's:
    :class:`~kassen.sengoku.battle.rules.BattleRules` passes its own), handed to every
    :func:`resolve_attack` of the enumeration (a fumble's Defenseless, a row's [Break]); ``None`` is the
    bundled data. The tallies depend on ``rules`` alone."""

    __slots__ = ("_tallies", "defense_rules", "grades", "limit", "rules")

    def __init__(
        self,
        rules: ResolutionRules,
        *,
        defense_rules: DefenseRules | None = None,
        grades: GradeTable | None = None,
        limit: int = TABLE_LIMIT,
    ) -> None:
        self.rules = rules
        self.defense_rules = defense_rules
        self.grades = grades
        self.limit = limit
        self._tallies: Memo[tuple[int, Technique], _Tally] = Memo(max(limit, 2))

    def attack(self, modifier: int, defense: int, technique: Technique = BASE_ATTACK) -> AttackOdds:
        """Exact odds of ``2d10 + modifier >= defense`` with its doubles (SG.CHK.1-2, SG.CRT.1, SG.CRT.4,
        SG.FUM.1, SG.FUM.3, under the SG.RD.4 readings), and the expected Wounds of ``technique``
        (SG.WND.1-3, SG.CRT.2-3, SG.RD.1)."""
        sides = self.rules.check.sides
        need = min(max(defense - modifier, 2), 2 * sides + 1)
        key = (need, technique)
        tally = self._tallies.get(key)
        if tally is None:
            # the same tally for every technique with the same Wounds and effects (see :func:`blow_of`),
            # worked out once for them all and remembered under this one too
            shared = (need, blow_of(technique))
            tally = self._tallies.get(shared)
            if tally is None:
                tally = self._enumerate(need, shared[1])
            self._tallies[shared] = self._tallies[key] = tally
        return AttackOdds(
            modifier,
            defense,
            tally.hit,
            tally.critical,
            tally.fumble,
            tally.heavenly_mandate,
            tally.karmic_retribution,
            tally.wounds,
            tally.spread,
        )

    def _enumerate(self, need: int, technique: Technique) -> _Tally:
        """Every roll through :func:`resolve_attack` against Defense ``need`` at modifier 0.

        With no Fate die moved, the resolution reads the two faces as a pair — their total, whether they
        match and the double's face (SG.CHK.1-2) — never which die showed which, nor the faces of a
        pair that does not match but through its total. So each double is resolved once, and one pair
        of each total that is not a double stands for every ordered roll of that total (counted that
        many times): 27 resolutions for 2d10 instead of 100. ``tests/sengoku/test_odds_table.py``
        checks the tally against every ordered roll for every catalog technique."""
        sides = self.rules.check.sides
        action = Attack(technique, modifier=0)
        defense = FixedDefense(need)
        counts = dict.fromkeys(("hit", "critical", "fumble", "decisive_moment", "critical_mistake"), 0)
        wounds = 0
        spread: list[int] = []
        for (a, b), weight in _pairs(sides):
            r = resolve_attack(
                _ATTACKER,
                _TARGET,
                action,
                defense,
                (a, b),
                table_dice=_TableDie(),
                rules=self.rules,
                grades=self.grades,
                defense_rules=self.defense_rules,
            )
            counts["hit"] += weight * r.hit
            counts["critical"] += weight * (r.outcome is AttackOutcome.CRITICAL)
            counts["fumble"] += weight * (r.outcome is AttackOutcome.FUMBLE)
            if r.table is not None:
                counts[r.table.table] += weight
            lost = r.wounds_lost
            wounds += weight * lost
            if lost >= len(spread):
                spread += [0] * (lost + 1 - len(spread))
            spread[lost] += weight
        n = sides * sides
        return _Tally(
            Fraction(counts["hit"], n),
            Fraction(counts["critical"], n),
            Fraction(counts["fumble"], n),
            Fraction(counts["decisive_moment"], n),
            Fraction(counts["critical_mistake"], n),
            Fraction(wounds, n),
            tuple(Fraction(k, n) for k in spread),
        )


def _pairs(sides: int) -> tuple[tuple[tuple[int, int], int], ...]:
    """The rolls :meth:`OddsTable._enumerate` resolves, each with how many ordered rolls it stands for:
    every double once, and the first pair of each total that is not a double for all of them."""
    found: dict[int, tuple[tuple[int, int], int]] = {}
    for a in range(1, sides + 1):
        for b in range(a + 1, sides + 1):
            pair, n = found.get(a + b, ((a, b), 0))
            found[a + b] = (pair, n + 2)
    return (*(((a, a), 1) for a in range(1, sides + 1)), *found.values())


def blow_of(technique: Technique) -> Technique:
    """``technique`` with only what the enumeration reads of it: its Wounds and critical Wounds, and its
    effects on a hit and on a Critical Hit (SG.WND.1-3, SG.WND.6, SG.CRT.2-3). Its name, weapon, check
    parts (the modifier is given), Energy, Aim Focus and id only name or price the attack, and its tags
    act on a Defense the enumeration does not work out (it is given: no [Pierce] removed, no [Break] to
    leave, SG.BRK.1): two techniques with the same blow have the same odds
    (``tests/sengoku/test_odds_table.py`` checks every catalog technique and Aim Focus form at every
    Defense)."""
    return Technique(
        wounds=technique.wounds,
        critical_wounds=technique.critical_wounds,
        on_hit=technique.on_hit,
        on_critical=technique.on_critical,
    )


@lru_cache(maxsize=1)
def _bundled_table() -> OddsTable:
    return OddsTable(load_resolution())


def attack_odds(
    modifier: int,
    defense: int,
    *,
    rules: ResolutionRules | None = None,
    technique: Technique = BASE_ATTACK,
    defense_rules: DefenseRules | None = None,
    grades: GradeTable | None = None,
) -> AttackOdds:
    """Exact odds of one attack (see :meth:`OddsTable.attack`) under ``rules``, ``defense_rules`` and
    ``grades`` (each left out: the bundled data, as for a calculator on the bundled content); a base
    1-Wound attack unless ``technique`` says otherwise."""
    if rules is None and defense_rules is None and grades is None:
        table = _bundled_table()
    else:
        resolution = rules if rules is not None else load_resolution()
        table = OddsTable(resolution, defense_rules=defense_rules, grades=grades)
    return table.attack(modifier, defense, technique)


@lru_cache(maxsize=4096)
def check_chance(modifier: int, target: int, *, sides: int = 10) -> Fraction:
    """The exact chance that ``2d10 + modifier >= target`` succeeds, every roll through
    :func:`~kassen.sengoku.check.resolve_check` (the function a check is resolved with, SG.CHK.1).

    >>> check_chance(3, 11)
    Fraction(79, 100)
    """
    faces = range(1, sides + 1)
    hits = sum(resolve_check((a, b), modifier, target, sides=sides).success for a in faces for b in faces)
    return Fraction(hits, sides * sides)
