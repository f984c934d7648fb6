"""The arena's content: the bundled sections, every user layer merged over them, one path-free hash.

The six sections are tables (``checks``, ``damage``, ``locations``, ``falling``, ``injury``, ``match``),
one bundled file each (``checks.yaml`` is the ``checks`` section). Layers merge key by key over them
(:func:`kassen.content.layers.deep_merge`): the bundled data, then each ``--content`` layer (a file
named after a section holds that section's body, any other file holds sections at its top level), then a
scenario's own ``content:`` block. The merged data is validated once into :class:`ArenaRules`, every
problem reported at once with the file, line and field of the layer that wrote it; the content hash is
of the merged, validated data (:meth:`kassen.content.content.Content.build`).

>>> rules = load_rules()
>>> rules.damage.attack_types.types["cut"].multiplier
Fraction(3, 2)
>>> rules.locations.find("brain").key
'skull'
>>> load_rules({"injury": {"shock": {"combine": "max_each_summed"}}}).injury.shock.combine
'max_each_summed'
"""

from __future__ import annotations

__all__ = ["SECTIONS", "bundled_content", "load_content", "load_rules"]

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from kassen.arena.rules import ArenaRules
from kassen.content.content import Content, Layer, bundled_layer
from kassen.content.loader import Part, layer_entries, layer_parts, merge_tables
from kassen.content.yamlio import validation_issues
from kassen.core.errors import ContentError, ContentIssue

#: The arena's content sections, all tables, each one bundled file.
SECTIONS = ("checks", "damage", "locations", "falling", "injury", "match")
_PACKAGE = "kassen.arena.data"


@lru_cache(maxsize=1)
def _bundled_layer() -> Layer:
    return bundled_layer(_PACKAGE, files=[f"{s}.yaml" for s in SECTIONS])


@lru_cache(maxsize=1)
def bundled_content() -> Content[ArenaRules]:
    """The bundled data alone (read and validated once)."""
    return _build(())


def load_content(layers: Sequence[Layer] = ()) -> Content[ArenaRules]:
    """The bundled sections with ``layers`` merged over them, in order (see the module notes).
    Raises :class:`~kassen.core.errors.ContentError` with every problem of every layer."""
    if not layers:
        return bundled_content()
    return _build(tuple(layers))


def load_rules(overrides: Mapping[str, Any] | None = None) -> ArenaRules:
    """The arena's tables: the bundled data, with ``overrides`` (sections at the top level, e.g.
    ``{"injury": {"shock": {"combine": "max_each_summed"}}}``) merged over it as one more layer."""
    if not overrides:
        return bundled_content().tables
    layer = Layer("overrides", data=dict(overrides), file="rules overrides")
    return load_content([layer]).tables


def _build(layers: tuple[Layer, ...]) -> Content[ArenaRules]:
    every = (_bundled_layer(), *layers)
    per_layer: list[list[Part]] = []
    issues: list[ContentIssue] = []
    for layer in every:
        parts, found = layer_parts(layer, SECTIONS, by_stem=True)
        per_layer.append(parts)
        issues += found
    merged, found = merge_tables(per_layer, SECTIONS)
    issues += found
    tables: ArenaRules | None = None
    try:
        tables = ArenaRules.model_validate(merged)
    except ValidationError as exc:
        issues += _where(exc, per_layer)
    if issues or tables is None:
        raise ContentError(issues)
    labels = [(layer.label, layer_entries(parts, {})) for layer, parts in zip(every, per_layer, strict=True)]
    inline = next((layer.data for layer in layers if layer.label == "scenario"), None)
    return Content.build("arena", tables, tables.model_dump(mode="json"), labels, inline)


def _where(exc: ValidationError, per_layer: Sequence[Sequence[Part]]) -> list[ContentIssue]:
    """Each error of the merged data at the file and line of the layer that wrote the value (the
    latest layer that writes the deepest part of its path)."""
    out: list[ContentIssue] = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        part = _writer(per_layer, loc)
        if part is None:
            out += validation_issues([err], "content", None)
            continue
        o = part.origin
        out += validation_issues([{**err, "loc": loc[1:]}], o.file, o.node, prefix=o.loc, label=part.section)
    return out


def _writer(per_layer: Sequence[Sequence[Part]], loc: tuple[Any, ...]) -> Part | None:
    if not loc:
        return None
    best: Part | None = None
    deepest = -1
    for parts in per_layer:
        for part in parts:
            if part.section != loc[0]:
                continue
            depth, node = 0, part.data
            for key in loc[1:]:
                if (isinstance(node, Mapping) and key in node) or (
                    isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)
                ):
                    node = node[key]
                else:
                    break
                depth += 1
            if depth >= deepest:
                best, deepest = part, depth
    return best
