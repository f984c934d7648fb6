"""The published OpenAPI document (``/openapi.json``), with every reply a client can get.

FastAPI describes each operation's own replies, and a 422 in its own validation-error shape. But every
refusal of this server is one JSON shape, ``{"detail", "code", ...}`` (:class:`Refusal`), and some come
from the layers in front of the endpoints — the host allow-list and a malformed head (400), the
cross-site check (403), the body's size, time and type (413, 408, 415), the quotas (429), the store
(503, 507). :func:`complete` adds them to every operation they can answer, so that a client generated
from the document, or a checker of it, meets no reply it does not describe.
"""

from __future__ import annotations

__all__ = ["complete", "install"]

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

REFUSAL: dict[str, Any] = {
    "title": "Refusal",
    "type": "object",
    "description": "A refused request (nothing changed): words, a stable code, and details by code.",
    "required": ["detail", "code"],
    "properties": {
        "detail": {"type": "string", "description": "What was wrong, in words."},
        "code": {"type": "string", "description": "A stable code (`stale`, `quota`, `json`, ...)."},
        "errors": {"type": "array", "items": {"type": "object"}, "description": "Every error found."},
        "rule": {"type": ["string", "null"], "description": "The rule that refused an action."},
        "state_id": {"type": "string", "description": "The id to choose on now (`stale`)."},
    },
    "additionalProperties": True,
}

#: Replies any request can get.
_EVERY = {
    400: "A host name this server does not serve, or a malformed request head.",
    422: "A malformed request: one message naming the field (`request`, `json`).",
    429: "Over a quota or cap of this client or token (`quota`, `busy`, `streams`); see Retry-After.",
    500: "The server failed (logged); or a stored fight that does not replay (`replay`).",
    503: "The store did not answer, or the server holds too many connections: try again shortly.",
}
#: Replies to a request that names a fight and needs its token.
_FIGHT = {
    401: "No token, a token that opens no fight, or one that has expired.",
    403: "Not this token's to do: another fight's, another side's, or the GM's alone.",
    404: "No such fight.",
}
#: Replies to a request with a body.
_WRITE = {
    403: "A request from another site (Origin, Sec-Fetch-Site).",
    408: "The body took too long to arrive.",
    413: "The body is over the size limit.",
    415: "The body is not JSON in UTF-8.",
    507: "The store's disk is full: nothing was saved; reading goes on.",
}


def complete(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with :data:`REFUSAL` for every refusal and the replies of the module notes added."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    components["Refusal"] = REFUSAL
    ref = {"$ref": "#/components/schemas/Refusal"}
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses: dict[str, Any] = operation.setdefault("responses", {})
            wanted = dict(_EVERY)
            if "{fight_id}" in path:
                wanted |= _FIGHT
            if method in ("post", "put", "patch", "delete"):
                wanted |= _WRITE
            for code, words in wanted.items():
                responses.setdefault(str(code), {"description": words})
            for status, response in responses.items():
                if str(status).startswith(("4", "5")):
                    response["content"] = {"application/json": {"schema": ref}}
    return schema


def install(app: FastAPI) -> None:
    """Publish :func:`complete`'s document at ``app``'s ``/openapi.json``."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(
                get_openapi(
                    title=app.title,
                    version=app.version,
                    summary=app.summary,
                    description=app.description,
                    routes=app.routes,
                )
            )
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
