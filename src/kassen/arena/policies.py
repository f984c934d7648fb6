"""The arena's heuristic player, a :class:`kassen.core.policy.Policy`: it weighs every attack within reach
by its exact chance to hit times its expected final damage (both fractions), closes on an opponent when
none is within reach (the one it reaches soonest, then the one it would hurt most, stopping at its own
reach), rises when down, tries guts when the odds are decent, and spends an audience point to get back
from FP 1. Scripts, first-legal and per-fighter policies are the core's (:mod:`kassen.core.policy`).

The exact values it reads are memoized per policy (one policy per fight), bounded, and only for the
content it was last called with.
"""

from __future__ import annotations

__all__ = ["HeuristicPolicy"]

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from kassen.arena.bout import (
    Action,
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    Guts,
    Move,
    Rise,
    Wait,
    active_targets,
    attack_location,
    attack_target,
    can_defend,
    defense_target,
    guts_target,
)
from kassen.arena.checks import check_odds
from kassen.arena.damage import DamageResult, Reduction, strength_damage
from kassen.arena.odds import damage_table, expected_final, hit_chance
from kassen.arena.rules import ArenaRules, DiceSpec
from kassen.arena.terms import DamageType
from kassen.core.errors import KassenError
from kassen.core.policy import Decision

#: Most memoized values of each kind one policy keeps.
MEMO_SIZE = 4096


class HeuristicPolicy:
    """A sensible fighter that reads exact odds before committing."""

    def __init__(
        self,
        tables: ArenaRules | None = None,
        *,
        guts_at_least: Fraction = Fraction(1, 3),
        stun_guts_at_least: Fraction = Fraction(1, 2),
        all_out_gain: Fraction = Fraction(13, 10),
        all_out_min_fp: int = 6,
        stun_guts_fp_reserve: int = 4,
        guts_fp_reserve: int = 5,
    ) -> None:
        """``tables``: the content it plays under (else the first decision's); ``guts_at_least``: the
        least chance for a guts check against incapacity; ``stun_guts_at_least`` the same against a stun
        at one's slot; an all-out attack must beat a normal one by ``all_out_gain`` and needs
        ``all_out_min_fp`` FP; the reserves are the FP kept after a guts check (a stun is not worth
        fainting for)."""
        self.guts_at_least = guts_at_least
        self.stun_guts_at_least = stun_guts_at_least
        self.all_out_gain = all_out_gain
        self.all_out_min_fp = all_out_min_fp
        self.stun_guts_fp_reserve = stun_guts_fp_reserve
        self.guts_fp_reserve = guts_fp_reserve
        self._tables: ArenaRules | None = None
        if tables is not None:
            self._bind(tables)

    def _bind(self, tables: ArenaRules) -> None:
        """Fresh memos for ``tables`` (values of other content never leak in)."""
        self._tables = tables

        def table(
            spec: DiceSpec,
            kind: DamageType,
            ht: int,
            where: str,
            armor: int,
            bone: int | None,
            soft: int | None,
            reductions: tuple[Reduction, ...],
            prior: int,
        ) -> tuple[tuple[Fraction, DamageResult], ...]:
            return damage_table(spec, kind, ht, where, armor, bone, soft, reductions, prior, tables)

        def hits(attack: int, defense: int | None) -> Fraction:
            return hit_chance(attack, defense, tables)

        self._table = lru_cache(maxsize=MEMO_SIZE)(table)
        self._hits = lru_cache(maxsize=MEMO_SIZE)(hits)

    def _rules(self, tables: ArenaRules) -> ArenaRules:
        if self._tables is not tables:
            self._bind(tables)
        return tables

    def __call__(self, decision: Decision[BoutState, Action]) -> Action:
        legal = decision.legal
        if not legal:
            raise KassenError("no legal action to choose from")
        if isinstance(legal[0], Begin) or decision.actor.kind != "unit":
            return legal[0]
        rules = self._rules(decision.tables)
        state = decision.state
        f = state.fighter(decision.actor.id)
        if state.offers:
            return self._offer(state, legal, rules)
        if f.stunned:
            guts = [a for a in legal if isinstance(a, Guts)]
            chance = check_odds(guts_target(f, f.stun_cause, rules)[0], rules=rules.checks).success
            if (
                guts
                and chance >= self.stun_guts_at_least
                and f.fp - rules.injury.guts.fp_cost >= self.stun_guts_fp_reserve
            ):
                return guts[0]
            return next(a for a in legal if isinstance(a, Wait))
        rise = [a for a in legal if isinstance(a, Rise)]
        if rise:
            return rise[0]
        attacks = [a for a in legal if isinstance(a, Attack)]
        if not attacks:
            moves = [a for a in legal if isinstance(a, Move)]
            if moves:
                return self._close(state, decision.actor.id, moves, rules)
            return next(a for a in legal if isinstance(a, Wait))
        best: tuple[Fraction, int] = (Fraction(-1), 0)
        for i, a in enumerate(attacks):
            value = self.value(state, a, rules)
            if a.all_out:
                if f.fp < self.all_out_min_fp:
                    continue
                value = value / self.all_out_gain
            if value > best[0]:
                best = (value, i)
        return attacks[best[1]]

    def _close(self, state: BoutState, fid: str, moves: Sequence[Move], rules: ArenaRules) -> Action:
        """Close on the opponent reached in the fewest slots (then the one an attack at the default
        location would hurt most, then the first listed): the move that brings it within reach with the
        fewest metres, or as near as the Move allows."""
        f = state.fighter(fid)
        reach = f.profile.reach
        step = max(abs(m.to - f.position) for m in moves)
        foes = active_targets(state, f)
        standing = [t for t in foes if not t.incapacitated] or foes
        if not standing:
            return Wait(fid)

        def key(t_index: int) -> tuple[int, Fraction, int]:
            t = standing[t_index]
            gap = max(0, abs(t.position - f.position) - reach)
            slots = -(-gap // step)
            return (slots, -self.value(state, Attack(fid, t.id, None), rules), t_index)

        target = standing[min(range(len(standing)), key=key)]
        return min(
            moves, key=lambda m: (max(0, abs(target.position - m.to) - reach), abs(m.to - f.position), m.to)
        )

    def _offer(self, state: BoutState, legal: Sequence[Action], rules: ArenaRules) -> Action:
        o = state.offers[0]
        f = state.fighter(o.fighter)
        cheers = [a for a in legal if isinstance(a, Cheer)]
        if o.condition == "helpless":
            return cheers[0] if cheers else next(a for a in legal if isinstance(a, Decline))
        guts = [a for a in legal if isinstance(a, Guts)]
        if guts:
            chance = check_odds(guts_target(f, o.cause, rules)[0], rules=rules.checks).success
            losing = o.condition != "stunned"
            if losing and cheers and chance < Fraction(1, 2):
                return cheers[0]
            if chance >= self.guts_at_least and (
                losing or f.fp - rules.injury.guts.fp_cost >= self.guts_fp_reserve
            ):
                return guts[0]
        return next(a for a in legal if isinstance(a, Decline))

    def value(self, state: BoutState, a: Attack, rules: ArenaRules) -> Fraction:
        """P(hit) × E[final damage] of attack ``a``, both exact."""
        rules = self._rules(rules)
        attacker, target = state.fighter(a.actor), state.fighter(a.target)
        atk, _ = attack_target(state, a.actor, a.target, a.location, a.all_out, rules=rules)
        dfn = defense_target(state, a.target, rules=rules)[0] if can_defend(target, rules) else None
        where = attack_location(a.location, rules)
        guard = target.guard_on(where)
        if guard is not None and guard.arm not in target.crippled:
            where = guard.arm
        w = attacker.profile.weapon
        base = (
            DiceSpec(dice=w.dice, adds=0)
            if w.base == "none"
            else strength_damage(attacker.profile.st, w.base, rules)
        )
        spec = DiceSpec(dice=base.dice, adds=base.adds + w.adds)
        dr = target.profile.dr_at(where)
        table = self._table(
            spec,
            w.damage_type,
            target.profile.ht,
            where,
            dr.armor,
            dr.bone,
            dr.soft,
            target.profile.reductions,
            target.damage_at(where),
        )
        return self._hits(atk, dfn) * expected_final(table)
