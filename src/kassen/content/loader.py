"""The layered loader every ruleset's content goes through.

A layer's YAML files are mappings of *sections* (``maneuvers:``, ``checks:``...). A ruleset names its
sections; for a ruleset whose bundled files each hold one section (``checks.yaml`` is the ``checks``
table), ``by_stem`` lets a file named after a section hold that section's body, as the bundled ones do;
any other file holds sections at its top level. A scenario's ``content:`` block is a layer of its own,
written the same way.

* :func:`layer_parts` reads one layer into :class:`Part` s (a section as that layer writes it, with its
  :class:`~kassen.content.layers.Origin` for errors), reporting unknown sections and bad files;
* :func:`merge_tables` deep-merges table sections, layer after layer;
* :func:`entry_items` splits an entries section (a list of entries with ids) into ``(id, item, origin)``,
  which :func:`~kassen.content.layers.merge_by_id` merges;
* :func:`layer_entries` lists what a layer writes, entry by entry, for the content's digests;
* :func:`locate` names each validation error of merged data where the layer that wrote it has it;
* :func:`tables_content` does all of it for a ruleset whose sections are all tables.
"""

from __future__ import annotations

__all__ = ["Part", "entry_items", "layer_entries", "layer_parts", "locate", "merge_tables", "tables_content"]

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from kassen.content.content import Content, Layer
from kassen.content.layers import Origin, deep_merge
from kassen.content.yamlio import parse_yaml, validation_issues
from kassen.core.errors import ContentError, ContentIssue, did_you_mean

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Part:
    """One section as one layer writes it."""

    section: str
    data: Any
    origin: Origin


def layer_parts(
    layer: Layer, sections: Collection[str], *, by_stem: bool = False
) -> tuple[list[Part], list[ContentIssue]]:
    """The sections ``layer`` writes, in file order, and the problems found (every one at once)."""
    files: list[tuple[str, Any, Any, tuple[str | int, ...]]] = []
    issues: list[ContentIssue] = []
    if layer.data is not None:
        files.append((layer.file or "scenario", layer.data, layer.node, layer.loc))
    for src in layer.sources:
        try:
            data, node = parse_yaml(src.text, src.name)
        except ContentError as exc:
            issues += exc.issues
            continue
        files.append((src.name, data, node, ()))
    parts: list[Part] = []
    known = ", ".join(sections)
    for name, data, node, loc in files:
        if data is None:
            continue
        stem = PurePath(name).stem
        if by_stem and layer.data is None and stem in sections:
            parts.append(Part(stem, data, Origin(name, node, loc, stem)))
            continue
        if not isinstance(data, Mapping):
            issues.append(Origin(name, node, loc).issue("a content file is a mapping of sections"))
            continue
        for key, value in data.items():
            origin = Origin(name, node, (*loc, key), str(key))
            if key not in sections:
                near = did_you_mean(key, sections)
                issues.append(origin.issue(f"unknown section {key!r}; known: {known}{near}"))
                continue
            parts.append(Part(str(key), value, origin))
    return parts, issues


def merge_tables(
    layers: Sequence[Sequence[Part]], tables: Collection[str]
) -> tuple[dict[str, Any], list[ContentIssue]]:
    """The table sections among ``tables`` deep-merged, earliest layer first; a table written as
    something other than a mapping is an issue."""
    merged: dict[str, Any] = {}
    issues: list[ContentIssue] = []
    for parts in layers:
        for part in parts:
            if part.section not in tables:
                continue
            if not isinstance(part.data, Mapping):
                issues.append(part.origin.issue("a table is a mapping of fields"))
                continue
            merged[part.section] = deep_merge(merged.get(part.section, {}), part.data)
    return merged, issues


def entry_items(
    part: Part, key: str = "id"
) -> tuple[list[tuple[str, dict[str, Any], Origin]], list[ContentIssue]]:
    """The entries of an entries section: ``(id, item, origin)`` for each, with the problems found."""
    if not isinstance(part.data, list):
        return [], [part.origin.issue("a section is a list of entries")]
    out: list[tuple[str, dict[str, Any], Origin]] = []
    issues: list[ContentIssue] = []
    o = part.origin
    for i, item in enumerate(part.data):
        raw = item.get(key) if isinstance(item, Mapping) else None
        label = f"{part.section}.{raw}" if isinstance(raw, str) and raw else f"{part.section}.{i}"
        origin = Origin(o.file, o.node, (*o.loc, i), label)
        if not isinstance(item, Mapping):
            issues.append(origin.issue("an entry is a mapping of fields"))
            continue
        if not isinstance(raw, str) or not raw:
            issues.append(origin.issue(f"an entry needs its {key}", key))
            continue
        out.append((raw, dict(item), origin))
    return out, issues


def layer_entries(parts: Sequence[Part], entries: Mapping[str, str]) -> dict[str, Any]:
    """What a layer writes, one key per entry: ``section.id`` for entries sections (``entries`` maps
    each to its id field), ``section.key`` for each top-level key of a table section."""
    out: dict[str, Any] = {}
    for part in parts:
        if part.section in entries and isinstance(part.data, list):
            for i, item in enumerate(part.data):
                ident = item.get(entries[part.section]) if isinstance(item, Mapping) else None
                out[f"{part.section}.{ident if ident is not None else i}"] = item
        elif isinstance(part.data, Mapping):
            for k, v in part.data.items():
                name = f"{part.section}.{k}"
                out[name] = (
                    deep_merge(out[name], v)
                    if isinstance(out.get(name), Mapping) and isinstance(v, Mapping)
                    else v
                )
        else:
            out[part.section] = part.data
    return out


def locate(exc: ValidationError, per_layer: Sequence[Sequence[Part]]) -> list[ContentIssue]:
    """Each validation error of merged data, named at the file, line and field of the layer that wrote
    the value: the part writing most of the error's path (the latest layer when several do)."""
    out: list[ContentIssue] = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        if not loc:
            out += validation_issues([err], "content", None)
            continue
        section, rest = str(loc[0]), loc[1:]
        best: Part | None = None
        best_depth = -1
        for parts in per_layer:
            for part in parts:
                if part.section == section:
                    depth = _depth(part.data, rest)
                    if depth >= best_depth:
                        best, best_depth = part, depth
        edited = {**err, "loc": rest}
        if best is None:
            out += validation_issues([edited], "content", None, label=section)
        else:
            o = best.origin
            out += validation_issues([edited], o.file, o.node, prefix=o.loc, label=section)
    return out


def _depth(data: Any, path: tuple[Any, ...]) -> int:
    """How many keys of ``path`` ``data`` writes, one inside the other."""
    depth = 0
    for key in path:
        if isinstance(data, Mapping) and str(key) in data:
            data = data[str(key)]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            break
        depth += 1
    return depth


def tables_content(
    ruleset: str,
    model: type[M],
    bundled: Layer,
    layers: Sequence[Layer],
    sections: Sequence[str],
    unhashed: Sequence[str] = (),
) -> Content[M]:
    """Content whose sections are all tables: ``bundled`` then each of ``layers`` read (a file named
    after a section holds its body), merged key by key, validated once into ``model`` (every problem at
    once, each where the layer wrote it), digested (:meth:`Content.build`; ``unhashed`` sections, such
    as a visibility table, are left out of the digests)."""
    every = (bundled, *layers)
    per_layer: list[list[Part]] = []
    issues: list[ContentIssue] = []
    for layer in every:
        parts, found = layer_parts(layer, sections, by_stem=True)
        per_layer.append(parts)
        issues += found
    merged, found = merge_tables(per_layer, sections)
    issues += found
    tables: M | None = None
    try:
        tables = model.model_validate(merged)
    except ValidationError as exc:
        issues += locate(exc, per_layer)
    if issues or tables is None:
        raise ContentError(issues)
    labels = [(layer.label, layer_entries(parts, {})) for layer, parts in zip(every, per_layer, strict=True)]
    inline = next((layer.data for layer in layers if layer.label == "scenario"), None)
    return Content.build(ruleset, tables, tables.model_dump(mode="json"), labels, inline, unhashed)
