"""Who decides in a battle when nobody types a choice: the Sengoku heuristic, a core
:class:`~kassen.core.policy.Policy`, and each scenario's policy.

Policies are not rules: they pick among legal actions (or give a breath ``apply`` will validate).

- :class:`HeuristicPolicy` plays sensibly and deterministically from the state: it weighs each attack it
  can make by its exact chance of each number of Wounds (:mod:`kassen.sengoku.odds`, which runs the
  attack's own resolution over every roll, against the Defense the target has now, so [Pierce] wins
  against heavy armor by the numbers, and ties go to [Pierce] there), with each weapon that can carry
  the technique (a nodachi's critical, a short blade's Core Zone price) and with Aim Focus, and scores a
  breath by the Wounds it is expected to take from each target — the expectation of the capped sum, not
  the capped sum of expectations (:mod:`~kassen.sengoku.battle.blows`) — plus what its unspent Energy
  is still worth later (:func:`_later`: a little less than now, :data:`_LATER`; no more than the
  targets in reach have; and only for the share of their Wounds the breath leaves standing, so a surer
  blow now — Aim Focus, a dearer technique — beats a cheaper one whose follow-up counts only when it
  missed); it declares a stance when the Wounds the stance is expected to turn away from it (or its
  zone's allies) are worth more than the Energy it costs, reserves a defense technique when an enemy
  that can still act this round can reach it (worth half that enemy's best blow), walks toward the
  nearest enemy when none is in reach, picks up a dropped weapon and binds a bleeding ally's wound,
  always answers an attack with its reservation, spends Fate on a Critical Hit only when
  it changes what the blow does (:func:`~kassen.sengoku.battle.choices.fate_choice`: it fells where the
  plain hit would not, turns a miss into a hit, or takes more Wounds with a point left for a Last
  Bastion; never on a blow that already fells) and always on a Last Bastion, heals in the lull and
  sends its shikigami toward the enemy, and retreats when its rules and its situation say so (a routed
  squad; a badly wounded unit of no honor class in its own Flank or Rear). As the GM it adds the
  catalog's ``fumble.gm_auto_play`` extras to a fumble (SG.FUM.2) and leaves the environment alone (a
  scenario's GM script changes it).
- :func:`scenario_policy`: scripted units (and the GM) play their scripts with the core's
  :class:`~kassen.core.policy.Scripted` — each step when it is legal, its place derived from the actions
  played, so undo rewinds it; a unit may ask for the core's ``random`` or ``first-legal`` policy
  (:class:`~kassen.core.policy.ByActor`); the heuristic decides everything else.
"""

from __future__ import annotations

__all__ = ["HeuristicPolicy"]

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

from kassen.core.errors import KassenError
from kassen.core.policy import Decision, Listed
from kassen.i18n import S_
from kassen.sengoku.battle.actions import (
    Action,
    Breath,
    Decline,
    LastBastion,
    Pass,
    React,
)
from kassen.sengoku.battle.blows import Blow, rough_dealt, standing_of
from kassen.sengoku.battle.choices import fate_choice, fumble_choice, upkeep_choice
from kassen.sengoku.battle.plan import Planner, planner
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Unit, Use
from kassen.sengoku.battle.values import Values
from kassen.sengoku.battle.weigh import weigh_breath
from kassen.sengoku.entries import HonorClass, ManeuverKind, MovementTo

#: What Energy left after a breath is worth, per point, against what it buys now: a little less (the
#: target may fall or move, the unit may be struck down, and Energy unspent at the lull is lost), so a
#: breath that does more now (Aim Focus, a dearer technique) can beat one that only does it cheaper.
_LATER = Fraction(4, 5)
_LATER_FLOAT = float(_LATER)
#: How close (relative to the value, at least this much absolute) a breath's floating-point value must
#: come to the best for the exact value to settle it: a float of these few sums is off by ~1e-15.
_CLOSE = 1e-9

#: What a weighed entry names its breath by (the breath itself, or what builds it).
T = TypeVar("T")


def _itself(breath: T) -> Breath:
    assert isinstance(breath, Breath)
    return breath


def _later(value: Fraction, rate: Fraction, left: int, standing: int) -> Fraction:
    """What ``left`` Energy unspent after a breath worth ``value`` is worth later this round: the Wounds
    it buys at ``rate`` per Energy, no more than the targets in reach have (``standing``), from the
    share of them the breath is expected to leave standing, discounted by :data:`_LATER`.

    The share is what makes a surer blow now worth its price: against a target with 1 Wound left, a
    plain shot that fells it with chance 0.45 leaves Energy for a second shot that only counts when the
    first missed (0.55 of the time), so the two are worth 0.45 + 0.55 × 0.45 ≈ 0.70, less than an aimed
    shot that fells with 0.79 (SG.AIM.2); counting the second shot in full (0.45 + 0.45) made the cheap
    shot win every time. Against many Wounds standing it is the rate alone, as before."""
    share = 1 - value / standing
    if share <= 0:
        return Fraction(0)
    spend = rate * left
    return _LATER * share * (spend if spend < standing else Fraction(standing))


class HeuristicPolicy(Values):
    """A sensible, deterministic player (see the module notes)."""

    def __init__(self, rules: BattleRules) -> None:
        super().__init__(rules)

    def __call__(self, decision: Decision[BattleState, Action]) -> Action:
        state, d = decision.state, decision.state.decision
        if d is not None and d.kind is DecisionKind.BREATH and isinstance(decision.legal, Listed):
            # the ruleset's own legal actions (the fight lists them on first read): weighed on the
            # planner's grouped listing, the same choice without spelling every target's breaths out
            return weigh_breath(self, state, state.unit(d.unit))
        return self.choose(state, decision.legal)

    def choose(self, state: BattleState, legal: Sequence[Action]) -> Action:
        """The action for ``state`` among ``legal``."""
        if not legal:
            raise KassenError(S_("no legal action to choose from"))
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

    def falling_back(
        self, state: BattleState, unit: Unit, breaths: Sequence[Breath], passing: Action
    ) -> Action | None:
        """When its rules and situation say so, the unit's retreat (or a step toward a zone it may retreat
        from; a routed unit with neither passes); None when it stays (of ``breaths``, only the lone
        movements and Retreats are read)."""
        if not self.should_retreat(state, unit):
            return None
        away = self._retreat(state, unit, breaths)
        if away is not None:
            return away
        return passing if unit.routed else None

    def breath(self, state: BattleState, unit: Unit, legal: Sequence[Action]) -> Action:
        r = self.rules
        breaths = [a for a in legal if isinstance(a, Breath)]
        passing = next((a for a in legal if isinstance(a, Pass)), legal[-1])
        away = self.falling_back(state, unit, breaths, passing)
        if away is not None:
            return away
        aid = self._aid(state, unit, breaths)
        if aid is not None:
            return aid
        memo: dict[tuple[Use, str], Blow] = {}
        plans = planner(r, state, unit)
        scored: list[tuple[Breath, float, int]] = []
        targets: set[str] = set()  # the targets the breaths weighed attack
        kinds: dict[str, tuple[bool, bool]] = {}  # per maneuver: (it attacks, it is an aid)
        for b in breaths:
            attacks = aids = released = False
            for u in b.uses:
                kind = kinds.get(u.maneuver)
                if kind is None:
                    m = r.maneuver(u.maneuver)
                    kind = kinds[u.maneuver] = (m.attacks, m.aid is not None)
                attacks |= kind[0]
                aids |= kind[1]
                released |= u.release
            if not attacks or aids:
                continue
            spent = plans.spent(b.uses)
            if spent > r.breath_limit or released:  # overloads (SG.BRT.2), or lets a stance go
                continue
            scored.append((b, self._rough_value(state, unit, b, memo), spent))
            targets.update(u.target for u in b.uses if u.target is not None and kinds[u.maneuver][0])
        best = self._best_of(state, unit, scored, memo, standing_of(state, targets))
        if best is not None:
            return self._with_reservation(state, plans, best, breaths)
        return self.no_attack(state, unit, breaths, passing)

    def no_attack(self, state: BattleState, unit: Unit, breaths: Sequence[Breath], passing: Action) -> Action:
        """When no attack is worth making: a reservation alone, or a stance alone, when an enemy is near;
        else a step toward the nearest enemy; else ``passing`` (of ``breaths``, only the lone
        movements, stances and reservations are read)."""
        r = self.rules
        near = self.enemy_near(state, unit, unit.zone or "")
        if near and not unit.reservations:
            for b in breaths:
                if (
                    len(b.uses) == 1
                    and r.maneuver(b.uses[0].maneuver).kind is ManeuverKind.DEFENSE
                    and self._cached_reservation(state, unit, unit.zone or "")
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

    def _rough_value(
        self, state: BattleState, unit: Unit, breath: Breath, memo: dict[tuple[Use, str], Blow]
    ) -> float:
        """:meth:`breath_value`'s expected Wounds in floating point, for ranking only: the same sums over
        the floats of the same exact parts (each attack's :class:`~kassen.sengoku.battle.blows.Blow`,
        kept in ``memo`` for a tie to be settled exactly); :meth:`_best_of` settles exactly whatever it
        leaves close."""
        r = self.rules
        zone = unit.zone or ""
        uses = breath.uses
        if len(uses) == 1 and uses[0].target is not None:
            # the commonest breath, one blow (or an aid, valued as nothing): the loop below, unrolled
            m = r.maneuver(uses[0].maneuver)
            if m.attacks and m.kind is not ManeuverKind.MOVEMENT:
                blow = self.blow_in(state, unit, uses[0], zone, memo)
                return blow.rough_at(state.unit(uses[0].target).wounds)
        hits: dict[str, list[tuple[Blow, float, int]]] = {}
        reserved = False
        extra = 0.0
        sneak = 0.0
        for use in uses:
            m = r.maneuver(use.maneuver)
            if m.kind is ManeuverKind.MOVEMENT:
                self._fresh(state)
                found = self._sneaks.get((unit.id, m.id))
                if found is None:
                    found = self._sneaks[(unit.id, m.id)] = float(self.stealth_chance(state, unit, m))
                sneak = found
                zone = use.to or zone
            elif m.attacks and use.target is not None:
                blow = self.blow_in(state, unit, use, zone, memo)
                hit = (blow, sneak, self._critical(unit, m, use.weapon) if sneak else 0)
                sneak = 0.0
                before = hits.get(use.target)
                if before is None:
                    hits[use.target] = [hit]
                else:
                    before.append(hit)
            elif m.kind is ManeuverKind.DEFENSE:
                reserved = True
            elif m.grants is not None and not use.release:
                extra += float(self._cached_stance(state, unit, m))
        total = 0.0
        for t, those in hits.items():
            total += rough_dealt(those, state.unit(t).wounds)
        total += extra
        if reserved:
            total += float(self._cached_reservation(state, unit, zone))
        return total

    def blow_in(
        self, state: BattleState, unit: Unit, use: Use, zone: str, memo: dict[tuple[Use, str], Blow]
    ) -> Blow:
        """:meth:`blow` of ``use`` made from ``zone``, kept in ``memo`` once a decision."""
        key = (use, zone)
        blow = memo.get(key)
        if blow is None:
            blow = memo[key] = self.blow(state, unit, use, zone)
        return blow

    def _best_of(
        self,
        state: BattleState,
        unit: Unit,
        scored: Sequence[tuple[T, float, int]],
        memo: dict[tuple[Use, str], Blow],
        standing: int,
        breath_of: Callable[[T], Breath] = _itself,
        exact_of: Callable[[T, int], Fraction] | None = None,
    ) -> T | None:
        """:meth:`_best` over breaths ranked in floating point: a breath whose key stands clear of every
        other's by more than :data:`_CLOSE` is chosen as it is; else every breath whose rough rate or
        key comes within :data:`_CLOSE` of the best is valued exactly (:meth:`breath_value`) and the
        exact rule settles among them, so the choice is always the exact one (a float is off by far less).
        Each entry names its breath: the breath itself, or what ``breath_of`` builds it from (the
        grouped weighing builds only the few it values exactly, ``kassen.sengoku.battle.weigh``), and
        ``exact_of`` (when given) values one exactly as :meth:`breath_value` does, without building it;
        ``standing`` is the Wounds the targets they attack have left (``blows.standing_of``)."""
        if not scored:
            return None
        standing = max(standing, 1)
        # the best rate and the cheapest price in one pass (a price is at least 1 but for a lone
        # reservation's 0, rated as if it cost 1)
        top_rate = -math.inf
        cheapest = math.inf
        for _, v, paid in scored:
            per = v / paid if paid > 1 else v
            if per > top_rate:
                top_rate = per
            if paid < cheapest:
                cheapest = paid
        if top_rate <= _CLOSE:
            # nothing clearly worth attacking for: the exact rule decides (rare)
            return self._best(
                unit,
                [(x, self._exact(state, unit, breath_of(x), spent, memo), spent) for x, _, spent in scored],
                standing,
            )
        exact_values: dict[int, Fraction] = {}

        def exact(i: int) -> Fraction:
            found = exact_values.get(i)
            if found is None:
                x, _, spent = scored[i]
                if exact_of is not None:
                    found = exact_values[i] = exact_of(x, spent)
                else:
                    found = exact_values[i] = self._exact(state, unit, breath_of(x), spent, memo)
            return found

        energy = unit.energy
        # what the Energy left is worth later (_later's sums, in floating point) counts only where it
        # pays for another attack
        cap = float(standing)
        keys = [
            v + _LATER_FLOAT * (1.0 - v / cap) * (s if (s := top_rate * (energy - paid)) < cap else cap)
            if energy - paid >= cheapest and v < cap
            else v
            for _, v, paid in scored
        ]
        top_key = max(keys)
        bar = top_key - _CLOSE * max(1.0, abs(top_key))
        close = [i for i, k in enumerate(keys) if k >= bar]
        if len(close) == 1:
            return scored[close[0]][0]  # clearly the best: the exact rate below is only for near ties
        # the Energy left over is worth the same later to every near-best breath that leaves as much
        # (or too little for another attack): adding the same to each ranks them as their values do, so
        # the exact best rate is needed only when what they leave differs
        lefts = {unit.energy - scored[i][2] if unit.energy - scored[i][2] >= cheapest else -1 for i in close}
        if len({scored[i][2] for i in close}) == 1:
            # one price (most near ties: the same blow at targets of other classes): the keys below rank
            # them as their exact values do, the first of equals kept
            found: T | None = None
            top: Fraction | None = None
            for i in close:
                value = exact(i)
                if top is None or value > top:
                    found, top = scored[i][0], value
            return found
        if len(lefts) == 1:
            rate = Fraction(0)
        else:
            bar = top_rate - _CLOSE * max(1.0, top_rate)
            rate = max(
                exact(i) / max(paid, 1)
                for i, (_, rough, paid) in enumerate(scored)
                if (rough / paid if paid > 1 else rough) >= bar
            )
        best: T | None = None
        best_key: tuple[Fraction, Fraction] | None = None
        for i in close:
            x, _, spent = scored[i]
            value = exact(i)
            left = unit.energy - spent
            later = _later(value, rate, left, standing) if left >= cheapest else Fraction(0)
            key = (value + later, value / max(spent, 1))
            if best_key is None or key > best_key:
                best, best_key = x, key
        return best

    def _exact(
        self, state: BattleState, unit: Unit, b: Breath, spent: int, memo: dict[tuple[Use, str], Blow]
    ) -> Fraction:
        return self.breath_value(state, unit, b, memo, spent=spent)[1]

    def _best(self, unit: Unit, scored: Sequence[tuple[T, Fraction, int]], standing: int) -> T | None:
        """The breath with the most expected Wounds now plus what its unspent Energy is worth later
        (:func:`_later`: at the best rate any of them reaches, discounted by :data:`_LATER`, from the
        Wounds of the targets in reach, ``standing``, the breath is expected to leave), and nothing for
        Energy too little to pay for another attack (it is lost at the lull)."""
        if not scored:
            return None
        standing = max(standing, 1)
        rate = max(value / max(spent, 1) for _, value, spent in scored)
        if rate <= 0:
            return None
        cheapest = min(spent for _, _, spent in scored)
        best: T | None = None
        best_key: tuple[Fraction, Fraction] | None = None
        for x, value, spent in scored:
            left = unit.energy - spent
            later = _later(value, rate, left, standing) if left >= cheapest else Fraction(0)
            key = (value + later, value / max(spent, 1))
            if best_key is None or key > best_key:
                best, best_key = x, key
        return best

    def _lone_stance(self, state: BattleState, unit: Unit, breaths: Sequence[Breath]) -> Breath | None:
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

    def wants_reservation(self, state: BattleState, unit: Unit, best: Breath) -> bool:
        """Whether ``best`` (an attack) should take a defense reservation along: it has none, the unit
        holds none, and an enemy that can still act can reach it where the breath leaves it."""
        r = self.rules
        if unit.reservations or any(r.maneuver(u.maneuver).kind is ManeuverKind.DEFENSE for u in best.uses):
            return False
        zone = unit.zone or ""
        for u in best.uses:
            if r.maneuver(u.maneuver).kind is ManeuverKind.MOVEMENT and u.to:
                zone = u.to
        return bool(self._cached_reservation(state, unit, zone))

    def _with_reservation(
        self, state: BattleState, plans: Planner, best: Breath, breaths: list[Breath]
    ) -> Breath:
        """The best attack, plus a defense reservation when one fits the breath and an enemy that can
        still act can reach the unit (SG.RES.1)."""
        r, unit = self.rules, plans.unit
        if not self.wants_reservation(state, unit, best):
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

    def _approach(self, state: BattleState, unit: Unit, breaths: Sequence[Breath]) -> Breath | None:
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

    def _retreat(self, state: BattleState, unit: Unit, breaths: Sequence[Breath]) -> Breath | None:
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

    # -- Fate and the GM (kassen.sengoku.battle.choices) ------------------------------------------------
    def fate(self, state: BattleState, legal: Sequence[Action]) -> Action:
        return fate_choice(self.rules, state, legal)

    def fumble(self, legal: Sequence[Action]) -> Action:
        return fumble_choice(self.rules, legal)

    def upkeep(self, state: BattleState, legal: Sequence[Action]) -> Action:
        return upkeep_choice(self.rules, state, legal)
