"""Decisions built step by step: the finite menu of legal next choices, and the odds of each.

Whoever must decide is offered a :class:`Menu`; choosing an :class:`Option` extends the *path* of
choices, and an option marked ``complete`` finishes the decision: the path then names exactly one action
``apply`` accepts. Every prefix is checked as it is built; an id not on the menu is a :class:`MenuError`
listing what is, and an option shown but not allowed (``allowed=False``, with its reason and rule) is an
:class:`~kassen.core.errors.IllegalActionError` naming that rule.

A ruleset may build its menus itself (the optional hooks ``choices(state, tables, path) -> Menu`` and
``decision(state, tables, path) -> action``) — a Sengoku breath is maneuver → target → next maneuver …
→ end. Otherwise the core derives them from its complete ``legal_actions``: one step per field of the
action, in the dataclass's order (the kind first, the actor's own id left out, a step every legal action
agrees on skipped), so an arena action is maneuver → target → hit location → options. Optional hooks
refine what is shown: ``label(state, tables, field, value)`` for words, ``odds(state, tables, action)``
for the exact outcome distribution of a complete attack-like choice (:class:`Odds`), computed by the same
rule functions that resolve it.
"""

from __future__ import annotations

__all__ = [
    "Menu",
    "MenuError",
    "Odds",
    "Option",
    "build_menu",
    "decide",
    "derived_steps",
    "in_words",
    "without_hidden_odds",
]

import dataclasses
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any, Union, get_args, get_origin

from kassen.core.codec import kind_of
from kassen.core.engine import GM, Actor
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.fastreplace import replace
from kassen.i18n import S_

#: Most options one menu lists, and most steps a path may have (a hostile path is refused early).
MAX_OPTIONS = 2_000
MAX_PATH = 64


class MenuError(KassenError):
    """A choice that is not on the menu (the message lists what is)."""

    code = "menu"


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact outcome distribution of a choice: each outcome's probability (they need not be
    exclusive: a critical is also a hit) and expected values (Wounds, damage...), as fractions."""

    outcomes: tuple[tuple[str, Fraction], ...]
    expected: tuple[tuple[str, Fraction], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "outcomes": {k: {"p": str(p), "percent": round(float(p) * 100, 2)} for k, p in self.outcomes},
            "expected": {k: {"value": str(v), "approx": round(float(v), 3)} for k, v in self.expected},
        }

    def text(self) -> str:
        """``hit 72.0%, critical 10.0%; expected Wounds 1.35``."""
        from kassen.i18n import _, translate_text

        parts = [f"{translate_text(k)} {float(p) * 100:.1f}%" for k, p in self.outcomes]
        expected = [
            _("expected {what} {value}").format(what=translate_text(k), value=format(float(v), ".2f"))
            for k, v in self.expected
        ]
        return ", ".join(parts) + ("; " + ", ".join(expected) if expected else "")


@dataclass(frozen=True, slots=True)
class Option:
    """One choice: its ``id`` (what a path holds), its label, whether it finishes the decision, its odds;
    an option shown but not allowed now carries the reason and the rule."""

    id: str
    label: str
    complete: bool = False
    odds: Odds | None = None
    allowed: bool = True
    why: str = ""
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "label": self.label, "complete": self.complete}
        if self.odds is not None:
            out["odds"] = self.odds.to_json()
        if not self.allowed:
            out.update(allowed=False, why=self.why, rule=self.rule)
        return out


@dataclass(frozen=True, slots=True)
class Menu:
    """The choices open to ``actor`` after the ``path`` chosen so far."""

    actor: Actor
    path: tuple[str, ...]
    prompt: str
    options: tuple[Option, ...]

    def option(self, ident: str) -> Option:
        for o in self.options:
            if o.id == ident:
                return o
        shown = ident if len(ident) <= 40 else ident[:37] + "..."
        known = ", ".join(o.id for o in self.options[:30]) + (", ..." if len(self.options) > 30 else "")
        raise MenuError(
            S_("{choice} is not a choice here (choices: {known})", choice=repr(shown), known=known or "none")
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "actor": self.actor.to_json(),
            "path": list(self.path),
            "prompt": self.prompt,
            "options": [o.to_json() for o in self.options],
        }


def in_words(menu: Menu) -> Menu:
    """``menu`` with its prompt, labels and reasons in the reader's language. A ruleset may build its
    menu's words in English (kept as the data's English, like the core's derived menus) or in the current
    language; :func:`kassen.i18n.translate_text` gives either in the reader's words (text already in
    them is left as it is). The odds keep their English keys: they are data (the visibility table names
    them), shown through :meth:`Odds.text`."""
    from kassen.i18n import SOURCE, current_language, translate_text

    if current_language() == SOURCE:
        return menu
    options = tuple(
        replace(o, label=translate_text(o.label), why=translate_text(o.why) if o.why else o.why)
        for o in menu.options
    )
    return replace(menu, prompt=translate_text(menu.prompt), options=options)


def without_hidden_odds(menu: Menu, hidden: Sequence[str]) -> Menu:
    """``menu`` with the odds' outcomes and expected values named in ``hidden`` left out."""
    if not hidden:
        return menu
    drop = set(hidden)
    options = []
    for o in menu.options:
        odds = o.odds
        if odds is not None:
            odds = Odds(
                tuple((k, p) for k, p in odds.outcomes if k not in drop),
                tuple((k, v) for k, v in odds.expected if k not in drop),
            )
        options.append(replace(o, odds=odds))
    return replace(menu, options=tuple(options))


# -- deriving menus from complete legal actions ---------------------------------------------------------
Step = tuple[str, Any]


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _is_union_of_classes(tp: Any) -> bool:
    if get_origin(tp) is not Union and type(tp).__name__ != "UnionType":
        return False
    return sum(1 for a in get_args(tp) if isinstance(a, type) and dataclasses.is_dataclass(a)) > 1


def derived_steps(action: Any, actor_id: str = "") -> tuple[Step, ...]:
    """``action`` as the steps a derived menu offers: its kind, then each field (a nested action's kind
    and fields in turn), leaving out the actor's own id."""
    out: list[Step] = [("kind", kind_of(type(action)))]
    _fields(action, "", actor_id, out)
    return tuple(out)


def _fields(value: Any, prefix: str, actor_id: str, out: list[Step]) -> None:
    cls: Any = type(value)
    hints = _hints(cls)
    for f in dataclasses.fields(value):
        if not f.init:
            continue  # a reading kept on the object (a cached hash), not one of its fields
        v = getattr(value, f.name)
        name = f"{prefix}{f.name}"
        if actor_id and v == actor_id:
            continue
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            if _is_union_of_classes(hints[f.name]):
                out.append((f"{name}.kind", kind_of(type(v))))
            _fields(v, f"{name}.", actor_id, out)
            continue
        out.append((name, v))


def _ident(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def _words(name: str) -> str:
    return name.rsplit(".", 1)[-1].replace("_", " ")


def _default_label(field: str, value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, bool):
        return _words(field) if value else S_("no {what}", what=_words(field))
    if value is None:
        return S_("no {what}", what=_words(field))
    if isinstance(value, str) and value in names:
        return names[value]
    if field.endswith("kind"):
        return _words(str(value))
    return f"{_words(field)} {_ident(value)}" if isinstance(value, int) else _ident(value).replace("_", " ")


def _derived(
    ruleset: Any, state: Any, tables: Any, actions: Sequence[Any], actor: Actor, path: Sequence[str]
) -> tuple[Menu, Any | None]:
    """The derived menu after ``path``, and the action the path names when it is complete."""
    steps = [(a, derived_steps(a, actor.id if actor.kind == "unit" else "")) for a in actions]
    names = ruleset.names(state)
    label_hook = getattr(ruleset, "label", None)
    odds_hook = getattr(ruleset, "odds", None)
    who = names.get(actor.id, str(actor)) if actor.kind == "unit" else str(actor)

    def label(field: str, value: Any) -> str:
        words = label_hook(state, tables, field, value) if label_hook else None
        return words or _default_label(field, value, names)

    if not steps:
        if path:
            raise MenuError(S_("{who} has nothing to choose", who=who))
        return Menu(actor, (), S_("{who}: nothing to choose", who=who), ()), None
    if len(steps) == 1:  # one thing to do: still a choice to make, named by its kind
        action, only = steps[0]
        option = Option(
            _ident(only[0][1]), label(*only[0]), True, odds_hook(state, tables, action) if odds_hook else None
        )
        if not path:
            return Menu(actor, (), S_("{who}: choose an action", who=who), (option,)), None
        if tuple(path) == (option.id,):
            return Menu(actor, tuple(path), "complete", ()), action
        Menu(actor, (), "", (option,)).option(path[0])
        raise MenuError(
            S_("the decision is complete after 1 choice: {extra} is one too many", extra=repr(path[1]))
        )
    at = 0
    chosen: list[str] = []
    while True:
        while (
            steps
            and at < len(steps[0][1])
            and all(at < len(s) and s[at] == steps[0][1][at] for _, s in steps)
        ):
            at += 1
        if len(steps) == 1 and at >= len(steps[0][1]):
            if len(chosen) < len(path):
                extra = path[len(chosen)]
                raise MenuError(
                    S_(
                        "the decision is complete after {n} choices: {extra} is one too many",
                        n=len(chosen),
                        extra=repr(extra),
                    )
                )
            return Menu(actor, tuple(path), "complete", ()), steps[0][0]
        groups: dict[str, list[tuple[Any, tuple[Step, ...]]]] = {}
        fields: dict[str, Step] = {}
        for a, s in steps:
            step = s[at] if at < len(s) else ("end", None)
            key = _ident(step[1])
            groups.setdefault(key, []).append((a, s))
            fields.setdefault(key, step)
        if len(chosen) == len(path):
            options = []
            for key, members in groups.items():
                field, value = fields[key]
                complete = len(members) == 1
                odds = odds_hook(state, tables, members[0][0]) if complete and odds_hook else None
                options.append(Option(key, label(field, value), complete, odds))
            field = next(iter(fields.values()))[0]
            prompt = (
                S_("{who}: choose the {what}", who=who, what=_words(field))
                if field != "kind"
                else S_("{who}: choose an action", who=who)
            )
            return Menu(actor, tuple(path), prompt, tuple(options[:MAX_OPTIONS])), None
        want = path[len(chosen)]
        if want not in groups:
            Menu(actor, tuple(chosen), "", tuple(Option(k, k) for k in groups)).option(want)
        steps = groups[want]
        chosen.append(want)
        at += 1


# -- the menu of a fight ------------------------------------------------------------------------------------
def _check_path(path: Sequence[str]) -> tuple[str, ...]:
    if not isinstance(path, list | tuple) or not all(isinstance(p, str) for p in path):
        raise MenuError(S_("a path is a list of choice ids"))
    if len(path) > MAX_PATH:
        raise MenuError(S_("a path of {n} choices is longer than {most}", n=len(path), most=MAX_PATH))
    return tuple(path)


def build_menu(ruleset: Any, state: Any, tables: Any, path: Sequence[str] = (), *, gm: bool = False) -> Menu:
    """The menu after ``path`` for whoever decides now (``gm``: the GM's own moves)."""
    path = _check_path(path)
    if gm:
        hook = getattr(ruleset, "gm_actions", None)
        actions = list(hook(state, tables)) if hook else []
        return _derived(ruleset, state, tables, actions, GM, path)[0] if actions else Menu(GM, path, "", ())
    actor = ruleset.to_move(state)
    if actor is None:
        raise MenuError(S_("the fight is over: nobody decides"))
    own = getattr(ruleset, "choices", None)
    if own is not None:
        menu: Menu = own(state, tables, path)
        return menu
    menu, _ = _derived(ruleset, state, tables, ruleset.legal_actions(state, tables), actor, path)
    return menu


def decide(ruleset: Any, state: Any, tables: Any, path: Sequence[str], *, gm: bool = False) -> Any:
    """The action a complete ``path`` names (a :class:`MenuError` when it is not complete, an
    :class:`~kassen.core.errors.IllegalActionError` naming the rule for a choice not allowed). A ruleset
    that builds its own menus validates the path itself (its ``decision`` hook)."""
    path = _check_path(path)
    if not path:
        raise MenuError(S_("choose at least one option"))
    if not gm and getattr(ruleset, "decision", None) is not None:
        return ruleset.decision(state, tables, path)
    parent = build_menu(ruleset, state, tables, path[:-1], gm=gm)
    last = parent.option(path[-1])
    if not last.allowed:
        why = last.why or S_("{label} is not allowed now", label=last.label)
        raise IllegalActionError(why, rule=last.rule or "")
    if not last.complete:
        raise MenuError(S_("{label} does not finish the decision: choose further", label=repr(last.label)))
    if gm:
        hook = getattr(ruleset, "gm_actions", None)
        actions = list(hook(state, tables)) if hook else []
        return _derived(ruleset, state, tables, actions, GM, path)[1]
    actor = ruleset.to_move(state)
    return _derived(ruleset, state, tables, ruleset.legal_actions(state, tables), actor, path)[1]
