"""English left in text that should be Japanese: the check every language test uses.

What may stay in Latin letters: rule IDs (``AR.DMG.3``), dice notation (``3d6+2``, ``7k3``), the games'
own abbreviations (HP, FP, DR, TN...), names from the content (a fighter's name as its scenario writes it),
and whatever a test allows explicitly. Any other run of three or more Latin letters is English left behind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Abbreviations the games use as they are, in Japanese text too (the arena seed writes HP, FP, DR, ST...).
ABBREVIATIONS = frozenset(
    {
        "HP",
        "FP",
        "DR",
        "HT",
        "ST",
        "DX",
        "IQ",
        "Per",
        "Will",
        "TN",
        "PC",
        "NPC",
        "GM",
        "XkY",
        "JSON",
        "CSV",
        "PNG",
        "SVG",
        "URL",
        "HTTP",
        "API",
        "CPU",
        "Elo",
        "SPRT",
        "kassen",
        "YAML",
        "PDF",
    }
)
_RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*\.[A-Z0-9]+\.\d+[a-z]?\b")
_DICE = re.compile(r"\b\d*[dk]\d+\S*|\b\d+k\d+\S*", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")


def english_left(text: str, allow: Iterable[str] = ()) -> list[str]:
    """The English words in ``text`` (each once, in order), beyond rule IDs, dice, the games'
    abbreviations and the ``allow``-ed names."""
    allowed = set(ABBREVIATIONS)
    for name in allow:
        allowed.update(_WORD.findall(name))
    stripped = _DICE.sub(" ", _RULE_ID.sub(" ", text))
    seen: dict[str, None] = {}
    for word in _WORD.findall(stripped):
        if word not in allowed and word.strip("'-") not in allowed:
            seen.setdefault(word, None)
    return list(seen)


def assert_japanese(text: str, allow: Iterable[str] = (), where: str = "") -> None:
    """Fail with the English words left (and the lines they are on) when ``text`` is not all Japanese."""
    left = english_left(text, allow)
    if left:
        lines = [line for line in text.splitlines() if english_left(line, allow)][:15]
        raise AssertionError(
            f"English left{' in ' + where if where else ''}: {left[:30]}\n" + "\n".join(lines)
        )
