"""One content object for every ruleset: layered tables, one path-free hash, and what differs.

Content comes in *layers*: the ruleset's bundled data first, then each directory (or file) the user
gives with ``--content``, then a scenario's own ``content:`` block; a later layer overrides an earlier
one (by id for entries, key by key for tables — each ruleset says which of its sections is which).
:func:`read_layer` reads a layer's YAML files under the limits of :mod:`kassen.content.yamlio`.

A :class:`Content` holds the merged, validated ``tables`` a ruleset reads, and digests of the *data*,
never of paths (the same layer named by a relative or an absolute path has the same hash):

* ``hash``: SHA-256 of the canonical JSON of the merged data — recorded in a chronicle's meta;
* ``sections``: a short digest of each merged section, to name which one differs;
* ``layers``: per layer, a digest and, for the user's layers, a digest of each entry it writes, to name
  the layer and the entry that differ.

:meth:`Content.check` compares a recorded ``meta["content"]`` with this content and raises
:class:`ContentMismatchError` naming what differs.
"""

from __future__ import annotations

__all__ = [
    "Content",
    "ContentMismatchError",
    "Layer",
    "LayerDigest",
    "Source",
    "bundled_layer",
    "digest",
    "inline_layer",
    "read_layer",
]

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

from kassen.content.layers import yaml_sources
from kassen.content.yamlio import read_text
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.events import canonical_json
from kassen.i18n import S_

C = TypeVar("C")

#: Most YAML files one layer may hold.
MAX_LAYER_FILES = 500


#: Prose that explains content but changes no rule: left out of every digest, so that rewording a
#: rationale or a description never makes a recorded fight refuse to replay.
PROSE = frozenset({"rationale", "description"})


def digest(data: Any, length: int = 64) -> str:
    """SHA-256 (hex, the first ``length`` digits) of ``data``'s canonical JSON, prose left out."""
    return hashlib.sha256(canonical_json(_rules_only(data)).encode("utf-8")).hexdigest()[:length]


def _rules_only(data: Any) -> Any:
    if isinstance(data, Mapping):
        return {k: _rules_only(v) for k, v in data.items() if not (k in PROSE and isinstance(v, str))}
    if isinstance(data, list | tuple):
        return [_rules_only(v) for v in data]
    return data


@dataclass(frozen=True, slots=True)
class Source:
    """One YAML text of a layer; ``name`` is for messages only (it never enters a hash)."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Layer:
    """A layer of content: its YAML sources, or (for a scenario's ``content:`` block) data already
    parsed. ``label`` names it in messages (``bundled``, ``layer 1``, ``scenario``)."""

    label: str
    sources: tuple[Source, ...] = ()
    data: Mapping[str, Any] | None = None
    node: Any = field(default=None, compare=False, repr=False)
    file: str = ""
    loc: tuple[str | int, ...] = ()


def read_layer(path: str | Path, label: str) -> Layer:
    """The YAML files of one ``--content`` layer (a file, or every ``*.yaml``/``*.yml`` under a
    directory); every file that cannot be read is reported at once."""
    p = Path(path)
    shown = str(p) if len(str(p)) <= 120 else str(p)[:117] + "..."
    try:
        exists = p.exists()
    except (OSError, ValueError) as exc:
        raise ContentError(ContentIssue(shown, "(file)", S_("cannot read: {exc}", exc=exc))) from None
    if not exists:
        raise ContentError(ContentIssue(shown, "(file)", S_("no such file or directory")))
    try:
        files = yaml_sources(p, MAX_LAYER_FILES)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise ContentError(ContentIssue(shown, "(directory)", S_("cannot read: {why}", why=why))) from None
    if p.is_dir() and not files:
        raise ContentError(ContentIssue(shown, "(directory)", S_("holds no .yaml or .yml file")))
    sources, issues = [], []
    for f in files:
        try:
            sources.append(Source(str(f), read_text(f)))
        except ContentError as exc:
            issues += exc.issues
    if issues:
        raise ContentError(issues)
    return Layer(label, tuple(sources))


def bundled_layer(package: str, folder: str = "", files: Sequence[str] = ()) -> Layer:
    """A ruleset's bundled layer: ``files`` of ``package`` (or every YAML file in ``folder``)."""
    root = resources.files(package)
    if folder:
        root = root.joinpath(folder)
    names = list(files) or sorted(f.name for f in root.iterdir() if f.name.endswith((".yaml", ".yml")))
    prefix = "/".join([package.replace(".", "/"), *([folder] if folder else [])])
    return Layer(
        "bundled",
        tuple(Source(f"{prefix}/{n}", root.joinpath(n).read_text(encoding="utf-8")) for n in names),
    )


def inline_layer(data: Mapping[str, Any], file: str = "scenario", node: Any = None) -> Layer:
    """A scenario's own ``content:`` block as the last layer (``node``: the scenario file's node tree,
    so errors name the block's lines)."""
    return Layer("scenario", (), data, node, file, ("content",) if node is not None else ())


@dataclass(frozen=True, slots=True)
class LayerDigest:
    """What one layer wrote: its digest and, for the user's layers, a digest per entry it writes."""

    label: str
    hash: str
    entries: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "hash": self.hash, "entries": dict(sorted(self.entries.items()))}


class ContentMismatchError(KassenError):
    """A chronicle recorded other content than the content given for its replay."""

    code = "content.mismatch"


@dataclass(frozen=True)
class Content(Generic[C]):
    """A ruleset's merged, validated tables and the digests that identify them (see module notes).
    ``inline`` is the scenario's own ``content:`` block, kept so that a replay can rebuild it."""

    ruleset: str
    tables: C
    hash: str
    sections: Mapping[str, str]
    layers: tuple[LayerDigest, ...]
    inline: Mapping[str, Any] | None = None

    @classmethod
    def build(
        cls,
        ruleset: str,
        tables: C,
        merged: Mapping[str, Any],
        layers: Sequence[tuple[str, Mapping[str, Any]]],
        inline: Mapping[str, Any] | None = None,
        unhashed: Sequence[str] = (),
    ) -> Content[C]:
        """Digest ``merged`` (section → JSON data after validation) and each layer's entries
        (``(label, {entry key: raw data})``, the bundled layer first). Sections in ``unhashed`` change
        what is shown, never how a fight resolves (a visibility table): they are left out of every
        digest, so a chronicle replays under any of them."""
        skip = set(unhashed)
        merged = {k: v for k, v in merged.items() if k not in skip}
        layers = [(label, {k: v for k, v in e.items() if k.split(".")[0] not in skip}) for label, e in layers]
        digests = []
        for i, (label, entries) in enumerate(layers):
            per = {} if i == 0 else {k: digest(v, 12) for k, v in entries.items()}
            digests.append(LayerDigest(label, digest(dict(entries), 16), per))
        return cls(
            ruleset,
            tables,
            digest(dict(merged)),
            {k: digest(v, 12) for k, v in merged.items()},
            tuple(digests),
            dict(inline) if inline is not None else None,
        )

    def meta(self) -> dict[str, Any]:
        """What a chronicle records of its content (under ``meta["content"]``)."""
        out: dict[str, Any] = {
            "hash": self.hash,
            "sections": dict(sorted(self.sections.items())),
            "layers": [d.to_json() for d in self.layers],
        }
        if self.inline is not None:
            out["scenario"] = self.inline
        return out

    def check(self, recorded: Any) -> None:
        """Refuse (:class:`ContentMismatchError`) when ``recorded`` (a chronicle's ``meta["content"]``)
        is not this content, naming the differing layer or entry."""
        if not isinstance(recorded, Mapping) or not isinstance(recorded.get("hash"), str):
            raise ContentMismatchError(S_("the log's meta.content has no content hash"))
        if recorded["hash"] == self.hash:
            if canonical_json(recorded) != canonical_json(self.meta()):
                raise ContentMismatchError(
                    S_("the log's meta.content is not what its content gives (its digests were altered)")
                )
            return
        raise ContentMismatchError(
            "this fight was played on other content (" + "; ".join(self.differences(recorded)) + ")"
        )

    def differences(self, recorded: Mapping[str, Any]) -> list[str]:
        """What differs between ``recorded`` and this content, in words."""
        out: list[str] = []
        layers = recorded.get("layers")
        theirs = [x for x in layers if isinstance(x, Mapping)] if isinstance(layers, list) else []
        ours = list(self.layers)
        t_user = [x for x in theirs[1:] if x.get("label") != "scenario"]
        o_user = [x for x in ours[1:] if x.label != "scenario"]
        if len(t_user) != len(o_user):
            out.append(
                f"the log used {len(t_user)} --content layer(s), {len(o_user)} given: pass the same --content"
            )
        if not theirs or theirs[0].get("hash") != ours[0].hash:
            sections = recorded.get("sections", {})
            changed = sorted(
                k
                for k in set(self.sections) | set(sections if isinstance(sections, Mapping) else {})
                if not isinstance(sections, Mapping) or sections.get(k) != self.sections.get(k)
            )
            out.append(
                S_(
                    "the bundled content differs (another kassen version?) in {sections}",
                    sections=", ".join(changed),
                )
                if changed
                else S_("the bundled content differs (another kassen version?)")
            )
        for t, o in zip(theirs[1:], ours[1:], strict=False):
            if t.get("hash") == o.hash:
                continue
            t_entries = t.get("entries", {}) if isinstance(t.get("entries"), Mapping) else {}
            names = sorted(set(t_entries) | set(o.entries))
            parts = []
            for name in names:
                if name not in o.entries:
                    parts.append(f"{name} missing")
                elif name not in t_entries:
                    parts.append(f"{name} not in the log's")
                elif t_entries[name] != o.entries[name]:
                    parts.append(f"{name} differs")
            label = str(t.get("label", o.label))
            out.append(f"{label}: " + (", ".join(parts[:8]) if parts else "its data differs"))
        if not out:
            out.append(f"content hash {str(recorded['hash'])[:12]}… recorded, {self.hash[:12]}… given")
        return out
