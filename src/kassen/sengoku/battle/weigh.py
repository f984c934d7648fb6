"""The heuristic's breath, weighed on the planner's grouped listing (:mod:`~kassen.sengoku.battle.listing`)
instead of the spelled-out list of legal breaths: the same choice as
:meth:`HeuristicPolicy.breath <kassen.sengoku.battle.policies.HeuristicPolicy.breath>`, for work that
grows with the kinds of target in reach rather than with the targets.

Why it is the same choice. Every breath the heuristic might pick is in the listing, in its order: the
plain ones (movements, stances, reservations, Retreat, aid) and each attack group's rows, one per target.
A breath of a group is weighed by the expected Wounds of its attacks (each a function of the attacker,
the attack and the target's profile, zone and ready reaction, :meth:`HeuristicPolicy.attack_value`), the
target's Wounds left (part of its profile), and what the unit itself adds (a stance, a reservation, a
stealth approach). So two targets of one group with the same profile number, zone, reaction and row of
prices give breaths of exactly equal value and cost, shape by shape; the heuristic keeps the first of
equals (its comparisons are strict), so only the first target of each such class needs weighing — the
others can never be chosen. The reservation added to the best attack is found in the best breath's own
row (the only place a breath starting with the same attack can be), and the aid, retreat, lone stance,
lone reservation and approach choices read only plain breaths, as they always did (no attack group's
breath is a lone movement, stance or reservation); a listing with aid in it is spelled out for
:meth:`HeuristicPolicy._aid`. ``tests/sengoku/battle/test_weigh.py`` compares the two at every breath of
many battles.
"""

from __future__ import annotations

__all__ = ["weigh_breath"]

from fractions import Fraction
from typing import TYPE_CHECKING

from kassen.sengoku.battle.actions import Action, Breath, Pass
from kassen.sengoku.battle.candidates import listing_of
from kassen.sengoku.battle.listing import GroupVerdicts, Listing
from kassen.sengoku.battle.plan import AttackGroup, planner
from kassen.sengoku.battle.state import BattleState, Unit, Use
from kassen.sengoku.entries import ManeuverKind

if TYPE_CHECKING:
    from kassen.sengoku.battle.policies import HeuristicPolicy

#: An attack group's breath by its place in a listing: item, row (target), shape.
Shape = tuple[int, int, int]


def weigh_breath(policy: HeuristicPolicy, state: BattleState, unit: Unit) -> Action:
    """:meth:`HeuristicPolicy.breath` of ``unit`` in ``state`` among the legal actions the ruleset lists
    (the breaths of its listing the unit can pay for, Hold, Pass), read from the listing itself."""
    r = policy.rules
    plans = planner(r, state, unit)
    listing = listing_of(r, state, plans)
    energy = unit.energy
    plain = [i[0] for i in listing.items if not isinstance(i, GroupVerdicts) and i[1] <= energy]
    passing = Pass(unit.id)
    away = policy.falling_back(state, unit, plain, passing)
    if away is not None:
        return away
    if _has_aid(policy, listing):
        aid = policy._aid(state, unit, plans.affordable(listing))
        if aid is not None:
            return aid
    memo: dict[tuple[Use, str], Fraction] = {}
    rough: dict[tuple[Use, str], float] = {}
    # a plain breath is weighed as itself, an attack group's by its place (item, row, shape): built only
    # if it is valued exactly or chosen
    scored: list[tuple[Breath | Shape, float, int]] = []
    limit = r.breath_limit
    # each target's class read once a decision (every attack group lists the same targets in reach)
    class_of: dict[str, tuple[object, ...]] = {}
    # the first target of each class, by the targets listed (the groups of a listing share a few lists)
    firsts: dict[tuple[str, ...], tuple[int, ...]] = {}
    reserving: float | None = None

    def class_of_target(target: str) -> tuple[object, ...]:
        tclass = class_of.get(target)
        if tclass is None:
            tclass = class_of[target] = policy.target_class(state, unit, target)
        return tclass

    def first_of_each_class(targets: tuple[str, ...]) -> tuple[int, ...]:
        found = firsts.get(targets)
        if found is None:
            met: set[tuple[object, ...]] = set()
            out = []
            for i, target in enumerate(targets):
                tclass = class_of_target(target)
                if tclass not in met:
                    met.add(tclass)
                    out.append(i)
            found = firsts[targets] = tuple(out)
        return found

    for k, item in enumerate(listing.items):
        if not isinstance(item, GroupVerdicts):
            b, spent = item
            if spent <= energy and spent <= limit and _weighed(policy, b):
                scored.append((b, policy._rough_value(state, unit, b, memo, rough), spent))
            continue
        group = item.group
        if r.maneuver(group.rows[0][0][0].maneuver).aid is not None:
            continue  # a pick-up then an attack: an aid, never weighed as an attack
        classes: set[tuple[object, ...]] = set()
        verdicts = item.prices
        # every target with the very same prices (each may be struck, most often): only the first of
        # each class can be weighed, the others being worth the same; else every target in turn
        same = bool(verdicts) and verdicts[0] is not None and verdicts.count(verdicts[0]) == len(verdicts)
        for i in first_of_each_class(group.targets) if same else range(len(verdicts)):
            prices = verdicts[i]
            if prices is None:
                continue
            row = group.rows[i]
            target = group.targets[i]
            kind = (class_of_target(target), prices)
            if kind in classes:
                continue  # the same values as an earlier target's, which wins any tie
            classes.add(kind)
            # the attack from here, again, reserved: its shapes' values worked out from the attack's
            kinds = _kinds(policy, group) if group.shapes else None
            once: float | None = None
            twice = 0.0
            for j, spent in enumerate(prices):
                if not (0 < spent <= energy and spent <= limit):
                    continue
                shape = kinds[j] if kinds is not None else _OTHER
                if shape == _OTHER:
                    value = policy._rough_value(state, unit, listing.breath(k, i, j), memo, rough)
                else:
                    if once is None:
                        lone = policy.rough_attack(state, unit, row[0][0], unit.zone or "", memo, rough)
                        left = float(state.unit(target).wounds)  # what the row's blows are capped at
                        once = lone if lone <= left else left
                        dealt = lone + lone
                        twice = dealt if dealt <= left else left
                    value = once if shape & _TWICE == 0 else twice
                    if shape & _RESERVED:
                        if reserving is None:  # the same for every reserved shape of the decision
                            reserving = float(policy._cached_reservation(state, unit, unit.zone or ""))
                        value += reserving
                scored.append(((k, i, j), value, spent))

    def breath_of(entry: Breath | Shape) -> Breath:
        return entry if isinstance(entry, Breath) else listing.breath(*entry)

    best = policy._best_of(state, unit, scored, memo, breath_of)
    if isinstance(best, Breath):
        return policy._with_reservation(state, plans, best, plans.affordable(listing))
    if best is not None:
        k, i, _ = best
        found = listing.items[k]
        assert isinstance(found, GroupVerdicts)
        return _with_reservation(policy, state, unit, breath_of(best), found, i)
    return policy.no_attack(state, unit, plain, passing)


#: An attack group's shape as :func:`describe` reads it: another form (weighed as a breath), the attack
#: once, and bits added to it: twice, a defense reservation last.
_OTHER, _ONCE, _TWICE, _RESERVED = 0, 1, 2, 4


def _kinds(policy: HeuristicPolicy, group: AttackGroup) -> tuple[int, ...]:
    """:func:`describe` of each shape of ``group``, an attack made from where the unit stands (its
    ``shapes`` given): the same at every target (AttackGroup's contract: the same shapes in the same
    order), so read from its first row, and remembered by the content for every group of the same
    attack, weapon and shapes (``BattleRules.shape_kinds``)."""
    key = (group.maneuver, group.weapon, group.shapes)
    memo = policy.rules.shape_kinds
    found = memo.get(key)
    if found is None:
        row = group.rows[0]
        found = memo[key] = tuple(describe(policy, uses, row[0][0]) for uses in row)
    return found


def describe(policy: HeuristicPolicy, uses: tuple[Use, ...], one: Use) -> int:
    """What :meth:`HeuristicPolicy._rough_value` of the shape ``uses`` sums, when it is made of the
    attack ``one`` once or twice, perhaps with a defense reservation last: ``_ONCE`` with ``_TWICE``
    and ``_RESERVED`` bits, its value then worked out from ``one``'s by the very sums that method makes
    (capped at the target's Wounds left, the reservation's value added); ``_OTHER`` for any other
    shape (Aim Focus: another attack)."""
    n = len(uses)
    reserved = n > 1 and uses[-1] is not one
    blows = n - 1 if reserved else n
    if not 1 <= blows <= 2 or any(u is not one for u in uses[:blows]):
        return _OTHER
    last = uses[-1]
    if reserved and (
        last.target is not None or policy.rules.maneuver(last.maneuver).kind is not ManeuverKind.DEFENSE
    ):
        return _OTHER
    return _ONCE | (_TWICE if blows == 2 else 0) | (_RESERVED if reserved else 0)


def _weighed(policy: HeuristicPolicy, b: Breath) -> bool:
    """Whether :meth:`HeuristicPolicy.breath` weighs ``b`` as an attack: it attacks, is no aid and lets
    no stance go."""
    r = policy.rules
    attacks = aids = released = False
    for u in b.uses:
        m = r.maneuver(u.maneuver)
        attacks |= m.attacks
        aids |= m.aid is not None
        released |= u.release
    return attacks and not aids and not released


def _has_aid(policy: HeuristicPolicy, listing: Listing) -> bool:
    """Whether any breath of the listing starts with an aid (binding a wound, picking up a weapon)."""
    r = policy.rules
    for item in listing.items:
        uses = item.group.rows[0][0] if isinstance(item, GroupVerdicts) else item[0].uses
        if r.maneuver(uses[0].maneuver).aid is not None:
            return True
    return False


def _with_reservation(
    policy: HeuristicPolicy, state: BattleState, unit: Unit, best: Breath, item: GroupVerdicts, i: int
) -> Breath:
    """:meth:`HeuristicPolicy._with_reservation` for a breath of ``item``'s ``i``-th row: the first
    shape of that row that adds a defense reservation to ``best``, is paid for and does not overload."""
    r = policy.rules
    if not policy.wants_reservation(state, unit, best):
        return best
    n = len(best.uses)
    prices = item.prices[i]
    assert prices is not None
    for uses, spent in zip(item.group.rows[i], prices, strict=True):
        if not 0 < spent <= unit.energy or len(uses) != n + 1 or uses[:n] != best.uses:
            continue
        if r.maneuver(uses[-1].maneuver).kind is ManeuverKind.DEFENSE and spent <= r.breath_limit:
            return Breath(unit.id, uses)
    return best
