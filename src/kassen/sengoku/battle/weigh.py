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

How it is cheap. What it reads of a listing the same way in every state (which breaths and groups are
weighed, each group's shape kinds and how its breaths start) is worked out once and kept on the listing
(:class:`_Weighing`); each target in reach is read once a decision; a group's breaths are valued from its
shapes — the attack once, twice, reserved, or a movement or a stance then the blow — by the very sums
:meth:`HeuristicPolicy._rough_value` and :meth:`Values.breath_value` make, without building the breaths
(only the one chosen, and any a near tie values exactly, are built); the test checks every value
against those methods.
"""

from __future__ import annotations

__all__ = ["weigh_breath"]

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from kassen.sengoku.battle.actions import Action, Breath, Pass
from kassen.sengoku.battle.blows import Blow, dealt, rough_dealt
from kassen.sengoku.battle.candidates import listing_of
from kassen.sengoku.battle.listing import GroupVerdicts, Listing
from kassen.sengoku.battle.plan import AttackGroup, planner
from kassen.sengoku.battle.state import BattleState, Unit, Use
from kassen.sengoku.entries import Maneuver, ManeuverKind

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
    w = listing.weighing
    if not isinstance(w, _Weighing):
        w = listing.weighing = _weighing(policy, listing)
    energy = unit.energy
    plain = [b for b, spent in w.plain if spent <= energy]
    passing = Pass(unit.id)
    away = policy.falling_back(state, unit, plain, passing)
    if away is not None:
        return away
    if w.aid:
        aid = policy._aid(state, unit, plans.affordable(listing))
        if aid is not None:
            return aid
    memo: dict[tuple[Use, str], Blow] = {}
    scored = _scored(policy, state, unit, listing, w, memo)
    top = min(energy, policy.rules.breath_limit)
    standing = sum(state.unit(t).wounds for t, price in w.reach if price <= top)

    def breath_of(entry: Breath | Shape) -> Breath:
        return entry if isinstance(entry, Breath) else listing.breath(*entry)

    def exact_of(entry: Breath | Shape, spent: int) -> Fraction:
        if not isinstance(entry, Breath):
            found = _exact(policy, state, unit, w, entry)
            if found is not None:
                return found
        return policy._exact(state, unit, breath_of(entry), spent, memo)

    best = policy._best_of(state, unit, scored, memo, standing, breath_of, exact_of)
    if isinstance(best, Breath):
        return policy._with_reservation(state, plans, best, plans.affordable(listing))
    if best is not None:
        k, i, _ = best
        return _with_reservation(policy, state, unit, breath_of(best), listing, k, i)
    return policy.no_attack(state, unit, plain, passing)


def _scored(
    policy: HeuristicPolicy,
    state: BattleState,
    unit: Unit,
    listing: Listing,
    w: _Weighing,
    memo: dict[tuple[Use, str], Blow],
) -> list[tuple[Breath | Shape, float, int]]:
    """Every breath of ``listing`` the heuristic weighs as an attack with its rough value — what
    :meth:`HeuristicPolicy._rough_value` gives for it, each attack's exact value kept in ``memo`` — and
    its price, in listing order: a plain breath as itself, an attack group's by its place (item, row,
    shape), built only if it is valued exactly or chosen; of the targets of a class with the same
    prices, only the first."""
    r = policy.rules
    energy = unit.energy
    scored: list[tuple[Breath | Shape, float, int]] = []
    limit = r.breath_limit
    top = energy if energy <= limit else limit
    here = unit.zone or ""
    # each target read once a decision (every attack group lists the same targets in reach): its class,
    # what an attack's value reads of it (``Values.blow``'s key: the target's zone number,
    # Defense class number and whether a reaction is ready; None off the battlefield) and its Wounds left
    read_of: dict[str, tuple[tuple[object, ...], tuple[int, int, bool] | None, int]] = {}
    # the first target of each class, by the targets listed (the groups of a listing share a few lists)
    firsts: dict[tuple[str, ...], tuple[int, ...]] = {}
    # the number of each zone an attack is made from (``Values.blow``'s)
    zone_numbers: dict[str, int] = {}
    rows = r.attack_rows
    template = (unit.creature, unit.spec)
    reserving: float | None = None
    policy._fresh(state)

    def reading(target: str) -> tuple[tuple[object, ...], tuple[int, int, bool] | None, int]:
        found = read_of.get(target)
        if found is None:
            t = state.unit(target)
            if t.zone is None:
                found = (("off the battlefield",), None, t.wounds)
            else:
                # as :meth:`Values.target_class` and :meth:`Values.blow` read it
                seen = policy._target(state, t, unit.infiltrating and not t.ambushed)
                found = ((seen[0], seen[1], seen[2]), (seen[2], seen[5], seen[1]), t.wounds)
            read_of[target] = found
        return found

    def first_of_each_class(targets: tuple[str, ...]) -> tuple[int, ...]:
        found = firsts.get(targets)
        if found is None:
            met: set[tuple[object, ...]] = set()
            out = []
            for i, target in enumerate(targets):
                tclass = reading(target)[0]
                if tclass not in met:
                    met.add(tclass)
                    out.append(i)
            found = firsts[targets] = tuple(out)
        return found

    def values_of(use: Use, zone: str) -> dict[tuple[int, int, bool], Blow]:
        """What the content keeps of :meth:`Values.blow` of ``use`` (its maneuver, weapon and Aim Focus)
        made by the unit's template from ``zone``, by what each target is read as (``seen``): an attack
        group's blows at every target (they differ by the target alone)."""
        number = zone_numbers.get(zone)
        if number is None:
            number = zone_numbers[zone] = r.number(state.zone(zone))
        key = (*template, use.maneuver, use.weapon, use.aim, number)
        found = rows.get(key)
        if found is None:
            found = rows[key] = {}
        return found

    def attack_value(
        use: Use, zone: str, seen: tuple[int, int, bool] | None, known: dict[tuple[int, int, bool], Blow]
    ) -> Blow:
        """:meth:`Values.blow` of ``use`` from ``zone`` at a target read as ``seen``, found in ``known``
        (:func:`values_of` the use and zone), else worked out and kept."""
        if seen is None:
            return policy.blow(state, unit, use, zone)
        found = known.get(seen)
        if found is None:
            if len(known) >= _KNOWN:
                known.clear()  # bounded (the targets' numbers are renumbered in a long run)
            found = known[seen] = policy.blow(state, unit, use, zone)
        return found

    for entry in w.entries:
        if len(entry) == 2:  # a plain breath weighed as an attack, in its place
            b, spent = entry
            if spent <= energy:
                scored.append((b, policy._rough_value(state, unit, b, memo), spent))
            continue
        k, group, verdicts, same, kinds, lead, first, attack = entry
        classes: set[tuple[object, ...]] = set()
        # what the lead use adds, the same at every target: a movement's stealth chance and the zone the
        # attack is made from, a stance's value (read as :meth:`HeuristicPolicy._rough_value` reads them)
        sneak = extra = 0.0
        zone = here
        if lead == _MOVE:
            assert first is not None
            skey = (unit.id, first.id)
            chance = policy._sneaks.get(skey)
            if chance is None:
                chance = policy._sneaks[skey] = float(policy.stealth_chance(state, unit, first))
            sneak = chance
            zone = group.zone
        elif lead == _STANCE:
            assert first is not None
            extra = float(policy._cached_stance(state, unit, first))
        # the group's blow at each target (every row's blow is the same but for its target)
        known = (
            values_of(group.rows[0][0][1], zone)
            if lead in (_MOVE, _STANCE)
            else (values_of(group.rows[0][0][0], zone) if kinds is not None else {})
        )
        # every target with the very same prices (each may be struck, most often): only the first of
        # each class can be weighed, the others being worth the same; else every target in turn
        for i in first_of_each_class(group.targets) if same else range(len(verdicts)):
            prices = verdicts[i]
            if prices is None:
                continue
            tclass, seen, left = reading(group.targets[i])
            if not same:
                kind = (tclass, prices)
                if kind in classes:
                    continue  # the same values as an earlier target's, which wins any tie
                classes.add(kind)
            row = group.rows[i]
            # the attack from here, again, reserved: its shapes' values worked out from the attack's
            once: float | None = None
            twice = 0.0
            for j, spent in enumerate(prices):
                if not 0 < spent <= top:  # paid for, and within the breath's limit
                    continue
                shape = kinds[j] if kinds is not None else _OTHER
                if shape == _OTHER:
                    if lead in (_MOVE, _STANCE):
                        # the lead use then the attack, valued by _rough_value's very sums
                        use = row[j][1]
                        blow = attack_value(use, zone, seen, known)
                        if sneak:
                            hit = (blow, sneak, policy._critical(unit, attack, use.weapon))
                            value = rough_dealt((hit,), left) + extra
                        else:
                            value = blow.rough_at(left) + extra
                    else:
                        value = policy._rough_value(state, unit, listing.breath(k, i, j), memo)
                else:
                    if once is None:
                        # Blow.rough_at and rough_twice_at, read here for every target of the group
                        lone = attack_value(row[0][0], here, seen, known)
                        most, rough = lone.most, lone.rough
                        once = rough if left >= most else lone.rough_once[left]
                        twice = rough + rough if left >= most + most else lone.rough_twice[left]
                    value = once if shape & _TWICE == 0 else twice
                    if shape & _RESERVED:
                        if reserving is None:  # the same for every reserved shape of the decision
                            reserving = float(policy._cached_reservation(state, unit, here))
                        value += reserving
                scored.append(((k, i, j), value, spent))
    return scored


def _exact(
    policy: HeuristicPolicy, state: BattleState, unit: Unit, w: _Weighing, entry: Shape
) -> Fraction | None:
    """:meth:`Values.breath_value`'s exact value of the attack group breath at ``entry`` (item, row,
    shape) by the very sums it makes, read from the group's shape as :func:`_scored` reads it: the
    attack once or twice from where the unit stands (a reservation's value added), or a movement or a
    stance then a blow; None for any other shape (valued as a breath)."""
    k, i, j = entry
    group_entry = w.groups.get(k)
    if group_entry is None:
        return None
    _, group, _, _, kinds, lead, first, attack = group_entry
    row = group.rows[i]
    wounds = state.unit(group.targets[i]).wounds
    here = unit.zone or ""
    if kinds is not None:
        shape = kinds[j]
        if shape == _OTHER:
            return None
        lone = policy.blow(state, unit, row[0][0], here)
        total = lone.twice_at(wounds) if shape & _TWICE else lone.at(wounds)
        if shape & _RESERVED:
            total += policy._cached_reservation(state, unit, here)
        return total
    if not lead or lead == _LEAD:
        return None
    assert first is not None
    use = row[j][1]
    zone = group.zone if lead == _MOVE else here
    blow = policy.blow(state, unit, use, zone)
    sneak = policy.stealth_chance(state, unit, first) if lead == _MOVE else Fraction(0)
    if sneak:
        total = dealt(((blow, sneak, policy._critical(unit, attack, use.weapon)),), wounds)
    else:
        total = blow.at(wounds)
    if lead == _STANCE:
        total += policy._cached_stance(state, unit, first)
    return total


#: The most targets' readings one blow's table of values holds (``BattleRules.attack_rows``).
_KNOWN = 512

#: How an attack group's breaths start: with the attack (none), a movement or a stance first, valued
#: without building the breath; any other lead use (a pick-up: an aid) is weighed as a breath.
_NONE, _MOVE, _STANCE, _LEAD = 0, 1, 2, 3

#: One attack group as the heuristic weighs it: its place in the listing, the group, its verdicts,
#: whether every target has the very same verdicts, its shapes' kinds (:func:`describe`; None: each
#: weighed as a breath), how its breaths start, that lead use's maneuver and the attack's.
_Group = tuple[
    int,
    AttackGroup,
    tuple[tuple[int, ...] | None, ...],
    bool,
    tuple[int, ...] | None,
    int,
    Maneuver | None,
    Maneuver,
]


@dataclass(frozen=True, slots=True)
class _Weighing:
    """What :func:`weigh_breath` reads of a listing the same way in every state: its plain breaths with
    their prices, whether any breath starts with an aid (binding a wound, picking up a weapon), and in
    listing order (the first of equal breaths wins) what is weighed: the plain breaths that attack
    (:func:`_weighed`) and do not overload, with their prices, and the attack groups (an aid's never
    are)."""

    plain: tuple[tuple[Breath, int], ...]
    aid: bool
    entries: tuple[tuple[Breath, int] | _Group, ...]
    #: The attack groups of ``entries`` by their place in the listing.
    groups: dict[int, _Group]
    #: Each target a weighed breath attacks, with the least Energy such a breath costs: the targets in
    #: reach of a unit that may spend up to some Energy (``standing_of``, the heuristic's Energy later).
    reach: tuple[tuple[str, int], ...]


def _weighing(policy: HeuristicPolicy, listing: Listing) -> _Weighing:
    """The listing's :class:`_Weighing`, kept on the listing (which the content keeps for every state
    in the same situation)."""
    r = policy.rules
    limit = r.breath_limit
    plain: list[tuple[Breath, int]] = []
    entries: list[tuple[Breath, int] | _Group] = []
    aid = False
    plains = r.weighed_plains
    for k, item in enumerate(listing.items):
        if not isinstance(item, GroupVerdicts):
            plain.append(item)
            uses = item[0].uses
            kind = plains.get(uses)
            if kind is None:
                kind = plains[uses] = (r.maneuver(uses[0].maneuver).aid is not None, _weighed(policy, uses))
            aid = aid or kind[0]
            if kind[1] and item[1] <= limit:
                entries.append(item)
            continue
        weighed = _weighed_group(policy, item)
        if weighed[0]:
            aid = True  # a pick-up then an attack: an aid, never weighed as an attack
        else:
            entries.append((k, *weighed[1:]))
    groups = {e[0]: e for e in entries if len(e) > 2}
    return _Weighing(tuple(plain), aid, tuple(entries), groups, _reach(policy, entries))


def _reach(
    policy: HeuristicPolicy, entries: list[tuple[Breath, int] | _Group]
) -> tuple[tuple[str, int], ...]:
    """:attr:`_Weighing.reach` of the weighed ``entries``: every target of a plain breath's attacks at
    that breath's price, every target of an attack group at the least price of its row's shapes."""
    r = policy.rules
    least: dict[str, int] = {}
    for entry in entries:
        if len(entry) == 2:
            b, spent = entry
            pairs = [
                (u.target, spent) for u in b.uses if u.target is not None and r.maneuver(u.maneuver).attacks
            ]
        else:
            group, verdicts = entry[1], entry[2]
            pairs = [
                (t, min(p for p in prices if p))
                for t, prices in zip(group.targets, verdicts, strict=True)
                if prices is not None and any(prices)
            ]
        for target, price in pairs:
            if price < least.get(target, price + 1):
                least[target] = price
    return tuple(least.items())


def _weighed_group(
    policy: HeuristicPolicy, item: GroupVerdicts
) -> tuple[
    bool,
    AttackGroup,
    tuple[tuple[int, ...] | None, ...],
    bool,
    tuple[int, ...] | None,
    int,
    Maneuver | None,
    Maneuver,
]:
    """What :func:`_weighing` reads of an attack group's verdicts: whether its breaths start with an
    aid (then nothing else), the group, its verdicts, whether every target has the very same
    verdicts, its shapes' kinds, how its breaths start and that lead use's maneuver, and the attack."""
    r = policy.rules
    group = item.group
    attack = r.maneuver(group.maneuver)
    verdicts = item.prices
    if r.maneuver(group.rows[0][0][0].maneuver).aid is not None:
        return (True, group, verdicts, False, None, _LEAD, None, attack)
    same = bool(verdicts) and verdicts[0] is not None and verdicts.count(verdicts[0]) == len(verdicts)
    kinds = _kinds(policy, group) if group.shapes else None
    lead, first = _lead(policy, group, attack) if kinds is None else (_NONE, None)
    return (False, group, verdicts, same, kinds, lead, first, attack)


def _lead(policy: HeuristicPolicy, group: AttackGroup, attack: Maneuver) -> tuple[int, Maneuver | None]:
    """How every breath of ``group`` starts, when each is its lead use then its attack at the row's
    target and :meth:`HeuristicPolicy._rough_value` adds them up as a movement then a blow from the
    group's zone (_MOVE) or a stance then a blow (_STANCE); else (_LEAD, None): each is weighed as a
    breath."""
    r = policy.rules
    if group.lead != 1 or attack.kind is ManeuverKind.MOVEMENT or not attack.attacks:
        return _LEAD, None
    # read from the first row: every row has the same shapes at its own target (AttackGroup's contract)
    first, target = group.rows[0][0][0], group.targets[0]
    for uses in group.rows[0]:
        if len(uses) != 2 or uses[1].target != target or (uses[0] is not first and uses[0] != first):
            return _LEAD, None
        if uses[1].maneuver != group.maneuver or uses[1].aim:
            return _LEAD, None
    m = r.maneuver(first.maneuver)
    if m.kind is ManeuverKind.MOVEMENT and first.to == group.zone and first.to:
        return _MOVE, m
    if (
        m.kind is not ManeuverKind.DEFENSE
        and not m.attacks
        and m.grants is not None
        and not first.release
        and first.target is None
    ):
        return _STANCE, m
    return _LEAD, None


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


def _weighed(policy: HeuristicPolicy, uses: tuple[Use, ...]) -> bool:
    """Whether :meth:`HeuristicPolicy.breath` weighs a breath of ``uses`` as an attack: it attacks, is no
    aid and lets no stance go."""
    r = policy.rules
    attacks = aids = released = False
    for u in uses:
        m = r.maneuver(u.maneuver)
        attacks |= m.attacks
        aids |= m.aid is not None
        released |= u.release
    return attacks and not aids and not released


def _with_reservation(
    policy: HeuristicPolicy, state: BattleState, unit: Unit, best: Breath, listing: Listing, k: int, i: int
) -> Breath:
    """:meth:`HeuristicPolicy._with_reservation` for a breath of the ``i``-th row of the group
    ``listing.items[k]``: the first shape of that row that adds a defense reservation to ``best``, is
    paid for and does not overload (the listing's own breath)."""
    r = policy.rules
    if not policy.wants_reservation(state, unit, best):
        return best
    item = listing.items[k]
    assert isinstance(item, GroupVerdicts)
    n = len(best.uses)
    prices = item.prices[i]
    assert prices is not None
    for j, (uses, spent) in enumerate(zip(item.group.rows[i], prices, strict=True)):
        if not 0 < spent <= unit.energy or len(uses) != n + 1 or uses[:n] != best.uses:
            continue
        if r.maneuver(uses[-1].maneuver).kind is ManeuverKind.DEFENSE and spent <= r.breath_limit:
            return listing.breath(k, i, j)
    return best
