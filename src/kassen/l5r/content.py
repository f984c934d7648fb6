"""The roll-and-keep content: the bundled tables with the user's layers merged over them.

The tables have three sections, ``core``, ``called_shots`` and ``special_attacks`` (the bundled files
``core.yaml``, ``called_shots.yaml`` and ``special_attacks.yaml`` in ``kassen/l5r/data``). A layer — a
``--tables``/``--content`` directory or file, or a scenario's ``content:`` block — writes any of them: a
file named after a section holds that section's body, any other file holds sections at its top level.
Each section merges key by key over the layers before it (:func:`kassen.content.loader.merge_tables`),
then the merged tables are validated at once: every problem is reported together, each with the file,
line and field of the layer that wrote it. The content's hash is of the merged, validated data.

>>> from kassen.l5r.tables import Location
>>> tables = bundled_content().tables
>>> tables.core.raises.limit, tables.location(Location.HEAD).raises
('void', 4)
"""

from __future__ import annotations

__all__ = ["bundled_content", "bundled_tables", "content_for", "load_content"]

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kassen.content.content import Content, Layer, bundled_layer, read_layer
from kassen.content.loader import Part, layer_entries, layer_parts, merge_tables
from kassen.content.yamlio import validation_issues
from kassen.core.errors import ContentError, ContentIssue
from kassen.l5r.tables import SECTIONS, L5Tables

_FILES = tuple(f"{section}.yaml" for section in SECTIONS)


@lru_cache(maxsize=1)
def _bundled() -> tuple[Layer, tuple[Part, ...]]:
    layer = bundled_layer("kassen.l5r.data", files=_FILES)
    parts, issues = layer_parts(layer, SECTIONS, by_stem=True)
    if issues:  # a broken installation, not a user's mistake; still reported in words
        raise ContentError(issues)
    return layer, tuple(parts)


def load_content(layers: Sequence[Layer] = ()) -> Content[L5Tables]:
    """The bundled tables with ``layers`` merged over them, in order, validated (a
    :class:`~kassen.core.errors.ContentError` lists every problem, each with file, line and field)."""
    if not layers:
        return bundled_content()
    return _build(tuple(layers))


@lru_cache(maxsize=1)
def bundled_content() -> Content[L5Tables]:
    """The bundled tables alone (built once)."""
    return _build(())


def bundled_tables() -> L5Tables:
    """The bundled tables alone."""
    return bundled_content().tables


def content_for(path: str | Path | None) -> Content[L5Tables]:
    """The bundled tables, with the directory (or YAML file) ``path`` merged over them as a layer (the
    CLI's ``--tables DIR``); ``None``: the bundled tables alone."""
    if path is None:
        return bundled_content()
    return load_content([read_layer(path, "layer 1")])


def _build(layers: tuple[Layer, ...]) -> Content[L5Tables]:
    bundled, bundled_parts = _bundled()
    per_layer: list[Sequence[Part]] = [bundled_parts]
    issues: list[ContentIssue] = []
    for layer in layers:
        parts, found = layer_parts(layer, SECTIONS, by_stem=True)
        per_layer.append(parts)
        issues += found
    merged, found = merge_tables(per_layer, SECTIONS)
    issues += found
    tables: L5Tables | None = None
    try:
        tables = L5Tables.model_validate(merged)
    except ValidationError as exc:
        issues += _located(exc, per_layer)
    if issues or tables is None:
        raise ContentError(issues)
    labels = [
        (layer.label, layer_entries(parts, {}))
        for layer, parts in zip((bundled, *layers), per_layer, strict=True)
    ]
    inline = next((layer.data for layer in layers if layer.label == "scenario"), None)
    return Content.build("l5r", tables, tables.model_dump(mode="json"), labels, inline)


def _located(exc: ValidationError, per_layer: Sequence[Sequence[Part]]) -> list[ContentIssue]:
    """Each validation error of the merged tables, named in the layer that wrote the value: the part
    writing most of the error's path (the latest layer when several do)."""
    out: list[ContentIssue] = []
    for err in exc.errors():
        loc = tuple(err["loc"])
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
