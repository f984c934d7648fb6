"""The duel's stored English words in the reader's language, when they are shown.

Events, steps and statuses keep their words in English (built with :func:`kassen.i18n.S_`, so a
chronicle is the same in every language); :func:`say` gives them in the current language through
:func:`kassen.i18n.translate_text`, and also says the two shapes a template cannot match (fewer than
three literal characters): a word and its number (``kenjutsu 4``, ``katana 3k2``: a trait, skill or
weapon and its value) and a list of the tables' words (``losing_blood, painful, vitals``).
"""

from __future__ import annotations

__all__ = ["say", "say_list", "say_status", "say_steps"]

import re
from collections.abc import Iterable

from kassen.core.explain import Step
from kassen.i18n import SOURCE, current_language, gettext, translate_text

#: A word (or a few) and its number, dice or pool: ``Agility 4``, ``kenjutsu 0``, ``katana 3k2``.
_WORD_AND_NUMBER = re.compile(r"^(?P<word>\D.*?) (?P<n>[-+]?\d+(?:k\d+)?(?:[+-]\d+)?)$")
#: The separator of a list in Japanese.
_LIST_SEPARATOR = "、"


def say(text: str) -> str:
    """``text`` (stored in English) in the current language."""
    if not text or current_language() == SOURCE:
        return text
    said = translate_text(text)
    if said != text:
        return said
    m = _WORD_AND_NUMBER.match(text)
    if m is not None:
        word = translate_text(m["word"])
        if word != m["word"]:
            return f"{word} {m['n']}"
    return text


def say_list(text: str, items: Iterable[str]) -> str:
    """``text``, which names ``items`` joined by ``", "``, with each item said in turn (a list is no
    template: each of its words is)."""
    listed = ", ".join(items)
    if current_language() == SOURCE or not listed or listed not in text:
        return say(text)
    hole = "\x00"
    said = say(text.replace(listed, hole, 1))
    if hole not in said:
        return say(text)
    return said.replace(hole, _LIST_SEPARATOR.join(say(i) for i in listed.split(", ")))


def say_status(label: str) -> str:
    """A status as the GM's menu names it (``prone: foot: fall``: its kind, then its source)."""
    kind, sep, source = label.partition(": ")
    if current_language() == SOURCE or not sep:
        return say(label)
    return gettext("{kind}: {source}").format(kind=say(kind), source=say(source))


def say_steps(steps: Iterable[Step]) -> tuple[Step, ...]:
    """Each step with its reason in the current language (its value and rule unchanged)."""
    listed = tuple(steps)
    if current_language() == SOURCE:
        return listed
    return tuple(Step(s.value, say(s.reason), s.rule) for s in listed)
