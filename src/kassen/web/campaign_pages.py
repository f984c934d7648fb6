"""The campaign's screens: the roster, the character and scenario builders, the start of a fight at the
web table, and the aftermath's review (Jinja2 under ``templates/campaign/``, refreshed with htmx).

The shell (``/campaigns/{id}``) carries no campaign: its token is in the address's fragment (``#t=``),
which ``static/campaign.js`` puts in the ``Authorization`` header of every htmx request and sends every
form as JSON (the server refuses other bodies). The partials (``/ui/campaigns/...``) are rendered for
the token's holder: the GM sees and builds everything; a player sees the sheets of their own characters
and nothing else.

The builders check as the user types, with the very validators the YAML loader uses
(:func:`kassen.campaign.build.check_sheet`, :func:`kassen.campaign.build.validate_scenario`): each
problem is shown beside the field it names, in the loader's words, and the character's preview
(Defense, status, the odds of its main attacks) beside the form once it is valid.
"""

from __future__ import annotations

__all__ = ["router"]

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any

import jinja2
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from kassen.campaign.hooks import Character, campaign_rules, registered_campaign_rules
from kassen.campaign.library import Library, character_yaml
from kassen.campaign.roster import Campaigns, Role
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.i18n import S_, SOURCE, current_language, gettext, pgettext, translate_text
from kassen.web.bodies import strict_json
from kassen.web.campaign_api import (
    CampaignId,
    CampaignsDep,
    CharacterId,
    RoleDep,
    campaign_problem,
    check_character,
    gm_only,
)
from kassen.web.campaign_forms import GROUP_WORDS, field_errors, form_fields, sheet_from, values_from
from kassen.web.campaign_preview import preview
from kassen.web.pages import POLICY_CHOICES
from kassen.web.pages import templates as page_templates
from kassen.web.problems import Problem

router = APIRouter(include_in_schema=False)

#: The unit rows the scenario builder offers, and the unit policies it names (the loader says which a
#: ruleset knows).
SCENARIO_ROWS = 6
UNIT_POLICIES = ("", "heuristic", "random", "first-legal")
MAX_FORM_FIELDS = 200


@cache
def templates() -> jinja2.Environment:
    """The pages' environment (:func:`kassen.web.pages.templates`: the words in the viewer's language),
    with the campaign's own words."""
    env = page_templates()
    env.globals["group_word"] = group_word
    env.globals["status_word"] = status_word
    env.globals["lasting_word"] = lasting_word
    env.globals["lasting_value"] = lasting_value
    return env


def group_word(group: str) -> str:
    """A group of the builder's fields, in words."""
    words = GROUP_WORDS.get(group)
    return gettext(words) if words is not None else group.capitalize()


def lasting_word(ruleset: str, key: str) -> str:
    """A field of a character's lasting state as the page names it: the field's own name in English (as
    the character file writes it), words in another language."""
    if current_language() == SOURCE:
        return key
    common = {
        "dead": pgettext("lasting", "dead"),
        "death": pgettext("lasting", "how it died"),
    }
    words = {
        "arena": {
            "matches": pgettext("lasting", "matches fought here"),
            "wins": pgettext("lasting", "wins"),
            "losses": pgettext("lasting", "losses"),
            "champion": pgettext("lasting", "champion"),
            "holds_title": pgettext("lasting", "holds the title"),
            "hp": pgettext("lasting", "HP carried"),
            "fp": pgettext("lasting", "FP carried"),
        },
        "l5r": {
            "wounds": pgettext("lasting", "Wounds taken"),
            "disadvantages": pgettext("lasting", "disadvantages from maims"),
            "duels": pgettext("lasting", "duels"),
        },
        "sengoku": {
            "wounds": pgettext("lasting", "Wounds left"),
            "fate_points": pgettext("lasting", "Fate points left"),
            "armor_damage": pgettext("lasting", "damage on its armor"),
            "emergency_patch_used": pgettext("lasting", "emergency patch used"),
            "serious_injury": pgettext("lasting", "serious injury"),
            "weapons_lost": pgettext("lasting", "weapons lost"),
            "battles": pgettext("lasting", "battles"),
        },
    }
    return words.get(ruleset, {}).get(key) or common.get(key) or key


def lasting_value(value: Any) -> str:
    """A value of a character's lasting state as the page shows it (in English as Python writes it; in
    another language yes/no, a dash for none, a list's items in words)."""
    if current_language() == SOURCE:
        return str(value)
    if isinstance(value, bool):
        return pgettext("lasting", "yes") if value else pgettext("lasting", "no")
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, list):
        return "、".join(translate_text(str(v)) for v in value)
    return translate_text(str(value))


def status_word(status: str) -> str:
    """Where a campaign fight stands, in words (the stored status itself in English)."""
    words = {
        "started": pgettext("campaign fight", "started"),
        "proposed": pgettext("campaign fight", "proposed"),
        "settled": pgettext("campaign fight", "settled"),
        "abandoned": pgettext("campaign fight", "abandoned"),
    }
    return words.get(status, status)


def render(name: str, *, headers: Mapping[str, str] | None = None, **context: Any) -> HTMLResponse:
    return HTMLResponse(templates().get_template(f"campaign/{name}").render(**context), headers=headers)


async def form_values(request: Request) -> dict[str, str]:
    """A form sent as JSON by ``campaign.js``: an object of at most so many text fields."""
    data = strict_json(await request.body(), what="the form")
    if not isinstance(data, dict) or len(data) > MAX_FORM_FIELDS:
        raise Problem(422, "form", S_("a form is an object of at most {n} text fields", n=MAX_FORM_FIELDS))
    if not all(isinstance(k, str) and isinstance(v, str) and len(k) <= 100 for k, v in data.items()):
        raise Problem(422, "form", S_("a form's fields are text"))
    return data


# -- pages ----------------------------------------------------------------------------------------------
@router.get("/campaigns", response_class=HTMLResponse)
def campaigns_page() -> HTMLResponse:
    return render("start.html")


@router.get("/campaigns/{campaign_id}", response_class=HTMLResponse)
def campaign_shell(campaign_id: CampaignId) -> HTMLResponse:
    return render("shell.html", campaign_id=campaign_id)


# -- the campaign's home --------------------------------------------------------------------------------
def home_context(campaigns: Campaigns, role: Role, notice: str = "") -> dict[str, Any]:
    cid = role.campaign
    chars = campaigns.characters(cid, role)
    out: dict[str, Any] = {
        "campaign_id": cid,
        "gm": role.gm,
        "player": role.player,
        "characters": [{"c": c, "lines": campaign_rules(c.ruleset).sheet(c)} for c in chars],
        "rulesets": registered_campaign_rules(),
        "notice": notice,
        "fight": None,
    }
    if not role.gm:
        return out
    library = Library(campaigns)
    fights = campaigns.fights(cid)
    out["scenarios"] = library.templates(cid)
    out["bundled"] = [b for b in _bundled()]
    out["policy_choices"] = POLICY_CHOICES
    out["fights"] = fights
    if fights:
        last = fights[-1]
        names = {c.id: c.name for c in chars}
        out["fight"] = {
            "record": last,
            "table": library.table(cid, last.seq),
            "names": names,
            "recoveries": {
                cid_: list(campaign_rules(last.ruleset).recoveries.values()) for cid_, _ in last.cast
            },
        }
    return out


def _bundled() -> list[Any]:
    from kassen.web.catalog import Catalog

    return list(_catalog(Catalog).items())


@cache
def _catalog(kind: Any) -> Any:
    return kind()


@router.get("/ui/campaigns/{campaign_id}/home", response_class=HTMLResponse)
def home(campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep) -> HTMLResponse:
    return render("home.html", **home_context(campaigns, role))


@router.get("/ui/campaigns/{campaign_id}/characters/{character_id}", response_class=HTMLResponse)
def sheet(
    campaign_id: CampaignId, character_id: CharacterId, role: RoleDep, campaigns: CampaignsDep
) -> HTMLResponse:
    try:
        ch = campaigns.character(campaign_id, character_id, role)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    return render("sheet.html", **sheet_context(campaigns, role, ch))


def sheet_context(campaigns: Campaigns, role: Role, ch: Character) -> dict[str, Any]:
    return {
        "campaign_id": role.campaign,
        "gm": role.gm,
        "c": ch,
        "lines": campaign_rules(ch.ruleset).sheet(ch),
        "fights": campaigns.history(role.campaign, ch.id),
        "yaml": character_yaml(ch),
        "lasting": sorted(ch.lasting.items()),
    }


# -- the character builder ------------------------------------------------------------------------------
def builder_context(
    campaign_id: str, ruleset: str, values: Mapping[str, str], *, editing: Character | None = None
) -> dict[str, Any]:
    fields = form_fields(ruleset)
    groups: dict[str, list[Any]] = {}
    for f in fields:
        groups.setdefault(f.group or "who", []).append(f)
    return {
        "campaign_id": campaign_id,
        "ruleset": ruleset,
        "groups": groups,
        "values": values,
        "editing": editing,
    }


@router.get("/ui/campaigns/{campaign_id}/builder", response_class=HTMLResponse)
def builder(
    campaign_id: CampaignId,
    role: RoleDep,
    campaigns: CampaignsDep,
    ruleset: Annotated[str, Query(max_length=64)] = "sengoku",
    character: Annotated[str | None, Query(max_length=64)] = None,
) -> HTMLResponse:
    gm_only(role)
    editing = None
    if character is not None:
        try:
            editing = campaigns.character(campaign_id, character)
        except KassenError as exc:
            raise campaign_problem(exc) from None
        ruleset = editing.ruleset
        values = {"id": editing.id, "name": editing.name, "owner": editing.owner or ""}
        values.update(values_from(ruleset, editing.sheet))
    else:
        if ruleset not in registered_campaign_rules():
            raise Problem(404, "ruleset", S_("no ruleset {name} with campaigns", name=repr(ruleset[:40])))
        first = form_fields(ruleset)
        values = {"id": "", "name": "", "owner": ""}
        if first and first[0].kind == "select" and first[0].choices:
            values[first[0].name] = first[0].choices[0]
    return render("builder.html", **builder_context(campaign_id, ruleset, values, editing=editing))


def _read_builder(
    campaigns: Campaigns, campaign_id: str, values: Mapping[str, str]
) -> tuple[str, Character | None, dict[str, Any], dict[str, str]]:
    """The ruleset, the character edited (if any), the sheet the form gives, and what it could not read."""
    ruleset = values.get("ruleset", "")
    editing = None
    if values.get("editing"):
        try:
            editing = campaigns.character(campaign_id, values["editing"])
        except KassenError as exc:
            raise campaign_problem(exc) from None
        ruleset = editing.ruleset
    if ruleset not in registered_campaign_rules():
        raise Problem(422, "ruleset", S_("choose a ruleset with campaigns"))
    sheet, problems = sheet_from(ruleset, values, editing.sheet if editing else None)
    return ruleset, editing, sheet, problems


def _checked(
    ruleset: str, values: Mapping[str, str], sheet: Mapping[str, Any], problems: dict[str, str]
) -> tuple[Character | None, dict[str, str], list[ContentIssue]]:
    beside = dict(problems)
    rest: list[ContentIssue] = []
    ch = None
    if not problems:
        try:
            ch = check_character(ruleset, values.get("id", "").strip(), values.get("name", "").strip(), sheet)
        except ContentError as exc:
            own = [i for i in exc.issues if i.file == "character"]
            for issue in own:
                beside[issue.field] = issue.message
            found, rest = field_errors(ruleset, [i for i in exc.issues if i.file != "character"])
            beside.update(found)
    return ch, beside, rest


def _field_names(ruleset: str) -> list[str]:
    return ["id", "name", "owner", *(f.name for f in form_fields(ruleset))]


@router.post("/ui/campaigns/{campaign_id}/builder/check", response_class=HTMLResponse)
async def builder_check(
    request: Request, campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep
) -> HTMLResponse:
    gm_only(role)
    values = await form_values(request)
    from fastapi.concurrency import run_in_threadpool

    def work() -> HTMLResponse:
        ruleset, editing, sheet, problems = _read_builder(campaigns, campaign_id, values)
        values_ = {**values, "id": editing.id} if editing is not None else values
        ch, beside, rest = _checked(ruleset, values_, sheet, problems)
        shown = preview(ch) if ch is not None else None
        return render(
            "check.html",
            names=_field_names(ruleset),
            beside=beside,
            rest=rest,
            preview=shown,
            ok=ch is not None,
        )

    return await run_in_threadpool(work)


@router.post("/ui/campaigns/{campaign_id}/builder/save", response_class=HTMLResponse)
async def builder_save(
    request: Request, campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep
) -> HTMLResponse:
    gm_only(role)
    values = await form_values(request)
    from fastapi.concurrency import run_in_threadpool

    def work() -> HTMLResponse:
        ruleset, editing, sheet, problems = _read_builder(campaigns, campaign_id, values)
        ident = editing.id if editing is not None else values.get("id", "").strip()
        ch, beside, rest = _checked(ruleset, {**values, "id": ident}, sheet, problems)
        if ch is None:
            return render(
                "check.html", names=_field_names(ruleset), beside=beside, rest=rest, preview=None, ok=False
            )
        owner = values.get("owner", "").strip()
        try:
            if editing is None:
                saved = campaigns.add(campaign_id, ruleset, ident, ch.name, sheet, owner=owner or None)
            else:
                version = int(values["version"]) if values.get("version", "").isdigit() else None
                saved = campaigns.edit(
                    campaign_id, ident, name=ch.name, sheet=sheet, owner=owner, version=version
                )
        except KassenError as exc:
            problem = campaign_problem(exc)
            issue = ContentIssue("character", "(root)", problem.message)
            return render(
                "check.html", names=_field_names(ruleset), beside={}, rest=[issue], preview=None, ok=False
            )
        return render(
            "sheet.html",
            headers={"HX-Retarget": "#campaign", "HX-Reswap": "innerHTML"},
            **sheet_context(campaigns, role, saved),
        )

    return await run_in_threadpool(work)


@router.post("/ui/campaigns/{campaign_id}/import", response_class=HTMLResponse)
async def import_yaml(
    request: Request, campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep
) -> HTMLResponse:
    """A character file (its export) added to the roster."""
    gm_only(role)
    values = await form_values(request)
    from kassen.campaign.library import read_character

    try:
        data = read_character(values.get("yaml", ""), "character file")
        ch = campaigns.add(
            campaign_id,
            data["ruleset"],
            data["id"],
            data["name"],
            data["sheet"],
            owner=data.get("owner"),
            lasting=data.get("lasting"),
        )
    except KassenError as exc:
        return render("home.html", **home_context(campaigns, role, notice=_words(exc)))
    notice = S_("imported {name} ({id})", name=ch.name, id=ch.id)
    return render("home.html", **home_context(campaigns, role, notice=notice))


def _words(exc: KassenError) -> str:
    if isinstance(exc, ContentError):
        return "; ".join(f"{i.field}: {i.message}" for i in exc.issues)[:1000]
    return str(exc)[:1000]
