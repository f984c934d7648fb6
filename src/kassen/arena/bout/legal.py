"""What may be done now: :func:`legal_actions` lists every legal action (complete), and :func:`validate`
accepts exactly those — an :class:`~kassen.core.errors.IllegalActionError` naming the rule for anything
else. The one equivalence: an :class:`Attack` naming no location is the attack at the data's
``damage.basic.default_location`` (AR.DMG.1), which the list names explicitly. Attacks and grapples are
listed only for targets within reach, moves only as far as the effective Move (the AR.GAP.2 position
model).
"""

from __future__ import annotations

__all__ = ["legal_actions", "validate"]

from kassen.arena.bout.reading import (
    active_targets,
    attack_location,
    can_guts,
    deciding_fighter,
    distance,
    free_arms,
    move_allowance,
    override_effects,
    reach_step,
)
from kassen.arena.bout.state import (
    Action,
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    GiveUp,
    Grapple,
    Guts,
    Move,
    Rise,
    SetGuard,
    Wait,
)
from kassen.arena.fighter import FighterState
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import Condition
from kassen.arena.words import raw, word
from kassen.core.errors import IllegalActionError
from kassen.i18n import _, translate_text

_ACTIONS = (Begin, Attack, Grapple, SetGuard, Move, Rise, Wait, GiveUp, Guts, Cheer, Decline)


def legal_actions(state: BoutState, rules: ArenaRules) -> list[Action]:
    """Every action the one who decides now may take (the referee's Begin, an offer's answers, or a
    fighter's slot), attacks at every location by its key."""
    if state.result is not None:
        return []
    if not state.started:
        return [Begin()]
    if state.offers:
        o = state.offers[0]
        f = state.fighter(o.fighter)
        offer_actions: list[Action] = []
        if o.condition != "helpless" and can_guts(f, rules):
            offer_actions.append(Guts(f.id))
            offer_actions += [Cheer(f.id, e) for e in override_effects(f, o.condition, rules)]
        elif o.condition == "helpless":
            offer_actions += [Cheer(f.id, e) for e in override_effects(f, o.condition, rules)]
        offer_actions.append(Decline(f.id))
        return offer_actions
    fid = deciding_fighter(state)
    if fid is None:
        return []
    f = state.fighter(fid)
    out: list[Action] = []
    cheers: list[Action] = [Cheer(fid, e) for e in rules.match.audience.effects] if f.audience_points else []
    if f.stunned:
        out.append(Wait(fid))
        if can_guts(f, rules):
            out.append(Guts(fid))
        return out + cheers + [GiveUp(fid)]
    # The actions are immutable values: the same objects are listed whenever they are legal again
    # (built once per fighter, target, position or arm: see _ACTION_LISTS).
    # in_reach for each target, its fighters in hand: the gap to each against the reach and the grapple
    # reach, each with the step an attack may take (the same for every target)
    step = reach_step(state, f, rules)
    reach, grapple_reach = f.profile.reach + step, rules.match.position.grapple_reach + step
    for t in active_targets(state, f):
        tid = t.profile.id
        gap = abs(f.position - t.position)
        if gap <= reach:
            out += _attacks(fid, tid, rules)
        if f.grappling != tid and gap <= grapple_reach:
            out.append(Grapple(fid, tid))
    metres, _ = move_allowance(state, f, rules)
    out += _moves(fid, f.position, metres, rules)
    for arm in free_arms(f, rules):
        out += _guards(fid, arm, rules)
        if any(g.arm == arm for g in f.guards):
            out.append(SetGuard(fid, arm, ""))
    if f.posture in rules.match.combat.rise:
        out.append(Rise(fid))
    out.append(Wait(fid))
    return out + cheers + [GiveUp(fid)]


# Lists of actions (immutable values) by what decides them, remembered by the rules (kassen.core.memo).
def _attacks(fid: str, target: str, rules: ArenaRules) -> tuple[Attack, ...]:
    """Attacks on ``target`` at every location by its key, each plain then all-out."""
    memo = rules.memos.attacks
    found = memo.get((fid, target))
    if found is None:
        keys = rules.locations.keys
        made = tuple(Attack(fid, target, loc, all_out=all_out) for loc in keys for all_out in (False, True))
        found = memo.put((fid, target), made)
    return found


def _moves(fid: str, at: int, metres: int, rules: ArenaRules) -> tuple[Move, ...]:
    """Moves from ``at`` to every spot within ``metres`` of it (not ``at`` itself), lowest first."""
    memo = rules.memos.moves_listed
    found = memo.get((fid, at, metres))
    if found is None:
        found = memo.put((fid, at, metres), tuple(Move(fid, at + d) for d in range(-metres, metres + 1) if d))
    return found


def _guards(fid: str, arm: str, rules: ArenaRules) -> tuple[SetGuard, ...]:
    """Guarding each location that is no limb with ``arm``."""
    memo = rules.memos.guards
    found = memo.get((fid, arm))
    if found is None:
        locations = rules.locations.locations
        made = tuple(SetGuard(fid, arm, loc) for loc in rules.locations.keys if locations[loc].limb is None)
        found = memo.put((fid, arm), made)
    return found


def validate(state: BoutState, action: Action, rules: ArenaRules) -> None:
    """Raise :class:`~kassen.core.errors.IllegalActionError` (naming the rule) unless ``action`` is
    legal now; nothing is rolled or changed."""
    if not isinstance(action, _ACTIONS):
        raise IllegalActionError(
            _("{action} is not an arena action").format(action=repr(action)), rule="AR.CORE.3"
        )
    if state.result is not None:
        raise IllegalActionError(_("the bout is over"), rule="AR.OUT.1")
    if not state.started:
        if not isinstance(action, Begin):
            raise IllegalActionError(_("the bout has not begun: the first action is begin"), rule="AR.CORE.3")
        return
    if isinstance(action, Begin):
        raise IllegalActionError(_("the bout has already begun"), rule="AR.CORE.3")
    actor = action.actor
    if actor not in state.order:
        _unknown(actor, state)
    f = state.fighter(actor)
    if state.offers:
        _validate_answer(state, f, action, rules)
        return
    if isinstance(action, Decline):
        raise IllegalActionError(_("there is nothing to decline"), rule="AR.GUT.1")
    if actor != deciding_fighter(state):
        raise IllegalActionError(
            _("it is {slot}'s slot in subturn {subturn}, not {actor}'s").format(
                slot=deciding_fighter(state), subturn=state.subturn, actor=actor
            ),
            rule="AR.CORE.3",
        )
    if isinstance(action, Guts):
        if not f.stunned:
            raise IllegalActionError(
                _("{actor} has nothing a guts check could override").format(actor=actor), rule="AR.GUT.1"
            )
        _guts_affordable(f, rules)
        return
    if isinstance(action, Cheer):
        _cheer_possible(f, action, rules)
        return
    if isinstance(action, GiveUp | Wait):
        return
    if f.stunned:
        raise IllegalActionError(
            _("{actor} is stunned and may only defend").format(actor=actor), rule="AR.STN.1"
        )
    if isinstance(action, Attack | Grapple):
        _validate_target(state, f, action, rules)
    elif isinstance(action, Move):
        _validate_move(state, f, action, rules)
    elif isinstance(action, SetGuard):
        _validate_guard(f, action, rules)
    elif isinstance(action, Rise) and f.posture not in rules.match.combat.rise:
        raise IllegalActionError(
            _("{actor} is {posture}: nothing to rise from").format(
                actor=actor, posture=word(f.posture.value)
            ),
            rule="AR.GAP.2",
        )


def _validate_answer(state: BoutState, f: FighterState, action: Action, rules: ArenaRules) -> None:
    """The first offer is answered first, by its fighter: a guts check, an audience point that helps,
    or declining (AR.GUT.1, AR.AUD.3, AR.RD.6)."""
    o = state.offers[0]
    if f.id != o.fighter:
        raise IllegalActionError(
            _("{who} must first decide whether to override {condition}").format(
                who=o.fighter, condition=raw(o.condition)
            ),
            rule="AR.GUT.1",
        )
    if not isinstance(action, Guts | Cheer | Decline):
        raise IllegalActionError(
            _("{who} can only override {condition} or decline now").format(
                who=f.id, condition=raw(o.condition)
            ),
            rule="AR.GUT.1",
        )
    if isinstance(action, Decline):
        return
    if isinstance(action, Guts):
        if o.condition == "helpless":
            raise IllegalActionError(_("a guts check overrides incapacity or stun, not FP 1"), rule="AR.RD.6")
        _guts_affordable(f, rules)
        return
    _cheer_possible(f, action, rules)
    if action.effect not in override_effects(f, o.condition, rules):
        raise IllegalActionError(
            _("{effect} does not help against {condition}").format(
                effect=raw(action.effect), condition=raw(o.condition)
            ),
            rule="AR.AUD.3",
        )
    if o.condition != "helpless":
        # the effect helps a guts check: worth spending only on a check the fighter can pay for
        _guts_affordable(f, rules)


def _guts_affordable(f: FighterState, rules: ArenaRules) -> None:
    if not can_guts(f, rules):
        raise IllegalActionError(
            _("a guts check costs {cost} FP; {who} has {fp}").format(
                cost=rules.injury.guts.fp_cost, who=f.id, fp=f.fp
            ),
            rule="AR.GUT.1",
        )


def _cheer_possible(f: FighterState, action: Cheer, rules: ArenaRules) -> None:
    if f.audience_points <= 0:
        raise IllegalActionError(_("{who} has no audience point").format(who=f.id), rule="AR.AUD.2")
    if action.effect not in rules.match.audience.effects:
        raise IllegalActionError(
            _("unknown audience effect {effect}").format(effect=repr(action.effect)), rule="AR.AUD.3"
        )


def _validate_target(state: BoutState, f: FighterState, action: Attack | Grapple, rules: ArenaRules) -> None:
    if action.target not in state.order:
        _unknown(action.target, state)
    t = state.fighter(action.target)
    if t.profile.side == f.profile.side:
        raise IllegalActionError(
            _("{target} is on {who}'s side").format(target=action.target, who=f.id), rule="AR.GAP.2"
        )
    if t.lost or t.has(Condition.DEAD):
        raise IllegalActionError(
            _("{target} is out of the bout").format(target=action.target), rule="AR.OUT.1"
        )
    if isinstance(action, Attack):
        where = attack_location(action.location, rules)
        if where not in rules.locations.locations:
            known = ", ".join(rules.locations.keys)
            named = next(
                (
                    loc.key
                    for loc in rules.locations.locations.values()
                    if where in (*loc.aliases, loc.name_ja)
                ),
                None,
            )
            if named:
                text = _(
                    "unknown hit location {where}: {where} is another name of {named} "
                    "(an attack names a key: {known})"
                )
            else:
                text = _("unknown hit location {where} (an attack names a key: {known})")
            raise IllegalActionError(
                text.format(where=repr(where), named=repr(named), known=known), rule="AR.GAP.1"
            )
    elif f.grappling == action.target:
        raise IllegalActionError(
            _("{who} already holds {target}").format(who=f.id, target=action.target), rule="AR.GAP.2"
        )
    grapple = isinstance(action, Grapple)
    reach = rules.match.position.grapple_reach if grapple else f.profile.reach
    if abs(f.position - t.position) > reach + reach_step(state, f, rules):  # in_reach, of f and t in hand
        raise IllegalActionError(
            _("{target} is {metres} m from {who}, beyond its reach of {reach} m: close first").format(
                target=action.target, metres=distance(state, f.id, t.id), who=f.id, reach=reach
            ),
            rule="AR.GAP.2",
        )


def _validate_move(state: BoutState, f: FighterState, action: Move, rules: ArenaRules) -> None:
    metres, steps = move_allowance(state, f, rules)
    wanted = abs(action.to - f.position)
    if wanted == 0:
        raise IllegalActionError(
            _("{who} already stands at {to} m").format(who=f.id, to=action.to), rule="AR.GAP.2"
        )
    if wanted > metres:
        why = translate_text(steps[-1].reason) if steps else _("Move")
        raise IllegalActionError(
            _("{who} can move {metres} m this slot ({why}), not {wanted} m").format(
                who=f.id, metres=metres, why=why, wanted=wanted
            ),
            rule=steps[-1].rule if steps else "AR.GAP.2",
        )


def _validate_guard(f: FighterState, action: SetGuard, rules: ArenaRules) -> None:
    arm = rules.locations.locations.get(action.arm)
    if arm is None or not arm.can_guard:
        raise IllegalActionError(
            _("{arm} is not an arm that can guard").format(arm=repr(action.arm)), rule="AR.GAP.2"
        )
    if action.arm in f.crippled:
        raise IllegalActionError(
            _("{who}'s {location} is crippled").format(who=f.id, location=word(arm.name)), rule="AR.DMG.6"
        )
    if action.location:
        loc = rules.locations.locations.get(action.location)
        if loc is None or loc.limb is not None:
            raise IllegalActionError(
                _("an arm guards a location that is not a limb, not {location}").format(
                    location=repr(action.location)
                ),
                rule="AR.GAP.2",
            )
    elif not any(g.arm == action.arm for g in f.guards):
        raise IllegalActionError(
            _("{who}'s {arm} guards nothing").format(who=f.id, arm=word(arm.name)), rule="AR.GAP.2"
        )


def _unknown(fid: str, state: BoutState) -> None:
    raise IllegalActionError(
        _("no fighter {fid} in this bout (fighters: {known})").format(
            fid=repr(fid), known=", ".join(state.order)
        ),
        rule="AR.GAP.2",
    )
