"""The merged Sengoku catalog: weapons, armor, shields, maneuvers, creatures, traits, debuff sources, the
house defaults of the combat flow and the data tables the rules read, by kind and id.

A :class:`Catalog` is what :mod:`kassen.sengoku.catalog` builds from the bundled YAML and the user's
layers (``load_catalog``): lookups by id that name the close matches when an id is unknown, the house
defaults wherever they live, and what the rules build from entries (techniques, profiles, maximum Energy).

>>> from kassen.sengoku.catalog import load_catalog
>>> catalog = load_catalog()
>>> catalog.technique("thrust").tags.pierce, catalog.max_energy("kuro")
(2, 12)
"""

from __future__ import annotations

__all__ = [
    "KINDS",
    "SECTIONS",
    "Catalog",
    "CatalogFile",
    "HouseDefaultView",
    "UnknownEntryError",
    "ViewTable",
]

import difflib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from kassen.content.yamlio import HouseDefault, StrictModel
from kassen.core.errors import KassenError
from kassen.core.view import VisibilityModel
from kassen.i18n import S_
from kassen.sengoku.defense import DefenseRules
from kassen.sengoku.entries import (
    Armor,
    Creature,
    DebuffSource,
    Maneuver,
    ManeuverKind,
    Shield,
    Trait,
    Weapon,
)
from kassen.sengoku.grades import GradeTable
from kassen.sengoku.house import FLOW_DEFAULTS, FlowDefault, FlowDefaultEntry, MaxEnergy
from kassen.sengoku.profile import ArmorKind, Attributes, CombatProfile, DefenseBonus, Grade
from kassen.sengoku.resolution import D100Table, ResolutionRules
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
    visibility: dict[str, Any] | None = Field(
        default=None,
        description="Patch of visibility.yaml: what a side may not see of the others (state: [] opens it).",
    )


class ViewTable(VisibilityModel):
    """What a side may not see of the others (:mod:`kassen.core.view`; the section ``visibility``): the
    core's visibility table, with the other reading like every house default."""

    alternative: str


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

    ``origins`` maps every id (and rule ID) to the ``file:line`` it came from; ``content_hash`` is the hash
    of the merged, validated content (:class:`kassen.content.content.Content`), never of paths or texts.
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
    #: What a side may not see of the others (never in the content's hash).
    visibility: ViewTable | None = None

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
        v = self.visibility
        if v is not None:
            hidden = {
                "state": [r.path for r in v.state],
                "events": [f"{r.kind}: {', '.join(r.fields)}" for r in v.events],
            }
            views.append(
                HouseDefaultView(v.house_default.rule, v.house_default.rationale, "visibility.yaml", hidden)
            )
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
                raise KassenError(
                    S_(
                        "{name} is a {kind} maneuver, not an attack (it has no Wounds)",
                        name=m.name,
                        kind=m.kind.value,
                    )
                )
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
        return self.default(MaxEnergy).by_grade[c.grade]

    def stance_bonus(self, key: str) -> DefenseBonus:
        """The non-armor Defense bonus a stance (or a barrier Kata) grants while maintained (SG.DEF.4)."""
        m = self.maneuver(key)
        if m.grants is None:
            raise KassenError(
                S_(
                    "{name} grants no Defense: it is a {kind} maneuver, not a stance",
                    name=m.name,
                    kind=m.kind.value,
                )
            )
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
            check_penalty=c.check_penalty,
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
