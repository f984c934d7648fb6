"""Each viewer's language: the pages in the words of whoever reads them, the API's data in none.

A viewer's language is the switch on the page (English / 日本語), remembered by their browser in the
``kassen_lang`` cookie (set by the page's script: it carries a language, never a token), else their
browser's ``Accept-Language`` (:func:`kassen.i18n.negotiate`), else English. A GM reading Japanese and a
player reading English sit at the same table at the same time: the language is chosen per request and
held in a context variable (:func:`kassen.i18n.use_language`), which reaches the endpoints run in the
thread pool, never a process-wide switch.

Only words change. The pages and their partials are rendered in the viewer's language; the JSON API
answers in English whatever the viewer — its data (views, menus, the log's words, the rules' texts) and
the OpenAPI document are the same in every language — except the ``detail`` (and each error's
``message``) of a refusal, words a screen shows its reader: :func:`localized` gives them in the viewer's
language, the ``code`` and every field staying as they are. A refusal's words are made in English
(:func:`kassen.i18n.S_`) and translated when sent, like every text kassen keeps.

A header or a cookie naming no language kassen speaks, malformed or oversized, is the default: never an
error, and never more work than a bounded look at the first bytes.
"""

from __future__ import annotations

__all__ = [
    "COOKIE",
    "JS_WORDS",
    "Language",
    "localized",
    "scope_language",
    "viewer_language",
    "words_for_script",
]

import re
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from kassen.i18n import LANGUAGES, N_, SOURCE, _, negotiate, translate_text, use_language

#: The cookie that remembers a viewer's choice on the page's switch (set by ``static/kassen.js``).
COOKIE = "kassen_lang"
#: The longest ``Cookie`` or ``Accept-Language`` header looked at (a longer one: its first bytes only).
_MAX_HEADER = 4096
_COOKIE_PAIR = re.compile(rf"(?:^|;)\s*{COOKIE}=(?:\"([a-z]{{2}})\"|([a-z]{{2}}))\s*(?:;|$)")
#: Paths that answer data, the same in every language (their refusals' words apart).
_NEUTRAL = ("/api/", "/openapi.json", "/static/", "/healthz")
#: A page among them, in the viewer's language like every page: the API's reference.
_PAGES = ("/api/docs",)

_viewer: ContextVar[str] = ContextVar("kassen_web_viewer", default=SOURCE)


def viewer_language(cookie: str | None, accept_language: str | None) -> str:
    """The language of a viewer whose request carries these headers: a language kassen speaks named by
    the cookie, else the one ``Accept-Language`` prefers, else English."""
    if cookie:
        found = _COOKIE_PAIR.search(cookie[:_MAX_HEADER])
        lang = None if found is None else found.group(1) or found.group(2)
        if lang in LANGUAGES:
            return str(lang)
    if accept_language:
        return negotiate(accept_language)  # bounded: a header over 1000 characters is the default
    return SOURCE


def scope_language(scope: Scope) -> str:
    """:func:`viewer_language` of an ASGI request."""
    cookie: str | None = None
    accept: str | None = None
    for name, value in scope.get("headers", ()):
        if name == b"cookie" and cookie is None:
            cookie = value[:_MAX_HEADER].decode("latin-1")
        elif name == b"accept-language" and accept is None:
            accept = value[:_MAX_HEADER].decode("latin-1")
    return viewer_language(cookie, accept)


def current_viewer() -> str:
    """The language of the viewer whose request is being answered (English outside a request)."""
    return _viewer.get()


class Language:
    """Answer each request in its viewer's language: the pages' words in it, the API's data in English
    (see the module notes). The outermost of the app's own layers, so that every refusal — a host not
    served, a body too large — can be said in the viewer's words."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang = scope_language(scope)
        path = str(scope.get("path", ""))
        neutral = path.startswith(_NEUTRAL) and path not in _PAGES
        token = _viewer.set(lang)
        try:
            with use_language(SOURCE if neutral else lang):
                await self.app(scope, receive, send)
        finally:
            _viewer.reset(token)


def localized(body: Mapping[str, Any], lang: str | None = None) -> dict[str, Any]:
    """A refusal's body with its words (``detail``, each error's ``message``) in ``lang`` (the current
    viewer's by default); its ``code`` and every other field as they are."""
    out = dict(body)
    with use_language(lang or current_viewer()):
        if isinstance(out.get("detail"), str):
            out["detail"] = translate_text(out["detail"])
        errors = out.get("errors")
        if isinstance(errors, list):
            out["errors"] = [
                {**e, "message": translate_text(e["message"])}
                if isinstance(e, dict) and isinstance(e.get("message"), str)
                else e
                for e in errors
            ]
    return out


#: The words the pages' script says by itself (notices, confirmations, the controls it builds); the page
#: hands them to it in the viewer's language (:func:`words_for_script`).
JS_WORDS: tuple[str, ...] = (
    N_("the server cannot be reached"),
    N_("the server answered {status}"),
    N_("line {line}"),
    N_("write each side's policy as side=spec: {pair}"),
    N_("a seed is a whole number"),
    N_("that seed is too large for this page"),
    N_("choose a scenario, or paste one"),
    N_("choose a chronicle file"),
    N_("rename, archive, delete"),
    N_("The fight's name"),
    N_("Rename"),
    N_("Bring back"),
    N_("Archive"),
    N_("Delete…"),
    N_("this fight"),
    N_("Delete {name}? Its log and links are gone for good."),
    N_("every link replaced: send the new ones"),
    N_("a new link: send it"),
    N_("forked: the new fight opened in a new tab"),
    N_("forked: {link}"),
    N_("{detail} (the screen is up to date now)"),
    N_("type the faces rolled, separated by spaces (or auto)"),
    N_("{word} is not a face (a whole number, or auto)"),
    N_("the chronicle cannot be exported ({status})"),
    N_("● your turn — {title}"),
    N_("that is not a kassen link or token"),
    N_("copied"),
    N_("who plays each side: saved"),
    N_("that is not a campaign link or token"),
)


def words_for_script(extra: Iterable[str] = ()) -> dict[str, str]:
    """The script's words in the current language (English: none — the script's own text is English)."""
    from kassen.i18n import current_language

    if current_language() == SOURCE:
        return {}
    return {w: _(w) for w in (*JS_WORDS, *extra) if _(w) != w}
