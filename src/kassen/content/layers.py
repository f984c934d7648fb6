"""Layered content: bundled data first, then each user directory merged over it, overriding by id.

The pieces every ruleset's catalog needs, whatever its entries look like:

* :func:`yaml_sources` lists the YAML files of a layer (one file, or every ``*.yaml``/``*.yml`` under a
  directory, in a stable order);
* :class:`Origin` remembers where an entry was written (file, YAML node tree, path), so an error found
  long after parsing (a dangling reference, say) still names the file, the line and the field;
* :func:`merge_by_id` merges layers: an id given twice in one layer is an error (in one file or in two
  files of the same layer); a later layer replaces an earlier layer's entry of the same id;
* :func:`deep_merge` patches nested mappings key by key (for tables that are not lists of entries).
"""

from __future__ import annotations

__all__ = ["Origin", "deep_merge", "merge_by_id", "yaml_sources"]

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from kassen.content.yamlio import line_of
from kassen.core.errors import ContentError, ContentIssue
from kassen.i18n import S_

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

YAML_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an entry was written: ``file``, the file's YAML node tree, the entry's path ``loc`` in it,
    and the ``label`` its fields are named under in errors (``maneuvers.thrust``)."""

    file: str
    node: Any = field(default=None, compare=False, repr=False)
    loc: tuple[str | int, ...] = ()
    label: str = ""

    def line(self, *more: str | int) -> int | None:
        """The line of the entry, or of one of its fields (``origin.line("check", "skill")``)."""
        return line_of(self.node, (*self.loc, *more))

    def where(self) -> str:
        """``file:line`` (or ``file`` when no line is known)."""
        line = self.line()
        return f"{self.file}:{line}" if line is not None else self.file

    def issue(self, message: str, *path: str | int) -> ContentIssue:
        """A problem with this entry, or with the field at ``path`` inside it."""
        name = ".".join(str(p) for p in (self.label, *path) if str(p)) or "(root)"
        return ContentIssue(self.file, name, message, self.line(*path))


#: A layer directory is walked no further than this many entries (``--content /`` is refused quickly).
MAX_WALK = 20_000


def yaml_sources(path: Path, limit: int | None = None) -> list[Path]:
    """The YAML files of one layer: ``path`` itself, or every YAML file under the directory ``path``
    (sub-directories included), sorted by their path so that the order never depends on the disk.
    More than ``limit`` YAML files, or a directory of more than :data:`MAX_WALK` entries, is a
    :class:`ContentError` found without walking the rest."""
    if not path.is_dir():
        return [path]
    found: list[Path] = []
    for n, p in enumerate(path.rglob("*")):
        if n >= MAX_WALK:
            raise ContentError(
                ContentIssue(
                    str(path), "(directory)", S_("holds more than {max_walk} entries", max_walk=MAX_WALK)
                )
            )
        if p.suffix.lower() in YAML_SUFFIXES and p.is_file():
            found.append(p)
            if limit is not None and len(found) > limit:
                raise ContentError(
                    ContentIssue(
                        str(path), "(directory)", S_("holds more than {limit} YAML files", limit=limit)
                    )
                )
    return sorted(found)


def merge_by_id(
    layers: Sequence[Sequence[tuple[K, V, Origin]]],
) -> tuple[dict[K, tuple[V, Origin]], list[ContentIssue]]:
    """Merge ``layers`` of ``(id, value, origin)``, earliest first.

    Within one layer an id given twice is reported at its second place (naming the first); across
    layers the later entry replaces the earlier one. Returns the merged entries (in first-seen order,
    replaced in place) and the duplicate-id issues.
    """
    merged: dict[K, tuple[V, Origin]] = {}
    issues: list[ContentIssue] = []
    for layer in layers:
        seen: dict[K, Origin] = {}
        for key, value, origin in layer:
            first = seen.get(key)
            if first is not None:
                issues.append(origin.issue(f"duplicate id {key!r}: already defined at {first.where()}", "id"))
                continue
            seen[key] = origin
            merged[key] = (value, origin)
    return merged, issues


def deep_merge(base: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``patch`` applied key by key: nested mappings merge, anything else is replaced."""
    out = dict(base)
    for key, value in patch.items():
        old = out.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            out[key] = deep_merge(old, value)
        else:
            out[key] = value
    return out
