"""What the Sengoku heuristic (:mod:`~kassen.sengoku.battle.policies`) weighs, exactly: an attack's
chance of each number of Wounds now (exact odds through the attack's own resolution,
:mod:`kassen.sengoku.odds`; a :class:`~kassen.sengoku.battle.blows.Blow`), the threat the enemies in
reach pose to a unit, what a stance or a reservation turns away, the chance a Stealth Movement
infiltrates, and the Wounds a whole breath is expected to take. :class:`Values` keeps them for
the last state it was asked about (a new state starts afresh) and the content's rules keep what does
not depend on the state (``BattleRules.attack_values``, ``best_blows``). Policies are not rules."""

from __future__ import annotations

__all__ = ["Values"]

from fractions import Fraction

from kassen.core.fastreplace import replace
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.blows import NOTHING, Blow, Hit, blow_of, dealt
from kassen.sengoku.battle.plan import check_modifier, usable_reservations
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit, Use, Zone
from kassen.sengoku.defense import DefenseResult
from kassen.sengoku.entries import Maneuver, ManeuverKind
from kassen.sengoku.house import ZoneApplies
from kassen.sengoku.profile import ArmorKind, AttackTags, CombatProfile, DefenseBonus
from kassen.sengoku.technique import attack_modifier

_PIERCE_TIE_BREAK = Fraction(1, 1000)
_ZERO = Fraction(0)
#: The most units a battle may have for a threat to be read off every one of them; a larger battle
#: reads only the units in the zones in reach (``Values._threat``).
_MANY = 24
#: The share of an enemy's best blow a reservation is expected to turn away (a policy choice).
_RESERVATION_SHARE = Fraction(1, 2)
#: How much of the next round a stance is counted for (it stays until released or Defenseless).
_STANCE_NEXT_ROUND = Fraction(1, 2)


#: What :meth:`Values._target` reads of a target once a state: the number of its profile's reading but
#: its name, whether a reaction is ready, the zone's number and zone, the Defense class and its number.
_Seen = tuple[int, bool, int, Zone, CombatProfile, int]


def guard_of(profile: CombatProfile) -> CombatProfile:
    """``profile`` as its Defense sees it (SG.DEF.5): without its name, Wounds and Fate Points, which
    :func:`~kassen.sengoku.defense.compute_defense` never reads. Two profiles of one Defense class get
    the same Defense against every attack (``tests/sengoku/test_defense_properties.py``), so the heuristic's
    values keyed by the class are shared by every Wound level of a target (a lab run's memos fill once
    per class, not once per Wound lost)."""
    return replace(profile, name="", id="", wounds=None, wounds_max=None, fate_points=0)


class Values:
    """The heuristic's exact values of attacks, threats, stances and reservations in one state, each
    worked out once a state (see the policies' module notes)."""

    def __init__(self, rules: BattleRules) -> None:
        self.rules = rules
        # One fight's policy remembers the targets' profiles and Defense in the last state it was asked
        # about, found by identity (bounded: one state's worth; a new state object starts it afresh).
        self._memo_state: BattleState | None = None
        # per target (and whether it is ambushed): the number of its profile's reading, whether a reaction
        # is ready, its zone's number and zone, and its Defense class (:func:`guard_of`) with its number;
        # per zone the attacker stands in: the zone's number
        self._targets: dict[tuple[str, bool], _Seen] = {}
        self._zone_numbers: dict[str, int] = {}
        self._defenses: dict[tuple[str, bool, AttackTags], DefenseResult] = {}
        self._threats: dict[tuple[str, str | None, DefenseBonus | None], Fraction] = {}
        self._stances: dict[tuple[str, str], Fraction] = {}
        self._reservations: dict[tuple[str, str], Fraction] = {}
        self._sneaks: dict[tuple[str, str], float] = {}

    def _fresh(self, state: BattleState) -> None:
        # by identity: a decision asks of one state object throughout, and each decision's state is a
        # new one (comparing it with the last by value, field by field, found it different anyway)
        if self._memo_state is not state:
            self._memo_state = state
            self._targets = {}
            self._zone_numbers = {}
            self._defenses = {}
            self._threats = {}
            self._stances = {}
            self._reservations = {}
            self._sneaks = {}

    # -- values ----------------------------------------------------------------------------------------
    def attack_value(self, state: BattleState, unit: Unit, use: Use, zone: str) -> Fraction:
        """Expected Wounds of one attack now (exact odds), with the weapon that carries it, with a hair's
        preference for [Pierce] against heavy armor (what it takes from the target: :meth:`blow`)."""
        return self.blow(state, unit, use, zone).mean

    def blow(self, state: BattleState, unit: Unit, use: Use, zone: str) -> Blow:
        """The :class:`~kassen.sengoku.battle.blows.Blow` of one attack now: its exact chance of each
        number of Wounds (the attack's own resolution over every roll, :mod:`kassen.sengoku.odds`), with
        the weapon that carries it, made from ``zone``, a ready reaction read as turning away half of it,
        and a hair's preference for [Pierce] against heavy armor; remembered by the content."""
        r = self.rules
        assert use.target is not None
        target = state.unit(use.target)
        if target.zone is None:
            return NOTHING
        self._fresh(state)
        ambushed = unit.infiltrating and not target.ambushed
        _, reserved, there_number, there, guard, guard_number = self._target(state, target, ambushed)
        here_number = self._zone_numbers.get(zone)
        if here_number is None:
            here_number = self._zone_numbers[zone] = r.number(state.zone(zone))
        # everything the value reads: the attacker's template and blow, the zones, what the target's
        # Defense reads of its profile (by its number: hashed once a state; not its Wounds left, which
        # the blow's capped values are read at later) and whether it has a reaction ready
        vkey = (
            unit.creature,
            unit.spec,
            use.maneuver,
            use.weapon,
            use.aim,
            here_number,
            there_number,
            guard_number,
            reserved,
        )
        found = r.attack_values.get(vkey)
        if found is not None:
            return found
        m = r.maneuver(use.maneuver)
        tech = r.technique(unit, m, use.weapon)
        tags = tech.tags
        if use.aim:
            tags = r.aim(tech, r.attribute(unit, "finesse"), use.aim).tags
        dkey = (target.id, ambushed, tags)
        defense = self._defenses.get(dkey)
        if defense is None:
            defense = r.defense_of(guard, tags)
            self._defenses[dkey] = defense
        if defense.immune:
            blow = NOTHING
        else:
            modifier, _ = attack_modifier(r.base_profile(unit), tech)
            here = state.zone(zone)
            for e in r.zone_effects(unit, m, ZoneApplies.CHECK, here, target_zone=there, weapon=use.weapon):
                modifier += e.amount
            chances = r.odds.attack(modifier, defense.defense, tech).wound_chances
            heavy = tags.pierce is not None and guard.armor in (ArmorKind.HEAVY, ArmorKind.HEAVY_BATTLE)
            blow = blow_of(chances, bonus=_PIERCE_TIE_BREAK if heavy else _ZERO, halved=reserved)
        r.attack_values[vkey] = blow
        return blow

    def _target(self, state: BattleState, target: Unit, ambushed: bool) -> _Seen:
        """What an attack's value reads of ``target`` (struck from an ambush or not), once a state: the
        number of what its profile reads but its name, whether a reaction is ready, its zone's number
        and zone, and its Defense class (:func:`guard_of`) and that class's number."""
        pkey = (target.id, ambushed)
        seen = self._targets.get(pkey)
        if seen is None:
            r = self.rules
            assert target.zone is not None
            there = state.zone(target.zone)
            reserved = bool(usable_reservations(r, state, target, ambushed=ambushed))
            blind, guard, number = self._guard(state, target, ambushed=ambushed)
            seen = self._targets[pkey] = (blind, reserved, r.number(there), there, guard, number)
        return seen

    def target_class(self, state: BattleState, unit: Unit, target: str) -> tuple[object, ...]:
        """Everything :meth:`attack_value` and a breath's value read of the unit ``target`` when ``unit``
        attacks it: two targets of one class are worth exactly the same to every attack of ``unit``
        (the profile carries the Wounds left; ``kassen.sengoku.battle.weigh``)."""
        t = state.unit(target)
        if t.zone is None:
            return ("off the battlefield",)
        self._fresh(state)
        seen = self._target(state, t, unit.infiltrating and not t.ambushed)
        return (seen[0], seen[1], seen[2])

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
        blows: dict[tuple[str, str], tuple[Fraction, int] | None] = {}
        # how many of its best blows the enemies of each template can still strike: one product a
        # template at the end, the same exact sum as one for each enemy
        count: dict[tuple[str, str], int] = {}
        guard: CombatProfile | None = None
        number = 0
        here, side = unit.zone, unit.side
        if len(state.units) > _MANY:
            # the enemies that can reach the unit stand in its zone or a neighbouring one (distance 1
            # at most): a crowded battle reads them through those zones (each once), not every unit
            near = [
                e
                for zone in dict.fromkeys((here, *state.neighbours(here)))
                for e in state.in_zone_all(zone)
                if e.side != side
            ]
        else:
            near = [
                e
                for e in state.units
                if e.side != side and e.zone is not None and state.distance(e.zone, here) <= 1
            ]
        for e in near:
            if not e.able or e.passed:
                continue
            template = (e.creature, e.spec)
            if template in blows:
                best = blows[template]
            else:
                # an enemy's best blow on this profile depends on its template and the profile's
                # Defense class alone: kept by the rules
                if guard is None:
                    _, guard, number = self._guard(state, unit, bonus)
                key = (number, *template)
                known = r.best_blows.get(key)
                if known is None:
                    known = r.best_blows[key] = (self._best_blow(e, guard),)
                best = blows[template] = known[0]
            if best is not None:
                count[template] = count.get(template, 0) + e.energy // best[1]
        if not count:
            return _ZERO
        # the sum is the same wherever the same Defense class meets as many blows of each template:
        # remembered by the content (exact Fractions are dear to add up)
        tkey = (number, tuple(count.items()))
        found = r.threat_sums.get(tkey)
        if found is None:
            total = _ZERO
            for template, n in count.items():
                best = blows[template]
                assert best is not None
                total += best[0] * n
            found = r.threat_sums[tkey] = total
        return found

    def _guard(
        self, state: BattleState, unit: Unit, bonus: DefenseBonus | None = None, *, ambushed: bool = False
    ) -> tuple[int, CombatProfile, int]:
        """The number of what ``unit``'s profile reads but its name (``BattleRules.profile_reading``),
        struck from an ambush or with ``bonus`` added, and the Defense class (:func:`guard_of`) of that
        profile with its number. The name only words the explanation (SG.DEF.5 reads none of it), so
        copies of one template in one situation share their values; the profile itself is built only
        the first time its reading is met."""
        r = self.rules
        reading = r.number(("profile", ambushed, bonus, *r.profile_reading(state, unit)))
        guarded = r.guards.get(reading)
        if guarded is None:
            profile = r.profile(state, unit)
            if ambushed:
                profile = replace(profile, defenseless=True, bonuses=())
            if bonus is not None:
                profile = replace(profile, bonuses=(*profile.bonuses, bonus))
            guard = guard_of(profile)
            guarded = r.guards[reading] = (guard, r.number(guard))
        return (reading, *guarded)

    def _best_blow(self, e: Unit, profile: CombatProfile) -> tuple[Fraction, int] | None:
        """``e``'s best expected Wounds per Energy on ``profile`` (its Wounds and cost), if any."""
        r = self.rules
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
        return best

    def _cached_stance(self, state: BattleState, unit: Unit, m: Maneuver) -> Fraction:
        """:meth:`stance_value` of the unit deciding now, once per state."""
        self._fresh(state)
        key = (unit.id, m.id)
        found = self._stances.get(key)
        if found is None:
            found = self._stances[key] = self.stance_value(state, unit, m)
        return found

    def _cached_reservation(self, state: BattleState, unit: Unit, zone: str) -> Fraction:
        """:meth:`reservation_value` of the unit deciding now, once per state and zone."""
        self._fresh(state)
        key = (unit.id, zone)
        found = self._reservations.get(key)
        if found is None:
            found = self._reservations[key] = self.reservation_value(state, unit, zone)
        return found

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
        here = unit if unit.zone == zone else replace(unit, zone=zone)
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
        memo: dict[tuple[Use, str], Blow] | None = None,
        *,
        spent: int | None = None,
    ) -> tuple[Fraction, Fraction]:
        """(expected Wounds per Energy, expected Wounds) of an attacking breath: what its attacks take from
        each target, capped at the Wounds it has left (:func:`~kassen.sengoku.battle.blows.dealt`), with
        reservations and stances counted."""
        r = self.rules
        memo = {} if memo is None else memo
        zone = unit.zone or ""
        hits: dict[str, list[Hit]] = {}
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
                blow = memo.get(key)
                if blow is None:
                    blow = memo[key] = self.blow(state, unit, use, zone)
                hit = (blow, sneak, self._critical(unit, m, use.weapon) if sneak else 0)
                sneak = Fraction(0)
                before = hits.get(use.target)
                if before is None:
                    hits[use.target] = [hit]
                else:
                    before.append(hit)
            elif m.kind is ManeuverKind.DEFENSE:
                reserved = True
            elif m.grants is not None and not use.release:
                extra += self._cached_stance(state, unit, m)
        total: Fraction | None = None
        for t, those in hits.items():
            taken = dealt(those, state.unit(t).wounds)
            total = taken if total is None else total + taken
        if total is None:
            total = Fraction(0)
        total += extra
        if reserved:
            total += self._cached_reservation(state, unit, zone)
        return (total / max(cost if spent is None else spent, 1), total)

    def _critical(self, unit: Unit, m: Maneuver, weapon: str | None = None) -> int:
        return self.rules.critical_wounds(self.rules.technique(unit, m, weapon))
