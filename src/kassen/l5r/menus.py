"""Decisions built step by step: the roll-and-keep menus, the ruleset's own ``choices`` and
``decision`` hooks (:mod:`kassen.core.menu`).

A declaration is built **action → target → special attack → (whom a Foul obstructs) → called shot →
raises for damage**: "Attack" (or "Full Attack", or another declaration: Full Defense, wait, close...),
then whom, then what the raises buy. Each step offers only what leads to a legal decision — the menus
are cut from the complete list of legal decisions (:func:`kassen.l5r.legal.legal_actions`), so a
completed path is exactly an action ``apply`` accepts — and a step every remaining choice agrees on is
taken without asking (one opponent: no target step). The choices the rules hand over mid-resolution are
one step each: the injury of a called shot (L5.CS.2, L5.CS.3), the answer to a Corps-a-Corps (L5.CAC.1)
or a Drive (L5.DRV.1); the Point-to-throat holder's extra attack (L5.PTT.1) starts at the special step.

Every complete attack carries its exact odds (:mod:`kassen.l5r.odds`) and what it rolls against what.
What the rules forbid at a step is said in its prompt (``not now: head, hand [L5.CORE.3]``), and a path
naming it is refused with the rule (an :class:`~kassen.core.errors.IllegalActionError` from the same
validation ``apply`` runs); an id no step knows is a :class:`~kassen.core.menu.MenuError` listing the
choices.
"""

from __future__ import annotations

__all__ = ["choices", "decision", "gm_label", "steps_of"]

from collections.abc import Sequence
from typing import Any

from kassen.core.engine import Actor
from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.core.menu import Menu, MenuError, Option
from kassen.i18n import N_, _, ngettext
from kassen.l5r.actions import (
    Act,
    Action,
    ActKind,
    Attack,
    Begin,
    ChooseCorps,
    ChooseDrive,
    ChooseInjury,
    Declare,
    ThroatStrike,
)
from kassen.l5r.character import FighterId
from kassen.l5r.legal import legal_actions
from kassen.l5r.movement import distance
from kassen.l5r.odds import attack_preview
from kassen.l5r.rolls import defense_tn, raise_cost, raise_limit
from kassen.l5r.say import say, say_status
from kassen.l5r.state import CorpsPending, DrivePending, DuelState, InjuryPending
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName
from kassen.l5r.validate import free_raises_for, validate

#: One step of a decision: (the step's name, the option's id).
Step = tuple[str, str]
Candidate = tuple[Action, tuple[Step, ...]]

_ACT_WORDS: dict[str, str] = {
    "attack": N_("Attack"),
    "full_defense": N_("Full Defense (roll Agility + Defense: half the total added to the TN to be hit)"),
    "wait": N_("Wait"),
    "yield": N_("Yield the duel"),
    "regain_grip": N_("Regain grip"),
    "regain_footing": N_("Regain footing"),
    "clear_vision": N_("Clear the blood from the eyes"),
    "free_weapon": N_("Free the bound weapon"),
    "remove_weapon": N_("Remove the weapon pinning the foot"),
    "recover_weapon": N_("Go for the dropped weapon"),
    "medical_aid": N_("Medical aid"),
    "hold_point": N_("Hold the point at the throat"),
    "release_bind": N_("Release the bind"),
    "struggle": N_("Struggle (opposed Strength + Hand-to-Hand)"),
    "disengage": N_("Disengage (Agility + Defense against the Corps-a-Corps roll)"),
    "close": N_("Close in (the whole action spent moving)"),
    "retreat": N_("Retreat from the nearest opponent"),
    "begin": N_("Begin the duel (everyone rolls initiative)"),
}
_ANSWERS = {
    "disengage": N_("Disengage (Agility + Defense against the Corps-a-Corps roll)"),
    "struggle": N_("Struggle (opposed Strength + Hand-to-Hand)"),
    "give_way": N_("Give way (driven back; Agility + Athletics or fall prone)"),
    "refuse": N_("Refuse to give way (the raise counts as a raise for damage)"),
}


# -- the steps of each decision ---------------------------------------------------------------------------
def _attack_steps(attack: Attack, tables: L5Tables) -> tuple[Step, ...]:
    """special → (obstructed opponent) → called shot → raises for damage; the last two only for an
    attack that deals Wounds (L5.SPC.1)."""
    out: list[Step] = [("special", attack.special.value if attack.special is not None else "none")]
    if attack.special is SpecialAttackName.FOUL:
        out.append(("obstructs", str(attack.obstructs)))
    if attack.special is None or tables.special(attack.special).damage:
        out.append(("called_shot", attack.called_shot.value if attack.called_shot is not None else "none"))
        out.append(("raises", str(attack.damage_raises)))
    return tuple(out)


def steps_of(action: Action, tables: L5Tables) -> tuple[Step, ...]:
    """``action`` as the steps a menu builds it in."""
    if isinstance(action, Declare):
        act = action.act
        if isinstance(act, Attack):
            kind = "full_attack" if act.full_attack else "attack"
            return (("action", kind), ("target", str(act.target)), *_attack_steps(act, tables))
        target = (("target", str(act.target)),) if act.target is not None else ()
        return (("action", act.do.value), *target)
    if isinstance(action, ThroatStrike):
        return _attack_steps(action.attack, tables)
    if isinstance(action, ChooseInjury):
        return (("injury", action.injury or "none"),)
    if isinstance(action, ChooseCorps | ChooseDrive):
        return (("answer", action.choice),)
    return (("action", "begin"),)


def _candidates(state: DuelState, tables: L5Tables) -> list[Candidate]:
    legal = list(dict.fromkeys(legal_actions(state, tables)))
    out = [(a, steps_of(a, tables)) for a in legal]
    first = {"attack": 0, "full_attack": 1}  # attacks first on the first menu, then the rest as listed
    return sorted(out, key=lambda c: first.get(c[1][0][1], 2) if c[1][0][0] == "action" else 2)


def _skip(cands: Sequence[Candidate], at: int) -> int:
    """Past every step all the candidates agree on (taken without asking)."""
    while len(cands) > 1 and at < len(cands[0][1]):
        here = cands[0][1][at]
        if not all(at < len(s) and s[at] == here for _, s in cands):
            break
        at += 1
    return at


def _group(cands: Sequence[Candidate], at: int) -> dict[str, list[Candidate]]:
    groups: dict[str, list[Candidate]] = {}
    for c in cands:
        key = c[1][at][1] if at < len(c[1]) else "end"
        groups.setdefault(key, []).append(c)
    return groups


def _check_path(path: Sequence[str]) -> tuple[str, ...]:
    if not isinstance(path, list | tuple) or not all(isinstance(p, str) for p in path):
        raise MenuError(_("a path is a list of choice ids"))
    return tuple(path)


def _navigate(state: DuelState, tables: L5Tables, path: Sequence[str]) -> tuple[list[Candidate], int]:
    """The candidates left after ``path``, and the step they are at (before skipping agreed steps)."""
    cands = _candidates(state, tables)
    at = 0
    for k, want in enumerate(path):
        if k:
            if len(cands) == 1:
                raise MenuError(
                    _("the decision is complete after {n} choice(s): {choice} is one too many").format(
                        n=k, choice=repr(want[:40])
                    )
                )
            at = _skip(cands, at)
        if not cands:
            raise MenuError(_("there is nothing to choose"))
        groups = _group(cands, at)
        if want not in groups:
            _refuse(state, tables, cands, at, want, groups)
        cands = groups[want]
        at += 1
    return cands, at


# -- the hooks --------------------------------------------------------------------------------------------
def choices(state: DuelState, tables: L5Tables, path: Sequence[str], actor: Actor | None) -> Menu:
    """The menu after ``path`` for ``actor`` (whoever decides now)."""
    path = _check_path(path)
    if actor is None:
        raise MenuError(_("the duel is over: nobody decides"))
    cands, at = _navigate(state, tables, path)
    if path and len(cands) == 1:
        return Menu(actor, path, "complete", ())
    who = actor.id if actor.kind == "unit" else "GM"
    if not cands:
        return Menu(actor, path, _("{who}: nothing to choose").format(who=who), ())
    if path:
        at = _skip(cands, at)
    step = next((s[at][0] for _, s in cands if at < len(s)), "end")
    options = []
    for key, members in _group(cands, at).items():
        complete = len(members) == 1
        words = _label(state, tables, step, key, members[0][0])
        odds = None
        if complete:
            preview = attack_preview(state, tables, members[0][0])
            if preview is not None:
                words, odds = (
                    _("{option} - {odds}").format(option=words, odds=say(preview.summary())),
                    preview.odds,
                )
        options.append(Option(key, words, complete, odds))
    prompt = _("{who}: {prompt}").format(who=who, prompt=_prompt(state, tables, step, cands[0][0]))
    blocked = _not_now(state, tables, step, cands, at)
    if blocked:
        prompt = _("{prompt} (not now: {blocked})").format(prompt=prompt, blocked=blocked)
    return Menu(actor, path, prompt, tuple(options))


def decision(state: DuelState, tables: L5Tables, path: Sequence[str]) -> Action:
    """The action a complete ``path`` names."""
    cands, _at = _navigate(state, tables, _check_path(path))
    if not path or len(cands) != 1:
        raise MenuError(_("the decision is not complete: choose further"))
    return cands[0][0]


# -- words ------------------------------------------------------------------------------------------------
def _raises(n: int) -> str:
    return ngettext("{n} raise", "{n} raises", n).format(n=n)


def _label(state: DuelState, tables: L5Tables, step: str, key: str, action: Action) -> str:
    t = tables
    if step == "action":
        if key == "full_attack":
            fa = t.core.full_attack
            return _("Full Attack (+{bonus} to attack; own TN to be hit {change} this turn)").format(
                bonus=f"{fa.attack_rolled}k{fa.attack_kept}", change=f"{fa.tn_to_be_hit_change:+d}"
            )
        return _(_ACT_WORDS[key]) if key in _ACT_WORDS else say(key.replace("_", " "))
    if step == "target":
        f = state.fighter(key)
        me = _actor_of(state, action)
        away = (
            _("{feet} ft away").format(feet=distance(me, f))
            if me is not None and me.name != f.name
            else _("itself")
        )
        if isinstance(action, Declare) and isinstance(action.act, Attack):
            tn, _steps = defense_tn(f, t, state.turn)
            return _("{name} ({side}; {away}; TN to be hit {tn})").format(
                name=f.name, side=f.side, away=away, tn=tn
            )
        return _("{name} ({side}; {away})").format(name=f.name, side=f.side, away=away)
    if step == "special":
        if key == "none":
            return _("plain attack")
        row = t.special(SpecialAttackName(key))
        said = {"special": say(key.replace("_", "-")), "raises": _raises(row.raises)}
        return (_("{special} ({raises})") if row.damage else _("{special} ({raises}, no Wounds)")).format(
            **said
        )
    if step == "obstructs":
        return _("obstructing {name}").format(name=key)
    if step == "called_shot":
        if key == "none":
            return _("no called shot")
        return _("called shot to the {location} ({raises})").format(
            location=say(key), raises=_raises(t.location(Location(key)).raises)
        )
    if step == "raises":
        n = int(key)
        if n == 0:
            return _("no raises for damage")
        return ngettext("{n} raise for damage (+{n}k0)", "{n} raises for damage (+{n}k0)", n).format(n=n)
    if step == "injury":
        p = state.pending
        if key == "none" or not isinstance(p, InjuryPending):
            return _("no injury")
        injury = t.location(p.location).injuries[key]
        said = {"injury": say(key.replace("_", " ")), "text": say(injury.text)}
        return (_("{injury} (MAIM): {text}") if injury.maim else _("{injury}: {text}")).format(**said)
    return _(_ANSWERS[key]) if key in _ANSWERS else say(key.replace("_", " "))


def _actor_of(state: DuelState, action: Action) -> Any:
    name = getattr(action, "actor", None)
    return state.fighter(name) if isinstance(name, str) and state.has_fighter(name) else None


def _budget(state: DuelState, tables: L5Tables, action: Action, *, upto: str) -> str:
    """``(N raises left)`` for the step ``upto``: the raise limit (L5.CORE.3) and Free Raises
    (L5.CORE.4), less what the earlier steps already spend."""
    attack, extra, number = None, 0, 0
    if isinstance(action, Declare) and isinstance(action.act, Attack):
        attack = action.act
        number = state.fighter(action.actor).declarations_made + 1
    elif isinstance(action, ThroatStrike):
        attack, extra, number = action.attack, tables.special_attacks.point_to_throat.free_raises, -1
    me = _actor_of(state, action)
    if attack is None or me is None:
        return ""
    limit = raise_limit(me, tables)
    free = extra + free_raises_for(me, attack.target, number)
    spent = replace(attack, damage_raises=0)
    if upto == "special":
        spent = replace(spent, special=None, called_shot=None)
    elif upto == "called_shot":
        spent = replace(spent, called_shot=None)
    used = raise_cost(spent, tables)[0]
    left = _raises(max(0, limit + free - used)) if limit is not None else ""
    if limit is None and free:
        return _(" (no limit on raises and {free} Free; {used} spent)").format(free=free, used=used)
    if limit is None:
        return _(" (no limit on raises; {used} spent)").format(used=used)
    if free:
        return _(" ({left} left: at most {limit} on one roll and {free} Free)").format(
            left=left, limit=limit, free=free
        )
    return _(" ({left} left: at most {limit} on one roll)").format(left=left, limit=limit)


def _prompt(state: DuelState, tables: L5Tables, step: str, action: Action) -> str:
    p = state.pending
    if step == "action":
        if isinstance(action, Begin):
            return _("begin the duel")
        return _("declare an action for turn {n} (said aloud: lowest initiative first)").format(n=state.turn)
    if step == "target":
        return _("choose the target")
    if step == "special":
        return _("choose a special attack{budget}").format(
            budget=_budget(state, tables, action, upto="special")
        )
    if step == "obstructs":
        return _("whom should the Foul's victim obstruct?")
    if step == "called_shot":
        return _("choose a called shot{budget}").format(
            budget=_budget(state, tables, action, upto="called_shot")
        )
    if step == "raises":
        return _("choose the raises for damage{budget}").format(
            budget=_budget(state, tables, action, upto="raises")
        )
    if step == "injury" and isinstance(p, InjuryPending):
        return _("choose the injury to {name}'s {location} ({damage} damage)").format(
            name=p.target, location=say(p.location.value), damage=p.damage
        )
    if isinstance(p, CorpsPending):
        return _("weapons locked by {name}'s Corps-a-Corps: disengage or struggle?").format(name=p.attacker)
    if isinstance(p, DrivePending):
        return _("{name} drives you back: give way or refuse?").format(name=p.attacker)
    return _("choose")


# -- what is not allowed, and why -------------------------------------------------------------------------
def _not_now(state: DuelState, tables: L5Tables, step: str, cands: Sequence[Candidate], at: int) -> str:
    """``foot, hand, head [L5.CORE.3]; point-to-throat [L5.SPC.2]``: the choices the rules refuse at
    this step (special attacks, called shots, attacking, Full Defense), grouped by the rule."""
    offered = _group(cands, at)
    if step == "action":
        known = ["attack", "full_attack", "full_defense"]
    elif step == "special":
        known = [s.value for s in SpecialAttackName]
    elif step == "called_shot":
        known = [loc.value for loc in Location]
    else:
        return ""
    refused: dict[str, list[str]] = {}
    for key in known:
        if key in offered:
            continue
        rep = _representative(state, tables, cands[0][0], step, key)
        if rep is None:
            continue
        try:
            validate(state, rep, tables)
        except IllegalActionError as exc:
            refused.setdefault(exc.rule, []).append(say(key.replace("_", "-")))
    return _("; ").join(
        _("{choices} [{rule}]").format(choices=_(", ").join(keys), rule=rule)
        for rule, keys in refused.items()
    )


def _refuse(
    state: DuelState,
    tables: L5Tables,
    cands: Sequence[Candidate],
    at: int,
    want: str,
    groups: dict[str, list[Candidate]],
) -> None:
    """Raise the rule that forbids ``want`` at this step (the same validation ``apply`` runs), or a
    :class:`MenuError` listing the choices when no step knows it."""
    step = cands[0][1][at][0] if at < len(cands[0][1]) else "end"
    rep = _representative(state, tables, cands[0][0], step, want)
    if rep is not None:
        validate(state, rep, tables)  # raises IllegalActionError naming the rule
    shown = want if len(want) <= 40 else want[:37] + "..."
    known = ", ".join(list(groups)[:30]) + (", ..." if len(groups) > 30 else "")
    raise MenuError(
        _("{choice} is not a choice here (choices: {known})").format(
            choice=repr(shown), known=known or _("none")
        )
    )


def _representative(
    state: DuelState, tables: L5Tables, action: Action, step: str, want: str
) -> Action | None:
    """An action like ``action`` with ``want`` at ``step`` (later steps at their plainest), to ask the
    rules whether it is allowed; ``None`` when ``want`` means nothing at this step."""
    if step in ("target", "obstructs") and not state.has_fighter(want):
        return None
    if isinstance(action, Declare):
        me = action.actor
        if step == "action":
            return _declaration(state, me, want)
        act = action.act
        if isinstance(act, Act):
            return Declare(me, Act(act.do, FighterId(want))) if step == "target" else None
        attack = _attack_with(state, me, act, step, want)
        return Declare(me, attack) if attack is not None else None
    if isinstance(action, ThroatStrike):
        attack = _attack_with(state, action.actor, action.attack, step, want)
        return ThroatStrike(action.actor, attack) if attack is not None else None
    p = state.pending
    known = tables.location(p.location).injuries if isinstance(p, InjuryPending) else {}
    if isinstance(action, ChooseInjury) and step == "injury" and want in known:
        return ChooseInjury(action.actor, want)
    return None


def _declaration(state: DuelState, me: FighterId, want: str) -> Declare | None:
    kinds = {k.value for k in ActKind} - {"attack"}
    if want in ("attack", "full_attack"):
        f = state.fighter(me)
        others = [o for o in state.fighters if o.side != f.side] or [
            o for o in state.fighters if o.name != me
        ]
        if not others:
            return None
        return Declare(me, Attack(others[0].name, full_attack=want == "full_attack"))
    if want not in kinds:
        return None
    kind = ActKind(want)
    if kind in (ActKind.CLOSE, ActKind.MEDICAL_AID):
        f = state.fighter(me)
        whom = [o for o in state.fighters if (o.side == f.side) == (kind is ActKind.MEDICAL_AID)]
        return Declare(me, Act(kind, whom[0].name)) if whom else None
    return Declare(me, Act(kind))


def _attack_with(state: DuelState, me: FighterId, attack: Attack, step: str, want: str) -> Attack | None:
    if step == "target":
        return Attack(FighterId(want), full_attack=attack.full_attack)
    if step == "special":
        if want == "none":
            return Attack(attack.target, full_attack=attack.full_attack)
        if want not in {s.value for s in SpecialAttackName}:
            return None
        special = SpecialAttackName(want)
        other = None
        if special is SpecialAttackName.FOUL:
            f = state.fighter(me)
            others = [
                o.name for o in state.fighters if o.side != f.side and o.name != attack.target and not o.dead
            ]
            other = others[0] if others else None
        return Attack(attack.target, special=special, full_attack=attack.full_attack, obstructs=other)
    if step == "obstructs":
        return replace(attack, obstructs=FighterId(want), called_shot=None, damage_raises=0)
    if step == "called_shot":
        if want == "none":
            return replace(attack, called_shot=None, damage_raises=0)
        if want not in {loc.value for loc in Location}:
            return None
        return replace(attack, called_shot=Location(want), damage_raises=0)
    if step == "raises" and want.isascii() and want.isdigit() and len(want) <= 3:
        return replace(attack, damage_raises=int(want))
    return None


# -- the GM's menus (derived by the core from gm_actions) --------------------------------------------------
_GM_KINDS = {
    "gm_set_wounds": N_("Set a fighter's Wounds"),
    "gm_injure": N_("Add an injury's statuses (its location and injury)"),
    "gm_remove_status": N_("Remove a status"),
    "gm_add_condition": N_("Add a condition (a disadvantage, with its lasting effects)"),
    "gm_remove_condition": N_("Remove a condition (and its effects)"),
    "gm_danger_behind": N_("Rule whether a fighter knows of danger behind (it may then refuse a Drive)"),
    "gm_end_duel": N_("End the duel"),
}


def gm_label(state: DuelState, tables: L5Tables, field: str, value: Any) -> str | None:
    """Words for the GM's derived menus (``None``: the core's default words)."""
    if field == "kind" and isinstance(value, str):
        return _(_GM_KINDS[value]) if value in _GM_KINDS else None
    if field == "wounds" and isinstance(value, int):
        return ngettext("{n} Wound", "{n} Wounds", value).format(n=value)
    if field == "aware" and isinstance(value, bool):
        return _("aware of danger behind") if value else _("not aware of danger behind")
    if field == "winner" and value is None:
        return _("no winner")
    if field == "winner" and isinstance(value, str):
        return _("{side} wins").format(side=value)
    if field == "injury" and isinstance(value, str):
        return say(value.replace("_", " "))
    if field in ("status", "condition", "location") and isinstance(value, str):
        return say_status(value) if field == "status" else say(value)
    return None
