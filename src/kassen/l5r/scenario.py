"""Duel scenarios in YAML: the characters, how each one decides, and how the duel ends.

A scenario file is validated at the boundary (unknown keys, bad values, unknown armor or weapons,
script steps naming no one: every problem reported at once with file, line and field) and becomes a
:class:`Scenario`: the initial :class:`~kassen.l5r.state.DuelState` plus each character's script and
preferences. Bundled scenarios live in ``kassen/l5r/data/duels/``.

Character stats: ``rings`` sets both Traits of a Ring, ``traits`` sets single Traits (default 2 each);
a Ring given in ``rings`` must still be the lower of its Traits.
"""

from __future__ import annotations

__all__ = [
    "CharacterModel",
    "Scenario",
    "ScenarioModel",
    "ScriptStep",
    "bundled_scenarios",
    "load_scenario",
    "scenario_from_model",
]

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from kassen.content.yamlio import StrictModel, load_model, load_text
from kassen.core.errors import ContentError, ContentIssue
from kassen.l5r.actions import Act, ActKind, Attack, Declaration
from kassen.l5r.character import Character, FighterId, Weapon
from kassen.l5r.state import DuelState, Fighter
from kassen.l5r.tables import L5Tables, Location, RingName, SpecialAttackName, TraitName, load_tables


class WeaponModel(StrictModel):
    name: str = "weapon"
    damage: str = Field(pattern=r"^\d+k\d+$")
    skill: str


class ScriptStep(StrictModel):
    """One scripted declaration: ``attack: NAME`` with its raises, or ``do: KIND`` (``target`` for aid)."""

    attack: str | None = None
    damage_raises: int = Field(default=0, ge=0)
    called_shot: Location | None = None
    special: SpecialAttackName | None = None
    full_attack: bool = False
    obstructs: str | None = None
    do: ActKind | None = None
    target: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> ScriptStep:
        if (self.attack is None) == (self.do is None) or self.do is ActKind.ATTACK:
            raise ValueError("a step is either `attack: NAME` or `do: KIND` (not attack)")
        return self

    def declaration(self) -> Declaration:
        if self.attack is not None:
            return Attack(
                FighterId(self.attack),
                self.damage_raises,
                self.called_shot,
                self.special,
                self.full_attack,
                FighterId(self.obstructs) if self.obstructs else None,
            )
        assert self.do is not None
        return Act(self.do, FighterId(self.target) if self.target else None)


class Preferences(StrictModel):
    """How a scripted character answers the rules' choices (the heuristic decides what is left open)."""

    injuries: list[str] = Field(default_factory=list)
    corps_a_corps: Literal["disengage", "struggle"] | None = None
    drive: Literal["give_way", "refuse"] | None = None


class CharacterModel(StrictModel):
    name: str = Field(min_length=1)
    side: str | None = None
    rings: dict[RingName, int] = Field(default_factory=dict)
    traits: dict[TraitName, int] = Field(default_factory=dict)
    void: int = Field(default=2, ge=1)
    insight_rank: int = Field(default=1, ge=1)
    skills: dict[str, int] = Field(default_factory=dict)
    weapon: str | WeaponModel = "katana"
    armor: str = "none"
    tn_to_be_hit: int | None = None
    hazard_behind: bool = False
    wounds: int = Field(default=0, ge=0)
    policy: Literal["heuristic", "scripted"] = "heuristic"
    script: list[ScriptStep] = Field(default_factory=list)
    prefers: Preferences = Field(default_factory=Preferences)

    @model_validator(mode="after")
    def _positive(self) -> CharacterModel:
        if any(v < 1 for v in (*self.rings.values(), *self.traits.values())):
            raise ValueError("Rings and Traits are at least 1")
        if any(v < 0 for v in self.skills.values()):
            raise ValueError("skill ranks are 0 or more")
        return self


class ScenarioModel(StrictModel):
    name: str
    description: str = ""
    ends_at: Literal["out", "first_blood"] = "out"
    max_turns: int = Field(default=30, ge=1, le=1000)
    seed: int | None = None
    tables: str | None = None
    characters: list[CharacterModel] = Field(min_length=2)

    @model_validator(mode="after")
    def _names_and_sides(self) -> ScenarioModel:
        names = [c.name for c in self.characters]
        if len(set(names)) != len(names):
            raise ValueError("character names must be unique")
        if len({c.side or c.name for c in self.characters}) < 2:
            raise ValueError("a duel needs at least two sides")
        return self


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded duel: its initial state, scripts and preferences, and where it came from."""

    state: DuelState
    scripts: tuple[tuple[FighterId, tuple[Declaration, ...]], ...]
    preferences: tuple[tuple[FighterId, Preferences], ...]
    scripted: tuple[FighterId, ...]
    seed: int | None
    file: str
    description: str = ""

    def script(self, name: FighterId) -> tuple[Declaration, ...]:
        return dict(self.scripts).get(name, ())

    def prefers(self, name: FighterId) -> Preferences:
        return dict(self.preferences).get(name, Preferences())


def _character(
    m: CharacterModel, tables: L5Tables, file: str, where: str, issues: list[ContentIssue]
) -> Character:
    traits: dict[str, int] = {
        t: 2
        for t in (
            "stamina",
            "willpower",
            "strength",
            "perception",
            "agility",
            "intelligence",
            "reflexes",
            "awareness",
        )
    }
    for ring, value in m.rings.items():
        for trait in tables.core.rings[ring]:
            traits[trait] = value
    for trait, value in m.traits.items():
        traits[trait] = value
    for ring, value in m.rings.items():
        a, b = tables.core.rings[ring]
        if min(traits[a], traits[b]) != value:
            issues.append(
                ContentIssue(
                    file,
                    f"{where}.rings.{ring}",
                    f"{ring} {value} is not the lower of {a} {traits[a]} and {b} {traits[b]}",
                )
            )
    weapon = Weapon("unarmed", 0, 0, "")  # replaced below, or the content error is reported
    if isinstance(m.weapon, str):
        row = tables.core.weapons.get(m.weapon)
        if row is None:
            issues.append(
                ContentIssue(
                    file,
                    f"{where}.weapon",
                    f"unknown weapon {m.weapon!r} (known: "
                    f"{', '.join(sorted(tables.core.weapons))}); or give damage and skill",
                )
            )
        else:
            x, y = (int(v) for v in row.damage.split("k"))
            weapon = Weapon(m.weapon, x, y, row.skill)
    else:
        x, y = (int(v) for v in m.weapon.damage.split("k"))
        if y > x or y < 1:
            issues.append(ContentIssue(file, f"{where}.weapon.damage", f"cannot keep {y} of {x} dice"))
        weapon = Weapon(m.weapon.name, x, y, m.weapon.skill)
    if m.armor not in tables.core.tn_to_be_hit.armor:
        issues.append(
            ContentIssue(
                file,
                f"{where}.armor",
                f"unknown armor {m.armor!r} (known: {', '.join(sorted(tables.core.tn_to_be_hit.armor))})",
            )
        )
    return Character(
        name=FighterId(m.name),
        side=m.side or m.name,
        void=m.void,
        insight_rank=m.insight_rank,
        skills=tuple(sorted(m.skills.items())),
        weapon=weapon,
        armor=m.armor,
        tn_to_be_hit=m.tn_to_be_hit,
        hazard_behind=m.hazard_behind,
        **traits,
    )


def scenario_from_model(
    model: ScenarioModel, file: str = "<scenario>", tables: L5Tables | None = None
) -> Scenario:
    """Build the duel; raises :class:`ContentError` with every problem found."""
    if tables is None:
        base = Path(file).parent if file and not file.startswith("<") else Path(".")
        tables = load_tables(base / model.tables) if model.tables else load_tables()
    issues: list[ContentIssue] = []
    names = {c.name for c in model.characters}
    fighters = []
    for i, m in enumerate(model.characters):
        where = f"characters.{i}"
        fighters.append(Fighter(_character(m, tables, file, where, issues), wounds=m.wounds))
        for j, step in enumerate(m.script):
            for field, value in (
                ("attack", step.attack),
                ("obstructs", step.obstructs),
                ("target", step.target),
            ):
                if value is not None and value not in names:
                    issues.append(
                        ContentIssue(file, f"{where}.script.{j}.{field}", f"no character named {value!r}")
                    )
    if issues:
        raise ContentError(issues)
    state = DuelState(
        tables=tables,
        fighters=tuple(fighters),
        name=model.name,
        ends_at=model.ends_at,
        max_turns=model.max_turns,
    )
    return Scenario(
        state=state,
        scripts=tuple(
            (FighterId(m.name), tuple(s.declaration() for s in m.script)) for m in model.characters
        ),
        preferences=tuple((FighterId(m.name), m.prefers) for m in model.characters),
        scripted=tuple(FighterId(m.name) for m in model.characters if m.policy == "scripted"),
        seed=model.seed,
        file=file,
        description=model.description,
    )


def bundled_scenarios() -> tuple[str, ...]:
    """Names of the bundled duels (``kassen l5r duel NAME``)."""
    folder = resources.files("kassen.l5r.data").joinpath("duels")
    return tuple(sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml")))


def load_scenario(source: str | Path, tables_dir: str | Path | None = None) -> Scenario:
    """Load a scenario from a file path, or a bundled one by name (``kakita-vs-hida``)."""
    path = Path(source)
    tables = load_tables(tables_dir) if tables_dir is not None else None
    if path.is_file():
        return scenario_from_model(load_model(path, ScenarioModel), str(path), tables)
    name = str(source).removesuffix(".yaml")
    if name in bundled_scenarios():
        text = (
            resources.files("kassen.l5r.data").joinpath("duels", f"{name}.yaml").read_text(encoding="utf-8")
        )
        file = f"kassen/l5r/data/duels/{name}.yaml"
        return scenario_from_model(load_text(text, ScenarioModel, file), file, tables)
    known = ", ".join(bundled_scenarios())
    raise ContentError(
        ContentIssue(
            str(source), "(file)", f"no such file, and no bundled duel of that name (bundled: {known})"
        )
    )
