"""The state of a Sengoku battle (seed 002): plain, typed, frozen data, JSON through the core's codec.

A :class:`BattleState` is everything a replay needs besides the content (the catalog, passed to every
action as the content's tables; its hash in the chronicle's meta) and the RNG position (the core's
snapshot): the sides, the zones, the units with their Energy, reservations,
stances and statuses, the round, phase and current count, the breath being resolved, who must decide
now, the lull's bookkeeping, and the result with its follow-ups (death checks, honor flags).

Units are catalog creatures by id (``creature``) or inline/overridden templates (``spec``: the canonical
JSON of a :class:`~kassen.sengoku.entries.Creature`), so the state stays plain data.
"""

from __future__ import annotations

__all__ = [
    "BattleState",
    "BreathInProgress",
    "DeathRecord",
    "Decision",
    "DecisionKind",
    "HonorFlag",
    "PendingAttack",
    "Phase",
    "Reservation",
    "Result",
    "Side",
    "Tally",
    "Unit",
    "UnitId",
    "Use",
    "View",
    "Zone",
    "ZoneCondition",
    "distinct_name",
    "distinct_names",
]

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Literal, TypeAlias

from kassen.core.errors import KassenError
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import keeper, replace
from kassen.i18n import S_
from kassen.sengoku.profile import DefenseDebuff

UnitId: TypeAlias = str
#: Which half of the zone layout (SG.ZON.2, written from one side) is a side's own.
View: TypeAlias = Literal["own", "enemy", "none"]


class Phase(StrEnum):
    """Where the battle is in its round (SG.RND.2): before it begins, the count, the lull, over."""

    START = "start"
    COUNT = "count"
    LULL = "lull"
    OVER = "over"


class DecisionKind(StrEnum):
    """What the deciding unit (or the GM) must choose now."""

    BREATH = "breath"  # take a breath, hold or pass (SG.CNT.3, SG.CNT.6)
    REACTION = "reaction"  # use a reserved defense technique or not (SG.RES.1-2)
    UPKEEP = "upkeep"  # upkeep maneuvers in the lull (SG.LUL.2)
    ENVIRONMENT = "environment"  # the GM's environment variables in the lull (SG.LUL.3)
    FATE = "fate"  # the attacker's Fate Intervention on the roll it just made (SG.FAT.1)
    LAST_BASTION = "last_bastion"  # the target's Last Bastion against a fatal hit check (SG.FAT.2)
    FUMBLE = "fumble"  # the GM's extras on a fumble (SG.FUM.2)


@dataclass(frozen=True, slots=True)
class Side:
    """A side of the battle. ``view`` is its half of the zone layout; ``allies`` marks the players' side,
    which acts first in a tie (SG.CNT.4)."""

    id: str
    name: str
    view: View
    allies: bool = False


@dataclass(frozen=True, slots=True)
class Zone:
    """A zone of the layout (SG.ZON.2): its kind (SG.ZON.1), whose side it is, and high ground."""

    id: str
    kind: Literal["front", "core", "rear", "flank"]
    side: View
    high_ground: bool = False
    # The hash, worked out once: a zone keys the content's memos (its number, its rows), hundreds of
    # lookups a battle (0: not yet; never pickled, as a string's hash differs between processes).
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        h = self._hash
        if not h:
            h = hash((self.id, self.kind, self.side, self.high_ground)) or 1
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple[type[Zone], tuple[object, ...]]:
        return (Zone, (self.id, self.kind, self.side, self.high_ground))


@dataclass(frozen=True, slots=True)
class Reservation:
    """A defense technique reserved and paid in a breath (SG.RES.1); it answers ``answers`` attacks."""

    maneuver: str
    answers: int = 1


@fast_init
@dataclass(frozen=True, slots=True)
class Tally:
    """A counter: uses of a maneuver this round (combo fatigue, SG.BRT.3) or under its limit, with
    ``since`` the round of the first use it counts (a limit "every N rounds" resets N rounds later,
    SG.LUL.1)."""

    key: str
    n: int
    since: int = 0


@fast_init
@dataclass(frozen=True, slots=True)
class Use:
    """One maneuver in a breath (SG.BRT.1): the maneuver's id, its target unit (attacks), the Aim Focus
    Energy added (SG.AIM.2), the destination zone (movement), the allied squads retreating with the unit
    (SG.RET.2), ``release`` for releasing a held stance, for upkeep ``choice`` (``wounds`` or
    ``cohesion`` for a choose-one upkeep), and ``weapon``: which of the unit's weapons carries a
    technique that more than one of them lists (default: the first that lists it)."""

    maneuver: str
    target: UnitId | None = None
    aim: int = 0
    to: str | None = None
    squads: tuple[UnitId, ...] = ()
    release: bool = False
    choice: str | None = None
    weapon: str | None = None
    # The hash, worked out once: a Use keys the planners' and the policy's memos, thousands of lookups a
    # battle (0: not yet; never pickled, as a string's hash differs between processes).
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        h = self._hash
        if not h:
            fields = (self.maneuver, self.target, self.aim, self.to, self.squads, self.release, self.choice)
            h = hash((*fields, self.weapon)) or 1
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple[type[Use], tuple[object, ...]]:
        return (
            Use,
            (
                self.maneuver,
                self.target,
                self.aim,
                self.to,
                self.squads,
                self.release,
                self.choice,
                self.weapon,
            ),
        )


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit on (or off) the battlefield and everything the battle did to it.

    Energy: ``energy`` now, ``max_energy`` this round (after armor, overload and exhaustion, SG.RND.1),
    ``initiative`` a pending +N on the first breath (SG.CNT.2; ``initiative_due`` is a +N that waits for
    the first breath of round ``initiative_round`` when an effect names a later round),
    ``overload_penalty`` and ``exhaustion`` to take off the next round's maximum (SG.BRT.2, SG.RET.3).
    Statuses: ``defenseless`` (SG.DFL.*),
    ``incapacitated`` (SG.INP.1, then off the battlefield: ``zone`` None), ``retreated`` (SG.RET.1),
    ``routed`` with the round it began (SG.RET.2, SG.RET.5), ``infiltrating`` (a successful Stealth
    Movement, no attack since), ``passed`` this round (SG.CNT.6), ``ambushed`` once (SG.AMB.3).
    Counters: ``used`` this round (combo fatigue, SG.BRT.3), ``limited`` uses under a limit (reset in the
    lull, SG.LUL.1). ``cohesion`` for squads (SG.RET.5), ``ward`` while a Cohesion ward holds.
    ``count_reached``: the count has come to the unit at least once (a breath, a Hold or a Pass; the
    flank ambush's "not yet taken a breath" under SG.RD.10). Fumble and table effects: ``dropped`` the
    weapon on the ground and ``pickup_cost`` the Energy to pick it up (SG.FUM.2, SG.FUM.3), ``broken``
    weapons destroyed for the combat (SG.FUM.3), ``surcharge`` Energy added to the next action (stance
    collapse, SG.FUM.2); ``bleeding`` until bound (Bleed, SG.AIM.5)."""

    id: UnitId
    name: str
    side: str
    setup: int
    creature: str
    spec: str = ""
    zone: str | None = None
    wounds: int = 0
    wounds_max: int = 0
    energy: int = 0
    max_energy: int = 0
    initiative: int = 0
    initiative_round: int = 1
    initiative_due: int = 0
    reservations: tuple[Reservation, ...] = ()
    stances: tuple[str, ...] = ()
    debuffs: tuple[DefenseDebuff, ...] = ()
    defenseless: bool = False
    incapacitated: bool = False
    retreated: bool = False
    routed: bool = False
    routed_round: int = 0
    infiltrating: bool = False
    passed: bool = False
    ambushed: bool = False
    unloaded: bool = False
    overload_penalty: int = 0
    exhaustion: int = 0
    used: tuple[Tally, ...] = ()
    limited: tuple[Tally, ...] = ()
    breaths: int = 0
    attacks: int = 0
    cohesion: int | None = None
    cohesion_max: int | None = None
    ward: bool = False
    fate_points: int = 0
    armor_damage: int = 0
    count_reached: bool = False
    dropped: str = ""
    pickup_cost: int = 0
    broken: tuple[str, ...] = ()
    surcharge: int = 0
    bleeding: bool = False

    @property
    def on_battlefield(self) -> bool:
        """Still in a zone: not incapacitated (removed, SG.INP.1) and not retreated (SG.RET.1)."""
        return self.zone is not None and not self.incapacitated and not self.retreated

    @property
    def able(self) -> bool:
        """On the battlefield and not routed: able to act as a fighting unit."""
        return self.on_battlefield and not self.routed

    def count(self, tallies: tuple[Tally, ...], key: str) -> int:
        for t in tallies:
            if t.key == key:
                return t.n
        return 0

    def uses_this_round(self, maneuver: str) -> int:
        return self.count(self.used, maneuver)

    def reservation(self, maneuver: str) -> Reservation | None:
        for r in self.reservations:
            if r.maneuver == maneuver:
                return r
        return None

    def lacks(self, weapon: str) -> bool:
        """The weapon is on the ground or broken: its techniques cannot be used (SG.FUM.2-3)."""
        return weapon == self.dropped or weapon in self.broken


@lru_cache(maxsize=32)
def _layout(
    adjacent: tuple[tuple[str, str], ...],
) -> tuple[dict[str, tuple[str, ...]], dict[tuple[str, str], int]]:
    """Neighbours of each zone and the distance between every two zones (breadth-first), per layout."""
    names = list(dict.fromkeys(z for pair in adjacent for z in pair))
    near = {z: tuple(b if a == z else a for a, b in adjacent if z in (a, b)) for z in names}
    dist: dict[tuple[str, str], int] = {}
    for start in names:
        dist[(start, start)] = 0
        frontier = [start]
        steps = 0
        while frontier:
            steps += 1
            nxt = []
            for z in frontier:
                for n in near[z]:
                    if (start, n) not in dist:
                        dist[(start, n)] = steps
                        nxt.append(n)
            frontier = nxt
    return near, dist


def bump(tallies: tuple[Tally, ...], key: str, by: int = 1, since: int = 0) -> tuple[Tally, ...]:
    """``tallies`` with ``key`` raised by ``by`` (added when new, first used in round ``since``)."""
    for i, t in enumerate(tallies):
        if t.key == key:
            return (*tallies[:i], Tally(key, t.n + by, t.since), *tallies[i + 1 :])
    return (*tallies, Tally(key, by, since))


@dataclass(frozen=True, slots=True)
class ZoneCondition:
    """A battlefield change on a zone (SG.LUL.3): the catalog's ``change`` id, lasting through the lull of
    round ``until``."""

    zone: str
    change: str
    until: int


@fast_init
@dataclass(frozen=True, slots=True)
class PendingAttack:
    """An attack under way inside a breath, kept while someone decides: the target's reaction
    (SG.RES.2), the attacker's Fate Intervention on its roll (SG.FAT.1), the target's Last Bastion
    (SG.FAT.2). ``ambush`` is ``none``, ``basic`` or ``immune`` (with the ``condition`` met);
    ``reaction`` the reserved technique chosen ("" for none); ``faces`` the roll once made; ``offered``
    the dice Fate Intervention may move, ``outcomes`` the roll's outcome as rolled and then with each
    offered die moved; ``fate_die`` the die moved (0 or 1) and ``last_bastion``
    whether the target spent it."""

    attacker: UnitId
    target: UnitId
    maneuver: str
    weapon: str = ""
    ambush: str = "none"
    condition: str = ""
    reaction: str = ""
    faces: tuple[int, ...] = ()
    offered: tuple[int, ...] = ()
    outcomes: tuple[str, ...] = ()
    fate_die: int | None = None
    last_bastion: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide now and about what. ``unit`` is ``"gm"`` for the GM's decisions (the environment,
    a fumble's extras: then ``attacker`` is the fumbler); a reaction names the ``attacker``, the
    attack's ``maneuver``, and whether the attack is a basic ambush that makes the target count as
    Defenseless against it (``ambushed``, SG.AMB.1, which bars evasion, SG.DFL.2); a fumble names the
    ``weapon`` it was made with (the one the GM may drop)."""

    kind: DecisionKind
    unit: UnitId
    attacker: UnitId = ""
    maneuver: str = ""
    ambushed: bool = False
    weapon: str = ""


@fast_init
@dataclass(frozen=True, slots=True)
class BreathInProgress:
    """A breath declared, paid and being resolved maneuver by maneuver; ``index`` is the next use. It
    waits here while a reaction decision is open (SG.RES.2)."""

    unit: UnitId
    uses: tuple[Use, ...]
    costs: tuple[int, ...]
    spent: int
    count: int
    index: int = 0
    stance_changed: bool = False


@dataclass(frozen=True, slots=True)
class DeathRecord:
    """A death check after combat (SG.INP.3)."""

    unit: UnitId
    faces: tuple[int, int]
    total: int
    survives: bool


@dataclass(frozen=True, slots=True)
class HonorFlag:
    """A retreater's honor follow-up after combat (SG.RET.4): its class and what follows."""

    unit: UnitId
    honor: str
    follow_up: str
    penalty: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """How the combat ended (SG.END.1): the winning side (None: nobody), why, and when."""

    winner: str | None
    reason: str
    round: int


@dataclass(frozen=True, slots=True)
class BattleState:
    """A whole battle. ``adjacent`` lists the layout's adjacent zone pairs; ``max_rounds`` is the round
    limit (SG.END.1 house default or the scenario's); ``yoma`` opens the lull to the GM's yoma roll and
    ``changes`` to the GM's battlefield changes (SG.LUL.3), whose ``conditions`` hold on zones;
    ``queue`` holds the units still to be offered upkeep in this lull; ``attack`` is an attack waiting
    for a decision."""

    name: str
    sides: tuple[Side, ...]
    zones: tuple[Zone, ...]
    adjacent: tuple[tuple[str, str], ...]
    units: tuple[Unit, ...]
    max_rounds: int
    yoma: bool = False
    changes: bool = False
    conditions: tuple[ZoneCondition, ...] = ()
    attack: PendingAttack | None = None
    round: int = 0
    phase: Phase = Phase.START
    count: int = 0
    decision: Decision | None = None
    breath: BreathInProgress | None = None
    queue: tuple[UnitId, ...] = ()
    environment_done: bool = False
    result: Result | None = None
    deaths: tuple[DeathRecord, ...] = ()
    honor: tuple[HonorFlag, ...] = ()
    # Readings of this state made once, on first use (not part of the state: no init, no compare, no
    # JSON, and ``replace`` starts them afresh): the units by id, the layout's neighbours and distances.
    _by_id: dict[str, Unit] | None = field(default=None, init=False, repr=False, compare=False)
    _zone_map: tuple[dict[str, tuple[str, ...]], dict[tuple[str, str], int]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _placed: dict[tuple[str, str], tuple[Unit, ...]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _zones_by_id: dict[str, Zone] | None = field(default=None, init=False, repr=False, compare=False)
    _places: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    _held: dict[str, tuple[str, ...]] | None = field(default=None, init=False, repr=False, compare=False)
    _roster: tuple[tuple[object, ...], ...] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    # -- reading ---------------------------------------------------------------------------------------
    def _units(self) -> dict[str, Unit]:
        found = self._by_id
        if found is None:
            found = {}
            for u in self.units:
                found.setdefault(u.id, u)
            object.__setattr__(self, "_by_id", found)
        return found

    def unit(self, uid: str) -> Unit:
        found = self._units().get(uid)
        if found is not None:
            return found
        known = ", ".join(u.id for u in self.units)
        raise KassenError(S_("no unit {uid} in this battle (units: {known})", uid=f"{uid!r}", known=known))

    def has_unit(self, uid: str) -> bool:
        return uid in self._units()

    def in_zone_all(self, zone: str) -> tuple[Unit, ...]:
        """Every unit whose ``zone`` is ``zone``, of any side, in the state's order."""
        self.in_zone("", zone)  # builds the index
        assert self._placed is not None
        return self._placed.get(("", zone), ())

    def in_zone(self, side: str, zone: str) -> tuple[Unit, ...]:
        """The side's units whose ``zone`` is ``zone``, in the state's order (worked out once for all
        zones, so that a reading about every unit's neighbours stays linear in the units)."""
        found = self._placed
        if found is None:
            placed: dict[tuple[str, str], list[Unit]] = {}
            for u in self.units:
                if u.zone is not None:
                    placed.setdefault((u.side, u.zone), []).append(u)
                    placed.setdefault(("", u.zone), []).append(u)  # every side's
            found = {k: tuple(v) for k, v in placed.items()}
            object.__setattr__(self, "_placed", found)
        return found.get((side, zone), ())

    def held_against(self, side: str) -> tuple[str, ...]:
        """The zones, in layout order, where a unit of another side than ``side`` stands able to act:
        all a movement's route reads of where the units stand (SG.ZON.2: a Breakthrough into such a
        zone, a Core Zone Exit out of it), so that routes can be remembered by it."""
        held = self._held
        if held is None:
            held = {}
            object.__setattr__(self, "_held", held)
        found = held.get(side)
        if found is None:
            found = held[side] = tuple(
                z.id for z in self.zones if any(u.side != side and u.able for u in self.in_zone_all(z.id))
            )
        return found

    def roster(self) -> tuple[tuple[object, ...], ...]:
        """Every unit's place (:func:`_place`: who it is, whom it fights for, where it stands, its
        statuses, whether it is a squad, its template), in the state's order: what a unit's listing
        reads of every unit (``candidates.candidates_key``). Made once and carried over by
        :meth:`with_unit` while the unit put back has the same place, so that most states share the
        very same tuple (numbered by identity, ``ContentMemos.roster_number``)."""
        found = self._roster
        if found is None:
            found = tuple(map(_place, self.units))
            object.__setattr__(self, "_roster", found)
        return found

    def side(self, sid: str) -> Side:
        for s in self.sides:
            if s.id == sid:
                return s
        raise KassenError(S_("no side {sid} in this battle", sid=f"{sid!r}"))

    def _zone_index(self) -> dict[str, Zone]:
        found = self._zones_by_id
        if found is None:
            found = {}
            for z in self.zones:
                found.setdefault(z.id, z)
            object.__setattr__(self, "_zones_by_id", found)
        return found

    def zone(self, zid: str) -> Zone:
        found = self._zone_index().get(zid)
        if found is not None:
            return found
        raise KassenError(
            S_("no zone {zid} (zones: {value})", zid=f"{zid!r}", value=", ".join(z.id for z in self.zones))
        )

    def has_zone(self, zid: str) -> bool:
        return zid in self._zone_index()

    def _zones(self) -> tuple[dict[str, tuple[str, ...]], dict[tuple[str, str], int]]:
        found = self._zone_map
        if found is None:
            found = _layout(self.adjacent)
            object.__setattr__(self, "_zone_map", found)
        return found

    def neighbours(self, zid: str) -> tuple[str, ...]:
        """Zones adjacent to ``zid``, in layout order."""
        return self._zones()[0].get(zid, ())

    def distance(self, a: str, b: str) -> int:
        """Zones between ``a`` and ``b`` along adjacency (0 for the same zone)."""
        if a == b:
            return 0
        return self._zones()[1].get((a, b), len(self.zones) + 1)

    def with_unit(self, unit: Unit, changes: dict[str, object] | None = None) -> BattleState:
        """This state with ``unit`` in place of the unit of its id (the readings that still hold kept),
        and ``changes`` (fields other than the units and the layout) made in the same copy: what
        ``with_unit(unit).changed_by(changes)`` gives, one copy instead of two (a breath declared, an
        attack landed: the unit and the flow's bookkeeping change together)."""
        if changes:
            if not _PLAIN.issuperset(changes):
                return self.with_unit(unit).changed_by(changes)
            new = self.with_unit(unit)
            # the copy is this call's own, seen by nobody yet: its fields are still being filled in
            for name, value in changes.items():
                object.__setattr__(new, name, value)
            return new
        units = self.units
        places = self._places
        if places is None:
            places = {}
            for n, u in enumerate(units):
                places.setdefault(u.id, n)
            if len(places) != len(units):
                places = {}  # ids given twice (no scenario allows it): replaced the plain way
            object.__setattr__(self, "_places", places)
        at = places.get(unit.id)
        if at is None:
            return self.changed(units=tuple(unit if u.id == unit.id else u for u in units))
        old = units[at]
        # the zones held stay as they were while the unit stands where it stood, as able, on its side
        same_place = old.zone == unit.zone and old.able == unit.able and old.side == unit.side
        held = self._held if same_place else None
        index = self._by_id
        if index is not None:
            index = dict(index)
            index[unit.id] = unit
        # the roster stays the same tuple while the unit's place does (most changes: Energy, Wounds, uses)
        roster = self._roster
        if roster is not None:
            place = _place(unit)
            if place != roster[at]:
                roster = (*roster[:at], place, *roster[at + 1 :])
        return _with_units(self, (*units[:at], unit, *units[at + 1 :]), index, None, places, held, roster)

    def changed(self, **changes: object) -> BattleState:
        """``dataclasses.replace(self, **changes)``, keeping the readings made of this state that the
        changes leave true (the units by id while the units stay; the layout's while the zones stay)."""
        return self.changed_by(changes)

    def changed_by(self, changes: dict[str, object]) -> BattleState:
        """:meth:`changed` with the changes in a dict of the caller's that it may take over (a turn's
        ``set``: no second keyword dict made)."""
        if not _FIELDS.issuperset(changes):
            return replace(self, **changes)  # dataclasses.replace's own error
        if "units" in changes:
            changes.update(_by_id=None, _placed=None, _places=None, _held=None, _roster=None)
        if "zones" in changes:
            changes["_held"] = None
        if "zones" in changes or "adjacent" in changes:
            changes.update(_zone_map=None, _zones_by_id=None)
        return _changed(self, changes)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER


#: The battle state's own copies, which keep its readings (``kassen.core.fastreplace.keeper``): any
#: changes (``changed``), and a unit replaced (``with_unit``: the units and the readings that follow).
_FIELDS = frozenset(f.name for f in dataclasses.fields(BattleState) if f.init)
_changed = keeper(BattleState)
#: The fields :meth:`BattleState.with_unit` sets along with a unit (no reading of the state follows them).
_PLAIN = _FIELDS - {"units", "zones", "adjacent"}
_with_units = keeper(BattleState, "units", "_by_id", "_placed", "_places", "_held", "_roster")


def _place(u: Unit) -> tuple[object, ...]:
    """A unit's place in :meth:`BattleState.roster`: its id, side, zone, whether it is incapacitated,
    retreated, routed or bleeding, whether it is a squad, and its template."""
    return (
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


def distinct_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... the first one no unit in ``taken`` bears."""
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"


def distinct_names(units: Sequence[Unit]) -> list[Unit]:
    """Units with equal names told apart in setup order: the first keeps its name, the next are
    "Samurai (2)", "Samurai (3)" (the events name units by id; the account and the views by name)."""
    out: list[Unit] = []
    taken = {u.name for u in units}
    seen: set[str] = set()
    for u in units:
        if u.name in seen:
            name = distinct_name(u.name, taken)
            taken.add(name)
            u = replace(u, name=name)
        seen.add(u.name)
        out.append(u)
    return out
