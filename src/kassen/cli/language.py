"""``--lang ja|en`` on every command: read off the command line before anything else, so help texts,
menus, accounts and errors all speak the chosen language (``KASSEN_LANG`` and the locale otherwise;
:mod:`kassen.i18n`). Only words change: JSON output, chronicles and saves are the same in every language.
"""

from __future__ import annotations

__all__ = ["LANG_OPTION", "take_language"]

from collections.abc import Sequence

from kassen.i18n import LanguageError, language_from_env, parse_language

LANG_OPTION = "--lang"


def take_language(argv: Sequence[str]) -> tuple[str, list[str]]:
    """The language asked for (``--lang X`` or ``--lang=X`` anywhere before ``--``, else ``KASSEN_LANG``,
    else the locale) and the arguments without it. A language kassen does not speak, a missing value or
    a repeated option: :class:`~kassen.i18n.LanguageError`."""
    rest: list[str] = []
    chosen: str | None = None
    tokens = list(argv)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == "--":
            rest.extend(tokens[index:])
            break
        name, eq, value = token.partition("=")
        if name == LANG_OPTION:
            if chosen is not None:
                raise LanguageError(f"{LANG_OPTION} is given twice")
            if not eq:
                index += 1
                if index >= len(tokens):
                    raise LanguageError(f"{LANG_OPTION} needs a language (en or ja)")
                value = tokens[index]
            chosen = parse_language(value, LANG_OPTION)
        else:
            rest.append(token)
        index += 1
    return (chosen if chosen is not None else language_from_env()), rest
