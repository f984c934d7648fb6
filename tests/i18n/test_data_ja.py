"""The words of the bundled data in Japanese: every rule's title and text of the three rulesets, the
content names and descriptions, `kassen rules` in Japanese (its JSON unchanged), the placeholders of
every translation, and the glossary (docs/glossary.md) that gives the team one word per game term."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from string import Formatter
from typing import Any

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.ruleset import find_ruleset
from kassen.i18n import pgettext, translate_text, use_language
from kassen.i18n.extract import SRC, _yaml_strings, extract

from .leaks import assert_japanese, english_left

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
RULESETS = ("arena", "sengoku", "l5r")
DATA_DOMAINS = {"arena": "arena-data", "sengoku": "sengoku-data", "l5r": "l5r-data"}
#: A rule text may name the command that shows its house default; the command is typed as it is.
COMMAND_WORDS = ("kassen content show",)


@cache
def data_catalog(domain: str) -> Catalog:
    path = SRC / "locale" / "ja" / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as handle:
        return read_po(handle, locale="ja", domain=domain)


@cache
def persons() -> tuple[str, ...]:
    """The persons' names of the bundled scenarios: the one kind of entry whose Japanese is its English."""
    return tuple(
        str(m.id)
        for domain in DATA_DOMAINS.values()
        for m in data_catalog(domain)
        if m.id and m.string == m.id
    )


def rule_texts(ruleset: str) -> dict[str, dict[str, Any]]:
    package, file = find_ruleset(ruleset).info.rule_texts
    data = yaml.safe_load(resources.files(package).joinpath(file).read_text(encoding="utf-8"))
    rules: dict[str, dict[str, Any]] = data["rules"]
    return rules


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout


# -- every rule in Japanese ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rule_title_text_and_kind_is_japanese(ruleset: str) -> None:
    rules = rule_texts(ruleset)
    assert len(rules) > 30
    with use_language("ja"):
        for rid, entry in rules.items():
            title, text = translate_text(entry["title"]), translate_text(entry["text"])
            kind = pgettext("rule kind", entry["kind"])
            assert title != entry["title"] and text != entry["text"], rid
            assert kind != entry["kind"], (rid, kind)
            assert_japanese(f"{title}\n{text}\n{kind}", allow=(*persons(), *COMMAND_WORDS), where=rid)
    # English stays the data's own words, exactly.
    with use_language("en"):
        for entry in rules.values():
            assert translate_text(entry["title"]) == entry["title"]
            assert translate_text(entry["text"]) == entry["text"]
            assert pgettext("rule kind", entry["kind"]) == entry["kind"]


def test_the_arena_rules_speak_the_seeds_own_words() -> None:
    """The arena seed (004) is written in Japanese: its rule texts keep the seed's wording."""
    with use_language("ja"):
        said = {rid: translate_text(e["text"]) for rid, e in rule_texts("arena").items()}
    seed_words = {
        "AR.DMG.1": "ダメージが発生したらそのダメージの発生源の致傷力で判定する",
        "AR.DMG.3": "基本ダメージから相手の防具による剛的防護点を引いた",
        "AR.INJ.2": "最終ダメージ分ペナルティを敏捷力と知力に受ける",
        "AR.HP.4": "HP が生命力の−5倍以下なら死亡する",
        "AR.GUT.1": "2点疲労して意志判定をする",
        "AR.GUT.3": "1点疲労すると生命力判定に3点ボーナスを得る",
        "AR.AUD.1": "人気度は10を基準にして",
        "AR.KNB.7": "中段・下段への最終ダメージや脚部の跳ね飛ばしによって転倒するとうつ伏せに倒れる",
    }
    for rid, words in seed_words.items():
        assert words in said[rid], rid


@pytest.mark.parametrize("domain", sorted(DATA_DOMAINS.values()))
def test_every_data_word_is_translated_and_japanese(domain: str) -> None:
    """Content names and descriptions, scenario titles, table rows, house defaults' rationales: every
    entry of the data catalogs has its Japanese, and only persons' names are left as written (and, in a
    rationale, what a user types: a setting or a file in backquotes, as the English writes it)."""
    entries = [m for m in data_catalog(domain) if m.id]
    assert entries
    for m in entries:
        assert m.string, m.id
        if m.string != m.id:
            words = re.sub(r"`[^`]*`", " ", str(m.string))
            assert_japanese(words, allow=(*persons(), *COMMAND_WORDS), where=str(m.id))
            assert set(re.findall(r"`([^`]*)`", str(m.id))) <= set(re.findall(r"`([^`]*)`", str(m.string)))
        else:
            assert str(m.id) in persons()
    # The same English word has one Japanese word in every data catalog (the catalogs are merged).
    seen: dict[tuple[str | None, str], str] = {}
    for other in DATA_DOMAINS.values():
        for m in data_catalog(other):
            if m.id:
                key = (m.context, str(m.id))
                assert seen.setdefault(key, str(m.string)) == m.string, (other, m.id)


@pytest.mark.parametrize("domain", sorted(DATA_DOMAINS.values()))
def test_every_translation_keeps_its_placeholders(domain: str) -> None:
    def fields(text: str) -> list[str]:
        return sorted(name for _t, name, _s, _c in Formatter().parse(text) if name is not None)

    for m in data_catalog(domain):
        if m.id and m.string:
            assert fields(str(m.id)) == fields(str(m.string)), m.id
            assert re.findall(r"%\(?\w*\)?[sd]", str(m.id)) == re.findall(r"%\(?\w*\)?[sd]", str(m.string))


def test_content_words_reach_the_reader_through_translate_text() -> None:
    with use_language("ja"):
        assert translate_text("Heavy armor") == "重鎧"  # a Sengoku armour
        assert translate_text("Thrust") == "突き"  # a Sengoku technique
        assert translate_text("Oni") == "鬼"  # a creature
        assert translate_text("skull") == "脳"  # the arena seed's brain location (name_ja)
        assert translate_text("crushing") == "叩き"
        assert translate_text("Nicked") == "掠り傷"  # an L5 wound rank
        assert translate_text("Genzaburo") == "Genzaburo"  # a person keeps the scenario's name
        assert translate_text("Nothing comes; only the crows.") == "何も来ない。烏がいるだけだ。"


# -- the extraction: shown words in, ids out ----------------------------------------------------------


def test_extraction_takes_the_shown_words_and_leaves_ids() -> None:
    data = [f for f in extract() if f.domain in DATA_DOMAINS.values()]
    ids = {f.msgid for f in data}
    # shown words
    for word in ("Heavy armor", "Nothing comes; only the crows.", "Lame", "decapitated", "Checks"):
        assert word in ids, word
    # ids and data keys are never words to translate
    for key in ("heavy-armor", "bleed", "wounds_behind", "AR.DMG.1", "sengoku", "scripted", "torso_x"):
        assert key not in ids, key
    for f in data:
        text = f.msgid if isinstance(f.msgid, str) else f.msgid[0]
        assert not re.fullmatch(r"[a-z0-9]+([_-][a-z0-9]+)+", text), (f.path, text)  # an id's shape
    # a rule's kind is shown as a word, kept apart from any other string by its context
    kinds = {f.msgid for f in data if f.context == "rule kind"}
    assert kinds == {"core", "rule", "gap", "reading"}


def test_extraction_reads_a_prose_key_only_when_it_is_words(tmp_path: Path) -> None:
    path = tmp_path / "tables.yaml"
    path.write_text(
        "rows:\n"
        "  - {effect: bleed, name: Bleed}\n"
        "  - {effect: The roller loses 1 Wound., id: self-injury}\n"
        "disadvantages: [Lame, Single Eye]\n"
        "sides: [east, west]\n",
        encoding="utf-8",
    )
    got = [(text, ctx) for _line, text, ctx in _yaml_strings(path)]
    assert got == [
        ("Bleed", None),
        ("The roller loses 1 Wound.", None),
        ("Lame", None),
        ("Single Eye", None),
    ]


# -- kassen rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "title"), [("AR.GUT.1", "根性判定"), ("SG.CRT.1", "会心"), ("L5.SUB.1", "峰打ち")]
)
def test_kassen_rules_id_in_japanese(rule: str, title: str) -> None:
    code, out = run("rules", rule, "--lang", "ja")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith(f"{rule} {title} (")
    assert_japanese(out, allow=COMMAND_WORDS)
    code_en, out_en = run("rules", rule, "--lang", "en")
    assert code_en == 0 and out_en != out
    assert out_en.splitlines()[0].endswith("(rule)")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_kassen_rules_ruleset_in_japanese(ruleset: str) -> None:
    code, out = run("rules", "--ruleset", ruleset, "--lang", "ja")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(rule_texts(ruleset))
    assert_japanese(out, allow=(*persons(), *COMMAND_WORDS), where=f"kassen rules --ruleset {ruleset}")


@pytest.mark.parametrize("args", [("rules", "SG.PRC.5"), ("rules", "--ruleset", "l5r")])
def test_kassen_rules_json_is_the_same_in_every_language(args: tuple[str, ...]) -> None:
    code_en, en = run(*args, "--json", "--lang", "en")
    code_ja, ja = run(*args, "--json", "--lang", "ja")
    assert code_en == code_ja == 0
    assert en == ja
    assert json.loads(en)


def test_kassen_content_show_gives_a_rule_in_japanese() -> None:
    code, out = run("content", "show", "SG.CHK.1", "--lang", "ja")
    assert code == 0
    assert "判定: 2d10を振って修正を加え" in out


# -- the glossary ------------------------------------------------------------------------------------

#: The "Terms:" lines at the top of the rules ledgers (/work/shared/rules/{arena,sengoku}.md), verbatim:
#: the ledgers live outside the repository, so the test keeps their lines and checks them against the
#: ledger where it is at hand.
LEDGER_TERMS = {
    "arena": " · ".join(
        (
            "致傷力 damage dice of a source",
            "基本ダメージ basic damage",
            "剛的防護点 hard DR (armor, bone)",
            "柔的防護点 soft DR (skin, muscle)",
            "一次貫通ダメージ primary penetration",
            "二次貫通ダメージ (貫通ダメージ) penetrating damage",
            "攻撃型 attack type",
            "最終ダメージ final damage",
            "損傷 crippled (a location)",
            "貫通 pass-through cap",
            "生命力 HT",
            "体力 ST",
            "敏捷力 DX",
            "知力 IQ",
            "知覚 Per",
            "意志 Will",
            "HP",
            "疲労点 FP (counts down)",
            "移動力 Move",
            "荷重レベル encumbrance level",
            "サブターン subturn",
            "朦朧 stunned",
            "気絶 unconscious",
            "転倒 fall down",
            "跳ね飛ばし knockback",
            "衝撃 shock",
            "痛み pain",
            "根性判定 guts check",
            "観客ポイント audience point",
            "人気度 popularity",
            "試合形式 match format",
            "即決勝負 quick contest",
            "失敗度 margin of failure",
            "庇い guard (covering with a limb).",
        )
    ),
    "sengoku": " · ".join(
        (
            "Wounds 戰力",
            "Defense 防備",
            "Energy (per-round action resource)",
            "breath (one turn at a count)",
            "Physique 體",
            "Finesse 技",
            "Fate 運",
            "Courage",
            "Presence",
            "grades: Mob 雜, Minion 卒, Veteran 練, Elite, Lord; PC.",
        )
    ),
}
LEDGERS = Path("/work/shared/rules")
_JA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def ledger_terms(ruleset: str) -> list[tuple[str, str]]:
    """``(English, Japanese or "")`` for each term of a ledger's Terms line."""
    line = re.sub(r"\([^)]*\)", "", LEDGER_TERMS[ruleset].rstrip("."))
    line = line.replace("grades:", "").replace(";", " · ").replace(",", " · ")
    terms: list[tuple[str, str]] = []
    for raw in line.split(" · "):
        part = raw.strip()
        if not part:
            continue
        words = part.split()
        ja = " ".join(w for w in words if _JA.search(w))
        en = " ".join(w for w in words if not _JA.search(w))
        terms.append((en or ja, ja))
    return terms


def glossary_rows() -> dict[str, list[tuple[str, str, str]]]:
    """The glossary's table rows by ruleset section: ``(English, 日本語, rule IDs)``."""
    sections: dict[str, list[tuple[str, str, str]]] = {}
    current = ""
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = {"Arena": "arena", "Sengoku": "sengoku", "Roll-and-keep": "l5r"}[line[3:].split()[0]]
            sections.setdefault(current, [])
        elif (
            current
            and line.startswith("| ")
            and not line.startswith("| ---")
            and not line.startswith("| English")
        ):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            assert len(cells) == 3, line
            sections[current].append((cells[0], cells[1], cells[2]))
    return sections


@pytest.mark.parametrize("ruleset", sorted(LEDGER_TERMS))
def test_the_glossary_lists_every_term_of_the_ledgers(ruleset: str) -> None:
    ledger = LEDGERS / f"{ruleset}.md"
    if ledger.exists():  # the kept line is the ledger's own
        found = next(line for line in _ledger_head(ledger) if line.startswith("Terms:"))
        assert found[len("Terms: ") :] == LEDGER_TERMS[ruleset]
    rows = glossary_rows()[ruleset]
    terms = ledger_terms(ruleset)
    assert len(terms) >= 15
    for en, ja in terms:
        hits = [
            r
            for r in rows
            if re.search(rf"(^|[\s/(]){re.escape(en)}($|[\s/),])", r[0], re.IGNORECASE) or en == r[1]
        ]
        assert hits, f"{en} ({ja}) is not in the glossary's {ruleset} section"
        if ja:
            assert any(ja in r[1] for r in hits), f"{en}: the glossary does not give the ledger's {ja}"
        assert all(r[2] for r in hits)


def _ledger_head(path: Path) -> list[str]:
    """A ledger's first lines, its Terms line joined into one."""
    lines = path.read_text(encoding="utf-8").split("\n\n")[1].splitlines()
    return [" ".join(line.strip() for line in lines)]


def test_the_glossary_covers_the_usual_roll_and_keep_words() -> None:
    rows = glossary_rows()["l5r"]
    want = {
        "raise": "レイズ",
        "Free Raise": "フリー・レイズ",
        "Wounds": "傷",
        "TN": "目標値",
        "Earth": "地",
        "Void": "空",
    }
    for en, ja in want.items():
        assert any(re.search(rf"\b{re.escape(en)}\b", r[0]) and ja in r[1] for r in rows), en


def test_every_rule_id_in_the_glossary_exists() -> None:
    known = {rid for rs in RULESETS for rid in rule_texts(rs)}
    for ruleset, rows in glossary_rows().items():
        for _en, _ja, ids in rows:
            for token in re.findall(r"(?:AR|SG|L5)\.[A-Z0-9]+\.(?:\d+(?:–\d+)?|\*)", ids):
                head, _dot, tail = token.rpartition(".")
                if tail == "*":
                    assert any(k.startswith(head + ".") for k in known), token
                    continue
                first, _dash, last = tail.partition("–")
                for n in range(int(first), int(last or first) + 1):
                    assert f"{head}.{n}" in known, f"{token} ({ruleset})"


def test_the_data_catalogs_use_the_glossary_words() -> None:
    """Where a glossary term is itself a word of the data (a rule's title, a content name), the data
    catalog gives it the glossary's Japanese: one word per term across rules, content and accounts."""
    checked = 0
    for ruleset, rows in glossary_rows().items():
        catalog = data_catalog(DATA_DOMAINS[ruleset])
        for en_cell, ja_cell, _ids in rows:
            ens = [e.strip() for e in en_cell.split(" / ")]
            jas = [re.sub(r"\s*\(.*?\)", "", j).strip() for j in ja_cell.split(" / ")]
            if len(ens) != len(jas):
                continue
            for en, ja in zip(ens, jas, strict=True):
                for msgid in {en, en[:1].upper() + en[1:]}:
                    message = catalog.get(msgid)
                    if message is not None and message.string and message.string != msgid:
                        assert ja in str(message.string), (ruleset, msgid, message.string, ja)
                        checked += 1
    assert checked >= 20


def test_english_left_check_sees_a_leak() -> None:
    """The check the tests above rely on does find English (a guard against a check that cannot fail)."""
    assert english_left("判定: roll 3d6 at AR.CORE.1") == ["roll"]
