"""A fighter's decision built step by step: maneuver → target → hit location → options.

The menus are built from the complete :func:`~kassen.arena.bout.legal_actions`, so the decisions they
reach are exactly the legal ones; each action is a path of choices (:func:`steps`): an attack is
``attack → target → location → normal | all_out``, a grapple ``grapple → target``, a move ``move → to``,
a guard ``guard → arm → location | lower``, an audience point ``cheer → effect``, the rest one choice
(``wait``, ``rise``, ``guts``, ``decline``, ``give_up``; the referee's ``begin``). Every step is asked,
even with one option (one opponent within reach is still named), so a path always reads the same way
and a choice refused names the step it was made at. Options come in a useful order: attacks first, at
the default location (the torso, AR.DMG.1) first; moves closing on the nearest opponent first, so that
answering 1 to everything fights the bout to its end.

What a fighter may not do now is shown last, not allowed, with why and the rule (an attack with nobody
within reach, a move while stunned, an opponent out of reach). Every attack-like option carries its
exact odds (:func:`~kassen.arena.bout.forecast.choice_odds`): the hit locations those of a normal attack
there, the last step those of the attack chosen. A choice that is not on the menu is refused: with the
rule that forbids it when it names something the bout knows (an opponent out of reach, a move too far,
an attack while stunned: :func:`~kassen.arena.bout.validate` says why), else with the choices there are
(:class:`~kassen.core.menu.MenuError`).
"""

from __future__ import annotations

__all__ = ["LOWER", "choices", "decision", "gm_label", "steps"]

from collections.abc import Callable, Sequence
from typing import Any

from kassen.arena.bout import (
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
    active_targets,
    attack_location,
    legal_actions,
    move_allowance,
    validate,
)
from kassen.arena.bout.forecast import choice_odds
from kassen.arena.report import condition_noun
from kassen.arena.rules import ArenaRules
from kassen.arena.words import word
from kassen.core.codec import kind_of
from kassen.core.engine import Actor
from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.core.menu import Menu, MenuError, Option
from kassen.i18n import N_, _

#: A maneuver wanted and not allowed now, by its id (shown last, with why).
_WANTED = {"attack": N_("attack"), "move": N_("move")}
#: The id of "lower the guard" (a guard's empty location).
LOWER = "lower"
#: Maneuvers in the order a menu shows them.
_ORDER = (
    "begin",
    "attack",
    "grapple",
    "move",
    "guard",
    "rise",
    "wait",
    "guts",
    "cheer",
    "decline",
    "give_up",
)

Path = tuple[tuple[str, str], ...]


def steps(action: Action, rules: ArenaRules) -> Path:
    """``action`` as the path of choices that names it: ``(field, id)`` pairs, the maneuver first."""
    kind = kind_of(type(action))
    if isinstance(action, Attack):
        loc = attack_location(action.location, rules)
        return (("maneuver", kind), ("target", action.target), ("location", loc), ("option", _option(action)))
    if isinstance(action, Grapple):
        return (("maneuver", kind), ("target", action.target))
    if isinstance(action, Move):
        return (("maneuver", kind), ("to", str(action.to)))
    if isinstance(action, SetGuard):
        return (("maneuver", kind), ("arm", action.arm), ("guard", action.location or LOWER))
    if isinstance(action, Cheer):
        return (("maneuver", kind), ("effect", action.effect))
    return (("maneuver", kind),)


def _option(a: Attack) -> str:
    return "all_out" if a.all_out else "normal"


def _sorted(state: BoutState, actor: Actor, rules: ArenaRules, actions: Sequence[Action]) -> list[Action]:
    """The legal actions in menu order (see the module notes)."""
    fighters = [f.id for f in state.fighters]
    locations = list(rules.locations.keys)
    default = rules.damage.basic.default_location
    me = state.fighter(actor.id) if actor.kind == "unit" else None

    def closing(to: int) -> tuple[int, int, int]:
        assert me is not None
        foes = active_targets(state, me)
        gap = min((max(0, abs(t.position - to) - me.profile.reach) for t in foes), default=0)
        return (gap, abs(to - me.position), to)

    def key(a: Action) -> tuple[Any, ...]:
        first = _ORDER.index(kind_of(type(a)))
        if isinstance(a, Attack):
            loc = attack_location(a.location, rules)
            return (first, fighters.index(a.target), loc != default, locations.index(loc), a.all_out)
        if isinstance(a, Grapple):
            return (first, fighters.index(a.target))
        if isinstance(a, Move):
            return (first, *closing(a.to))
        if isinstance(a, SetGuard):
            where = locations.index(a.location) if a.location else len(locations)
            return (first, locations.index(a.arm), where)
        if isinstance(a, Cheer):
            return (first, list(rules.match.audience.effects).index(a.effect))
        return (first,)

    return sorted(actions, key=key)


# -- walking the menus ----------------------------------------------------------------------------------
Group = list[tuple[Action, Path]]


def _walk(
    state: BoutState, rules: ArenaRules, path: Sequence[str], actor: Actor | None
) -> tuple[Menu, Action | None]:
    """The menu of ``actor`` (who decides now) after ``path``, and the action the path names once
    complete."""
    if actor is None:
        raise MenuError(_("the bout is over: nobody decides"))
    legal = _sorted(state, actor, rules, legal_actions(state, rules))
    group: Group = [(a, steps(a, rules)) for a in legal]
    at = 0
    chosen: list[str] = []
    while True:
        if len(chosen) == len(path):
            return _menu(state, rules, actor, tuple(path), group, at), None
        want = path[len(chosen)]
        members = [(a, s) for a, s in group if at < len(s) and s[at][1] == want]
        if not members:
            _refuse(state, rules, actor, group, at, want)
        group = members
        chosen.append(want)
        at += 1
        if len(group) == 1 and at >= len(group[0][1]):
            if len(chosen) < len(path):
                extra = path[len(chosen)]
                raise MenuError(
                    _("the decision is complete after {n} choices: {extra} is one too many").format(
                        n=len(chosen), extra=repr(extra)
                    )
                )
            return Menu(actor, tuple(path), "complete", ()), group[0][0]


def _refuse(state: BoutState, rules: ArenaRules, actor: Actor, group: Group, at: int, want: str) -> None:
    """``want`` is not on the menu: the rule that forbids what it names, or the choices there are."""
    candidate = _candidate(state, rules, actor, group, at, want)
    if candidate is not None:
        validate(state, candidate, rules)  # an IllegalActionError naming its rule
    ids = list(dict.fromkeys(s[at][1] for _a, s in group if at < len(s)))
    Menu(actor, (), "", tuple(Option(i, i) for i in ids)).option(want)  # a MenuError listing them


def _candidate(
    state: BoutState, rules: ArenaRules, actor: Actor, group: Group, at: int, want: str
) -> Action | None:
    """The action ``want`` would name at this step (None: it names nothing)."""
    fid = actor.id
    field = group[0][1][at][0] if group and at < len(group[0][1]) else ""
    if field == "maneuver" or not group:
        f = state.fighter(fid) if actor.kind == "unit" else None
        foes = active_targets(state, f) if f is not None else []
        foe = (
            min(foes, key=lambda t: (abs(t.position - f.position), t.id)).id
            if f is not None and foes
            else fid
        )
        arms = [k for k, loc in rules.locations.locations.items() if loc.can_guard]
        effects = list(rules.match.audience.effects)
        templates: dict[str, Callable[[], Action]] = {
            "begin": Begin,
            "attack": lambda: Attack(fid, foe, None),
            "grapple": lambda: Grapple(fid, foe),
            "move": lambda: Move(fid, (f.position if f is not None else 0) + 1),
            "guard": lambda: SetGuard(fid, arms[0] if arms else "", rules.damage.basic.default_location),
            "rise": lambda: Rise(fid),
            "wait": lambda: Wait(fid),
            "guts": lambda: Guts(fid),
            "cheer": lambda: Cheer(fid, effects[0] if effects else ""),
            "decline": lambda: Decline(fid),
            "give_up": lambda: GiveUp(fid),
        }
        make = templates.get(want)
        return make() if make is not None and (actor.kind == "unit" or want == "begin") else None
    base = group[0][0]
    if field == "target" and isinstance(base, Attack | Grapple):
        return replace(base, target=want)
    if field == "location" and isinstance(base, Attack):
        return replace(base, location=want)
    if field == "to" and isinstance(base, Move) and want.lstrip("-").isdigit() and len(want) < 8:
        return replace(base, to=int(want))
    if field == "arm" and isinstance(base, SetGuard):
        return replace(base, arm=want)
    if field == "guard" and isinstance(base, SetGuard):
        return replace(base, location="" if want == LOWER else want)
    if field == "effect" and isinstance(base, Cheer):
        return replace(base, effect=want)
    return None


# -- words and odds -------------------------------------------------------------------------------------
def _menu(
    state: BoutState, rules: ArenaRules, actor: Actor, path: tuple[str, ...], group: Group, at: int
) -> Menu:
    field = group[0][1][at][0]
    by_id: dict[str, Group] = {}
    for a, s in group:
        by_id.setdefault(s[at][1], []).append((a, s))
    options = []
    for ident, members in by_id.items():
        complete = len(members) == 1 and at == len(members[0][1]) - 1
        action = members[0][0]
        label = _label(state, rules, field, ident, action)
        odds = None
        if complete:
            odds = choice_odds(state, action, rules)
        elif field == "location" and isinstance(action, Attack):
            odds = choice_odds(state, replace(action, all_out=False), rules)
        options.append(Option(ident, label, complete, odds))
    options += _not_allowed(state, rules, actor, field, group, at, set(by_id))
    return Menu(actor, path, _prompt(state, rules, actor, field, group[0][0]), tuple(options))


def _not_allowed(
    state: BoutState, rules: ArenaRules, actor: Actor, field: str, group: Group, at: int, shown: set[str]
) -> list[Option]:
    """What a fighter would want and may not do now, shown last with why and the rule: an attack or a
    move at its slot (nobody within reach, stunned, down, held...), an opponent out of reach."""
    if actor.kind != "unit" or state.offers:
        return []
    me = state.fighter(actor.id)
    if field == "maneuver":
        wanted = [k for k in ("attack", "move") if k not in shown]
    elif field == "target" and isinstance(group[0][0], Attack | Grapple):
        wanted = [t.id for t in active_targets(state, me) if t.id not in shown]
    else:
        return []
    out = []
    for ident in wanted:
        candidate = _candidate(state, rules, actor, group, at, ident)
        if candidate is None:
            continue
        try:
            validate(state, candidate, rules)
        except IllegalActionError as exc:
            label = _label(state, rules, field, ident, candidate) if field == "target" else _(_WANTED[ident])
            # a dead end: marked complete, so that choosing it is refused at once (never a path to extend)
            out.append(Option(ident, label, True, allowed=False, why=exc.message, rule=exc.rule))
    return out


def _name(state: BoutState, fid: str) -> str:
    return state.fighter(fid).profile.name


def _prompt(state: BoutState, rules: ArenaRules, actor: Actor, field: str, a: Action) -> str:
    if actor.kind != "unit":
        return _("the referee: begin the bout")
    who = _name(state, actor.id)
    if field == "maneuver":
        if state.offers:
            condition = condition_noun(state.offers[0].condition)
            return _("{who} may override {condition}: choose").format(who=who, condition=condition)
        return _("{who} (subturn {subturn}): choose a maneuver").format(who=who, subturn=state.subturn)
    if isinstance(a, Attack | Grapple):
        if field == "target" or not isinstance(a, Attack):
            if isinstance(a, Attack):
                return _("{who} attacks: choose the target").format(who=who)
            return _("{who} grapples: choose the target").format(who=who)
        loc = word(rules.locations.find(attack_location(a.location, rules)).name)
        target = _name(state, a.target)
        if field == "location":
            text = _("{who} attacks {target}: choose the hit location (odds of a normal attack)")
            return text.format(who=who, target=target)
        text = _("{who} attacks {target}'s {location}: a normal or an all-out attack?")
        return text.format(who=who, target=target, location=loc)
    if field == "to":
        metres, _steps = move_allowance(state, state.fighter(actor.id), rules)
        return _("{who} moves (up to {metres} m): choose where to").format(who=who, metres=metres)
    if field == "arm":
        return _("{who} guards: choose the arm").format(who=who)
    if field == "guard" and isinstance(a, SetGuard):
        arm = word(rules.locations.locations[a.arm].name)
        return _("{who} guards with the {arm}: choose the location").format(who=who, arm=arm)
    return _("{who} spends an audience point: choose the effect").format(who=who)


def _label(state: BoutState, rules: ArenaRules, field: str, ident: str, a: Action) -> str:
    locations = rules.locations.locations
    if field == "maneuver":
        return _maneuver(state, rules, ident, a)
    if field == "target":
        t = state.fighter(ident)
        me = state.fighter(a.actor) if isinstance(a, Attack | Grapple) else t
        return _("{name} ({metres} m away)").format(name=t.profile.name, metres=abs(t.position - me.position))
    if field == "location" and isinstance(a, Attack):
        loc = locations[ident]
        guard = state.fighter(a.target).guard_on(ident)
        values = {"location": word(loc.name), "to_hit": f"{loc.to_hit:+d}"}
        if guard is not None and rules.match.combat.guards.redirect:
            text = _("{location} ({to_hit} to hit), guarded: the {arm} takes it")
            return text.format(arm=word(locations[guard.arm].name), **values)
        return _("{location} ({to_hit} to hit)").format(**values)
    if field == "option":
        if ident == "normal":
            return _("normal attack")
        bonus = rules.match.combat.all_out.attack_bonus
        cost = rules.injury.fatigue.all_out_cost
        text = _("all-out attack ({bonus} to hit, no defence until your next slot, {cost} FP)")
        return text.format(bonus=f"{bonus:+d}", cost=cost)
    if field == "to" and isinstance(a, Move):
        return _move(state, a)
    if field == "arm":
        return word(locations[ident].name)
    if field == "guard":
        return (
            _("lower the guard")
            if ident == LOWER
            else _("cover the {location}").format(location=word(locations[ident].name))
        )
    e = rules.match.audience.effects[ident]
    kind = _(_EFFECT_KINDS.get(e.kind.value, e.kind.value.replace("_", " ")))
    if e.amount:
        return _("{name} ({kind} {amount})").format(name=word(e.name), kind=kind, amount=e.amount)
    return _("{name} ({kind})").format(name=word(e.name), kind=kind)


def _maneuver(state: BoutState, rules: ArenaRules, ident: str, a: Action) -> str:
    f = state.fighter(a.actor) if not isinstance(a, Begin) else None
    match = state.format.value == "match"
    if ident == "begin":
        return _("begin the bout (popularity checks first)") if match else _("begin the bout")
    assert f is not None
    if ident == "move":
        metres, _steps = move_allowance(state, f, rules)
        return _("move (up to {metres} m)").format(metres=metres)
    if ident == "rise" and f.posture in rules.match.combat.rise:
        return _("rise to {posture}").format(posture=word(rules.match.combat.rise[f.posture].value))
    if ident == "wait":
        return _("wait (stunned: may only defend)") if f.stunned else _("wait")
    if ident == "guts":
        return _("guts check ({cost} FP, Will)").format(cost=rules.injury.guts.fp_cost)
    if ident == "cheer":
        return _("spend an audience point ({n} left)").format(n=f.audience_points)
    if ident == "give_up":
        return _("give up (loses the match)") if match else _("give up")
    if ident == "decline" and state.offers:
        o = state.offers[0]
        condition = condition_noun(o.condition)
        if match and o.condition != "stunned":
            return _("let {condition} stand (loses the match)").format(condition=condition)
        return _("let {condition} stand").format(condition=condition)
    found = _MANEUVERS.get(ident)
    return _(found) if found is not None else ident.replace("_", " ")


def _move(state: BoutState, a: Move) -> str:
    f = state.fighter(a.actor)
    foes = active_targets(state, f)
    nearest = min(foes, key=lambda o: (abs(o.position - a.to), o.id), default=None)
    before = min((abs(o.position - f.position) for o in foes), default=0)
    after = abs(nearest.position - a.to) if nearest is not None else 0
    way = N_("closing") if after < before else N_("retreating") if after > before else N_("moving")
    values = {"to": a.to, "way": _(way), "metres": abs(a.to - f.position)}
    if nearest is not None:
        text = _("to {to} m ({way} {metres} m; then {after} m from {nearest})")
        return text.format(after=after, nearest=nearest.profile.name, **values)
    return _("to {to} m ({way} {metres} m)").format(**values)


# -- the hooks ---------------------------------------------------------------------------------------------
def choices(state: BoutState, rules: ArenaRules, path: Sequence[str], actor: Actor | None) -> Menu:
    """The menu after ``path`` for ``actor``, who decides now (the ruleset's ``choices`` hook)."""
    return _walk(state, rules, path, actor)[0]


def decision(state: BoutState, rules: ArenaRules, path: Sequence[str], actor: Actor | None) -> Action:
    """The action a complete ``path`` names (the ruleset's ``decision`` hook)."""
    _menu_shown, action = _walk(state, rules, path, actor)
    if action is None:
        text = _("{path} does not finish the decision: choose further")
        raise MenuError(text.format(path=repr(" > ".join(path))))
    return action


# -- the referee's menus (derived by the core from gm_actions) ---------------------------------------------
_GM_KINDS = {
    "gm_set_hp": N_("set a fighter's HP"),
    "gm_set_fp": N_("set a fighter's FP"),
    "gm_add_condition": N_("give a fighter a condition"),
    "gm_remove_condition": N_("take a condition off a fighter"),
    "gm_end_bout": N_("end the bout"),
}
#: Maneuvers named by their id alone (the others are worded with their numbers).
_MANEUVERS = {
    "attack": N_("attack"),
    "grapple": N_("grapple"),
    "guard": N_("guard"),
    "rise": N_("rise"),
    "decline": N_("decline"),
}
#: What an audience point's effect does, by kind (match.yaml).
_EFFECT_KINDS = {
    "recover_fp": N_("recover fp"),
    "check_bonus": N_("check bonus"),
    "clear_shock": N_("clear shock"),
}


def gm_label(state: BoutState, field: str, value: Any) -> str | None:
    """Words for an option of the referee's menus (the ruleset's ``label`` hook); None: the core's."""
    if field == "kind":
        found = _GM_KINDS.get(str(value))
        return _(found) if found is not None else None
    if field == "hp":
        return _("HP {hp}").format(hp=value)
    if field == "fp":
        return _("FP {fp}").format(fp=value)
    if field == "condition":
        return _("lost the will to fight") if value == "lost_will" else word(value)
    if field == "winner":
        if value is None:
            return _("nobody wins (a draw)")
        members = [f.profile.name for f in state.fighters if f.profile.side == value]
        return _("{side} wins ({members})").format(side=value, members=", ".join(members))
    return None
