"""Words in the reader's language: gettext catalogs (managed with Babel) for every user-facing string.

Only words change with the language, never data: events, chronicles, JSON output and the API's field
names are the same whatever the language, and a replay is identical. Three kinds of strings:

- text made when it is shown (account lines, menus, help, errors, pages): ``_("The bout begins")`` or
  ``_("{name} attacks").format(name=...)``, looked up in the current language at that moment;
- constants in tables read later: marked with :func:`N_` (extraction finds them) and passed through
  :func:`_` where they are shown;
- text kept in the data (an explanation step's reason, made by a rule and stored in the chronicle in
  English): built with :func:`S_` from an English template, and translated when shown by
  :func:`translate_text`, which finds the template the text was made from in the catalog and fills the
  translated template with the same values (each value translated in turn where the catalog knows it).

The language is a context variable: :func:`use_language` sets it for a block (a web request, one viewer),
:func:`set_language` for the rest of the process (the CLI's ``--lang``). The default is ``KASSEN_LANG``,
else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

The catalogs are ``kassen/locale/<lang>/LC_MESSAGES/*.po`` (one file per part of kassen: the core and the
CLI, the web pages, each ruleset, the rules ledger), read with Babel on first use, merged, and kept
immutable for the life of the process.
"""

from __future__ import annotations

__all__ = [
    "LANGUAGES",
    "N_",
    "S_",
    "LanguageError",
    "_",
    "catalog_for",
    "current_language",
    "format_decimal",
    "format_percent",
    "gettext",
    "language_from_env",
    "negotiate",
    "ngettext",
    "parse_language",
    "pgettext",
    "set_language",
    "speaking_for",
    "translate_text",
    "use_language",
]

import os
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from io import BytesIO
from string import Formatter
from typing import TYPE_CHECKING, Any

from kassen.core.errors import KassenError

if TYPE_CHECKING:
    from babel.support import Translations

#: The languages kassen speaks; English is the source language (its catalog is the msgids themselves).
LANGUAGES: tuple[str, ...] = ("en", "ja")
SOURCE = "en"

_current: ContextVar[str | None] = ContextVar("kassen_language", default=None)
_process_default: list[str | None] = [None]


class LanguageError(KassenError):
    """A language kassen does not speak (``--lang``, ``KASSEN_LANG``)."""


def parse_language(value: str, where: str = "--lang") -> str:
    """``value`` as one of :data:`LANGUAGES` (``ja_JP.UTF-8`` and ``ja-JP`` read as ``ja``); a clear error
    naming the languages otherwise."""
    text = value.strip()
    code = re.split(r"[-_.@]", text, maxsplit=1)[0].lower() if text else ""
    if code not in LANGUAGES:
        raise LanguageError(
            f"{where}: {value!r} is not a language kassen speaks (one of {', '.join(LANGUAGES)})"
        )
    return code


def language_from_env(environ: dict[str, str] | None = None) -> str:
    """``KASSEN_LANG`` (checked: a language kassen does not speak is an error), else the locale's language
    when kassen speaks it, else English."""
    env = os.environ if environ is None else environ
    chosen = env.get("KASSEN_LANG")
    if chosen:
        return parse_language(chosen, "KASSEN_LANG")
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            code = re.split(r"[-_.@]", value, maxsplit=1)[0].lower()
            return code if code in LANGUAGES else SOURCE
    return SOURCE


def current_language() -> str:
    """The language words are given in now."""
    lang = _current.get()
    if lang is not None:
        return lang
    default = _process_default[0]
    if default is None:
        try:
            default = language_from_env()
        except LanguageError:
            default = SOURCE  # the CLI reports a bad KASSEN_LANG itself, at start-up
        _process_default[0] = default
    return default


def set_language(lang: str) -> None:
    """Speak ``lang`` for the rest of the process (where no :func:`use_language` block says otherwise)."""
    _process_default[0] = parse_language(lang)


@contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block (this thread or task only: each viewer of the web table has
    their own)."""
    token = _current.set(parse_language(lang))
    try:
        yield _current.get() or SOURCE
    finally:
        _current.reset(token)


def negotiate(accept_language: str | None) -> str:
    """The language to answer an HTTP ``Accept-Language`` header in (Babel's negotiation; English when
    the header names none kassen speaks)."""
    from babel.core import Locale, UnknownLocaleError

    if not accept_language or len(accept_language) > 1000:
        return SOURCE
    preferred: list[tuple[float, str]] = []
    for index, part in enumerate(accept_language.split(",")[:50]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            preferred.append((-q + index * 1e-6, tag.strip().replace("-", "_")))
    try:
        found = Locale.negotiate([tag for _q, tag in sorted(preferred)], list(LANGUAGES), sep="_")
    except (ValueError, UnknownLocaleError):
        return SOURCE
    return found.language if found is not None and found.language in LANGUAGES else SOURCE


# -- catalogs ----------------------------------------------------------------------------------------------

#: Catalogs every ruleset's words may use (after the ruleset's own): the core and CLI, the lab, the web.
SHARED_DOMAINS = ("core", "lab", "web")

_lock = threading.Lock()
_loaded: dict[str, Translations | None] = {}
_parts: dict[str, dict[str, Translations]] = {}
_merged: dict[tuple[str, str | None], dict[Any, str]] = {}
_ruleset: ContextVar[str | None] = ContextVar("kassen_ruleset", default=None)
_module_ruleset: dict[str, str | None] = {}


def catalog_files(lang: str) -> list[Any]:
    """The ``.po`` files of ``lang``, in a fixed order."""
    folder = resources.files("kassen") / "locale" / lang / "LC_MESSAGES"
    if not folder.is_dir():
        return []
    return sorted((f for f in folder.iterdir() if f.name.endswith(".po")), key=lambda f: f.name)


def _read_parts(lang: str) -> dict[str, Translations]:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    parts: dict[str, Translations] = {}
    for po in catalog_files(lang):
        domain = po.name[:-3]
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=domain)
        buffer = BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        buffer.seek(0)
        parts[domain] = Translations(buffer, domain=domain)
    return parts


def _domains(lang: str) -> dict[str, Translations]:
    found = _parts.get(lang)
    if found is None:
        with _lock:
            found = _parts.get(lang)
            if found is None:
                found = _parts[lang] = _read_parts(lang)
    return found


def _order(parts: dict[str, Translations], ruleset: str | None) -> list[str]:
    """The catalogs in the order a word is looked up: the ruleset's own (its code's, then its data's),
    the shared ones, then every other (a word said outside any ruleset)."""
    first = [d for d in (ruleset, f"{ruleset}-data") if ruleset and d in parts]
    shared = [d for d in SHARED_DOMAINS if d in parts]
    return first + shared + sorted(d for d in parts if d not in first and d not in shared)


def _catalog(lang: str, ruleset: str | None) -> dict[Any, str]:
    """Every translation of ``lang`` in one mapping, each English text taking the word of the first
    catalog in :func:`_order` that has it: the same English word may be two words in two rulesets
    (Wounds: 戰力 in Sengoku, 傷 in roll-and-keep)."""
    key = (lang, ruleset)
    found = _merged.get(key)
    if found is None:
        parts = _domains(lang)
        merged: dict[Any, str] = {}
        for domain in reversed(_order(parts, ruleset)):
            merged.update({k: v for k, v in parts[domain]._catalog.items() if v})
        with _lock:
            found = _merged.setdefault(key, merged)
    return found


def catalog_for(lang: str, ruleset: str | None) -> dict[Any, str]:
    """Every translation of ``lang`` as ``ruleset`` says it (:func:`_catalog`; empty for English)."""
    return {} if lang == SOURCE else _catalog(lang, ruleset)


def translations(lang: str) -> Translations | None:
    """The catalogs of ``lang`` merged in the order of words said outside any ruleset (``None`` for
    English, the source language), read once."""
    if lang == SOURCE:
        return None
    found = _loaded.get(lang)
    if found is None and lang not in _loaded:
        parts = _domains(lang)
        merged: Translations | None = None
        if parts:
            from babel.support import Translations

            merged = Translations(domain="kassen")
            merged._catalog = dict(_catalog(lang, None))
            merged.plural = next(iter(parts.values())).plural
        with _lock:
            _loaded.setdefault(lang, merged)
        found = _loaded[lang]
    return found


@contextmanager
def speaking_for(ruleset: str | None) -> Iterator[None]:
    """Inside the block, words are looked up in ``ruleset``'s catalogs first (a fight's account, menus
    and views set it: the core shows a ruleset's English through :func:`translate_text`)."""
    token = _ruleset.set(ruleset)
    try:
        yield
    finally:
        _ruleset.reset(token)


def _caller_ruleset(depth: int) -> str | None:
    """The ruleset whose code is calling (``kassen.arena.report`` and ``kassen.cli.arena`` speak for the
    arena), else the one a :func:`speaking_for` block names."""
    chosen = _ruleset.get()
    if chosen is not None:
        return chosen
    name = sys._getframe(depth + 1).f_globals.get("__name__", "")
    found = _module_ruleset.get(name, "")
    if found == "":
        parts = name.split(".")
        found = None
        if len(parts) > 2 and parts[0] == "kassen":
            head = parts[2] if parts[1] == "cli" else parts[1]
            # a ruleset's catalog is any but the shared ones and the data ones (its own name)
            rulesets = [d for d in _domains(current_language()) if d not in SHARED_DOMAINS and "-" not in d]
            found = next((r for r in sorted(rulesets, key=len, reverse=True) if head.startswith(r)), None)
        _module_ruleset[name] = found
    return found


def _lookup(lang: str) -> tuple[dict[Any, str], Any] | None:
    if lang == SOURCE or not _domains(lang):
        return None
    return _catalog(lang, _caller_ruleset(2)), next(iter(_domains(lang).values())).plural


def gettext(message: str) -> str:
    """``message`` in the current language (itself where the catalog has no translation)."""
    found = _lookup(current_language())
    return message if found is None else found[0].get(message) or message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, by the language's plural rule."""
    found = _lookup(current_language())
    if found is not None:
        text = found[0].get((singular, found[1](n)))
        if text:
            return text
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where the same English word means different things."""
    found = _lookup(current_language())
    return message if found is None else found[0].get(f"{context}\x04{message}") or message


_ = gettext


def N_(message: str) -> str:
    """Mark a constant for the catalog; translate it with :func:`_` where it is shown."""
    return message


def S_(template: str, /, **values: Any) -> str:
    """English text kept in the data (a chronicle's explanation step): ``template`` filled with ``values``,
    always in English; :func:`translate_text` gives it in the reader's language when it is shown."""
    return template.format(**values) if values else template


# -- text kept in English in the data, translated when shown ---------------------------------------------


@dataclass(frozen=True)
class _Template:
    """One catalog text with placeholders, as a pattern: its literal pieces (all must be in a text it
    reads), its head and tail (the text starts and ends with them), and how much literal text it has."""

    msgid: str
    literal: int
    head: str
    tail: str
    pieces: tuple[str, ...]
    pattern: re.Pattern[str]


_FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NUMBER = re.compile(r"^[+\-−]?\d+(?:[.,]\d+)*%?$")
#: A list of ids (``crusher, duel, knockback``; ``left_eye, right_eye``): what a message lists as known
#: names is what the user types, so it stays as written in every language — translating some of its
#: items (knockback, brain) would name things kassen does not accept.
_IDS = re.compile(r"[a-z0-9_][a-z0-9_.\-/]*(?:, [a-z0-9_][a-z0-9_.\-/]*)+")


def _compile_templates(catalog: dict[Any, str]) -> tuple[_Template, ...]:
    made: list[_Template] = []
    formatter = Formatter()
    for msgid in sorted(k for k in catalog if isinstance(k, str) and "{" in k and "\x04" not in k):
        try:
            parts = list(formatter.parse(msgid))
        except ValueError:
            continue
        literal = sum(len(text) for text, *_ in parts)
        fields = [name for _text, name, _spec, _conv in parts if name is not None]
        if (
            literal < 2
            or not fields
            or any(not _FIELD.match(f) for f in fields)
            or len(set(fields)) != len(fields)
        ):
            continue
        body = "".join(
            re.escape(text) + (f"(?P<{name}>.+?)" if name is not None else "") for text, name, _s, _c in parts
        )
        head = parts[0][0]
        tail = parts[-1][0] if parts[-1][1] is None else ""
        pieces = tuple(text for text, *_rest in parts if text)
        made.append(_Template(msgid, literal, head, tail, pieces, re.compile(body, re.DOTALL)))
    made.sort(key=lambda t: (-t.literal, t.msgid))
    return tuple(made)


_ruleset_templates: dict[tuple[str, str | None], tuple[_Template, ...]] = {}


def _templates_for(lang: str, ruleset: str | None = None) -> tuple[_Template, ...]:
    """The templates text kept in English may have been made from: for a ruleset speaking, its own
    catalogs' and the shared ones' (another ruleset's template never reads this one's text); else every
    catalog's."""
    key = (lang, ruleset)
    found = _ruleset_templates.get(key)
    if found is None:
        parts = _domains(lang)
        if ruleset is None:
            source = _catalog(lang, None)
        else:
            source = {}
            for domain in _order(parts, ruleset):
                if domain in (ruleset, f"{ruleset}-data") or domain in SHARED_DOMAINS:
                    source.update(parts[domain]._catalog)
        compiled = _compile_templates(source)
        with _lock:
            found = _ruleset_templates.setdefault(key, compiled)
    return found


def translate_text(text: str) -> str:
    """Text kept in English in the data (made with :func:`S_`, or a name from the content) in the current
    language: the catalog's translation of the text itself, else of the template it was made from, with
    its values translated in turn; the text unchanged where the catalog knows neither (a fighter's name).
    Words are looked up for the ruleset speaking (:func:`speaking_for`, or the calling module's)."""
    lang = current_language()
    if lang == SOURCE or not text or not _domains(lang):
        return text
    return _said(text, lang, _caller_ruleset(1))


@lru_cache(maxsize=65536)
def _said(text: str, lang: str, ruleset: str | None) -> str:
    """:func:`translate_text`, remembered by text, language and ruleset (the catalogs never change)."""
    return _translated(text, lang, _catalog(lang, ruleset), ruleset, 0)[0]


def _translated(
    text: str, lang: str, catalog: dict[Any, str], ruleset: str | None, depth: int
) -> tuple[str, int]:
    """The text in ``lang`` and how many of its characters stayed English (not a number): where several
    templates read the text, the one that leaves the least English wins (then the one with the most
    words of its own): a wrong split leaves a long English value, a right one at most a name."""
    exact = catalog.get(text)
    if exact:
        return exact, 0
    if _NUMBER.match(text) or _IDS.fullmatch(text):
        return text, 0
    if depth > 4:
        return text, len(text)
    best: tuple[str, int] = (text, len(text))
    for template in _templates_for(lang, ruleset):
        if template.literal < 2 or not (text.startswith(template.head) and text.endswith(template.tail)):
            continue
        if not all(piece in text for piece in template.pieces):
            continue
        match = template.pattern.fullmatch(text)
        if match is None:
            continue
        translated = catalog.get(template.msgid)
        if not translated:
            continue
        values: dict[str, str] = {}
        left = 0
        for name, value in match.groupdict().items():
            said, english = _translated(value, lang, catalog, ruleset, depth + 1)
            values[name] = said
            left += english
        try:
            shown = translated.format(**values)
        except (KeyError, IndexError, ValueError):
            continue
        if left < best[1]:
            best = (shown, left)
            if left == 0:
                break
    return best


# -- numbers ---------------------------------------------------------------------------------------------


def format_decimal(value: float, digits: int = 1) -> str:
    """A number with ``digits`` decimals, in the current language's format (Babel)."""
    from babel.numbers import format_decimal as babel_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return babel_decimal(value, format=pattern, locale=current_language())


def format_percent(value: float, digits: int = 1) -> str:
    """A fraction as a percentage with ``digits`` decimals (``0.5`` → ``50.0%``), in the current language's
    format (Babel)."""
    from babel.numbers import format_percent as babel_percent

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "") + "%"
    return babel_percent(value, format=pattern, locale=current_language())
