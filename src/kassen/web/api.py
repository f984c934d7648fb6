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
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from kassen.content.yamlio import MAX_YAML_BYTES
from kassen.core.codec import parse_json
from kassen.core.errors import KassenError
from kassen.core.fight import MAX_FACE, MAX_TYPED_FACES, SEED_BOUNDS
from kassen.core.menu import MAX_PATH
from kassen.core.report import account
from kassen.web.callers import Caller
from kassen.web.problems import Problem, refused
from kassen.web.tables import Created, Tables
from kassen.web.tokens import FIGHT_ID_PATTERN
from kassen.web.views import for_caller

router = APIRouter(prefix="/api")
bearer = HTTPBearer(auto_error=False, description="A fight's GM token or a side's join token.")

#: A state id as the core writes it (hex digits of a SHA-256).
STATE_ID = r"^[0-9a-f]{8,64}$"
ChoiceId = Annotated[str, StringConstraints(min_length=1, max_length=200)]
StateId = Annotated[str, StringConstraints(pattern=STATE_ID)]
Face = Annotated[int, Field(ge=1, le=MAX_FACE)]
FightId = Annotated[str, Path(pattern=FIGHT_ID_PATTERN, description="A fight's id (22 characters).")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


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


class CreatedFight(BaseModel):
    """A new fight: its id, the GM's token, each side's join token, and the screens' addresses."""

    id: str
    gm_token: str
    join: dict[str, str]
    state_id: str
    links: dict[str, Any]


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


TablesDep = Annotated[Tables, Depends(tables_of)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def caller_of(fight_id: FightId, tables: TablesDep, credentials: Credentials) -> Caller:
    return tables.caller(fight_id, credentials.credentials if credentials is not None else None)


CallerDep = Annotated[Caller, Depends(caller_of)]


def created(request: Request, made: Created) -> JSONResponse:
    base = str(request.base_url).rstrip("/")
    body = CreatedFight(
        id=made.id,
        gm_token=made.gm_token,
        join=made.join,
        state_id=made.state_id,
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
def create_fight(request: Request, body: NewFight, tables: TablesDep) -> JSONResponse:
    return created(request, tables.create(body.scenario, seed=body.seed, dice=body.dice))


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
    dice: Annotated[Literal["auto", "table"], Query(description="How the imported fight rolls on.")] = "auto",
) -> JSONResponse:
    raw = await request.body()
    limit = request.app.state.settings.max_import_bytes

    def work() -> Created:
        try:
            data = parse_json(raw, what="the chronicle", max_bytes=limit)
        except KassenError as exc:
            raise refused(exc) from None
        if not isinstance(data, dict):
            raise Problem(422, "format", "a chronicle is a JSON object")
        return tables.import_chronicle(data, dice=dice)

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
            422, "menu", f"a path is at most {MAX_PATH} ids of 1 to 200 characters, comma-separated"
        )
    with tables.reading(fight_id) as live:
        return tables.choices(live, caller, steps, gm=gm)


@router.post(
    "/fights/{fight_id}/actions",
    summary="Play a step: a complete path of choices, auto, or the faces rolled",
    responses={**ERRORS, 422: {"description": "Not on the menu, not allowed (with the rule), bad faces."}},
)
def post_action(
    fight_id: FightId, body: ActionRequest, caller: CallerDep, tables: TablesDep
) -> dict[str, Any]:
    return tables.act(
        fight_id,
        caller,
        body.state_id,
        choices=body.choices,
        gm=body.gm,
        auto=body.auto,
        dice=body.dice,
    )


@router.post("/fights/{fight_id}/undo", summary="Take back the last action (GM)", responses=ERRORS)
def post_undo(fight_id: FightId, body: UndoRequest, caller: CallerDep, tables: TablesDep) -> dict[str, Any]:
    return tables.undo(fight_id, caller, body.state_id)


@router.post(
    "/fights/{fight_id}/fork",
    status_code=201,
    response_model=CreatedFight,
    summary="A new fight from any state of this one (GM)",
    responses={**ERRORS, 422: {"description": "No such state in this fight's log."}},
)
def post_fork(
    request: Request, fight_id: FightId, body: ForkRequest, caller: CallerDep, tables: TablesDep
) -> JSONResponse:
    return created(request, tables.fork(fight_id, caller, body.at))


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
    join = tables.links(fight_id, caller)
    base = str(request.base_url).rstrip("/")
    return {
        "join": join,
        "links": {side: f"{base}/join/{fight_id}#t={token}" for side, token in join.items()},
    }


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
    request: Request, fight_id: FightId, caller: CallerDep, tables: TablesDep
) -> StreamingResponse:
    def first() -> dict[str, Any]:
        with tables.reading(fight_id) as live:
            return tables.announcement(live)

    hello = await run_in_threadpool(first)
    keepalive = request.app.state.settings.keepalive_seconds
    subscription = tables.streams.subscribe(fight_id)
    queue = subscription.__enter__()

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
