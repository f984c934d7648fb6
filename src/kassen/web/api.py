"""The JSON API (``/api/...``), published at ``/openapi.json``; the screens change fights through it.

Tokens go in a header, ``Authorization: Bearer TOKEN`` (never in a cookie, so a page of another site
cannot send them): the GM token of a fight does everything; a side's join token reads that side's view
and decides for that side's units only. Creating or importing a fight needs no token and returns new
ones. Every body is strict JSON (unknown fields, wrong types and out-of-range values are one 422 naming
the field); every error is ``{"detail": words, "code": stable code, ...}``:

====  ==========================================================================================
401   no token, or a token that opens no fight
403   a token of another fight; a side's token asking for the GM's things or another side's turn
404   no such fight
409   ``stale``: the ``state_id`` sent is not the fight's now (the reply names the current one);
      ``pending``/``no_pending``: an action is (not) waiting for typed dice; ``over``; ``start``
413   a body over the size limit
415   a body that is not JSON
422   a malformed request; a scenario that does not validate (every error, with line and field); a
      choice not on the menu, or not allowed (with the rule); faces the die does not have
====  ==========================================================================================

On any error nothing changes.
"""

from __future__ import annotations

__all__ = ["router"]

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from kassen.content.yamlio import MAX_YAML_BYTES
from kassen.core.fight import MAX_FACE, MAX_TYPED_FACES, SEED_BOUNDS
from kassen.core.menu import MAX_PATH
from kassen.core.report import account
from kassen.i18n import S_
from kassen.web.bodies import StrictRoute, strict_json
from kassen.web.callers import Caller, gm_only
from kassen.web.problems import Problem
from kassen.web.quotas import Quotas, client_of_scope
from kassen.web.rows import MAX_NAME
from kassen.web.store import now
from kassen.web.tables import Created, Tables
from kassen.web.tokens import FIGHT_ID_PATTERN, token_hash
from kassen.web.views import for_caller

router = APIRouter(prefix="/api", route_class=StrictRoute)
bearer = HTTPBearer(auto_error=False, description="A fight's GM token or a side's join token.")

#: A state id as the core writes it (hex digits of a SHA-256).
STATE_ID = r"^[0-9a-f]{8,64}$"
ChoiceId = Annotated[str, StringConstraints(min_length=1, max_length=200)]
StateId = Annotated[str, StringConstraints(pattern=STATE_ID)]
Face = Annotated[int, Field(ge=1, le=MAX_FACE)]
FightId = Annotated[str, Path(pattern=FIGHT_ID_PATTERN, description="A fight's id (22 characters).")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


SideId = Annotated[str, StringConstraints(min_length=1, max_length=200)]
PolicySpecText = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Policies = Annotated[
    dict[SideId, PolicySpecText],
    Field(
        max_length=32,
        description=(
            "Side → a named policy the server plays it with: heuristic, random, first-legal, scenario, or "
            "search (search:iterations=400, search:time=1.0; at most 5 s or 20,000 iterations a decision, "
            "never omniscient). A side not named is played by its players."
        ),
    ),
]

#: Ten years: longer is never.
MAX_EXPIRY = 10 * 365 * 24 * 3600
ExpiresIn = Annotated[
    int | None,
    Field(
        ge=60,
        le=MAX_EXPIRY,
        description="Seconds until the tokens given expire (default: the server's; normally never).",
    ),
]


class NewFight(Strict):
    """A fight to open."""

    scenario: str = Field(
        min_length=1,
        max_length=MAX_YAML_BYTES,
        description="A bundled scenario's name (`demo`, `sengoku/demo`) or a scenario's YAML text.",
    )
    seed: int | None = Field(
        default=None,
        ge=SEED_BOUNDS.lo,
        le=SEED_BOUNDS.hi,
        description="Default: 64 random bits (never the scenario's own, which anyone with the file has).",
    )
    dice: Literal["auto", "table"] = Field(
        default="auto", description="auto: the seeded RNG rolls; table: the faces rolled are typed."
    )
    expires_in: ExpiresIn = None
    policies: Policies | None = None


class PoliciesRequest(Strict):
    """Who plays each side from now on: side → policy spec for the sides the server plays (``{}``: every
    side by its players)."""

    policies: Policies


class ActionRequest(Strict):
    """One step at the table, chosen on ``state_id``: exactly one of ``choices`` (a complete path of
    menu ids; ``gm`` for the GM's own moves), ``auto`` (the unit's policy decides) or ``dice`` (faces
    for the action waiting for them; ``null`` lets the seeded RNG roll that die)."""

    state_id: StateId
    choices: list[ChoiceId] | None = Field(default=None, min_length=1, max_length=MAX_PATH)
    gm: bool = False
    auto: bool = False
    dice: list[Face | None] | None = Field(default=None, min_length=1, max_length=MAX_TYPED_FACES)

    @model_validator(mode="after")
    def _one(self) -> ActionRequest:
        given = [self.choices is not None, self.auto, self.dice is not None]
        if sum(given) != 1:
            raise ValueError("send exactly one of choices, auto (true) or dice")
        if self.gm and self.choices is None:
            raise ValueError("gm goes with choices (the GM's own moves)")
        return self


class UndoRequest(Strict):
    """Undo, chosen on ``state_id``."""

    state_id: StateId


class ForkRequest(Strict):
    """A new fight from the state ``at`` (the fight's start, or after any action in its log)."""

    at: StateId
    expires_in: ExpiresIn = None


class RotateRequest(Strict):
    """Replace tokens: ``all`` (a new GM token and every side's link, the old ones dead) or one
    side's link (the others unchanged)."""

    rotate: Annotated[str, StringConstraints(min_length=1, max_length=200)] = Field(
        description="`all`, or a side's id."
    )
    expires_in: ExpiresIn = None


class FightChange(Strict):
    """The GM's changes to a fight's place in the list: its name, whether it is archived."""

    name: (
        Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME)] | None
    ) = Field(default=None, description="The GM's name for the fight (shown to its GM only).")
    archived: bool | None = Field(default=None, description="Archived: folded away in the fight list.")

    @model_validator(mode="after")
    def _some(self) -> FightChange:
        if self.name is None and self.archived is None:
            raise ValueError("send a name, archived, or both")
        return self


class Rotated(BaseModel):
    """The tokens that are new: the GM's (null when unchanged) and each side's that was replaced."""

    gm_token: str | None
    join: dict[str, str]
    links: dict[str, Any]
    expires_at: str | None


class CreatedFight(BaseModel):
    """A new fight: its id, the GM's token, each side's join token, and the screens' addresses."""

    id: str
    gm_token: str
    join: dict[str, str]
    state_id: str
    links: dict[str, Any]
    expires_at: str | None = Field(description="When the tokens expire (ISO 8601, UTC); null: never.")


class Refusal(BaseModel):
    detail: str
    code: str


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": Refusal, "description": "No token, or a token that opens no fight."},
    403: {"model": Refusal, "description": "Not this token's to do."},
    404: {"model": Refusal, "description": "No such fight."},
    409: {"model": Refusal, "description": "The fight is not in the state the request was chosen on."},
    413: {"model": Refusal, "description": "The body is over the size limit."},
    415: {"model": Refusal, "description": "The body is not JSON."},
}


def tables_of(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def quotas_of(request: Request) -> Quotas:
    quotas: Quotas = request.app.state.quotas
    return quotas


def client_of(request: Request) -> str:
    """The client a request counts under for the quotas (:mod:`kassen.web.quotas`)."""
    return client_of_scope(request.scope)


TablesDep = Annotated[Tables, Depends(tables_of)]
QuotasDep = Annotated[Quotas, Depends(quotas_of)]
ClientDep = Annotated[str, Depends(client_of)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def caller_of(fight_id: FightId, tables: TablesDep, credentials: Credentials) -> Caller:
    return tables.caller(fight_id, credentials.credentials if credentials is not None else None)


CallerDep = Annotated[Caller, Depends(caller_of)]


def base_url(request: Request) -> str:
    """Where the links handed out point: ``--public-url`` when given, else the server's LAN address when
    it listens beyond loopback (``Settings.join_url``: a phone reaches it even when the GM opened
    ``localhost``), else the address the request came to (no final ``/``)."""
    settings = request.app.state.settings
    public: str | None = settings.public_url or settings.join_url
    return public.rstrip("/") if public else str(request.base_url).rstrip("/")


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def expiry(request: Request, expires_in: int | None) -> datetime | None:
    """When tokens given now expire: in ``expires_in`` seconds, else the server's default (if any)."""
    default: float | None = request.app.state.settings.token_ttl
    seconds = expires_in if expires_in is not None else default
    return None if seconds is None else now() + timedelta(seconds=seconds)


def created(request: Request, made: Created) -> JSONResponse:
    base = base_url(request)
    body = CreatedFight(
        id=made.id,
        gm_token=made.gm_token,
        join=made.join,
        state_id=made.state_id,
        expires_at=_iso(made.expires_at),
        links={
            "gm": f"{base}/fights/{made.id}#t={made.gm_token}",
            "join": {side: f"{base}/join/{made.id}#t={t}" for side, t in made.join.items()},
        },
    )
    return JSONResponse(body.model_dump(), status_code=201, headers={"Cache-Control": "no-store"})


# -- the fights ----------------------------------------------------------------------------------------
@router.get("/scenarios", summary="The bundled scenarios")
def scenarios(tables: TablesDep) -> list[dict[str, str]]:
    return [
        {"id": b.ident, "ruleset": b.ruleset, "name": b.name, "title": b.title}
        for b in tables.catalog.items()
    ]


@router.get("/fights", summary="The fights of this server (public facts only)")
def list_fights(
    tables: TablesDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    items, total = tables.listing(limit=limit, offset=offset)
    return {"fights": items, "total": total}


@router.post(
    "/fights",
    status_code=201,
    response_model=CreatedFight,
    summary="Open a fight",
    responses={
        **ERRORS,
        422: {"description": "The scenario does not validate: every error, line and field."},
    },
)
def create_fight(
    request: Request, body: NewFight, tables: TablesDep, quotas: QuotasDep, client: ClientDep
) -> JSONResponse:
    quotas.open_fight(client)
    made = tables.create(
        body.scenario,
        seed=body.seed,
        dice=body.dice,
        charge=lambda size: quotas.store(client, size),
        expires_at=expiry(request, body.expires_in),
        policies=body.policies,
    )
    return created(request, made)


@router.post(
    "/fights/import",
    status_code=201,
    response_model=CreatedFight,
    summary="Open a fight from a chronicle (replayed and checked first)",
    responses={**ERRORS, 422: {"description": "Not a chronicle, or one that does not replay."}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object", "description": "A chronicle."}}},
        }
    },
)
async def import_fight(
    request: Request,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
    dice: Annotated[Literal["auto", "table"], Query(description="How the imported fight rolls on.")] = "auto",
    expires_in: Annotated[ExpiresIn, Query()] = None,
) -> JSONResponse:
    quotas.open_fight(client)
    expires_at = expiry(request, expires_in)
    raw = await request.body()

    def work() -> Created:
        data = strict_json(raw, what="the chronicle")
        if not isinstance(data, dict):
            raise Problem(422, "format", S_("a chronicle is a JSON object"))
        return tables.import_chronicle(
            data, dice=dice, charge=lambda size: quotas.store(client, size), expires_at=expires_at
        )

    return created(request, await run_in_threadpool(work))


@router.get("/fights/{fight_id}", summary="The fight as the caller may see it", responses=ERRORS)
def get_fight(
    fight_id: FightId,
    caller: CallerDep,
    tables: TablesDep,
    log: Annotated[bool, Query(description="Include the log (the caller's view of every action).")] = True,
) -> dict[str, Any]:
    with tables.reading(fight_id) as live:
        return tables.view(live, caller, log=log)


@router.patch(
    "/fights/{fight_id}",
    summary="Rename a fight, archive it or bring it back (GM)",
    responses={**ERRORS, 422: {"description": "A name that is empty or too long."}},
)
def patch_fight(
    fight_id: FightId,
    body: FightChange,
    caller: CallerDep,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
) -> dict[str, Any]:
    quotas.act(token_hash(caller.token), client)
    return tables.manage(fight_id, caller, name=body.name, archived=body.archived)


@router.delete(
    "/fights/{fight_id}",
    summary="Delete a fight: its log and its links are gone for good (GM)",
    responses=ERRORS,
)
def delete_fight(
    fight_id: FightId, caller: CallerDep, tables: TablesDep, quotas: QuotasDep, client: ClientDep
) -> dict[str, Any]:
    quotas.act(token_hash(caller.token), client)
    tables.delete(fight_id, caller)
    return {"deleted": fight_id}


@router.get(
    "/fights/{fight_id}/choices",
    summary="The menu at a point of the decision being built",
    responses={**ERRORS, 422: {"description": "A path that is not on the menus."}},
)
def get_choices(
    fight_id: FightId,
    caller: CallerDep,
    tables: TablesDep,
    path: Annotated[
        str | None,
        Query(max_length=MAX_PATH * 201, description="The ids chosen so far, comma-separated: ID1,ID2"),
    ] = None,
    gm: Annotated[bool, Query(description="The GM's own moves (GM token only).")] = False,
) -> dict[str, Any]:
    steps = [p for p in path.split(",")] if path else []
    if any(not p or len(p) > 200 for p in steps) or len(steps) > MAX_PATH:
        raise Problem(
            422,
            "menu",
            S_("a path is at most {most} ids of 1 to 200 characters, comma-separated", most=MAX_PATH),
        )
    with tables.reading(fight_id) as live:
        return tables.choices(live, caller, steps, gm=gm)


@router.post(
    "/fights/{fight_id}/actions",
    summary="Play a step: a complete path of choices, auto, or the faces rolled",
    responses={**ERRORS, 422: {"description": "Not on the menu, not allowed (with the rule), bad faces."}},
)
def post_action(
    fight_id: FightId,
    body: ActionRequest,
    caller: CallerDep,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
) -> dict[str, Any]:
    quotas.act(token_hash(caller.token), client)
    return tables.act(
        fight_id,
        caller,
        body.state_id,
        choices=body.choices,
        gm=body.gm,
        auto=body.auto,
        dice=body.dice,
    )


@router.put(
    "/fights/{fight_id}/policies",
    summary="Choose who plays each side: its players, or a named policy the server plays it with (GM)",
    responses={**ERRORS, 422: {"description": "A policy spec or side that is not allowed."}},
)
def put_policies(
    fight_id: FightId,
    body: PoliciesRequest,
    caller: CallerDep,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
) -> dict[str, Any]:
    quotas.act(token_hash(caller.token), client)
    return tables.set_policies(fight_id, caller, dict(body.policies))


@router.post("/fights/{fight_id}/undo", summary="Take back the last action (GM)", responses=ERRORS)
def post_undo(
    fight_id: FightId,
    body: UndoRequest,
    caller: CallerDep,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
) -> dict[str, Any]:
    quotas.act(token_hash(caller.token), client)
    return tables.undo(fight_id, caller, body.state_id)


@router.post(
    "/fights/{fight_id}/fork",
    status_code=201,
    response_model=CreatedFight,
    summary="A new fight from any state of this one (GM)",
    responses={**ERRORS, 422: {"description": "No such state in this fight's log."}},
)
def post_fork(
    request: Request,
    fight_id: FightId,
    body: ForkRequest,
    caller: CallerDep,
    tables: TablesDep,
    quotas: QuotasDep,
    client: ClientDep,
) -> JSONResponse:
    gm_only(caller, S_("forking"))
    quotas.open_fight(client, token_hash(caller.token))
    made = tables.fork(
        fight_id,
        caller,
        body.at,
        charge=lambda size: quotas.store(client, size),
        expires_at=expiry(request, body.expires_in),
    )
    return created(request, made)


@router.get(
    "/fights/{fight_id}/log", summary="The chronicle, which `kassen replay` verifies (GM)", responses=ERRORS
)
def get_log(fight_id: FightId, caller: CallerDep, tables: TablesDep) -> JSONResponse:
    with tables.reading(fight_id) as live:
        data = tables.chronicle(live, caller)
    return JSONResponse(
        data,
        headers={
            "Content-Disposition": f'attachment; filename="kassen-{fight_id}.json"',
            "Cache-Control": "no-store",
        },
    )


@router.get("/fights/{fight_id}/links", summary="Each side's join token and link (GM)", responses=ERRORS)
def get_links(request: Request, fight_id: FightId, caller: CallerDep, tables: TablesDep) -> dict[str, Any]:
    join, expires = tables.links(fight_id, caller)
    base = base_url(request)
    return {
        "join": join,
        "links": {side: f"{base}/join/{fight_id}#t={token}" for side, token in join.items()},
        "expires_at": {who: _iso(at) for who, at in expires.items()},
    }


@router.post(
    "/fights/{fight_id}/tokens",
    response_model=Rotated,
    summary="Replace the tokens: every one (a new GM token) or one side's link (GM)",
    responses={**ERRORS, 422: {"description": "No such side."}},
)
def post_tokens(
    request: Request, fight_id: FightId, body: RotateRequest, caller: CallerDep, tables: TablesDep
) -> JSONResponse:
    expires_at = expiry(request, body.expires_in)
    gm, join = tables.rotate(fight_id, caller, body.rotate, expires_at)
    base = base_url(request)
    links: dict[str, Any] = {"join": {side: f"{base}/join/{fight_id}#t={t}" for side, t in join.items()}}
    if gm is not None:
        links["gm"] = f"{base}/fights/{fight_id}#t={gm}"
    rotated = Rotated(gm_token=gm, join=join, links=links, expires_at=_iso(expires_at))
    return JSONResponse(rotated.model_dump(), headers={"Cache-Control": "no-store"})


@router.get("/fights/{fight_id}/narration", summary="The fight in words, as the caller may know it")
def get_narration(
    fight_id: FightId,
    caller: CallerDep,
    tables: TablesDep,
    verbose: Annotated[bool, Query(description="With every explanation step.")] = False,
) -> dict[str, Any]:
    with tables.reading(fight_id) as live:
        text = account(live.fight, verbose=verbose, viewer=caller.viewer)
        return {"state_id": live.fight.view_id(caller.viewer), "lines": text.splitlines()}


@router.get(
    "/fights/{fight_id}/stream",
    summary="Server-sent events: each new state of the fight",
    response_class=StreamingResponse,
    responses={**ERRORS, 200: {"content": {"text/event-stream": {}}, "description": "An event stream."}},
)
async def stream(
    request: Request, fight_id: FightId, caller: CallerDep, tables: TablesDep, client: ClientDep
) -> StreamingResponse:
    def first() -> dict[str, Any]:
        with tables.reading(fight_id) as live:
            return tables.announcement(live)

    hello = await run_in_threadpool(first)
    keepalive = request.app.state.settings.keepalive_seconds
    subscription = tables.streams.subscribe(fight_id, client, token_hash(caller.token))
    try:
        queue = subscription.__enter__()
    except Problem as problem:
        request.app.state.quiet.note("streams", problem.message, client)
        raise

    async def events() -> AsyncIterator[str]:
        try:
            yield "retry: 1000\n\n"
            yield _event(for_caller(hello, caller))
            while True:
                try:
                    message = await asyncio.wait_for(queue.get(), keepalive)
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": keep-alive\n\n"
                    continue
                if message is None:  # the server is stopping
                    return
                yield _event(for_caller(message, caller))
        finally:
            subscription.__exit__(None, None, None)

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _event(message: dict[str, Any]) -> str:
    return f"event: state\ndata: {json.dumps(message, separators=(',', ':'))}\n\n"
