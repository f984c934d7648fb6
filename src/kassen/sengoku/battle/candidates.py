"""The breaths ``legal_actions`` lists: a bounded set of sensible ones (SG.BRT.1), each validated.

A breath is any sequence of maneuvers within the unit's Energy, too many to list; :func:`candidate_breaths`
lists single maneuvers, a technique twice, an attack with a reservation, a move then an attack, Aim Focus
up to the breath limit, a stance (or its release then a move), a technique with each weapon that carries it
(when more than one can), picking up a dropped weapon (then an attack), binding a bleeding ally's wound,
Retreat with or without the squads in the zone, and keeps the legal ones (through the state's
:class:`~kassen.sengoku.battle.plan.Planner`, so the maneuvers they share are checked once). Any other
legal breath is still accepted when applied.
:func:`has_breath` says whether the unit can pay for any maneuver at all (SG.CNT.6).

Why in two parts. A listing is remembered by everything it reads (:func:`listing_key`), every unit's place
among it, so any unit moving or falling makes every unit's listing new. Most of it reads only the unit and
what stands beside it: which candidates there are (:func:`_skeleton`, an attack group a :class:`_Slot` whose
targets are read last) and their prices, an attack group's the same at every target it may strike
(``Planner.group_verdicts``). That part, the listing's frame, is remembered by what it reads
(:func:`_frame_key`; not the unit's id, so a copy of the unit in the same place finds it too), and a
listing not remembered is the frame filled in with the enemies in reach now (:func:`_filled_frame`).
"""

from __future__ import annotations

__all__ = ["candidate_breaths", "candidates_key", "has_breath", "listing_key", "listing_of"]

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.listing import GroupVerdicts, Listing, Priced
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


@dataclass(frozen=True, slots=True)
class _Slot:
    """An attack group of a unit's skeleton (:func:`_skeleton`), its targets still to be read from the
    state: the attack ``m`` (with ``weapon``) at the enemies its range ``rng`` (read without the weapon,
    as the targets always were) reaches from ``zone``; after ``first`` (a movement, a stance or a
    pick-up: lead 1), or made from where the unit stands (``first`` None: ``reserves`` are the
    reservations known and ``shapes`` what its rows are built of besides the attack, ``_row``)."""

    m: Maneuver
    weapon: str | None
    rng: Range
    zone: str
    first: Use | None = None
    reserves: tuple[Maneuver, ...] = ()
    shapes: tuple[object, ...] = ()
    #: The maneuvers of its shapes: all of the unit's uses this round their plans read (SG.BRT.3).
    names: frozenset[str] = frozenset()


#: A unit's candidates before the enemies are read: plain candidates and attack groups to be.
Skeleton = tuple[tuple[Use, ...] | _Slot, ...]


def _skeleton(rules: BattleRules, state: BattleState, unit: Unit) -> Iterator[tuple[Use, ...] | _Slot]:
    """The unit's candidates, in their order, with each attack group left a :class:`_Slot` whatever the
    enemies in reach (:func:`_filled` reads them): everything this reads is in :func:`_skeleton_key`."""
    assert unit.zone is not None
    here = unit.zone
    known = [rules.maneuver(k) for k in rules.known(unit)]
    attacks = [m for m in known if m.attacks]
    reserves = [m for m in known if m.kind is ManeuverKind.DEFENSE and m.reservable]
    stances = [m for m in known if m.grants is not None]
    reserve_ids = tuple(r.id for r in reserves)
    moves = [m for m in known if m.kind is ManeuverKind.MOVEMENT]
    finesse = rules.attribute(unit, "finesse")
    # each attack's range, read without the weapon (whom its candidates are made at)
    ranges = {m.id: rules.range(unit, m) for m in attacks}
    # an attack the unit cannot make at anyone now (its limit, its weapon lost or to reload), from here or
    # after a movement or a stance: none of its candidates is legal (``one_use.attack_refused_as_is``)
    refused = {m.id for m in attacks if attack_refused_as_is(rules, unit, m, None)}
    for m in attacks:
        names = frozenset((m.id, *reserve_ids))
        for w in _weapons(rules, unit, m):
            if m.id in refused if w is None else attack_refused_as_is(rules, unit, m, w):
                continue
            extra = 0
            if m.aim_focus is not AimFocus.NONE:
                extra = rules.aim_room(rules.technique(unit, m, w), finesse)
            yield _Slot(m, w, ranges[m.id], here, None, tuple(reserves), (reserve_ids, extra), names)
    beside = state.in_zone(unit.side, here)
    for aid in (rules.maneuver(a) for a in rules.aids):
        assert aid.aid is not None
        if aid.aid.ends == "dropped-weapon":
            if unit.dropped:
                pick = _use(aid.id)
                yield (pick,)
                for m in attacks:
                    if any(w.id == unit.dropped for w in rules.carriers(unit, m)):
                        yield _Slot(
                            m, unit.dropped, ranges[m.id], here, pick, names=frozenset((pick.maneuver, m.id))
                        )
            continue
        for ally in beside:
            if ally.id != unit.id and ally.bleeding:
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
                if m.id not in refused:
                    yield _Slot(m, None, ranges[m.id], here, _use(s.id), names=frozenset((s.id, m.id)))
    for mv in moves:
        assert mv.movement is not None
        if barring_stance(rules, unit.stances, mv, _use(mv.id)) is not None:
            continue  # a stance held forbids it (SG.BRT.1): nothing that starts with it is legal
        if mv.movement.to is MovementTo.OFF_BATTLEFIELD:
            if not _goes(mv, _use(mv.id)):
                continue
            yield (_use(mv.id),)
            squads = tuple(
                s.id for s in beside if s.id != unit.id and s.cohesion is not None and s.on_battlefield
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
                    if m.id not in refused:
                        yield _Slot(m, None, ranges[m.id], z.id, step, names=frozenset((mv.id, m.id)))
    for m in known:
        # an aid is listed above, with its ally (or, for a pick-up, alone when a weapon lies on the
        # ground): alone it helps nobody, a refusal to work out at every breath (SG.INP.3, SG.FUM.2)
        if m.kind is ManeuverKind.KATA and not m.attacks and m.grants is None and m.aid is None:
            yield (_use(m.id),)
        if m.kind is ManeuverKind.UPKEEP and m.upkeep is not None and m.upkeep.count_cost is not None:
            yield (_use(m.id),)


def _skeleton_key(rules: BattleRules, state: BattleState, unit: Unit) -> tuple[object, ...]:
    """Everything :func:`_skeleton` reads: of the unit, its template, side, zone, stances, weapons on the
    ground or broken, limited uses and reload (not its id: a copy of it in the same place has the same
    skeleton); of the allies beside it (in its zone, itself left out), those bleeding (an aid's ally,
    SG.AIM.5) or squads (Retreat takes them, SG.RET.2), by id and what their plans read of them; the
    zones the other sides hold (``BattleState.held_against``: all a route reads of the units, SG.ZON.2)
    and the battlefield (SG.ZON.1)."""
    here = unit.zone
    assert here is not None
    return (
        unit.creature,
        unit.spec,
        unit.side,
        here,
        unit.stances,
        unit.dropped,
        unit.broken,
        unit.limited,
        unit.unloaded,
        _beside(state, unit),
        state.held_against(unit.side),
        rules.layout_number(state),
    )


def _beside(state: BattleState, unit: Unit) -> tuple[tuple[str, bool, bool, bool], ...]:
    """The allies in the unit's zone (itself left out) its candidates read: those bleeding (an aid's ally,
    SG.AIM.5) or squads (Retreat takes them, SG.RET.2), by id, whether bleeding, on the battlefield, a
    squad."""
    uid = unit.id
    assert unit.zone is not None
    return tuple(
        (a.id, a.bleeding, a.on_battlefield, a.cohesion is not None)
        for a in state.in_zone(unit.side, unit.zone)
        if (a.bleeding or a.cohesion is not None) and a.id != uid
    )


def _skeleton_of(
    rules: BattleRules, key: tuple[object, ...], state: BattleState, unit: Unit
) -> tuple[Skeleton, tuple[_Read, ...]]:
    """:func:`_skeleton` and what each of its items reads (:func:`_items_read`), remembered by the
    content by its key (:func:`_skeleton_key`)."""
    found = rules.skeletons.get(key)
    if found is None:
        skeleton = tuple(_skeleton(rules, state, unit))
        found = rules.skeletons[key] = (skeleton, _items_read(rules, skeleton))
    return found


class _Reach:
    """Whom each range reaches from each zone (the ids of the enemies on the battlefield, in the state's
    order), read once a listing (the attack groups of a unit share a few lists) and remembered by the
    content (``BattleRules.reaches``) by all it reads: the state's roster (who stands where, on the
    battlefield or not: ``BattleState.roster``), the battlefield, the unit's side, the range and zone —
    most states share their roster, and the units of one side their enemies."""

    __slots__ = ("_enemies", "_found", "_rules", "_shared", "_state", "_unit")

    def __init__(self, rules: BattleRules, state: BattleState, unit: Unit) -> None:
        self._rules = rules
        self._state = state
        self._unit = unit
        self._enemies: list[Unit] | None = None
        self._found: dict[tuple[Range, str], tuple[str, ...]] = {}
        self._shared = (rules.roster_number(state), rules.layout_number(state), unit.side)

    def __call__(self, rng: Range, zone: str) -> tuple[str, ...]:
        key = (rng, zone)
        found = self._found.get(key)
        if found is None:
            shared = (*self._shared, rng, zone)
            memo = self._rules.reaches
            found = memo.get(shared)
            if found is None:
                enemies = self._enemies
                if enemies is None:
                    side = self._unit.side
                    enemies = self._enemies = [
                        t
                        for t in self._state.units
                        if t.side != side and t.on_battlefield and t.zone is not None
                    ]
                found = memo[shared] = _targets_from(self._state, rng, zone, enemies)
            self._found[key] = found
        return found


def _group_of(rules: BattleRules, slot: _Slot, ids: tuple[str, ...]) -> AttackGroup:
    """The attack group of ``slot`` at the targets ``ids``, its rows as the content remembers them."""
    m = slot.m
    first = slot.first
    if first is not None:
        return _after(rules, first, m, ids, slot.zone, slot.weapon)
    w = slot.weapon
    reserve_ids, extra = slot.shapes
    assert isinstance(extra, int)
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
                row = made[one] = _row(m, w, t, list(slot.reserves), extra)
            built.append(row)
        rows = rules.group_rows[key] = tuple(built)
    return AttackGroup(m.id, w, ids, rows, shapes=slot.shapes)


def _filled(
    rules: BattleRules, state: BattleState, unit: Unit, skeleton: Iterable[tuple[Use, ...] | _Slot]
) -> Iterator[tuple[Use, ...] | AttackGroup]:
    """The candidates of ``skeleton`` in ``state``: each slot an attack group at the enemies in reach,
    left out when there are none (a group at nobody lists nothing)."""
    reach = _Reach(rules, state, unit)
    for item in skeleton:
        if isinstance(item, _Slot):
            ids = reach(item.rng, item.zone)
            if ids:
                yield _group_of(rules, item, ids)
        else:
            yield item


def _grouped(rules: BattleRules, state: BattleState, unit: Unit) -> Iterator[tuple[Use, ...] | AttackGroup]:
    """The unit's candidates in this state, worked out from nothing."""
    return _filled(rules, state, unit, _skeleton(rules, state, unit))


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
    and its template (whom an [Incorporeal] attack may strike): the state's roster, numbered by its
    identity (``ContentMemos.roster_number``: the key is hashed at every lookup, the units grow with
    the battle, and most states share their roster); and the battlefield's zones, layout and sides
    (SG.ZON.1-2)."""
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
        rules.roster_number(state),
        rules.layout_number(state),
    )


def listing_of(rules: BattleRules, state: BattleState, plans: Planner) -> Listing:
    """:meth:`Planner.entries` of the unit's candidates: as remembered by the content for a state with
    the same :func:`listing_key`, else made from the frame remembered for the unit's situation
    (:func:`_frame_key`) and the enemies in reach now, else worked out (and both remembered)."""
    found = plans.listing
    if found is None:
        key = listing_key(rules, state, plans)
        found = rules.listings.get(key)
        if found is None:
            found = rules.listings[key] = _listing(rules, state, plans)
        plans.listing = found
    return found


#: What an attack group's verdicts are at any targets (``Planner.group_verdicts``): its prices (None:
#: none at any shape), the weapon its attack is made with, whom that weapon's range reaches and whether
#: it is [Incorporeal].
_Known = tuple[tuple[int, ...] | None, str | None, Range, bool]


class _Frame:
    """A unit's listing with the enemies in reach left out (:func:`_frame_key`): its ``skeleton`` and,
    item by item, its ``verdicts``: a plain candidate's price (0: not listed) or an attack group's
    :data:`_Known` verdicts (None: not known whatever the targets, planned afresh in each state,
    ``Planner._group``). Never changed once made; numbered (``number``, never another frame's) so that
    its fillings are remembered by it (:func:`_filled_frame`)."""

    __slots__ = ("number", "pairs", "skeleton", "special", "verdicts")

    def __init__(self, number: int, skeleton: Skeleton, verdicts: tuple[int | _Known | None, ...]) -> None:
        self.number = number
        self.skeleton = skeleton
        self.verdicts = verdicts
        slots = [
            (i, item, v)
            for i, (item, v) in enumerate(zip(skeleton, verdicts, strict=True))
            if isinstance(item, _Slot)
        ]
        #: whom its attack groups are made at: each range and zone read, in the order first read
        self.pairs = tuple(dict.fromkeys((item.rng, item.zone) for _, item, _ in slots))
        #: the attack groups whose verdicts read more of the targets than who they are: planned afresh,
        #: or struck by another range than the targets were read with, or [Incorporeal]
        self.special = tuple(
            i for i, item, v in slots if not isinstance(v, tuple) or v[2] is not item.rng or v[3]
        )


def _frame_key(rules: BattleRules, state: BattleState, plans: Planner) -> tuple[object, ...]:
    """Everything a listing reads but the enemies (who they are, where, whether they may be struck):
    what its skeleton reads (:func:`_skeleton_key`: not the unit's id, each breath is the unit's own
    once the frame is filled) and what the prices read besides — of the unit, rout (SG.RET.5),
    Defenseless (SG.DFL.2), the pick-up's price (SG.FUM.2), the stance collapse surcharge — and last
    its uses this round up to the number combo fatigue counts free (SG.BRT.3)."""
    unit = plans.unit
    return (
        _skeleton_key(rules, state, unit),
        unit.routed,
        unit.defenseless,
        unit.pickup_cost,
        unit.surcharge,
        plans.priced_uses(),
    )


def _listing(rules: BattleRules, state: BattleState, plans: Planner) -> Listing:
    """The unit's listing in this state (:meth:`Planner.entries` of its candidates): filled in from the
    frame the content remembers for the same :func:`_frame_key`, else worked out with its frame."""
    unit = plans.unit
    if unit.zone is None or not unit.on_battlefield:
        return Listing(unit.id, ())
    key = _frame_key(rules, state, plans)
    frame = rules.frames.get(key)
    if frame is not None:
        return _filled_frame(rules, state, plans, frame)
    skeleton, items_read = _skeleton_of(rules, key[0], state, unit)  # type: ignore[arg-type]
    listing, verdicts = _framed(rules, state, plans, skeleton, items_read)
    rules.frames[key] = _Frame(rules.fresh_number(), skeleton, verdicts)
    return listing


def _priced_in(priced: tuple[tuple[str, int], ...], names: frozenset[str]) -> tuple[tuple[str, int], ...]:
    """The unit's uses this round (``Planner.priced_uses``) of the maneuvers ``names`` only."""
    return tuple(p for p in priced if p[0] in names) if priced else priced


def _framed(
    rules: BattleRules, state: BattleState, plans: Planner, skeleton: Skeleton, items_read: tuple[_Read, ...]
) -> tuple[Listing, tuple[int | _Known | None, ...]]:
    """:meth:`Planner.entries` of the candidates :func:`_filled` makes of ``skeleton`` (each item's
    :func:`_items_read` in ``items_read``), and its frame's verdicts.

    Each item's verdict is remembered by the content (``BattleRules.frame_items``) by the item itself
    and all its plans read: of the unit, its template, side, place, stances, weapons, limited uses,
    reload, rout, Defenseless, the pick-up's price, the surcharge and the battlefield (:func:`_core`),
    and its uses this round of the item's own maneuvers (combo fatigue counts each maneuver's own,
    SG.BRT.3); for a movement also the zones held against it (its route, SG.ZON.2), for an aid or a
    Retreat with squads those beside it. So a frame made after a breath of some maneuvers, or after an
    enemy's move changed the zones held, plans again only the items that read what changed; an attack
    group's verdicts are remembered only when known whatever its targets (``Planner.group_verdicts``)."""
    unit = plans.unit
    uid = unit.id
    reach = _Reach(rules, state, unit)
    priced = plans.priced_uses()
    core = _core(rules, state, unit)
    # what beyond the core each item's plans read: the zones held against the unit, who is beside it
    held, beside = state.held_against(unit.side), _beside(state, unit)
    reads = (None, held, beside, (held, beside))
    memo = rules.frame_items
    out: list[Priced | GroupVerdicts] = []
    frame: list[int | _Known | None] = []
    for item, (what, names, more, listed) in zip(skeleton, items_read, strict=True):
        key = (core, what, _priced_in(priced, names), reads[more])
        known = memo.get(key)
        if isinstance(item, _Slot):
            ids = reach(item.rng, item.zone)
            if known is None and ids:
                verdicts, prices = plans.group_verdicts(_group_of(rules, item, ids))
                out.append(verdicts)
                if prices is not None:
                    m, weapon = item.m, prices[1]
                    incorporeal = rules.technique(unit, m, weapon).tags.incorporeal
                    known = memo[key] = (*prices, rules.range(unit, m, weapon), incorporeal)
            elif known is not None and ids:
                out.append(_verdicts(plans, item, ids, known))  # type: ignore[arg-type]
            frame.append(known)
            continue
        if not listed:
            frame.append(0)
            continue
        if known is None:
            known = memo[key] = plans._listed(item)
        assert isinstance(known, int)
        if known:
            out.append((Breath(uid, item), known))
        frame.append(known)
    return Listing(uid, tuple(out)), tuple(frame)


#: What one item of a skeleton is to the content's memo of its verdicts (``candidates._framed``): itself
#: as a value, the maneuvers whose uses this round its plans read, what else they read beyond the
#: unit's core (0: nothing, 1: the zones held against it, 2: who is beside it, 3: both), and whether it is
#: listed at all (a plain candidate met before is not).
_Read = tuple[tuple[object, ...], frozenset[str], int, bool]


def _items_read(rules: BattleRules, skeleton: Skeleton) -> tuple[_Read, ...]:
    """:data:`_Read` of each item of ``skeleton`` (worked out with the skeleton, kept with it)."""
    out: list[_Read] = []
    seen: set[tuple[Use, ...]] = set()
    for item in skeleton:
        if isinstance(item, _Slot):
            first = item.first
            more = 0
            if first is not None:
                lead = rules.maneuver(first.maneuver)
                more = 1 if lead.kind is ManeuverKind.MOVEMENT else 2 if lead.aid is not None else 0
            out.append(((item.m.id, item.weapon, item.zone, first, item.shapes), item.names, more, True))
            continue
        before = len(seen)
        seen.add(item)
        moves = near = False
        for u in item:
            m = rules.maneuver(u.maneuver)
            moves |= m.kind is ManeuverKind.MOVEMENT
            near |= m.aid is not None or bool(u.squads)
        more = moves + 2 * near
        out.append((item, frozenset(u.maneuver for u in item), more, len(seen) > before and bool(item)))
    return tuple(out)


def _core(rules: BattleRules, state: BattleState, unit: Unit) -> int:
    """The number of what every plan of the unit's candidates reads of it and the battlefield: its
    template, side, zone, stances, weapons on the ground or broken and the pick-up's price, limited
    uses, reload, rout, Defenseless, the stance collapse surcharge, and the battlefield (SG.ZON.1)."""
    return rules.number(
        (
            unit.creature,
            unit.spec,
            unit.side,
            unit.zone,
            unit.stances,
            unit.dropped,
            unit.broken,
            unit.pickup_cost,
            unit.limited,
            unit.unloaded,
            unit.routed,
            unit.defenseless,
            unit.surcharge,
            rules.layout_number(state),
        )
    )


def _verdicts(plans: Planner, slot: _Slot, ids: tuple[str, ...], known: _Known) -> GroupVerdicts:
    """The verdicts of the attack group of ``slot`` at ``ids``, known whatever its targets: its prices at
    each target it may strike (``_strikable``: every enemy in reach when the weapon's range is the one
    the targets were read with and the attack is not [Incorporeal]), none at the others."""
    group = _group_of(plans.rules, slot, ids)
    kept, weapon, strike, incorporeal = known
    if kept is None:
        prices: tuple[tuple[int, ...] | None, ...] = (None,) * len(ids)
    elif strike is slot.rng and not incorporeal:
        prices = (kept,) * len(ids)
    else:
        reached = plans._reached(slot.m, slot.zone, weapon, ids)
        prices = tuple(map((None, kept).__getitem__, reached))
    return GroupVerdicts(group, prices)


def _filled_frame(rules: BattleRules, state: BattleState, plans: Planner, frame: _Frame) -> Listing:
    """The listing of ``frame`` in ``state``: its plain breaths the unit's own, each attack group at the
    enemies in reach with the verdicts the frame knows (:func:`_verdicts`), else planned
    (``Planner._group``).

    Filled in, the frame's items but whose breaths they are are remembered by the content
    (``BattleRules.fills``) by all they read: the frame, the enemies each of its ranges reaches from each
    of its zones, and the verdicts of its :attr:`_Frame.special` groups — the same for the unit's copies
    in the same place, and in any state with the same enemies in reach."""
    uid = plans.unit.id
    reach = _Reach(rules, state, plans.unit)
    skeleton, verdicts = frame.skeleton, frame.verdicts
    reached = tuple([reach(rng, zone) for rng, zone in frame.pairs])
    special: dict[int, GroupVerdicts] = {}
    for i in frame.special:
        item, known = skeleton[i], verdicts[i]
        assert isinstance(item, _Slot)
        ids = reach(item.rng, item.zone)
        if ids:
            if known is None:
                special[i] = plans._group(_group_of(rules, item, ids))
            else:
                special[i] = _verdicts(plans, item, ids, known)  # type: ignore[arg-type]
    key = (frame.number, reached, tuple([(i, v.prices) for i, v in special.items()]))
    items = rules.fills.get(key)
    if items is None:
        out: list[tuple[tuple[Use, ...], int] | GroupVerdicts] = []
        for i, (item, known) in enumerate(zip(skeleton, verdicts, strict=True)):
            if not isinstance(item, _Slot):
                if known:
                    out.append((item, known))  # type: ignore[arg-type]
                continue
            found = special.get(i)
            if found is not None:
                out.append(found)
                continue
            ids = reach(item.rng, item.zone)
            if ids and i not in frame.special:
                out.append(_verdicts(plans, item, ids, known))  # type: ignore[arg-type]
        items = rules.fills[key] = tuple(out)
    return Listing(uid, tuple([(Breath(uid, x[0]), x[1]) if x.__class__ is tuple else x for x in items]))  # type: ignore[misc]


def candidate_breaths(rules: BattleRules, state: BattleState, unit: Unit) -> list[Breath]:
    """A bounded list of legal breaths for ``unit`` now (each validated by its :class:`Planner`)."""
    plans = planner(rules, state, unit)
    return plans.affordable(listing_of(rules, state, plans))


def has_breath(rules: BattleRules, state: BattleState, unit: Unit) -> bool:
    """Whether the unit can pay for any maneuver now (SG.CNT.6: a unit that cannot, passes): whether its
    listing (:func:`listing_of`) has a single maneuver it can pay for.

    The flow asks it of the state with the unit's breath due: its planner is kept as the rules' last,
    so listing that breath finds the listing made here."""
    # kept as the last planner only: the listing and the heuristic that follow ask of this very state
    # object, and keying it by value would hash the whole state every breath
    plans = rules.scratch.value.last_planner = Planner(rules, state, unit)
    return listing_of(rules, state, plans).has_single(unit.energy)
