"""One word per Sengoku term: the battle's account, menus and status (sengoku.po) and the rule texts and
content words (sengoku-data.po, what `kassen rules` shows) use the glossary's word for each term
(docs/glossary.md), so a reader of `kassen rules` meets the same word in a battle's account."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message

from .test_data_ja import data_catalog, glossary_rows

CATALOGS = ("sengoku", "sengoku-data")

#: Each term as the glossary's Sengoku table names it, and how it shows in an English msgid (the
#: msgid's placeholders removed first, so ``{zone}`` or ``{technique}`` do not count).
TERMS = {
    "zone": r"\bzones?\b",
    "breath": r"\bbreath(?:s|es|e)?\b",
    "Courage": r"\bCourage\b",
    "Presence": r"\bPresence\b",
    "[Direct N]": r"\bDirect\b",
    "Initiative": r"\binitiative\b",
    "exhaustion": r"\bexhaustion\b",
    "technique": r"\btechniques?\b",
    "Retreat": r"\bretreat(?:s|ed|ing|er)?\b",
    "masterwork": r"\bmasterwork\b",
    "Combo Fatigue": r"\bcombo fatigue\b",
    "Incorporeal Defense": r"\bIncorporeal Defense\b",
    "Core Zone Exit": r"\bCore Zone Exit\b|\bexit check\b",
}

#: Where an msgid says the English word in its everyday sense, not the game's term.
LITERAL = {
    "The core's overload check is not in the excerpt.": "breath: 'a failure of breath and stamina' (呼吸)",
    "The seed orders ties by descending Finesse, then allies first.": "breath: 'more breath in it' (余力)",
}

#: The words the account said before the catalogs were aligned (a reader met two words for one term).
OLD_WORDS = ("区域", "胆力", "威風", "直撃", "先手", "業物", "連続使用の疲労", "霊体への防備")
#: Old words that are also part of other words: Retreat was 離脱 (中陣離脱 is Core Zone Exit), breath 息
#: (一息; 休息 is rest), Core Zone 中央.
OLD_PATTERNS = (r"(?<!中陣)離脱", r"(?<![一休])息", r"中央(?!値)")


def _norm(cell: str) -> str:
    return re.sub(r"\s*\(.*?\)", "", cell).strip()


def glossary_word(term: str) -> str:
    """The glossary's Japanese for ``term``: the part of a row's 日本語 cell at the term's place among
    the row's `` / ``-separated English names (brackets and a tag's ``N`` left off)."""
    for en_cell, ja_cell, _ids in glossary_rows()["sengoku"]:
        ens = [_norm(e) for e in en_cell.split(" / ")]
        jas = [_norm(j) for j in ja_cell.split(" / ")]
        for i, en in enumerate(ens):
            if en.split(": ")[-1].lower() == term.lower() and len(jas) == len(ens):
                return jas[i].strip("[]").removesuffix(" N")
    raise AssertionError(f"{term} is not in the glossary's Sengoku table")


@cache
def _messages() -> list[tuple[str, Message]]:
    found = []
    for domain in CATALOGS:
        catalog: Catalog = data_catalog(domain)
        found += [(domain, m) for m in catalog if m.id]
    return found


def _texts(message: Message) -> tuple[str, str]:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return " ".join(ids), " ".join(strings)


def test_the_glossary_gives_the_words_this_test_expects() -> None:
    """The words come from the glossary, not from this file: a change of word is made there first."""
    words = {term: glossary_word(term) for term in TERMS}
    assert words == {
        "zone": "陣",
        "breath": "一息",
        "Courage": "勇",
        "Presence": "威",
        "[Direct N]": "必中",
        "Initiative": "イニシアチブ",
        "exhaustion": "疲弊",
        "technique": "技法",
        "Retreat": "戰場離脫",
        "masterwork": "名品",
        "Combo Fatigue": "連撃疲労",
        "Incorporeal Defense": "霊体防備",
        "Core Zone Exit": "中陣離脱",
    }


@pytest.mark.parametrize("term", sorted(TERMS))
def test_each_msgid_naming_a_term_is_translated_with_the_glossary_word(term: str) -> None:
    word = glossary_word(term)
    pattern = re.compile(TERMS[term], re.IGNORECASE)
    checked, wrong = 0, []
    for domain, message in _messages():
        english, japanese = _texts(message)
        if not pattern.search(re.sub(r"\{[^{}]*\}", "", english)):
            continue
        if any(english.startswith(p) for p in LITERAL):
            continue
        checked += 1
        if word not in japanese:
            wrong.append(f"{domain}.po: {english[:70]!r} -> {japanese[:70]!r}")
    assert checked, f"no msgid names {term}: the pattern is stale"
    assert not wrong, f"{term} is {word} in the glossary, but:\n" + "\n".join(wrong)


def test_no_sengoku_msgstr_keeps_an_old_word() -> None:
    left = []
    for domain, message in _messages():
        english, japanese = _texts(message)
        for old in OLD_WORDS:
            if old in japanese:
                left.append(f"{domain}.po: {old} in {japanese[:60]!r} ({english[:40]!r})")
        for pattern in OLD_PATTERNS:
            for hit in re.finditer(pattern, japanese):
                left.append(f"{domain}.po: {hit.group()} in {japanese[:60]!r} ({english[:40]!r})")
    assert not left, "\n".join(left)


def test_the_old_word_check_sees_an_old_word() -> None:
    """The old-word check can fail (each old word is found), and passes the words that merely contain
    an old one (一息, 中陣離脱, 休息, 中央値)."""

    def old(text: str) -> bool:
        return any(re.search(p, text) for p in OLD_PATTERNS) or any(o in text for o in OLD_WORDS)

    assert all(
        old(s)
        for s in ["区域 {zone} はない", "{unit}の息", "{unit}の離脱は失敗", "中央離脱が要る", "胆力 +2"]
    )
    assert not any(old(s) for s in ["一息を取る", "中陣離脱", "丸一日の休息", "中央値", "勇 +2"])
