"""What a ruleset supplies, and the registry that finds one by name (DESIGN principle 7).

A ruleset is an object with :class:`RulesetInfo` and a few narrow hooks (:class:`Ruleset`); the core
owns everything else — snapshots, the engine skeleton (:mod:`kassen.core.engine`), the codec, content
layers, scenarios, policies, reports and replay. Adding a ruleset edits nothing in the core: it
registers itself (:func:`register_ruleset`), and a bundled one is found lazily through the
``kassen.rulesets`` entry point group, so listing rulesets imports none of them.
"""

from __future__ import annotations

__all__ = [
    "Renderer",
    "Ruleset",
    "RulesetInfo",
    "Setup",
    "bundled_ruleset_names",
    "find_ruleset",
    "loaded_rulesets",
    "register_ruleset",
    "registered_rulesets",
    "unregister_ruleset",
]

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from kassen.core.engine import Actor, Outcome, Turn
from kassen.core.errors import KassenError
from kassen.core.rng import DieSource
from kassen.i18n import S_

if TYPE_CHECKING:
    from kassen.content.content import Content, Layer
    from kassen.core.policy import Policy
    from kassen.core.report import Line
    from kassen.core.scenario import ScenarioSource
    from kassen.core.summary import FightSummary, PlayedFight

S = TypeVar("S")
A = TypeVar("A")
C = TypeVar("C")

#: Renders one event's data as a line of the account (``None``: nothing worth a line). The context
#: gives names and verbosity; see :mod:`kassen.core.report`. The data is its kind's: a renderer takes the
#: kind's declared type (``RulesetInfo.event_types``, a ``TypedDict``), so the type checker holds every
#: key it reads to the declaration (a side's view may read null where a value is hidden from it).
Renderer = Callable[[Any, Any], "str | Line | None"]


@dataclass(frozen=True)
class RulesetInfo:
    """A ruleset's metadata.

    ``state_type``/``action_type`` drive the codec (the action type is a union discriminated by
    ``kind``); ``scenarios`` and ``rule_texts`` are ``(package, resource)`` of the bundled scenario
    folder and the rule texts (``kassen rules``); ``scenario_model`` is the pydantic model of a
    scenario's body (``kassen schema scenario``). ``legal_actions_complete`` says whether
    ``legal_actions`` lists every legal action; when it is not, ``legal_actions_note`` says what it
    lists, and ``apply`` still accepts every legal action. ``max_units`` bounds a scenario's size.
    """

    name: str
    title: str
    ledger: str
    state_type: Any
    action_type: Any
    scenarios: tuple[str, str]
    rule_texts: tuple[str, str]
    scenario_model: Any
    legal_actions_complete: bool = True
    legal_actions_note: str = ""
    seeds: tuple[str, ...] = field(default=())
    #: The most units a scenario may field (a bigger one is refused when it is opened, naming this).
    max_units: int = 100
    #: Event kind → the ``TypedDict`` of its data (:mod:`kassen.core.events`): when given, every kind the
    #: ruleset logs is here, a chronicle's events are checked against them when it is read, and
    #: ``kassen schema chronicle`` prints them. Empty: the events are free JSON.
    event_types: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Setup(Generic[S, A]):
    """A scenario made ready to fight: the initial state, its title and the seed it states (None: it
    states none), the action limit of an auto-played fight, and a factory of the scenario's policy (one
    per fight)."""

    state: S
    title: str
    seed: int | None
    max_actions: int
    policy: Callable[[], Policy[S, A]]


class Ruleset(Protocol[S, A, C]):
    """The hooks a ruleset supplies (``C`` is its content tables' type)."""

    info: RulesetInfo
    #: Event kind → renderer for the account; every kind the ruleset logs has one.
    renderers: Mapping[str, Renderer]

    def load_content(self, layers: Sequence[Layer]) -> Content[C]:
        """The bundled tables with the user's ``layers`` (and a scenario's own) merged over them."""
        ...

    def setup(self, scenario: ScenarioSource, content: Content[C]) -> Setup[S, A]:
        """A scenario's body (its header already read) validated into a :class:`Setup`."""
        ...

    def to_move(self, state: S) -> Actor | None:
        """Who must decide now; ``None`` when the fight is over."""
        ...

    def legal_actions(self, state: S, tables: C) -> Sequence[A]:
        """What the actor to move may do (see ``RulesetInfo.legal_actions_complete``)."""
        ...

    def start(self, state: S, dice: DieSource, tables: C) -> Turn[S]:
        """The working copy one action is resolved in."""
        ...

    def resolve(self, turn: Turn[S], action: A) -> None:
        """Validate ``action`` (IllegalActionError naming its rule) and apply it to ``turn``."""
        ...

    def follow_up(self, turn: Turn[S]) -> bool:
        """Run one automatic step; False when someone must decide or the fight is over."""
        ...

    def result(self, state: S) -> Outcome | None:
        """How the fight ended, or ``None`` while it goes on."""
        ...

    def heuristic(self, tables: C) -> Policy[S, A]:
        """The ruleset's sensible default player."""
        ...

    def names(self, state: S) -> Mapping[str, str]:
        """Display names of the units and sides (by id), for accounts."""
        ...

    def fight_summary(self, fight: PlayedFight) -> FightSummary:
        """A finished fight in the ruleset's own words (:mod:`kassen.core.summary`): who still stands,
        Wounds dealt and taken, each unit's maneuvers, reactions and specials, its attacks' success, and
        the round it ended in. The balance lab counts these, and refuses a ruleset without them."""
        ...


_REGISTRY: dict[str, Ruleset[Any, Any, Any]] = {}
_ENTRY_POINTS = "kassen.rulesets"


def register_ruleset(ruleset: Ruleset[Any, Any, Any]) -> Ruleset[Any, Any, Any]:
    """Make ``ruleset`` findable by its ``info.name`` (as python-chess ``find_variant``)."""
    _REGISTRY[ruleset.info.name] = ruleset
    return ruleset


def unregister_ruleset(name: str) -> None:
    """Forget a ruleset registered at run time (an installed one is found again on next use)."""
    _REGISTRY.pop(name, None)


@cache
def _entry_points() -> dict[str, str]:
    from importlib import metadata  # on first use: importing the core stays cheap

    return {ep.name: ep.value for ep in metadata.entry_points(group=_ENTRY_POINTS)}


def bundled_ruleset_names() -> tuple[str, ...]:
    """Rulesets installed with kassen (entry points), without importing any of them."""
    return tuple(sorted(_entry_points()))


def find_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    """The ruleset registered as ``name``, importing an installed one on first use."""
    if not isinstance(name, str):
        raise KassenError(S_("a ruleset name is a string, not {name}", name=type(name).__name__))
    if name not in _REGISTRY and name in _entry_points():
        module, _, attr = _entry_points()[name].partition(":")
        try:
            obj = importlib.import_module(module)
            for part in attr.split(".") if attr else ():
                obj = getattr(obj, part)
        except Exception as exc:  # a plugin's import may fail any way; say which ruleset, in one line
            raise KassenError(
                S_("the ruleset {name} is installed but cannot be loaded: {exc}", name=repr(name), exc=exc)
            ) from None
        if not isinstance(getattr(obj, "info", None), RulesetInfo):
            raise KassenError(
                S_(
                    "the ruleset {name} is installed, but {entry_points} is not a ruleset",
                    name=repr(name),
                    entry_points=_entry_points()[name],
                )
            )
        if name not in _REGISTRY:
            register_ruleset(obj)
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(registered_rulesets()) or "none"
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise KassenError(
            S_("unknown ruleset {shown} (known: {known})", shown=repr(shown), known=known)
        ) from None


def loaded_rulesets() -> tuple[str, ...]:
    """The rulesets registered so far (imported, or registered at run time)."""
    return tuple(_REGISTRY)


def registered_rulesets() -> tuple[str, ...]:
    """Every ruleset that can be found: the installed ones and any registered at run time."""
    return tuple(sorted(set(_REGISTRY) | set(_entry_points())))
