"""The roll-and-keep content: the bundled tables with the user's layers merged over them.

The tables have three sections of rules, ``core``, ``called_shots`` and ``special_attacks`` (the bundled
files ``core.yaml``, ``called_shots.yaml`` and ``special_attacks.yaml`` in ``kassen/l5r/data``), and the
``visibility`` table (``visibility.yaml``: what a side may not see of the others). A layer — a
``--tables``/``--content`` directory or file, or a scenario's ``content:`` block — writes any of them: a
file named after a section holds that section's body, any other file holds sections at its top level.
Each section merges key by key over the layers before it (:func:`kassen.content.loader.merge_tables`),
then the merged tables are validated at once: every problem is reported together, each with the file,
line and field of the layer that wrote it. The content's hash is of the merged, validated rules: the
visibility table decides what a side is shown, never how a duel resolves, so it is left out of every
digest (a chronicle replays under any visibility table, and adding the table moved no recorded fight).

>>> from kassen.l5r.tables import Location
>>> tables = bundled_content().tables
>>> tables.core.raises.limit, tables.location(Location.HEAD).raises
('void', 4)
"""

from __future__ import annotations

__all__ = ["bundled_content", "bundled_tables", "content_for", "load_content"]

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from kassen.content.content import Content, Layer, bundled_layer, read_layer
from kassen.content.loader import tables_content
from kassen.l5r.tables import SECTIONS, VIEW_SECTIONS, L5Tables

_ALL = (*SECTIONS, *VIEW_SECTIONS)
_FILES = tuple(f"{section}.yaml" for section in _ALL)


@lru_cache(maxsize=1)
def _bundled() -> Layer:
    return bundled_layer("kassen.l5r.data", files=_FILES)


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
    """The core's ``tables_content`` for these sections, the view sections left out of the digests."""
    return tables_content("l5r", L5Tables, _bundled(), layers, _ALL, unhashed=VIEW_SECTIONS)
