"""The arena bout: a ruleset over the shared :class:`~kassen.core.events.Chronicle`, in subturns.

State is frozen dataclasses (:class:`BoutState`); actions are typed objects; :meth:`ArenaRuleset.apply`
is pure: ``apply(state, action, rng) -> (state, events)``. An illegal action raises
:class:`~kassen.core.errors.IllegalActionError` naming the rule, and nothing changes.

Everything the rules schedule fires by itself and is logged as an automatic :class:`Event`: the
popularity checks at the start of a match (AR.AUD.2), fatigue every 10 subturns (AR.FTG.1), stun
recovery each subturn (AR.STN.2), HT checks at 0 HP (AR.HP.2), death checks (AR.HP.3), landings at the
end of the subturn (AR.KNB.6), shock expiry after the next subturn (AR.INJ.2, AR.CORE.3). The engine
keeps these on an *agenda* of tasks inside the state, runs it until a fighter must decide, and stops
there; a cap on the number of tasks one action may run keeps it from looping forever.

Decisions are either a fighter's slot (attack, guard, rise, wait...) or an *offer*: when a fighter
becomes stunned or incapacitated, or drops to FP 1 in match format, it may at once try to override it
(guts check AR.GUT.1, or an audience point AR.AUD.3) or decline; in match format declining an
incapacitated state loses (AR.OUT.1, AR.FTG.4). Overriding an automatic unconsciousness or stun exempts
that damage's others (AR.INJ.10). The bout ends once an action's consequences have all resolved and at
most one side still stands.
"""

from __future__ import annotations

__all__ = [
    "RULESET",
    "Action",
    "ArenaRuleset",
    "Attack",
    "Begin",
    "BoutState",
    "Cheer",
    "Decline",
    "GiveUp",
    "Grapple",
    "Guts",
    "HitRecord",
    "Offer",
    "Result",
    "Rise",
    "SetGuard",
    "Task",
    "Wait",
    "attack_location",
    "attack_target",
    "bout_actor",
    "can_defend",
    "defense_target",
    "guts_target",
    "new_bout",
    "shock_modifier",
]

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from kassen.arena.audience import audience_effect, popularity
from kassen.arena.checks import CheckResult, effective_target, resolve_contest, roll_check
from kassen.arena.damage import (
    DamageResult,
    fall_modifiers,
    plan_fall,
    resolve_damage,
    round_ratio,
    strength_damage,
)
from kassen.arena.fighter import Cause, CheckBonus, Fall, Fighter, FighterState, Guard, Shock
from kassen.arena.injury import (
    death_thresholds,
    guts_penalties,
    injury_effects,
    shock_penalty,
    st_check_modifier,
)
from kassen.arena.knockback import knockback_distance, landing_facing, limb_knockback_outcome, posture_factor
from kassen.arena.rules import ArenaRules, AudienceEffectKind, DiceSpec, load_rules
from kassen.arena.terms import CheckKind, Condition, DamageSource, Facing, MatchFormat, Posture
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event, JSONValue, register_ruleset
from kassen.core.explain import Step
from kassen.core.rng import Rng
from kassen.core.serial import dump, load
from kassen.dice import roll

#: At most this many agenda tasks run inside one action (principle 8: a queue that cannot loop forever).
MAX_TASKS_PER_ACTION = 20_000


# -- actions -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Begin:
    """The referee starts the bout: popularity checks (match format), then subturn 1."""


@dataclass(frozen=True, slots=True)
class Attack:
    """Attack ``target`` at ``location`` (``None``: the location the rules give damage that names none,
    ``damage.basic.default_location``, AR.DMG.1); ``all_out`` is an all-out attack (+4, no defence until
    the next slot, 1 FP: AR.FTG.1)."""

    actor: str
    target: str
    location: str | None = None
    all_out: bool = False


@dataclass(frozen=True, slots=True)
class Grapple:
    """Seize ``target`` (a quick contest of skill against defence)."""

    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class SetGuard:
    """Cover ``location`` with ``arm`` (庇い); an empty location drops that arm's guard."""

    actor: str
    arm: str
    location: str = ""


@dataclass(frozen=True, slots=True)
class Rise:
    """One step up: lying → sitting → standing."""

    actor: str


@dataclass(frozen=True, slots=True)
class Wait:
    """Do nothing this slot (a stunned fighter may only defend: AR.STN.1)."""

    actor: str


@dataclass(frozen=True, slots=True)
class GiveUp:
    """Give up (ギブアップ): an incapacitated state (AR.OUT.1)."""

    actor: str


@dataclass(frozen=True, slots=True)
class Guts:
    """A guts check (AR.GUT.1): 2 FP and a Will check, against an offered state or one's own stun."""

    actor: str


@dataclass(frozen=True, slots=True)
class Cheer:
    """Spend an audience point on ``effect`` (AR.AUD.2-3); a free action."""

    actor: str
    effect: str


@dataclass(frozen=True, slots=True)
class Decline:
    """Let an offered state stand."""

    actor: str


Action = Begin | Attack | Grapple | SetGuard | Rise | Wait | GiveUp | Guts | Cheer | Decline

_ACTION_KINDS: dict[str, type] = {
    "begin": Begin,
    "attack": Attack,
    "grapple": Grapple,
    "guard": SetGuard,
    "rise": Rise,
    "wait": Wait,
    "give_up": GiveUp,
    "guts": Guts,
    "cheer": Cheer,
    "decline": Decline,
}
_KIND_OF = {cls: kind for kind, cls in _ACTION_KINDS.items()}


# -- hits, offers, tasks --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HitRecord:
    """One hit on its way through the injury rules."""

    hit_id: int
    victim: str
    damage: DamageResult
    attacker: str | None = None
    painful: bool = False
    margin_of_loss: int = 0

    @property
    def cause(self) -> Cause:
        return Cause(self.damage.reduced, self.margin_of_loss, self.hit_id)


@dataclass(frozen=True, slots=True)
class Offer:
    """A fighter may override ``condition`` now (``"helpless"``: FP 1). ``automatic`` marks an
    automatic unconsciousness or stun, whose override exempts the same hit's others (AR.INJ.10)."""

    fighter: str
    condition: str
    rule: str
    cause: Cause = field(default_factory=Cause)
    automatic: bool = False


@dataclass(frozen=True, slots=True)
class StartSubturn:
    pass


@dataclass(frozen=True, slots=True)
class EndSubturn:
    pass


@dataclass(frozen=True, slots=True)
class PopularityCheck:
    fighter: str


@dataclass(frozen=True, slots=True)
class FatigueTick:
    fighter: str


@dataclass(frozen=True, slots=True)
class StunRecovery:
    fighter: str


@dataclass(frozen=True, slots=True)
class ZeroHpCheck:
    fighter: str


@dataclass(frozen=True, slots=True)
class Land:
    fighter: str


@dataclass(frozen=True, slots=True)
class ExpireEffects:
    pass


@dataclass(frozen=True, slots=True)
class ApplyHit:
    hit: HitRecord


@dataclass(frozen=True, slots=True)
class DeathCheck:
    hit: HitRecord
    threshold: int


@dataclass(frozen=True, slots=True)
class Death:
    hit: HitRecord


@dataclass(frozen=True, slots=True)
class HeadBlow:
    hit: HitRecord


@dataclass(frozen=True, slots=True)
class VitalCheck:
    hit: HitRecord


@dataclass(frozen=True, slots=True)
class AutoStun:
    hit: HitRecord
    rule: str


@dataclass(frozen=True, slots=True)
class KnockdownCheck:
    hit: HitRecord


@dataclass(frozen=True, slots=True)
class FallStunCheck:
    hit: HitRecord


@dataclass(frozen=True, slots=True)
class Knockback:
    hit: HitRecord
    distance: int


@dataclass(frozen=True, slots=True)
class AddShock:
    hit: HitRecord


@dataclass(frozen=True, slots=True)
class SpendFp:
    fighter: str
    amount: int
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class FpThresholds:
    fighter: str
    before: int


Task = (
    StartSubturn
    | EndSubturn
    | PopularityCheck
    | FatigueTick
    | StunRecovery
    | ZeroHpCheck
    | Land
    | ExpireEffects
    | ApplyHit
    | DeathCheck
    | Death
    | HeadBlow
    | VitalCheck
    | AutoStun
    | KnockdownCheck
    | FallStunCheck
    | Knockback
    | AddShock
    | SpendFp
    | FpThresholds
)


@dataclass(frozen=True, slots=True)
class Result:
    """How the bout ended: the winning side (None: nobody, a draw) and why."""

    winner: str | None
    reason: str
    subturn: int


@dataclass(frozen=True, slots=True)
class BoutState:
    """A bout: the fighters, the acting order, the subturn and slot, the agenda of scheduled tasks,
    pending offers, and the result. ``overrides`` is the canonical JSON of the rule overrides in force."""

    fighters: tuple[FighterState, ...]
    order: tuple[str, ...]
    format: MatchFormat = MatchFormat.MATCH
    ground: str = "hard"
    overrides: str = "{}"
    name: str = ""
    started: bool = False
    subturn: int = 0
    slot: int = 0
    agenda: tuple[Task, ...] = ()
    offers: tuple[Offer, ...] = ()
    next_hit: int = 1
    result: Result | None = None

    def fighter(self, fid: str) -> FighterState:
        for f in self.fighters:
            if f.id == fid:
                return f
        raise KassenError(f"no fighter {fid!r} in this bout (fighters: {', '.join(self.order)})")

    @property
    def rules(self) -> ArenaRules:
        return _rules_of(self.overrides)


def _rules_of(overrides: str) -> ArenaRules:
    data = json.loads(overrides)
    return load_rules(data if data else None)


def new_bout(
    fighters: Sequence[Fighter],
    *,
    format: MatchFormat = MatchFormat.MATCH,
    ground: str | None = None,
    overrides: dict[str, Any] | None = None,
    name: str = "",
    postures: dict[str, Posture] | None = None,
    altitudes: dict[str, Fraction] | None = None,
) -> BoutState:
    """A bout at its start. The acting order is by the data's ``match.order_by`` (DX, then HT; ties keep
    the given order)."""
    over = json.dumps(overrides or {}, sort_keys=True, separators=(",", ":"))
    rules = _rules_of(over)
    ids = [f.id for f in fighters]
    if len(set(ids)) != len(ids):
        raise KassenError(f"fighter ids must be unique, got {ids}")
    if len({f.side for f in fighters}) < 2:
        raise KassenError("a bout needs fighters on at least two sides")
    g = ground or rules.falling.falling.default_ground
    if g not in rules.falling.falling.ground:
        raise KassenError(f"unknown ground {g!r} (known: {', '.join(rules.falling.falling.ground)})")
    keys = rules.match.match.order_by
    ordered = sorted(fighters, key=lambda f: tuple(-f.attribute(k) for k in keys))
    states = tuple(
        FighterState.fresh(
            f,
            posture=(postures or {}).get(f.id, Posture.STANDING),
            altitude=(altitudes or {}).get(f.id, Fraction(0)),
        )
        for f in fighters
    )
    return BoutState(states, tuple(f.id for f in ordered), format, g, over, name)


# -- reading the state (pure) -----------------------------------------------------------------------------
def bout_actor(state: BoutState) -> str | None:
    """Who must decide now: the fighter of the first offer, else the fighter whose slot it is; None
    before the bout begins (the referee's Begin) and after it ends."""
    if state.result is not None or not state.started:
        return None
    if state.offers:
        return state.offers[0].fighter
    if state.slot < len(state.order):
        return state.order[state.slot]
    return None


def _helpless(f: FighterState, rules: ArenaRules) -> bool:
    return f.fp == rules.injury.fatigue.helpless_at


def shock_modifier(f: FighterState, rules: ArenaRules) -> Step | None:
    """The shock-and-pain penalty in force on DX and IQ (AR.INJ.2-4, AR.RD.1), as a modifier step."""
    shocks = [s.value for s in f.shocks if s.kind == "shock"]
    pains = [s.value for s in f.shocks if s.kind == "pain"]
    penalty = shock_penalty(shocks, pains, rules)
    if not penalty:
        return None
    return Step(-penalty, f"shock/pain -{penalty} on DX and IQ ({rules.injury.shock.combine})", "AR.INJ.4")


def _grappled_modifier(state: BoutState, f: FighterState, rules: ArenaRules) -> Step | None:
    if any(o.grappling == f.id for o in state.fighters if o.id != f.id):
        return Step(rules.match.combat.grapple.dx_penalty, "grappled", "AR.GAP.2")
    return None


def can_defend(f: FighterState, rules: ArenaRules) -> bool:
    """A defender rolls a defence unless incapacitated, at FP 1, or after its own all-out attack."""
    return not (f.incapacitated or f.lost or _helpless(f, rules) or f.no_defense)


def attack_location(location: str | None, rules: ArenaRules) -> str:
    """Where an attack aims: ``location``, or, when it names none, the data's
    ``damage.basic.default_location`` (AR.DMG.1)."""
    return rules.damage.basic.default_location if location is None else location


def attack_target(
    state: BoutState, attacker: str, target: str, location: str | None, all_out: bool
) -> tuple[int, tuple[Step, ...]]:
    """The attacker's effective skill: skill + to-hit of the location (``None``: the data's default
    location) + posture + all-out bonus, − shock (skill is DX-based, AR.INJ.2), − grappled (AR.GAP.2)."""
    rules = state.rules
    a = state.fighter(attacker)
    loc = rules.locations.find(attack_location(location, rules))
    combat = rules.match.combat
    mods = [
        Step(loc.to_hit, f"aimed at the {loc.name}", "AR.GAP.1"),
        Step(combat.postures[a.posture].attack, f"attacking from {a.posture.value}", "AR.GAP.2"),
    ]
    if all_out:
        mods.append(Step(combat.all_out.attack_bonus, "all-out attack", "AR.FTG.1"))
    for m in (shock_modifier(a, rules), _grappled_modifier(state, a, rules)):
        if m is not None:
            mods.append(m)
    return effective_target(a.profile.skill, "attack skill", mods, "AR.GAP.2")


def defense_target(state: BoutState, defender: str) -> tuple[int, tuple[Step, ...]]:
    """The defender's effective defence: defence + posture, −4 when stunned (AR.STN.1), − shock, −
    grappled."""
    rules = state.rules
    d = state.fighter(defender)
    mods = [
        Step(rules.match.combat.postures[d.posture].defense, f"defending from {d.posture.value}", "AR.GAP.2")
    ]
    if d.stunned:
        mods.append(Step(rules.injury.stun.defense_modifier, "stunned: defends at -4", "AR.STN.1"))
    for m in (shock_modifier(d, rules), _grappled_modifier(state, d, rules)):
        if m is not None:
            mods.append(m)
    return effective_target(d.profile.defense, "defence", mods, "AR.GAP.2")


def guts_target(f: FighterState, cause: Cause, rules: ArenaRules) -> tuple[int, tuple[Step, ...]]:
    """Will with the three guts penalties (AR.GUT.2) and any audience bonus for guts checks."""
    mods = list(guts_penalties(cause.uncapped_final, cause.margin_of_loss, f.guts_checks, rules))
    for b in f.check_bonuses:
        if CheckKind.GUTS in b.checks:
            mods.append(Step(b.amount, f"audience: {b.source}", "AR.AUD.3"))
            break
    return effective_target(f.profile.will, "Will", mods, "AR.GUT.1")


def _can_act(f: FighterState, rules: ArenaRules) -> bool:
    """Takes a slot: not out, not lost, not at FP 1, not aerial."""
    return not (
        f.incapacitated or f.lost or _helpless(f, rules) or not rules.match.combat.postures[f.posture].can_act
    )


def _active_targets(state: BoutState, actor: FighterState) -> list[FighterState]:
    return [
        t
        for t in state.fighters
        if t.profile.side != actor.profile.side and not t.lost and not t.has(Condition.DEAD)
    ]


def _override_effects(f: FighterState, condition: str, rules: ArenaRules) -> list[str]:
    """Audience effects a fighter may spend on an offer."""
    if f.audience_points <= 0:
        return []
    effects = rules.match.audience.effects
    if condition == "helpless":
        if rules.match.fp1_override.means != "audience":
            return []
        return [k for k, e in effects.items() if e.kind is AudienceEffectKind.RECOVER_FP]
    return [
        k
        for k, e in effects.items()
        if e.kind is AudienceEffectKind.CHECK_BONUS and CheckKind.GUTS in e.checks
    ]


def _can_guts(f: FighterState, rules: ArenaRules) -> bool:
    return f.fp >= rules.injury.guts.fp_cost and not f.has(Condition.DEAD)


# -- the ruleset ------------------------------------------------------------------------------------------
class ArenaRuleset:
    """The arena ruleset for :class:`~kassen.core.events.Chronicle` (registered as ``"arena"``)."""

    name = "arena"

    # -- legal actions ------------------------------------------------------------------------------------
    def legal_actions(self, state: BoutState) -> list[Action]:
        rules = state.rules
        if state.result is not None:
            return []
        if not state.started:
            return [Begin()]
        if state.offers:
            o = state.offers[0]
            f = state.fighter(o.fighter)
            offer_actions: list[Action] = []
            if o.condition != "helpless" and _can_guts(f, rules):
                offer_actions.append(Guts(f.id))
                offer_actions += [Cheer(f.id, e) for e in _override_effects(f, o.condition, rules)]
            elif o.condition == "helpless":
                offer_actions += [Cheer(f.id, e) for e in _override_effects(f, o.condition, rules)]
            offer_actions.append(Decline(f.id))
            return offer_actions
        fid = bout_actor(state)
        if fid is None:
            return []
        f = state.fighter(fid)
        out: list[Action] = []
        cheers: list[Action] = (
            [Cheer(fid, e) for e in rules.match.audience.effects] if f.audience_points else []
        )
        if f.stunned:
            out.append(Wait(fid))
            if _can_guts(f, rules):
                out.append(Guts(fid))
            return out + cheers + [GiveUp(fid)]
        for t in _active_targets(state, f):
            for loc in rules.locations.keys:
                out.append(Attack(fid, t.id, loc))
                out.append(Attack(fid, t.id, loc, all_out=True))
            if f.grappling != t.id:
                out.append(Grapple(fid, t.id))
        for arm in self._free_arms(f, rules):
            for loc in rules.locations.keys:
                if rules.locations.locations[loc].limb is None:
                    out.append(SetGuard(fid, arm, loc))
            if any(g.arm == arm for g in f.guards):
                out.append(SetGuard(fid, arm, ""))
        if f.posture in rules.match.combat.rise:
            out.append(Rise(fid))
        out.append(Wait(fid))
        return out + cheers + [GiveUp(fid)]

    @staticmethod
    def _free_arms(f: FighterState, rules: ArenaRules) -> list[str]:
        return [k for k, loc in rules.locations.locations.items() if loc.can_guard and k not in f.crippled]

    # -- validation -------------------------------------------------------------------------------------
    def _validate(self, state: BoutState, action: Action) -> None:
        rules = state.rules
        if not isinstance(action, tuple(_KIND_OF)):
            raise IllegalActionError(f"{action!r} is not an arena action", rule="AR.CORE.3")
        if state.result is not None:
            raise IllegalActionError("the bout is over", rule="AR.OUT.1")
        if not state.started:
            if not isinstance(action, Begin):
                raise IllegalActionError(
                    "the bout has not begun: the first action is begin", rule="AR.CORE.3"
                )
            return
        if isinstance(action, Begin):
            raise IllegalActionError("the bout has already begun", rule="AR.CORE.3")
        actor: str = action.actor
        if actor not in state.order:
            _unknown(actor, state)
        if state.offers:
            o = state.offers[0]
            if actor != o.fighter:
                raise IllegalActionError(
                    f"{o.fighter} must first decide whether to override {o.condition}", rule="AR.GUT.1"
                )
            if not isinstance(action, Guts | Cheer | Decline):
                raise IllegalActionError(
                    f"{actor} can only override {o.condition} or decline now", rule="AR.GUT.1"
                )
        else:
            if isinstance(action, Decline):
                raise IllegalActionError("there is nothing to decline", rule="AR.GUT.1")
            if actor != bout_actor(state):
                raise IllegalActionError(
                    f"it is {bout_actor(state)}'s slot in subturn {state.subturn}, not {actor}'s",
                    rule="AR.CORE.3",
                )
        f = state.fighter(actor)
        if isinstance(action, Guts):
            if state.offers and state.offers[0].condition == "helpless":
                raise IllegalActionError(
                    "a guts check overrides incapacity or stun, not FP 1", rule="AR.RD.6"
                )
            if not state.offers and not f.stunned:
                raise IllegalActionError(f"{actor} has nothing a guts check could override", rule="AR.GUT.1")
            if not _can_guts(f, rules):
                raise IllegalActionError(
                    f"a guts check costs {rules.injury.guts.fp_cost} FP; {actor} has {f.fp}", rule="AR.GUT.1"
                )
            return
        if isinstance(action, Cheer):
            if f.audience_points <= 0:
                raise IllegalActionError(f"{actor} has no audience point", rule="AR.AUD.2")
            if action.effect not in rules.match.audience.effects:
                raise IllegalActionError(f"unknown audience effect {action.effect!r}", rule="AR.AUD.3")
            if state.offers and action.effect not in _override_effects(f, state.offers[0].condition, rules):
                raise IllegalActionError(
                    f"{action.effect} does not help against {state.offers[0].condition}", rule="AR.AUD.3"
                )
            return
        if isinstance(action, Decline):
            return
        if isinstance(action, GiveUp | Wait):
            return
        if f.stunned:
            raise IllegalActionError(f"{actor} is stunned and may only defend", rule="AR.STN.1")
        if isinstance(action, Attack | Grapple):
            if action.target not in state.order:
                _unknown(action.target, state)
            t = state.fighter(action.target)
            if t.profile.side == f.profile.side:
                raise IllegalActionError(f"{action.target} is on {actor}'s side", rule="AR.GAP.2")
            if t.lost or t.has(Condition.DEAD):
                raise IllegalActionError(f"{action.target} is out of the bout", rule="AR.OUT.1")
            if isinstance(action, Attack):
                try:
                    rules.locations.find(attack_location(action.location, rules))
                except KassenError as exc:
                    raise IllegalActionError(str(exc), rule="AR.GAP.1") from None
            elif f.grappling == action.target:
                raise IllegalActionError(f"{actor} already holds {action.target}", rule="AR.GAP.2")
            return
        if isinstance(action, SetGuard):
            arm = rules.locations.locations.get(action.arm)
            if arm is None or not arm.can_guard:
                raise IllegalActionError(f"{action.arm!r} is not an arm that can guard", rule="AR.GAP.2")
            if action.arm in f.crippled:
                raise IllegalActionError(f"{actor}'s {arm.name} is crippled", rule="AR.DMG.6")
            if action.location:
                loc = rules.locations.locations.get(action.location)
                if loc is None or loc.limb is not None:
                    raise IllegalActionError(
                        f"an arm guards a location that is not a limb, not {action.location!r}",
                        rule="AR.GAP.2",
                    )
            elif not any(g.arm == action.arm for g in f.guards):
                raise IllegalActionError(f"{actor}'s {arm.name} guards nothing", rule="AR.GAP.2")
            return
        if isinstance(action, Rise) and f.posture not in rules.match.combat.rise:
            raise IllegalActionError(f"{actor} is {f.posture.value}: nothing to rise from", rule="AR.GAP.2")

    # -- apply ---------------------------------------------------------------------------------------------
    def apply(self, state: BoutState, action: Action, rng: Rng) -> tuple[BoutState, list[Event]]:
        if isinstance(action, Attack) and action.location is None:
            # an attack that names no location aims where the rules put such damage (AR.DMG.1)
            action = replace(action, location=attack_location(None, state.rules))
        self._validate(state, action)
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"{action!r} is not allowed now", rule="AR.GAP.2")
        b = _Bout(state, rng)
        _ACTION_HANDLERS[type(action)](b, action)
        b.advance()
        return b.state, b.events

    def is_over(self, state: BoutState) -> bool:
        return state.result is not None

    # -- JSON ----------------------------------------------------------------------------------------------
    def state_to_json(self, state: BoutState) -> JSONValue:
        return dump(state, BoutState)

    def state_from_json(self, data: JSONValue) -> BoutState:
        state: BoutState = load(data, BoutState)
        return state

    def action_to_json(self, action: Action) -> JSONValue:
        data = dump(action, type(action))
        return {"kind": _KIND_OF[type(action)], **data}

    def action_from_json(self, data: JSONValue) -> Action:
        if not isinstance(data, dict) or data.get("kind") not in _ACTION_KINDS:
            raise KassenError(f"not an arena action: {data!r} (kinds: {', '.join(_ACTION_KINDS)})")
        cls = _ACTION_KINDS[data["kind"]]
        action: Action = load({k: v for k, v in data.items() if k != "kind"}, cls)
        return action


def _unknown(fid: str, state: BoutState) -> None:
    raise IllegalActionError(
        f"no fighter {fid!r} in this bout (fighters: {', '.join(state.order)})", rule="AR.GAP.2"
    )


# -- the working copy inside one apply() ---------------------------------------------------------------------
class _Bout:
    """The state being built by one ``apply``: replaced step by step, never the caller's object."""

    def __init__(self, state: BoutState, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.rules = state.rules
        self.events: list[Event] = []

    # small helpers
    def f(self, fid: str) -> FighterState:
        return self.state.fighter(fid)

    def put(self, fs: FighterState) -> None:
        self.state = replace(
            self.state, fighters=tuple(fs if x.id == fs.id else x for x in self.state.fighters)
        )

    def push(self, *tasks: Task) -> None:
        """Run ``tasks`` next, before anything already on the agenda."""
        self.state = replace(self.state, agenda=(*tasks, *self.state.agenda))

    def offer(self, offer: Offer) -> None:
        self.state = replace(self.state, offers=(*self.state.offers, offer))

    def log(self, kind: str, rule: str, *, automatic: bool = True, **data: Any) -> None:
        self.events.append(Event(kind, data, rule, automatic))

    def match(self) -> bool:
        return self.state.format is MatchFormat.MATCH

    # checks
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
    ) -> CheckResult:
        """Roll a check for ``fid``, with audience bonuses (AR.AUD.3) and, on HT checks its plan names,
        the guts bonus (AR.GUT.3; one per check, AR.RD.6); logs it."""
        f = self.f(fid)
        mods = list(mods)
        g = self.rules.injury.guts
        audience = next((b for b in f.check_bonuses if kind in b.checks), None)
        plan = f.profile.guts_bonus
        guts_bonus = (
            ht_based
            and kind in plan.checks
            and f.fp - g.bonus_fp_cost >= plan.min_fp_after
            and f.fp >= g.bonus_fp_cost
        )
        if audience is not None and guts_bonus and g.one_bonus_per_check == "any":
            if audience.amount >= g.bonus:
                guts_bonus = False
                mods.append(Step(0, "one bonus per check: the audience bonus, no guts bonus", "AR.RD.6"))
            else:
                audience = None
                mods.append(
                    Step(0, "one bonus per check: the guts bonus, the audience bonus kept", "AR.RD.6")
                )
        if audience is not None:
            mods.append(Step(audience.amount, f"audience: {audience.source}", "AR.AUD.3"))
            f = replace(f, check_bonuses=tuple(b for b in f.check_bonuses if b is not audience))
            self.put(f)
        if guts_bonus:
            mods.append(Step(g.bonus, f"guts bonus: {g.bonus_fp_cost} FP for +{g.bonus}", "AR.GUT.3"))
            self.lose_fp(fid, g.bonus_fp_cost, "AR.GUT.3", "guts bonus")
        target, tsteps = effective_target(base, base_reason, mods, rule)
        result = roll_check(target, self.rng, rules=self.rules.checks, label=f"{kind.value} check")
        data = result.to_json()
        data["steps"] = [s.to_json() for s in (*tsteps, *result.steps)]
        self.log("check", rule, automatic=automatic, fighter=fid, check=kind.value, **data)
        return result

    def ht_check(self, fid: str, kind: CheckKind, rule: str, mods: Sequence[Step] = ()) -> CheckResult:
        return self.check(fid, kind, self.f(fid).profile.ht, "HT", mods, rule, ht_based=True)

    # FP
    def lose_fp(self, fid: str, amount: int, rule: str, reason: str) -> None:
        """Spend FP now; its thresholds (AR.FTG.2-5) are looked at right after the current task."""
        f = self.f(fid)
        before = f.fp
        fp = before - amount
        over = 0
        if fp < 0:
            over = -fp
            fp = 0
        self.put(replace(f, fp=fp))
        self.log("fatigue", rule, fighter=fid, fp_before=before, fp_after=fp, reason=reason)
        if over and self.rules.injury.fatigue.below_zero.reading == "hp":
            g = self.f(fid)
            self.put(replace(g, hp=g.hp - over))
            self.log("fatigue_below_zero", "AR.GAP.2", fighter=fid, hp_lost=over, hp_after=g.hp - over)
        self.push(FpThresholds(fid, before))

    # conditions
    def lose(self, fid: str, rule: str, reason: str) -> None:
        f = self.f(fid)
        if f.lost or not self.match():
            return
        self.put(replace(f, lost=True))
        self.log("match_lost", rule, fighter=fid, reason=reason)

    def release_holds(self, fid: str) -> None:
        f = self.f(fid)
        if f.grappling is not None:
            self.log("grapple_released", "AR.STN.1", fighter=fid, target=f.grappling)
            self.put(replace(f, grappling=None))

    def fall_over(self, fid: str, facing: Facing, rule: str) -> None:
        """Fall over (転倒): aerial now, lying at the end of the subturn (AR.KNB.6)."""
        f = self.f(fid)
        if f.posture is Posture.LYING or (f.fall is not None and f.fall.falls):
            return
        before = f.fall.from_posture if f.fall is not None else f.posture
        fall = Fall(True, facing, Posture.LYING, self.rules.damage.basic.default_location, before)
        self.put(replace(f, posture=Posture.AERIAL, fall=fall))
        self.log("falls", rule, fighter=fid, facing=facing.value, lands="at the end of the subturn")

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
            self.fall_over(fid, Facing.FACE_UP, "AR.KNB.7")
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
        self.put(replace(f.with_condition(condition), guards=()))
        self.log("incapacitated", rule, fighter=fid, condition=condition.value)
        self.release_holds(fid)
        if _can_guts(self.f(fid), self.rules):
            self.offer(Offer(fid, condition.value, rule, cause, automatic))
            self.log("override_offered", "AR.GUT.1", fighter=fid, condition=condition.value)
        else:
            self.stays(fid, condition.value, rule)

    def stun(self, fid: str, rule: str, cause: Cause, *, automatic: bool) -> None:
        f = self.f(fid)
        if f.incapacitated or f.stunned:
            return
        self.put(replace(f.with_condition(Condition.STUNNED), stun_cause=cause))
        self.log("stunned", rule, fighter=fid)
        self.release_holds(fid)
        if _can_guts(self.f(fid), self.rules):
            self.offer(Offer(fid, Condition.STUNNED.value, rule, cause, automatic))
            self.log("override_offered", "AR.GUT.1", fighter=fid, condition=Condition.STUNNED.value)

    def stays(self, fid: str, condition: str, rule: str) -> None:
        """An offered (or unoverridable) state stands: incapacity falls and, in a match, loses."""
        if condition == "helpless":
            self.lose(fid, "AR.FTG.4", "FP 1 not overridden")
            return
        if condition == Condition.STUNNED.value:
            return
        self.fall_over(fid, Facing.FACE_UP, "AR.KNB.7")
        self.lose(fid, "AR.OUT.1", f"{condition} not overridden")

    # the loop
    def advance(self) -> None:
        for _ in range(MAX_TASKS_PER_ACTION):
            self._drop_stale_offers()
            if self.state.result is not None or self.state.offers:
                return
            if self.state.agenda:
                task = self.state.agenda[0]
                self.state = replace(self.state, agenda=self.state.agenda[1:])
                _TASK_HANDLERS[type(task)](self, task)
                continue
            if self._over():
                return
            s = self.state
            if s.slot < len(s.order):
                f = self.f(s.order[s.slot])
                if f.no_defense:
                    self.put(replace(f, no_defense=False))
                if _can_act(f, self.rules) or (f.stunned and not f.incapacitated and not f.lost):
                    return
                self.state = replace(s, slot=s.slot + 1)
                continue
            if s.subturn >= self.rules.match.match.max_subturns:
                self._finish(None, f"no decision after {s.subturn} subturns")
                return
            self.push(EndSubturn(), StartSubturn())
        raise KassenError(f"one action ran more than {MAX_TASKS_PER_ACTION} scheduled tasks")

    def _drop_stale_offers(self) -> None:
        offers = list(self.state.offers)
        while offers:
            o = offers[0]
            f = self.f(o.fighter)
            if o.condition == "helpless":
                valid = _helpless(f, self.rules) and not f.lost and not f.incapacitated
            else:
                valid = Condition(o.condition) in f.conditions and not f.lost and not f.has(Condition.DEAD)
                if valid and not self._offer_has_choice(f, o):
                    self.state = replace(self.state, offers=tuple(offers[1:]))
                    self.stays(o.fighter, o.condition, o.rule)
                    offers = list(self.state.offers)
                    continue
            if valid:
                break
            offers.pop(0)
            self.state = replace(self.state, offers=tuple(offers))

    def _offer_has_choice(self, f: FighterState, o: Offer) -> bool:
        return _can_guts(f, self.rules) or bool(_override_effects(f, o.condition, self.rules))

    def _over(self) -> bool:
        s = self.state
        if not s.started:
            return False
        sides: dict[str, bool] = {}
        for f in s.fighters:
            alive = not f.lost if self.match() else not (f.incapacitated or _helpless(f, self.rules))
            sides[f.profile.side] = sides.get(f.profile.side, False) or alive
        standing = [side for side, ok in sides.items() if ok]
        if len(standing) > 1:
            return False
        if standing:
            self._finish(standing[0], f"only {standing[0]} still stands")
        else:
            self._finish(None, "no side still stands")
        return True

    def _finish(self, winner: str | None, reason: str) -> None:
        self.state = replace(
            self.state, result=Result(winner, reason, self.state.subturn), agenda=(), offers=()
        )
        self.log("bout_over", "AR.OUT.1", winner=winner, reason=reason, subturn=self.state.subturn)

    def next_hit_id(self) -> int:
        n = self.state.next_hit
        self.state = replace(self.state, next_hit=n + 1)
        return n

    def end_slot(self) -> None:
        self.state = replace(self.state, slot=self.state.slot + 1)

    def roll_damage(self, spec: DiceSpec, bonus: int, label: str, rule: str, fid: str) -> int:
        notation = DiceSpec(dice=spec.dice, adds=spec.adds + bonus).notation
        result = roll(notation, self.rng)
        self.log("damage_roll", rule, fighter=fid, what=label, **result.to_json())
        return result.total


# -- action handlers ---------------------------------------------------------------------------------------
def _on_begin(b: _Bout, _: Action) -> None:
    b.state = replace(b.state, started=True)
    b.log("bout_begins", "AR.CORE.3", automatic=False, order=list(b.state.order), format=b.state.format.value)
    tasks: list[Task] = []
    if b.match():
        tasks += [PopularityCheck(fid) for fid in b.state.order]
    tasks.append(StartSubturn())
    b.push(*tasks)


def _on_attack(b: _Bout, action: Action) -> None:
    assert isinstance(action, Attack)
    rules = b.rules
    a, t = b.f(action.actor), b.f(action.target)
    b.put(replace(a, idle_slots=0))
    loc = rules.locations.find(attack_location(action.location, rules))
    atk_target, atk_steps = attack_target(b.state, a.id, t.id, loc.key, action.all_out)
    attack = b.check(a.id, CheckKind.ATTACK, atk_target, "effective skill", (), "AR.GAP.2", automatic=False)
    margin_of_loss = 0
    if not attack.success:
        hit = False
        why = "the attack roll failed"
    elif attack.critical_success:
        hit = True
        why = "critical success: no defence"
    elif not can_defend(t, rules):
        hit = True
        why = f"{t.id} cannot defend"
    else:
        def_target, _ = defense_target(b.state, t.id)
        defense = b.check(t.id, CheckKind.DEFENSE, def_target, "effective defence", (), "AR.GAP.2")
        contest = resolve_contest(attack, defense, rules=rules.checks)
        hit = contest.winner == "first"
        margin_of_loss = contest.margin_of_loss if hit else 0
        why = contest.steps[0].reason
        b.log(
            "quick_contest",
            "AR.CORE.2",
            attacker=a.id,
            defender=t.id,
            winner=contest.winner,
            margin_of_loss=contest.margin_of_loss,
        )
    b.log(
        "attack",
        "AR.GAP.2",
        automatic=False,
        attacker=a.id,
        target=t.id,
        location=loc.key,
        all_out=action.all_out,
        hit=hit,
        reason=why,
        target_steps=[s.to_json() for s in atk_steps],
    )
    if action.all_out:
        b.put(replace(b.f(a.id), no_defense=True))
    b.end_slot()
    tasks: list[Task] = []
    if hit:
        where = loc.key
        guard = t.guard_on(where)
        if guard is not None and rules.match.combat.guards.redirect and guard.arm not in t.crippled:
            b.log("guarded", "AR.GAP.2", fighter=t.id, location=where, arm=guard.arm)
            where = guard.arm
        weapon = a.profile.weapon
        spec = (
            DiceSpec(dice=weapon.dice, adds=0)
            if weapon.base == "none"
            else strength_damage(a.profile.st, weapon.base, rules)
        )
        basic = b.roll_damage(spec, weapon.adds, weapon.name, "AR.DMG.1", a.id)
        dr = t.profile.dr_at(where)
        damage = resolve_damage(
            basic,
            weapon.damage_type,
            ht=t.profile.ht,
            location=where,
            armor_dr=dr.armor,
            bone_dr=dr.bone,
            soft_dr=dr.soft,
            reductions=t.profile.reductions,
            prior_location_damage=t.damage_at(where),
            rules=rules,
        )
        record = HitRecord(b.next_hit_id(), t.id, damage, a.id, weapon.painful, margin_of_loss)
        tasks.append(ApplyHit(record))
    if action.all_out:
        tasks.append(SpendFp(a.id, rules.injury.fatigue.all_out_cost, "AR.FTG.1", "all-out attack"))
    b.push(*tasks)


def _on_grapple(b: _Bout, action: Action) -> None:
    assert isinstance(action, Grapple)
    a, t = b.f(action.actor), b.f(action.target)
    b.put(replace(a, idle_slots=0))
    atk, _ = attack_target(b.state, a.id, t.id, b.rules.damage.basic.default_location, False)
    attack = b.check(a.id, CheckKind.GRAPPLE, atk, "effective skill", (), "AR.GAP.2", automatic=False)
    held = attack.success
    if held and can_defend(t, b.rules) and not attack.critical_success:
        d, _ = defense_target(b.state, t.id)
        defense = b.check(t.id, CheckKind.DEFENSE, d, "effective defence", (), "AR.GAP.2")
        held = resolve_contest(attack, defense, rules=b.rules.checks).winner == "first"
    if held:
        b.put(replace(b.f(a.id), grappling=t.id))
    b.log("grapple", "AR.GAP.2", automatic=False, fighter=a.id, target=t.id, held=held)
    b.end_slot()


def _on_guard(b: _Bout, action: Action) -> None:
    assert isinstance(action, SetGuard)
    f = b.f(action.actor)
    guards = tuple(g for g in f.guards if g.arm != action.arm and g.location != action.location)
    if action.location:
        guards = (*guards, Guard(action.arm, action.location))
    b.put(replace(f, guards=guards))
    b.log(
        "guard", "AR.GAP.2", automatic=False, fighter=f.id, arm=action.arm, location=action.location or None
    )
    b.end_slot()


def _on_rise(b: _Bout, action: Action) -> None:
    assert isinstance(action, Rise)
    f = b.f(action.actor)
    posture = b.rules.match.combat.rise[f.posture]
    b.put(replace(f, posture=posture, facing=None))
    b.log("rise", "AR.GAP.2", automatic=False, fighter=f.id, posture=posture.value)
    b.end_slot()


def _on_wait(b: _Bout, action: Action) -> None:
    assert isinstance(action, Wait)
    f = b.f(action.actor)
    b.log("wait", "AR.STN.1" if f.stunned else "AR.GAP.2", automatic=False, fighter=f.id)
    b.end_slot()
    if not f.stunned:
        idle = f.idle_slots + 1
        b.put(replace(f, idle_slots=idle))
        if idle >= b.rules.match.match.lost_will_idle_slots:
            b.incapacitate(f.id, Condition.LOST_WILL, "AR.OUT.1", Cause())


def _on_give_up(b: _Bout, action: Action) -> None:
    assert isinstance(action, GiveUp)
    f = b.f(action.actor)
    b.put(replace(f.with_condition(Condition.GAVE_UP), guards=()))
    b.log("gave_up", "AR.OUT.1", automatic=False, fighter=f.id)
    b.release_holds(f.id)
    b.end_slot()
    b.stays(f.id, Condition.GAVE_UP.value, "AR.OUT.1")


_UNCONSCIOUS_GROUP = (HeadBlow, VitalCheck, FallStunCheck)


def _on_guts(b: _Bout, action: Action) -> None:
    assert isinstance(action, Guts)
    rules = b.rules
    fid = action.actor
    if b.state.offers:
        offer: Offer | None = b.state.offers[0]
        b.state = replace(b.state, offers=b.state.offers[1:])
    else:
        offer = None
    f = b.f(fid)
    cause = offer.cause if offer is not None else f.stun_cause
    condition = offer.condition if offer is not None else Condition.STUNNED.value
    b.lose_fp(fid, rules.injury.guts.fp_cost, "AR.GUT.1", "guts check")
    f = b.f(fid)
    target, steps = guts_target(f, cause, rules)
    bonus = next((x for x in f.check_bonuses if CheckKind.GUTS in x.checks), None)
    if bonus is not None:
        f = replace(f, check_bonuses=tuple(x for x in f.check_bonuses if x is not bonus))
    b.put(replace(f, guts_checks=f.guts_checks + 1))
    result = roll_check(target, b.rng, rules=rules.checks, label="guts check")
    data = result.to_json()
    data["steps"] = [s.to_json() for s in (*steps, *result.steps)]
    b.log(
        "check",
        "AR.GUT.1",
        automatic=False,
        fighter=fid,
        check=CheckKind.GUTS.value,
        against=condition,
        **data,
    )
    if not result.success:
        if offer is not None:
            b.stays(fid, condition, offer.rule)
        return
    f = b.f(fid)
    exempt: tuple[type, ...]
    if condition == Condition.STUNNED.value:
        b.put(f.without_condition(Condition.STUNNED))
        b.log(
            "overridden", "AR.GUT.1", automatic=False, fighter=fid, condition=condition, now="acts normally"
        )
        exempt = (AutoStun,)
    else:
        b.put(
            replace(
                f.without_condition(Condition(condition)).with_condition(Condition.STUNNED), stun_cause=cause
            )
        )
        b.log(
            "overridden", "AR.GUT.1", automatic=False, fighter=fid, condition=condition, now="stunned instead"
        )
        exempt = _UNCONSCIOUS_GROUP
    if offer is not None and offer.automatic and cause.hit_id:
        kept = tuple(
            t for t in b.state.agenda if not (isinstance(t, exempt) and t.hit.hit_id == cause.hit_id)
        )
        dropped = len(b.state.agenda) - len(kept)
        if dropped:
            b.state = replace(b.state, agenda=kept)
            b.log("exempted", "AR.INJ.10", fighter=fid, hit=cause.hit_id, exempted=dropped)


def _on_cheer(b: _Bout, action: Action) -> None:
    assert isinstance(action, Cheer)
    f = b.f(action.actor)
    effect = audience_effect(action.effect, b.rules)
    f = replace(f, audience_points=f.audience_points - 1)
    b.put(f)
    b.log(
        "audience_point",
        "AR.AUD.3",
        automatic=False,
        fighter=f.id,
        effect=action.effect,
        effect_kind=effect.kind.value,
    )
    _AUDIENCE_HANDLERS[effect.kind](b, f.id, action.effect)


def _on_decline(b: _Bout, action: Action) -> None:
    assert isinstance(action, Decline)
    o = b.state.offers[0]
    b.state = replace(b.state, offers=b.state.offers[1:])
    b.log("declined", o.rule, automatic=False, fighter=o.fighter, condition=o.condition)
    b.stays(o.fighter, o.condition, o.rule)


_ACTION_HANDLERS: dict[type, Callable[[_Bout, Any], None]] = {
    Begin: _on_begin,
    Attack: _on_attack,
    Grapple: _on_grapple,
    SetGuard: _on_guard,
    Rise: _on_rise,
    Wait: _on_wait,
    GiveUp: _on_give_up,
    Guts: _on_guts,
    Cheer: _on_cheer,
    Decline: _on_decline,
}


# -- audience effects (AR.AUD.3), dispatched by kind ------------------------------------------------------
def _recover_fp(b: _Bout, fid: str, name: str) -> None:
    f = b.f(fid)
    e = b.rules.match.audience.effects[name]
    fp = min(f.profile.fp, f.fp + e.amount)
    b.put(replace(f, fp=fp))
    b.log("fp_recovered", "AR.AUD.3", fighter=fid, fp_before=f.fp, fp_after=fp)
    if (
        b.state.offers
        and b.state.offers[0].fighter == fid
        and b.state.offers[0].condition == "helpless"
        and not _helpless(b.f(fid), b.rules)
    ):
        b.state = replace(b.state, offers=b.state.offers[1:])
        b.log("overridden", "AR.RD.6", automatic=False, fighter=fid, condition="helpless", now=f"FP {fp}")


def _check_bonus(b: _Bout, fid: str, name: str) -> None:
    f = b.f(fid)
    e = b.rules.match.audience.effects[name]
    b.put(replace(f, check_bonuses=(*f.check_bonuses, CheckBonus(e.name, e.amount, e.checks))))


def _clear_shock(b: _Bout, fid: str, name: str) -> None:
    f = b.f(fid)
    b.put(replace(f, shocks=()))
    b.log("shock_cleared", "AR.AUD.3", fighter=fid)


_AUDIENCE_HANDLERS: dict[AudienceEffectKind, Callable[[_Bout, str, str], None]] = {
    AudienceEffectKind.RECOVER_FP: _recover_fp,
    AudienceEffectKind.CHECK_BONUS: _check_bonus,
    AudienceEffectKind.CLEAR_SHOCK: _clear_shock,
}


# -- task handlers (the scheduled, automatic part) -----------------------------------------------------------
def _t_start_subturn(b: _Bout, _: Any) -> None:
    n = b.state.subturn + 1
    b.state = replace(b.state, subturn=n, slot=0)
    b.log("subturn", "AR.CORE.3", subturn=n)
    every = b.rules.injury.fatigue.every_subturns
    tasks: list[Task] = []
    if n > 1 and (n - 1) % every == 0:
        tasks += [FatigueTick(fid) for fid in b.state.order]
    tasks += [StunRecovery(fid) for fid in b.state.order]
    tasks += [ZeroHpCheck(fid) for fid in b.state.order]
    b.push(*tasks)


def _t_end_subturn(b: _Bout, _: Any) -> None:
    tasks: list[Task] = [Land(f.id) for f in b.state.fighters if f.fall is not None]
    b.push(*tasks, ExpireEffects())


def _t_popularity(b: _Bout, task: Any) -> None:
    f = b.f(task.fighter)
    p = f.profile
    value, steps = popularity(
        champion=p.champion,
        holds_title=p.holds_title,
        matches=p.matches,
        age=p.age,
        reactions=p.reactions,
        rules=b.rules,
    )
    b.log("popularity", "AR.AUD.1", fighter=f.id, popularity=value, steps=[s.to_json() for s in steps])
    result = b.check(f.id, CheckKind.POPULARITY, value, "popularity", (), "AR.AUD.2")
    if result.success:
        points = b.rules.match.audience.points_on_success
        b.put(replace(b.f(f.id), audience_points=b.f(f.id).audience_points + points))
        b.log("audience_points", "AR.AUD.2", fighter=f.id, points=points)


def _t_fatigue(b: _Bout, task: Any) -> None:
    f = b.f(task.fighter)
    if f.has(Condition.DEAD):
        return
    every = b.rules.injury.fatigue.every_subturns
    b.lose_fp(
        f.id,
        f.profile.encumbrance + 1,
        "AR.FTG.1",
        f"{every} subturns passed: encumbrance level {f.profile.encumbrance} + 1",
    )


def _t_stun_recovery(b: _Bout, task: Any) -> None:
    f = b.f(task.fighter)
    if not f.stunned or f.incapacitated or f.lost:
        return
    result = b.ht_check(f.id, CheckKind.STUN_RECOVERY, "AR.STN.2")
    if result.success:
        b.put(b.f(f.id).without_condition(Condition.STUNNED))
        b.log("stun_ended", "AR.STN.2", fighter=f.id)


def _t_zero_hp(b: _Bout, task: Any) -> None:
    f = b.f(task.fighter)
    if f.hp > b.rules.injury.hp.ht_check_at_or_below or f.incapacitated or f.lost:
        return
    if not b.ht_check(f.id, CheckKind.ZERO_HP, "AR.HP.2").success:
        b.incapacitate(f.id, Condition.UNCONSCIOUS, "AR.HP.2", Cause())


def _t_land(b: _Bout, task: Any) -> None:
    f = b.f(task.fighter)
    fall = f.fall
    if fall is None:
        return
    rules = b.rules
    landing = rules.falling.knockback.landing
    height = f.altitude
    if fall.falls:
        b.put(replace(f, posture=Posture.LYING, facing=fall.facing, fall=None, altitude=Fraction(0)))
        b.log(
            "landed",
            "AR.KNB.6",
            fighter=f.id,
            posture="lying",
            facing=fall.facing.value,
            location=fall.location,
            height=str(height),
        )
    else:
        b.put(replace(f, posture=fall.land_posture, fall=None))
        b.log("landed", "AR.KNB.2", fighter=f.id, posture=fall.land_posture.value, on_its_feet=True)
    tasks: list[Task] = []
    p = f.profile
    if fall.falls and landing.fall_over_damage:
        plan = plan_fall(height, p.weight_kg, b.state.ground, rules)
        if plan.dice is not None:
            basic = b.roll_damage(plan.dice, plan.bonus, f"falling {height} m", "AR.FAL.1", f.id)
            tasks.append(ApplyHit(_fall_hit(b, f, basic, fall.location, DamageSource.FALLING)))
    if fall.knocker_st is not None and (fall.falls or landing.knockback_damage == "every_landing"):
        spec = strength_damage(fall.knocker_st, "thrust", rules)
        bonus = 0
        if landing.knockback_gets_fall_modifiers:
            bonus, _ = fall_modifiers(spec.dice, p.weight_kg, b.state.ground, rules)
        raw = b.roll_damage(spec, bonus, f"knockback: thrust for ST {fall.knocker_st}", "AR.KNB.3", f.id)
        basic = round_ratio(max(raw, 0) * fall.knockback_factor, landing.halving)
        b.log(
            "knockback_damage",
            "AR.KNB.4",
            fighter=f.id,
            rolled=raw,
            factor=str(fall.knockback_factor),
            basic=basic,
        )
        tasks.append(ApplyHit(_fall_hit(b, f, basic, fall.location, DamageSource.KNOCKBACK)))
    b.push(*tasks)


def _fall_hit(b: _Bout, f: FighterState, basic: int, location: str, source: DamageSource) -> HitRecord:
    dr = f.profile.dr_at(location)
    kind = (
        b.rules.falling.falling.damage_type
        if source is DamageSource.FALLING
        else b.rules.falling.knockback.damage_type
    )
    damage = resolve_damage(
        basic,
        kind,
        ht=f.profile.ht,
        location=location,
        armor_dr=dr.armor,
        bone_dr=dr.bone,
        soft_dr=dr.soft,
        reductions=f.profile.reductions,
        source=source,
        prior_location_damage=f.damage_at(location),
        rules=b.rules,
    )
    return HitRecord(b.next_hit_id(), f.id, damage)


def _t_expire(b: _Bout, _: Any) -> None:
    n = b.state.subturn
    for f in b.state.fighters:
        ended = [s for s in f.shocks if s.until <= n]
        if ended:
            b.put(replace(f, shocks=tuple(s for s in f.shocks if s.until > n)))
            b.log(
                "shock_expired",
                "AR.INJ.2",
                fighter=f.id,
                subturn=n,
                ended=[{"kind": s.kind, "value": s.value} for s in ended],
            )


def _t_apply_hit(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    rules = b.rules
    f = b.f(hit.victim)
    d = hit.damage
    b.log("damage", "AR.DMG.5", fighter=f.id, hit=hit.hit_id, attacker=hit.attacker, **d.to_json())
    if f.has(Condition.DEAD):
        return
    loc = rules.locations.locations[d.location]
    before, after = f.hp, f.hp - d.final
    newly_crippled = d.crippled and d.location not in f.crippled
    damage = dict(f.location_damage)
    damage[d.location] = damage.get(d.location, 0) + d.final
    f = replace(
        f,
        hp=after,
        location_damage=tuple(sorted(damage.items())),
        head_damage=f.head_damage + (d.final if loc.head else 0),
    )
    if newly_crippled:
        f = replace(
            f, crippled=(*f.crippled, d.location), guards=tuple(g for g in f.guards if g.arm != d.location)
        )
    b.put(f)
    b.log("injury", "AR.INJ.1", fighter=f.id, hit=hit.hit_id, final=d.final, hp_before=before, hp_after=after)
    hp = rules.injury.hp
    if before > hp.move_halved_at_or_below >= after:
        b.log("move_halved", "AR.HP.1", fighter=f.id, hp=after)
    if before > hp.ht_check_at_or_below >= after:
        b.log("ht_checks_each_subturn", "AR.HP.2", fighter=f.id, hp=after)
    if newly_crippled:
        b.log("crippled", "AR.DMG.6", fighter=f.id, location=d.location)
    effects = injury_effects(
        d,
        ht=f.profile.ht,
        painful=hit.painful,
        prior_head_damage=f.head_damage - (d.final if loc.head else 0),
        already_crippled=not newly_crippled,
        rules=rules,
    )
    names = [e.effect for e in effects]
    tasks: list[Task] = []
    if after <= hp.dead_ht_multiple * f.profile.ht:
        tasks.append(Death(hit))
    else:
        tasks += [
            DeathCheck(hit, t)
            for t in death_thresholds(before, after, f.profile.ht, rules)
            if t not in f.death_checks_done
        ]
    if "unconscious" in names:
        tasks.append(HeadBlow(hit))
    if "unconscious_check" in names:
        tasks.append(VitalCheck(hit))
    tasks += [AutoStun(hit, e.rule) for e in effects if e.effect == "stun"]
    if "knockdown_check" in names:
        tasks.append(KnockdownCheck(hit))
    if "fall_stun_check" in names:
        tasks.append(FallStunCheck(hit))
    if d.source is DamageSource.ATTACK:
        distance, _ = knockback_distance(
            d.basic, d.damage_type, penetrating=d.penetrating, target_st=f.profile.st, rules=rules
        )
        if distance >= 1:
            tasks.append(Knockback(hit, distance))
    if d.final >= 1:
        tasks.append(AddShock(hit))
    b.push(*tasks)


def _t_death_check(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    f = b.f(hit.victim)
    if f.has(Condition.DEAD):
        return
    b.put(replace(f, death_checks_done=(*f.death_checks_done, task.threshold)))
    b.log("death_check_due", "AR.HP.3", fighter=f.id, threshold=task.threshold, hp=f.hp)
    if not b.ht_check(f.id, CheckKind.DEATH, "AR.HP.3").success:
        b.incapacitate(f.id, Condition.DEAD, "AR.HP.3", hit.cause)


def _t_death(b: _Bout, task: Any) -> None:
    b.incapacitate(task.hit.victim, Condition.DEAD, "AR.HP.4", task.hit.cause)


def _t_head_blow(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    b.incapacitate(hit.victim, Condition.UNCONSCIOUS, "AR.INJ.9", hit.cause, automatic=True)


def _t_vital(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    if b.f(hit.victim).incapacitated:
        return
    if not b.ht_check(hit.victim, CheckKind.VITAL, "AR.INJ.8").success:
        b.incapacitate(hit.victim, Condition.UNCONSCIOUS, "AR.INJ.8", hit.cause)


def _t_auto_stun(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    b.stun(hit.victim, task.rule, hit.cause, automatic=True)


def _t_knockdown(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    f = b.f(hit.victim)
    if f.incapacitated or f.posture is Posture.LYING:
        return
    if not b.ht_check(f.id, CheckKind.KNOCKDOWN, "AR.INJ.6").success:
        tier = b.rules.locations.locations[hit.damage.location].tier
        b.fall_over(f.id, landing_facing(tier), "AR.INJ.6")
        b.log("lands_facing", "AR.KNB.7", fighter=f.id, tier=tier.value, facing=landing_facing(tier).value)


def _t_fall_stun(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    f = b.f(hit.victim)
    if f.incapacitated:
        return
    which = b.rules.falling.falling.readings.stun_check_attribute
    p = f.profile
    attr = ("ht" if p.ht >= p.per else "per") if which == "higher" else which
    base = p.ht if attr == "ht" else p.per
    mod = Step(-hit.damage.final, f"falling damage {hit.damage.final}", "AR.FAL.2")
    rule_step = Step(0, f"stun check on {attr.upper()} ({which})", "AR.RD.4")
    result = b.check(
        f.id, CheckKind.FALL_STUN, base, attr.upper(), (rule_step, mod), "AR.FAL.2", ht_based=attr == "ht"
    )
    if result.success:
        return
    if result.margin_of_failure >= b.rules.falling.falling.stun_check.unconscious_margin:
        b.incapacitate(f.id, Condition.UNCONSCIOUS, "AR.FAL.2", hit.cause)
    else:
        b.stun(f.id, "AR.FAL.2", hit.cause, automatic=False)


def _t_knockback(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    rules = b.rules
    f = b.f(hit.victim)
    if f.incapacitated:
        return
    distance: int = task.distance
    loc = rules.locations.locations[hit.damage.location]
    attacker_st = b.f(hit.attacker).profile.st if hit.attacker else 0
    b.log("knocked_back", "AR.KNB.1", fighter=f.id, metres=distance, location=loc.key)
    if loc.limb is not None:
        mods = [Step(-distance, f"knocked back {distance} m", "AR.KNB.5")]
        fat = st_check_modifier(f.fp, rules)
        if fat is not None:
            mods.append(fat)
        result = b.check(f.id, CheckKind.LIMB_KNOCKBACK, f.profile.st, "ST", mods, "AR.KNB.5")
        outcome = limb_knockback_outcome(loc.limb, result.success, result.margin_of_failure, rules)
        f = b.f(f.id)
        if outcome.drop_guard:
            arm = rules.locations.limb_root(loc.key)
            if any(g.arm == arm for g in f.guards):
                b.put(replace(f, guards=tuple(g for g in f.guards if g.arm != arm)))
                b.log("guard_dropped", "AR.KNB.5", fighter=f.id, arm=arm)
        if outcome.rooted:
            b.put(replace(b.f(f.id), rooted_until=b.state.subturn))
            b.log("rooted", "AR.KNB.5", fighter=f.id, until_subturn=b.state.subturn)
        if outcome.falls:
            b.fall_over(f.id, landing_facing(None, leg_knockback=True), "AR.KNB.5")
            b.log(
                "lands_facing", "AR.KNB.7", fighter=f.id, facing=Facing.FACE_DOWN.value, cause="leg knockback"
            )
        return
    falling = f.fall is not None and f.fall.falls
    before = f.fall.from_posture if f.fall is not None else f.posture
    factor, fstep = posture_factor(before, f.altitude, rules)
    mods = [Step(-distance, f"knocked back {distance} m", "AR.KNB.2")]
    result = b.check(f.id, CheckKind.KNOCKBACK, f.profile.dx, "DX", mods, "AR.KNB.2")
    f = b.f(f.id)
    if not result.success:
        fall = Fall(
            True, landing_facing(None), Posture.LYING, rules.locations.brain, before, attacker_st, factor
        )
    elif falling and f.fall is not None:
        fall = replace(f.fall, knocker_st=attacker_st, knockback_factor=factor)
    else:
        fall = Fall(
            False,
            Facing.FACE_UP,
            before if before is not Posture.AERIAL else Posture.STANDING,
            rules.damage.basic.default_location,
            before,
            attacker_st,
            factor,
        )
    b.put(replace(f, posture=Posture.AERIAL, fall=fall))
    b.log(
        "aerial",
        "AR.KNB.2",
        fighter=f.id,
        falls=fall.falls,
        lands_on=fall.location if fall.falls else None,
        knockback_factor=str(factor),
        factor_reason=fstep.reason,
    )


def _t_add_shock(b: _Bout, task: Any) -> None:
    hit: HitRecord = task.hit
    f = b.f(hit.victim)
    if f.has(Condition.DEAD):
        return
    until = b.state.subturn + b.rules.checks.subturns.until_end_of_next
    new = [Shock("shock", hit.damage.final, until)]
    if hit.painful:
        new.append(Shock("pain", hit.damage.final, until))
    b.put(replace(f, shocks=(*f.shocks, *new)))
    for s in new:
        b.log(
            s.kind,
            "AR.INJ.2" if s.kind == "shock" else "AR.INJ.3",
            fighter=f.id,
            penalty=s.value,
            until_end_of_subturn=until,
        )


def _t_spend_fp(b: _Bout, task: Any) -> None:
    b.lose_fp(task.fighter, task.amount, task.rule, task.reason)


def _t_fp_thresholds(b: _Bout, task: Any) -> None:
    f = b.f(task.fighter)
    fat = b.rules.injury.fatigue
    before, fp = task.before, f.fp
    if before > fat.st_penalty_at_or_below >= fp:
        b.log("fatigued", "AR.FTG.2", fighter=f.id, fp=fp, st_checks=fat.st_penalty)
    if before > fat.move_halved_at_or_below >= fp:
        b.log("move_halved", "AR.FTG.3", fighter=f.id, fp=fp)
    if fp <= fat.unconscious_at_or_below < before:
        b.incapacitate(f.id, Condition.UNCONSCIOUS, "AR.FTG.5", Cause())
    elif fp == fat.helpless_at != before and not f.incapacitated and not f.lost:
        b.log("helpless", "AR.FTG.4", fighter=f.id, fp=fp)
        if b.match():
            if _override_effects(f, "helpless", b.rules):
                b.offer(Offer(f.id, "helpless", "AR.FTG.4"))
                b.log("override_offered", "AR.RD.6", fighter=f.id, condition="helpless")
            else:
                b.stays(f.id, "helpless", "AR.FTG.4")


_TASK_HANDLERS: dict[type, Callable[[_Bout, Any], None]] = {
    StartSubturn: _t_start_subturn,
    EndSubturn: _t_end_subturn,
    PopularityCheck: _t_popularity,
    FatigueTick: _t_fatigue,
    StunRecovery: _t_stun_recovery,
    ZeroHpCheck: _t_zero_hp,
    Land: _t_land,
    ExpireEffects: _t_expire,
    ApplyHit: _t_apply_hit,
    DeathCheck: _t_death_check,
    Death: _t_death,
    HeadBlow: _t_head_blow,
    VitalCheck: _t_vital,
    AutoStun: _t_auto_stun,
    KnockdownCheck: _t_knockdown,
    FallStunCheck: _t_fall_stun,
    Knockback: _t_knockback,
    AddShock: _t_add_shock,
    SpendFp: _t_spend_fp,
    FpThresholds: _t_fp_thresholds,
}

RULESET = ArenaRuleset()
register_ruleset(RULESET)
