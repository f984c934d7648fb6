"""The duel's stored English words in the reader's language, when they are shown.

Events, steps and statuses keep their words in English (built with :func:`kassen.i18n.S_`, so a
chronicle is the same in every language); :func:`say` gives them in the current language through
:func:`kassen.i18n.translate_text`, and also says the two shapes a template cannot match (fewer than
three literal characters): a word and its number (``kenjutsu 4``, ``katana 3k2``: a trait, skill or
weapon and its value) and a list of the tables' words (``losing_blood, painful, vitals``).
"""

from __future__ import annotations

__all__ = ["say", "say_declaration", "say_list", "say_parts", "say_status", "say_steps"]

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from string import Formatter
from typing import Any

from kassen.core.explain import Step
from kassen.i18n import SOURCE, catalog_for, current_language, gettext

#: A word (or a few) and its number, dice or pool: ``Agility 4``, ``kenjutsu 0``, ``katana 3k2``.
_WORD_AND_NUMBER = re.compile(r"^(?P<word>\D.*?) (?P<n>[-+]?\d+(?:k\d+)?(?:[+-]\d+)?)$")
#: An unskilled pool as written in a text (``3k3 (10s do not explode)``).
_UNEXPLODED = re.compile(r"\b\d+k\d+(?:[+-]\d+)? \(10s do not explode\)")
#: The separator of a list in Japanese.
_LIST_SEPARATOR = "、"


def say(text: str) -> str:
    """``text`` (stored in English) in the current language."""
    if not text or current_language() == SOURCE:
        return text
    pools = _UNEXPLODED.findall(text)
    if pools and text not in pools:  # a pool with its own brackets: said apart from the brackets around
        return say_parts(text, [(p, _translate(p, current_language())) for p in dict.fromkeys(pools)])
    said = _translate(text, current_language())
    if said != text:
        return said
    m = _WORD_AND_NUMBER.match(text)
    if m is not None:
        word = _translate(m["word"], current_language())
        if word != m["word"]:
            return f"{word} {m['n']}"
    return text


#: Fields that always hold a number in the duel's templates: matched by digits alone, so a number's
#: field never swallows the words after it (``(reach {reach})`` in a longer sentence).
NUMBER_FIELDS = frozenset(
    {
        "allowed", "amount", "bonus", "damage", "earth", "feet", "free", "gap", "initiative", "left",
        "limit", "lower", "multiple", "n", "paid", "penalty", "per", "reach", "roll", "strength", "tn",
        "top", "total", "total_a", "total_b", "used", "water", "wounds",
    }
)  # fmt: skip
_NUMBER = r"[-+]?\d+"


@dataclass(frozen=True)
class _Template:
    """One template: its msgid, its literal pieces (in order) and its own pattern."""

    msgid: str
    head: str
    tail: str
    pieces: tuple[str, ...]
    pattern: re.Pattern[str]


_compiled: dict[str, tuple[_Template, ...]] = {}
_lock = threading.Lock()


def _templates(lang: str, catalog: dict[Any, Any]) -> tuple[_Template, ...]:
    """The catalog's templates (as :func:`kassen.i18n.translate_text` reads them, with the number fields
    matched by digits), the most literal first; made once per language (its catalog is read once)."""
    found = _compiled.get(lang)
    if found is not None:
        return found
    with _lock:
        found = _compiled.get(lang)
        if found is not None:
            return found
        made: list[tuple[int, str, _Template]] = []
        formatter = Formatter()
        for msgid in (k for k in catalog if isinstance(k, str) and "{" in k):
            try:
                parts = list(formatter.parse(msgid))
            except ValueError:
                continue
            literal = sum(len(text) for text, *_rest in parts)
            fields = [name for _text, name, _spec, _conv in parts if name is not None]
            if literal < 3 or not fields or len(set(fields)) != len(fields):
                continue
            if not all(f.isidentifier() for f in fields):
                continue
            body = "".join(
                re.escape(text)
                + ("" if name is None else f"(?P<{name}>{_NUMBER if name in NUMBER_FIELDS else '.+?'})")
                for text, name, _spec, _conv in parts
            )
            texts = tuple(text for text, *_rest in parts if text)
            head = parts[0][0]
            tail = parts[-1][0] if parts[-1][1] is None else ""
            made.append((-literal, msgid, _Template(msgid, head, tail, texts, re.compile(body, re.DOTALL))))
        made.sort(key=lambda m: (m[0], m[1]))
        found = _compiled[lang] = tuple(t for _key, _id, t in made)
        return found


def _translate(text: str, lang: str, depth: int = 0) -> str:
    """:func:`kassen.i18n.translate_text` with the number fields read as numbers (a template is tried
    only where all its words are in the text; the answers are remembered by text and language)."""
    return _scored(text, lang, depth)[0]


@lru_cache(maxsize=8192)
def _scored(text: str, lang: str, depth: int = 0) -> tuple[str, int]:
    """:func:`_translate`, with how many characters stayed English (letters not said in ``lang``):
    where several templates read the text, the one that leaves the least English wins (a wrong split,
    a sentence's "declares" taken for a declaration's, leaves a long English value; a right one a name)."""
    catalog = catalog_for(lang, "l5r")
    if not catalog:
        return text, 0
    exact = catalog.get(text)
    if isinstance(exact, str) and exact:
        return exact, 0
    english = len(text) if any(c.isalpha() for c in text) else 0
    if depth > 6:
        return text, english
    best = (text, english)
    for template in _templates(lang, catalog):
        if not (text.startswith(template.head) and text.endswith(template.tail)):
            continue
        if not all(piece in text for piece in template.pieces):
            continue
        match = template.pattern.fullmatch(text)
        if match is None:
            continue
        translated = catalog.get(template.msgid)
        if not isinstance(translated, str) or not translated:
            continue
        values: dict[str, str] = {}
        left = 0
        for name, value in match.groupdict().items():
            values[name], kept = _say_value(value, lang, depth + 1)
            left += kept
        try:
            shown = translated.format(**values)
        except (KeyError, IndexError, ValueError):
            continue
        if left < best[1]:
            best = (shown, left)
            if left == 0:
                break
    return best


def _say_value(value: str, lang: str, depth: int) -> tuple[str, int]:
    """A value of a template, said in turn (a word and its number too), and its English left."""
    said, left = _scored(value, lang, depth)
    if said != value:
        return said, left
    m = _WORD_AND_NUMBER.match(value)
    if m is not None:
        word = _translate(m["word"], lang, depth)
        if word != m["word"]:
            return f"{word} {m['n']}", 0
    return value, left


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


#: A declaration as :meth:`kassen.l5r.actions.Attack.describe` writes it: the attack, then its details.
_DECLARATION = re.compile(r"^(?P<head>Full Attack|attack) on (?P<target>.+?)(?P<rest>(?:, .+)?)$")
_FORMS = {
    "attack": (
        "attack on {target}",
        "attack on {target}, {d1}",
        "attack on {target}, {d1}, {d2}",
        "attack on {target}, {d1}, {d2}, {d3}",
        "attack on {target}, {d1}, {d2}, {d3}, {d4}",
    ),
    "Full Attack": (
        "Full Attack on {target}",
        "Full Attack on {target}, {d1}",
        "Full Attack on {target}, {d1}, {d2}",
        "Full Attack on {target}, {d1}, {d2}, {d3}",
        "Full Attack on {target}, {d1}, {d2}, {d3}, {d4}",
    ),
}


def say_declaration(text: str) -> str:
    """A declaration (``attack on Goro, 1 raise(s) for damage, called shot to the torso``) in the
    current language: its details said one by one (as one text, a detail's words could be read as
    another's), in its form's order."""
    if current_language() == SOURCE:
        return text
    m = _DECLARATION.match(text)
    if m is None:
        return say(text)
    details = [d for d in m["rest"].split(", ") if d]
    forms = _FORMS[m["head"]]
    if len(details) >= len(forms):
        return say(text)
    said = {f"d{i + 1}": say(d) for i, d in enumerate(details)}
    return gettext(forms[len(details)]).format(target=say(m["target"]), **said)


def say_parts(text: str, parts: Iterable[tuple[str, str]]) -> str:
    """``text`` with each of ``parts`` (a piece of it, and that piece already said) said apart: the rest
    of the text is said around them (a piece that is itself a sentence could otherwise be read as part
    of the sentence around it)."""
    if current_language() == SOURCE:
        return text
    holes: list[str] = []
    holed = text
    for index, (piece, said) in enumerate(parts):
        mark = chr(0xE000 + index)  # a private-use character: no text has it
        if not piece or piece not in holed:
            return say(text)
        holed = holed.replace(piece, mark, 1)
        holes.append(said)
    out = say(holed)
    for index, said in enumerate(holes):
        mark = chr(0xE000 + index)
        if mark not in out:
            return say(text)
        out = out.replace(mark, said, 1)
    return out


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
