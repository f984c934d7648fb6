"""What a ruleset supplies to campaigns: the narrow hooks, the registry, and the records they share.

A campaign keeps a roster of characters from fight to fight. The core owns the roster, the casting of a
fight from a scenario template, the aftermath's review, confirmation and undo, and the store; a ruleset
says only what is its own:

- ``lasting``: the typed model of what a character carries from one fight to the next (Wounds left, a
  maim, armor damage, matches fought...);
- ``entries``/``key``: where its scenarios list their fighters (``units``, ``characters``,
  ``fighters``) and which field names one (``id``, ``name``); ``placement``: the fields of a template's
  entry a cast character keeps (where it stands, how it plays), everything else being the character's;
- ``entry(character)``: the character's scenario entry with its lasting state applied;
- ``probe(entry)``: a smallest scenario holding that entry, so a sheet is checked by the very
  validators the YAML loader uses;
- ``settle(fight, cast, take)``: after a fight, each cast character's lasting state as its ruleset's
  between-fight rules leave it, with the recoveries the GM chose (``take``), each change in words with
  its rule ID;
- ``recoveries``: the recoveries the GM may choose, by id;
- ``sheet(character)``: lines for a character's sheet (what its lasting state means now).

Register a ruleset's hooks with :func:`register_campaign_rules` or an entry point in the group
``kassen.campaigns``. Adding a ruleset edits nothing here.
"""

from __future__ import annotations

__all__ = [
    "CampaignRules",
    "Cast",
    "Character",
    "Entry",
    "Note",
    "Recovery",
    "campaign_rules",
    "register_campaign_rules",
    "registered_campaign_rules",
]

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from kassen.core.errors import KassenError
from kassen.core.fight import Fight
from kassen.core.scenario import ScenarioSource
from kassen.i18n import S_

#: A character's id: lower case, digits and single hyphens (a Sengoku unit id).
CHARACTER_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_GROUP = "kassen.campaigns"


class CampaignError(KassenError):
    """A campaign request that cannot be done as asked (nothing changed)."""

    code = "campaign"


@dataclass(frozen=True, slots=True)
class Character:
    """A roster character: its id and name, its ruleset, the player it belongs to (None: the GM's), its
    sheet (the ruleset's scenario entry, without side or place), and its lasting state (the ruleset's
    ``lasting`` model, as JSON)."""

    id: str
    name: str
    ruleset: str
    sheet: Mapping[str, Any]
    lasting: Mapping[str, Any]
    owner: str | None = None
    version: int = 1

    @property
    def dead(self) -> bool:
        return bool(self.lasting.get("dead", False))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "ruleset": self.ruleset,
            "owner": self.owner,
            "sheet": dict(self.sheet),
            "lasting": dict(self.lasting),
            "dead": self.dead,
            "version": self.version,
        }


@dataclass(frozen=True, slots=True)
class Cast:
    """A roster character in a fight, on a side."""

    character: Character
    side: str


@dataclass(frozen=True, slots=True)
class Note:
    """One line of an aftermath, with the rule it applies."""

    text: str
    rule: str

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Entry:
    """One character's part of an aftermath: its lasting state before and after, and why."""

    character: str
    before: Mapping[str, Any]
    after: Mapping[str, Any]
    notes: tuple[Note, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "character": self.character,
            "before": dict(self.before),
            "after": dict(self.after),
            "notes": [n.to_json() for n in self.notes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        notes = tuple(Note(n["text"], n["rule"]) for n in data.get("notes", ()))
        return cls(data["character"], dict(data["before"]), dict(data["after"]), notes)


@dataclass(frozen=True, slots=True)
class Recovery:
    """A recovery the GM may choose for a character in an aftermath (rest, a repair...)."""

    id: str
    label: str
    rule: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "label": self.label, "rule": self.rule}


@runtime_checkable
class CampaignRules(Protocol):
    """A ruleset's campaign hooks (see the module notes)."""

    ruleset: str
    lasting: type[BaseModel]
    entries: str
    key: str
    placement: frozenset[str]
    recoveries: Mapping[str, Recovery]

    def entry(self, character: Character) -> dict[str, Any]: ...

    def probe(self, entry: Mapping[str, Any]) -> ScenarioSource: ...

    def settle(
        self, fight: Fight[Any, Any], cast: Sequence[Cast], take: Mapping[str, Sequence[str]]
    ) -> tuple[Entry, ...]: ...

    def sheet(self, character: Character) -> list[str]: ...


@dataclass
class _Registry:
    rules: dict[str, CampaignRules] = field(default_factory=dict)


_REGISTRY = _Registry()


def register_campaign_rules(rules: CampaignRules) -> None:
    """Register a ruleset's campaign hooks at run time (an installed package uses the entry point)."""
    if not isinstance(rules, CampaignRules):
        raise KassenError(
            S_("{name} lacks the campaign hooks (kassen.campaign.hooks)", name=type(rules).__name__)
        )
    _REGISTRY.rules[rules.ruleset] = rules


@cache
def _entry_points() -> dict[str, str]:
    return {ep.name: ep.value for ep in metadata.entry_points(group=_GROUP)}


def registered_campaign_rules() -> tuple[str, ...]:
    """The rulesets with campaign hooks, registered or installed."""
    return tuple(sorted(set(_REGISTRY.rules) | set(_entry_points())))


def campaign_rules(ruleset: str) -> CampaignRules:
    """The campaign hooks of ``ruleset`` (:class:`CampaignError` when it has none)."""
    found = _REGISTRY.rules.get(ruleset)
    if found is not None:
        return found
    target = _entry_points().get(ruleset)
    if target is None:
        known = ", ".join(registered_campaign_rules()) or "none"
        raise CampaignError(
            S_(
                "the ruleset {ruleset} has no campaign rules (known: {known})",
                ruleset=repr(str(ruleset)[:40]),
                known=known,
            )
        )
    module, _, attr = target.partition(":")
    import importlib

    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    register_campaign_rules(obj)
    return _REGISTRY.rules[ruleset]
