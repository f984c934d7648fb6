"""Sweep paths: ``--vary PATH=V1,V2,...`` read, checked and applied to a scenario in memory.

A PATH addresses one value, by dotted parts:

* **in the scenario** (``units.kuro.overrides.skills.ninjutsu``, ``fighters.ryu.skill``,
  ``characters.kakita-toshiro.skills.kenjutsu``): a mapping's key, or a list's element — by its index,
  or by a string one of its fields holds (its ``id``, ``name``, ``creature``...; a name is also matched
  written as a slug, ``kakita-toshiro`` for ``Kakita Toshiro``). Missing keys are created, so
  ``units.kuro.overrides.skills.ninjutsu`` works on a unit that has no overrides yet; a path no value
  of which the ruleset accepts is refused as unknown, with the nearest known paths.
* **in the content** (``content.SECTION...``, or ``catalog.SECTION...``): a section as a content layer
  writes it, then an entry by its id (entries sections) or a key (tables), then the value's fields
  (``content.defense.armor.rows.heavy.defense``, ``catalog.creatures.kuro.skills.ninjutsu``,
  ``content.checks.contest.tie_winner``). It must exist.

Each cell of a sweep is the scenario with its values set, built as *text* (the scenario's own
``content:`` block carries content values, as the last layer), never by editing a bundled file. A
content path is checked once: rewriting it with its current value must give the very content hash of
the scenario as it is, so the lab never changes more than the one value.
"""

from __future__ import annotations

__all__ = ["Cell", "ContentView", "VaryPath", "apply_values", "cell_text", "parse_vary"]

import copy
import difflib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from kassen.content.content import read_layer
from kassen.content.layers import deep_merge
from kassen.content.yamlio import parse_yaml
from kassen.core.errors import ContentError
from kassen.core.ruleset import find_ruleset
from kassen.core.scenario import ScenarioSource
from kassen.i18n import _, pgettext
from kassen.lab.limits import MAX_PATH_CHARS, MAX_PATH_PARTS, MAX_VALUE_CHARS, MAX_VALUES, LabError

#: First parts that address the content rather than the scenario.
CONTENT_ROOTS = ("content", "catalog")
#: Keys an entry of a content section is known by, in order.
ENTRY_KEYS = ("id", "rule", "name")
#: Fields whose string names a list element first (then any other string field).
NAME_KEYS = ("id", "name")
_PART = re.compile(r"^[^\x00-\x1f\x7f]{1,64}$")
# any number of digits: a range too wide is told so (and its limit), not read as a value that fails
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")

Scalar = int | float | bool | str | None
Key = str | int


@dataclass(frozen=True, slots=True)
class VaryPath:
    """One ``--vary``: the path as given, its parts, and its values in order."""

    text: str
    parts: tuple[str, ...]
    values: tuple[Scalar, ...]

    @property
    def in_content(self) -> bool:
        return self.parts[0] in CONTENT_ROOTS


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a sweep grid: its index and each path's value."""

    index: int
    values: tuple[tuple[str, Scalar], ...]

    def label(self) -> str:
        return ", ".join(f"{p}={_show(v)}" for p, v in self.values)


def _show(value: Scalar) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# -- reading --vary ------------------------------------------------------------------------------------
def _value(item: str, spec: str) -> Scalar:
    text = item.strip()
    if not text:
        raise LabError(_("an empty value in --vary {spec}").format(spec=repr(spec[:80])))
    if len(text) > MAX_VALUE_CHARS:
        raise LabError(
            _("a value longer than {max_value_chars} characters in --vary {spec}").format(
                max_value_chars=MAX_VALUE_CHARS, spec=repr(spec[:80])
            )
        )
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if value is None or isinstance(value, int | float | bool | str):
        if isinstance(value, float) and value != value:  # NaN compares unequal to itself
            raise LabError(
                _("{text} is not a number a scenario can hold (in --vary)").format(text=repr(text))
            )
        return value
    return text


def parse_vary(spec: str) -> VaryPath:
    """``PATH=V1,V2,...`` (or ``PATH=A..B``, every whole number from A to B) checked against the limits:
    a path of at most :data:`MAX_PATH_PARTS` dotted parts, at most :data:`MAX_VALUES` distinct values."""
    if not isinstance(spec, str) or "=" not in spec:
        raise LabError(
            _("--vary takes PATH=V1,V2,... (e.g. fighters.ryu.skill=12,14,16), not {spec}").format(
                spec=repr(str(spec)[:80])
            )
        )
    path, _eq, rest = spec.partition("=")
    path = path.strip()
    if not path or len(path) > MAX_PATH_CHARS:
        raise LabError(
            _("a --vary path is 1 to {max_path_chars} characters, not {count}").format(
                max_path_chars=MAX_PATH_CHARS, count=len(path)
            )
        )
    parts = tuple(p.strip() for p in path.split("."))
    if len(parts) > MAX_PATH_PARTS:
        raise LabError(
            _("a --vary path has at most {max_path_parts} parts: {path}").format(
                max_path_parts=MAX_PATH_PARTS, path=repr(path[:80])
            )
        )
    for p in parts:
        if not _PART.match(p):
            raise LabError(
                _("{path}: every part of a path is 1 to 64 printable characters").format(path=repr(path[:80]))
            )
    if parts[0] == "ruleset":
        raise LabError(_("a sweep cannot vary the ruleset (the scenario's header)"))
    if parts[0] in CONTENT_ROOTS and len(parts) < 3:
        raise LabError(
            _("{path}: a content path names a section and a value in it ({parts}.SECTION.KEY...)").format(
                path=repr(path), parts=parts[0]
            )
        )
    values: list[Scalar] = []
    m = _RANGE.match(rest) if len(rest) <= MAX_VALUE_CHARS else None  # longer: a value too long
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo or hi - lo + 1 > MAX_VALUES:
            raise LabError(
                _("the range {rest} must go up and hold at most {max_values} values").format(
                    rest=repr(rest.strip()), max_values=MAX_VALUES
                )
            )
        values = list(range(lo, hi + 1))
    else:
        items = rest.split(",")
        if len(items) > MAX_VALUES:
            raise LabError(
                _("--vary {path} has {count} values; at most {max_values}").format(
                    path=repr(path), count=len(items), max_values=MAX_VALUES
                )
            )
        values = [_value(item, spec) for item in items]
    seen: set[str] = set()
    for v in values:
        key = repr((type(v).__name__, v))
        if key in seen:
            raise LabError(
                _("--vary {path} lists the value {show} twice").format(path=repr(path), show=repr(_show(v)))
            )
        seen.add(key)
    return VaryPath(path, parts, tuple(values))


# -- walking plain data -------------------------------------------------------------------------------
def _names(item: Any) -> list[tuple[int, str]]:
    """The strings a list element is known by, best first (``id``, ``name``, then any string field)."""
    if not isinstance(item, Mapping):
        return []
    out = []
    for key, value in item.items():
        if isinstance(value, str) and len(value) <= 200:
            rank = NAME_KEYS.index(key) if key in NAME_KEYS else len(NAME_KEYS)
            out.append((rank, value))
    return sorted(out, key=lambda x: x[0])


def element_name(item: Any, index: int) -> str:
    """How a path names a list element: its best name (as a slug if it has spaces), else its index."""
    names = _names(item)
    if not names:
        return str(index)
    name = names[0][1]
    return slug(name) if slug(name) != name and " " in name else name


def _find_element(items: list[Any], part: str, where: str) -> int:
    if part.isdigit() and int(part) < len(items):
        return int(part)
    matches: dict[int, int] = {}
    for i, item in enumerate(items):
        for rank, name in _names(item):
            if name == part or slug(name) == slug(part):
                matches[i] = min(matches.get(i, rank), rank)
    if not matches:
        known = ", ".join(element_name(x, i) for i, x in enumerate(items)) or "none"
        raise _Unknown(
            _("no element {part} in {where} (elements: {known})").format(
                part=repr(part), where=where, known=known[:300]
            )
        )
    best = min(matches.values())
    chosen = [i for i, r in matches.items() if r == best]
    if len(chosen) > 1:
        raise LabError(
            _("{part} names {count} elements of {where}: use an index (0 .. {count2}) or an id").format(
                part=repr(part), count=len(chosen), where=where, count2=len(items) - 1
            )
        )
    return chosen[0]


class _Unknown(LabError):
    """A path that does not resolve (the caller adds suggestions)."""


def locate(data: Any, parts: Sequence[str], where: str) -> tuple[list[Key], bool]:
    """The concrete keys ``parts`` address in ``data`` (list elements as indexes), and whether the
    value exists (False: the first missing key and all after it are to be created)."""
    cur = data
    out: list[Key] = []
    for i, part in enumerate(parts):
        here = ".".join([where, *parts[:i]]) if where else ".".join(parts[:i]) or "(top)"
        if isinstance(cur, Mapping):
            key = (
                part
                if part in cur
                else next((k for k in cur if isinstance(k, str) and slug(k) == slug(part)), None)
            )
            if key is None:
                return out + list(parts[i:]), False
            out.append(key)
            cur = cur[key]
        elif isinstance(cur, list):
            idx = _find_element(cur, part, here)
            out.append(idx)
            cur = cur[idx]
        else:
            raise _Unknown(
                _("{here} is a value ({cur}): it has no part {part}").format(
                    here=here, cur=repr(str(cur)[:40]), part=repr(part)
                )
            )
    return out, True


def get_at(data: Any, keys: Sequence[Key]) -> Any:
    for k in keys:
        data = data[k]
    return data


def set_at(data: Any, keys: Sequence[Key], value: Any) -> None:
    """Set ``value`` at ``keys`` in ``data`` (in place), creating missing mappings on the way."""
    cur = data
    for k in keys[:-1]:
        if isinstance(cur, dict):
            if k not in cur or not isinstance(cur[k], dict | list):
                cur[k] = {}
            cur = cur[k]
        else:
            cur = cur[k]
    if isinstance(cur, list) and not isinstance(keys[-1], int):
        raise LabError(_("cannot set {keys} in a list").format(keys=repr(keys[-1])))
    cur[keys[-1]] = value


def leaf_paths(data: Any, prefix: tuple[str, ...] = (), depth: int = 0) -> Iterator[str]:
    """Every value's path in ``data`` (list elements by their names), for suggestions."""
    if depth > 12:
        return
    if isinstance(data, Mapping):
        for k, v in data.items():
            yield from leaf_paths(v, (*prefix, str(k)), depth + 1)
    elif isinstance(data, list) and any(isinstance(x, Mapping) for x in data):
        for i, item in enumerate(data):
            yield from leaf_paths(item, (*prefix, element_name(item, i)), depth + 1)
    else:
        yield ".".join(prefix)


def did_you_mean(close: Sequence[str]) -> str:
    """``; did you mean a or b?`` after an unknown path's message ('' when nothing is close)."""
    if not close:
        return ""
    return _("; did you mean {paths}?").format(paths=pgettext("lab", " or ").join(close))


def suggest(path: str, known: Sequence[str], n: int = 3) -> list[str]:
    """The known paths nearest ``path``: those sharing its last parts first, then by similarity."""
    parts = path.split(".")

    def score(candidate: str) -> tuple[int, float]:
        cp = candidate.split(".")
        tail = 0
        while tail < min(len(cp), len(parts)) and cp[-1 - tail] == parts[-1 - tail]:
            tail += 1
        shared = len(set(cp) & set(parts))
        return tail * 10 + shared, difflib.SequenceMatcher(None, candidate, path).ratio()

    ranked = sorted(set(known), key=score, reverse=True)
    return [c for c in ranked[:n] if score(c) > (0, 0.3)]


# -- the content as layers write it -------------------------------------------------------------------
class ContentView:
    """The content a scenario is played on, as plain data per section the way a layer writes it: the
    ruleset's bundled data files, then each ``--content`` layer, then the scenario's own block.

    Built from what every ruleset exposes (its data package, the section names its content digests);
    :func:`check_content_paths` proves each use of it against the ruleset's own content hash."""

    def __init__(self, source: ScenarioSource, content: Sequence[str], sections: Sequence[str]) -> None:
        info = find_ruleset(source.ruleset).info
        self.sections = tuple(sections)
        self.tables: dict[str, Any] = {}
        self.entries: dict[str, dict[str, dict[str, Any]]] = {}
        self.keys: dict[str, str] = {}
        package, scenario_folder = info.scenarios
        skip = {info.rule_texts[1]} if info.rule_texts[0] == package else set()
        files = []
        for path, node in _yaml_files(resources.files(package), ""):
            if path.split("/")[0] == scenario_folder or path in skip:
                continue
            files.append((path, node.read_text(encoding="utf-8")))
        self._layer(files)
        for i, p in enumerate(content, 1):
            layer = read_layer(p, f"layer {i}")
            self._layer([(s.name, s.text) for s in layer.sources])
        if source.content is not None:
            self._add(dict(source.content))

    def _layer(self, files: Sequence[tuple[str, str]]) -> None:
        layer: dict[str, Any] = {}
        for name, text in files:
            try:
                data, _spans = parse_yaml(text, name)
            except ContentError:
                continue  # the ruleset reports a bad layer itself
            stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            if stem in self.sections and not (
                isinstance(data, Mapping) and data and all(k in self.sections for k in data)
            ):
                layer.setdefault(stem, []).append(data)
            elif isinstance(data, Mapping):
                for k, v in data.items():
                    if k in self.sections:
                        layer.setdefault(k, []).append(v)
        for section, values in layer.items():
            for value in values:
                self._add({section: value})

    def _add(self, data: Mapping[str, Any]) -> None:
        for section, value in data.items():
            if section not in self.sections:
                continue
            if isinstance(value, list):
                key = self._entry_key(section, value)
                table = self.entries.setdefault(section, {})
                for item in value:
                    if isinstance(item, Mapping) and isinstance(item.get(key), str):
                        table[item[key]] = copy.deepcopy(dict(item))
            elif isinstance(value, Mapping):
                self.tables[section] = deep_merge(self.tables.get(section, {}), copy.deepcopy(dict(value)))

    def _entry_key(self, section: str, items: list[Any]) -> str:
        if section not in self.keys:
            maps = [x for x in items if isinstance(x, Mapping)]
            self.keys[section] = next((k for k in ENTRY_KEYS if maps and all(k in x for x in maps)), "id")
        return self.keys[section]

    def data(self) -> dict[str, Any]:
        """Every section as plain data (entries as mappings by id), for walking and suggestions."""
        return {**copy.deepcopy(self.tables), **{s: copy.deepcopy(e) for s, e in self.entries.items()}}


def _yaml_files(root: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    for node in sorted(root.iterdir(), key=lambda n: n.name):
        name = f"{prefix}{node.name}"
        if node.is_dir():
            if not node.name.startswith(("_", ".")):
                yield from _yaml_files(node, name + "/")
        elif node.name.endswith((".yaml", ".yml")):
            yield name, node


# -- building a cell ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Resolved:
    """A path resolved against one scenario: where its value lives and whether it exists yet."""

    vary: VaryPath
    keys: tuple[Key, ...]
    exists: bool
    entries: bool = False


def resolve(vary: VaryPath, body: Mapping[str, Any], view: ContentView | None) -> Resolved:
    """Where ``vary`` points: keys into the scenario's body, or (content) section, entry/key, fields."""
    try:
        if not vary.in_content:
            keys, exists = locate(body, vary.parts, "")
            return Resolved(vary, tuple(keys), exists)
        assert view is not None
        section_part = vary.parts[1]
        data = view.data()
        section = next((s for s in data if s == section_part or slug(s) == slug(section_part)), None)
        if section is None:
            listed = ", ".join(sorted(data))
            raise _Unknown(
                _("no content section {section_part} (sections: {listed})").format(
                    section_part=repr(section_part), listed=listed
                )
            )
        found, exists = locate(data[section], vary.parts[2:], f"{vary.parts[0]}.{section}")
        if not exists:
            raise _Unknown(_("{text} is not a value of the content").format(text=repr(vary.text)))
        return Resolved(vary, (section, *found), True, section in view.entries)
    except _Unknown as exc:
        known = list(leaf_paths(body)) if not vary.in_content else []
        if view is not None:
            known += [f"{vary.parts[0]}.{p}" for p in leaf_paths(view.data())]
        close = suggest(vary.text, known)
        hint = did_you_mean(close)
        raise LabError(
            _("unknown path {text}: {exc}{hint}").format(text=repr(vary.text), exc=exc, hint=hint)
        ) from None


def apply_values(
    source: ScenarioSource, view: ContentView | None, values: Sequence[tuple[Resolved, Scalar]]
) -> dict[str, Any]:
    """The whole scenario (header, body, own content block) with ``values`` set, as plain data."""
    body = copy.deepcopy(dict(source.data))
    own: dict[str, Any] = copy.deepcopy(dict(source.content)) if source.content is not None else {}
    for r, value in values:
        if not r.vary.in_content:
            set_at(body, r.keys, value)
            continue
        assert view is not None
        section = str(r.keys[0])
        if r.entries:
            ident = str(r.keys[1])
            entry = copy.deepcopy(view.entries[section][ident])
            key = view.keys[section]
            written = own.get(section)
            if isinstance(written, list):
                for item in written:
                    if isinstance(item, Mapping) and item.get(key) == ident:
                        entry = copy.deepcopy(dict(item))
                rest = [x for x in written if not (isinstance(x, Mapping) and x.get(key) == ident)]
            else:
                rest = []
            set_at(entry, r.keys[2:], value)
            own[section] = [*rest, entry]
        else:
            top = r.keys[1]
            merged = view.tables[section]
            current = own.get(section) if isinstance(own.get(section), Mapping) else {}
            assert isinstance(current, Mapping)
            subtree = copy.deepcopy(deep_merge(merged, current)[top]) if isinstance(top, str) else None
            if len(r.keys) == 2:
                subtree = value
            else:
                set_at(subtree, r.keys[2:], value)
            own[section] = {**current, str(top): subtree}
    out: dict[str, Any] = {"ruleset": source.ruleset, **body}
    if own:
        out["content"] = own
    return out


def cell_text(data: Mapping[str, Any]) -> str:
    """A cell's scenario as YAML text (what a worker reads and ``kassen fight`` replays)."""
    return yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, width=110)
