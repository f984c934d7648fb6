"""What a rule ID says, for the screens: every narrated line and every refusal cites its rule, and a
click on the ID opens the rule's text — the same texts ``kassen rules`` prints (each ruleset's
``rule_texts`` resource). Rule texts are public: no token is asked for."""

from __future__ import annotations

__all__ = ["pages", "router", "rule_kind_word", "rule_text", "rule_texts", "ruleset_word"]

import re
from functools import cache
from importlib import resources
from typing import Annotated, Any

import yaml
from fastapi import APIRouter, Path
from pydantic import BaseModel

from kassen.core.errors import KassenError
from kassen.i18n import S_, pgettext, translate_text
from kassen.web.api import Refusal
from kassen.web.problems import Problem

router = APIRouter(prefix="/api")
#: The screens' reading of a rule (words in the viewer's language): included with the pages.
pages = APIRouter()

RULE_ID = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$"


@cache
def rule_texts() -> dict[str, dict[str, Any]]:
    """Every registered ruleset's rule texts by ID (read once: they ship with kassen)."""
    from kassen.core.ruleset import find_ruleset, registered_rulesets

    out: dict[str, dict[str, Any]] = {}
    for name in registered_rulesets():
        try:
            package, file = find_ruleset(name).info.rule_texts
            data = yaml.safe_load(resources.files(package).joinpath(file).read_text(encoding="utf-8"))
        except (KassenError, OSError, yaml.YAMLError, ValueError):
            continue  # one ruleset without texts must not hide the others'
        for rid, entry in (data or {}).get("rules", {}).items():
            if isinstance(entry, dict):
                out[str(rid).upper()] = {
                    "id": str(rid),
                    "ruleset": name,
                    "title": str(entry.get("title", "")),
                    "kind": str(entry.get("kind", "")),
                    "text": str(entry.get("text", "")),
                }
    return out


def rule_text(rule: str) -> dict[str, Any]:
    """The rule ``rule`` (case does not matter), or a 404 naming rules near it."""
    key = rule.strip().upper()
    texts = rule_texts()
    found = texts.get(key)
    if found is not None:
        return found
    stem = key.rsplit(".", 1)[0] + "."
    near = [r["id"] for k, r in texts.items() if k.startswith(stem)][:8]
    if near:
        message = S_(
            "no rule {rule} in kassen's rule texts (near it: {near})",
            rule=repr(key[:40]),
            near=", ".join(near),
        )
    else:
        message = S_("no rule {rule} in kassen's rule texts", rule=repr(key[:40]))
    raise Problem(404, "no_rule", message)


class RuleText(BaseModel):
    """A rule's text, as ``kassen rules ID`` prints it."""

    id: str
    ruleset: str
    title: str
    kind: str
    text: str


@router.get(
    "/rules/{rule}",
    summary="What a rule ID says (the text `kassen rules ID` prints)",
    response_model=RuleText,
    responses={404: {"model": Refusal, "description": "No such rule."}},
)
def get_rule(
    rule: Annotated[str, Path(pattern=RULE_ID, description="A rule ID, e.g. SG.CNT.5.")],
) -> dict[str, Any]:
    if not re.match(RULE_ID, rule):  # pragma: no cover - the path's pattern checks it first
        raise Problem(422, "request", S_("a rule ID is letters, digits, dots and hyphens"))
    return rule_text(rule)


def ruleset_word(name: str) -> str:
    """A ruleset's name as the pages say it (the identifier itself in English)."""
    words = {
        "arena": pgettext("ruleset", "arena"),
        "sengoku": pgettext("ruleset", "sengoku"),
        "l5r": pgettext("ruleset", "l5r"),
    }
    return words.get(name, name)


def rule_kind_word(kind: str) -> str:
    """A rule's kind in words (``rule``, ``gap``, ``reading``, ``core``): the words ``kassen rules`` says,
    from the data catalogs (the context ``rule kind``)."""
    return pgettext("rule kind", kind)


@pages.get("/ui/rules/{rule}", include_in_schema=False)
def rule_for_page(rule: Annotated[str, Path(pattern=RULE_ID)]) -> dict[str, Any]:
    """A rule's text for a screen's rule dialog, in the viewer's language (the words kassen's catalogs
    hold for the rules' titles and texts; the ID as it is)."""
    found = rule_text(rule)
    return {
        "id": found["id"],
        "ruleset": ruleset_word(found["ruleset"]),
        "title": translate_text(found["title"]),
        "kind": rule_kind_word(found["kind"]),
        "text": translate_text(found["text"]),
    }
