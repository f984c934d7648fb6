"""The application: :func:`create_app` wires the store, the live fights, the API, the screens and the
defences every request goes through.

- **Size and time**: a body over the limit (``Content-Length`` or counted as it arrives) is refused
  with 413 before the endpoint reads it, one that does not arrive in time with 408
  (:class:`BodyLimit`); a client with too many requests at once gets 429 (:class:`Busy`).
- **Host names**: a request naming a host this server does not serve is refused (400): a page of
  another site whose name was pointed at this server (DNS rebinding) cannot reach it
  (:mod:`kassen.web.origins`).
- **Cross-site requests**: state-changing requests carry their token in a header, which a page of
  another site cannot set without the server's consent (no CORS is ever granted); their bodies must be
  JSON (``Content-Type: application/json``: 415 otherwise), which a cross-site form cannot send; and a
  request whose ``Origin`` (scheme, host and port) or ``Sec-Fetch-Site`` says it comes from another
  site is refused (403)
  (:class:`Guard`).
- **Headers**: a strict Content-Security-Policy (scripts and styles from this server only, no inline
  script, no framing), ``nosniff``, no referrer, no caching of anything that carries a fight.
- **Errors**: one JSON shape, ``{"detail", "code", ...}``; a malformed request is one 422 naming the
  field; a full disk is 507 and a store that does not answer 503 (reading goes on); an unexpected error
  is a 500 without a traceback (logged on the server).
"""

from __future__ import annotations

__all__ = ["BodyLimit", "Guard", "create_app"]

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kassen import __version__
from kassen.i18n import S_
from kassen.web.language import Language, localized, scope_language
from kassen.web.openapi import install as install_openapi
from kassen.web.origins import Origins
from kassen.web.problems import Problem
from kassen.web.quiet import QuietLog
from kassen.web.quotas import Quotas, client_of_scope
from kassen.web.settings import Settings
from kassen.web.store import Store, StoreFull, StoreUnavailable
from kassen.web.streams import Broadcaster
from kassen.web.tables import Tables
from kassen.web.wording import describe

log = logging.getLogger("kassen.web")

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
IMPORT_PATH = "/api/fights/import"


def _json(status: int, body: dict[str, Any], headers: Mapping[str, str] | None = None) -> JSONResponse:
    """A refusal, its words in the viewer's language (:func:`kassen.web.language.localized`)."""
    return JSONResponse(localized(body), status_code=status, headers=headers)


async def _send_json(
    send: Send, status: int, body: dict[str, Any], headers: Mapping[str, str] | None = None
) -> None:
    data = json.dumps(localized(body)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
                *((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


class BodyLimit:
    """Refuse a body over ``limit`` bytes (``import_limit`` for an imported chronicle) with 413: by its
    ``Content-Length`` at once, else as it arrives — the body is read here, up to the limit, before the
    endpoint sees any of it; and one that has not all arrived ``timeout`` seconds after the request's
    head with 408 (a client sending a byte now and then holds no worker)."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        import_limit: int,
        timeout: float = 60.0,
        quiet: QuietLog | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.import_limit = import_limit
        self.timeout = timeout
        self.quiet = quiet or QuietLog(log)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.import_limit if scope.get("path") == IMPORT_PATH else self.limit
        has_body = False
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                if not value.isdigit() or len(value) > 18:
                    await _send_json(send, 400, {"detail": S_("a bad Content-Length"), "code": "request"})
                    return
                if int(value) > limit:
                    await _send_json(send, 413, _too_large(limit))
                    return
                has_body = int(value) > 0
            elif name == b"transfer-encoding":
                has_body = True
        if not has_body:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                self.quiet.note(
                    "slow request body", f"not all there after {self.timeout:g} s", _client(scope)
                )
                await _send_json(
                    send, 408, {"detail": S_("the request's body took too long to arrive"), "code": "timeout"}
                )
                return
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send_json(send, 413, _too_large(limit))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _client(scope: Scope) -> str:
    return client_of_scope(scope)


class Busy:
    """At most so many requests of one client at once (429 ``busy``): a client cannot take every worker
    thread with slow requests. An event stream is apart: it is held open, and capped on its own."""

    def __init__(self, app: ASGIApp, quotas: Quotas) -> None:
        self.app = app
        self.quotas = quotas

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or str(scope.get("path", "")).endswith("/stream"):
            await self.app(scope, receive, send)
            return
        try:
            held = self.quotas.request(_client(scope))
            held.__enter__()
        except Problem as problem:
            await _send_json(send, problem.status, problem.body(), problem.headers)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            held.__exit__(None, None, None)


def _too_large(limit: int) -> dict[str, Any]:
    return {
        "detail": S_("the body is larger than the limit of {limit} bytes", limit=limit),
        "code": "too_large",
    }


class Guard:
    """The host allow-list, the cross-site checks and the security headers (see the module notes and
    :mod:`kassen.web.origins`)."""

    def __init__(self, app: ASGIApp, origins: Origins) -> None:
        self.app = app
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host")
        if not self.origins.host_allowed(host):
            await _send_json(
                send,
                400,
                {"detail": S_("this server does not serve that host name (Host)"), "code": "host"},
            )
            return
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD", "OPTIONS"):
            refusal = _cross_site(headers, self.origins, str(scope.get("scheme", "http")))
            if refusal is not None:
                await _send_json(send, 403, {"detail": refusal, "code": "cross_site"})
                return
            if method in ("POST", "PUT", "PATCH") and not _json_type(headers.get("content-type", "")):
                await _send_json(
                    send,
                    415,
                    {
                        "detail": S_("send JSON in UTF-8 (Content-Type: application/json)"),
                        "code": "media_type",
                    },
                )
                return
        path = scope.get("path", "")
        private = path.startswith(("/api/fights", "/ui/"))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                ]
                have = {k.lower() for k, _ in message.get("headers", ())}
                if private and b"cache-control" not in have:
                    extra.append((b"cache-control", b"no-store"))
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def _json_type(value: str) -> bool:
    """Whether a Content-Type says JSON in UTF-8 (JSON has no other encoding: RFC 8259)."""
    kind, *params = (part.strip().lower() for part in value.split(";"))
    if kind != "application/json":
        return False
    for param in params:
        name, _, given = param.partition("=")
        if name.strip() == "charset" and given.strip().strip('"') not in ("utf-8", "utf8"):
            return False
    return True


def _cross_site(headers: dict[str, str], origins: Origins, scheme: str) -> str | None:
    """Why a state-changing request looks cross-site (None: it does not)."""
    if headers.get("sec-fetch-site") == "cross-site":
        return S_("a request from another site is refused")
    origin = headers.get("origin")
    if origin is None:
        return None
    if origin == "null":
        return S_("a request from an opaque origin is refused")
    if not origins.origin_allowed(origin, headers.get("host"), scheme):
        return S_("a request from another origin (scheme, host or port) is refused")
    return None


def _body_fields(request: Request) -> tuple[str, ...]:
    """The fields the body of the request's endpoint takes (for "not a field of this request")."""
    route = request.scope.get("route")
    field = getattr(route, "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    fields = getattr(model, "model_fields", None)
    return tuple(fields) if isinstance(fields, dict) else ()


def create_app(
    settings: Settings | None = None, *, store: Store | None = None, quiet: QuietLog | None = None
) -> FastAPI:
    """The server's application for ``settings`` (a ``store`` already open may be given, e.g. by tests;
    it is then closed with the app; ``quiet`` counts the refusals, shared with the server's
    connection limits)."""
    from kassen.web.api import router
    from kassen.web.apidocs import router as api_docs
    from kassen.web.pages import router as pages
    from kassen.web.rules import pages as rule_pages
    from kassen.web.rules import router as rule_router

    config = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = app.state.store

        async def summaries() -> None:  # the refusals counted since the last summary, once a minute
            while True:
                await asyncio.sleep(refusals.interval)
                refusals.flush()

        summing = asyncio.create_task(summaries())
        try:
            yield
        finally:
            summing.cancel()
            refusals.flush(force=True)
            app.state.tables.streams.close()
            app.state.tables.autoplayer.close()
            opened.close()

    opened = store or Store(config.db)
    refusals = quiet or QuietLog(log)
    app = FastAPI(
        title="kassen",
        version=__version__,
        summary="The GM table in the browser: fights, menus with exact odds, table dice, live screens.",
        lifespan=lifespan,
        # the reference at /api/docs is kassen.web.apidocs' own page: an explorer from a CDN would break
        # the pages' Content-Security-Policy
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = config
    app.state.quiet = refusals
    app.state.store = opened
    app.state.quotas = quotas = Quotas(config.quotas, refusals)
    app.state.tables = Tables(
        opened,
        content=config.content,
        cached=config.cached_fights,
        streams=Broadcaster(
            config.max_streams_per_fight,
            config.max_streams,
            config.quotas.streams_per_client,
            config.quotas.streams_per_token,
        ),
    )

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        headers = {**(exc.headers or {}), **({"WWW-Authenticate": "Bearer"} if exc.status == 401 else {})}
        if exc.status >= 500:
            log.error("%s %s: %s", request.method, request.url.path, exc.message)
        return _json(exc.status, exc.body(), headers)

    @app.exception_handler(StoreFull)
    async def _full(request: Request, exc: StoreFull) -> JSONResponse:
        refusals.note("store_full", f"{request.method} {request.url.path}: {exc}")
        body = {"detail": S_("{problem}; reading goes on", problem=str(exc)), "code": "store_full"}
        return _json(507, body)

    @app.exception_handler(StoreUnavailable)
    async def _unavailable(request: Request, exc: StoreUnavailable) -> JSONResponse:
        refusals.note("store_unavailable", f"{request.method} {request.url.path}: {exc}")
        body = {"detail": S_("the store did not answer: try again shortly"), "code": "store_unavailable"}
        return _json(503, body, {"Retry-After": "5"})

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = describe(
            exc.errors()[:20],
            _body_fields(request),
            dice_are_faces=request.url.path.endswith("/actions"),
        )
        detail = errors[0]["message"] if errors else S_("the request is not one this server takes")
        return _json(422, {"detail": detail, "code": "request", "errors": errors})

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _json(exc.status_code, {"detail": str(exc.detail), "code": "http"}, exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        body = {"detail": S_("the server failed on this request (logged)"), "code": "internal"}
        # outside the app's own layers (the viewer's language is no longer set): read it again
        return JSONResponse(localized(body, scope_language(request.scope)), status_code=500)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, Any]:
        return {"ok": True, "store": opened.dialect, "version": __version__}

    app.include_router(router)
    app.include_router(rule_router)
    app.include_router(rule_pages)
    app.include_router(pages)
    app.include_router(api_docs)
    from kassen.web.campaign_api import router as campaign_api
    from kassen.web.campaign_pages import router as campaign_pages
    from kassen.web.campaign_play import router as campaign_play

    for extra in (campaign_api, campaign_pages, campaign_play):  # campaigns: kassen.web.campaign_*
        app.include_router(extra)
    install_openapi(app)
    static = resources.files("kassen.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    origins = Origins.of(config.allowed_hosts, config.public_url)
    app.add_middleware(Guard, origins=origins)
    app.add_middleware(
        BodyLimit,
        limit=config.max_body_bytes,
        import_limit=config.max_import_bytes,
        timeout=config.body_timeout,
        quiet=refusals,
    )
    app.add_middleware(Busy, quotas=quotas)
    app.add_middleware(Language)  # outermost: every refusal below is worded in its viewer's language
    return app
