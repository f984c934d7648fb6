"""Who decides in a battle when nobody types a choice: the Sengoku heuristic, a core
:class:`~kassen.core.policy.Policy`, and each scenario's policy.

Policies are not rules: they pick among legal actions (or give a breath ``apply`` will validate).

- :class:`HeuristicPolicy` plays sensibly and deterministically from the state: it weighs each attack it
  can make by its exact expected Wounds (:mod:`kassen.sengoku.odds`, which runs the attack's own
  resolution over every roll, against the Defense the target has now, so [Pierce] wins against heavy
  armor by the numbers, and ties go to [Pierce] there), repeats its best technique while it fits the
  breath, reserves a parry (or its other defense technique) when it can afford one and an enemy can
  reach it, walks toward the nearest enemy when none is in reach, always answers an attack with its
  reservation, heals in the lull, and retreats when its rules and its situation say so (a routed squad;
  a badly wounded unit of no honor class in its own Flank or Rear).
- :func:`scenario_policy`: scripted units (and the GM) play their scripts with the core's
  :class:`~kassen.core.policy.Scripted` — each step when it is legal, its place derived from the actions
  played, so undo rewinds it; a unit may ask for the core's ``random`` or ``first-legal`` policy
  (:class:`~kassen.core.policy.ByActor`); the heuristic decides everything else.
"""

from __future__ import annotations

__all__ = ["PLAIN_POLICIES", "HeuristicPolicy", "scenario_policy"]

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from kassen.core.errors import KassenError
from kassen.core.policy import ByActor, Decision, FirstLegal, Policy, RandomPolicy, Scripted
from kassen.sengoku.aim import aim_focus
from kassen.sengoku.battle.actions import Action, Breath, Decline, Pass, React, Upkeep
from kassen.sengoku.battle.plan import Planner, check_modifier, planner, usable_reservations
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Unit, Use
from kassen.sengoku.defense import DefenseResult, compute_defense
from kassen.sengoku.entries import HonorClass, Maneuver, ManeuverKind, MovementTo
from kassen.sengoku.house import ZoneApplies
from kassen.sengoku.odds import check_chance
from kassen.sengoku.profile import ArmorKind, AttackTags, CombatProfile
from kassen.sengoku.technique import attack_modifier
from kassen.sengoku.wounds import critical_wounds

#: What a reservation is worth when an enemy can reach the unit, in expected Wounds (a policy choice).
_RESERVATION_WORTH = Fraction(2, 5)
_PIERCE_TIE_BREAK = Fraction(1, 1000)


class HeuristicPolicy:
    """A sensible, deterministic player (see the module notes)."""

    def __init__(self, rules: BattleRules) -> None:
        self.rules = rules
        # One fight's policy remembers the targets' profiles and Defense in the last state it was asked
        # about, compared by value (bounded: one state's worth; a new state starts it afresh).
        self._memo_state: BattleState | None = None
        self._profiles: dict[tuple[str, bool], CombatProfile] = {}
        self._defenses: dict[tuple[str, bool, AttackTags], DefenseResult] = {}

    def __call__(self, decision: Decision[BattleState, Action]) -> Action:
        return self.choose(decision.state, decision.legal)

    def choose(self, state: BattleState, legal: Sequence[Action]) -> Action:
        """The action for ``state`` among ``legal``."""
        if not legal:
            raise KassenError("no legal action to choose from")
        d = state.decision
        if d is None or len(legal) == 1:
            return legal[0]
        if d.kind is DecisionKind.BREATH:
            return self.breath(state, state.unit(d.unit), legal)
        if d.kind is DecisionKind.REACTION:
            return next((a for a in legal if isinstance(a, React)), legal[-1])
        if d.kind is DecisionKind.UPKEEP:
            return self.upkeep(state, legal)
        return next(a for a in legal if isinstance(a, Decline))

    # -- values ----------------------------------------------------------------------------------------
    def attack_value(self, state: BattleState, unit: Unit, use: Use, zone: str) -> Fraction:
        """Expected Wounds of one attack now (exact odds), with a hair's preference for [Pierce] against
        heavy armor."""
        r = self.rules
        m = r.maneuver(use.maneuver)
        assert use.target is not None
        target = state.unit(use.target)
        if target.zone is None:
            return Fraction(0)
        tech = r.technique(unit, m)
        tags = tech.tags
        if use.aim:
            tags = aim_focus(tech, finesse=r.attribute(unit, "finesse"), extra=use.aim, rules=r.defense).tags
        if self._memo_state != state:
            self._memo_state = state
            self._profiles = {}
            self._defenses = {}
        ambushed = unit.infiltrating and not target.ambushed
        pkey = (target.id, ambushed)
        pt = self._profiles.get(pkey)
        if pt is None:
            pt = r.profile(state, target)
            if ambushed:
                pt = replace(pt, defenseless=True)
            self._profiles[pkey] = pt
        dkey = (target.id, ambushed, tags)
        defense = self._defenses.get(dkey)
        if defense is None:
            defense = compute_defense(pt, tags, rules=r.defense, grades=r.grades)
            self._defenses[dkey] = defense
        if defense.immune:
            return Fraction(0)
        modifier, _ = attack_modifier(r.base_profile(unit), tech)
        for e in r.zone_effects(
            unit, m, ZoneApplies.CHECK, state.zone(zone), target_zone=state.zone(target.zone)
        ):
            modifier += e.amount
        value = r.odds.attack(modifier, defense.defense, tech).expected_wounds
        if tags.pierce is not None and pt.armor in (ArmorKind.HEAVY, ArmorKind.HEAVY_BATTLE):
            value += _PIERCE_TIE_BREAK
        if usable_reservations(r, state, target, ambushed=ambushed):
            value /= 2
        return value

    def enemy_near(self, state: BattleState, unit: Unit, zone: str) -> bool:
        return any(
            u.side != unit.side and u.able and u.zone is not None and state.distance(zone, u.zone) <= 1
            for u in state.units
        )

    def stealth_chance(self, state: BattleState, unit: Unit, m: Maneuver) -> Fraction:
        """The exact chance a Stealth Movement makes the unit infiltrating, when the unit has an [Ambush]
        that turns its next attack into an automatic Critical Hit (SG.AMB.2); else 0."""
        r = self.rules
        if m.movement is None or "infiltrating" not in m.movement.grants or unit.zone is None:
            return Fraction(0)
        traits = [r.catalog.trait(t).ambush for t in r.creature(unit).traits]
        if not any(a is not None and a.automatic_critical for a in traits):
            return Fraction(0)
        check = m.check
        if check is None or not isinstance(check.against, int):
            return Fraction(1)
        modifier, _ = check_modifier(r, unit, m, state.zone(unit.zone))
        return check_chance(modifier, check.against, sides=r.resolution.check.sides)

    def breath_value(
        self,
        state: BattleState,
        unit: Unit,
        breath: Breath,
        memo: dict[tuple[Use, str], Fraction] | None = None,
        *,
        spent: int | None = None,
    ) -> tuple[Fraction, Fraction]:
        """(expected Wounds per Energy, expected Wounds) of an attacking breath, reservations counted."""
        r = self.rules
        memo = {} if memo is None else memo
        zone = unit.zone or ""
        dealt: dict[str, Fraction] = {}
        cost = 0
        reserved = False
        sneak = Fraction(0)
        for use in breath.uses:
            m = r.maneuver(use.maneuver)
            cost += m.cost + use.aim
            if m.kind is ManeuverKind.MOVEMENT:
                sneak = self.stealth_chance(state, unit, m)
                zone = use.to or zone
            elif m.attacks and use.target is not None:
                key = (use, zone)
                if key not in memo:
                    memo[key] = self.attack_value(state, unit, use, zone)
                value = memo[key]
                if sneak:
                    crit = Fraction(self._critical(unit, m))
                    value = sneak * crit + (1 - sneak) * value
                    sneak = Fraction(0)
                before = dealt.get(use.target)
                dealt[use.target] = value if before is None else before + value
            elif m.kind is ManeuverKind.DEFENSE:
                reserved = True
        # the same exact sum as sum(min(v, Fraction(wounds)) ...), without the Fraction(0) start
        total: Fraction | None = None
        for t, v in dealt.items():
            wounds = state.unit(t).wounds
            capped = Fraction(wounds) if wounds < v else v
            total = capped if total is None else total + capped
        if total is None:
            total = Fraction(0)
        if reserved and not unit.reservations and self.enemy_near(state, unit, zone):
            total += _RESERVATION_WORTH
        return (total / max(cost if spent is None else spent, 1), total)

    def _critical(self, unit: Unit, m: Maneuver) -> int:
        return critical_wounds(self.rules.technique(unit, m), self.rules.resolution)[0]

    # -- choices ---------------------------------------------------------------------------------------
    def should_retreat(self, state: BattleState, unit: Unit) -> bool:
        """A routed squad flees; a unit of no honor class (or under outside discipline) at its last Wound,
        with more enemies than friends still standing, falls back (SG.RET.1, SG.RET.4)."""
        if unit.routed:
            return True
        honor = self.rules.creature(unit).honor
        if (
            honor in (HonorClass.HONOR, HonorClass.CONDITIONAL_HONOR)
            or unit.wounds > 1
            or unit.wounds_max < 3
        ):
            return False
        friends = sum(1 for u in state.units if u.side == unit.side and u.able)
        foes = sum(1 for u in state.units if u.side != unit.side and u.able)
        return foes > friends

    def breath(self, state: BattleState, unit: Unit, legal: Sequence[Action]) -> Action:
        r = self.rules
        breaths = [a for a in legal if isinstance(a, Breath)]
        passing = next((a for a in legal if isinstance(a, Pass)), legal[-1])
        if self.should_retreat(state, unit):
            away = self._retreat(state, unit, breaths)
            if away is not None:
                return away
            if unit.routed:
                return passing
        attacking = [b for b in breaths if any(r.maneuver(u.maneuver).attacks for u in b.uses)]
        best: Breath | None = None
        best_key: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
        memo: dict[tuple[Use, str], Fraction] = {}
        plans = planner(r, state, unit)
        for b in attacking:
            if any(r.maneuver(u.maneuver).kind is ManeuverKind.STANCE for u in b.uses):
                continue
            plan = plans.plan(b.uses)
            if plan.overload:
                continue
            key = self.breath_value(state, unit, b, memo, spent=plan.spent)
            if key > best_key:
                best, best_key = b, key
        if best is not None:
            return self._with_reservation(plans, best, breaths)
        near = self.enemy_near(state, unit, unit.zone or "")
        if near and not unit.reservations:
            for b in breaths:
                if len(b.uses) == 1 and r.maneuver(b.uses[0].maneuver).kind is ManeuverKind.DEFENSE:
                    return b
        move = self._approach(state, unit, breaths)
        if move is not None:
            return move
        return passing

    def _with_reservation(self, plans: Planner, best: Breath, breaths: list[Breath]) -> Breath:
        """The best attack, plus a defense reservation when one fits the breath (SG.RES.1)."""
        r, unit = self.rules, plans.unit
        if unit.reservations or any(r.maneuver(u.maneuver).kind is ManeuverKind.DEFENSE for u in best.uses):
            return best
        for b in breaths:
            if b.uses[: len(best.uses)] == best.uses and len(b.uses) == len(best.uses) + 1:
                extra = r.maneuver(b.uses[-1].maneuver)
                if extra.kind is ManeuverKind.DEFENSE and not plans.plan(b.uses).overload:
                    return b
        return best

    def _approach(self, state: BattleState, unit: Unit, breaths: list[Breath]) -> Breath | None:
        """The movement that brings the unit closest to an enemy, cheapest first."""
        r = self.rules
        enemies = [u.zone for u in state.units if u.side != unit.side and u.able and u.zone is not None]
        if not enemies or unit.zone is None:
            return None
        here = min(state.distance(unit.zone, z) for z in enemies)
        best: Breath | None = None
        best_key: tuple[int, int] | None = None
        for b in breaths:
            moves = [u for u in b.uses if r.maneuver(u.maneuver).kind is ManeuverKind.MOVEMENT and u.to]
            if len(moves) != len(b.uses) or not moves:
                continue
            dest = moves[-1].to
            assert dest is not None
            d = min(state.distance(dest, z) for z in enemies)
            cost = sum(r.maneuver(u.maneuver).cost for u in b.uses)
            key = (d, cost)
            if d < here and (best_key is None or key < best_key):
                best, best_key = b, key
        return best

    def _retreat(self, state: BattleState, unit: Unit, breaths: list[Breath]) -> Breath | None:
        r = self.rules
        retreats = [
            b
            for b in breaths
            if (m := r.maneuver(b.uses[0].maneuver)).movement is not None
            and m.movement.to is MovementTo.OFF_BATTLEFIELD
        ]
        if retreats:
            return max(retreats, key=lambda b: len(b.uses[0].squads))
        # no retreat from here: step into a zone of one's own side that a Retreat maneuver starts from
        view = state.side(unit.side).view
        starts = {
            k.value
            for mid in r.retreat_ids
            if (mv := r.maneuver(mid).movement) is not None
            for k in mv.from_zones
        }
        for b in breaths:
            last = b.uses[-1]
            if last.to is not None and len(b.uses) == 1:
                z = state.zone(last.to)
                if z.side == view and z.kind in starts:
                    return b
        return None

    def upkeep(self, state: BattleState, legal: Sequence[Action]) -> Action:
        ups = [a for a in legal if isinstance(a, Upkeep)]
        heal = [a for a in ups if a.choice in (None, "wounds") and a.target is not None]
        if heal:
            return min(
                heal, key=lambda a: state.unit(a.target or "").wounds - state.unit(a.target or "").wounds_max
            )
        rest = [a for a in ups if a.choice == "cohesion" or (a.target is not None and a.choice is None)]
        if rest:
            return rest[0]
        return next(a for a in legal if isinstance(a, Decline))


#: The policies a scenario's unit may name besides ``heuristic`` (the default) and ``scripted``.
PLAIN_POLICIES: dict[str, Callable[[], Policy[BattleState, Action]]] = {
    "random": RandomPolicy,
    "first-legal": FirstLegal,
}


def scenario_policy(
    rules: BattleRules,
    scripts: Mapping[str, Sequence[Action]],
    chosen: Mapping[str, str] | None = None,
) -> Policy[BattleState, Action]:
    """Each actor in ``scripts`` (unit ids, and ``gm`` for the GM's environment choices) plays its
    script, step by step when legal; a unit in ``chosen`` plays the policy it names (``random``,
    ``first-legal``); the heuristic decides the rest."""
    own = {uid: PLAIN_POLICIES[name]() for uid, name in (chosen or {}).items()}
    return Scripted(scripts, ByActor(own, HeuristicPolicy(rules)))
