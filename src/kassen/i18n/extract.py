"""Finding every translatable string, and keeping the catalogs in step with the code (``make i18n``).

Strings are found with Babel's extractors: Python (the markers :func:`kassen.i18n._`, ``N_``, ``S_``,
``ngettext``, ``pgettext``), the web's Jinja2 templates (``{% trans %}``, ``_()``), and the words of the
bundled YAML data that are shown to users (rule titles and texts for ``kassen rules``, content names and
descriptions). Each string belongs to the catalog of the part of kassen it is found in (:data:`DOMAINS`).

``python -m kassen.i18n.extract`` adds new strings to every language's ``.po`` files (untranslated) and
drops the ones the code no longer has; a test fails while any string has no Japanese translation.
"""

from __future__ import annotations

__all__ = ["DOMAINS", "Found", "domain_of", "extract", "main", "translated", "update"]

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

#: Python keywords the extractor knows (name -> argument spec, Babel's notation).
KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "N_": None,
    "S_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
#: Where a string is found -> its catalog (first match; ``core`` for the rest).
DOMAINS: tuple[tuple[str, str], ...] = (
    ("lab/", "lab"),
    ("cli/lab", "lab"),
    ("web/", "web"),
    ("cli/web", "web"),
)
#: Where the installed rulesets' packages are (``kassen.arena`` -> ``arena``), read from their entry points
#: without importing them: a ruleset's code and its CLI commands speak in its catalog, its ``data/`` in
#: ``<ruleset>-data``.
RULESET_GROUP = "kassen.rulesets"
#: YAML keys whose string values are shown to users (a rule's title and text, a name, a description; a
#: called shot's distinctive death and the condition it leaves, as the account says them; a house
#: default's rationale and the reading it did not take, as ``kassen content show`` and ``kassen l5r
#: house-defaults`` give them).
YAML_KEYS = frozenset(
    {
        "title",
        "text",
        "name",
        "label",
        "description",
        "summary",
        "note",
        "distinctive_death",
        "condition",
        "rationale",
        "alternative",
    }
)
#: YAML keys that hold either an id (``effect: bleed``) or words shown to users (a d100 table row's
#: ``effect: Nothing comes; only the crows.``, an honor class's ``penalty``): only values that read as
#: words (with a space in them) are extracted, never an id.
YAML_PROSE_KEYS = frozenset({"effect", "penalty"})
#: YAML keys whose list items are words shown to users (the disadvantages a scenario gives a fighter).
YAML_LIST_KEYS = frozenset({"disadvantages"})
#: ``(file name, key)`` -> context: ids that are shown as words, each with a context of its own so the
#: catalog never mixes them with another string (a rule's kind in ``kassen rules ID``: rule, core, gap,
#: reading).
YAML_CONTEXT_KEYS: dict[tuple[str, str], str] = {("rules.yaml", "kind"): "rule kind"}

SRC = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Found:
    """One translatable string and where it was found."""

    msgid: str | tuple[str, ...]
    context: str | None
    path: str
    line: int
    domain: str


def _ruleset_packages() -> list[str]:
    from importlib import metadata

    found = {ep.value.split(":")[0].split(".")[1] for ep in metadata.entry_points(group=RULESET_GROUP)}
    return sorted((p for p in found), key=len, reverse=True)


def domain_of(relative: str) -> str:
    """The catalog of a file of the package: its ruleset's (its ``data/`` the ruleset's data catalog),
    the lab's, the web's, else the core's."""
    head, _sep, rest = relative.partition("/")
    for package in _ruleset_packages():
        if head == package:
            return f"{package}-data" if rest.startswith("data/") else package
        if head == "cli" and rest.startswith(package):
            return package
    for prefix, domain in DOMAINS:
        if relative.startswith(prefix):
            return domain
    return "core"


def _yaml_strings(path: Path) -> Iterator[tuple[int, str, str | None]]:
    """The words of a data file shown to users: ``(line, text, context)``; ids and data keys stay out."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        return
    contexts = {key: ctx for (name, key), ctx in YAML_CONTEXT_KEYS.items() if name == path.name}

    def words(node: yaml.Node) -> bool:
        return isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str") and bool(node.value.strip())

    def walk(node: Any) -> Iterator[tuple[int, str, str | None]]:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else None
                if isinstance(value, yaml.ScalarNode) and name is not None:
                    if not words(value):
                        continue
                    if name in YAML_KEYS or (name in YAML_PROSE_KEYS and " " in value.value.strip()):
                        yield value.start_mark.line + 1, value.value, None
                    elif name in contexts:
                        yield value.start_mark.line + 1, value.value, contexts[name]
                elif isinstance(value, yaml.SequenceNode) and name in YAML_LIST_KEYS:
                    for item in value.value:
                        if words(item):
                            yield item.start_mark.line + 1, item.value, None
                        else:
                            yield from walk(item)
                else:
                    yield from walk(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                yield from walk(item)

    if root is not None:
        yield from walk(root)


def extract(root: Path = SRC) -> list[Found]:
    """Every translatable string under ``root`` (the ``kassen`` package), in a fixed order."""
    from babel.messages.extract import extract as babel_extract

    found: list[Found] = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if "locale/" in relative or not path.is_file():
            continue
        domain = domain_of(relative)
        if path.suffix == ".py":
            with path.open("rb") as handle:
                for line, message, _comments, context in babel_extract(
                    "python", handle, keywords=KEYWORDS, options={"encoding": "utf-8"}
                ):
                    found.append(Found(message, context, relative, line, domain))
        elif path.suffix == ".html":
            with path.open("rb") as handle:
                for line, message, _comments, context in babel_extract(
                    "jinja2.ext:babel_extract",
                    handle,
                    keywords={"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)},
                    options={"extensions": "jinja2.ext.i18n", "trimmed": "true"},
                ):
                    found.append(Found(message, context, relative, line, domain))
        elif path.suffix in (".yaml", ".yml") and "/data/" in f"/{relative}":
            for line, message, context in _yaml_strings(path):
                found.append(Found(message, context, relative, line, domain))
    return found


def translated(string: Any) -> bool:
    """Whether a catalog entry's translation is there (every plural form, for a plural entry)."""
    if isinstance(string, str):
        return bool(string)
    return bool(string) and all(isinstance(s, str) and s for s in string)


def update(found: Iterable[Found], languages: Iterable[str], root: Path = SRC) -> dict[str, int]:
    """Bring every language's ``.po`` files in step with ``found``: new strings added untranslated, gone
    ones dropped, translations kept. Returns the count of untranslated strings by catalog file."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    by_domain: dict[str, list[Found]] = {}
    for item in found:
        by_domain.setdefault(item.domain, []).append(item)
    missing: dict[str, int] = {}
    for lang in languages:
        folder = root / "locale" / lang / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        for domain, items in sorted(by_domain.items()):
            template = Catalog(domain=domain, project="kassen", charset="utf-8")
            for item in items:
                template.add(item.msgid, locations=[(item.path, item.line)], context=item.context)
            path = folder / f"{domain}.po"
            if path.exists():
                with path.open("rb") as handle:
                    catalog = read_po(handle, locale=lang, domain=domain)
                # the file's own date kept: a run that changes no string changes no byte
                template.creation_date = catalog.creation_date
            else:
                catalog = Catalog(locale=lang, domain=domain, project="kassen", charset="utf-8")
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            with path.open("wb") as handle:
                write_po(
                    handle, catalog, width=100, sort_output=False, omit_header=False, include_lineno=False
                )
            missing[str(path.relative_to(root))] = sum(
                1 for m in catalog if m.id and not translated(m.string)
            )
    return missing


def main(argv: list[str] | None = None) -> int:
    """``python -m kassen.i18n.extract [LANG ...]``: update the catalogs, print what is untranslated."""
    from kassen.i18n import LANGUAGES, SOURCE

    languages = (argv if argv is not None else sys.argv[1:]) or [lang for lang in LANGUAGES if lang != SOURCE]
    missing = update(extract(), languages)
    for path, count in missing.items():
        print(f"{path}: {count} untranslated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
