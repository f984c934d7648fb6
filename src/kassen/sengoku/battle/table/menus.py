"""Decisions built step by step: the Sengoku menus — the ruleset's own ``choices`` and
``decision`` hooks (:mod:`kassen.core.menu`), one builder per decision the battle waits on.

- the GM begins the battle (SG.RND.2);
- a **breath** (:mod:`~kassen.sengoku.battle.table.breath`): maneuver → target, zone, aim, squads or
  weapon where it needs them → the next maneuver … → end the breath; Hold or Pass at its start
  (SG.BRT.1, SG.CNT.6);
- a **reaction**: answer with a usable reservation, or let the attack through (SG.RES.1-2); a
  reservation the rules bar now (an evasion while Defenseless, SG.DFL.2; no Energy left, SG.RD.6) is
  shown, not allowed;
- an **upkeep** in the lull: maneuver → whom → what it restores, or where a shikigami goes; or end the
  upkeep (SG.LUL.2);
- **Fate**: move a die of the roll just made (SG.FAT.1), or Last Bastion (SG.FAT.2), or spend none;
- the GM's **fumble extras**: one extra after another (the foot slip's zone), then done — or none
  (SG.FUM.2);
- the GM's **environment** in the lull: the yoma roll (where the yoma come), a battlefield change on a
  zone, or nothing (SG.LUL.3).

Every path is validated as it is built: an id no step offers is a :class:`~kassen.core.menu.MenuError`
listing the choices; one the rules refuse is the :class:`~kassen.core.errors.IllegalActionError` of the
rule (the same validation ``apply`` runs). A complete path is exactly an action ``apply`` accepts, and
:func:`path_of` gives the path of any action ``legal_actions`` lists (and of any other legal breath):
the action itself, but for one spelling the breath list has that the menus do not (a Retreat naming a
zone it never reads, :func:`canonical`).
"""

from __future__ import annotations

__all__ = ["canonical", "choices", "decision", "path_of"]

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from kassen.core.engine import Actor
from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.core.menu import MAX_PATH, Menu, MenuError, Option
from kassen.i18n import S_, _, pgettext, translate_text
from kassen.sengoku.battle.actions import (
    GM,
    Action,
    BattlefieldChange,
    Begin,
    Breath,
    Decline,
    Environment,
    FateIntervention,
    FumbleExtras,
    Hold,
    LastBastion,
    Pass,
    React,
    Upkeep,
)
from kassen.sengoku.battle.flow import upkeep_options
from kassen.sengoku.battle.flow.effects import fumble_options
from kassen.sengoku.battle.flow.turn import upkeep_problem
from kassen.sengoku.battle.plan import usable_reservations
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase, Use
from kassen.sengoku.battle.table.breath import END, HOLD, PASS, RELEASE, BreathMenus, Choice, _Partial
from kassen.sengoku.battle.table.check import refusal
from kassen.sengoku.entries import MovementTo
from kassen.sengoku.resolution import FumbleExtraKind
from kassen.sengoku.words import content_word as _w

#: Ids of the options that are no maneuver, no unit and no zone.
BEGIN, LET_THROUGH, END_UPKEEP, NO_FATE, BASTION = (
    "begin",
    "let_through",
    "end_upkeep",
    "no_fate",
    "last_bastion",
)
NO_EXTRAS, DONE_EXTRAS, YOMA, DEFAULT_ZONE, NOTHING = (
    "no_extras",
    "done_extras",
    "yoma_roll",
    "default_zone",
    "no_environment",
)

Step = tuple[str, str]


@dataclass(frozen=True, slots=True)
class _Cand:
    """One decision as its steps ``(id, words)``."""

    steps: tuple[Step, ...]
    action: Action


@dataclass(frozen=True, slots=True)
class _Tree:
    """A decision whose legal actions are few enough to list: its candidates, the first step's choices
    the rules refuse, and the prompt at each depth."""

    cands: tuple[_Cand, ...]
    refused: tuple[Choice, ...]
    prompt: Callable[[int], str]


def _check(path: Sequence[str]) -> tuple[str, ...]:
    if isinstance(path, str) or not all(isinstance(p, str) for p in path):
        raise MenuError(_("a path is a list of choice ids"))
    if len(path) > MAX_PATH:
        raise MenuError(
            _("a path of {path} choices is longer than {MAX_PATH}").format(path=len(path), MAX_PATH=MAX_PATH)
        )
    return tuple(path)


def _walk(tree: _Tree, path: Sequence[str]) -> tuple[list[_Cand], int]:
    cands = list(tree.cands)
    for k, want in enumerate(path):
        here = [c for c in cands if len(c.steps) > k]
        if not here:
            raise MenuError(
                _("the decision is complete after {k} choice(s): {want} is one too many").format(
                    k=k, want=f"{want[:40]!r}"
                )
            )
        matched = [c for c in here if c.steps[k][0] == want]
        if not matched:
            if k == 0:
                for r in tree.refused:
                    if r.id == want:
                        raise IllegalActionError(
                            r.why or S_("{label} is not allowed now", label=r.label), rule=r.rule
                        )
            known = ", ".join(dict.fromkeys(c.steps[k][0] for c in here))
            shown = want if len(want) <= 40 else want[:37] + "..."
            raise MenuError(
                _("{shown} is not a choice here (choices: {known})").format(shown=f"{shown!r}", known=known)
            )
        cands = matched
    return cands, len(path)


def _why(why: str) -> str:
    """Why the rules refuse a choice, in the reader's language (the rules say it in English)."""
    return translate_text(why) if why else why


def _tree_menu(tree: _Tree, actor: Actor, path: tuple[str, ...]) -> Menu:
    cands, k = _walk(tree, path)
    if path and len(cands) == 1 and len(cands[0].steps) == k:
        return Menu(actor, path, "complete", ())
    groups: dict[str, list[_Cand]] = {}
    words: dict[str, str] = {}
    for c in cands:
        if len(c.steps) > k:
            ident, label = c.steps[k]
            groups.setdefault(ident, []).append(c)
            words.setdefault(ident, label)
    options = [Option(i, words[i], len(g) == 1 and len(g[0].steps) == k + 1) for i, g in groups.items()]
    if k == 0:
        options += [Option(r.id, r.label, True, None, False, _why(r.why), r.rule) for r in tree.refused]
    return Menu(actor, path, tree.prompt(k), tuple(options))


def _tree_action(tree: _Tree, path: tuple[str, ...]) -> Action:
    cands, k = _walk(tree, path)
    if not path or len(cands) != 1 or len(cands[0].steps) != k:
        raise MenuError(_("the decision is not complete: choose further"))
    return cands[0].action


# ------------------------------------------------------------------------------------------ the trees


def _tree(state: BattleState, rules: BattleRules) -> _Tree | None:
    """The tree of the decision open now (``None``: a breath, built by :class:`BreathMenus`)."""
    if state.phase is Phase.START:
        words = _("Begin the battle (round 1: every unit at its maximum Energy, SG.RND.1)")
        prompt = _("GM: begin the battle")
        return _Tree((_Cand(((BEGIN, words),), Begin()),), (), lambda k: prompt)
    d = state.decision
    if d is None:
        raise MenuError(_("nobody decides now"))
    builders: dict[DecisionKind, Callable[[BattleState, BattleRules], _Tree]] = {
        DecisionKind.REACTION: _reaction,
        DecisionKind.UPKEEP: _upkeep,
        DecisionKind.FATE: _fate,
        DecisionKind.LAST_BASTION: _bastion,
        DecisionKind.FUMBLE: _fumble,
        DecisionKind.ENVIRONMENT: _environment,
    }
    build = builders.get(d.kind)
    return build(state, rules) if build is not None else None


def _name(state: BattleState, uid: str) -> str:
    return state.unit(uid).name if state.has_unit(uid) else uid


def _reaction(state: BattleState, rules: BattleRules) -> _Tree:
    d = state.decision
    assert d is not None
    unit = state.unit(d.unit)
    usable = usable_reservations(rules, state, unit, ambushed=d.ambushed)
    cands = [
        _Cand(
            (
                (
                    m,
                    _("Answer with {maneuver} (reserved: 0 further Energy)").format(
                        maneuver=_w(rules.maneuver(m).name)
                    ),
                ),
            ),
            React(unit.id, m),
        )
        for m in usable
    ]
    cands.append(
        _Cand(((LET_THROUGH, _("Let the attack through (the reservation is kept)")),), Decline(unit.id))
    )
    refused = []
    for m in dict.fromkeys(r.maneuver for r in unit.reservations):
        if m in usable:
            continue
        no = refusal(rules, state, React(unit.id, m))
        why, rule = no if no is not None else (S_("not usable now"), "SG.RES.2")
        label = _("Answer with {maneuver}").format(maneuver=_w(rules.maneuver(m).name))
        refused.append(Choice(m, label, None, False, why, rule, complete=True))
    attack = _w(rules.maneuver(d.maneuver).name) if d.maneuver else _("attack")
    prompt = _("{unit}: {attacker}'s {attack} comes — answer with a reservation?").format(
        unit=unit.name, attacker=_name(state, d.attacker), attack=attack
    )
    return _Tree(tuple(cands), tuple(refused), lambda k: prompt)


def _upkeep(state: BattleState, rules: BattleRules) -> _Tree:
    d = state.decision
    assert d is not None
    unit = state.unit(d.unit)
    cands = []
    for a in upkeep_options(rules, state, unit):
        m = rules.maneuver(a.maneuver)
        up = m.upkeep
        said = f"{_w(m.name)}: {translate_text(up.effect)}" if up is not None and up.effect else _w(m.name)
        steps: list[Step] = [(m.id, said)]
        if a.target is not None:
            steps.append((a.target, pgettext("sengoku", "on {unit}").format(unit=_name(state, a.target))))
        if a.choice is not None:
            steps.append((a.choice, _("restore Wounds") if a.choice == "wounds" else _("restore Cohesion")))
        if a.to is not None:
            steps.append((a.to, pgettext("sengoku", "to {zone}").format(zone=translate_text(a.to))))
        cands.append(_Cand(tuple(steps), a))
    cands.append(_Cand(((END_UPKEEP, _("End {unit}'s upkeep").format(unit=unit.name)),), Decline(unit.id)))
    offered = {c.action.maneuver for c in cands if isinstance(c.action, Upkeep)}
    refused = []
    for mid in rules.known(unit):
        m = rules.maneuver(mid)
        if m.upkeep is None or mid in offered:
            continue
        problem = upkeep_problem(rules, state, unit, Upkeep(unit.id, mid, unit.id))
        why = problem or S_("nothing to do now")
        refused.append(Choice(mid, _w(m.name), None, False, why, "SG.LUL.2", complete=True))
    steps_words = (
        _("choose an upkeep maneuver (no Energy)"),
        _("choose whom it helps"),
        _("choose what it restores, or where the shikigami goes"),
    )
    prompts = [
        _("{unit}, lull of round {round}: {step}").format(unit=unit.name, round=state.round, step=w)
        for w in steps_words
    ]
    return _Tree(tuple(cands), tuple(refused), lambda k: prompts[min(k, 2)])


def _fate(state: BattleState, rules: BattleRules) -> _Tree:
    d = state.decision
    p = state.attack
    assert d is not None and p is not None
    said = {
        "success": _("a hit"),
        "failure": _("a miss"),
        "critical": _("a Critical Hit"),
        "fumble": _("a Fumble"),
    }
    rolled = said.get(p.outcomes[0], p.outcomes[0]) if p.outcomes else ""
    cands = []
    for i, die in enumerate(p.offered):
        a, b = p.faces[0], p.faces[1]
        after = (b, b) if die == 0 else (a, a)
        outcome = p.outcomes[i + 1] if i + 1 < len(p.outcomes) else ""
        made = said.get(outcome, outcome)
        cost = rules.resolution.fate.intervention_cost
        words = _("Move die {die}: {before} → {after}, {made} ({cost} Fate)").format(
            die=die + 1, before=list(p.faces), after=list(after), made=made, cost=cost
        )
        cands.append(_Cand(((f"move_die_{die + 1}", words),), FateIntervention(d.unit, die)))
    no_fate = _("Spend no Fate (the roll stands: {rolled})").format(rolled=rolled)
    cands.append(_Cand(((NO_FATE, no_fate),), Decline(d.unit)))
    unit = state.unit(d.unit)
    prompt = _("{unit}: {faces} rolled — spend Fate on Fate Intervention? (SG.FAT.1)").format(
        unit=unit.name, faces=list(p.faces)
    )
    return _Tree(tuple(cands), (), lambda k: prompt)


def _bastion(state: BattleState, rules: BattleRules) -> _Tree:
    d = state.decision
    assert d is not None
    unit = state.unit(d.unit)
    cost = rules.resolution.fate.last_bastion_cost
    cands = (
        _Cand(
            ((BASTION, _("Last Bastion ({cost} Fate): the hit check misses").format(cost=cost)),),
            LastBastion(unit.id),
        ),
        _Cand(((NO_FATE, _("Spend no Fate (the blow lands)")),), Decline(unit.id)),
    )
    prompt = _("{unit}: {attacker}'s blow would take the last Wounds — Last Bastion? (SG.FAT.2)").format(
        unit=unit.name, attacker=_name(state, d.attacker)
    )
    return _Tree(cands, (), lambda k: prompt)


def _fumble(state: BattleState, rules: BattleRules) -> _Tree:
    d = state.decision
    assert d is not None
    extras = rules.resolution.fumble.extras
    singles = fumble_options(rules, state, d)
    allowed: dict[str, list[str | None]] = {}
    for a in singles:
        if len(a.extras) == 1:
            allowed.setdefault(a.extras[0], []).append(a.to)
    cands: list[_Cand] = [_Cand(((NO_EXTRAS, _("No extras")),), Decline(GM))]
    keys = list(allowed)
    for n in range(1, len(keys) + 1):
        for order in permutations(keys, n):
            moves = [x for x in order if extras[x].does is FumbleExtraKind.FORCED_MOVE]
            for to in allowed[moves[0]] if moves else [None]:
                steps: list[Step] = []
                for x in order:
                    steps.append((x, f"{_w(extras[x].name)}: {translate_text(extras[x].effect)}"))
                    if moves and x == moves[0] and to is not None:
                        steps.append((to, pgettext("sengoku", "to {zone}").format(zone=translate_text(to))))
                steps.append((DONE_EXTRAS, _("Done: add these extras")))
                cands.append(_Cand(tuple(steps), FumbleExtras(order, to)))
    refused = []
    for key, extra in extras.items():
        if key in allowed:
            continue
        no = refusal(rules, state, FumbleExtras((key,)))
        why, rule = no if no is not None else (S_("not possible now"), "SG.FUM.2")
        refused.append(Choice(key, _w(extra.name), None, False, why, rule, complete=True))
    prompt = _("GM: {unit} fumbled — add extras (SG.FUM.2)? one at a time, then done").format(
        unit=_name(state, d.attacker)
    )
    return _Tree(tuple(cands), tuple(refused), lambda k: prompt)


def _environment(state: BattleState, rules: BattleRules) -> _Tree:
    cands: list[_Cand] = []
    refused: list[Choice] = []
    yoma = (YOMA, _("Roll the Yoma Encounter Table (d100)"))
    if state.yoma:
        cands.append(_Cand((yoma, (DEFAULT_ZONE, _("where the row says (its zone kind)"))), Environment()))
        cands += [
            _Cand(
                (
                    yoma,
                    (
                        z.id,
                        pgettext("sengoku", "in {zone} ({kind})").format(
                            zone=translate_text(z.id), kind=_(z.kind)
                        ),
                    ),
                ),
                Environment(z.id),
            )
            for z in state.zones
        ]
    else:
        no = refusal(rules, state, Environment())
        why, rule = no if no is not None else (S_("not open to yoma"), "SG.LUL.3")
        refused.append(Choice(YOMA, yoma[1], None, False, why, rule, complete=True))
    for c in rules.yoma.changes:
        if not state.changes:
            no = refusal(rules, state, BattlefieldChange(c.id, state.zones[0].id))
            why, rule = no if no is not None else (S_("no battlefield changes here"), "SG.LUL.3")
            refused.append(Choice(c.id, _w(c.name), None, False, why, rule, complete=True))
            continue
        for z in state.zones:
            cands.append(
                _Cand(
                    (
                        (c.id, f"{_w(c.name)}: {translate_text(c.effect)}"),
                        (
                            z.id,
                            pgettext("sengoku", "on {zone} ({kind})").format(
                                zone=translate_text(z.id), kind=_(z.kind)
                            ),
                        ),
                    ),
                    BattlefieldChange(c.id, z.id),
                )
            )
    cands.append(_Cand(((NOTHING, _("Nothing this lull")),), Decline(GM)))
    prompts = (_("GM: the lull's environment (SG.LUL.3)"), _("GM: choose the zone"))
    return _Tree(tuple(cands), tuple(refused), lambda k: prompts[min(k, 1)])


# ------------------------------------------------------------------------------------------ the hooks


def _breath(state: BattleState, rules: BattleRules) -> BreathMenus:
    d = state.decision
    assert d is not None and d.kind is DecisionKind.BREATH
    return BreathMenus(rules, state, state.unit(d.unit))


def choices(state: BattleState, rules: BattleRules, path: Sequence[str], actor: Actor | None) -> Menu:
    """The menu after ``path`` for ``actor`` (whoever decides now)."""
    path = _check(path)
    if actor is None:
        raise MenuError(_("the combat is over: nobody decides"))
    tree = _tree(state, rules)
    if tree is not None:
        return _tree_menu(tree, actor, path)
    b = _breath(state, rules)
    built, options, step = b.options(path)
    if built.action is not None:
        return Menu(actor, path, "complete", ())
    shown = tuple(Option(o.id, o.label, o.complete, o.odds, o.allowed, _why(o.why), o.rule) for o in options)
    return Menu(actor, path, b.prompt(built.uses, built.partial, step), shown)


def decision(state: BattleState, rules: BattleRules, path: Sequence[str]) -> Action:
    """The action a complete ``path`` names."""
    path = _check(path)
    if state.phase is Phase.OVER:
        raise MenuError(_("the combat is over: nobody decides"))
    tree = _tree(state, rules)
    if tree is not None:
        return _tree_action(tree, path)
    built = _breath(state, rules).walk(path)
    if built.action is None:
        raise MenuError(_("the breath is not complete: choose further, or end it"))
    return built.action


def path_of(state: BattleState, rules: BattleRules, action: Action) -> tuple[str, ...] | None:
    """The path of choices that builds ``action`` now (``None``: no menu builds it)."""
    tree = _tree(state, rules)
    if tree is not None:
        return next((tuple(i for i, _ in c.steps) for c in tree.cands if c.action == action), None)
    b = _breath(state, rules)
    if isinstance(action, Hold):
        return (HOLD,)
    if isinstance(action, Pass):
        return (PASS,)
    if not isinstance(action, Breath):
        return None
    out: list[str] = []
    done: tuple[Use, ...] = ()
    for use in canonical(rules, action).uses:
        steps = _use_path(b, done, use)
        if steps is None:
            return None
        out += steps
        done = (*done, use)
    return (*out, END)


def canonical(rules: BattleRules, action: Breath) -> Breath:
    """``action`` as the menus build it: a Retreat names no zone (it leaves the battlefield; the zone a
    breath may name for it is never read, SG.RET.1)."""
    uses = []
    for use in action.uses:
        m = rules.catalog.maneuvers.get(use.maneuver)
        mv = m.movement if m is not None else None
        if mv is not None and mv.to is MovementTo.OFF_BATTLEFIELD and use.to is not None:
            use = replace(use, to=None)
        uses.append(use)
    return Breath(action.unit, tuple(uses))


_FIELDS = {"weapon": "weapon", "aim": "aim", "target": "target", "to": "to", "squads": "squads"}


def _use_path(b: BreathMenus, done: tuple[Use, ...], use: Use) -> list[str] | None:
    if not b.rules.catalog.maneuvers.get(use.maneuver):
        return None
    m = b.rules.maneuver(use.maneuver)
    if use.release:
        return [RELEASE + m.id] if use == BreathMenus.use_of(_Partial(m, (("release", True),))) else None
    p = _Partial(m)
    out = [m.id]
    while True:
        p, step = b._fill(done, p)
        if step is None:
            return out if BreathMenus.use_of(p) == use else None
        value: Any = getattr(use, _FIELDS[step])
        found = next((i for i, v in b._values(done, p, step) if v == value), None)
        if found is None:
            return None
        out.append(found)
        p = p.plus(step, value)
