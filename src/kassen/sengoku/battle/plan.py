"""Planning a breath: full validation and Energy costs before anything changes (SG.BRT.1, SG.CNT.3-5).

:func:`plan_breath` checks a declared breath against the state and returns its :class:`Plan` (each
maneuver's cost with the zone's Energy rows, combo fatigue and Aim Focus; the total; whether it
overloads) or raises :class:`~kassen.core.errors.IllegalActionError` naming the rule. Movement inside the
breath is simulated (a Stealth Movement then a cut in the new zone), assuming each movement succeeds; at
resolution a maneuver the situation no longer allows is forfeited.

:class:`Planner` does the same for many breaths of one unit in one state, checking each maneuver
they share once (:mod:`~kassen.sengoku.battle.candidates` lists the sensible breaths through it).

Reading (SG.DFL.3 with SG.DFL.2, the catalog's ``SG.DFL.3`` house default): by default Defenseless
ends as the unit's next breath starts, before it is declared, so that breath may declare a stance or
reserve (with ``restrictions_apply_to_next_breath`` the breath is declared while Defenseless still holds
and cannot); and a React is not the unit's next action (``reaction_ends_defenseless``). Evasion is
barred by any Defenseless the unit counts as having against the attack: its own, a rout's (SG.RET.5) or
an ambush's (SG.AMB.1).
"""

from __future__ import annotations

__all__ = [
    "AttackGroup",
    "Plan",
    "PlannedUse",
    "Planner",
    "acting_value",
    "breakthrough_needed",
    "breath_turn",
    "check_modifier",
    "core_exit_needed",
    "destination",
    "in_range",
    "plan_breath",
    "plan_uses",
    "planner",
    "reaction_defenseless",
    "route",
    "situational",
    "target_refusal",
    "usable_reservations",
]

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.checks import (
    check_modifier,
    reaction_defenseless,
    situational,
    usable_reservations,
)
from kassen.sengoku.battle.listing import GroupVerdicts, Listing, Priced
from kassen.sengoku.battle.moves import breakthrough_needed, core_exit_needed, destination, in_range, route
from kassen.sengoku.battle.one_use import PlannedUse, _After, _plan_use, _Sim
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase, Unit, Use
from kassen.sengoku.battle.targets import _strikable, target_refusal
from kassen.sengoku.entries import (
    Maneuver,
    ManeuverKind,
)


@fast_init
@dataclass(frozen=True, slots=True)
class Plan:
    """A valid breath: its maneuvers, total Energy and whether it overloads (SG.BRT.2)."""

    unit: Unit
    uses: tuple[PlannedUse, ...]
    spent: int
    limit: int

    @property
    def overload(self) -> bool:
        return self.spent > self.limit

    @property
    def costs(self) -> tuple[int, ...]:
        return tuple(p.cost for p in self.uses)


#: Why a run of maneuvers is illegal: the message and rule of the IllegalActionError it raises.
_Refusal = tuple[str, str]


@fast_init
@dataclass(frozen=True, slots=True)
class AttackGroup:
    """Candidate breaths of one attack (``maneuver`` with ``weapon``, none: its first carrier) at each
    of ``targets`` in turn: ``rows[i]`` are those at ``targets[i]``, the same shapes in the same order
    for every target, every attack in them made from ``zone`` and the first shape's ``lead``-th use
    being the attack. :meth:`Planner.breaths` checks the shapes at one target and, at the others, only
    the target (everything else an attack's check reads is the same, SG.BRT.1)."""

    maneuver: str
    weapon: str | None
    targets: tuple[str, ...]
    rows: tuple[tuple[tuple[Use, ...], ...], ...]
    #: Where the attack is in the first shape (after a movement, a stance or a pick-up: 1), and the zone
    #: it is made from.
    lead: int = 0
    zone: str = ""
    #: What the shapes of an attack made from where the unit stands are built of besides the attack
    #: (the reservations known, the Aim Focus room: ``candidates._row``); empty for any other group.
    #: With it, the group's prices are remembered across states (``Planner._group``).
    shapes: tuple[object, ...] = ()


def _reads_beside(m: Maneuver, use: Use) -> bool:
    """Whether planning ``use`` of ``m`` reads who stands beside the unit (an aid, a Retreat with squads):
    such a plan is never remembered across states."""
    return m.aid is not None or bool(use.squads)


def _illegal(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule=rule)


# ------------------------------------------------------------------------------------------ whose turn


def acting_value(unit: Unit) -> int:
    """The count a unit acts at: its Energy, plus a pending initiative modifier (SG.CNT.2, SG.CNT.3)."""
    return unit.energy + unit.initiative


def breath_turn(state: BattleState, uid: str) -> Unit:
    """The unit, if it is the one to breathe now; else the rule that says why not."""
    if state.phase is Phase.OVER:
        raise _illegal(S_("the combat is over"), "SG.END.1")
    if state.phase is Phase.START:
        raise _illegal(S_("the battle has not begun: the GM begins it"), "SG.RND.2")
    if not state.has_unit(uid):
        raise _illegal(S_("no unit {uid} in this battle", uid=f"{uid!r}"), "SG.CNT.3")
    d = state.decision
    if d is not None and d.kind is DecisionKind.REACTION:
        raise _illegal(
            S_("{unit} must first answer {attacker}'s attack", unit=d.unit, attacker=d.attacker), "SG.RES.2"
        )
    if state.phase is Phase.LULL:
        raise _illegal(S_("the count is over: this is the lull phase"), "SG.RND.2")
    unit = state.unit(uid)
    if d is None or d.kind is not DecisionKind.BREATH:
        raise _illegal(S_("no breath is due now"), "SG.CNT.3")
    if d.unit != uid:
        if unit.on_battlefield and not unit.passed and acting_value(unit) >= state.count:
            raise _illegal(
                S_(
                    "{name} is at count {count} too, but {unit} acts first (ties)",
                    name=unit.name,
                    count=state.count,
                    unit=d.unit,
                ),
                "SG.CNT.4",
            )
        raise _illegal(
            S_(
                "count {count}: {unit} breathes now, not {name} (Energy {energy})",
                count=state.count,
                unit=d.unit,
                name=unit.name,
                energy=unit.energy,
            ),
            "SG.CNT.3",
        )
    return unit


@dataclass(slots=True)
class _Walked:
    """A legal run of maneuvers from the start of the breath: each planned, and the simulated breath
    after the last (``after``: its number in the planner's :attr:`Planner._sims`). The planner's own
    record, never handed out nor changed once made (not frozen: built by plain stores, thousands a
    battle)."""

    planned: tuple[PlannedUse, ...]
    after: int
    spent: int


class Planner:
    """Plans breaths of one unit in one state (whose turn it is is not checked here), remembering every
    run of maneuvers it walked by the maneuvers themselves, so candidate breaths that share their first
    maneuvers check them once and a longer breath only checks its last maneuver; an illegal one is
    refused without building an exception (:meth:`legal`), and raises the same error afresh
    (:meth:`plan`). Everything it remembers is a pure reading of its state and the content:
    :func:`planner` keeps the last few, found by value."""

    __slots__ = (
        "_defenseless",
        "_plans",
        "_prefixes",
        "_reach",
        "_sim_ids",
        "_sim_numbers",
        "_sims",
        "_situation",
        "_spent",
        "_steps",
        "_used",
        "_walks",
        "listing",
        "listing_key",
        "rules",
        "state",
        "unit",
    )

    def __init__(self, rules: BattleRules, state: BattleState, unit: Unit) -> None:
        self.rules = rules
        self.state = state
        self.unit = unit
        self._plans: dict[tuple[Use, ...], Plan | _Refusal] = {}
        self._prefixes: dict[tuple[Use, ...], Plan | _Refusal] = {}
        self._walks: dict[tuple[Use, ...], _Walked | _Refusal] = {}
        # the Energy of each breath :meth:`breaths` listed (the heuristic weighs attacks by it)
        self._spent: dict[tuple[Use, ...], int] = {}
        # each maneuver after each simulated breath, and an attack's checks but its target's
        self._steps: dict[tuple[Use, int], _Refusal | tuple[PlannedUse, int]] = {}
        # whom an attack may strike, by range, zone, [Incorporeal] and targets (``_reached``)
        self._reach: dict[tuple[object, ...], tuple[bool, ...]] = {}
        self._defenseless = unit.defenseless and rules.dfl_timing.restrictions_apply_to_next_breath
        self._situation: int | None = None
        self._used: tuple[tuple[str, int], ...] | None = None
        self._sim_numbers: list[int] = []  # rules.number of each simulated breath, by its index
        #: Every legal breath of the candidates with its price, Energy aside (``candidates._listing``),
        #: and what it depends on (``candidates.listing_key``), once made.
        self.listing: Listing | None = None
        self.listing_key: tuple[object, ...] | None = None
        # the simulated breaths met so far, numbered (0: the breath's start) so memo keys stay small
        start: _After = (unit.zone or "", tuple(unit.stances), (), (), False, False, False)
        self._sims: list[_After] = [start]
        self._sim_ids: dict[_After, int] = {start: 0}

    def plan(self, uses: tuple[Use, ...]) -> Plan:
        """Validate and price ``uses`` as the unit's breath now; IllegalActionError naming the rule."""
        found = self._verdict(uses)
        if isinstance(found, tuple):
            raise _illegal(*found)
        return found

    def legal(self, uses: tuple[Use, ...]) -> bool:
        """Whether ``uses`` is a legal breath now (a refusal builds no exception)."""
        try:
            found = self._verdict(uses)
        except IllegalActionError:
            return False
        return not isinstance(found, tuple)

    def breaths(self, candidates: Iterable[tuple[Use, ...] | AttackGroup]) -> list[Breath]:
        """The legal breaths among ``candidates``, each once, in their order."""
        return self.affordable(self.entries(candidates))

    def affordable(self, listing: Listing) -> list[Breath]:
        """The breaths of ``listing`` the unit can pay for now (SG.CNT.5), remembered with their cost
        (the heuristic weighs attacks by it)."""
        energy, listed = self.unit.energy, self._spent
        out: list[Breath] = []
        for breath, spent in listing.flat():
            if spent <= energy:
                out.append(breath)
                listed[breath.uses] = spent
        return out

    def entries(self, candidates: Iterable[tuple[Use, ...] | AttackGroup]) -> Listing:
        """Each of ``candidates`` that is a legal breath now but perhaps for its price, once, in their
        order, with the Energy it costs (at least 1, SG.CNT.6): :meth:`breaths` before the unit's Energy
        is read (SG.CNT.5), which is all it reads of the unit's Energy. An attack group's breaths are
        told apart from every other candidate by their attack at a target, and from each other by the
        attack, its target and its shape: they are never met twice."""
        unit = self.unit
        uid, surcharge = unit.id, unit.surcharge
        if unit.zone is None or not unit.on_battlefield:
            return Listing(uid, ())
        walks = self._walks
        seen: set[tuple[Use, ...]] = set()
        out: list[Priced | GroupVerdicts] = []
        for uses in candidates:
            if isinstance(uses, AttackGroup):
                out.append(self._group(uses))
                continue
            before = len(seen)
            seen.add(uses)
            if len(seen) == before or not uses:
                continue
            # what :meth:`_plan` checks, without building the Plan (the policy asks for the few it needs)
            try:
                walked = walks.get(uses) or self._walk(uses)
            except IllegalActionError:
                continue
            if isinstance(walked, tuple):
                continue
            spent = walked.spent + surcharge
            if spent >= 1:
                out.append((Breath(uid, uses), spent))
        return Listing(uid, tuple(out))

    def _listed(self, uses: tuple[Use, ...]) -> int:
        """What :meth:`entries` keeps ``uses`` for: the Energy it costs, 0 if illegal (the unit is on the
        battlefield; its Energy is not read)."""
        try:
            walked = self._walks.get(uses) or self._walk(uses)
        except IllegalActionError:
            return 0
        if isinstance(walked, tuple):
            return 0
        spent = walked.spent + self.unit.surcharge
        return spent if spent >= 1 else 0

    def _group(self, group: AttackGroup) -> GroupVerdicts:
        """:meth:`entries` of an :class:`AttackGroup` (:meth:`group_verdicts`)."""
        return self.group_verdicts(group)[0]

    def group_verdicts(
        self, group: AttackGroup
    ) -> tuple[GroupVerdicts, tuple[tuple[int, ...] | None, str | None] | None]:
        """:meth:`entries` of an :class:`AttackGroup`: every shape planned at the first target the
        attack alone may strike (which shows its checks but the target's pass), and at each later
        target the same verdicts if that target may be struck, none if not.

        For an attack made from where the unit stands (``group.shapes``), those verdicts and the
        weapon the attack is made with are remembered by the content (``BattleRules.group_prices``),
        by everything the shapes' plans read but the target — what :meth:`_template_key` keys each
        of their maneuvers by: the unit's template and situation, its uses this round, the breath's
        start (its zone and stances), the stance collapse surcharge — and the shapes themselves; so
        in another state with a new listing only the targets are checked. So are those of a stance or
        a movement then an attack, by the same and what the first use reads (:meth:`_first_key`).

        With the verdicts, when they are those remembered prices (None: none at any shape) at every
        target the attack may strike and none elsewhere, and those prices are remembered so, the
        prices and the weapon (``candidates._filled_frame`` fills them in at other targets); else None."""
        unit, state = self.unit, self.state
        zone = group.zone or unit.zone
        assert zone is not None
        m = self.rules.catalog.maneuvers.get(group.maneuver)
        found: tuple[int, ...] | None = None
        strikable: Callable[[str], bool] | None = None
        prices: list[tuple[int, ...] | None] = []
        key: tuple[object, ...] | None = None
        lead_weapon: str | None = None
        shaped = group.shapes or (self._first_key(group) if group.lead == 1 else None)
        if shaped and m is not None:
            key = (
                self._situation_number(),
                self._sim_number(0),
                self._priced_uses_in(group.rows[0]),
                unit.surcharge,
                group.maneuver,
                group.weapon,
                shaped,
            )
            known = self.rules.group_prices.get(key)
            if known is not None:
                shown, weapon = known
                kept = shown if any(shown) else None
                reached = self._reached(m, zone, weapon, group.targets)
                # each target's verdicts: the shapes' prices where it may be struck, none where not
                # (a bool picks from the pair; one call over every target, which grow with the units)
                return GroupVerdicts(group, tuple(map((None, kept).__getitem__, reached))), (kept, weapon)
        for target, row in zip(group.targets, group.rows, strict=True):
            if found is None or m is None:
                walked = tuple(self._listed(uses) for uses in row)
                verdicts: tuple[int, ...] | None = walked
                first = self._walks.get(row[0])
                if isinstance(first, _Walked):
                    lead = first.planned[group.lead]
                    if lead.use.target == target and lead.zone == zone and m is not None:
                        found = walked
                        lead_weapon = lead.use.weapon
                        strikable = _strikable(self.rules, state, unit, m, zone, lead_weapon)
                        if key is not None:
                            self.rules.group_prices[key] = (walked, lead.use.weapon)
            else:
                assert strikable is not None
                verdicts = found if strikable(target) else None
            prices.append(verdicts if verdicts is not None and any(verdicts) else None)
        made = GroupVerdicts(group, tuple(prices))
        if key is None or found is None or strikable is None:
            return made, None
        return made, (found if any(found) else None, lead_weapon)

    def _first_key(self, group: AttackGroup) -> tuple[object, ...] | None:
        """What the first use of a stance or movement then an attack reads besides what every plan of
        the unit reads (:meth:`_template_key`): the use itself and, for a movement, which zones the
        other sides hold; None for a pick-up, whose plan is always worked out afresh (``_aimed``)."""
        first = group.rows[0][0][0]
        m = self.rules.catalog.maneuvers.get(first.maneuver)
        if m is None or _reads_beside(m, first):
            return None
        if m.kind is ManeuverKind.MOVEMENT:
            side = self.unit.side
            return ("then", first, side, self.state.held_against(side))
        return ("then", first)

    def _reached(
        self, m: Maneuver, zone: str, weapon: str | None, targets: tuple[str, ...]
    ) -> tuple[bool, ...]:
        """Whether ``m`` with ``weapon`` may strike each of ``targets`` from ``zone`` (``_strikable``),
        worked out once a planner for each range, zone, [Incorporeal] and list of targets: the attack
        groups of one listing mostly share them."""
        rules, unit = self.rules, self.unit
        incorporeal = rules.technique(unit, m, weapon).tags.incorporeal
        key = (rules.range(unit, m, weapon), zone, incorporeal, targets)
        found = self._reach.get(key)
        if found is None:
            reach = _strikable(rules, self.state, unit, m, zone, weapon)
            found = self._reach[key] = tuple(reach(t) for t in targets)
        return found

    def spent(self, uses: tuple[Use, ...]) -> int:
        """The Energy the breath ``uses`` costs (:attr:`Plan.spent`; IllegalActionError if illegal): as
        :meth:`breaths` listed it, else planned."""
        found = self._spent.get(uses)
        return found if found is not None else self.plan(uses).spent

    def _verdict(self, uses: tuple[Use, ...]) -> Plan | _Refusal:
        found = self._plans.get(uses)
        if found is None:
            found = self._plans[uses] = self._plan(uses)
        return found

    def prefix(self, uses: tuple[Use, ...]) -> Plan:
        """Validate and price ``uses`` as the start of a breath being built (a menu's prefix): every
        check of :meth:`plan` but the last, that a finished breath spends Energy (SG.CNT.6) — releasing
        a stance costs nothing and may open a breath. An illegal prefix cannot be extended into a legal
        breath: each maneuver is checked on the ones before it, and none costs less than nothing."""
        found = self._prefixes.get(uses)
        if found is None:
            found = self._prefixes[uses] = self._plan(uses, whole=False)
        if isinstance(found, tuple):
            raise _illegal(*found)
        return found

    def _plan(self, uses: tuple[Use, ...], *, whole: bool = True) -> Plan | _Refusal:
        rules, unit = self.rules, self.unit
        if not uses and whole:
            return (S_("a breath chooses at least one maneuver (or Hold, or Pass)"), "SG.BRT.1")
        if unit.zone is None or not unit.on_battlefield:
            return (S_("{name} is not on the battlefield", name=unit.name), "SG.INP.1")
        planned: tuple[PlannedUse, ...] = ()
        spent = 0
        if uses:
            walked = self._walk(uses)
            if isinstance(walked, tuple):
                return walked
            planned, spent = walked.planned, walked.spent
        if unit.surcharge and planned:
            head = planned[0]
            extra = Step(
                head.cost + unit.surcharge,
                S_("stance collapse: next action +{surcharge} Energy", surcharge=unit.surcharge),
                "SG.FUM.2",
            )
            planned = (
                replace(head, cost=head.cost + unit.surcharge, steps=(*head.steps, extra)),
                *planned[1:],
            )
            spent += unit.surcharge
        if spent < 1 and whole:
            return (S_("a breath spends Energy; to give it up, Hold or Pass"), "SG.CNT.6")
        if spent > unit.energy:
            return (
                S_(
                    "{name}'s breath costs {spent} Energy but only {energy} is left",
                    name=unit.name,
                    spent=spent,
                    energy=unit.energy,
                ),
                "SG.CNT.5",
            )
        return Plan(unit, planned, spent, rules.breath_limit)

    def _walk(self, uses: tuple[Use, ...]) -> _Walked | _Refusal:
        """:func:`_plan_use` of the last of ``uses`` on the simulated breath after the others (walked
        first, and remembered: the breath's first use starts from the unit itself)."""
        found = self._walks.get(uses)
        if found is not None:
            return found
        if len(uses) == 1:
            before: tuple[PlannedUse, ...] = ()
            sim = spent = 0
        else:
            prior = self._walk(uses[:-1])
            if isinstance(prior, tuple):
                self._walks[uses] = prior
                return prior
            before, sim, spent = prior.planned, prior.after, prior.spent
        # the same maneuver after the same simulated breath (a reservation after a cut at any target)
        # is checked once
        use = uses[-1]
        key = (use, sim)
        step = self._steps.get(key)
        if step is None:
            step = self._steps[key] = self._aimed(use, sim)
        if isinstance(step[0], str):
            refused = self._walks[uses] = step
            return refused
        planned, later = step
        walked = self._walks[uses] = _Walked((*before, planned), later, spent + planned.cost)
        return walked

    def _aimed(self, use: Use, sim: int) -> _Refusal | tuple[PlannedUse, int]:
        """:meth:`_step` through the content's memo of maneuvers that read nothing of the state but the
        unit (:meth:`_template_key`) and, for a movement, the zones the other sides hold: an attack
        planned before, in any state, by a unit in the same situation after the same simulated breath,
        is planned at another target by checking only the target (everything else an attack's check
        reads is the same); a reservation, a stance, a Kata or a movement is the same plan. An aid and
        a Retreat with squads read who stands beside the unit and are always planned afresh. A refusal
        is always worked out in full, for its exact message."""
        rules = self.rules
        m = rules.catalog.maneuvers.get(use.maneuver)
        if m is None or _reads_beside(m, use):
            return self._step(use, sim)
        attack = m.attacks
        if attack and use.target is None:
            return self._step(use, sim)  # refused: an attack names its target
        key = self._template_key(use, m, sim, attack)
        template = rules.planned.get(key)
        if template is None:
            step = self._step(use, sim)
            if not isinstance(step[0], str):
                rules.planned[key] = (step[0], self._sims[step[1]])
            return step
        planned, after = template
        found = self._sim_ids.get(after)
        if found is None:
            found = self._sim_ids[after] = len(self._sims)
            self._sims.append(after)
        number = found
        if not attack:
            return (planned if planned.use is use else replace(planned, use=use)), number
        # the same use at another target (with the weapon the first one was found to be made with)
        weapon = planned.use.weapon
        if target_refusal(rules, self.state, self.unit, m, use.target, planned.zone, weapon) is not None:
            return self._step(use, sim)  # refused: worked out in full, for the exact message
        aimed = use if weapon == use.weapon else replace(planned.use, target=use.target)
        return (planned if planned.use is aimed else replace(planned, use=aimed)), number

    def _template_key(self, use: Use, m: Maneuver, sim: int, attack: bool) -> tuple[object, ...]:
        """Everything :func:`_plan_use` reads for ``use`` after simulated breath ``sim`` but the target
        (aid and a Retreat with squads are never keyed by it): the use (its target only when it is no
        attack's), the simulated breath, and of the unit its template, the uses of this maneuver this
        round (combo fatigue, SG.BRT.3), its limited uses, rout, reload, dropped and broken weapons,
        Defenseless, and the zones of the battlefield (SG.ZON.1); for a movement also the unit's side
        and the zones where another side stands able to act (``BattleState.held_against``: all its
        route reads of the units, SG.ZON.2)."""
        situation = self._situation_number()
        number = self._sim_number(sim)
        # a movement's route reads the unit's side and which zones the others hold (``route``)
        side = self.unit.side
        held = (side, self.state.held_against(side)) if m.kind is ManeuverKind.MOVEMENT else None
        return (
            held,
            use.maneuver,
            None if attack else use.target,
            use.aim,
            use.to,
            use.squads,
            use.release,
            use.choice,
            use.weapon,
            number,
            self.unit.uses_this_round(m.id),
            situation,
        )

    def _situation_number(self) -> int:
        """The number of what every plan of the unit's maneuvers reads of it but its uses this round:
        its template, rout, limited uses, reload, dropped and broken weapons, Defenseless, and the
        zones of the battlefield (SG.ZON.1)."""
        situation = self._situation
        if situation is None:
            u = self.unit
            # numbered once a planner (a tuple's hash is not kept): the key is hashed at every maneuver
            situation = self._situation = self.rules.number(
                (
                    u.creature,
                    u.spec,
                    u.routed,
                    u.limited,
                    u.unloaded,
                    u.dropped,
                    u.broken,
                    self._defenseless,
                    self.rules.layout_number(self.state),
                )
            )
        return situation

    def priced_uses(self) -> tuple[tuple[str, int], ...]:
        """The unit's uses of each maneuver this round, each up to the number combo fatigue counts free
        (SG.BRT.3: any more cost the same Energy): all the prices of a breath read of them."""
        found = self._used
        if found is None:
            free = self.rules.combo.free_uses
            found = self._used = tuple((t.key, min(t.n, free)) for t in self.unit.used)
        return found

    def _priced_uses_in(self, shapes: tuple[tuple[Use, ...], ...]) -> tuple[tuple[str, int], ...]:
        """:meth:`priced_uses` of the maneuvers in ``shapes`` alone: the only uses this round a plan of
        them reads (combo fatigue counts each maneuver's own, SG.BRT.3; ``one_use._cost``), so a group's
        prices are found again after a breath of other maneuvers."""
        used = self.priced_uses()
        if not used:
            return used
        maneuvers = {u.maneuver for uses in shapes for u in uses}
        return tuple(p for p in used if p[0] in maneuvers)

    def _sim_number(self, sim: int) -> int:
        """The number of the simulated breath ``sim`` (0: the breath's start)."""
        numbers = self._sim_numbers
        while len(numbers) <= sim:
            numbers.append(self.rules.number(self._sims[len(numbers)]))
        return numbers[sim]

    def _step(self, use: Use, sim: int) -> _Refusal | tuple[PlannedUse, int]:
        zone, held, in_breath, limited, left, fired, picked = self._sims[sim]
        walk = _Sim(zone, list(held), dict(in_breath), dict(limited), self._defenseless, left, fired, picked)
        try:
            planned = _plan_use(self.rules, self.state, self.unit, use, walk)
        except IllegalActionError as e:
            if type(e) is not IllegalActionError:
                raise
            return (e.message, e.rule)
        after: _After = (
            walk.zone,
            tuple(walk.held),
            tuple(walk.in_breath.items()),
            tuple(walk.limited.items()),
            walk.left,
            walk.fired,
            walk.picked,
        )
        number = self._sim_ids.get(after)
        if number is None:
            number = self._sim_ids[after] = len(self._sims)
            self._sims.append(after)
        return planned, number


def planner(rules: BattleRules, state: BattleState, unit: Unit) -> Planner:
    """The :class:`Planner` of ``unit`` in ``state``: one of the last few the content's rules made,
    found by value (the same state and unit price the same breaths), else a new one."""
    # the same state object asks first (legal_actions, then the policy): found without hashing it
    scratch = rules.scratch.value
    last = scratch.last_planner
    if last is not None and last.state is state and last.unit.id == unit.id:
        return last
    key = (state, unit.id)
    found = scratch.planners.get(key)
    if found is None:
        found = scratch.planners[key] = Planner(rules, state, unit)
    scratch.last_planner = found
    return found


def plan_uses(rules: BattleRules, state: BattleState, unit: Unit, uses: tuple[Use, ...]) -> Plan:
    """Validate and price ``uses`` as ``unit``'s breath now (whose turn it is is not checked here)."""
    return planner(rules, state, unit).plan(uses)


def plan_breath(rules: BattleRules, state: BattleState, breath: Breath) -> Plan:
    """Validate ``breath`` completely (its turn, SG.CNT.3-4; its maneuvers; its Energy, SG.CNT.5) and
    price it; raises IllegalActionError naming the rule."""
    unit = breath_turn(state, breath.unit)
    return plan_uses(rules, state, unit, breath.uses)
