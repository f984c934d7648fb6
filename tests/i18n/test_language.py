"""Choosing the language and looking words up: kassen.i18n and the CLI's --lang."""

from __future__ import annotations

import threading

import pytest

from kassen import i18n
from kassen.cli.language import take_language
from kassen.i18n import LanguageError, language_from_env, negotiate, parse_language, use_language


def test_parse_language_reads_locale_forms_and_refuses_others() -> None:
    assert parse_language("ja_JP.UTF-8") == "ja"
    assert parse_language("ja-JP") == "ja"
    assert parse_language("EN") == "en"
    with pytest.raises(LanguageError, match="one of en, ja"):
        parse_language("de")
    with pytest.raises(LanguageError):
        parse_language("")


def test_environment_kassen_lang_first_then_locale_then_english() -> None:
    assert language_from_env({"KASSEN_LANG": "ja", "LANG": "en_US.UTF-8"}) == "ja"
    assert language_from_env({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert language_from_env({"LC_ALL": "fr_FR.UTF-8", "LANG": "ja_JP.UTF-8"}) == "en"  # LC_ALL wins
    assert language_from_env({}) == "en"
    with pytest.raises(LanguageError, match="KASSEN_LANG"):
        language_from_env({"KASSEN_LANG": "klingon"})


def test_accept_language_negotiated_by_quality() -> None:
    assert negotiate("ja-JP,ja;q=0.9,en;q=0.8") == "ja"
    assert negotiate("en-US,en;q=0.9,ja;q=0.8") == "en"
    assert negotiate("fr-FR,ja;q=0.5") == "ja"
    assert negotiate("fr-FR") == "en"
    assert negotiate("") == "en"
    assert negotiate(None) == "en"
    assert negotiate("ja;q=0") == "en"
    assert negotiate("x" * 5000) == "en"  # hostile header: no work, the default


def test_lang_option_anywhere_before_double_dash() -> None:
    assert take_language(["fight", "duel", "--lang", "ja", "-v"]) == ("ja", ["fight", "duel", "-v"])
    assert take_language(["--lang=en", "roll", "2d6"]) == ("en", ["roll", "2d6"])
    assert take_language(["roll", "--", "--lang", "ja"])[1] == ["roll", "--", "--lang", "ja"]
    for bad in (["--lang"], ["--lang", "de"], ["--lang", "ja", "--lang", "en"]):
        with pytest.raises(LanguageError):
            take_language(bad)


def test_each_thread_keeps_its_own_language() -> None:
    """The web table serves a GM in Japanese and a player in English at once: the language is per
    context, never a process-wide switch."""
    seen: dict[str, list[str]] = {"ja": [], "en": []}
    barrier = threading.Barrier(2)

    def worker(lang: str) -> None:
        with use_language(lang):
            for _ in range(200):
                barrier.wait() if not seen[lang] else None
                seen[lang].append(i18n.current_language())

    threads = [threading.Thread(target=worker, args=(lang,)) for lang in ("ja", "en")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(seen["ja"]) == {"ja"} and set(seen["en"]) == {"en"}


def test_english_is_the_source_and_never_changes_text() -> None:
    with use_language("en"):
        assert i18n.gettext("anything at all") == "anything at all"
        assert i18n.ngettext("one die", "{n} dice", 2) == "{n} dice"
        assert i18n.translate_text("Ryu is stunned") == "Ryu is stunned"


def test_stored_text_is_english_whatever_the_language() -> None:
    """S_ builds the text kept in a chronicle: English in every language, so a replay is identical."""
    with use_language("ja"):
        assert i18n.S_("{name} is {rank}: +{n} TN", name="Ken", rank="Hurt", n="5") == "Ken is Hurt: +5 TN"


def test_numbers_formatted_by_babel() -> None:
    with use_language("ja"):
        assert i18n.format_percent(0.5) == "50.0%"
        assert i18n.format_decimal(12345.678, 2) == "12,345.68"
