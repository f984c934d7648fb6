"""The arena's heuristic player, a :class:`kassen.core.policy.Policy`: it weighs every attack within reach
by its exact chance to hit times its expected final damage counted up to what the hit is worth (both
fractions: a fresh target is out of the exchange once a hit stuns it, so more damage there counts for
nothing, and a blow that lands beats a bigger one that may not), closes on an opponent when
none is within reach (the one it reaches soonest, then the one it would hurt most, stopping at its own
reach), rises when down, tries guts when the odds are decent and the FP it leaves keep it in the bout,
and spends an audience point to get back from FP 1. Scripts, first-legal and per-fighter policies are
the core's (:mod:`kassen.core.policy`).

A guts check costs 2 FP (AR.GUT.1). Against a stun it is tried only with FP to spare (a stun is not
worth fainting for). Against incapacity it is tried whatever its FP cost, but never down to FP 1
(helpless, AR.FTG.4) or FP 0 (unconscious, AR.FTG.5): either loses the match (or puts the fighter out of
a fight) as surely as declining, and declining keeps the FP. The one exception is FP 1 in a match while
the fighter still holds an audience point whose second wind lifts it again (AR.RD.6's reading): then the
check is the only way to stay in. The guts bonus on automatic HT checks (AR.GUT.3) is not the
heuristic's: each fighter declares its plan (``guts_bonus: {checks, min_fp_after}``), and the default
plan keeps 3 FP, above both thresholds.

The exact values it reads are remembered by the content's tables (``ArenaRules.memos.policy``, shared
by the policies of every fight of that content; :mod:`kassen.arena.memos`), by value and bounded.
"""

from __future__ import annotations

__all__ = ["HeuristicPolicy"]

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

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
    attribute_modifiers,
    can_defend,
    defense_target,
    guts_target,
)
from kassen.arena.bout.reading import override_effects
from kassen.arena.checks import success_chance
from kassen.arena.damage import counted_prior, divide_ht, strength_damage
from kassen.arena.fighter import FighterState, Weapon
from kassen.arena.odds import hit_chance, mean_final
from kassen.arena.rules import ArenaRules, DiceSpec
from kassen.arena.terms import MatchFormat
from kassen.core.errors import KassenError
from kassen.core.policy import Decision


def _damage_spec(w: Weapon, st: int, rules: ArenaRules) -> DiceSpec:
    """The weapon's damage dice: its own, or thrust/swing for ``st``, plus its adds (AR.KNB.3)."""
    base = DiceSpec(dice=w.dice, adds=0) if w.base == "none" else strength_damage(st, w.base, rules)
    return DiceSpec.of(base.dice, base.adds + w.adds)


class HeuristicPolicy:
    """A sensible fighter that reads exact odds before committing."""

    def __init__(
        self,
        tables: ArenaRules | None = None,
        *,
        guts_at_least: Fraction = Fraction(1, 3),
        stun_guts_at_least: Fraction = Fraction(1, 2),
        all_out_gain: Fraction = Fraction(1),
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
        """The memos of ``tables`` (values of other content never leak in), shared by every policy
        playing under the same tables: every fight of a scenario plays under one tables object."""
        self._tables = tables
        self._memos = tables.memos.policy
        self._targets_of: BoutState | None = None
        self._targets: dict[tuple[object, ...], tuple[int, int | None]] = {}
        self._bases: dict[tuple[str, bool], int] = {}
        #: Each location's to-hit under these tables.
        self._to_hit: dict[str | None, int] = {}
        self._defenses: dict[str, int | None] = {}
        #: What each fighter's defence is worth against each opponent, for the state being decided on.
        self._open_of: BoutState | None = None
        self._open: dict[str, tuple[tuple[str, Fraction], ...]] = {}

    def _rules(self, tables: ArenaRules) -> ArenaRules:
        if self._tables is not tables:
            self._bind(tables)
        return tables

    def __call__(self, decision: Decision[BoutState, Action]) -> Action:
        legal = tuple(decision.legal)  # listed once, read as a plain tuple from here on
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
            chance = success_chance(guts_target(f, f.stun_cause, rules)[0], rules=rules.checks)
            if (
                guts
                and chance >= self.stun_guts_at_least
                and f.fp - rules.injury.guts.fp_cost >= self.stun_guts_fp_reserve
            ):
                return guts[0]
            return next(a for a in legal if isinstance(a, Wait))
        # one pass over the listing sorts out what is weighed (the actions are exactly these classes)
        rise: Rise | None = None
        attacks: list[Attack] = []
        moves: list[Move] = []
        for a in legal:
            kind = type(a)
            if kind is Attack:
                attacks.append(a)  # type: ignore[arg-type]  # its type is Attack
            elif kind is Move:
                moves.append(a)  # type: ignore[arg-type]  # its type is Move
            elif kind is Rise and rise is None:
                rise = a  # type: ignore[assignment]  # its type is Rise
        if rise is not None:
            return rise
        if not attacks:
            if moves:
                return self._close(state, decision.actor.id, moves, rules)
            return next(a for a in legal if isinstance(a, Wait))
        return attacks[self._best(state, f, attacks, rules)]

    def _best(self, state: BoutState, f: FighterState, attacks: Sequence[Attack], rules: ArenaRules) -> int:
        """The index of the first attack of the highest :meth:`value` (divided by ``all_out_gain`` for
        an all-out one, which needs ``all_out_min_fp``), exact. An attack's value depends only on the
        target, where it lands, the effective skill and defence and whether it is all-out: each such
        key is valued once, and an attack whose key was valued before cannot beat the best so far (it
        is at most that) and is passed over, as ``>`` would. Values are compared in floating point when
        they are far enough apart for rounding not to matter, exactly otherwise.
        ``test_best_attack_is_the_plain_maximum`` holds this to valuing every attack."""
        rules = self._rules(rules)
        gain = float(self.all_out_gain)
        best, best_float = 0, -1.0
        best_parts: tuple[Fraction, Fraction, bool] | None = None  # the best value's exact factors
        best_target = ""
        seen: set[tuple[object, ...]] = set()
        fighters = {x.profile.id: x for x in state.fighters}
        landings: dict[tuple[str, str, str | None], tuple[str, Fraction, float]] = {}
        # _effective's sums, read here without a call for each of some thirty attacks
        if self._targets_of is not state:
            self._targets_of, self._targets, self._bases, self._defenses = state, {}, {}, {}
        bases, defenses, to_hits = self._bases, self._defenses, self._to_hit
        low_fp = f.fp < self.all_out_min_fp
        default_location = rules.damage.basic.default_location
        shared_of: dict[tuple[str, str], int] = {}  # _shared of each attacker and target, this call
        # the hit chances asked in this call (a few, asked again at every location): the memo's pairs
        hits: dict[tuple[int, int | None], tuple[Fraction, float]] = {}
        hit: Fraction
        hit_float: float
        for i, a in enumerate(attacks):
            all_out = a.all_out
            if all_out and low_fp:
                continue
            actor, tid, location = a.actor, a.target, a.location
            target = fighters[tid]
            # the attack's effective skill and the target's defence: _effective's very sums
            base = bases.get((actor, all_out))
            if base is None:
                base = bases[(actor, all_out)] = _attack_base(state, actor, all_out, rules)
            to_hit = to_hits.get(location)
            if to_hit is None:
                to_hit = to_hits[location] = rules.locations.find(attack_location(location, rules)).to_hit
            atk = base + to_hit
            if tid in defenses:
                dfn = defenses[tid]
            else:
                dfn = defenses[tid] = (
                    defense_target(state, tid, rules=rules)[0] if can_defend(target, rules) else None
                )
            # where it lands and the mean damage there: the same for the plain and the all-out attack
            aim = (actor, tid, location)
            landing = landings.get(aim)
            if landing is None:
                # _lands_on: with no guard up, where the attack aims
                if target.guards:
                    where = self._lands_on(a, target, rules)
                else:
                    where = default_location if location is None else location
                attacker = fighters[actor]
                shared = shared_of.get((actor, tid))
                if shared is None:
                    shared = shared_of[(actor, tid)] = self._shared(attacker, target)
                landing = landings[aim] = (where, *self._mean_at(shared, attacker, target, where, rules))
            where, mean, mean_float = landing
            key = (actor, tid, where, atk, dfn, all_out)
            if key in seen:
                continue
            seen.add(key)
            pair = hits.get((atk, dfn))
            if pair is None:
                pair = hits[(atk, dfn)] = self._hit_pair(atk, dfn)
            hit, hit_float = pair
            value_float = hit_float * mean_float
            if all_out:
                exposure = self._exposure(state, f, target, hit, mean, rules)
                value_float = (value_float - exposure[1]) / gain
            # Each float is within a few units in the last place of its exact value (the factors are
            # correctly rounded, then one product and one quotient): a gap wider than 1e-9 of the larger
            # decides as the exact values would; a narrower one is settled exactly.
            gap = value_float - best_float
            if abs(gap) > 1e-9 * max(abs(value_float), abs(best_float)):
                better = gap > 0
            else:
                better = self._exact(hit, mean, all_out, state, f, target, rules) > (
                    Fraction(-1)
                    if best_parts is None
                    else self._exact(*best_parts, state, f, fighters[best_target], rules)
                )
            if better:
                best, best_float, best_parts, best_target = i, value_float, (hit, mean, all_out), tid
        return best

    def _exact(
        self,
        hit: Fraction,
        mean: Fraction,
        all_out: bool,
        state: BoutState,
        me: FighterState,
        target: FighterState,
        rules: ArenaRules,
    ) -> Fraction:
        value = hit * mean
        if not all_out:
            return value
        return (value - self._exposure(state, me, target, hit, mean, rules)[0]) / self.all_out_gain

    def _exposure(
        self,
        state: BoutState,
        me: FighterState,
        target: FighterState,
        hit: Fraction,
        mean: Fraction,
        rules: ArenaRules,
    ) -> tuple[Fraction, float]:
        """What an all-out attack on ``target`` gives away: it leaves ``me`` no defence until my next
        slot (the all-out action, AR.GAP.2's reading), so each opponent able to strike back hits more
        often by what ``my`` defence would have stopped, times what its hit is worth against me, unless
        the attack stops it first (the target, by the share of a stunning hit the attack deals:
        ``hit × mean / worth``). Weighing the all-out attack without it went all-out where the answer
        was a stunning counter; with a fixed margin instead (``all_out_gain`` alone) the duel's Ryu
        gave up the all-out attack from skill 13, and won 86.5% at 13 against 96% at 12."""
        if self._open_of is not state:
            self._open_of, self._open = state, {}
        opens = self._open.get(me.profile.id)
        if opens is None:
            opens = self._open[me.profile.id] = self._opened(state, me, rules)
        total = Fraction(0)
        for oid, given in opens:
            if oid == target.profile.id:
                given *= 1 - min(Fraction(1), hit * mean / self.worth(target, rules))
            total += given
        return total, float(total)

    def _opened(
        self, state: BoutState, me: FighterState, rules: ArenaRules
    ) -> tuple[tuple[str, Fraction], ...]:
        """Each opponent able to strike back at ``me`` and what my defence is worth against its plain
        attack at the default location: the hit chance it takes away times the hit's worth to me."""
        if not can_defend(me, rules):
            return ()
        mine = defense_target(state, me.profile.id, rules=rules)[0]
        where = attack_location(None, rules)
        to_hit = rules.locations.find(where).to_hit
        out = []
        for o in active_targets(state, me):
            if o.stunned or o.incapacitated:
                continue
            atk = _attack_base(state, o.profile.id, False, rules) + to_hit
            opened = self._hits(atk, None) - self._hits(atk, mine)
            if opened > 0:
                out.append((o.profile.id, opened * self._mean_pair(o, me, where, rules)[0]))
        return tuple(out)

    def _hit_pair(self, atk: int, dfn: int | None) -> tuple[Fraction, float]:
        """The chance to hit and its nearest float."""
        memo = self._memos.hit_pairs
        pair = memo.get((atk, dfn))
        if pair is None:
            pair = memo.put((atk, dfn), _with_float(self._hits(atk, dfn)))
        return pair

    def _hits(self, atk: int, dfn: int | None) -> Fraction:
        """The exact chance to hit (:func:`~kassen.arena.odds.hit_chance`), remembered by the tables."""
        memo = self._memos.hits
        found = memo.get((atk, dfn))
        if found is None:
            tables = self._tables
            assert tables is not None
            found = memo.put((atk, dfn), hit_chance(atk, dfn, tables))
        return found

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

        # one opponent standing is the one closed on: nothing to weigh (the value is exact, and dear)
        target = standing[0] if len(standing) == 1 else standing[min(range(len(standing)), key=key)]
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
            chance = success_chance(guts_target(f, o.cause, rules)[0], rules=rules.checks)
            losing = o.condition != "stunned"
            if losing:
                # against incapacity the check is worth any FP it leaves the fighter still in the bout
                # with; one that leaves it helpless or unconscious loses as declining does (_stays_in)
                if cheers and chance < Fraction(1, 2) and self._stays_in(state, f, rules, cheered=True):
                    return cheers[0]
                if chance >= self.guts_at_least and self._stays_in(state, f, rules, cheered=False):
                    return guts[0]
            elif chance >= self.guts_at_least and f.fp - rules.injury.guts.fp_cost >= self.guts_fp_reserve:
                return guts[0]
        return next(a for a in legal if isinstance(a, Decline))

    @staticmethod
    def _stays_in(state: BoutState, f: FighterState, rules: ArenaRules, *, cheered: bool) -> bool:
        """Whether ``f`` is still in the bout after paying for a guts check (AR.GUT.1), its audience point
        spent on the check's bonus or not (``cheered``): the FP left stay above FP 1 (helpless, AR.FTG.4)
        and FP 0 (unconscious, AR.FTG.5), or leave it at FP 1 in a match where an audience point it
        still holds lifts it again (second wind, AR.RD.6's reading ``fp1_override``). A check that leaves
        it helpless for good or unconscious loses the match (or, in a fight, puts it out) as declining
        the override does: nothing better is left, and declining keeps the FP."""
        fatigue = rules.injury.fatigue
        after = f.fp - rules.injury.guts.fp_cost
        if after > fatigue.helpless_at and after > fatigue.unconscious_at_or_below:
            return True
        if after != fatigue.helpless_at or after <= fatigue.unconscious_at_or_below:
            return False
        if state.format is not MatchFormat.MATCH:
            return False  # no override is offered at FP 1 outside a match: the fighter is out
        left = replace(f, fp=after, audience_points=f.audience_points - (1 if cheered else 0))
        return bool(override_effects(left, "helpless", rules))

    def value(self, state: BoutState, a: Attack, rules: ArenaRules) -> Fraction:
        """P(hit) × E[min(final damage, :meth:`worth`)] of attack ``a``, both exact."""
        rules = self._rules(rules)
        attacker, target = state.fighter(a.actor), state.fighter(a.target)
        atk, dfn = self._effective(state, a, target, rules)
        mean, _ = self._mean_pair(attacker, target, self._lands_on(a, target, rules), rules)
        return self._hits(atk, dfn) * mean

    @staticmethod
    def _lands_on(a: Attack, target: FighterState, rules: ArenaRules) -> str:
        """Where the attack lands: its location, or the arm guarding it (unless crippled)."""
        where = attack_location(a.location, rules)
        guard = target.guard_on(where)
        if guard is not None and guard.arm not in target.crippled:
            where = guard.arm
        return where

    def _mean_pair(
        self, attacker: FighterState, target: FighterState, where: str, rules: ArenaRules
    ) -> tuple[Fraction, float]:
        """The expected final damage of ``attacker``'s weapon landing on ``target`` at ``where`` (and its
        nearest float): a pure function of what it reads of the two profiles, ``where`` and the damage
        that counts there, remembered by those (the profiles' values by their number)."""
        return self._mean_at(self._shared(attacker, target), attacker, target, where, rules)

    def _shared(self, attacker: FighterState, target: FighterState) -> int:
        """The number of what the mean damage reads of the two profiles (see _mean_pair): the same values
        the same number, found by value once for the pair each time the policy weighs its attacks."""
        a, t = attacker.profile, target.profile
        return self._memos.number((a.weapon, a.st, t.ht, t.dr, t.reductions))

    def weigh(self, state: BoutState, a: Attack, rules: ArenaRules) -> Fraction | None:
        """What :meth:`_best` weighs attack ``a`` by, exact: its :meth:`value`, less what an all-out
        attack gives away (:meth:`_exposure`) and over ``all_out_gain``; ``None`` for an all-out attack
        the fighter's FP does not allow."""
        rules = self._rules(rules)
        me, target = state.fighter(a.actor), state.fighter(a.target)
        if a.all_out and me.fp < self.all_out_min_fp:
            return None
        atk, dfn = self._effective(state, a, target, rules)
        mean = self._mean_pair(me, target, self._lands_on(a, target, rules), rules)[0]
        return self._exact(self._hits(atk, dfn), mean, a.all_out, state, me, target, rules)

    @staticmethod
    def worth(target: FighterState, rules: ArenaRules) -> int:
        """The most final damage one hit is worth against ``target``: HT/2 against a fighter not yet
        stunned, since a hit of HT/2 stuns it at once (AR.INJ.5) and a stunned fighter may only defend,
        at -4 (AR.STN.1), the blow that follows landing all but surely; against a stunned one, what takes
        it to 0 HP, where it checks against unconsciousness every subturn (AR.HP.2), and at least HT/2.
        Weighing raw damage instead aimed at the neck from skill 13 in the arena duel: the bigger
        blow lands less often and wins less (95% to 87.5% for Ryu at skill 14 over 200 seeds)."""
        half = divide_ht(target.profile.ht, rules.injury.stun.ht_divisor, rules)
        return max(target.hp, half) if target.stunned else half

    def _mean_at(
        self, shared: int, attacker: FighterState, target: FighterState, where: str, rules: ArenaRules
    ) -> tuple[Fraction, float]:
        """:meth:`_mean_pair` of the two profiles' number (:meth:`_shared`), found once for the pair by
        :meth:`_best` rather than at every location."""
        # keyed by the part of the damage there the table reads (none under the per-hit crippling cap):
        # a location hit before is weighed with the table it had
        prior = target.damage_at(where)
        if prior:
            prior = counted_prior(where, target.profile.ht, prior, rules)
        cap = self.worth(target, rules)
        key = (shared, where, prior, cap)
        memo = self._memos.means
        pair = memo.get(key)
        if pair is None:
            pair = memo.put(key, _with_float(self._expected_at(attacker, target, where, prior, cap, rules)))
        return pair

    def _expected_at(
        self,
        attacker: FighterState,
        target: FighterState,
        where: str,
        prior: int,
        cap: int,
        rules: ArenaRules,
    ) -> Fraction:
        w = attacker.profile.weapon
        st = attacker.profile.st
        specs = self._memos.specs
        spec = specs.get((w, st))
        if spec is None:
            spec = specs.put((w, st), _damage_spec(w, st, rules))
        dr = target.profile.dr_at(where)
        # mean_final is remembered by the tables too, by what the finals read
        profile = target.profile
        return mean_final(
            spec,
            w.damage_type,
            profile.ht,
            where,
            dr.armor,
            dr.bone,
            dr.soft,
            profile.reductions,
            prior,
            rules,
            cap,
        )

    def _effective(
        self, state: BoutState, a: Attack, target: FighterState, rules: ArenaRules
    ) -> tuple[int, int | None]:
        """The attack's effective skill and the target's defence (``None``: it cannot defend), kept for
        the state being decided on: every attack weighed in one decision reads the same state."""
        if self._targets_of is not state:
            self._targets_of, self._targets, self._bases, self._defenses = state, {}, {}, {}
        key = (a.actor, a.target, a.location, a.all_out)
        found = self._targets.get(key)
        if found is None:
            # attack_target's total without its explanation: the same sum of the same numbers
            bases = self._bases
            base = bases.get((a.actor, a.all_out))
            if base is None:
                base = bases[(a.actor, a.all_out)] = _attack_base(state, a.actor, a.all_out, rules)
            to_hit = self._to_hit.get(a.location)
            if to_hit is None:
                where = attack_location(a.location, rules)
                to_hit = self._to_hit[a.location] = rules.locations.find(where).to_hit
            atk = base + to_hit
            defenses = self._defenses
            if a.target in defenses:
                dfn = defenses[a.target]
            else:
                dfn = defenses[a.target] = (
                    defense_target(state, a.target, rules=rules)[0] if can_defend(target, rules) else None
                )
            found = self._targets[key] = (atk, dfn)
        return found


def _with_float(value: Fraction) -> tuple[Fraction, float]:
    return value, float(value)


def _attack_base(state: BoutState, actor: str, all_out: bool, rules: ArenaRules) -> int:
    """:func:`~kassen.arena.bout.attack_target` without the location's to-hit: skill, posture, all-out
    bonus and the attribute's modifiers, summed (``test_attack_base_is_attack_target`` compares them)."""
    a = state.fighter(actor)
    combat = rules.match.combat
    total = a.profile.skill + combat.postures[a.posture].attack
    if all_out:
        total += combat.all_out.attack_bonus
    for m in attribute_modifiers(state, a.id, combat.attack_skill_default, rules):
        total += m.value
    return total
