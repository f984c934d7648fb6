"""Who decides: policies are ``(state, legal_actions) -> action`` callables for
:meth:`~kassen.core.events.Chronicle.run`. They live outside the rules and may keep their own memory
(a script's position).

- :class:`HeuristicPolicy` weighs every attack by its exact chance to hit times its expected final
  damage (both fractions), rises when down, tries guts when the odds are decent, and spends an audience
  point to get back from FP 1.
- :class:`ScriptedPolicy` plays each fighter's list of actions in order (an entry waits until it is
  legal); anything the script does not cover falls back to another policy.
- :class:`ByFighter` sends each decision to the acting fighter's own policy.
"""

from __future__ import annotations

__all__ = ["ByFighter", "HeuristicPolicy", "Policy", "ScriptedPolicy", "first_legal"]

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from kassen.arena.bout import (
    RULESET,
    Action,
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    Guts,
    Rise,
    Wait,
    attack_location,
    attack_target,
    bout_actor,
    can_defend,
    defense_target,
    guts_target,
)
from kassen.arena.checks import check_odds
from kassen.arena.damage import strength_damage
from kassen.arena.odds import damage_table, expected_final, hit_chance
from kassen.arena.rules import DiceSpec
from kassen.core.errors import KassenError

Policy = Callable[[BoutState, Sequence[Action]], Action]


def first_legal(state: BoutState, legal: Sequence[Action]) -> Action:
    """The first legal action (a deterministic baseline)."""
    return legal[0]


class HeuristicPolicy:
    """A sensible fighter that reads exact odds before committing."""

    def __init__(
        self,
        *,
        guts_at_least: Fraction = Fraction(1, 3),
        stun_guts_at_least: Fraction = Fraction(1, 2),
        all_out_gain: Fraction = Fraction(13, 10),
        all_out_min_fp: int = 6,
        stun_guts_fp_reserve: int = 4,
        guts_fp_reserve: int = 5,
    ) -> None:
        """``guts_at_least``: the least chance for a guts check against incapacity; ``stun_guts_at_least``
        the same against a stun at one's slot; an all-out attack must beat a normal one by
        ``all_out_gain`` and needs ``all_out_min_fp`` FP; the reserves are the FP kept after a guts check
        (a stun is not worth fainting for)."""
        self.guts_at_least = guts_at_least
        self.stun_guts_at_least = stun_guts_at_least
        self.all_out_gain = all_out_gain
        self.all_out_min_fp = all_out_min_fp
        self.stun_guts_fp_reserve = stun_guts_fp_reserve
        self.guts_fp_reserve = guts_fp_reserve

    def __call__(self, state: BoutState, legal: Sequence[Action]) -> Action:
        if not legal:
            raise KassenError("no legal action to choose from")
        if isinstance(legal[0], Begin):
            return legal[0]
        fid = bout_actor(state)
        if fid is None:
            return legal[0]
        rules = state.rules
        f = state.fighter(fid)
        if state.offers:
            return self._offer(state, legal)
        if f.stunned:
            guts = [a for a in legal if isinstance(a, Guts)]
            chance = check_odds(guts_target(f, f.stun_cause, rules)[0]).success
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
            return next(a for a in legal if isinstance(a, Wait))
        best: tuple[Fraction, int] = (Fraction(-1), 0)
        for i, a in enumerate(attacks):
            value = self.value(state, a)
            if a.all_out:
                if f.fp < self.all_out_min_fp:
                    continue
                value = value / self.all_out_gain
            if value > best[0]:
                best = (value, i)
        return attacks[best[1]]

    def _offer(self, state: BoutState, legal: Sequence[Action]) -> Action:
        rules = state.rules
        o = state.offers[0]
        f = state.fighter(o.fighter)
        cheers = [a for a in legal if isinstance(a, Cheer)]
        if o.condition == "helpless":
            return cheers[0] if cheers else next(a for a in legal if isinstance(a, Decline))
        guts = [a for a in legal if isinstance(a, Guts)]
        if guts:
            chance = check_odds(guts_target(f, o.cause, rules)[0]).success
            losing = o.condition != "stunned"
            if losing and cheers and chance < Fraction(1, 2):
                return cheers[0]
            if chance >= self.guts_at_least and (
                losing or f.fp - rules.injury.guts.fp_cost >= self.guts_fp_reserve
            ):
                return guts[0]
        return next(a for a in legal if isinstance(a, Decline))

    @staticmethod
    def value(state: BoutState, a: Attack) -> Fraction:
        """P(hit) × E[final damage] of attack ``a``, both exact."""
        rules = state.rules
        attacker, target = state.fighter(a.actor), state.fighter(a.target)
        atk, _ = attack_target(state, a.actor, a.target, a.location, a.all_out)
        dfn = defense_target(state, a.target)[0] if can_defend(target, rules) else None
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
        table = damage_table(
            spec,
            w.damage_type,
            target.profile.ht,
            where,
            dr.armor,
            dr.bone,
            dr.soft,
            target.profile.reductions,
            target.damage_at(where),
            state.overrides,
        )
        return hit_chance(atk, dfn, rules) * expected_final(table)


class ScriptedPolicy:
    """Each fighter's script is a list of actions (action JSON without ``actor``, e.g.
    ``{"kind": "attack", "target": "ken", "location": "skull"}``); at each of that fighter's decisions
    the next entry is played if it is legal now, else ``fallback`` decides and the entry waits."""

    def __init__(
        self, scripts: Mapping[str, Sequence[Mapping[str, Any]]], fallback: Policy | None = None
    ) -> None:
        self.scripts = {
            fid: [self._parse(fid, entry) for entry in entries] for fid, entries in scripts.items()
        }
        self.fallback: Policy = fallback or HeuristicPolicy()
        self.played: list[Action] = []

    @staticmethod
    def _parse(fid: str, entry: Mapping[str, Any]) -> Action:
        data = {**entry, "actor": fid}
        if data.get("kind") == "begin":
            raise KassenError("a script cannot contain begin")
        return RULESET.action_from_json(json.loads(json.dumps(data)))

    def __call__(self, state: BoutState, legal: Sequence[Action]) -> Action:
        fid = bout_actor(state)
        queue = self.scripts.get(fid or "", [])
        if queue:
            entry = queue[0]
            if isinstance(entry, Attack) and entry.location is None:  # the data's default (AR.DMG.1)
                entry = replace(entry, location=attack_location(None, state.rules))
            if entry in legal:
                queue.pop(0)
                self.played.append(entry)
                return entry
        return self.fallback(state, legal)

    @property
    def remaining(self) -> dict[str, list[Action]]:
        return {fid: list(q) for fid, q in self.scripts.items() if q}


class ByFighter:
    """Route each decision to the acting fighter's policy (``default`` for the referee's Begin and any
    fighter without one)."""

    def __init__(self, policies: Mapping[str, Policy], default: Policy | None = None) -> None:
        self.policies = dict(policies)
        self.default: Policy = default or HeuristicPolicy()

    def __call__(self, state: BoutState, legal: Sequence[Action]) -> Action:
        fid = bout_actor(state)
        return self.policies.get(fid or "", self.default)(state, legal)
