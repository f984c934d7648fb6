"""Views are not state (DESIGN principle 12): what the GM sees, and what a side may know.

``observe(fight, viewer)`` is the fight as one viewer sees it: the GM sees everything; a side sees its
own units fully and of the others only what the rules make public. What is hidden is *data*: each
ruleset ships a ``visibility`` table in its content (a documented house default, overridable like the
others) with two kinds of rules:

* ``state``: a path into the state's JSON (``units[].wounds``; ``[]`` walks a list) and, relative to the
  innermost list element, the path of the side that owns it (``side``, ``profile.side``): another side
  reads ``null`` there;
* ``events``: an event kind (``*`` for any) and the data fields it hides (``*`` for all its data), and
  the data field naming the unit that owns them: another side reads the event without those fields.

A side's view of the log has the events (redacted) of every action, and the actions of its own units
only. A view never contains a hidden value anywhere in it: the RNG position is never shown.
"""

from __future__ import annotations

__all__ = [
    "GM_VIEW",
    "EventRule",
    "StateRule",
    "Viewer",
    "Visibility",
    "VisibilityModel",
    "check_visibility",
    "observe",
    "visibility_of",
]

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import Field

from kassen.content.yamlio import HouseDefault, StrictModel
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.i18n import S_

if TYPE_CHECKING:
    from kassen.core.fight import Fight


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks: a side (its id), or the GM (``side`` None)."""

    side: str | None = None

    @property
    def gm(self) -> bool:
        return self.side is None

    def __str__(self) -> str:
        return "the GM" if self.side is None else f"side {self.side}"


GM_VIEW = Viewer()

_PATH = r"^[a-z_][a-z0-9_]*(\[\])?(\.[a-z_][a-z0-9_]*(\[\])?)*$"


class StateRule(StrictModel):
    """A field of the state another side does not see."""

    path: str = Field(
        pattern=_PATH, description="Where in the state's JSON, `[]` walking a list: units[].wounds"
    )
    owner: str = Field(
        pattern=_PATH, description="The path of the owning side (or unit), from the innermost list element"
    )
    why: str = ""


class EventRule(StrictModel):
    """Fields of an event another side does not see."""

    kind: str = Field(min_length=1, description="The event kind, or * for every kind")
    fields: tuple[str, ...] = Field(min_length=1, description="The data fields hidden, or * for all")
    owner: str = Field(min_length=1, description="The data field naming the unit whose side owns them")
    why: str = ""


class StepRule(StrictModel):
    """Explanation steps whose words another side does not read: a step of one of ``rules`` names a
    hidden number in its reason ("HP 3: Move halved"). Its value stays (what it does to a check or a
    Move is seen); its reason reads None."""

    rules: tuple[str, ...] = Field(
        min_length=1, description="The rule IDs of the steps whose reason is hidden"
    )
    owner: str = Field(min_length=1, description="The data field naming the unit whose side owns them")
    kind: str = Field("*", min_length=1, description="The event kind, or * for every kind")
    why: str = ""


class VisibilityModel(StrictModel):
    """A ruleset's visibility table (its content section ``visibility``). ``odds`` names the outcomes
    and expected values of a menu's odds that depend on what a side may not see (a chance to kill
    follows from hidden Wounds): a side's menus leave them out."""

    house_default: HouseDefault
    state: tuple[StateRule, ...] = ()
    events: tuple[EventRule, ...] = ()
    steps: tuple[StepRule, ...] = ()
    odds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Visibility:
    """The rules in force (see the module notes)."""

    state: tuple[StateRule, ...] = ()
    events: tuple[EventRule, ...] = ()
    odds: tuple[str, ...] = ()
    steps: tuple[StepRule, ...] = ()

    @classmethod
    def of(cls, model: VisibilityModel | None) -> Visibility:
        return cls() if model is None else cls(model.state, model.events, model.odds, model.steps)


def visibility_of(ruleset: Any, tables: Any) -> Visibility:
    """The ruleset's visibility table (nothing hidden when it has none)."""
    hook = getattr(ruleset, "visibility", None)
    return hook(tables) if hook is not None else Visibility()


def check_visibility(rules: Visibility, event_types: Mapping[str, Any]) -> None:
    """Raise :class:`~kassen.core.errors.ContentError` unless every event rule of ``rules`` names a kind
    of event the ruleset declares (``RulesetInfo.event_types``, or ``*``) and data fields that kind
    carries (its hidden fields and its owner; a ``*`` kind's owner is read where an event has it): a
    field renamed in the rules, or misspelt in a table, would otherwise hide nothing. A ruleset that
    declares no types is not checked (its event data is free)."""
    if not event_types:
        return
    from kassen.core.events import event_fields

    issues = []
    named = [(f"events[{i}]", r.kind, (*r.fields, r.owner)) for i, r in enumerate(rules.events)]
    named += [(f"steps[{i}]", r.kind, (r.owner,)) for i, r in enumerate(rules.steps)]
    for where, kind, fields in named:
        if kind == "*":
            continue
        if kind not in event_types:
            issues.append(
                ContentIssue(
                    "visibility",
                    where,
                    S_("{kind} is not a kind of event this ruleset logs", kind=repr(kind)),
                )
            )
            continue
        known = event_fields(event_types[kind])
        for name in fields:
            if name != "*" and name not in known:
                message = S_(
                    "events of kind {kind} carry no field {name} (fields: {known})",
                    kind=repr(kind),
                    name=repr(name),
                    known=", ".join(sorted(known)),
                )
                issues.append(ContentIssue("visibility", where, message))
    if issues:
        raise ContentError(issues)


def _walk(
    node: Any, parts: Sequence[str], element: Any, do: Callable[[dict[str, Any], str, Any], None]
) -> None:
    """Visit the last key of ``parts`` under ``node``; ``element`` is the innermost list element."""
    if not parts or not isinstance(node, dict):
        return
    head, rest = parts[0], parts[1:]
    is_list = head.endswith("[]")
    key = head.removesuffix("[]")
    if key not in node:
        return
    if not rest and not is_list:
        do(node, key, element)
        return
    child = node[key]
    if is_list and isinstance(child, list):
        for item in child:
            if rest:
                _walk(item, rest, item, do)
    else:
        _walk(child, rest, element, do)


def _get(node: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def redact_state(
    data: Any, rules: Visibility, viewer: Viewer, side_of: Callable[[Any], Any] = lambda x: None
) -> Any:
    """A copy of the state's JSON with what ``viewer`` may not see set to ``null``. An owner path may
    give a side id or a unit id (``side_of`` maps a unit to its side)."""
    out = copy.deepcopy(data)
    if viewer.gm:
        return out
    for rule in rules.state:

        def hide(parent: dict[str, Any], key: str, element: Any, rule: StateRule = rule) -> None:
            owner = _get(element, rule.owner)
            if owner != viewer.side and side_of(owner) != viewer.side:
                parent[key] = None

        _walk(out, rule.path.split("."), out, hide)
    return out


def redact_event(
    event: Mapping[str, Any], rules: Visibility, viewer: Viewer, side_of: Callable[[Any], Any]
) -> dict[str, Any]:
    """An event's JSON as ``viewer`` sees it."""
    out = copy.deepcopy(dict(event))
    if viewer.gm:
        return out
    data = out.get("data")
    if not isinstance(data, dict):
        return out
    kind = out.get("kind")
    for rule in rules.events:
        owner = _foreign_owner(rule.kind, rule.owner, kind, data, viewer, side_of)
        if owner is None:
            continue
        if "*" in rule.fields:
            out["data"] = data = {rule.owner: owner}
            out["hidden"] = True
        else:
            for name in rule.fields:
                if name in data:
                    data[name] = None
    for steps in rules.steps:
        if _foreign_owner(steps.kind, steps.owner, kind, data, viewer, side_of) is not None:
            _hide_reasons(data, frozenset(steps.rules))
    return out


def _foreign_owner(
    rule_kind: str,
    owner_field: str,
    kind: Any,
    data: dict[str, Any],
    viewer: Viewer,
    side_of: Callable[[Any], Any],
) -> Any:
    """The unit (or side) an event's ``owner_field`` names when a rule for ``rule_kind`` applies to the
    event's ``kind`` and that owner is not ``viewer``'s; else None (the viewer sees it all)."""
    if rule_kind not in ("*", kind):
        return None
    owner = data.get(owner_field)
    return None if owner is None or side_of(owner) == viewer.side else owner


def _hide_reasons(node: Any, rules: frozenset[str]) -> None:
    """Every explanation step under ``node`` (a dict with a value, a reason and a rule) of one of
    ``rules``: its reason set to None."""
    if isinstance(node, dict):
        if node.get("rule") in rules and "reason" in node and "value" in node:
            node["reason"] = None
        for child in node.values():
            _hide_reasons(child, rules)
    elif isinstance(node, list):
        for child in node:
            _hide_reasons(child, rules)


def observe(fight: Fight[Any, Any], viewer: Viewer) -> dict[str, Any]:
    """The fight as ``viewer`` sees it: who decides, the state, the log, the result."""
    rs = fight.ruleset
    if viewer.side is not None and viewer.side not in fight.sides():
        raise KassenError(
            S_(
                "no side {side} in this fight (sides: {items})",
                side=repr(viewer.side),
                items=", ".join(fight.sides()),
            )
        )
    rules = visibility_of(rs, fight.tables)
    side_of = fight.side_of
    names = rs.names(fight.initial_state)
    log = []
    for entry in fight.entries:
        mine = viewer.gm or (entry.actor is not None and entry.actor.side == viewer.side)
        item: dict[str, Any] = {
            "index": entry.index,
            "actor": entry.actor.to_json() if entry.actor is not None else None,
            "events": [redact_event(e.to_json(), rules, viewer, side_of) for e in entry.events],
        }
        if mine:
            item["action"] = fight.action_json(entry.action)
        log.append(item)
    to_move = fight.to_move
    result = fight.result
    return {
        "viewer": {"gm": viewer.gm, "side": viewer.side},
        "ruleset": rs.info.name,
        "scenario": fight.meta.get("scenario", ""),
        "names": dict(names),
        "state_id": fight.view_id(viewer),
        "to_move": to_move.to_json() if to_move is not None else None,
        "over": result is not None,
        "result": result.to_json() if result is not None else None,
        "state": redact_state(fight._state_codec.dump(fight.state), rules, viewer, side_of),
        "log": log,
    }
