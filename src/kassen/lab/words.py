"""The data's own words shown in the reader's language: the actions a ruleset's summary names, the axes
and metrics of an exact table, the outcomes. The data keeps them as they are (JSON, CSV and Parquet
columns are the same in every language); only what is shown is translated.

An action is found first among the content's words (a technique's name, ``horizontal-cut`` for
"Horizontal Cut", as the content's catalog translates it), then among the lab's own words for the
actions the rulesets' summaries name themselves (``all-out-attack``, ``full-attack``, ``guts``), and is
shown as it is where neither knows it.
"""

from __future__ import annotations

__all__ = ["action_word", "axis_label", "metric_label", "outcome_label", "wins_label"]

import re
from functools import lru_cache

from kassen.i18n import current_language, pgettext, translate_text, translations

_NOT_WORD = re.compile(r"[^0-9a-z]+")


def _key(text: str) -> str:
    return _NOT_WORD.sub("-", text.lower()).strip("-")


@lru_cache(maxsize=4)
def _content_words(lang: str) -> dict[str, str]:
    """Every short translated msgid of ``lang``'s catalogs by its id form (``Horizontal Cut`` ->
    ``horizontal-cut``), the first of each id in the catalog's order; built once per language from the
    immutable catalogs."""
    t = translations(lang)
    if t is None:
        return {}
    found: dict[str, str] = {}
    for msgid, text in sorted((k, v) for k, v in t._catalog.items() if isinstance(k, str)):
        if isinstance(text, str) and text and "{" not in msgid and len(msgid) <= 60 and "\x04" not in msgid:
            found.setdefault(_key(msgid), text)
    return found


def _own_action(action: str) -> str:
    """The lab's words for the actions the rulesets' summaries name themselves (not content names)."""
    words = {
        "attack": pgettext("lab action", "attack"),
        "all-out-attack": pgettext("lab action", "all-out-attack"),
        "full-attack": pgettext("lab action", "full-attack"),
        "guts": pgettext("lab action", "guts"),
        "cheer": pgettext("lab action", "cheer"),
        "give-up": pgettext("lab action", "give-up"),
        "grapple": pgettext("lab action", "grapple"),
        "guard": pgettext("lab action", "guard"),
        "move": pgettext("lab action", "move"),
        "rise": pgettext("lab action", "rise"),
        "foul": pgettext("lab action", "foul"),
        "mark": pgettext("lab action", "mark"),
        "close": pgettext("lab action", "close"),
        "disarm": pgettext("lab action", "disarm"),
        "drive": pgettext("lab action", "drive"),
        "medical-aid": pgettext("lab action", "medical-aid"),
        "recover-weapon": pgettext("lab action", "recover-weapon"),
        "regain-footing": pgettext("lab action", "regain-footing"),
        "remove-weapon": pgettext("lab action", "remove-weapon"),
        "throat-strike": pgettext("lab action", "throat-strike"),
    }
    return words.get(action, action)


def _fallback_action(action: str) -> str:
    """The lab's words for content actions the content's catalog does not translate (yet)."""
    words = {
        "walk": pgettext("lab action", "walk"),
        "run": pgettext("lab action", "run"),
        "retreat": pgettext("lab action", "retreat"),
        "parry": pgettext("lab action", "parry"),
        "pick-up-weapon": pgettext("lab action", "pick-up-weapon"),
        "bind-wound": pgettext("lab action", "bind-wound"),
        "fate-intervention": pgettext("lab action", "fate-intervention"),
        "emergency-evasion": pgettext("lab action", "emergency-evasion"),
    }
    return words.get(action, action)


def action_word(action: str) -> str:
    """An action's id from a fight's summary (``all-out-attack``, ``reserve:parry``) in words."""
    lang = current_language()
    if translations(lang) is None:
        return action
    prefix, colon, rest = action.partition(":")
    if colon and prefix == "reserve":
        return pgettext("lab action", "{action} (reserved)").format(action=action_word(rest))
    own = _own_action(action)
    if own != action:
        return own
    found = _content_words(lang).get(_key(action))
    return found if found is not None else _fallback_action(action)


def axis_label(name: str, ruleset: str = "") -> str:
    """An exact table's axis (``modifier``, ``defense``, ``pool``, ``tn``, ``skill``: its data's column
    names) in words, in its ``ruleset``'s own terms (Sengoku's Defense is 防備)."""
    if ruleset == "sengoku" and name == "defense":
        return pgettext("lab axis sengoku", "defense")
    words = {
        "modifier": pgettext("lab axis", "modifier"),
        "defense": pgettext("lab axis", "defense"),
        "pool": pgettext("lab axis", "pool"),
        "tn": pgettext("lab axis", "tn"),
        "skill": pgettext("lab axis", "skill"),
    }
    return words.get(name, name)


def metric_label(name: str) -> str:
    """An exact table's metric (``hit``, ``expected_wounds``...: its data's column names) in words."""
    words = {
        "hit": pgettext("lab metric", "hit"),
        "critical": pgettext("lab metric", "critical"),
        "fumble": pgettext("lab metric", "fumble"),
        "heavenly_mandate": pgettext("lab metric", "heavenly_mandate"),
        "karmic_retribution": pgettext("lab metric", "karmic_retribution"),
        "expected_wounds": pgettext("lab metric", "expected_wounds"),
        "success": pgettext("lab metric", "success"),
        "critical_success": pgettext("lab metric", "critical_success"),
        "critical_failure": pgettext("lab metric", "critical_failure"),
    }
    return words.get(name, name)


def outcome_label(label: str) -> str:
    """An outcome that is no side's win (``draws``, ``time-outs``, ``errors``: the data's words) in words."""
    words = {
        "draws": pgettext("lab", "draws"),
        "time-outs": pgettext("lab", "time-outs"),
        "errors": pgettext("lab", "errors"),
    }
    return words.get(label, label)


def wins_label(name: str) -> str:
    """``Ryu wins``: a side's wins as a label (a table's row, a plot's bar or line); the side's name as
    the content's catalog gives it."""
    return pgettext("lab", "{name} wins").format(name=translate_text(name))
