"""What one content's arena tables remember of their pure readings (see :mod:`kassen.core.memo`).

Each memo belongs to the tables its readings read — :attr:`ArenaRules.memos
<kassen.arena.rules.ArenaRules.memos>` for the whole content, :attr:`CheckRules.memos
<kassen.arena.rules.CheckRules.memos>` for the check tables alone — so every fight of that content
shares it and no other content's answer leaks in. Each is keyed by the values its reading reads, written
under its own lock (threads share it), and bounded.
"""

from __future__ import annotations

__all__ = ["ArenaMemos", "CheckMemos", "PolicyMemos"]

import itertools
from fractions import Fraction
from typing import TYPE_CHECKING

from kassen.core.memo import Memo

if TYPE_CHECKING:
    from kassen.arena.bout.reading import CheckTerms
    from kassen.arena.bout.state import Attack, Move, SetGuard
    from kassen.arena.checks import CheckOdds, CheckResult
    from kassen.arena.damage import DamageResult
    from kassen.arena.falling import FallPlan
    from kassen.arena.fighter import Weapon
    from kassen.arena.injury import Effect
    from kassen.arena.rules import DiceSpec
    from kassen.core.explain import Step

    #: A defence's outcomes of one kind (``odds._Group``).
    _Group = tuple[bool, list[int], list[int], list[CheckResult]]


class CheckMemos:
    """The readings of the check tables (``CheckRules``) alone."""

    __slots__ = ("by_margin", "judged", "odds", "outcomes")

    def __init__(self) -> None:
        #: (success, critical) of a check by its roll total and target (``checks._resolved``).
        self.judged: Memo[tuple[int, int], tuple[bool, bool]] = Memo(1024)
        #: Every outcome of a check against a target, with its count (``checks.check_outcomes``).
        self.outcomes: Memo[int, tuple[tuple[CheckResult, int], ...]] = Memo(256)
        #: The exact odds of a check against a target (``checks.check_odds``).
        self.odds: Memo[int, CheckOdds] = Memo(256)
        #: A defence's outcomes grouped by critical success and margin, by its target (``odds._by_margin``).
        self.by_margin: Memo[int, tuple[_Group, ...]] = Memo(256)


class ArenaMemos:
    """The readings of the whole arena tables (``ArenaRules``), each by the arguments of the function
    that makes it (which reads nothing else but the tables)."""

    __slots__ = (
        "attack_targets",
        "attacks",
        "damage",
        "defense_targets",
        "effects",
        "fall_modifiers",
        "falls",
        "guards",
        "ht_terms",
        "means",
        "modifiers",
        "moves",
        "moves_listed",
        "policy",
        "strength",
        "terms",
    )

    def __init__(self) -> None:
        #: ``damage._resolve_damage`` by its arguments.
        self.damage: Memo[tuple[object, ...], DamageResult] = Memo(2048)
        #: ``injury._injury_effects`` by its arguments.
        self.effects: Memo[tuple[object, ...], tuple[Effect, ...]] = Memo(1024)
        #: ``injury._effective_move`` by its arguments.
        self.moves: Memo[tuple[int, int, int, int, bool], tuple[int, tuple[Step, ...]]] = Memo(512)
        #: ``falling._strength_damage`` by ST and thrust or swing.
        self.strength: Memo[tuple[int, str], DiceSpec] = Memo(256)
        #: ``falling._plan_fall`` by its arguments.
        self.falls: Memo[tuple[Fraction | int, int, str | None], FallPlan] = Memo(256)
        #: ``falling._fall_modifiers`` by its arguments.
        self.fall_modifiers: Memo[tuple[int, int, str | None], tuple[int, tuple[Step, ...]]] = Memo(256)
        #: ``odds._mean_final`` by the dice, what the finals read, the reductions, prior damage and cap.
        self.means: Memo[tuple[object, ...], Fraction] = Memo(1024)
        #: ``reading._attribute_modifiers`` by its arguments.
        self.modifiers: Memo[tuple[object, ...], tuple[Step, ...]] = Memo(512)
        #: ``reading._attack_target`` and ``reading._defense_target`` by their arguments.
        self.attack_targets: Memo[tuple[object, ...], tuple[int, tuple[Step, ...]]] = Memo(1024)
        self.defense_targets: Memo[tuple[object, ...], tuple[int, tuple[Step, ...]]] = Memo(1024)
        #: ``reading._terms`` of a check without an audience bonus, by its arguments.
        self.terms: Memo[tuple[object, ...], CheckTerms] = Memo(1024)
        #: The HT check terms of a fighter without an audience bonus, by what they read
        #: (``reading.fighter_ht_terms``).
        self.ht_terms: Memo[tuple[object, ...], CheckTerms] = Memo(1024)
        #: The actions ``legal_actions`` lists: attacks by fighter and target, moves by fighter, position
        #: and Move, guards by fighter and arm (``legal._attacks``, ``_moves``, ``_guards``).
        self.attacks: Memo[tuple[str, str], tuple[Attack, ...]] = Memo(512)
        self.moves_listed: Memo[tuple[str, int, int], tuple[Move, ...]] = Memo(512)
        self.guards: Memo[tuple[str, str], tuple[SetGuard, ...]] = Memo(512)
        #: What the heuristic weighs (``policies.HeuristicPolicy``).
        self.policy = PolicyMemos()


class PolicyMemos:
    """The exact values the heuristic weighs under one content's tables, each a pure function of its key
    and the tables: each chance to hit, each mean final damage (of a damage table it never builds,
    :func:`~kassen.arena.odds.mean_final`), with their floats."""

    __slots__ = ("_counter", "hit_pairs", "hits", "means", "numbers", "specs")

    def __init__(self) -> None:
        #: The chance to hit by effective skill and defence (None: no defence), and with its float.
        self.hits: Memo[tuple[int, int | None], Fraction] = Memo()
        self.hit_pairs: Memo[tuple[int, int | None], tuple[Fraction, float]] = Memo()
        #: A number for each set of values the mean damage reads of an attacker and a target (weapon,
        #: ST; HT, DR, reductions): equal values get the same number while it is remembered, and a
        #: number is never given to two values, so a key holding it stays exact.
        self.numbers: Memo[tuple[object, ...], int] = Memo()
        self._counter = itertools.count(1)
        #: The mean final damage (counted up to what is worth dealing) and its float by that number,
        #: where the attack lands, the damage there that counts and that cap.
        self.means: Memo[tuple[int, str, int, int], tuple[Fraction, float]] = Memo()
        #: A weapon's damage dice at an ST.
        self.specs: Memo[tuple[Weapon, int], DiceSpec] = Memo(256)

    def number(self, values: tuple[object, ...]) -> int:
        """The number standing for ``values`` (see :attr:`numbers`)."""
        found = self.numbers.get(values)
        if found is None:
            found = self.numbers.put(values, next(self._counter))
        return found
