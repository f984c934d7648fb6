"""The breaths ``legal_actions`` lists: a bounded set of sensible ones (SG.BRT.1), each validated.

A breath is any sequence of maneuvers within the unit's Energy, too many to list; :func:`candidate_breaths`
lists single maneuvers, a technique twice, an attack with a reservation, a move then an attack, Aim Focus
up to the breath limit, a stance (or its release then a move), a technique with each weapon that carries it
(when more than one can), picking up a dropped weapon (then an attack), binding a bleeding ally's wound,
Retreat with or without the squads in the zone, and keeps the legal ones (through the state's
:class:`~kassen.sengoku.battle.plan.Planner`, so the maneuvers they share are checked once). Any other
legal breath is still accepted when applied.
:func:`has_breath` says whether the unit can pay for any maneuver at all (SG.CNT.6).
"""

from __future__ import annotations

__all__ = ["candidate_breaths", "candidates_key", "has_breath", "listing_key", "listing_of"]

from collections.abc import Iterable, Iterator
from functools import lru_cache

from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.listing import Listing
from kassen.sengoku.battle.one_use import attack_refused_as_is, barring_stance
from kassen.sengoku.battle.plan import AttackGroup, Planner, planner, route
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit, Use
from kassen.sengoku.entries import Maneuver, ManeuverKind, MovementTo, Range
from kassen.sengoku.profile import AimFocus


def _targets_from(state: BattleState, rng: Range, here: str, enemies: list[Unit]) -> tuple[str, ...]:
    """The ids of the ``enemies`` (those on the battlefield) a maneuver of range ``rng`` reaches from
    ``here``, in the state's order: what :func:`~kassen.sengoku.battle.moves.in_range` says of each
    one's zone, read from the layout's neighbours (a distance of at most one is the zone itself or a
    neighbour)."""
    if rng is Range.BATTLEFIELD:
        return tuple(t.id for t in enemies)
    if rng in (Range.SAME_ZONE, Range.SELF):
        return tuple(t.id for t in enemies if t.zone == here)
    reached = {here, *state.neighbours(here)}
    return tuple(t.id for t in enemies if t.zone in reached)


@lru_cache(maxsize=4096)
def _use(
    maneuver: str,
    target: str | None = None,
    *,
    aim: int = 0,
    to: str | None = None,
    squads: tuple[str, ...] = (),
    release: bool = False,
    weapon: str | None = None,
) -> Use:
    """A candidate's :class:`Use`, built once (a frozen dataclass of eight fields is slow to build and
    the same few recur in every state)."""
    return Use(maneuver, target, aim=aim, to=to, squads=squads, release=release, weapon=weapon)


def _after(
    rules: BattleRules, first: Use, m: Maneuver, ids: tuple[str, ...], zone: str, weapon: str | None = None
) -> AttackGroup:
    """``first`` (a movement to ``zone``, a stance, a pick-up) then ``m`` at each of the targets ``ids``
    (the rows remembered by the content for the same first use, attack, weapon and targets)."""
    key = (first, m.id, weapon, ids)
    rows = rules.rows_after.get(key)
    if rows is None:
        rows = rules.rows_after[key] = tuple(((first, _use(m.id, t, weapon=weapon)),) for t in ids)
    return AttackGroup(m.id, weapon, ids, rows, lead=1, zone=zone)


def _weapons(rules: BattleRules, unit: Unit, m: Maneuver) -> tuple[str | None, ...]:
    """Which weapon a candidate names: none (the first that can carry it) unless more than one of the
    unit's weapons in hand can, then each of them."""
    usable = [w.id for w in rules.carriers(unit, m) if not unit.lacks(w.id)]
    return tuple(usable) if len(usable) > 1 else (None,)


def _row(
    m: Maneuver, weapon: str | None, target: str, reserves: list[Maneuver], extra: int
) -> tuple[tuple[Use, ...], ...]:
    """The shapes of the attack ``m`` (with ``weapon``) at ``target``: alone first (AttackGroup's
    contract), then with a second blow, with each reservation (once and twice), with Aim Focus."""
    one = _use(m.id, target, weapon=weapon)
    row: list[tuple[Use, ...]] = [(one,), (one, one)]
    for r in reserves:
        row += [(one, _use(r.id)), (one, one, _use(r.id))]
    row += [(_use(m.id, target, aim=n, weapon=weapon),) for n in range(extra, 0, -1)]
    return tuple(row)


def _grouped(rules: BattleRules, state: BattleState, unit: Unit) -> Iterator[tuple[Use, ...] | AttackGroup]:
    assert unit.zone is not None
    here = unit.zone
    known = [rules.maneuver(k) for k in rules.known(unit)]
    attacks = [m for m in known if m.attacks]
    reserves = [m for m in known if m.kind is ManeuverKind.DEFENSE and m.reservable]
    stances = [m for m in known if m.grants is not None]
    reserve_ids = tuple(r.id for r in reserves)
    moves = [m for m in known if m.kind is ManeuverKind.MOVEMENT]
    finesse = rules.attribute(unit, "finesse")
    # whom each range reaches from each zone, worked out once for the decision (and each attack's range
    # once: the unit's weapons do not change while its candidates are listed)
    reachable: dict[tuple[Range, str], tuple[str, ...]] = {}
    ranges: dict[str, Range] = {}
    enemies = [t for t in state.units if t.side != unit.side and t.on_battlefield and t.zone is not None]

    def _targets(m: Maneuver, zone: str) -> tuple[str, ...]:
        rng = ranges.get(m.id)
        if rng is None:
            rng = ranges[m.id] = rules.range(unit, m)
        key = (rng, zone)
        found = reachable.get(key)
        if found is None:
            found = reachable[key] = _targets_from(state, rng, zone, enemies)
        return found

    # an attack the unit cannot make at anyone now (its limit, its weapon lost or to reload), from here or
    # after a movement or a stance: none of its candidates is legal (``one_use.attack_refused_as_is``)
    refused = {m.id for m in attacks if attack_refused_as_is(rules, unit, m, None)}
    for m in attacks:
        for w in _weapons(rules, unit, m):
            if m.id in refused if w is None else attack_refused_as_is(rules, unit, m, w):
                continue
            ids = _targets(m, here)
            if not ids:
                continue
            extra = 0
            if m.aim_focus is not AimFocus.NONE:
                extra = rules.aim_room(rules.technique(unit, m, w), finesse)
            # the rows at all these targets, remembered together (the targets grow with the units)
            key = (m.id, w, ids, reserve_ids, extra)
            rows = rules.group_rows.get(key)
            if rows is None:
                made = rules.rows
                built = []
                for t in ids:
                    one = (m.id, w, t, reserve_ids, extra)
                    row = made.get(one)
                    if row is None:
                        row = made[one] = _row(m, w, t, reserves, extra)
                    built.append(row)
                rows = rules.group_rows[key] = tuple(built)
            yield AttackGroup(m.id, w, ids, rows, shapes=(reserve_ids, extra))
    for aid in (rules.maneuver(a) for a in rules.aids):
        assert aid.aid is not None
        if aid.aid.ends == "dropped-weapon":
            if unit.dropped:
                pick = _use(aid.id)
                yield (pick,)
                for m in attacks:
                    if any(w.id == unit.dropped for w in rules.carriers(unit, m)):
                        targets = _targets(m, here)
                        if targets:  # a group at nobody lists nothing
                            yield _after(rules, pick, m, targets, here, unit.dropped)
            continue
        for ally in state.units:
            if ally.side == unit.side and ally.id != unit.id and ally.zone == here and ally.bleeding:
                yield (_use(aid.id, ally.id),)
    for r in reserves:
        yield (_use(r.id),)
    # whether a movement goes (most do not: SG.ZON.2; one that does not is left out with whatever follows
    # it), remembered by the content by everything its route reads: the zones and sides, the unit's
    # side, where it stands and the zones another side holds (``BattleState.held_against``)
    routes = rules.routes
    where = (rules.layout_number(state), unit.side, here, state.held_against(unit.side))

    def _goes(mv: Maneuver, step: Use) -> bool:
        key = (where, step)
        found = routes.get(key)
        if found is None:
            found = routes[key] = not isinstance(route(state, unit, mv, step, here), tuple)
        return found

    for s in stances:
        if s.id in unit.stances:
            for mv in moves:
                for dest in state.neighbours(here):
                    step = _use(mv.id, to=dest)
                    if _goes(mv, step):
                        yield (_use(s.id, release=True), step)
        else:
            yield (_use(s.id),)
            for m in attacks:
                targets = _targets(m, here) if m.id not in refused else ()
                if targets:
                    yield _after(rules, _use(s.id), m, targets, here)
    for mv in moves:
        assert mv.movement is not None
        if barring_stance(rules, unit.stances, mv, _use(mv.id)) is not None:
            continue  # a stance held forbids it (SG.BRT.1): nothing that starts with it is legal
        if mv.movement.to is MovementTo.OFF_BATTLEFIELD:
            if not _goes(mv, _use(mv.id)):
                continue
            yield (_use(mv.id),)
            squads = tuple(
                s.id
                for s in state.units
                if s.side == unit.side
                and s.id != unit.id
                and s.zone == here
                and s.cohesion is not None
                and s.on_battlefield
            )
            if squads:
                yield (_use(mv.id, squads=squads),)
            continue
        reach = mv.movement.zones
        for z in state.zones:
            if z.id == here or state.distance(here, z.id) > reach:
                continue
            step = _use(mv.id, to=z.id)
            if not _goes(mv, step):
                continue
            yield (step,)
            if reach == 1:
                for m in attacks:
                    targets = _targets(m, z.id) if m.id not in refused else ()
                    if targets:
                        yield _after(rules, step, m, targets, z.id)
    for m in known:
        # an aid is listed above, with its ally (or, for a pick-up, alone when a weapon lies on the
        # ground): alone it helps nobody, a refusal to work out at every breath (SG.INP.3, SG.FUM.2)
        if m.kind is ManeuverKind.KATA and not m.attacks and m.grants is None and m.aid is None:
            yield (_use(m.id),)
        if m.kind is ManeuverKind.UPKEEP and m.upkeep is not None and m.upkeep.count_cost is not None:
            yield (_use(m.id),)


class _Generated:
    """The unit's candidates in one state, generated at most once and only as far as they are read:
    :func:`has_breath` stops at the first affordable maneuver, the listing reads on from there. Once
    read to their end they are remembered by the content under ``key`` (:func:`candidates_key`)."""

    __slots__ = ("_key", "_made", "_memo", "_source")

    def __init__(
        self,
        source: Iterator[tuple[Use, ...] | AttackGroup],
        memo: dict[tuple[object, ...], tuple[tuple[Use, ...] | AttackGroup, ...]],
        key: tuple[object, ...],
    ) -> None:
        self._made: list[tuple[Use, ...] | AttackGroup] = []
        self._source: Iterator[tuple[Use, ...] | AttackGroup] | None = source
        self._memo = memo
        self._key = key

    def __iter__(self) -> Iterator[tuple[Use, ...] | AttackGroup]:
        made = self._made
        i = 0
        while True:
            if i < len(made):
                yield made[i]
            elif self._source is None:
                return
            else:
                item = next(self._source, None)
                if item is None:
                    self._source = None
                    self._memo[self._key] = tuple(made)
                    return
                made.append(item)
                yield item
            i += 1


def _candidates(
    rules: BattleRules, state: BattleState, plans: Planner
) -> Iterable[tuple[Use, ...] | AttackGroup]:
    """The unit's candidates in this state, generated once per planner (:func:`has_breath` and the
    listing read the same ones), or as the content remembers them for a unit in the same place
    (:func:`candidates_key`): a unit whose uses this round or Energy changed lists the same candidates
    at other prices."""
    found = plans.candidates
    if found is None:
        unit = plans.unit
        if unit.zone is None or not unit.on_battlefield:
            found = ()
        else:
            key = listing_key(rules, state, plans)[0]  # candidates_key, made once a planner
            assert isinstance(key, tuple)
            memo = rules.candidate_lists
            known = memo.get(key)
            found = _Generated(_grouped(rules, state, unit), memo, key) if known is None else known
        plans.candidates = found
    return found


def listing_key(rules: BattleRules, state: BattleState, plans: Planner) -> tuple[object, ...]:
    """Everything the listing of ``plans.unit``'s breaths reads of the state but its Energy (which only
    says which of them it can pay for, :meth:`Planner.affordable`): first what its candidates read
    (:func:`candidates_key`), then what their prices read besides: of the unit, the pick-up's price,
    its limited uses, reload, Defenseless, stance collapse surcharge, and its uses of each maneuver this
    round up to the number combo fatigue counts free (SG.BRT.3: more costs the same).
    Two states with the same key list the same breaths at the same prices (``tests/sengoku/battle/
    test_listing_memo.py`` compares the remembered listing with a fresh one on every unit of many
    battles)."""
    found = plans.listing_key
    if found is None:
        unit = plans.unit
        found = plans.listing_key = (
            candidates_key(rules, state, plans.unit),
            unit.pickup_cost,
            unit.limited,
            unit.unloaded,
            unit.defenseless,
            unit.surcharge,
            plans.priced_uses(),
        )
    return found


def candidates_key(rules: BattleRules, state: BattleState, unit: Unit) -> tuple[object, ...]:
    """Everything :func:`_grouped` reads (the candidates, before any is priced): of the unit, its
    template, zone, stances, weapons on the ground or broken, limited uses and reload; of every unit,
    whom it fights for, where it stands, whether it is on the battlefield, routed, bleeding or a squad,
    and its template (whom an [Incorporeal] attack may strike), numbered (:meth:`BattleRules.number`:
    the key is hashed at every lookup, and the units grow with the battle); and the battlefield's
    zones, layout and sides (SG.ZON.1-2)."""
    return (
        unit.id,
        unit.creature,
        unit.spec,
        unit.zone,
        unit.stances,
        unit.dropped,
        unit.broken,
        # the attacks it cannot make at anyone (``one_use.attack_refused_as_is``)
        unit.limited,
        unit.unloaded,
        rules.number(
            tuple(
                (
                    u.id,
                    u.side,
                    u.zone,
                    u.incapacitated,
                    u.retreated,
                    u.routed,
                    u.bleeding,
                    u.cohesion is not None,
                    u.creature,
                    u.spec,
                )
                for u in state.units
            )
        ),
        rules.layout_number(state),
    )


def listing_of(rules: BattleRules, state: BattleState, plans: Planner) -> Listing:
    """:meth:`Planner.entries` of the unit's candidates: as remembered by the content for a state with
    the same :func:`listing_key`, else worked out (and remembered)."""
    found = plans.listing
    if found is None:
        key = listing_key(rules, state, plans)
        found = rules.listings.get(key)
        if found is None:
            found = rules.listings[key] = plans.entries(_candidates(rules, state, plans))
        plans.listing = found
    return found


def candidate_breaths(rules: BattleRules, state: BattleState, unit: Unit) -> list[Breath]:
    """A bounded list of legal breaths for ``unit`` now (each validated by its :class:`Planner`)."""
    plans = planner(rules, state, unit)
    return plans.affordable(listing_of(rules, state, plans))


def has_breath(rules: BattleRules, state: BattleState, unit: Unit) -> bool:
    """Whether the unit can pay for any maneuver now (SG.CNT.6: a unit that cannot, passes).

    The flow asks it of the state with the unit's breath due: its planner is kept as the rules' last,
    so listing that breath generates none of the candidates and checks none of these maneuvers again;
    a listing remembered for the same :func:`listing_key` answers at once, and so does the answer
    remembered for that key and the same Energy (a scripted unit's breath is never listed)."""
    # kept as the last planner only: the listing and the heuristic that follow ask of this very state
    # object, and keying it by value would hash the whole state every breath
    plans = rules.last_planner = Planner(rules, state, unit)
    key = listing_key(rules, state, plans)
    known = rules.listings.get(key)
    if known is not None:
        plans.listing = known
        return known.has_single(unit.energy)
    answers = rules.has_breaths
    asked = (key, unit.energy)
    found = answers.get(asked)
    if found is None:
        found = answers[asked] = _has_single(rules, state, plans)
    return found


def _has_single(rules: BattleRules, state: BattleState, plans: Planner) -> bool:
    """Whether one of the unit's candidates of a single maneuver is a legal breath now (its Energy read)."""
    for item in _candidates(rules, state, plans):
        if isinstance(item, AttackGroup):
            if any(len(uses) == 1 and plans.legal(uses) for row in item.rows for uses in row):
                return True
        elif len(item) == 1 and plans.legal(item):
            return True
    return False
