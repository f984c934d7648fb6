"""Request bodies read strictly: JSON is UTF-8 (RFC 8259), with no key given twice in one object and no
``NaN`` — the same rules as every JSON file kassen reads (:func:`kassen.core.codec.parse_json`).

Starlette's ``Request.json()`` hands the bytes to :func:`json.loads`, which guesses UTF-16 and UTF-32
from the first bytes and keeps the last of two equal keys: a body could then mean one thing to
kassen and another to a proxy, a log or a client's own checker. :class:`StrictRoute` (FastAPI's hook
for a custom request class) makes every JSON endpoint parse through :func:`strict_json` instead.
"""

from __future__ import annotations

__all__ = ["StrictRequest", "StrictRoute", "strict_json"]

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from kassen.core.codec import parse_json
from kassen.core.errors import KassenError
from kassen.i18n import S_
from kassen.web.problems import Problem

#: What is never read as JSON text: a byte-order mark, or the NUL bytes UTF-16 and UTF-32 put
#: beside every ASCII character (valid UTF-8 on their own, so they get the clearer message here).
_NOT_UTF8 = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def strict_json(body: bytes, *, what: str = "the body") -> Any:
    """``body`` as JSON data, or one 422 (code ``json``) saying what is wrong with it."""
    if body.startswith(_NOT_UTF8) or b"\x00" in body:
        raise Problem(
            422,
            "json",
            S_("{what} is not UTF-8 JSON (UTF-16 or UTF-32 text, or a byte-order mark)", what=what),
        )
    try:
        return parse_json(body, what=what, max_bytes=len(body))
    except KassenError as exc:
        raise Problem(422, "json", str(exc)[:500]) from None


class StrictRequest(Request):
    """A request whose JSON body is read by :func:`strict_json`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_json(await self.body())
        return self._json


class StrictRoute(APIRoute):
    """An API route that reads its body through :class:`StrictRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictRequest(request.scope, request.receive))

        return strict
