"""``kassen content ...``: the Sengoku catalog as users read, check and extend it.

``list [KIND]`` and ``show ID`` read the catalog (with ``--content DIR`` merged over it, through the
same loader a battle's content goes through, :mod:`kassen.sengoku.catalog`), ``show`` with the rationale
of every house default (a rule ID the seeds settle without one points to ``kassen rules ID``);
``validate PATH`` checks a file or a directory of YAML as a layer over the bundled catalog and lists every
problem, one per line (exit 2), or says it is clean (exit 0); ``schema`` prints the JSON Schema of the
format for editors.
"""

from __future__ import annotations

__all__ = ["CONTENT_HELP", "catalog_from_options", "content_app"]

import json
import sys
from importlib import resources
from typing import Annotated, Any, Literal

import typer
import yaml
from pydantic import BaseModel
from rich.markup import escape
from rich.table import Table

from kassen.cli.common import console, emit_json, error_line, issue_text, user_errors
from kassen.core.errors import ContentError, KassenError
from kassen.i18n import N_, S_, SOURCE, _, current_language, ngettext, translate_text
from kassen.sengoku.catalog import KINDS, Catalog, CatalogFile, UnknownEntryError, load_catalog
from kassen.sengoku.entries import Maneuver, ManeuverKind
from kassen.sengoku.house import FlowDefault
from kassen.sengoku.resolution import D100Table

CONTENT_HELP = N_(
    "A directory (or file) of your own catalog YAML, merged over the bundled catalog (repeatable)."
)

content_app = typer.Typer(
    add_completion=False,  # as the top-level kassen: no command edits the shell's start-up files
    name="content",
    help=N_(
        "The Sengoku catalog (weapons, armor, maneuvers, creatures, house defaults): list, show, validate."
    ),
    no_args_is_help=True,
)

#: ``list`` accepts a kind, its plural, or a maneuver kind (attack, stance, ...).
_ALIASES = {
    **{k: k for k in KINDS},
    **{f"{k}s": k for k in KINDS},
    "armors": "armor",
    "house-defaults": "house-default",
    "defaults": "house-default",
    "debuffs": "debuff",
}


#: The catalog's kinds of entries, as ``list``/``show``/``validate`` name them.
KIND_WORDS = {
    "weapon": N_("weapon"),
    "armor": N_("armor"),
    "shield": N_("shield"),
    "maneuver": N_("maneuver"),
    "creature": N_("creature"),
    "debuff": N_("debuff"),
    "trait": N_("trait"),
    "table": N_("table"),
    "house-default": N_("house-default"),
    "rule": N_("rule"),
}
#: The fields a ``list`` summary names.
SUMMARY_WORDS = {
    "reach": N_("reach"),
    "grade": N_("grade"),
    "attack_a": N_("attack_a"),
    "attack_b": N_("attack_b"),
    "armor": N_("armor"),
    "weapons": N_("weapons"),
    "value": N_("value"),
    "rounds": N_("rounds"),
    "grants": N_("grants"),
}


def catalog_from_options(content: list[str] | None) -> Catalog:
    """The catalog with each ``--content`` layer merged over the bundled one (ContentError on problems)."""
    return load_catalog(tuple(content or ()))


def _summary(kind: str, entry: BaseModel) -> str:
    """One line in the game's words for ``list``."""
    if isinstance(entry, Maneuver):
        parts = [translate_text(entry.kind.value), _("{n} Energy").format(n=entry.cost)]
        if entry.tags:
            parts.append(" + ".join(f"[{translate_text(str(t))}]" for t in entry.tags))
        if entry.wounds is not None:
            parts.append(ngettext("{n} Wound", "{n} Wounds", entry.wounds).format(n=entry.wounds))
        if entry.grants is not None and entry.grants.value:
            parts.append(
                _("Defense +{value} ({kind})").format(
                    value=entry.grants.value, kind=translate_text(entry.grants.kind.value)
                )
            )
        return _(", ").join(parts)
    data = entry.model_dump(mode="json", exclude_defaults=True)
    keys = {
        "weapon": ("reach", "grade", "attack_a", "attack_b"),
        "armor": ("armor", "grade"),
        "shield": ("grade",),
        "creature": ("grade", "weapons", "armor"),
        "debuff": ("value", "rounds"),
        "trait": ("grants",),
    }.get(kind, ())
    return _(", ").join(f"{_(SUMMARY_WORDS[k])} {_short(data[k])}" for k in keys if k in data)


def _short(value: Any) -> str:
    return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _rows(catalog: Catalog, kind: str | None) -> list[tuple[str, str, str, str]]:
    """``(kind, id, name, summary)`` for ``list``."""
    rows: list[tuple[str, str, str, str]] = []
    maneuver_kind = kind if kind in {k.value for k in ManeuverKind} else None
    for k, key, entry in catalog.entries("maneuver" if maneuver_kind else kind):
        if maneuver_kind and isinstance(entry, Maneuver) and entry.kind.value != maneuver_kind:
            continue
        rows.append((k, key, translate_text(str(getattr(entry, "name", key))), _summary(k, entry)))
    if kind in (None, "house-default"):
        for view in catalog.house_defaults():
            rows.append(
                ("house-default", view.rule, view.source, _first_sentence(translate_text(view.rationale)))
            )
    if kind in (None, "table"):
        for key, table in catalog.tables().items():
            rows.append(("table", key, _table_rule(key), f"d{_table_die(table)}"))
    return rows


def _table_rule(key: str) -> str:
    return {"decisive-moment": "SG.CRT.4", "critical-mistake": "SG.FUM.3", "yoma-encounter": "SG.LUL.3"}[key]


def _table_die(table: D100Table | FlowDefault) -> int:
    return int(getattr(table, "die", 100))


def _first_sentence(text: str) -> str:
    head = text.split(". ")[0].strip()
    return head if len(head) <= 90 else head[:87] + "..."


@content_app.command(
    "list",
    help=N_("List the catalog's entries (ids to use with `show`, `--attacker`, `--target`, `--weapon`)."),
)
@user_errors
def list_command(
    kind: Annotated[
        str | None,
        typer.Argument(
            help=N_(
                "weapon, armor, shield, maneuver (or attack, defense, movement, stance, kata, upkeep), "
                "creature, trait, debuff, house-default, table. Default: everything."
            )
        ),
    ] = None,
    content: Annotated[list[str] | None, typer.Option(help=CONTENT_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    wanted = None
    if kind is not None:
        key = kind.strip().lower()
        if key in {k.value for k in ManeuverKind}:
            wanted = key
        elif key in _ALIASES:
            wanted = _ALIASES[key]
        else:
            choices = [*KINDS, *(k.value for k in ManeuverKind)]
            raise UnknownEntryError(
                S_("unknown kind {kind}; choose one of {items}", kind=repr(kind), items=", ".join(choices))
            )
    rows = _rows(catalog_from_options(content), wanted)
    if as_json:
        emit_json([{"kind": k, "id": i, "name": n, "summary": s} for k, i, n, s in rows])
        return
    table = Table(show_header=True, header_style="dim", box=None, pad_edge=False)
    # Japanese has no spaces to wrap at: its cells break between characters rather than being cut short
    overflow: Literal["fold", "ellipsis"] = "ellipsis" if current_language() == SOURCE else "fold"
    for col in (N_("kind"), N_("id"), N_("name"), N_("summary")):
        table.add_column(_(col), overflow=overflow)
    for kind, *rest in rows:
        table.add_row(escape(_(KIND_WORDS.get(kind, kind))), *(escape(c) for c in rest))
    console.print(table)


def _show_entry(catalog: Catalog, key: str) -> dict[str, Any]:
    kind, entry = catalog.entry(key)
    dumped = entry.model_dump(mode="json", exclude_defaults=True, exclude={"house_default"})
    first = [k for k in ("id", "name", "kind") if k in dumped]
    data: dict[str, Any] = {k: dumped[k] for k in first}
    data.update((k, v) for k, v in dumped.items() if k not in first)
    views = [v.to_json() for v in catalog.house_defaults() if v.source == f"{kind} {_entry_id(entry)}"]
    out: dict[str, Any] = {
        "kind": kind,
        "id": _entry_id(entry),
        "source": catalog.origins.get(_entry_id(entry), ""),
    }
    out["entry"] = data
    out["house_defaults"] = views
    if isinstance(entry, Maneuver) and entry.attacks:
        t = catalog.technique(entry.id)
        out["technique"] = {"weapon": t.weapon, "critical_wounds": t.critical_wounds}
    return out


def _entry_id(entry: BaseModel) -> str:
    return str(getattr(entry, "id", ""))


def _rule_text(rule: str) -> dict[str, Any] | None:
    """What the ruleset's rule texts (``kassen rules``) say of ``rule``, if it is one of them."""
    from kassen.core.ruleset import find_ruleset

    package, file = find_ruleset("sengoku").info.rule_texts
    texts = yaml.safe_load(resources.files(package).joinpath(file).read_text(encoding="utf-8"))
    entry = texts["rules"].get(rule)
    return dict(entry) if isinstance(entry, dict) else None


def _show_rule(catalog: Catalog, rule: str) -> dict[str, Any]:
    wanted = rule.strip().upper()
    views = catalog.house_defaults_for(wanted)
    if views:
        return {"kind": "house-default", "id": wanted, "house_defaults": [v.to_json() for v in views]}
    text = _rule_text(wanted)
    if text is None:
        raise UnknownEntryError(
            S_(
                "no house default for {rule}, and no such rule (`kassen rules --ruleset sengoku` lists them)",
                rule=repr(rule),
            )
        )
    return {
        "kind": "rule",
        "id": wanted,
        "title": text.get("title", ""),
        "text": text.get("text", ""),
        "house_defaults": [],
        "see": f"kassen rules {wanted}",
    }


def _show_table(catalog: Catalog, key: str) -> dict[str, Any]:
    table = catalog.tables()[key]
    return {
        "kind": "table",
        "id": key,
        "rule": _table_rule(key),
        "entry": table.model_dump(mode="json"),
        "house_defaults": [v.to_json() for v in catalog.house_defaults_for(_table_rule(key))],
    }


def _yaml(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100).rstrip()


def _print_view(view: dict[str, Any]) -> None:
    head = _("House default {rule}").format(rule=view["rule"])
    console.print(f"\n[bold]{head}[/bold]  [dim]({escape(view['source'])})[/dim]")
    if view["value"]:
        console.print(escape(_yaml(view["value"])))
    rationale = _("Rationale:")
    console.print(f"[italic]{rationale}[/italic] {escape(translate_text(view['rationale']))}")


@content_app.command(
    "show",
    help=N_(
        "One entry in full, with the rationale of every house default it carries; or, for a rule ID, "
        "every house default that settles it."
    ),
)
@user_errors
def show_command(
    key: Annotated[
        str,
        typer.Argument(help=N_("An entry id (thrust, oni, o-yoroi...), a rule ID (SG.CNT.4) or a table.")),
    ],
    content: Annotated[list[str] | None, typer.Option(help=CONTENT_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    catalog = catalog_from_options(content)
    wanted = key.strip()
    if wanted.upper().startswith("SG."):
        data = _show_rule(catalog, wanted)
    elif wanted.lower() in catalog.tables():
        data = _show_table(catalog, wanted.lower())
    else:
        data = _show_entry(catalog, wanted)
    if as_json:
        emit_json(data)
        return
    head = f"[bold]{escape(data['id'])}[/bold]  ({escape(_(KIND_WORDS.get(data['kind'], data['kind'])))})"
    if data.get("source"):
        head += f"  [dim]{escape(data['source'])}[/dim]"
    console.print(head)
    if data["kind"] == "rule":
        console.print(f"{escape(translate_text(data['title']))}: {escape(translate_text(data['text']))}")
        console.print(
            "[dim]"
            + _("No house default: the seeds settle it. `{command}` explains any rule ID.").format(
                command=escape(data["see"])
            )
            + "[/dim]"
        )
        return
    if "entry" in data:
        console.print(escape(_yaml(data["entry"])))
    if "technique" in data:
        t = data["technique"]
        if t["weapon"]:
            used = _("as a technique: with {weapon}").format(weapon=translate_text(str(t["weapon"])))
        else:
            used = _("as a technique: with the weapon in hand")
        if t["critical_wounds"] is not None:
            used += _(", critical {n} Wounds").format(n=t["critical_wounds"])
        console.print(f"[dim]{used}[/dim]")
    for view in data["house_defaults"]:
        _print_view(view)


@content_app.command(
    "validate",
    help=N_(
        "Check PATH as a layer over the bundled catalog: every problem on its own line (file:line: field: "
        "why) and exit 2, or a summary and exit 0."
    ),
)
@user_errors
def validate_command(
    path: Annotated[str, typer.Argument(help=N_("A catalog YAML file or a directory of them."))],
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    if not path.strip():  # an empty path would read the working directory
        raise KassenError(S_("PATH is empty: name a catalog YAML file or a directory of them"))
    try:
        catalog = load_catalog((path,))
    except ContentError as exc:
        if as_json:
            emit_json({"ok": False, "issues": [_issue_json(i) for i in exc.issues]})
        else:
            for issue in exc.issues:
                sys.stderr.write(f"{issue_text(issue)}\n")
            n = len(exc.issues)
            sys.stderr.write(error_line(_("{n} problem(s) in {path}; nothing loaded").format(n=n, path=path)))
        raise typer.Exit(2) from None
    counts = {k: sum(1 for _ in catalog.entries(k)) for k in KINDS[:-2]}
    if as_json:
        emit_json({"ok": True, "counts": counts, "house_defaults": len(catalog.flow)})
        return
    listed = _(", ").join(f"{n} {_(KIND_WORDS.get(k, k))}" for k, n in counts.items())
    console.print(
        _("ok: {path} merges cleanly ({counts}; {n} flow house defaults)").format(
            path=escape(path), counts=listed, n=len(catalog.flow)
        )
    )


def _issue_json(issue: Any) -> dict[str, Any]:
    return {"file": issue.file, "line": issue.line, "field": issue.field, "message": issue.message}


@content_app.command(
    "schema", help=N_("The JSON Schema of a catalog file (point your editor's YAML support at it).")
)
def schema_command() -> None:
    schema = CatalogFile.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "kassen Sengoku catalog file"
    sys.stdout.write(json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
