"""A refused request: the HTTP status, a stable code and words, raised anywhere below the endpoints and
turned into one JSON shape by the application (:mod:`kassen.web.app`)."""

from __future__ import annotations

__all__ = ["Problem", "refused"]

from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException

from kassen.core.errors import ContentError, IllegalActionError, KassenError


class Problem(HTTPException):
    """A request refused: the HTTP status, a stable ``code`` and a message in words (and any details,
    such as every error of a scenario that does not validate); ``headers`` go with the reply (a 429's
    ``Retry-After``). An HTTP exception, so that FastAPI passes it on as it is even from where it
    reads the body."""

    def __init__(
        self, status: int, code: str, message: str, *, headers: Mapping[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(status_code=status, detail=message, headers=dict(headers) if headers else None)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"detail": self.message, "code": self.code, **self.extra}


def refused(exc: KassenError) -> Problem:
    """The 422 a core error becomes (nothing changed: the core raises before changing anything): a
    scenario's every problem with its line and field, an illegal action with its rule, a malformed
    action, path, face or chronicle with its message."""
    if isinstance(exc, ContentError):
        issues = [
            {"file": i.file, "field": i.field, "line": i.line, "message": i.message} for i in exc.issues
        ]
        return Problem(422, exc.code, str(exc)[:2000], errors=issues)
    if isinstance(exc, IllegalActionError):
        return Problem(422, exc.code, str(exc)[:2000], rule=exc.rule)
    return Problem(422, exc.code, str(exc)[:2000])
