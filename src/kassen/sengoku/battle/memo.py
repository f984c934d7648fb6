"""The bounded memos the content's :class:`~kassen.sengoku.battle.rules.BattleRules` keeps its pure
readings in (:class:`Memo`), their bounds, and the memos of the planner and the heuristic it holds
(:class:`ContentMemos`, with the numbers that keep their keys small)."""

from __future__ import annotations

__all__ = ["LISTINGS", "MEMO_LIMIT", "PLANNERS", "ContentMemos", "Memo", "Scratch"]

import itertools
from collections.abc import Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from kassen.core.memo import MEMO_LIMIT, Memo, PerThread
from kassen.sengoku.profile import Attributes, CombatProfile
from kassen.sengoku.technique import Technique, attack_modifier

if TYPE_CHECKING:
    from kassen.core.explain import Step
    from kassen.sengoku.battle.blows import Blow
    from kassen.sengoku.battle.candidates import Skeleton, _Frame, _Known, _Read
    from kassen.sengoku.battle.listing import GroupVerdicts, Listing
    from kassen.sengoku.battle.one_use import PlannedUse, _After
    from kassen.sengoku.battle.plan import Planner
    from kassen.sengoku.battle.state import BattleState, Use
    from kassen.sengoku.profile import DefenseBonus

H = TypeVar("H", bound=Hashable)

#: The most breath planners (one per state and unit) kept.
PLANNERS = 16
#: The most listings of a unit's breaths (one per situation) kept.
LISTINGS = 2048


class ContentMemos:
    """What the planner (:mod:`~kassen.sengoku.battle.plan`, :mod:`~kassen.sengoku.battle.candidates`)
    and the heuristic (:mod:`~kassen.sengoku.battle.values`, :mod:`~kassen.sengoku.battle.weigh`)
    remember of one content across states and fights, each memo keyed by everything its reading reads
    and bounded; :class:`~kassen.sengoku.battle.rules.BattleRules` is one."""

    def __init__(self) -> None:
        #: A maneuver's priced Energy and its steps, by template, maneuver, zone, base cost, earlier uses
        #: (combo fatigue) and Aim Focus (see ``plan._cost``).
        self.costs: Memo[tuple[object, ...], tuple[int, tuple[Step, ...]]] = Memo()
        #: A maneuver planned after a simulated breath, by everything its plan reads but the target
        #: (``Planner._template_key``): its plan and the simulated breath after it, in any state.
        self.planned: Memo[tuple[object, ...], tuple[PlannedUse, _After]] = Memo()
        #: Every legal breath of a unit's candidates with its price, Energy aside, by everything the
        #: listing reads (``candidates.listing_key``): a unit in the same situation lists the same.
        self.listings: Memo[tuple[object, ...], Listing] = Memo(LISTINGS)
        #: A unit's candidates with each attack group's targets left out (``candidates._skeleton``), by
        #: everything they read (``candidates._skeleton_key``): the same wherever the enemies stand; with
        #: what each item is to ``frame_items`` (``candidates._items_read``).
        self.skeletons: Memo[tuple[object, ...], tuple[Skeleton, tuple[_Read, ...]]] = Memo(LISTINGS)
        #: A unit's listing with the enemies in reach left out (``candidates._framed``), by everything it
        #: reads but the enemies (``candidates._frame_key``): filled in, it is the listing of any state in
        #: that situation, wherever the enemies stand, and of the unit's copies in the same place.
        self.frames: Memo[tuple[object, ...], _Frame] = Memo(LISTINGS)
        #: A frame filled in (``candidates._filled_frame``): its items but whose breaths they are (a
        #: plain breath's maneuvers and price, an attack group's verdicts), by the frame's number, the
        #: enemies each of its ranges reaches from each of its zones and its special groups' verdicts.
        self.fills: Memo[tuple[object, ...], tuple[tuple[tuple[Use, ...], int] | GroupVerdicts, ...]] = Memo()
        #: Whom a range reaches from a zone (``candidates._Reach``): the ids of the enemies of a side on
        #: the battlefield, by the roster's number, the battlefield's, the side, the range and the zone.
        self.reaches: Memo[tuple[object, ...], tuple[str, ...]] = Memo()
        #: The verdict of one item of a frame (``candidates._framed``): a plain candidate's price, an
        #: attack group's prices known whatever its targets, by the item and all its plans read.
        self.frame_items: Memo[tuple[object, ...], int | _Known] = Memo()
        #: An attack group's prices (shape by shape, at any target it may strike) and the weapon it is made
        #: with, by everything the shapes' plans read but the target (``Planner._group``).
        self.group_prices: Memo[tuple[object, ...], tuple[tuple[int, ...], str | None]] = Memo()
        #: What the heuristic reads of a plain breath (whether it starts with an aid, whether it is
        #: weighed as an attack: ``weigh._weighing``), by its uses.
        self.weighed_plains: Memo[tuple[Use, ...], tuple[bool, bool]] = Memo()
        #: The heuristic's reading of an attack group's shapes (``weigh._kinds``), by attack and shapes.
        self.shape_kinds: Memo[tuple[object, ...], tuple[int, ...]] = Memo()
        #: An attack's candidate shapes at one target (``candidates._group_of``), by the attack, weapon,
        #: target, reservations known and Aim Focus room: the same few tuples in every state.
        self.rows: Memo[tuple[object, ...], tuple[tuple[Use, ...], ...]] = Memo()
        #: Those rows at each of a list of targets (an attack group's), by the attack, weapon, targets,
        #: reservations known and Aim Focus room.
        self.group_rows: Memo[tuple[object, ...], tuple[tuple[tuple[Use, ...], ...], ...]] = Memo()
        #: The rows of a movement, stance or pick-up then an attack at each of some targets
        #: (``candidates._after``), by the first use, the attack, its weapon and the targets.
        self.rows_after: Memo[tuple[object, ...], tuple[tuple[tuple[Use, ...], ...], ...]] = Memo()
        #: Whether a candidate movement goes (``candidates._skeleton``), by the battlefield, the unit's
        #: side and zone, the zones another side holds and the movement (all ``moves.route`` reads).
        self.routes: Memo[tuple[object, ...], bool] = Memo()
        #: An attack's battle-exact chance to take its target down and expected Wounds, by the two
        #: profiles, the attack and the Defense (the menus' odds, ``battle.table.preview``).
        self.previews: Memo[tuple[object, ...], tuple[Fraction, Fraction]] = Memo(1024)
        #: The heuristic's exact value of an attack (its chance of each number of Wounds, ``blows.Blow``),
        #: by everything it reads (see ``HeuristicPolicy.blow``): the same blow in another state is not
        #: worked out again.
        self.attack_values: Memo[tuple[object, ...], Blow] = Memo()
        #: Those values of one blow (template, attack, weapon, Aim Focus, zone number) by what the
        #: target is read as (its zone's and Defense class's numbers, a reaction ready): an attack
        #: group's blow at every target in one lookup of the blow (``weigh._scored``).
        self.attack_rows: Memo[tuple[object, ...], dict[tuple[int, int, bool], Blow]] = Memo()
        #: What a unit holding these stances grants itself (bonuses, Incorporeal Defense) and its allies
        #: in the zone (``BattleRules.grants``), by the stances held.
        self.stance_grants: Memo[
            tuple[str, ...], tuple[tuple[DefenseBonus, ...], int, tuple[DefenseBonus, ...]]
        ] = Memo()
        #: An attack's modifier and its steps (``attack_modifier``), by what they read.
        self.modifiers: Memo[tuple[object, ...], tuple[int, tuple[Step, ...]]] = Memo()
        #: A number for each profile or zone met (see :meth:`number`); the count only goes up.
        self.numbers: Memo[object, int] = Memo(4 * MEMO_LIMIT)
        self._next_number = itertools.count(1)
        #: A profile's Defense class (``values.guard_of``) and that class's number, by the number of the
        #: profile without its name: worked out once for every state the same profile is met in.
        self.guards: Memo[int, tuple[CombatProfile, int]] = Memo()
        #: The Wounds the enemies in reach threaten (``Values._threat``), by the Defense class's number
        #: and how many best blows the enemies of each template can still strike.
        self.threat_sums: Memo[tuple[object, ...], Fraction] = Memo()
        #: A unit's profile (``BattleRules.profile``) by what its template's profile is made of and
        #: everything the unit and the state add to it.
        self.profiles_made: Memo[tuple[object, ...], CombatProfile] = Memo()
        #: An enemy template's best expected Wounds per Energy on a profile (the heuristic's threats).
        self.best_blows: Memo[tuple[object, ...], tuple[tuple[Fraction, int] | None]] = Memo()
        #: The actions of the scenarios' scripts, by value (``scenario.build_battle``): every fight of a
        #: scenario plays the very same step objects, which the fights' shared action codec then knows by
        #: identity, instead of comparing each fight's new copy with the one it read back before (by
        #: its ``repr``, ``Codec.knows``). A step is built from the validated scenario, so equal steps
        #: are equal all the way down.
        self.script_actions: Memo[Hashable, Hashable] = Memo()
        #: A breath of a unit's listing planned (its maneuvers planned and its Energy, ``planned.
        #: planned_breath``), by the listing's key, the breath and the unit's uses this round of its
        #: maneuvers (combo fatigue's steps count them): every state with the same key plans it alike.
        self.breath_plans: Memo[tuple[object, ...], tuple[tuple[PlannedUse, ...], int]] = Memo()
        #: A unit's place among units at the same count (``BattleRules.tie_key``, SG.CNT.4), by all the
        #: catalog's keys read of it: its template, its side's allies-first, maximum Energy and setup.
        self.tie_keys: Memo[tuple[object, ...], tuple[int, ...]] = Memo()
        #: What each thread keeps of the states it plays (:class:`Scratch`).
        self.scratch: PerThread[Scratch] = PerThread(Scratch)

    def attack_modifier(self, attacker: CombatProfile, tech: Technique) -> tuple[int, tuple[Step, ...]]:
        """:func:`kassen.sengoku.technique.attack_modifier` of ``attacker`` with ``tech`` (SG.CHK.1),
        remembered by what it reads — the technique's attribute, skill, bonus and name, the attacker's
        value of that attribute, rank in that skill and lasting check penalty — and worked out from
        those alone (a profile and a technique made of the key), so a reading it would add could not
        hide behind the key."""
        attribute, skill = tech.attribute, tech.skill
        value = getattr(attacker.attributes, attribute) if attribute is not None else 0
        rank = attacker.skill(skill) if skill is not None else 0
        penalty = attacker.check_penalty
        key = (attribute, value, skill, rank, tech.bonus, tech.name, penalty)
        found = self.modifiers.get(key)
        if found is None:
            read = CombatProfile(
                attributes=Attributes(**{attribute: value}) if attribute is not None else Attributes(),
                skills=((skill.lower(), rank),) if skill is not None else (),
                check_penalty=penalty,
            )
            made = Technique(name=tech.name, attribute=attribute, skill=skill, bonus=tech.bonus)
            found = self.modifiers.put(key, attack_modifier(read, made))
        return found

    def interned(self, action: H) -> H:
        """The script step (or zone record) equal to ``action`` that an earlier fight of this content was
        given, else ``action`` itself, remembered (see :attr:`script_actions`): every fight of the content
        then holds the very same objects, found by identity in the memos."""
        found = self.script_actions.get(action)
        if found is None or type(found) is not type(action):
            self.script_actions[action] = found = action
        return found

    def number(self, value: object) -> int:
        """A number standing for ``value`` (a profile, a zone) in memo keys, so that it is hashed once
        where it is found: equal values get the same number while it is remembered, and a number is
        never given to two values (a forgotten value gets a new one), so a key stays exact."""
        found = self.numbers.get(value)
        if found is None:
            found = self.numbers[value] = next(self._next_number)
        return found

    def fresh_number(self) -> int:
        """A number no value nor anything else was given (:meth:`number`'s count goes on)."""
        return next(self._next_number)

    def layout_number(self, state: BattleState) -> int:
        """:meth:`number` of the battlefield (its zones, their adjacency and the sides), found by identity
        while the state keeps the same ones (they are carried over from state to state unchanged)."""
        scratch = self.scratch.value
        last = scratch.layout
        zones, adjacent, sides = state.zones, state.adjacent, state.sides
        if last is not None and last[0] is zones and last[1] is adjacent and last[2] is sides:
            return last[3]
        n = self.number((state.zones, state.adjacent, state.sides))
        scratch.layout = (state.zones, state.adjacent, state.sides, n)
        return n

    def roster_number(self, state: BattleState) -> int:
        """:meth:`number` of the state's roster (``BattleState.roster``), found by identity while states
        share the same one (``with_unit`` carries it over while no unit changes its place)."""
        roster = state.roster()
        scratch = self.scratch.value
        last = scratch.roster
        if last is not None and last[0] is roster:
            return last[1]
        n = self.number(roster)
        scratch.roster = (roster, n)
        return n


class Scratch:
    """What one thread keeps of the states it plays: lazily filled helpers that may not be shared while
    they fill, and the last battlefield and roster numbered (found again by identity while the states
    it plays carry the very same tuples over, each kept here so its identity stays its own)."""

    __slots__ = ("last_planner", "layout", "planners", "roster")

    def __init__(self) -> None:
        #: The planners of the last few (state, unit) asked about, by value: ``legal_actions``, the
        #: heuristic and ``resolve`` price the same breaths in the same state (see ``plan.planner``).
        #: A planner remembers what it walked as it is asked, so it is never shared between threads.
        self.planners: Memo[tuple[BattleState, str], Planner] = Memo(PLANNERS)
        #: The planner asked for last (found by the state's identity before its value).
        self.last_planner: Planner | None = None
        self.layout: tuple[object, object, object, int] | None = None
        self.roster: tuple[object, int] | None = None
