"""The Sengoku catalog: weapons, armor, shields, maneuvers, creatures, traits, debuff sources and the
house defaults of the combat flow, loaded from YAML, validated, merged with the user's own content.

:func:`load_catalog` reads the bundled catalog (``data/catalog/*.yaml``, cached), then each user
directory (or file) given, in order, as a *layer* merged over the ones before it: an entry with the id
of an earlier layer's entry replaces it; a flow house default with the ``rule`` of an earlier one
replaces it; the ``grades``/``defense``/``resolution`` sections patch the bundled ``grades.yaml``,
``defense.yaml`` and ``resolution.yaml`` key by key. Every problem — invalid YAML, a key given twice,
an unknown field, a wrong type, a missing field, an id given twice in one layer, a reference to an entry
that does not exist — is collected and raised at once as one
:class:`~kassen.core.errors.ContentError`, each issue naming the file, the line and the field; nothing is
returned half-loaded.

>>> catalog = load_catalog()
>>> catalog.maneuver("thrust").cost, catalog.weapon("uchigatana").attack_b
(2, 'thrust')
>>> catalog.profile("oni").natural_armor
2
"""

from __future__ import annotations

__all__ = [
    "KINDS",
    "SECTIONS",
    "Catalog",
    "CatalogFile",
    "HouseDefaultView",
    "UnknownEntryError",
    "load_catalog",
]

import difflib
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from kassen.content.layers import Origin, deep_merge, merge_by_id, yaml_sources
from kassen.content.yamlio import HouseDefault, StrictModel, parse_yaml, validation_issues
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.sengoku.defense import DefenseRules, load_defense_rules
from kassen.sengoku.entries import (
    Armor,
    Creature,
    DebuffSource,
    Maneuver,
    ManeuverKind,
    MovementTo,
    ReactionKind,
    Shield,
    Trait,
    Weapon,
)
from kassen.sengoku.grades import GradeTable, load_grades
from kassen.sengoku.house import FLOW_DEFAULTS, FlowDefault, FlowDefaultEntry, Reactions, ZoneTactics
from kassen.sengoku.profile import ArmorKind, Attributes, CombatProfile, DefenseBonus, Grade
from kassen.sengoku.resolution import D100Table, ResolutionRules, load_resolution
from kassen.sengoku.technique import Technique, from_maneuver

#: The list sections of a catalog file, and the kind of entry each holds.
SECTIONS: dict[str, tuple[str, type[BaseModel]]] = {
    "weapons": ("weapon", Weapon),
    "armor": ("armor", Armor),
    "shields": ("shield", Shield),
    "maneuvers": ("maneuver", Maneuver),
    "creatures": ("creature", Creature),
    "traits": ("trait", Trait),
    "debuffs": ("debuff", DebuffSource),
}
#: Every kind of entry, in the order ``content list`` shows them.
KINDS: tuple[str, ...] = (*(kind for kind, _ in SECTIONS.values()), "house-default", "table")
_HOUSE = "house_defaults"
_PATCHES: dict[str, tuple[str, type[BaseModel]]] = {
    "grades": ("grades.yaml", GradeTable),
    "defense": ("defense.yaml", DefenseRules),
    "resolution": ("resolution.yaml", ResolutionRules),
}
_BUNDLED_PACKAGE = "kassen.sengoku.data"
_BUNDLED_DIR = "catalog"

_FLOW_ADAPTER: TypeAdapter[FlowDefault] = TypeAdapter(FlowDefaultEntry)

H = TypeVar("H", bound=FlowDefault)


class CatalogFile(StrictModel):
    """The format of one catalog file: any of these sections, each optional (for the JSON Schema)."""

    weapons: tuple[Weapon, ...] = ()
    armor: tuple[Armor, ...] = ()
    shields: tuple[Shield, ...] = ()
    maneuvers: tuple[Maneuver, ...] = ()
    creatures: tuple[Creature, ...] = ()
    traits: tuple[Trait, ...] = ()
    debuffs: tuple[DebuffSource, ...] = ()
    house_defaults: tuple[FlowDefaultEntry, ...] = ()
    grades: dict[str, Any] | None = Field(
        default=None,
        description="Patch of grades.yaml, merged key by key (e.g. grades: {veteran: {wounds: 3}}).",
    )
    defense: dict[str, Any] | None = Field(
        default=None,
        description="Patch of defense.yaml, merged key by key (e.g. debuffs: {each_round: renew}).",
    )
    resolution: dict[str, Any] | None = Field(
        default=None,
        description="Patch of resolution.yaml, merged key by key (wounds: {critical_reading: flat}).",
    )


class UnknownEntryError(KassenError):
    """An id the catalog does not hold (the message names the close matches or the known ids)."""

    code = "content.unknown_entry"


@dataclass(frozen=True, slots=True)
class HouseDefaultView:
    """One house default wherever it lives: its ``rule``, ``rationale``, where it is (``source``) and the
    values it sets (``value``, without the rationale)."""

    rule: str
    rationale: str
    source: str
    value: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "rationale": self.rationale,
            "source": self.source,
            "value": dict(self.value),
        }


# ------------------------------------------------------------------------------------------ loading


@dataclass(frozen=True, slots=True)
class _Source:
    """One YAML file of a layer: its name in errors and its text."""

    name: str
    text: str


@dataclass(slots=True)
class _Layer:
    """What one layer's files hold, validated entry by entry (``None`` for an entry with errors)."""

    entries: list[tuple[str, tuple[str, BaseModel | None], Origin]] = field(default_factory=list)
    house: list[tuple[str, FlowDefault | None, Origin]] = field(default_factory=list)
    patches: list[tuple[str, dict[str, Any], Origin]] = field(default_factory=list)
    #: Entries with errors, built without validation: their references are still checked, so that every
    #: problem is reported at once.
    shadows: list[tuple[BaseModel, Origin]] = field(default_factory=list)


def _read(path: Path) -> tuple[list[_Source], list[ContentIssue]]:
    if not path.exists():
        return [], [ContentIssue(str(path), "(file)", "no such file or directory")]
    sources, issues = [], []
    for p in yaml_sources(path):
        try:
            sources.append(_Source(str(p), p.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            issues.append(
                ContentIssue(str(p), "(file)", f"cannot read: {getattr(exc, 'strerror', None) or exc}")
            )
    if path.is_dir() and not sources and not issues:
        issues.append(ContentIssue(str(path), "(directory)", "holds no .yaml or .yml file"))
    return sources, issues


@lru_cache(maxsize=1)
def _bundled_sources() -> tuple[_Source, ...]:
    root = resources.files(_BUNDLED_PACKAGE).joinpath(_BUNDLED_DIR)
    prefix = f"{_BUNDLED_PACKAGE.replace('.', '/')}/{_BUNDLED_DIR}"
    files = sorted((f for f in root.iterdir() if f.name.endswith((".yaml", ".yml"))), key=lambda f: f.name)
    return tuple(_Source(f"{prefix}/{f.name}", f.read_text(encoding="utf-8")) for f in files)


def _item_issues(exc: ValidationError, origin: Origin, strip: str | None = None) -> list[ContentIssue]:
    if strip is None:
        return validation_issues(exc, origin.file, origin.node, prefix=origin.loc, label=origin.label)
    # A discriminated union puts the tag first in the error's location: drop it.
    errors = [
        {**err, "loc": tuple(err["loc"])[1:] if tuple(err["loc"])[:1] == (strip,) else err["loc"]}
        for err in exc.errors()
    ]
    return validation_issues(errors, origin.file, origin.node, prefix=origin.loc, label=origin.label)


def _parse_file(source: _Source, layer: _Layer) -> list[ContentIssue]:
    """Validate every entry of one file into ``layer``; return its issues."""
    try:
        data, node = parse_yaml(source.text, source.name)
    except ContentError as exc:
        return list(exc.issues)
    if data is None:
        return []
    if not isinstance(data, dict):
        return [ContentIssue(source.name, "(root)", "a catalog file is a mapping of sections", 1)]
    issues: list[ContentIssue] = []
    known = [*SECTIONS, _HOUSE, *_PATCHES]
    for section, value in data.items():
        here = Origin(source.name, node, (section,), str(section))
        if section in _PATCHES:
            if isinstance(value, dict):
                layer.patches.append((section, value, here))
            else:
                issues.append(here.issue(f"a patch of {_PATCHES[section][0]} is a mapping"))
            continue
        if section not in SECTIONS and section != _HOUSE:
            issues.append(here.issue(f"unknown section {section!r}; known: {', '.join(known)}"))
            continue
        if not isinstance(value, list):
            issues.append(here.issue("a section is a list of entries"))
            continue
        key = "rule" if section == _HOUSE else "id"
        for i, item in enumerate(value):
            raw = item.get(key) if isinstance(item, dict) else None
            label = f"{section}.{raw}" if isinstance(raw, str) and raw else f"{section}.{i}"
            origin = Origin(source.name, node, (section, i), label)
            if not isinstance(item, dict):
                issues.append(origin.issue("an entry is a mapping of fields"))
                continue
            if section == _HOUSE:
                issues += _add_house(item, raw, origin, layer)
            else:
                issues += _add_entry(section, item, raw, origin, layer)
    return issues


def _add_entry(
    section: str, item: dict[str, Any], raw: Any, origin: Origin, layer: _Layer
) -> list[ContentIssue]:
    kind, model = SECTIONS[section]
    try:
        entry: BaseModel | None = model.model_validate(item)
        issues: list[ContentIssue] = []
    except ValidationError as exc:
        entry, issues = None, _item_issues(exc, origin)
        known = {k: v for k, v in item.items() if k in model.model_fields}
        layer.shadows.append((model.model_construct(**known), origin))
    if isinstance(raw, str) and raw:
        layer.entries.append((raw, (kind, entry), origin))
    return issues


def _add_house(item: dict[str, Any], raw: Any, origin: Origin, layer: _Layer) -> list[ContentIssue]:
    try:
        entry: FlowDefault | None = _FLOW_ADAPTER.validate_python(item)
        issues: list[ContentIssue] = []
    except ValidationError as exc:
        entry, issues = None, _item_issues(exc, origin, strip=raw if isinstance(raw, str) else None)
    if isinstance(raw, str) and raw:
        layer.house.append((raw, entry, origin))
    return issues


def _kind_changes(layers: Sequence[_Layer]) -> list[ContentIssue]:
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


def _patched(
    name: str, base: BaseModel, patches: Sequence[tuple[str, dict[str, Any], Origin]]
) -> tuple[BaseModel, list[ContentIssue]]:
    mine = [(data, origin) for section, data, origin in patches if section == name]
    if not mine:
        return base, []
    merged = base.model_dump(mode="json", by_alias=True)
    for data, _ in mine:
        merged = deep_merge(merged, data)
    last = mine[-1][1]
    try:
        return type(base).model_validate(merged), []
    except ValidationError as exc:
        return base, _item_issues(exc, last)


def _references(
    entries: Mapping[str, tuple[tuple[str, BaseModel | None], Origin]],
    shadows: Sequence[tuple[BaseModel, Origin]],
) -> list[ContentIssue]:
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
    entries: Mapping[str, tuple[tuple[str, BaseModel | None], Origin]],
    origin: Origin,
    path: tuple[str | int, ...],
    kind: str,
    ref: str,
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
    entries: Mapping[str, tuple[tuple[str, BaseModel | None], Origin]],
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


def _missing_defaults(house: Mapping[str, tuple[FlowDefault | None, Origin]]) -> list[ContentIssue]:
    return [
        ContentIssue("(catalog)", f"house_defaults.{rule}", "missing: every flow gap needs its house default")
        for rule in FLOW_DEFAULTS
        if rule not in house
    ]


def _sort_key(issue: ContentIssue) -> tuple[str, int]:
    return issue.file, issue.line or 0


def _parse_layer(sources: Sequence[_Source]) -> tuple[_Layer, list[ContentIssue]]:
    layer, issues = _Layer(), []
    for source in sources:
        issues += _parse_file(source, layer)
    return layer, issues


@lru_cache(maxsize=1)
def _bundled_layer() -> tuple[_Layer, tuple[ContentIssue, ...]]:
    """The bundled files, parsed and validated once (each build works on a copy)."""
    layer, issues = _parse_layer(_bundled_sources())
    return layer, tuple(issues)


def _copy(layer: _Layer) -> _Layer:
    return _Layer(list(layer.entries), list(layer.house), list(layer.patches), list(layer.shadows))


def _build(layers_sources: Sequence[Sequence[_Source]], read_issues: list[ContentIssue]) -> Catalog:
    """Layer 0 is the bundled catalog; the others are the user's, in order."""
    bundled, bundled_issues = _bundled_layer()
    issues = [*bundled_issues, *read_issues]
    layers = [_copy(bundled)]
    for sources in layers_sources[1:]:
        layer, layer_issues = _parse_layer(sources)
        layers.append(layer)
        issues += layer_issues
    issues += _kind_changes(layers)
    entries, dup = merge_by_id([layer.entries for layer in layers])
    house, dup_house = merge_by_id([layer.house for layer in layers])
    issues += dup + dup_house
    patches = [p for layer in layers for p in layer.patches]
    grades, g_issues = _patched("grades", load_grades(), patches)
    defense, d_issues = _patched("defense", load_defense_rules(), patches)
    resolution, r_issues = _patched("resolution", load_resolution(), patches)
    issues += g_issues + d_issues + r_issues
    assert isinstance(grades, GradeTable) and isinstance(defense, DefenseRules)
    assert isinstance(resolution, ResolutionRules)
    shadows = [shadow for layer in layers for shadow in layer.shadows]
    issues += _references(entries, shadows) + _semantics(entries, house, defense) + _missing_defaults(house)
    if issues:
        raise ContentError(sorted(issues, key=_sort_key))
    digest = hashlib.sha256()
    for sources in layers_sources:
        for s in sources:
            digest.update(s.name.encode() + b"\0" + s.text.encode() + b"\0")
    by_kind: dict[str, dict[str, Any]] = {kind: {} for kind, _ in SECTIONS.values()}
    origins: dict[str, str] = {}
    for key, ((kind, model), origin) in entries.items():
        by_kind[kind][key] = model
        origins[key] = origin.where()
    flow = {rule: value for rule, (value, _) in house.items() if value is not None}
    origins.update({rule: origin.where() for rule, (_, origin) in house.items()})
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
        content_hash=digest.hexdigest(),
    )


@lru_cache(maxsize=1)
def _bundled_catalog() -> Catalog:
    return _build([_bundled_sources()], [])


def load_catalog(content_dirs: Sequence[Path | str] = ()) -> Catalog:
    """The bundled catalog (cached), with each of ``content_dirs`` (a directory of YAML files, or one
    file) merged over it in order, overriding by id. Raises :class:`ContentError` with every issue."""
    if not content_dirs:
        return _bundled_catalog()
    read_issues: list[ContentIssue] = []
    layers: list[Sequence[_Source]] = [_bundled_sources()]
    for d in content_dirs:
        sources, issues = _read(Path(d))
        layers.append(sources)
        read_issues += issues
    return _build(layers, read_issues)


# ------------------------------------------------------------------------------------------ catalog


def _section_defaults(model: BaseModel, source: str) -> Iterator[HouseDefaultView]:
    """The house defaults of a data file's sections, in file order: each section's ``house_default``
    (with the values it sets) and any field that is itself a house default (a reading)."""

    def values(part: BaseModel) -> dict[str, Any]:
        notes = {n for n in type(part).model_fields if isinstance(getattr(part, n), HouseDefault)}
        return part.model_dump(mode="json", exclude=notes, by_alias=True)

    own = getattr(model, "house_default", None)
    if isinstance(own, HouseDefault):
        yield HouseDefaultView(own.rule, own.rationale, source, values(model))
    for name in type(model).model_fields:
        part = getattr(model, name)
        if isinstance(part, HouseDefault):
            if name != "house_default":
                yield HouseDefaultView(part.rule, part.rationale, f"{source}: {name}", {})
            continue
        hd = getattr(part, "house_default", None) if isinstance(part, BaseModel) else None
        if isinstance(part, BaseModel) and isinstance(hd, HouseDefault):
            yield HouseDefaultView(hd.rule, hd.rationale, f"{source}: {name}", values(part))


@dataclass(frozen=True, slots=True, eq=False)
class Catalog:
    """Every Sengoku content entry, by kind and id, plus the data tables the rules read (``grades``,
    ``defense``, ``resolution``) and the flow house defaults by rule ID (``flow``).

    ``origins`` maps every id (and rule ID) to the ``file:line`` it came from; ``content_hash`` is a hash
    of every file read, for a replay to record which content it ran on (DESIGN principle 3).
    """

    weapons: Mapping[str, Weapon]
    armor: Mapping[str, Armor]
    shields: Mapping[str, Shield]
    maneuvers: Mapping[str, Maneuver]
    creatures: Mapping[str, Creature]
    traits: Mapping[str, Trait]
    debuffs: Mapping[str, DebuffSource]
    flow: Mapping[str, FlowDefault]
    grades: GradeTable
    defense: DefenseRules
    resolution: ResolutionRules
    origins: Mapping[str, str]
    content_hash: str

    # -- lookups -------------------------------------------------------------------------------------

    def _by_kind(self, kind: str) -> Mapping[str, Any]:
        return {
            "weapon": self.weapons,
            "armor": self.armor,
            "shield": self.shields,
            "maneuver": self.maneuvers,
            "creature": self.creatures,
            "trait": self.traits,
            "debuff": self.debuffs,
        }[kind]

    def _get(self, kind: str, key: str) -> Any:
        table = self._by_kind(kind)
        wanted = key.strip().lower()
        if wanted in table:
            return table[wanted]
        raise UnknownEntryError(_unknown(kind, key, list(table)))

    def weapon(self, key: str) -> Weapon:
        return self._get("weapon", key)  # type: ignore[no-any-return]

    def armor_entry(self, key: str) -> Armor:
        return self._get("armor", key)  # type: ignore[no-any-return]

    def shield(self, key: str) -> Shield:
        return self._get("shield", key)  # type: ignore[no-any-return]

    def maneuver(self, key: str) -> Maneuver:
        return self._get("maneuver", key)  # type: ignore[no-any-return]

    def creature(self, key: str) -> Creature:
        return self._get("creature", key)  # type: ignore[no-any-return]

    def trait(self, key: str) -> Trait:
        return self._get("trait", key)  # type: ignore[no-any-return]

    def debuff(self, key: str) -> DebuffSource:
        return self._get("debuff", key)  # type: ignore[no-any-return]

    def entries(self, kind: str | None = None) -> Iterator[tuple[str, str, BaseModel]]:
        """``(kind, id, entry)`` for every entry (of ``kind``), kinds in :data:`KINDS` order."""
        for k, _ in SECTIONS.values():
            if kind is None or kind == k:
                for key, entry in self._by_kind(k).items():
                    yield k, key, entry

    def entry(self, key: str) -> tuple[str, BaseModel]:
        """``(kind, entry)`` for any id."""
        wanted = key.strip().lower()
        for kind, k, entry in self.entries():
            if k == wanted:
                return kind, entry
        raise UnknownEntryError(_unknown("entry", key, [k for _, k, _ in self.entries()]))

    def maneuvers_of(self, kind: ManeuverKind) -> tuple[Maneuver, ...]:
        return tuple(m for m in self.maneuvers.values() if m.kind is kind)

    # -- house defaults ------------------------------------------------------------------------------

    def house_default(self, rule: str) -> FlowDefault:
        """The flow house default for ``rule`` (``SG.CNT.4``)."""
        found = self.flow.get(rule.strip().upper())
        if found is None:
            raise UnknownEntryError(_unknown("flow house default", rule, list(self.flow)))
        return found

    def default(self, model: type[H]) -> H:
        """The flow house default of type ``model``: ``catalog.default(TieOrder).order``."""
        rule = next(r for r, m in FLOW_DEFAULTS.items() if m is model)
        found = self.house_default(rule)
        assert isinstance(found, model)
        return found

    def house_defaults(self) -> tuple[HouseDefaultView, ...]:
        """Every house default kassen ships or the user set: the data tables' (grades, defense,
        resolution), the flow defaults, and the entries' own (priced maneuvers, classified weapons)."""
        views = [
            *_section_defaults(self.grades, "grades.yaml"),
            *_section_defaults(self.defense, "defense.yaml"),
            *_section_defaults(self.resolution, "resolution.yaml"),
        ]
        for rule, value in self.flow.items():
            views.append(
                HouseDefaultView(
                    rule,
                    value.rationale,
                    "house_defaults",
                    value.model_dump(mode="json", exclude={"rule", "rationale"}, exclude_defaults=True),
                )
            )
        for kind, key, entry in self.entries():
            hd = getattr(entry, "house_default", None)
            if isinstance(hd, HouseDefault):
                views.append(HouseDefaultView(hd.rule, hd.rationale, f"{kind} {key}", {}))
        return tuple(views)

    def house_defaults_for(self, rule: str) -> tuple[HouseDefaultView, ...]:
        wanted = rule.strip().upper()
        return tuple(v for v in self.house_defaults() if v.rule == wanted)

    # -- tables --------------------------------------------------------------------------------------

    def tables(self) -> dict[str, D100Table | FlowDefault]:
        """The d100 tables: the decisive moment (SG.CRT.4), the critical mistake (SG.FUM.3) and the yoma
        encounters (SG.LUL.3)."""
        return {
            "decisive-moment": self.resolution.decisive_moment,
            "critical-mistake": self.resolution.critical_mistake,
            "yoma-encounter": self.house_default("SG.LUL.3"),
        }

    # -- techniques ----------------------------------------------------------------------------------

    def technique_keys(self) -> tuple[str, ...]:
        """What :meth:`technique` accepts: attacking maneuvers, then weapons."""
        return (*(k for k, m in self.maneuvers.items() if m.attacks), *self.weapons)

    def technique(self, key: str, *, weapon: str | None = None) -> Technique:
        """The :class:`Technique` resolution and Aim Focus read, from one catalog entry.

        ``key`` is an attacking maneuver (used with ``weapon``, or the weapon whose license it is) or a
        weapon (its Attack A, with that weapon).
        """
        wanted = key.strip().lower()
        if wanted in self.weapons and weapon is None:
            w = self.weapons[wanted]
            return from_maneuver(self.maneuvers[w.attack_a], w)
        m = self.maneuvers.get(wanted)
        if m is None or not m.attacks:
            if m is not None:
                raise KassenError(f"{m.name} is a {m.kind.value} maneuver, not an attack (it has no Wounds)")
            raise UnknownEntryError(_unknown("weapon or technique", key, list(self.technique_keys())))
        used = weapon if weapon is not None else m.weapon
        return from_maneuver(m, self.weapon(used) if used else None)

    def technique_for(self, unit: str | Creature, key: str | None = None) -> Technique:
        """The technique ``key`` as ``unit`` uses it: a weapon id gives its Attack A; a maneuver is used
        with the weapon whose license it is, else the first of the unit's weapons that lists it, else the
        weapon in hand. Without ``key``: the Attack A of the weapon in hand (a Basic strike if none)."""
        c = self.creature(unit) if isinstance(unit, str) else unit
        if key is None:
            return self.technique(c.weapons[0]) if c.weapons else self.technique("strike")
        wanted = key.strip().lower()
        if wanted in self.weapons:
            return self.technique(wanted)
        m = self.maneuvers.get(wanted)
        if m is None or m.weapon is not None or not c.weapons:
            return self.technique(wanted)
        listing = [w for w in c.weapons if wanted in self.weapon(w).maneuver_ids()]
        return self.technique(wanted, weapon=(listing or list(c.weapons))[0])

    # -- units ---------------------------------------------------------------------------------------

    def max_energy(self, unit: str | Creature) -> int:
        """The unit's maximum Energy before armor (SG.BRT.0): its own, or its grade's house default.
        Apply the heavy-armor penalty with :func:`kassen.sengoku.energy.max_energy`."""
        c = self.creature(unit) if isinstance(unit, str) else unit
        if c.max_energy is not None:
            return c.max_energy
        from kassen.sengoku.house import MaxEnergy

        return self.default(MaxEnergy).by_grade[c.grade]

    def stance_bonus(self, key: str) -> DefenseBonus:
        """The non-armor Defense bonus a stance (or a barrier Kata) grants while maintained (SG.DEF.4)."""
        m = self.maneuver(key)
        if m.grants is None:
            raise KassenError(f"{m.name} grants no Defense: it is a {m.kind.value} maneuver, not a stance")
        return DefenseBonus(m.grants.kind, m.grants.value, m.name)

    def profile(
        self,
        unit: str | Creature,
        *,
        weapon: str | None = None,
        stances: Sequence[str] = (),
        name: str | None = None,
    ) -> CombatProfile:
        """The :class:`CombatProfile` of a unit template: grade, armor and shield (their aptitudes in the
        armor category, SG.DEF.3), natural armor, stat-block Defense and Wounds, Exorcism and Incorporeal
        Defense, attributes and skills, equipment grades (``weapon``, default its first weapon), and the
        Defense of the given ``stances`` (maneuver ids) as maintained."""
        c = self.creature(unit) if isinstance(unit, str) else unit
        armor = self.armor_entry(c.armor) if c.armor else None
        shield = self.shield(c.shield) if c.shield else None
        aptitudes = (*(armor.aptitudes if armor else ()), *(shield.aptitudes if shield else ()))
        held = [self.maneuver(s) for s in stances]
        bonuses = tuple(self.stance_bonus(m.id) for m in held if m.grants is not None and m.grants.value)
        spirit = sum(m.grants.incorporeal_defense for m in held if m.grants is not None)
        wielded = weapon if weapon is not None else (c.weapons[0] if c.weapons else None)
        w = self.weapon(wielded) if wielded else None
        return CombatProfile(
            name=name or c.name,
            grade=c.grade,
            armor=ArmorKind(armor.armor) if armor else ArmorKind.NONE,
            shield=shield is not None,
            natural_armor=c.natural_armor.value if c.natural_armor else 0,
            natural_armor_pierceable=c.natural_armor.pierceable if c.natural_armor else None,
            armor_bonus=sum(a.defense for a in aptitudes),
            bonuses=bonuses,
            defense_override=c.defense,
            wounds_max=c.wounds,
            weapon_grade=w.grade if w is not None and not w.natural else "ordinary",
            armor_grade=armor.grade if armor else (shield.grade if shield else "ordinary"),
            exorcism=c.exorcism,
            incorporeal_defense=c.incorporeal_defense
            + sum(a.incorporeal_defense for a in aptitudes)
            + spirit,
            attributes=Attributes(**c.attributes.model_dump()),
            skills=tuple(sorted(c.skills.items())),
            fate_points=c.fate_points,
            faction=c.faction,
        )

    def outfit(
        self,
        armor: str | None = None,
        *,
        shield: str | None = None,
        grade: Grade = Grade.VETERAN,
        stances: Sequence[str] = (),
        name: str = "unit",
    ) -> CombatProfile:
        """A unit of ``grade`` wearing catalog ``armor`` and ``shield`` (ids), holding ``stances``: the
        profile of "a heavy-armor enemy in Immovable Formation" without a creature template."""
        for key, getter in ((armor, self.armor_entry), (shield, self.shield)):
            if key is not None:
                getter(key)  # an unknown id names the known ones
        unit = Creature(id="unit", name=name, grade=grade, armor=armor, shield=shield)
        return self.profile(unit, stances=stances)

    def known_maneuvers(self, unit: str | Creature) -> tuple[str, ...]:
        """Every maneuver the unit can choose: its weapons' techniques, its own, its traits' grants."""
        c = self.creature(unit) if isinstance(unit, str) else unit
        ids: list[str] = []
        for w in c.weapons:
            ids += self.weapon(w).maneuver_ids()
        ids += c.maneuvers
        for t in c.traits:
            ids += self.trait(t).grants
        return tuple(dict.fromkeys(ids))


def _unknown(kind: str, key: str, known: list[str]) -> str:
    close = difflib.get_close_matches(key.strip().lower(), known, n=3)
    if close:
        return f"unknown {kind} {key!r}; did you mean {', '.join(close)}? (known: {', '.join(known)})"
    return f"unknown {kind} {key!r} (known: {', '.join(known)})"
