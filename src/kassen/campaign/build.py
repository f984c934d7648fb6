"""Fights from the roster: a character's sheet checked by the scenario loader's own validators, and a
scenario template cast with roster characters, their lasting state applied.

A template is any scenario of the ruleset. Each cast character becomes an entry of the template's list
(``units``, ``characters`` or ``fighters``): it replaces the template's entry of the same id, keeping
only where that entry stands and how it plays (the ruleset's ``placement`` fields: zone, position,
policy, script...), or joins the side it is cast on. The result is an
ordinary scenario: written as YAML it validates with ``kassen validate`` and plays with ``kassen fight``.
"""

from __future__ import annotations

__all__ = ["build_scenario", "check_sheet", "fresh_lasting", "scenario_yaml", "validate_scenario"]

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import yaml
from pydantic import ValidationError

from kassen.campaign.hooks import CHARACTER_ID, CampaignError, CampaignRules, Cast, Character
from kassen.content.content import Content, inline_layer
from kassen.core.errors import ContentError, ContentIssue
from kassen.core.fastreplace import replace
from kassen.core.ruleset import find_ruleset
from kassen.core.scenario import ScenarioSource
from kassen.core.text import control_in
from kassen.i18n import S_

#: A sheet's size: fields at its top level, and characters of its JSON (a sheet is one fighter).
MAX_SHEET_CHARS = 64 * 1024


@cache
def _bundled_content(ruleset: str) -> Content[Any]:
    """The ruleset's bundled content (immutable, keyed by the ruleset's name)."""
    content: Content[Any] = find_ruleset(ruleset).load_content([])
    return content


def validate_scenario(source: ScenarioSource) -> None:
    """Check ``source`` with its ruleset's own loader (:class:`ContentError` naming each problem)."""
    rs = find_ruleset(source.ruleset)
    content = _bundled_content(source.ruleset)
    if source.content is not None:
        content = rs.load_content([inline_layer(source.content, source.file, source.node)])
    rs.setup(source, content)


def fresh_lasting(rules: CampaignRules) -> dict[str, Any]:
    """A new character's lasting state: the ruleset's model with its defaults."""
    return rules.lasting().model_dump(mode="json")


def check_lasting(rules: CampaignRules, lasting: Mapping[str, Any], file: str = "lasting") -> dict[str, Any]:
    """``lasting`` read through the ruleset's model (:class:`ContentError` naming the field)."""
    try:
        return rules.lasting.model_validate(dict(lasting)).model_dump(mode="json")
    except ValidationError as exc:
        issues = [
            ContentIssue(file, ".".join(str(p) for p in err["loc"]) or "(root)", err["msg"])
            for err in exc.errors()
        ]
        raise ContentError(issues) from None


def check_sheet(rules: CampaignRules, character: Character) -> None:
    """Check a character's sheet and lasting state as a scenario would: the ruleset's loader reads a
    smallest scenario holding the character, and each problem is named by its field in the sheet."""
    if not CHARACTER_ID.match(character.id) or len(character.id) > 64:
        raise ContentError(
            ContentIssue(
                "character", "id", S_("lower-case letters, digits and single hyphens, up to 64 (kuro-2)")
            )
        )
    if not character.name.strip() or len(character.name) > 120:
        raise ContentError(ContentIssue("character", "name", S_("a name of 1 to 120 characters")))
    found = control_in(character.name)
    if found is not None:
        raise ContentError(
            ContentIssue(
                "character", "name", S_("the control character {char} is not allowed in text", char=found)
            )
        )
    if len(repr(character.sheet)) > MAX_SHEET_CHARS:
        raise ContentError(
            ContentIssue(
                "character",
                "sheet",
                S_("larger than {max_sheet_chars} characters", max_sheet_chars=MAX_SHEET_CHARS),
            )
        )
    check_lasting(rules, character.lasting)
    probe = rules.probe(rules.entry(character))
    prefix = f"{rules.entries}.0."
    try:
        validate_scenario(probe)
    except ContentError as exc:
        issues = []
        for issue in exc.issues:
            where = issue.field
            if where.startswith(prefix):
                issues.append(ContentIssue("sheet", where[len(prefix) :], issue.message))
            elif where == prefix[:-1]:
                issues.append(ContentIssue("sheet", "(root)", issue.message))
            else:
                issues.append(ContentIssue("sheet", where, issue.message))
        raise ContentError(issues) from None


def _entry_key(rules: CampaignRules, entry: Mapping[str, Any]) -> Any:
    value = entry.get(rules.key)
    if value is None and rules.key == "id":  # a Sengoku unit named by its creature
        value = entry.get("creature")
    return value


def build_scenario(rules: CampaignRules, template: ScenarioSource, cast: Sequence[Cast]) -> ScenarioSource:
    """``template`` cast with ``cast``: each character's entry (lasting state applied) replaces the
    template's entry of the same id or joins its side. Refused (:class:`CampaignError`, nothing built):
    a character of another ruleset, a dead one, one cast twice, a template without its list."""
    if template.ruleset != rules.ruleset:
        raise CampaignError(
            S_(
                "the template is a {ruleset} scenario, not {ruleset2}",
                ruleset=template.ruleset,
                ruleset2=rules.ruleset,
            )
        )
    listed = template.data.get(rules.entries)
    if not isinstance(listed, list):
        raise CampaignError(
            S_(
                "{file}: the template has no list of {entries} to cast into",
                file=template.file,
                entries=rules.entries,
            )
        )
    entries: list[Any] = [dict(e) if isinstance(e, Mapping) else e for e in listed]
    seen: set[str] = set()
    for member in cast:
        ch = member.character
        if ch.ruleset != rules.ruleset:
            raise CampaignError(
                S_(
                    "{name} is a {ruleset} character, not {ruleset2}",
                    name=ch.name,
                    ruleset=ch.ruleset,
                    ruleset2=rules.ruleset,
                )
            )
        if ch.dead:
            raise CampaignError(
                S_(
                    "{name} is dead ({value}) and cannot fight",
                    name=ch.name,
                    value=ch.lasting.get("death") or "fallen",
                )
            )
        if ch.id in seen:
            raise CampaignError(S_("{name} is cast twice", name=ch.name))
        seen.add(ch.id)
        entry = rules.entry(ch)
        key = _entry_key(rules, entry)
        at = next(
            (i for i, e in enumerate(entries) if isinstance(e, Mapping) and _entry_key(rules, e) == key), None
        )
        if at is None:
            entries.append({**entry, "side": member.side})
        else:
            kept = {k: v for k, v in entries[at].items() if k in rules.placement and k not in entry}
            entries[at] = {**kept, **entry, "side": member.side or entries[at].get("side")}
    data = {**template.data, rules.entries: entries}
    return replace(template, data=data, node=None, bundled=False)


def scenario_yaml(source: ScenarioSource) -> str:
    """A scenario written back as YAML, header first (``kassen validate`` reads it back)."""
    head: dict[str, Any] = {"ruleset": source.ruleset}
    if source.content:
        head["content"] = dict(source.content)
    return yaml.safe_dump({**head, **dict(source.data)}, sort_keys=False, allow_unicode=True, width=100)
