"""The arena's content: the bundled sections, every user layer merged over them, one path-free hash.

The six sections of rules are tables (``checks``, ``damage``, ``locations``, ``falling``, ``injury``,
``match``), one bundled file each (``checks.yaml`` is the ``checks`` section), and so is the
``visibility`` table (``visibility.yaml``: what a side may not see of the others). Layers merge key by
key over them (:func:`kassen.content.layers.deep_merge`): the bundled data, then each ``--content``
layer (a file named after a section holds that section's body, any other file holds sections at its
top level), then a scenario's own ``content:`` block. The merged data is validated once into
:class:`ArenaRules`, every problem reported at once with the file, line and field of the layer that
wrote it; the content hash is of the merged, validated rules
(:meth:`kassen.content.content.Content.build`): the visibility table decides what a side is shown,
never how a bout resolves, so it is left out of every digest (a chronicle replays under any visibility
table, and adding the table moved no recorded bout).

>>> rules = load_rules()
>>> rules.damage.attack_types.types["cut"].multiplier
Fraction(3, 2)
>>> rules.locations.find("brain").key
'skull'
>>> load_rules({"injury": {"shock": {"combine": "max_each_summed"}}}).injury.shock.combine
'max_each_summed'
"""

from __future__ import annotations

__all__ = ["SECTIONS", "VIEW_SECTIONS", "bundled_content", "load_content", "load_rules"]

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from kassen.arena.rules import ArenaRules
from kassen.content.content import Content, Layer, bundled_layer
from kassen.content.loader import Part, layer_entries, layer_parts, locate, merge_tables
from kassen.core.errors import ContentError, ContentIssue

#: The arena's sections of rules, all tables, each one bundled file: what the content's hash covers.
SECTIONS = ("checks", "damage", "locations", "falling", "injury", "match")
#: Sections that decide what a side may see, never how a bout resolves: merged and validated like the
#: others, left out of the content's digests.
VIEW_SECTIONS = ("visibility",)
_ALL = (*SECTIONS, *VIEW_SECTIONS)
_PACKAGE = "kassen.arena.data"


@lru_cache(maxsize=1)
def _bundled_layer() -> Layer:
    return bundled_layer(_PACKAGE, files=[f"{s}.yaml" for s in _ALL])


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
    """The core's ``tables_content`` for every section, the view sections left out of the digests."""
    every = (_bundled_layer(), *layers)
    per_layer: list[list[Part]] = []
    issues: list[ContentIssue] = []
    for layer in every:
        parts, found = layer_parts(layer, _ALL, by_stem=True)
        per_layer.append(parts)
        issues += found
    merged, found = merge_tables(per_layer, _ALL)
    issues += found
    tables: ArenaRules | None = None
    try:
        tables = ArenaRules.model_validate(merged)
    except ValidationError as exc:
        issues += locate(exc, per_layer)
    if issues or tables is None:
        raise ContentError(issues)
    rules = [[p for p in parts if p.section in SECTIONS] for parts in per_layer]
    labels = [(layer.label, layer_entries(parts, {})) for layer, parts in zip(every, rules, strict=True)]
    inline = next((layer.data for layer in layers if layer.label == "scenario"), None)
    dumped = tables.model_dump(mode="json")
    return Content.build("arena", tables, {s: dumped[s] for s in SECTIONS}, labels, inline)
