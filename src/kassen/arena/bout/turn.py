"""The working copy one action is resolved in: :class:`BoutTurn`, the core's
:class:`~kassen.core.engine.Turn` with the arena's helpers — checks (with audience and guts bonuses),
FP, conditions, falls, offers, the agenda. ``turn.dice`` rolls every die, ``turn.tables`` are the
content's :class:`~kassen.arena.rules.ArenaRules`; only ``turn.state`` and ``turn.events`` change.
"""

from __future__ import annotations

__all__ = ["BoutTurn", "as_bout_turn"]

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from kassen.arena.bout.reading import CheckTerms, can_guts, check_terms, fighter_ht_terms
from kassen.arena.bout.state import BoutState, FpThresholds, Offer, Result, Task
from kassen.arena.checks import CheckResult, roll_check
from kassen.arena.fighter import Cause, Fall, FighterState
from kassen.arena.knockback import landing_facing
from kassen.arena.rules import ArenaRules, DiceSpec, dice_notation
from kassen.arena.terms import CheckKind, Condition, Facing, MatchFormat, Posture
from kassen.core.engine import Turn
from kassen.core.errors import KassenError
from kassen.core.events import Event
from kassen.core.explain import Step
from kassen.core.fastreplace import replace, replacer
from kassen.dice import Expression, RollResult, parse, roll
from kassen.i18n import N_, S_

#: The bout's hottest copies, each written once for its field (kassen.core.fastreplace.replacer).
_with_fighters = replacer(BoutState, "fighters")
with_agenda = replacer(BoutState, "agenda")
with_slot = replacer(BoutState, "slot")
_with_next_hit = replacer(BoutState, "next_hit")
with_offers = replacer(BoutState, "offers")
_with_fp = replacer(FighterState, "fp")
_with_position = replacer(FighterState, "position")
_with_lost = replacer(FighterState, "lost")
#: Fighter copies for the fields the bout's hot rules change (shared by the flow, actions and tasks).
with_posture_fall = replacer(FighterState, "posture", "fall")
with_guards = replacer(FighterState, "guards")
with_no_defense = replacer(FighterState, "no_defense")
_with_stun_cause = replacer(FighterState, "stun_cause")


#: Each kind of check's label in its explanation.
_LABELS = {kind: f"{kind.value} check" for kind in CheckKind}

#: An event of every field given, written once for the class (kassen.core.fastreplace.replacer: plain
#: stores, where Event(...) goes through the class call and a descriptor call for each field), over
#: :data:`_EVENT`, whose fields it all replaces.
_event = replacer(Event, "kind", "data", "rule", "automatic")
_EVENT = Event("")


@lru_cache(maxsize=256)
def _expression(dice: int, adds: int) -> Expression:
    """The parsed damage expression of ``dice`` d6 and ``adds`` (an immutable value)."""
    return parse(dice_notation(dice, adds))


class LaterData(Mapping[str, Any]):
    """An event's data, built by ``build(*args)`` when first read (explanations on demand): a battle
    played to its end never reads most of its events' explanation steps, which only its log, report or
    view shows; those read this mapping like any other, with the very content an eager build would give.
    ``build`` may only read values that never change (the frozen records of the moment it logs). A
    module-level ``build`` with its ``args`` keeps one tuple with the fight's history where a closure
    would keep a function and a cell for every value it reads (fewer objects for the collector)."""

    __slots__ = ("_args", "_build", "_data")

    def __init__(self, build: Callable[..., dict[str, Any]], *args: Any) -> None:
        self._build: Callable[..., dict[str, Any]] | None = build
        self._args = args
        self._data: dict[str, Any] | None = None

    def _built(self) -> dict[str, Any]:
        data = self._data
        if data is None:
            assert self._build is not None
            data = self._data = self._build(*self._args)
            self._build = None  # what it read is no longer needed
            self._args = ()
        return data

    def __getitem__(self, key: str) -> Any:
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())

    def __repr__(self) -> str:
        return repr(self._built())


class BoutTurn(Turn[BoutState]):
    """One action's working copy (see the module notes). While the action runs, the agenda is kept
    here, apart from ``state`` (:meth:`next_task`, :meth:`push`, :attr:`agenda`): an action takes and
    schedules some fifty tasks, each of which would otherwise copy the whole bout; :meth:`settled`
    writes it back into the state the action leaves."""

    __slots__ = ("_tasks", "rules")

    def __init__(self, state: BoutState, dice: Any, tables: ArenaRules) -> None:
        super().__init__(state, dice, tables)
        #: ``tables``, typed: the content's rules (read a hundred times an action: a slot, no property)
        self.rules = tables
        #: The agenda, next task last; None: still the state's own, untouched by this action.
        self._tasks: list[Task] | None = None

    def _held(self) -> list[Task]:
        tasks = self._tasks
        if tasks is None:
            tasks = self._tasks = list(reversed(self.state.agenda))
        return tasks

    @property
    def agenda(self) -> tuple[Task, ...]:
        """The tasks scheduled, next first."""
        tasks = self._tasks
        return self.state.agenda if tasks is None else tuple(reversed(tasks))

    def set_agenda(self, tasks: Sequence[Task]) -> None:
        self._tasks = list(reversed(tasks))

    def next_task(self) -> Task | None:
        """The next task, taken off the agenda (None: nothing scheduled)."""
        tasks = self._tasks
        if tasks is None:
            if not self.state.agenda:
                return None
            tasks = self._held()
        return tasks.pop() if tasks else None

    def settled(self) -> BoutState:
        """The bout with the agenda this action left."""
        tasks = self._tasks
        if tasks is not None:
            self._tasks = None
            self.state = with_agenda(self.state, tuple(reversed(tasks)))
        return self.state

    def log(self, kind: str, rule: str = "", *, automatic: bool = True, **data: Any) -> None:
        """Record an event (the core's :meth:`~kassen.core.engine.Turn.log`), the record written by
        :data:`_event`: some eighty events a battle."""
        if self.record:
            self.events.append(_event(_EVENT, kind, data, rule, automatic))

    def log_later(
        self,
        kind: str,
        rule: str,
        build: Callable[..., dict[str, Any]],
        *args: Any,
        automatic: bool = True,
    ) -> None:
        """Record an event whose data ``build(*args)`` makes when first read (:class:`LaterData`)."""
        if self.record:
            self.events.append(_event(_EVENT, kind, LaterData(build, *args), rule, automatic))

    # small helpers
    def f(self, fid: str) -> FighterState:
        # BoutState.fighter's search, without its call: asked a hundred times an action
        for f in self.state.fighters:
            if f.profile.id == fid:
                return f
        return self.state.fighter(fid)  # none: its error

    def put(self, fs: FighterState) -> None:
        fid = fs.profile.id
        fighters = self.state.fighters
        if len(fighters) == 2:  # most bouts: either of the two, no search, no slices
            first, second = fighters
            if first.profile.id == fid:
                self.state = _with_fighters(self.state, (fs, second))
                return
            if second.profile.id == fid:
                self.state = _with_fighters(self.state, (first, fs))
                return
        elif fighters and fighters[0].profile.id == fid:  # the first: no search
            self.state = _with_fighters(self.state, (fs, *fighters[1:]))
            return
        for i, x in enumerate(fighters):
            if x.profile.id == fid:
                self.state = _with_fighters(self.state, (*fighters[:i], fs, *fighters[i + 1 :]))
                return
        self.state = replace(self.state)  # none of the bout's: the state as it was, copied as before

    def push(self, *tasks: Task) -> None:
        """Run ``tasks`` next, before anything already on the agenda."""
        held = self._tasks
        if held is None:
            held = self._held()
        held.extend(reversed(tasks))

    def offer(self, offer: Offer) -> None:
        self.state = with_offers(self.state, (*self.state.offers, offer))

    def match(self) -> bool:
        return self.state.format is MatchFormat.MATCH

    def next_hit_id(self) -> int:
        n = self.state.next_hit
        self.state = _with_next_hit(self.state, n + 1)
        return n

    def end_slot(self) -> None:
        self.state = with_slot(self.state, self.state.slot + 1)

    def finish(self, winner: str | None, reason: str) -> None:
        """The bout is over: nothing scheduled or offered is left."""
        self._tasks = None
        self.state = replace(
            self.state, result=Result(winner, reason, self.state.subturn), agenda=(), offers=()
        )
        self.log("bout_over", "AR.OUT.1", winner=winner, reason=reason, subturn=self.state.subturn)

    # rolls
    def check(
        self,
        fid: str,
        kind: CheckKind,
        base: int,
        base_reason: str,
        mods: Sequence[Step],
        rule: str,
        *,
        automatic: bool = True,
        ht_based: bool = False,
        **data: Any,
    ) -> CheckResult:
        """Roll a check for ``fid``, with audience bonuses (AR.AUD.3) and, on HT checks its plan names,
        the guts bonus (AR.GUT.3; one per check, AR.RD.6); logs it (``data``: more to log with it)."""
        terms = check_terms(
            self.f(fid), kind, base, base_reason, mods, rule, ht_based=ht_based, rules=self.rules
        )
        return self._roll_terms(fid, kind, terms, rule, automatic, data)

    def _roll_terms(
        self, fid: str, kind: CheckKind, terms: CheckTerms, rule: str, automatic: bool, data: dict[str, Any]
    ) -> CheckResult:
        """Take the check's bonuses (the audience bonus used up, the guts bonus paid), then roll it."""
        if terms.audience is not None:
            f = self.f(fid)
            self.put(replace(f, check_bonuses=tuple(b for b in f.check_bonuses if b is not terms.audience)))
        if terms.guts_fp:
            self.lose_fp(fid, terms.guts_fp, "AR.GUT.3", N_("guts bonus"))
        return self._roll(fid, kind, terms.target, terms.steps, rule, automatic, data)

    def roll_check(
        self,
        fid: str,
        kind: CheckKind,
        target: int,
        target_steps: Sequence[Step],
        rule: str,
        *,
        automatic: bool = True,
        **data: Any,
    ) -> CheckResult:
        """Roll 3d6 against ``target`` (AR.CORE.1) and log the check with the steps to its target."""
        return self._roll(fid, kind, target, tuple(target_steps), rule, automatic, data)

    def _roll(
        self,
        fid: str,
        kind: CheckKind,
        target: int,
        steps: tuple[Step, ...],
        rule: str,
        automatic: bool,
        data: dict[str, Any],
    ) -> CheckResult:
        """:meth:`roll_check` with the data to log as a dict (passed on, not unpacked at every call)."""
        result = roll_check(target, self.dice, rules=self.rules.checks, label=_LABELS[kind])
        self.log_later("check", rule, _check_data, fid, kind, data, result, steps, automatic=automatic)
        return result

    def ht_check(self, fid: str, kind: CheckKind, rule: str, mods: Sequence[Step] = ()) -> CheckResult:
        """An HT check, with the penalties in force on HT (none by default: shock is on DX and IQ)."""
        terms = fighter_ht_terms(self.state, self.f(fid), kind, rule, self.rules, mods)
        return self._roll_terms(fid, kind, terms, rule, True, {})

    def roll_damage(self, spec: DiceSpec, bonus: int, label: str, rule: str, fid: str) -> int:
        dice, adds = spec.dice, spec.adds + bonus
        # the expression parsed once for its dice and adds, where roll() would look the text up in the
        # dice parser's cache at every roll, hashing its limits record twice
        result = roll(_expression(dice, adds), self.dice)
        self.log_later("damage_roll", rule, _damage_roll_data, fid, label, result)
        return result.total

    # FP
    def lose_fp(self, fid: str, amount: int, rule: str, reason: str) -> None:
        """Spend FP now; the thresholds (AR.FTG.2-5) crossed from the FP before to the FP after are looked
        at right after the current task, once: a spend right after another that is still waiting joins
        its task (one look from the first FP to the last)."""
        f = self.f(fid)
        before = f.fp
        fp = before - amount
        over = 0
        if fp < 0:
            over = -fp
            fp = 0
        self.put(_with_fp(f, fp))
        self.log("fatigue", rule, fighter=fid, fp_before=before, fp_after=fp, reason=reason)
        if over and self.rules.injury.fatigue.below_zero.reading == "hp":
            g = self.f(fid)
            self.put(replace(g, hp=g.hp - over))
            self.log("fatigue_below_zero", "AR.GAP.2", fighter=fid, hp_lost=over, hp_after=g.hp - over)
        tasks = self._held()
        head = tasks[-1] if tasks else None
        if isinstance(head, FpThresholds) and head.fighter == fid and head.after == before:
            tasks.pop()
            before = head.before
        tasks.append(FpThresholds(fid, before, fp))  # push(), on the agenda already in hand

    # conditions
    def lose(self, fid: str, rule: str, reason: str) -> None:
        f = self.f(fid)
        if f.lost or not self.match():
            return
        self.put(_with_lost(f, True))
        self.log("match_lost", rule, fighter=fid, reason=reason)

    def release_holds(self, fid: str, rule: str = "AR.STN.1") -> None:
        f = self.f(fid)
        if f.grappling is not None:
            self.log("grapple_released", rule, fighter=fid, target=f.grappling)
            self.put(replace(f, grappling=None))

    # positions (the AR.GAP.2 position model)
    def place(self, fid: str, position: int) -> None:
        """Put ``fid`` at ``position`` metres; holds whose two fighters end up farther apart than the
        grapple reach are released."""
        self.put(_with_position(self.f(fid), position))
        reach = self.rules.match.position.grapple_reach
        for g in self.state.fighters:
            if g.grappling is not None and abs(g.position - self.f(g.grappling).position) > reach:
                self.release_holds(g.id, "AR.GAP.2")

    def fall_over(self, fid: str, facing: Facing, rule: str) -> None:
        """Fall over (転倒): aerial now, lying at the end of the subturn (AR.KNB.6)."""
        f = self.f(fid)
        if f.posture is Posture.LYING or (f.fall is not None and f.fall.falls):
            return
        before = f.fall.from_posture if f.fall is not None else f.posture
        fall = Fall(True, facing, Posture.LYING, self.rules.damage.basic.default_location, before)
        self.put(with_posture_fall(f, Posture.AERIAL, fall))
        self.log("falls", rule, fighter=fid, facing=facing.value, lands=N_("at the end of the subturn"))

    def incapacity_facing(self, cause: Cause) -> Facing:
        """How a fighter falls from unconsciousness or death (AR.KNB.7 by the AR.RD.9 reading in data):
        face up (the state, not the damage, makes it fall), or by the tier of the hit that caused it."""
        if self.rules.falling.knockback.facing.incapacity_fall == "by_hit_tier" and cause.location:
            return landing_facing(self.rules.locations.locations[cause.location].tier)
        return Facing.FACE_UP

    def incapacitate(
        self, fid: str, condition: Condition, rule: str, cause: Cause, *, automatic: bool = False
    ) -> None:
        f = self.f(fid)
        if f.has(Condition.DEAD):
            return
        if condition is Condition.DEAD:
            self.put(f.with_condition(Condition.DEAD))
            self.log("dead", rule, fighter=fid, hp=f.hp)
            self.release_holds(fid)
            self.fall_over(fid, self.incapacity_facing(cause), "AR.KNB.7")
            self.lose(fid, "AR.OUT.1", "dead")
            return
        if f.incapacitated:
            self.log(
                "no_further_effect",
                rule,
                fighter=fid,
                condition=condition.value,
                already=[c.value for c in f.conditions],
            )
            return
        self.put(with_guards(f.with_condition(condition), ()))
        self.log("incapacitated", rule, fighter=fid, condition=condition.value)
        self.release_holds(fid)
        if can_guts(self.f(fid), self.rules):
            self.offer(Offer(fid, condition.value, rule, cause, automatic))
            self.log("override_offered", "AR.GUT.1", fighter=fid, condition=condition.value)
        else:
            self.stays(fid, condition.value, rule, cause)

    def stun(self, fid: str, rule: str, cause: Cause, *, automatic: bool) -> None:
        f = self.f(fid)
        if f.incapacitated:
            return
        if f.stunned:
            # AR.RD.8: the stun keeps the cause of the hit that brought it about, or (the other reading)
            # takes the latest stunning hit's; no new state arose, so nothing new is offered
            latest = self.rules.injury.guts.stun_cause == "latest_hit"
            if latest and cause.hit_id and cause.hit_id != f.stun_cause.hit_id:
                self.put(replace(f, stun_cause=cause))
                self.log(
                    "stun_renewed",
                    "AR.RD.8",
                    fighter=fid,
                    hit=cause.hit_id,
                    final=cause.uncapped_final,
                    margin_of_loss=cause.margin_of_loss,
                )
            return
        self.put(_with_stun_cause(f.with_condition(Condition.STUNNED), cause))
        self.log("stunned", rule, fighter=fid)
        self.release_holds(fid)
        if can_guts(self.f(fid), self.rules):
            self.offer(Offer(fid, Condition.STUNNED.value, rule, cause, automatic))
            self.log("override_offered", "AR.GUT.1", fighter=fid, condition=Condition.STUNNED.value)

    def stays(self, fid: str, condition: str, rule: str, cause: Cause | None = None) -> None:
        """An offered (or unoverridable) state stands: incapacity falls and, in a match, loses."""
        if condition == "helpless":
            self.lose(fid, "AR.FTG.4", N_("FP 1 not overridden"))
            return
        if condition == Condition.STUNNED.value:
            return
        self.fall_over(fid, self.incapacity_facing(cause or Cause()), "AR.KNB.7")
        self.lose(fid, "AR.OUT.1", S_("{condition} not overridden", condition=condition))


def as_bout_turn(turn: Turn[BoutState]) -> BoutTurn:
    """``turn``, which must be the :class:`BoutTurn` the arena's start() made."""
    if not isinstance(turn, BoutTurn):
        raise KassenError("an arena action is resolved in the turn the arena's start() made")
    return turn


def _check_data(
    fid: str, kind: CheckKind, data: dict[str, Any], result: CheckResult, steps: tuple[Step, ...]
) -> dict[str, Any]:
    """A check event's data (AR.CORE.1): who, which check, what was logged with it, the roll, and the
    steps to the target followed by the roll's own."""
    out = result.to_json()
    out["steps"] = [s.to_json() for s in (*steps, *result.steps)]
    return {"fighter": fid, "check": kind.value, **data, **out}


def _damage_roll_data(fid: str, label: str, result: RollResult) -> dict[str, Any]:
    """A damage roll event's data: who, what for, and the roll."""
    return {"fighter": fid, "what": label, **result.to_json()}
