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

from kassen.arena.rules import ArenaRules
from kassen.content.content import Content, Layer, bundled_layer
from kassen.content.loader import tables_content

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
    return tables_content("arena", ArenaRules, _bundled_layer(), layers, SECTIONS)
