"""The campaigns' JSON API (``/api/campaigns/...``): the roster, the builders' checks and previews, the
scenario templates, fights started at the web table, and their aftermath.

Rights: a campaign's GM token (``Authorization: Bearer TOKEN``, as for fights) does everything; a
player's token (made by the GM) reads only the characters the player owns — their sheets and lasting
state — and changes nothing: nothing changes hands without the GM. A token that opens no campaign is a
401 (whether or not the campaign exists), a player asking for the GM's things a 403, a character the
token may not see a 404. Bodies are strict JSON with the server's size limit; a sheet or scenario that
does not validate is one 422 naming every field in the loader's words; a request the campaign's state
refuses (a fight not settled, a character changed since it was read) is a 409. On any error nothing
changes.
"""

from __future__ import annotations

__all__ = ["CampaignsDep", "RoleDep", "campaign_problem", "campaigns_of", "router"]

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from kassen.campaign.build import check_sheet
from kassen.campaign.hooks import (
    CHARACTER_ID,
    CampaignError,
    Character,
    campaign_rules,
    registered_campaign_rules,
)
from kassen.campaign.library import Library, character_yaml, read_character
from kassen.campaign.roster import MAX_NAME, Campaigns, Role
from kassen.content.yamlio import MAX_YAML_BYTES
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.fight import SEED_BOUNDS
from kassen.core.scenario import ScenarioSource, read_scenario
from kassen.i18n import S_
from kassen.web.api import ClientDep, QuotasDep, Refusal, TablesDep, base_url, expiry
from kassen.web.bodies import StrictRoute
from kassen.web.campaign_preview import preview
from kassen.web.problems import Problem, refused
from kassen.web.tables import Tables

_REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"model": Refusal, "description": "No token, or a token that opens no campaign of that id."},
    403: {"model": Refusal, "description": "The GM's to do (a player's token)."},
    404: {
        "model": Refusal,
        "description": "No such character, scenario or fight (or not the token's to see).",
    },
    409: {"model": Refusal, "description": "The campaign's state refuses it (nothing changed)."},
    413: {"model": Refusal, "description": "The body is over the size limit."},
    415: {"model": Refusal, "description": "The body is not JSON."},
    422: {
        "model": Refusal,
        "description": "A malformed request, or a sheet or scenario that does not validate.",
    },
}
router = APIRouter(prefix="/api/campaigns", route_class=StrictRoute, tags=["campaigns"], responses=_REFUSALS)
bearer = HTTPBearer(auto_error=False, description="A campaign's GM token or a player's token.")

_ID = r"^[a-z0-9]+(-[a-z0-9]+)*$"
CampaignId = Annotated[str, Path(pattern=_ID, max_length=64, description="A campaign's id.")]
CharacterId = Annotated[str, Path(pattern=_ID, max_length=64, description="A character's id.")]
Ident = Annotated[str, StringConstraints(pattern=_ID, max_length=64)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=120)]
Player = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME)]
Sheet = Annotated[dict[str, Any], Field(max_length=100, description="The ruleset's scenario entry.")]
Take = Annotated[
    dict[Ident, Annotated[list[Ident], Field(max_length=10)]],
    Field(max_length=100, description="Character id → the recoveries the GM grants (rest, patch...)."),
]
NO_STORE = {"Cache-Control": "no-store"}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewCampaign(Strict):
    id: Ident
    name: str = Field(default="", max_length=200)


class NewPlayer(Strict):
    player: Player


class NewCharacter(Strict):
    ruleset: Ident
    id: Ident
    name: Name
    sheet: Sheet
    owner: Player | None = None


class CharacterChange(Strict):
    """The fields given are replaced; ``version``: refused (409) if the character changed since."""

    name: Name | None = None
    sheet: Sheet | None = None
    owner: str | None = Field(default=None, max_length=MAX_NAME, description='"" gives it back to the GM.')
    version: int | None = Field(default=None, ge=1)


class CharacterFile(Strict):
    yaml: str = Field(min_length=1, max_length=256 * 1024, description="A character file (its export).")


class NewTemplate(Strict):
    id: Ident
    yaml: str = Field(min_length=1, max_length=MAX_YAML_BYTES, description="The scenario's YAML text.")


class CastMember(Strict):
    character: Ident
    side: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class StartFight(Strict):
    """The next fight: a template (a scenario of the campaign's, or a bundled one by name) cast with
    roster characters, opened at the web table."""

    template: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    cast: list[CastMember] = Field(
        default_factory=list, max_length=100, description="Default: the roster characters the template names."
    )
    seed: int | None = Field(default=None, ge=SEED_BOUNDS.lo, le=SEED_BOUNDS.hi)
    dice: Literal["auto", "table"] = "auto"
    policies: dict[str, Annotated[str, StringConstraints(min_length=1, max_length=200)]] | None = Field(
        default=None, max_length=32
    )
    abandon: bool = False


class Aftermath(Strict):
    take: Take = Field(default_factory=dict)


def campaigns_of(request: Request) -> Campaigns:
    found: Campaigns | None = getattr(request.app.state, "campaigns", None)
    if found is None:
        found = request.app.state.campaigns = Campaigns(request.app.state.store)
    return found


CampaignsDep = Annotated[Campaigns, Depends(campaigns_of)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def campaign_problem(exc: KassenError) -> Problem:
    """The 4xx a campaign refusal becomes: 404 for what is not there, 409 for what its state refuses,
    422 for what does not validate."""
    if isinstance(exc, CampaignError):
        text = str(exc)
        if text.startswith(("no campaign", "no character", "no fight ", "no scenario")):
            return Problem(404, "not_found", text[:500])
        if "exists already" in text or "is on the roster already" in text:
            return Problem(409, "exists", text[:500])
        if text.startswith(("no recovery", "the control character", "a player's name")):
            return Problem(422, "request", text[:500])  # the request names what cannot be: not a conflict
        return Problem(409, "campaign", text[:500])
    return refused(exc)


def role_of(campaign_id: CampaignId, campaigns: CampaignsDep, credentials: Credentials) -> Role:
    if credentials is None:
        raise Problem(401, "token", S_("send the campaign's token: Authorization: Bearer TOKEN"))
    token = credentials.credentials
    role = campaigns.role(campaign_id, token) if 8 <= len(token) <= 200 else None
    if role is None:
        raise Problem(401, "token", S_("this token opens no campaign of that id"))
    return role


RoleDep = Annotated[Role, Depends(role_of)]


def gm_only(role: Role) -> None:
    if not role.gm:
        raise Problem(403, "gm_only", S_("only the campaign's GM may do this"))


def _json(body: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=NO_STORE)


def character_json(campaigns: Campaigns, campaign_id: str, ch: Character) -> dict[str, Any]:
    """A character with its sheet's lines (what its lasting state means now) and its fights."""
    rules = campaign_rules(ch.ruleset)
    return {
        **ch.to_json(),
        "lines": rules.sheet(ch),
        "fights": campaigns.history(campaign_id, ch.id),
    }


def check_character(ruleset: str, ident: str, name: str, sheet: Mapping[str, Any]) -> Character:
    """A character as the builder sends it, checked by the loader's validators (ContentError)."""
    if ruleset not in registered_campaign_rules():
        raise Problem(
            422,
            "ruleset",
            S_(
                "no ruleset {name} with campaigns ({known})",
                name=repr(ruleset),
                known=", ".join(registered_campaign_rules()),
            ),
        )
    rules = campaign_rules(ruleset)
    ch = Character(ident, name, ruleset, dict(sheet), rules.lasting().model_dump(mode="json"))
    try:
        check_sheet(rules, ch)
    except ContentError:
        raise
    except KassenError as exc:  # a loader that stops at its first problem (an unknown catalog id)
        raise ContentError(ContentIssue("sheet", "(root)", str(exc)[:500])) from None
    return ch


# -- campaigns and players ------------------------------------------------------------------------------
@router.post("", status_code=201, summary="A new campaign (returns its GM token, shown once)")
def new_campaign(
    request: Request, body: NewCampaign, campaigns: CampaignsDep, quotas: QuotasDep, client: ClientDep
) -> JSONResponse:
    quotas.open_fight(client)  # a campaign counts as a fight opened: no client fills the store with them
    try:
        token = campaigns.new(body.id, body.name)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    url = f"{base_url(request)}/campaigns/{body.id}#t={token}"
    return _json({"id": body.id, "gm_token": token, "links": {"gm": url}}, 201)


@router.get("/{campaign_id}", summary="The campaign as the token sees it")
def campaign(campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep) -> JSONResponse:
    chars = campaigns.characters(campaign_id, role)
    out: dict[str, Any] = {
        "id": campaign_id,
        "role": "gm" if role.gm else "player",
        "player": role.player,
        "characters": [character_json(campaigns, campaign_id, c) for c in chars],
    }
    if role.gm:
        library = Library(campaigns)
        out["fights"] = [
            {**f.to_json(), "table": library.table(campaign_id, f.seq)} for f in campaigns.fights(campaign_id)
        ]
        out["scenarios"] = [
            {k: v for k, v in t.to_json().items() if k != "yaml"} for t in library.templates(campaign_id)
        ]
    return _json(out)


@router.post("/{campaign_id}/players", status_code=201, summary="A player's token (GM)")
def new_player(
    campaign_id: CampaignId, body: NewPlayer, role: RoleDep, campaigns: CampaignsDep, request: Request
) -> JSONResponse:
    gm_only(role)
    try:
        token = campaigns.player_token(campaign_id, body.player)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    url = f"{base_url(request)}/campaigns/{campaign_id}#t={token}"
    return _json({"player": body.player, "token": token, "links": {"player": url}}, 201)


# -- the roster -----------------------------------------------------------------------------------------
@router.get("/{campaign_id}/characters", summary="The characters the token may see")
def characters(campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep) -> JSONResponse:
    found = campaigns.characters(campaign_id, role)
    return _json({"characters": [character_json(campaigns, campaign_id, c) for c in found]})


@router.get("/{campaign_id}/characters/{character_id}", summary="A character's sheet")
def character(
    campaign_id: CampaignId, character_id: CharacterId, role: RoleDep, campaigns: CampaignsDep
) -> JSONResponse:
    try:
        ch = campaigns.character(campaign_id, character_id, role)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    return _json(character_json(campaigns, campaign_id, ch))


@router.get(
    "/{campaign_id}/characters/{character_id}/yaml",
    summary="A character as YAML (export)",
    response_class=Response,
    responses={200: {"content": {"application/yaml": {"schema": {"type": "string"}}}}},
)
def export_character(
    campaign_id: CampaignId, character_id: CharacterId, role: RoleDep, campaigns: CampaignsDep
) -> Response:
    try:
        ch = campaigns.character(campaign_id, character_id, role)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    return Response(
        character_yaml(ch),
        media_type="application/yaml; charset=utf-8",
        headers={**NO_STORE, "Content-Disposition": f'attachment; filename="{ch.id}.yaml"'},
    )


@router.post("/{campaign_id}/characters", status_code=201, summary="Add a character (GM)")
def add_character(
    campaign_id: CampaignId, body: NewCharacter, role: RoleDep, campaigns: CampaignsDep
) -> JSONResponse:
    gm_only(role)
    try:
        ch = campaigns.add(campaign_id, body.ruleset, body.id, body.name, body.sheet, owner=body.owner)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    return _json(character_json(campaigns, campaign_id, ch), 201)


@router.post(
    "/{campaign_id}/characters/import", status_code=201, summary="Add a character from its YAML (GM)"
)
def import_character(
    campaign_id: CampaignId, body: CharacterFile, role: RoleDep, campaigns: CampaignsDep
) -> JSONResponse:
    gm_only(role)
    try:
        data = read_character(body.yaml, "character")
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
        raise campaign_problem(exc) from None
    return _json(character_json(campaigns, campaign_id, ch), 201)


@router.patch("/{campaign_id}/characters/{character_id}", summary="Change a character (GM)")
def edit_character(
    campaign_id: CampaignId,
    character_id: CharacterId,
    body: CharacterChange,
    role: RoleDep,
    campaigns: CampaignsDep,
) -> JSONResponse:
    gm_only(role)
    try:
        ch = campaigns.edit(
            campaign_id,
            character_id,
            name=body.name,
            sheet=body.sheet,
            owner=body.owner,
            version=body.version,
        )
    except KassenError as exc:
        raise campaign_problem(exc) from None
    return _json(character_json(campaigns, campaign_id, ch))


@router.post("/{campaign_id}/check", summary="Check a character and preview it (nothing stored; GM)")
def check(campaign_id: CampaignId, body: NewCharacter, role: RoleDep) -> JSONResponse:
    gm_only(role)
    try:
        ch = check_character(body.ruleset, body.id, body.name, body.sheet)
    except ContentError as exc:
        issues = [{"field": i.field, "message": i.message} for i in exc.issues]
        return _json({"ok": False, "errors": issues, "preview": None})
    return _json({"ok": True, "errors": [], "preview": preview(ch).to_json()})


# -- scenario templates ---------------------------------------------------------------------------------
@router.get("/{campaign_id}/scenarios/{template_id}", summary="A scenario template's YAML (GM)")
def scenario(
    campaign_id: CampaignId, template_id: CharacterId, role: RoleDep, campaigns: CampaignsDep
) -> JSONResponse:
    gm_only(role)
    try:
        return _json(Library(campaigns).template(campaign_id, template_id).to_json())
    except KassenError as exc:
        raise campaign_problem(exc) from None


@router.put("/{campaign_id}/scenarios/{template_id}", summary="Keep a scenario template (GM)")
def save_scenario(
    campaign_id: CampaignId,
    template_id: CharacterId,
    body: NewTemplate,
    role: RoleDep,
    campaigns: CampaignsDep,
) -> JSONResponse:
    gm_only(role)
    if body.id != template_id:
        raise Problem(422, "request", S_("the body's id is not the address's"))
    try:
        source = read_scenario(template_id, text=body.yaml)
        found = Library(campaigns).save(campaign_id, template_id, source)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    return _json(found.to_json())


# -- fights ---------------------------------------------------------------------------------------------
def template_of(campaigns: Campaigns, tables: Tables, campaign_id: str, name: str) -> ScenarioSource:
    """A campaign's template by id, else a bundled scenario by name."""
    if CHARACTER_ID.match(name):
        for found in Library(campaigns).templates(campaign_id):
            if found.id == name:
                return found.source()
    source, ident = tables.scenario(name)
    if ident is None:
        raise Problem(
            422, "template", S_("no scenario {name} in the campaign, nor bundled", name=repr(name[:60]))
        )
    return source


@router.post("/{campaign_id}/fights", status_code=201, summary="Start the next fight at the web table (GM)")
def start_fight(
    request: Request,
    campaign_id: CampaignId,
    body: StartFight,
    role: RoleDep,
    campaigns: CampaignsDep,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
) -> JSONResponse:
    gm_only(role)
    quotas.open_fight(client)
    try:
        template = template_of(campaigns, tables, campaign_id, body.template)
        from kassen.web.campaign_play import cast_of, open_at_table

        cast = [(m.character, m.side) for m in body.cast] or cast_of(campaigns, campaign_id, template)
        record, made = open_at_table(
            campaigns,
            tables,
            campaign_id,
            template,
            cast,
            abandon=body.abandon,
            seed=body.seed,
            dice=body.dice,
            policies=lambda _sides: dict(body.policies or {}),
            expires_at=expiry(request, None),
            charge=lambda size: quotas.store(client, size),
        )
    except KassenError as exc:
        raise campaign_problem(exc) from None
    base = base_url(request)
    return _json(
        {
            "seq": record.seq,
            "fight": made.id,
            "gm_token": made.gm_token,
            "join": made.join,
            "links": {
                "gm": f"{base}/fights/{made.id}#t={made.gm_token}",
                "join": {side: f"{base}/join/{made.id}#t={t}" for side, t in made.join.items()},
            },
        },
        201,
    )


@router.post("/{campaign_id}/aftermath", summary="Propose the last fight's aftermath from its table (GM)")
def propose(
    campaign_id: CampaignId, body: Aftermath, role: RoleDep, campaigns: CampaignsDep, tables: TablesDep
) -> JSONResponse:
    gm_only(role)
    try:
        record = campaigns.fights(campaign_id)[-1] if campaigns.fights(campaign_id) else None
        if record is None:
            raise CampaignError(S_("no fight waits for its aftermath: start one first"))
        fight_id = Library(campaigns).table(campaign_id, record.seq)
        if fight_id is None:
            raise CampaignError(
                S_("fight {n} was not played at the table: send its chronicle (CLI)", n=record.seq)
            )
        with tables.reading(fight_id) as live:
            proposed = campaigns.propose(campaign_id, live.fight, body.take)
    except KassenError as exc:
        raise campaign_problem(exc) from None
    return _json(proposed.to_json())


@router.post("/{campaign_id}/confirm", summary="Write the proposed aftermath to the roster (GM)")
def confirm(campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep) -> JSONResponse:
    gm_only(role)
    try:
        return _json(campaigns.confirm(campaign_id).to_json())
    except KassenError as exc:
        raise campaign_problem(exc) from None


@router.post("/{campaign_id}/undo", summary="Take back the confirmed aftermath (GM; until the next fight)")
def undo(campaign_id: CampaignId, role: RoleDep, campaigns: CampaignsDep) -> JSONResponse:
    gm_only(role)
    try:
        return _json(campaigns.undo(campaign_id).to_json())
    except KassenError as exc:
        raise campaign_problem(exc) from None
