"""The GM table in the browser: ``kassen serve``.

A FastAPI application over the one core (:func:`kassen.core.scenario.open_fight`, :class:`Fight` with
its menus, odds, table dice, views, GM moves and chronicles) and a durable fight store:

- :mod:`kassen.web.store` — the store on SQLite or PostgreSQL (SQLAlchemy 2 Core), its schema created
  and versioned by the app (:mod:`kassen.web.schema`): one row per fight, one per token (hashed), one
  per applied action or undo, append-only, each committed before the reply;
- :mod:`kassen.web.tables` — the live fights: rebuilt by replaying the stored rows (every state id
  checked, :mod:`kassen.web.replay`), kept in memory, changed one request at a time under optimistic
  concurrency (``state_id``), opened and loaded by :mod:`kassen.web.opening`; :mod:`kassen.web.callers`
  decides who may do what, :mod:`kassen.web.views` what each caller sees, :mod:`kassen.web.streams`
  announces each new state, :mod:`kassen.web.catalog` lists the bundled scenarios;
- :mod:`kassen.web.api` — the JSON API (``/api/...``, tokens as ``Authorization: Bearer``), published
  at ``/openapi.json``, with a server-sent event stream per fight;
- :mod:`kassen.web.pages` — the screens, rendered on the server (Jinja2) and refreshed with htmx
  (vendored under ``static/``: no CDN, no build step);
- :mod:`kassen.web.app` — :func:`create_app`: the middleware (size and time limits, requests at once,
  security headers, the host allow-list and cross-site checks of :mod:`kassen.web.origins`) and the
  error handlers; :mod:`kassen.web.bodies` reads JSON bodies strictly, :mod:`kassen.web.openapi`
  documents every reply;
- :mod:`kassen.web.quotas` — what one client or token may take (fights, bytes stored, actions, event
  streams); :mod:`kassen.web.connections` — the connection caps and the header timeout in uvicorn's
  protocol; :mod:`kassen.web.quiet` — refusals logged as a count a minute, not a line each.

The web dependencies are the extra ``kassen[web]`` (and ``kassen[postgres]`` for PostgreSQL); nothing
here is imported by the rest of kassen. See ``docs/web.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kassen.web.app import create_app
    from kassen.web.settings import Settings

__all__ = ["Settings", "create_app"]

_LAZY = {"create_app": "kassen.web.app", "Settings": "kassen.web.settings"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kassen.web' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
