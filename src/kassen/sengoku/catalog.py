"""The Sengoku catalog through :mod:`kassen.content`: its layers read, merged, validated and hashed.

A layer is the bundled catalog (``data/catalog/*.yaml`` with the tables ``grades.yaml``,
``defense.yaml`` and ``resolution.yaml``), a ``--content`` directory or file, or a scenario's own
``content:`` block. Each is read by :func:`kassen.content.loader.layer_parts` into sections:

* entries sections (``weapons``, ``armor``, ``shields``, ``maneuvers``, ``creatures``, ``traits``,
  ``debuffs``), merged by ``id`` (:func:`~kassen.content.layers.merge_by_id`: a later layer's entry
  replaces an earlier one; an id given twice in one layer is an error);
* ``house_defaults``, merged by ``rule`` the same way;
* tables (``grades``, ``defense``, ``resolution``), patched key by key over the bundled ones
  (:func:`~kassen.content.loader.merge_tables`);
* ``visibility`` (``data/catalog/visibility.yaml``: what a side may not see of the others), patched the
  same way, and left out of every digest: it changes what a side is shown, never how a battle
  resolves, so a chronicle replays under any visibility table.

Every entry is validated into its model; an id that a later layer gives to another kind of entry, a
reference to an entry that does not exist, an Attack A that is not an attack, a flow house default that
is missing — every problem is collected and raised at once as one
:class:`~kassen.core.errors.ContentError`, each issue naming the file, the line and the field; nothing is
returned half-loaded. The content hash is of the merged, validated data (never of paths or file texts).
The merged :class:`Catalog` (lookups, house defaults, techniques and profiles) is
:mod:`kassen.sengoku.catalog_index`'s, re-exported here.

>>> catalog = load_catalog()
>>> catalog.maneuver("thrust").cost, catalog.weapon("uchigatana").attack_b
(2, 'thrust')
>>> catalog.profile("oni").natural_armor
2
"""

from __future__ import annotations

__all__ = [
    "HOUSE",
    "KINDS",
    "SECTIONS",
    "SECTION_NAMES",
    "TABLES",
    "Catalog",
    "CatalogFile",
    "HouseDefaultView",
    "UnknownEntryError",
    "catalog_content",
    "load_catalog",
]

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from kassen.content.content import Content, Layer, bundled_layer, read_layer
from kassen.content.layers import Origin, merge_by_id
from kassen.content.loader import Part, entry_items, layer_entries, layer_parts, merge_tables
from kassen.content.yamlio import validation_issues
from kassen.core.errors import ContentError, ContentIssue, did_you_mean
from kassen.core.fastreplace import replace
from kassen.sengoku.catalog_index import (
    KINDS,
    SECTIONS,
    Catalog,
    CatalogFile,
    HouseDefaultView,
    UnknownEntryError,
    ViewTable,
)
from kassen.sengoku.defense import DefenseRules, load_defense_rules
from kassen.sengoku.entries import Armor, Creature, Maneuver, MovementTo, ReactionKind, Shield, Weapon
from kassen.sengoku.grades import GradeTable, load_grades
from kassen.sengoku.house import FLOW_DEFAULTS, FlowDefault, FlowDefaultEntry, Reactions, ZoneTactics
from kassen.sengoku.resolution import ResolutionRules, load_resolution

#: The flow house defaults' section, merged by ``rule``.
HOUSE = "house_defaults"
#: The table sections, patched key by key over the bundled ``grades.yaml``, ``defense.yaml`` and
#: ``resolution.yaml``.
TABLES: dict[str, type[BaseModel]] = {
    "grades": GradeTable,
    "defense": DefenseRules,
    "resolution": ResolutionRules,
}
#: The visibility table (what a side may not see of the others): merged key by key like a table, never
#: in the content's hash (it changes what a side is shown, never how a battle resolves).
VIEW = "visibility"
#: Every section a layer may write, in the order errors list them.
SECTION_NAMES: tuple[str, ...] = (*SECTIONS, HOUSE, *TABLES, VIEW)
#: The key each entries section is merged by (for the content's per-entry digests).
_KEYS: dict[str, str] = {**dict.fromkeys(SECTIONS, "id"), HOUSE: "rule"}

_PACKAGE = "kassen.sengoku.data"
_FLOW_ADAPTER: TypeAdapter[FlowDefault] = TypeAdapter(FlowDefaultEntry)

Entries = Mapping[str, tuple[tuple[str, BaseModel | None], Origin]]


@dataclass(slots=True)
class _Validated:
    """One layer's entries, validated entry by entry (``None`` for an entry with errors)."""

    entries: list[tuple[str, tuple[str, BaseModel | None], Origin]] = field(default_factory=list)
    house: list[tuple[str, FlowDefault | None, Origin]] = field(default_factory=list)
    #: Entries with errors, built without validation: their references are still checked, so that every
    #: problem is reported at once.
    shadows: list[tuple[BaseModel, Origin]] = field(default_factory=list)


# ------------------------------------------------------------------------------------------ reading


@lru_cache(maxsize=1)
def _bundled() -> tuple[Layer, tuple[Part, ...]]:
    """The bundled layer and its sections: the catalog's files, then the three tables (validated once,
    written as their models dump them, so a user's patch merges over exactly what the rules read)."""
    catalog = bundled_layer(_PACKAGE, "catalog")
    parts, issues = layer_parts(catalog, SECTION_NAMES)
    if issues:
        raise ContentError(issues)
    tables = {"grades": load_grades(), "defense": load_defense_rules(), "resolution": load_resolution()}
    prefix = _PACKAGE.replace(".", "/")
    for name, model in tables.items():
        data = model.model_dump(mode="json", by_alias=True)
        parts.append(Part(name, data, Origin(f"{prefix}/{name}.yaml", None, (), name)))
    return catalog, tuple(parts)


def _item_issues(exc: ValidationError, origin: Origin, strip: str | None = None) -> list[ContentIssue]:
    if strip is None:
        return validation_issues(exc, origin.file, origin.node, prefix=origin.loc, label=origin.label)
    # A discriminated union puts the tag first in the error's location: drop it.
    errors = [
        {**err, "loc": tuple(err["loc"])[1:] if tuple(err["loc"])[:1] == (strip,) else err["loc"]}
        for err in exc.errors()
    ]
    return validation_issues(errors, origin.file, origin.node, prefix=origin.loc, label=origin.label)


def _validate(parts: Sequence[Part]) -> tuple[_Validated, list[ContentIssue]]:
    """Every entry of one layer's entries sections validated into its model."""
    out, issues = _Validated(), []
    for part in parts:
        if part.section in TABLES or part.section == VIEW:
            continue
        house = part.section == HOUSE
        items, found = entry_items(part, "rule" if house else "id")
        issues += found
        for key, item, origin in items:
            if house:
                try:
                    value: FlowDefault | None = _FLOW_ADAPTER.validate_python(item)
                except ValidationError as exc:
                    value = None
                    issues += _item_issues(exc, origin, strip=key)
                out.house.append((key, value, origin))
                continue
            kind, model = SECTIONS[part.section]
            try:
                entry: BaseModel | None = model.model_validate(item)
            except ValidationError as exc:
                entry = None
                issues += _item_issues(exc, origin)
                known = {k: v for k, v in item.items() if k in model.model_fields}
                out.shadows.append((model.model_construct(**known), origin))
            out.entries.append((key, (kind, entry), origin))
    return out, issues


def _kind_changes(layers: Sequence[_Validated]) -> list[ContentIssue]:
    """An id that a later layer gives to another kind of entry (a weapon id reused for a maneuver).
    The later entry is reported and dropped, so the entries that name the id are not blamed too."""
    issues: list[ContentIssue] = []
    kinds: dict[str, tuple[str, Origin]] = {}
    for layer in layers:
        kept = []
        for entry in layer.entries:
            key, (kind, _), origin = entry
            before = kinds.get(key)
            if before is not None and before[0] != kind:
                where = before[1].where()
                issues.append(
                    origin.issue(f"id {key!r} is already a {before[0]} ({where}); ids are unique", "id")
                )
            else:
                kept.append(entry)
        layer.entries[:] = kept
        for key, (kind, _), origin in kept:
            kinds.setdefault(key, (kind, origin))
    return issues


def _tables(per_layer: Sequence[Sequence[Part]]) -> tuple[dict[str, BaseModel], list[ContentIssue]]:
    """The three tables: the bundled ones with every layer's patches merged key by key, validated."""
    merged, issues = merge_tables(per_layer, TABLES)
    last = {p.section: p.origin for parts in per_layer for p in parts if p.section in TABLES}
    models: dict[str, BaseModel] = {}
    for name, model in TABLES.items():
        try:
            models[name] = model.model_validate(merged[name])
        except ValidationError as exc:
            issues += _item_issues(exc, last[name])
            models[name] = _bundled_table(name)
    return models, issues


def _visibility(per_layer: Sequence[Sequence[Part]]) -> tuple[ViewTable | None, list[ContentIssue]]:
    """The visibility table: the bundled one with every layer's patches merged key by key, validated."""
    merged, issues = merge_tables(per_layer, (VIEW,))
    if VIEW not in merged:
        return None, issues
    last = [p.origin for parts in per_layer for p in parts if p.section == VIEW][-1]
    try:
        return ViewTable.model_validate(merged[VIEW]), issues
    except ValidationError as exc:
        return None, issues + _item_issues(exc, last)


def _bundled_table(name: str) -> BaseModel:
    loaders = {"grades": load_grades, "defense": load_defense_rules, "resolution": load_resolution}
    table: BaseModel = loaders[name]()
    return table


# ------------------------------------------------------------------------------------------ checks


def _references(entries: Entries, shadows: Sequence[tuple[BaseModel, Origin]]) -> list[ContentIssue]:
    """Every reference to an entry that does not exist (or is another kind), valid entries first, then
    the ones with errors (as far as their fields can be read)."""
    issues: list[ContentIssue] = []
    valid = [(model, origin) for (_, model), origin in entries.values() if model is not None]
    for model, origin in (*valid, *shadows):
        refs = getattr(model, "references", None)
        if refs is None:
            continue
        try:
            for path, kind, ref in refs():
                if isinstance(ref, str):
                    issues += _check_reference(entries, origin, path, kind, ref)
        except (AttributeError, TypeError):  # an entry with errors: what could be read was checked
            continue
    return issues


def _check_reference(
    entries: Entries, origin: Origin, path: tuple[str | int, ...], kind: str, ref: str
) -> list[ContentIssue]:
    found = entries.get(ref)
    if found is None:
        close = difflib.get_close_matches(ref, [k for k, v in entries.items() if v[0][0] == kind], n=3)
        hint = (
            f"; did you mean {', '.join(close)}?" if close else f" (`kassen content list {kind}` lists them)"
        )
        return [origin.issue(f"unknown {kind} {ref!r}{hint}", *path)]
    if found[0][0] != kind:
        return [origin.issue(f"{ref!r} is a {found[0][0]}, not a {kind}", *path)]
    return []


def _semantics(
    entries: Entries,
    house: Mapping[str, tuple[FlowDefault | None, Origin]],
    defense: DefenseRules,
) -> list[ContentIssue]:
    """Checks that need two entries at once: Attack A/B are attacks, grades exist, the reactions and
    movements the flow defaults name are of the right kind."""
    issues: list[ContentIssue] = []
    ranks = defense.equipment_grades.ranks

    def maneuver(ref: str) -> Maneuver | None:
        found = entries.get(ref)
        return found[0][1] if found is not None and isinstance(found[0][1], Maneuver) else None

    for (_, model), origin in entries.values():
        if isinstance(model, (Weapon, Armor, Shield)) and model.grade.strip().lower() not in ranks:
            issues.append(
                origin.issue(f"unknown equipment grade {model.grade!r}; known: {', '.join(ranks)}", "grade")
            )
        if isinstance(model, Weapon):
            for slot in ("attack_a", "attack_b"):
                m = maneuver(getattr(model, slot) or "")
                if m is not None and not m.attacks:
                    issues.append(origin.issue(f"{m.id!r} is a {m.kind.value} maneuver, not an attack", slot))
    for value, origin in house.values():
        if isinstance(value, Reactions):
            for slot, reaction in (
                ("parry", ReactionKind.PARRY),
                ("block", ReactionKind.BLOCK),
                ("evasion", ReactionKind.EVASION),
            ):
                m = maneuver(getattr(value, slot))
                if m is not None and (m.reaction is None or m.reaction.kind is not reaction):
                    issues.append(origin.issue(f"{m.id!r} is not a {reaction.value} defense technique", slot))
        if isinstance(value, ZoneTactics):
            wanted = {"breakthrough": MovementTo.ENEMY_HELD_ZONE, "core_exit": MovementTo.OUT_OF_CORE}
            for slot in ("walk", "run", "breakthrough", "core_exit"):
                m = maneuver(getattr(value, slot))
                if m is None:
                    continue
                if m.movement is None or (slot in wanted and m.movement.to is not wanted[slot]):
                    issues.append(
                        origin.issue(f"{m.id!r} is not the {slot.replace('_', ' ')} movement", slot)
                    )
        for path, kind, ref in value.references() if value is not None else ():
            issues += _check_reference(entries, origin, path, kind, ref)
    return issues


#: Skills a creature may have although no weapon, maneuver or trait of the catalog rolls them (the
#: bundled creatures' own). Any other skill nothing rolls is refused as a likely typo
#: (``swordmanship``: did you mean ``swordsmanship``?), since it would silently never count.
KNOWN_SKILLS = frozenset(
    {
        "archery", "brawling", "chain-weapons", "curses", "exorcism", "gunnery", "heavy-weapons",
        "infiltration", "ninjutsu", "onmyodo", "performance", "spear", "spirit", "swordsmanship",
        "throwing",
    }
)  # fmt: skip


def _skills_read(data: object) -> set[str]:
    """Every ``skill: NAME`` in an entry (a weapon's, a check's), at any depth."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "skill" and isinstance(value, str):
                found.add(value)
            else:
                found |= _skills_read(value)
    elif isinstance(data, list | tuple):
        for item in data:
            found |= _skills_read(item)
    return found


def _skill_paths(data: object, path: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], str]]:
    """Every ``skill: NAME`` in an entry with where it is (``("check", "skill")``)."""
    found: list[tuple[tuple[str | int, ...], str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "skill" and isinstance(value, str):
                found.append(((*path, key), value))
            else:
                found += _skill_paths(value, (*path, key))
    elif isinstance(data, list | tuple):
        for i, item in enumerate(data):
            found += _skill_paths(item, (*path, i))
    return found


def _rolled_skills(models: Iterable[BaseModel]) -> frozenset[str]:
    known = set(KNOWN_SKILLS)
    for model in models:
        if not isinstance(model, Creature):
            known |= _skills_read(model.model_dump(mode="json"))
    return frozenset(known)


def catalog_skills(catalog: Catalog) -> frozenset[str]:
    """The skills a creature of ``catalog`` may have: :data:`KNOWN_SKILLS` and every skill it rolls."""
    return _rolled_skills(entry for _, _, entry in catalog.entries())


def unknown_skill(skill: str, known: frozenset[str]) -> str:
    """Why a creature's skill is refused, with the nearest known one."""
    near = did_you_mean(skill, known) or f"; known: {', '.join(sorted(known))}"
    return f"unknown skill {skill!r} (nothing rolls it){near}"


def _unknown_skills(entries: Entries) -> list[ContentIssue]:
    """A creature's skill that nothing rolls and that is not one of :data:`KNOWN_SKILLS`; and a skill a
    weapon or a check rolls that no creature has, that is not one of them, and that is a letter or two
    from one that is (``skill: swordmanship`` on a weapon: whoever wields it would roll without the
    skill it meant). A skill of one's own far from every known one (a naginata's ``polearms``) is a
    new skill: accepted, and rolled without the skill by a creature that does not have it."""
    models = [(model, origin) for (_, model), origin in entries.values() if model is not None]
    known = _rolled_skills(model for model, _ in models)
    had = set(KNOWN_SKILLS)
    for model, _ in models:
        if isinstance(model, Creature):
            had |= set(model.skills)
    issues: list[ContentIssue] = []
    for model, origin in models:
        if isinstance(model, Creature):
            for skill in model.skills:
                if skill not in known:
                    issues.append(origin.issue(unknown_skill(skill, known), "skills", skill))
            continue
        for path, skill in _skill_paths(model.model_dump(mode="json", by_alias=True)):
            if skill in had:
                continue
            near = difflib.get_close_matches(skill, sorted(had), n=1, cutoff=MISSPELT)
            if near:
                message = f"unknown skill {skill!r} (no creature has it); did you mean {near[0]!r}?"
                issues.append(origin.issue(message, *path))
    return issues


#: How close (difflib's ratio) a new skill a weapon or check rolls may come to a known one before it is
#: refused as a misspelling of it: ``swordmanship`` is 0.96 from ``swordsmanship``, ``kenjutsuu`` 0.94
#: from ``kenjutsu``; a new skill such as ``polearms`` is no nearer than 0.62 to any.
MISSPELT = 0.85


def _missing_defaults(house: Mapping[str, tuple[FlowDefault | None, Origin]]) -> list[ContentIssue]:
    return [
        ContentIssue("(catalog)", f"house_defaults.{rule}", "missing: every flow gap needs its house default")
        for rule in FLOW_DEFAULTS
        if rule not in house
    ]


def _sort_key(issue: ContentIssue) -> tuple[str, int]:
    return issue.file, issue.line or 0


# ------------------------------------------------------------------------------------------ building


def catalog_content(layers: Sequence[Layer] = ()) -> Content[Catalog]:
    """The bundled catalog with each of ``layers`` merged over it in order (a scenario's own block
    last); raises :class:`ContentError` with every issue found. The bundled-only content is cached."""
    if not layers:
        return _bundled_content()
    return _build(layers)


@lru_cache(maxsize=1)
def _bundled_content() -> Content[Catalog]:
    return _build(())


def _build(layers: Sequence[Layer]) -> Content[Catalog]:
    bundled, bundled_parts = _bundled()
    per_layer: list[Sequence[Part]] = [bundled_parts]
    issues: list[ContentIssue] = []
    for layer in layers:
        parts, found = layer_parts(layer, SECTION_NAMES)
        per_layer.append(parts)
        issues += found
    validated = []
    for written in per_layer:
        v, found = _validate(written)
        validated.append(v)
        issues += found
    issues += _kind_changes(validated)
    entries, dup = merge_by_id([v.entries for v in validated])
    house, dup_house = merge_by_id([v.house for v in validated])
    issues += dup + dup_house
    tables, table_issues = _tables(per_layer)
    issues += table_issues
    view, view_issues = _visibility(per_layer)
    issues += view_issues
    defense = tables["defense"]
    assert isinstance(defense, DefenseRules)
    shadows = [shadow for v in validated for shadow in v.shadows]
    issues += _references(entries, shadows) + _semantics(entries, house, defense) + _missing_defaults(house)
    issues += _unknown_skills(entries)
    if issues:
        raise ContentError(sorted(issues, key=_sort_key))
    catalog = replace(_catalog(entries, house, tables), visibility=view)
    merged: dict[str, Any] = {name: {} for name in (*SECTIONS, HOUSE)}
    kinds = {kind: section for section, (kind, _) in SECTIONS.items()}
    for key, ((kind, model), _) in entries.items():
        assert model is not None
        dumped = model.model_dump(mode="json", by_alias=True)
        if kind == "creature" and dumped.get("check_penalty") == 0:
            # a field added with a default that changes nothing: left out, the hash of every catalog
            # that does not use it stays what it was (golden logs record it)
            del dumped["check_penalty"]
        merged[kinds[kind]][key] = dumped
    for rule, value in catalog.flow.items():
        merged[HOUSE][rule] = value.model_dump(mode="json", by_alias=True)
    for name, table in tables.items():
        merged[name] = table.model_dump(mode="json", by_alias=True)
    labels = [
        (label, layer_entries(written, _KEYS))
        for label, written in zip((bundled.label, *(layer.label for layer in layers)), per_layer, strict=True)
    ]
    inline = next((layer.data for layer in layers if layer.label == "scenario"), None)
    content = Content.build("sengoku", catalog, merged, labels, inline, unhashed=(VIEW,))
    return replace(content, tables=replace(catalog, content_hash=content.hash))


def _catalog(
    entries: Entries,
    house: Mapping[str, tuple[FlowDefault | None, Origin]],
    tables: Mapping[str, BaseModel],
) -> Catalog:
    by_kind: dict[str, dict[str, Any]] = {kind: {} for kind, _ in SECTIONS.values()}
    origins: dict[str, str] = {}
    for key, ((kind, model), origin) in entries.items():
        by_kind[kind][key] = model
        origins[key] = origin.where()
    flow = {rule: value for rule, (value, _) in house.items() if value is not None}
    origins.update({rule: origin.where() for rule, (_, origin) in house.items()})
    grades, defense, resolution = tables["grades"], tables["defense"], tables["resolution"]
    assert isinstance(grades, GradeTable) and isinstance(defense, DefenseRules)
    assert isinstance(resolution, ResolutionRules)
    return Catalog(
        weapons=by_kind["weapon"],
        armor=by_kind["armor"],
        shields=by_kind["shield"],
        maneuvers=by_kind["maneuver"],
        creatures=by_kind["creature"],
        traits=by_kind["trait"],
        debuffs=by_kind["debuff"],
        flow=flow,
        grades=grades,
        defense=defense,
        resolution=resolution,
        origins=origins,
        content_hash="",
    )


def load_catalog(content_dirs: Sequence[Path | str] = ()) -> Catalog:
    """The bundled catalog (cached), with each of ``content_dirs`` (a directory of YAML files, or one
    file) merged over it in order, overriding by id. Raises :class:`ContentError` with every issue."""
    layers = [read_layer(d, f"layer {i}") for i, d in enumerate(content_dirs, 1)]
    return catalog_content(layers).tables
