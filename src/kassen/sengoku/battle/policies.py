"""Who decides in a battle when nobody types a choice: the Sengoku heuristic, a core
:class:`~kassen.core.policy.Policy`, and each scenario's policy.

Policies are not rules: they pick among legal actions (or give a breath ``apply`` will validate).

- :class:`HeuristicPolicy` plays sensibly and deterministically from the state: it weighs each attack it
  can make by its exact expected Wounds (:mod:`kassen.sengoku.odds`, which runs the attack's own
  resolution over every roll, against the Defense the target has now, so [Pierce] wins against heavy
  armor by the numbers, and ties go to [Pierce] there), with each weapon that can carry the technique
  (a nodachi's critical, a short blade's Core Zone price) and with Aim Focus, and scores a breath by
  the expected Wounds it deals plus what its unspent Energy is still worth later (a little less than
  now: :data:`_LATER`); it declares a stance when the Wounds the stance is expected to turn away from
  it (or its zone's allies) are worth more than the Energy it costs, reserves a defense technique when
  an enemy that can still act this round can reach it (worth half that enemy's best blow), walks
  toward the nearest enemy when none is in reach, picks up a dropped weapon and binds a bleeding
  ally's wound, always answers an attack with its reservation, spends Fate on a Critical Hit when it
  fells the target, turns a miss into a hit, or leaves a point for a Last Bastion (and always on a Last
  Bastion), heals in the lull and sends its shikigami toward the enemy, and retreats when its rules
  and its situation say so (a routed squad; a badly wounded unit of no honor class in its own Flank or
  Rear). As the GM it adds the catalog's ``fumble.gm_auto_play`` extras to a fumble (SG.FUM.2) and
  leaves the environment alone (a scenario's GM script changes it).
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
from kassen.sengoku.battle.actions import (
    Action,
    Breath,
    Decline,
    FateIntervention,
    FumbleExtras,
    LastBastion,
    Pass,
    React,
    Upkeep,
)
from kassen.sengoku.battle.plan import Planner, check_modifier, planner, usable_reservations
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Unit, Use
from kassen.sengoku.defense import DefenseResult
from kassen.sengoku.entries import HonorClass, Maneuver, ManeuverKind, MovementTo
from kassen.sengoku.house import ZoneApplies
from kassen.sengoku.profile import ArmorKind, AttackTags, CombatProfile, DefenseBonus
from kassen.sengoku.technique import attack_modifier

_PIERCE_TIE_BREAK = Fraction(1, 1000)
#: What Energy left after a breath is worth, per point, against what it buys now: a little less (the
#: target may fall or move, the unit may be struck down, and Energy unspent at the lull is lost), so a
#: breath that does more now (Aim Focus, a dearer technique) can beat one that only does it cheaper.
_LATER = Fraction(4, 5)
#: The share of an enemy's best blow a reservation is expected to turn away (a policy choice).
_RESERVATION_SHARE = Fraction(1, 2)
#: How much of the next round a stance is counted for (it stays until released or Defenseless).
_STANCE_NEXT_ROUND = Fraction(1, 2)


class HeuristicPolicy:
    """A sensible, deterministic player (see the module notes)."""

    def __init__(self, rules: BattleRules) -> None:
        self.rules = rules
        # One fight's policy remembers the targets' profiles and Defense in the last state it was asked
        # about, compared by value (bounded: one state's worth; a new state starts it afresh).
        self._memo_state: BattleState | None = None
        self._profiles: dict[tuple[str, bool], CombatProfile] = {}
        self._defenses: dict[tuple[str, bool, AttackTags], DefenseResult] = {}
        self._threats: dict[tuple[str, str | None, DefenseBonus | None], Fraction] = {}

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
        if d.kind is DecisionKind.FATE:
            return self.fate(state, legal)
        if d.kind is DecisionKind.LAST_BASTION:
            return next((a for a in legal if isinstance(a, LastBastion)), legal[-1])
        if d.kind is DecisionKind.FUMBLE:
            return self.fumble(legal)
        return next(a for a in legal if isinstance(a, Decline))

    def _fresh(self, state: BattleState) -> None:
        if self._memo_state != state:
            self._memo_state = state
            self._profiles = {}
            self._defenses = {}
            self._threats = {}

    # -- values ----------------------------------------------------------------------------------------
    def attack_value(self, state: BattleState, unit: Unit, use: Use, zone: str) -> Fraction:
        """Expected Wounds of one attack now (exact odds), with the weapon that carries it, with a hair's
        preference for [Pierce] against heavy armor."""
        r = self.rules
        m = r.maneuver(use.maneuver)
        assert use.target is not None
        target = state.unit(use.target)
        if target.zone is None:
            return Fraction(0)
        tech = r.technique(unit, m, use.weapon)
        tags = tech.tags
        if use.aim:
            tags = r.aim(tech, r.attribute(unit, "finesse"), use.aim).tags
        self._fresh(state)
        ambushed = unit.infiltrating and not target.ambushed
        pkey = (target.id, ambushed)
        pt = self._profiles.get(pkey)
        if pt is None:
            pt = r.profile(state, target)
            if ambushed:
                pt = replace(pt, defenseless=True, bonuses=())
            self._profiles[pkey] = pt
        dkey = (target.id, ambushed, tags)
        defense = self._defenses.get(dkey)
        if defense is None:
            defense = r.defense_of(pt, tags)
            self._defenses[dkey] = defense
        if defense.immune:
            return Fraction(0)
        modifier, _ = attack_modifier(r.base_profile(unit), tech)
        for e in r.zone_effects(
            unit,
            m,
            ZoneApplies.CHECK,
            state.zone(zone),
            target_zone=state.zone(target.zone),
            weapon=use.weapon,
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

    def threat(self, state: BattleState, unit: Unit, bonus: DefenseBonus | None = None) -> Fraction:
        """The Wounds the enemies that can reach ``unit`` are expected to deal it with the Energy they
        have left this round (each with its best technique), its Defense raised by ``bonus``."""
        if unit.zone is None:
            return Fraction(0)
        self._fresh(state)
        key = (unit.id, unit.zone, bonus)
        found = self._threats.get(key)
        if found is None:
            found = self._threats[key] = self._threat(state, unit, bonus)
        return found

    def _threat(self, state: BattleState, unit: Unit, bonus: DefenseBonus | None) -> Fraction:
        r = self.rules
        assert unit.zone is not None
        profile = r.profile(state, unit)
        if bonus is not None:
            profile = replace(profile, bonuses=(*profile.bonuses, bonus))
        total = Fraction(0)
        for e in state.units:
            if e.side == unit.side or not e.able or e.zone is None or e.passed:
                continue
            if state.distance(e.zone, unit.zone) > 1:
                continue
            best: tuple[Fraction, int] | None = None
            for mid in r.known(e):
                m = r.maneuver(mid)
                if not m.attacks or m.cost < 1:
                    continue
                tech = r.technique(e, m)
                d = r.defense_of(profile, tech.tags)
                if d.immune:
                    continue
                modifier, _ = attack_modifier(r.base_profile(e), tech)
                ew = r.odds.attack(modifier, d.defense, tech).expected_wounds
                if best is None or ew / m.cost > best[0] / best[1]:
                    best = (ew, m.cost)
            if best is not None:
                total += best[0] * (e.energy // best[1])
        return total

    def stance_value(self, state: BattleState, unit: Unit, m: Maneuver) -> Fraction:
        """The Wounds a stance (or a held Kata) is expected to turn away: from the unit, or from each ally
        in its zone for a zone-wide grant, this round and half of the next (it stays until released or
        Defenseless)."""
        g = m.grants
        if g is None or not g.value or unit.zone is None:
            return Fraction(0)
        bonus = DefenseBonus(g.kind, g.value, m.name)
        who = [unit]
        if g.scope.value == "zone-allies":
            who += [u for u in state.units if u.side == unit.side and u.id != unit.id and u.zone == unit.zone]
        gained = Fraction(0)
        for u in who:
            if not u.on_battlefield:
                continue
            gained += self.threat(state, u) - self.threat(state, u, bonus)
        return gained * (1 + _STANCE_NEXT_ROUND)

    def reservation_value(self, state: BattleState, unit: Unit, zone: str) -> Fraction:
        """A reservation is worth a share of the best blow an enemy that can still act this round can
        deal the unit (none when no such enemy can reach it)."""
        if unit.reservations:
            return Fraction(0)
        here = replace(unit, zone=zone)
        threat = self.threat(state, here)
        if not threat:
            return Fraction(0)
        return min(threat, Fraction(1)) * _RESERVATION_SHARE

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
        return r.chance(modifier, check.against)

    def breath_value(
        self,
        state: BattleState,
        unit: Unit,
        breath: Breath,
        memo: dict[tuple[Use, str], Fraction] | None = None,
        *,
        spent: int | None = None,
    ) -> tuple[Fraction, Fraction]:
        """(expected Wounds per Energy, expected Wounds) of an attacking breath, reservations and stances
        counted."""
        r = self.rules
        memo = {} if memo is None else memo
        zone = unit.zone or ""
        dealt: dict[str, Fraction] = {}
        cost = 0
        reserved = False
        extra = Fraction(0)
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
                    crit = Fraction(self._critical(unit, m, use.weapon))
                    value = sneak * crit + (1 - sneak) * value
                    sneak = Fraction(0)
                before = dealt.get(use.target)
                dealt[use.target] = value if before is None else before + value
            elif m.kind is ManeuverKind.DEFENSE:
                reserved = True
            elif m.grants is not None and not use.release:
                extra += self.stance_value(state, unit, m)
        # the same exact sum as sum(min(v, Fraction(wounds)) ...), without the Fraction(0) start
        total: Fraction | None = None
        for t, v in dealt.items():
            wounds = state.unit(t).wounds
            capped = Fraction(wounds) if wounds < v else v
            total = capped if total is None else total + capped
        if total is None:
            total = Fraction(0)
        total += extra
        if reserved:
            total += self.reservation_value(state, unit, zone)
        return (total / max(cost if spent is None else spent, 1), total)

    def _critical(self, unit: Unit, m: Maneuver, weapon: str | None = None) -> int:
        return self.rules.critical_wounds(self.rules.technique(unit, m, weapon))

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
        aid = self._aid(state, unit, breaths)
        if aid is not None:
            return aid
        attacking = [b for b in breaths if any(r.maneuver(u.maneuver).attacks for u in b.uses)]
        memo: dict[tuple[Use, str], Fraction] = {}
        plans = planner(r, state, unit)
        scored: list[tuple[Breath, Fraction, int]] = []
        for b in attacking:
            if any(r.maneuver(u.maneuver).aid is not None for u in b.uses):
                continue
            plan = plans.plan(b.uses)
            if plan.overload:
                continue
            if any(u.release for u in b.uses):
                continue
            _, value = self.breath_value(state, unit, b, memo, spent=plan.spent)
            scored.append((b, value, plan.spent))
        best = self._best(unit, scored)
        if best is not None:
            return self._with_reservation(state, plans, best, breaths)
        near = self.enemy_near(state, unit, unit.zone or "")
        if near and not unit.reservations:
            for b in breaths:
                if (
                    len(b.uses) == 1
                    and r.maneuver(b.uses[0].maneuver).kind is ManeuverKind.DEFENSE
                    and self.reservation_value(state, unit, unit.zone or "")
                ):
                    return b
        if near:
            stance = self._lone_stance(state, unit, breaths)
            if stance is not None:
                return stance
        move = self._approach(state, unit, breaths)
        if move is not None:
            return move
        return passing

    def _best(self, unit: Unit, scored: list[tuple[Breath, Fraction, int]]) -> Breath | None:
        """The breath with the most expected Wounds now plus what its unspent Energy is worth later: at
        the best rate any of them reaches, discounted by :data:`_LATER`, and nothing for Energy too little
        to pay for another attack (it is lost at the lull)."""
        if not scored:
            return None
        rate = max(value / max(spent, 1) for _, value, spent in scored)
        if rate <= 0:
            return None
        cheapest = min(spent for _, _, spent in scored)
        best: Breath | None = None
        best_key: tuple[Fraction, Fraction] | None = None
        for b, value, spent in scored:
            left = unit.energy - spent
            later = _LATER * rate * left if left >= cheapest else Fraction(0)
            key = (value + later, value / max(spent, 1))
            if best_key is None or key > best_key:
                best, best_key = b, key
        return best

    def _lone_stance(self, state: BattleState, unit: Unit, breaths: list[Breath]) -> Breath | None:
        """A stance alone, when no attack is worth making and it turns away more than its cost's worth
        of Wounds (a quarter Wound per Energy, a policy choice)."""
        r = self.rules
        best: tuple[Fraction, Breath] | None = None
        for b in breaths:
            if len(b.uses) != 1 or b.uses[0].release:
                continue
            m = r.maneuver(b.uses[0].maneuver)
            if m.grants is None or m.attacks:
                continue
            value = self.stance_value(state, unit, m)
            if value > Fraction(m.cost, 4) and (best is None or value > best[0]):
                best = (value, b)
        return best[1] if best is not None else None

    def _with_reservation(
        self, state: BattleState, plans: Planner, best: Breath, breaths: list[Breath]
    ) -> Breath:
        """The best attack, plus a defense reservation when one fits the breath and an enemy that can
        still act can reach the unit (SG.RES.1)."""
        r, unit = self.rules, plans.unit
        if unit.reservations or any(r.maneuver(u.maneuver).kind is ManeuverKind.DEFENSE for u in best.uses):
            return best
        zone = unit.zone or ""
        for u in best.uses:
            if r.maneuver(u.maneuver).kind is ManeuverKind.MOVEMENT and u.to:
                zone = u.to
        if not self.reservation_value(state, unit, zone):
            return best
        for b in breaths:
            if b.uses[: len(best.uses)] == best.uses and len(b.uses) == len(best.uses) + 1:
                extra = r.maneuver(b.uses[-1].maneuver)
                if extra.kind is ManeuverKind.DEFENSE and not plans.plan(b.uses).overload:
                    return b
        return best

    def _aid(self, state: BattleState, unit: Unit, breaths: list[Breath]) -> Breath | None:
        """Bind a bleeding ally's wound first; pick up a dropped weapon (with an attack, if one fits)."""
        r = self.rules
        best: Breath | None = None
        for b in breaths:
            m = r.maneuver(b.uses[0].maneuver)
            if m.aid is None:
                continue
            if m.aid.ends == "bleeding":
                return b
            if best is None or len(b.uses) > len(best.uses):
                best = b
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

    # -- Fate and the GM -------------------------------------------------------------------------------
    def fate(self, state: BattleState, legal: Sequence[Action]) -> Action:
        """Fate Intervention (SG.FAT.1) when the Critical Hit pays: it turns a miss into a hit, it fells a
        target the plain hit would not, or the unit still keeps a point for its own Last Bastion
        (SG.FAT.2); a double 10 (Heavenly Mandate) is preferred."""
        r = self.rules
        p = state.attack
        decline = next(a for a in legal if isinstance(a, Decline))
        if p is None or not p.outcomes:
            return decline
        plain, shifted = p.outcomes[0], dict(zip(p.offered, p.outcomes[1:], strict=True))
        crits = [a for a in legal if isinstance(a, FateIntervention) and shifted.get(a.die) == "critical"]
        if not crits:
            return decline
        unit, target = state.unit(p.attacker), state.unit(p.target)
        tech = r.technique(unit, r.maneuver(p.maneuver), p.weapon or None)
        crit = r.critical_wounds(tech)
        hit = r.hit_wounds(tech) if plain in ("success", "critical") else 0
        costs = r.resolution.fate
        spare = unit.fate_points - costs.intervention_cost >= costs.last_bastion_cost
        pays = crit > hit and (hit == 0 or (crit >= target.wounds > hit) or spare)
        if not pays:
            return decline
        return max(crits, key=lambda a: p.faces[1 - a.die])

    def fumble(self, legal: Sequence[Action]) -> Action:
        """The GM's extras when the battle plays itself: the catalog's ``fumble.gm_auto_play``."""
        wanted = self.rules.resolution.fumble.gm_auto_play
        options = [a for a in legal if isinstance(a, FumbleExtras)]
        for a in options:
            if set(a.extras) == set(wanted):
                return a
        usable = [a for a in options if set(a.extras) <= set(wanted)]
        if usable:
            return max(usable, key=lambda a: len(a.extras))
        return next(a for a in legal if isinstance(a, Decline))

    def upkeep(self, state: BattleState, legal: Sequence[Action]) -> Action:
        ups = [a for a in legal if isinstance(a, Upkeep)]
        heal = [a for a in ups if a.choice in (None, "wounds") and a.target is not None and a.to is None]
        heal = [a for a in heal if self.rules.maneuver(a.maneuver).upkeep is not None]
        heal = [
            a
            for a in heal
            if (up := self.rules.maneuver(a.maneuver).upkeep) is not None
            and (up.wounds_recovered or not up.prevents_collapse)
        ] or heal
        if heal and any(a.choice is not None or self._heals(a) for a in heal):
            healing = [a for a in heal if a.choice is not None or self._heals(a)]
            return min(
                healing,
                key=lambda a: state.unit(a.target or "").wounds - state.unit(a.target or "").wounds_max,
            )
        rest = [a for a in ups if a.to is None and (a.choice == "cohesion" or a.target is not None)]
        if rest:
            return rest[0]
        move = self._send(state, [a for a in ups if a.to is not None])
        if move is not None:
            return move
        return next(a for a in legal if isinstance(a, Decline))

    def _heals(self, a: Upkeep) -> bool:
        up = self.rules.maneuver(a.maneuver).upkeep
        return up is not None and bool(up.wounds_recovered)

    def _send(self, state: BattleState, moves: list[Upkeep]) -> Upkeep | None:
        """Send a shikigami to the allowed zone nearest an enemy, if that is nearer than where it is."""
        best: tuple[int, Upkeep] | None = None
        for a in moves:
            servant = state.unit(a.target or "")
            enemies = [
                u.zone for u in state.units if u.side != servant.side and u.able and u.zone is not None
            ]
            if not enemies or servant.zone is None or a.to is None:
                continue
            now = min(state.distance(servant.zone, z) for z in enemies)
            then = min(state.distance(a.to, z) for z in enemies)
            if then < now and (best is None or then < best[0]):
                best = (then, a)
        return best[1] if best is not None else None


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
