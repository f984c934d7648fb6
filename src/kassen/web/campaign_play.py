"""The campaign's scenario builder, its fights started at the web table, and their aftermath, in the
browser (the partials of :mod:`kassen.web.campaign_pages`' screens).

A scenario built by form is an ordinary scenario of its ruleset: its sides, its units (roster
characters, or catalog creatures where the ruleset has a catalog), where each stands and the policy
each plays by. It is checked by the ruleset's loader as it is typed (each problem beside its field),
kept with the campaign as YAML, and cast at the start of a fight with the roster characters it names,
their lasting state applied. The fight opens at the web table; when it is over the GM proposes the
aftermath (the ruleset's between-fight rules, with the recoveries chosen), reviews it, confirms it (or
takes it back until the next fight starts), and each sheet shows it.
"""

from __future__ import annotations

__all__ = ["cast_of", "router"]

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from kassen.campaign.build import scenario_yaml, validate_scenario
from kassen.campaign.hooks import CampaignError, Character, campaign_rules, registered_campaign_rules
from kassen.campaign.library import Library
from kassen.campaign.roster import Campaigns, FightRecord
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.scenario import ScenarioSource, open_fight
from kassen.i18n import S_, _, translate_text
from kassen.web.api import ClientDep, QuotasDep, TablesDep, base_url, expiry
from kassen.web.campaign_api import CampaignId, CampaignsDep, RoleDep, campaign_problem, gm_only, template_of
from kassen.web.campaign_pages import form_values, home_context, render
from kassen.web.problems import Problem
from kassen.web.tables import Created, Tables

router = APIRouter(include_in_schema=False)

#: The unit rows the scenario builder offers, and the unit policies it names (the loader says which a
#: ruleset knows).
ROWS = 6
UNIT_POLICIES = ("", "heuristic", "random", "first-legal", "scripted")
_INT = re.compile(r"^-?\d{1,6}$")
_SEED = re.compile(r"^[0-9]{1,20}$")


def cast_of(campaigns: Campaigns, campaign_id: str, template: ScenarioSource) -> list[tuple[str, str]]:
    """The roster characters a template names (by its ruleset's key), each on its entry's side."""
    rules = campaign_rules(template.ruleset)
    listed = template.data.get(rules.entries)
    if not isinstance(listed, list):
        return []
    out = []
    for ch in campaigns.characters(campaign_id):
        if ch.ruleset != template.ruleset or ch.dead:
            continue
        key = rules.entry(ch).get(rules.key)
        for entry in listed:
            if (
                isinstance(entry, Mapping)
                and entry.get(rules.key) == key
                and isinstance(entry.get("side"), str)
            ):
                out.append((ch.id, entry["side"]))
                break
    return out


# -- the scenario builder -------------------------------------------------------------------------------
def _shape(ruleset: str) -> tuple[dict[str, Any], bool, str]:
    """What a scenario of ``ruleset`` holds besides its list (its probe's other fields), whether it
    lists its sides, and the field that places a unit (``zone`` or ``position``)."""
    rules = campaign_rules(ruleset)
    probe = rules.probe(rules.entry(Character("probe", "Probe", ruleset, {}, {}))).data
    rest = {k: v for k, v in probe.items() if k not in (rules.entries, "sides", "name", "description")}
    place = "zone" if "zone" in rules.placement else ("position" if "position" in rules.placement else "")
    return rest, "sides" in probe, place


def scenario_context(
    campaigns: Campaigns, campaign_id: str, ruleset: str, values: Mapping[str, str]
) -> dict[str, Any]:
    _rest, listed_sides, place = _shape(ruleset)
    who: list[tuple[str, str]] = [("", _("(empty row)"))]
    for ch in campaigns.characters(campaign_id):
        if ch.ruleset == ruleset and not ch.dead:
            who.append((f"char:{ch.id}", _("{name} (roster)").format(name=ch.name)))
    if ruleset == "sengoku":
        from kassen.campaign.build import _bundled_content

        catalog: Any = _bundled_content("sengoku").tables.catalog
        who += [
            (f"creature:{c}", _("{name} (catalog)").format(name=translate_text(c)))
            for c in sorted(catalog.creatures)
        ]
    return {
        "campaign_id": campaign_id,
        "ruleset": ruleset,
        "rulesets": registered_campaign_rules(),
        "values": values,
        "rows": range(ROWS),
        "who": who,
        "place": place,
        "listed_sides": listed_sides,
        "policies": UNIT_POLICIES,
    }


@router.get("/ui/campaigns/{campaign_id}/scenario", response_class=HTMLResponse)
def scenario_form(
    campaign_id: CampaignId,
    role: RoleDep,
    campaigns: CampaignsDep,
    ruleset: Annotated[str, Query(max_length=64)] = "sengoku",
) -> HTMLResponse:
    gm_only(role)
    if ruleset not in registered_campaign_rules():
        raise Problem(404, "ruleset", S_("no ruleset {name} with campaigns", name=repr(ruleset[:40])))
    values = {  # the form's first words, in the GM's language (what is saved is what the GM leaves)
        "side-0-id": "party",
        "side-0-name": _("The party"),
        "side-1-id": "foes",
        "side-1-name": _("The foes"),
    }
    return render("scenario.html", **scenario_context(campaigns, campaign_id, ruleset, values))


def build_from_form(
    campaigns: Campaigns, campaign_id: str, values: Mapping[str, str]
) -> tuple[ScenarioSource | None, dict[str, str], list[ContentIssue]]:
    """The scenario the form gives, checked by its ruleset's loader: the source (None when it does not
    validate), each problem beside its field, and those no field shows."""
    ruleset = values.get("ruleset", "")
    if ruleset not in registered_campaign_rules():
        raise Problem(422, "ruleset", S_("choose a ruleset with campaigns"))
    rules = campaign_rules(ruleset)
    rest, listed_sides, place = _shape(ruleset)
    beside: dict[str, str] = {}
    sides = [
        {"id": values.get(f"side-{i}-id", "").strip(), "name": values.get(f"side-{i}-name", "").strip()}
        for i in range(2)
    ]
    for i, side in enumerate(sides):
        if not side["id"]:
            beside[f"side-{i}-id"] = S_("every side needs an id (party, foes)")
    entries: list[dict[str, Any]] = []
    rows: list[int] = []
    roster = {c.id: c for c in campaigns.characters(campaign_id)}
    for i in range(ROWS):
        who = values.get(f"unit-{i}-who", "")
        if not who:
            continue
        kind, _, ident = who.partition(":")
        if kind == "char" and ident in roster:
            entry = dict(rules.entry(roster[ident]))
        elif kind == "creature" and ruleset == "sengoku":
            entry = {"id": f"{ident}-{i + 1}", "creature": ident}
        else:
            beside[f"unit-{i}-who"] = S_("choose a roster character or a catalog creature")
            continue
        chosen = values.get(f"unit-{i}-side", "0")
        entry["side"] = sides[1 if chosen == "1" else 0]["id"]
        where = values.get(f"unit-{i}-place", "").strip()
        if where and place:
            entry[place] = int(where) if place == "position" and _INT.match(where) else where
        policy = values.get(f"unit-{i}-policy", "")
        if policy:
            entry["policy"] = policy
        entries.append(entry)
        rows.append(i)
    if not entries:
        beside["unit-0-who"] = S_("a scenario needs units: choose who fights")
    title = values.get("title", "").strip()
    data: dict[str, Any] = {**rest, "name": title}
    if listed_sides:
        data["sides"] = [
            {
                "id": s["id"],
                **({"name": s["name"]} if s["name"] else {}),
                **({"allies": True} if i == 0 else {}),
            }
            for i, s in enumerate(sides)
        ]
    data[rules.entries] = entries
    if beside:
        return None, beside, []
    source = ScenarioSource("scenario", title or "scenario", ruleset, data)
    try:
        validate_scenario(source)
    except ContentError as exc:
        others: list[ContentIssue] = []
        for issue in exc.issues:
            name = _field_of(issue.field, rules.entries, rows, place)
            if name is None:
                others.append(issue)
            else:
                beside[name] = "; ".join(x for x in (beside.get(name), issue.message) if x)
        return None, beside, others
    return source, beside, []


def _field_of(field: str, entries: str, rows: Sequence[int], place: str) -> str | None:
    parts = field.split(".")
    if parts[0] == "name":
        return "title"
    if parts[0] == "sides" and len(parts) >= 2 and parts[1] in ("0", "1"):
        return f"side-{parts[1]}-{'name' if parts[-1] == 'name' else 'id'}"
    if parts[0] == entries and len(parts) >= 2 and parts[1].isdigit() and int(parts[1]) < len(rows):
        row = rows[int(parts[1])]
        last = parts[2] if len(parts) > 2 else ""
        if last == place and place:
            return f"unit-{row}-place"
        if last in ("policy", "side"):
            return f"unit-{row}-{last}"
        return f"unit-{row}-who"
    return None


def _scenario_names(ruleset: str) -> list[str]:
    _, _, place = _shape(ruleset)
    names = ["title", "scenario_id", "side-0-id", "side-0-name", "side-1-id", "side-1-name"]
    for i in range(ROWS):
        names += [
            f"unit-{i}-who",
            f"unit-{i}-side",
            f"unit-{i}-policy",
            *([f"unit-{i}-place"] if place else []),
        ]
    return names


@router.post("/ui/campaigns/{campaign_id}/scenario/check", response_class=HTMLResponse)
async def scenario_check(
    request: Request, campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep
) -> HTMLResponse:
    gm_only(role)
    values = await form_values(request)

    def work() -> HTMLResponse:
        source, beside, rest = build_from_form(campaigns, campaign_id, values)
        text = scenario_yaml(source) if source is not None else ""
        return render(
            "scenario_check.html",
            names=_scenario_names(values["ruleset"]),
            beside=beside,
            rest=rest,
            text=text,
            saved=None,
        )

    return await run_in_threadpool(work)


@router.post("/ui/campaigns/{campaign_id}/scenario/save", response_class=HTMLResponse)
async def scenario_save(
    request: Request, campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep
) -> HTMLResponse:
    gm_only(role)
    values = await form_values(request)

    def work() -> HTMLResponse:
        source, beside, rest = build_from_form(campaigns, campaign_id, values)
        names = _scenario_names(values["ruleset"])
        ident = values.get("scenario_id", "").strip()
        if source is not None and not ident:
            beside["scenario_id"] = S_("give the scenario an id (the-ford)")
        if source is None or not ident:
            return render("scenario_check.html", names=names, beside=beside, rest=rest, text="", saved=None)
        try:
            saved = Library(campaigns).save(campaign_id, ident, source)
        except KassenError as exc:
            beside["scenario_id"] = campaign_problem(exc).message
            return render("scenario_check.html", names=names, beside=beside, rest=rest, text="", saved=None)
        return render("scenario_check.html", names=names, beside={}, rest=[], text=saved.text, saved=saved)

    return await run_in_threadpool(work)


# -- fights and their aftermath -------------------------------------------------------------------------
@router.post("/ui/campaigns/{campaign_id}/start", response_class=HTMLResponse)
async def start(
    request: Request,
    campaign_id: CampaignId,
    role: RoleDep,
    campaigns: CampaignsDep,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
) -> HTMLResponse:
    """Start the next fight from a template, cast with the roster characters it names, at the table."""
    gm_only(role)
    quotas.open_fight(client)
    values = await form_values(request)
    base = base_url(request)
    when = expiry(request, None)

    def work() -> HTMLResponse:
        seed_text = values.get("seed", "").strip()
        if seed_text and not _SEED.match(seed_text):
            notice = S_("a seed is a whole number of up to 20 digits")
            return render("home.html", **home_context(campaigns, role, notice=notice))
        try:
            template = template_of(campaigns, tables, campaign_id, values.get("template", ""))
            cast = cast_of(campaigns, campaign_id, template)
            if not cast:
                raise KassenError(S_("the scenario names no roster character: build one that does"))
            ours = {s for _, s in cast}

            def policies(sides: Sequence[str]) -> dict[str, str]:
                chosen = (
                    (side, values.get("roster_policy" if side in ours else "other_policy", ""))
                    for side in sides
                )
                return {side: spec for side, spec in chosen if spec}

            record, made = open_at_table(
                campaigns,
                tables,
                campaign_id,
                template,
                cast,
                abandon=values.get("abandon") == "on",
                seed=int(seed_text) if seed_text else None,
                dice="table" if values.get("dice") == "table" else "auto",
                policies=policies,
                expires_at=when,
                charge=lambda size: quotas.store(client, size),
            )
        except (KassenError, Problem) as exc:
            notice = exc.message if isinstance(exc, Problem) else campaign_problem(exc).message
            return render("home.html", **home_context(campaigns, role, notice=notice))
        context = home_context(campaigns, role, notice=S_("fight {n} is open at the table", n=record.seq))
        context["opened"] = f"{base}/fights/{made.id}#t={made.gm_token}"
        return render("home.html", **context)

    return await run_in_threadpool(work)


def open_at_table(
    campaigns: Campaigns,
    tables: Tables,
    campaign_id: str,
    template: ScenarioSource,
    cast: Sequence[tuple[str, str]],
    *,
    abandon: bool,
    seed: int | None,
    dice: Literal["auto", "table"],
    policies: Callable[[Sequence[str]], dict[str, str]],
    expires_at: datetime | None,
    charge: Callable[[int], None],
) -> tuple[FightRecord, Created]:
    """The next campaign fight opened at the table (``policies``: who plays each of its sides). Checked
    first — the cast built, the last fight settled (or ``abandon``) — and the table's fight opened
    before the campaign records it: a refusal at either step leaves the campaign as it was."""
    built = campaigns.build(campaign_id, template, cast)
    fights = campaigns.fights(campaign_id)
    if fights and fights[-1].status in ("started", "proposed") and not abandon:
        raise CampaignError(
            S_("fight {n} is not settled: confirm its aftermath first (or abandon it)", n=fights[-1].seq)
        )
    made = tables.create(
        scenario_yaml(built),
        seed=seed,
        dice=dice,
        policies=policies(open_fight(built, seed=0).sides()) or None,
        expires_at=expires_at,
        charge=charge,
    )
    record = campaigns.start_fight(campaign_id, template, cast, abandon=abandon)
    Library(campaigns).link(campaign_id, record.seq, made.id)
    return record, made


def _take(values: Mapping[str, str]) -> dict[str, list[str]]:
    take: dict[str, list[str]] = {}
    for key, value in values.items():
        kind, _, rest = key.partition(":")
        character, _, recovery = rest.partition(":")
        if kind == "take" and value and character and recovery:
            take.setdefault(character, []).append(recovery)
    return take


@router.post("/ui/campaigns/{campaign_id}/aftermath", response_class=HTMLResponse)
async def aftermath(
    request: Request, campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep, tables: TablesDep
) -> HTMLResponse:
    """Propose the last fight's aftermath (read from its table), for review."""
    gm_only(role)
    values = await form_values(request)
    action = values.get("do", "propose")

    def work() -> HTMLResponse:
        try:
            if action == "confirm":
                done = campaigns.confirm(campaign_id)
                notice = S_("the aftermath of fight {n} is written to the roster", n=done.seq)
            elif action == "undo":
                done = campaigns.undo(campaign_id)
                notice = S_("the aftermath of fight {n} is taken back (proposed again)", n=done.seq)
            else:
                fights = campaigns.fights(campaign_id)
                if not fights:
                    raise KassenError(S_("no fight yet: start one"))
                last = fights[-1]
                fight_id = Library(campaigns).table(campaign_id, last.seq)
                if fight_id is None:
                    raise KassenError(S_("fight {n} was not played at the table", n=last.seq))
                with tables.reading(fight_id) as live:
                    campaigns.propose(campaign_id, live.fight, _take(values))
                notice = S_("the aftermath of fight {n}, for review", n=last.seq)
        except (KassenError, Problem) as exc:
            notice = exc.message if isinstance(exc, Problem) else campaign_problem(exc).message
        return render("home.html", **home_context(campaigns, role, notice=notice))

    return await run_in_threadpool(work)


@router.post("/ui/campaigns/{campaign_id}/players", response_class=HTMLResponse)
async def player_link(
    request: Request, campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep
) -> HTMLResponse:
    """A player's link to the campaign (their own characters' sheets), shown once."""
    gm_only(role)
    values = await form_values(request)
    player = values.get("player", "").strip()
    base = base_url(request)

    def work() -> HTMLResponse:
        try:
            token = campaigns.player_token(campaign_id, player)
        except KassenError as exc:
            return render("home.html", **home_context(campaigns, role, notice=campaign_problem(exc).message))
        notice = S_("a link for {player}: it shows only their characters", player=player)
        context = home_context(campaigns, role, notice=notice)
        context["player_link"] = {"player": player, "url": f"{base}/campaigns/{campaign_id}#t={token}"}
        return render("home.html", **context)

    return await run_in_threadpool(work)
