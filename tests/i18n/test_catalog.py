"""The catalogs: every string kassen shows has its Japanese, and every translation fits its English."""

from __future__ import annotations

import re
from string import Formatter

import pytest
from babel.messages.pofile import read_po

from kassen.i18n import LANGUAGES, SOURCE, catalog_files, translate_text, translations, use_language
from kassen.i18n.extract import extract, translated

_OTHERS = [lang for lang in LANGUAGES if lang != SOURCE]


def _fields(text: str) -> set[str]:
    try:
        return {name for _t, name, _s, _c in Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<malformed>"}


@pytest.fixture(scope="module")
def found() -> list:  # type: ignore[type-arg]
    return extract()


@pytest.mark.parametrize("lang", _OTHERS)
def test_every_string_found_in_the_code_and_data_has_a_translation(found: list, lang: str) -> None:  # type: ignore[type-arg]
    """Extraction (Python markers, the web's templates, the shown YAML words) finds nothing that the
    language's catalogs leave untranslated."""
    catalog = translations(lang)
    assert catalog is not None
    missing = []
    for item in found:
        if isinstance(item.msgid, tuple):  # a plural: every form
            key: object = (item.msgid[0], 0)
        else:
            key = item.msgid if item.context is None else f"{item.context}\x04{item.msgid}"
        if not catalog._catalog.get(key):
            missing.append(f"{item.path}:{item.line}: {item.msgid!r}")
    assert not missing, f"{len(missing)} strings without {lang}:\n" + "\n".join(sorted(set(missing))[:40])


@pytest.mark.parametrize("lang", _OTHERS)
def test_each_translation_keeps_its_placeholders_and_is_complete(lang: str) -> None:
    problems = []
    files = catalog_files(lang)
    assert files, f"no catalog for {lang}"
    for po in files:
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not translated(message.string):
                problems.append(f"{po.name}: {ids[0]!r}: untranslated or fuzzy")
                continue
            expected = set().union(*(_fields(i) for i in ids))
            for string in strings:
                if _fields(string) != expected and _fields(string) != _fields(ids[0]):
                    problems.append(f"{po.name}: {ids[0]!r}: placeholders {_fields(string)} != {expected}")
    assert not problems, "\n".join(problems[:40])


def test_catalogs_have_no_entry_the_code_no_longer_has(found: list) -> None:  # type: ignore[type-arg]
    wanted = {(i.context, i.msgid if isinstance(i.msgid, str) else i.msgid[0]) for i in found}
    stale = []
    for lang in _OTHERS:
        for po in catalog_files(lang):
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=lang)
            for message in catalog:
                msgid = message.id if isinstance(message.id, str) else message.id[0]
                if msgid and (message.context, msgid) not in wanted:
                    stale.append(f"{po.name}: {msgid!r}")
    assert not stale, "run `make i18n`: " + "\n".join(stale[:20])


def test_text_kept_in_english_is_shown_translated_through_its_template() -> None:
    """An explanation step keeps its English reason (the chronicle never changes with the language);
    shown in Japanese, the template it was made from is found and filled with the same values."""
    catalog = translations("ja")
    assert catalog is not None
    templates = [
        k for k, v in catalog._catalog.items() if isinstance(k, str) and re.search(r"\{[a-z_]+\}", k) and v
    ]
    assert templates, "no template in the Japanese catalog"
    checked = 0
    for template in templates[:200]:
        fields = _fields(template)
        if "<malformed>" in fields or "}{" in template:  # two values side by side: no reading splits them
            continue
        values = {name: f"Zq{i}" for i, name in enumerate(sorted(fields))}
        english = template.format(**values)
        with use_language("ja"):
            shown = translate_text(english)
        if shown == english:
            continue  # another template with more literal text matched first, or a spec-carrying one
        for value in values.values():
            assert value in shown, (template, shown)
        checked += 1
    assert checked > len(templates[:200]) // 2
