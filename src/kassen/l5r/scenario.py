"""Duel scenarios in YAML: the characters, how each one decides, and how the duel ends.

A scenario is the core's scenario file (:mod:`kassen.core.scenario`: the header ``ruleset: l5r``, an
optional ``content:`` block) whose body :func:`setup` validates into the duel's
:class:`~kassen.core.ruleset.Setup`: unknown keys, bad values, unknown armor or weapons, script steps
naming no one — every problem reported at once with file, line and field. Bundled scenarios live in
``kassen/l5r/data/duels/``; ``kassen.open_fight("l5r/kakita-vs-hida")`` opens one, and
:func:`load_scenario` also reads a file without the header, and a ``tables:`` directory (see below).

Character stats: ``rings`` sets both Traits of a Ring, ``traits`` sets single Traits (default 2 each);
a Ring given in ``rings`` must still be the lower of its Traits.

Scripted characters (``policy: scripted``) play their ``script``
(:class:`~kassen.l5r.policies.SkippingScript`: each step is the :class:`~kassen.l5r.actions.Declare` it
plays, defaults filled in, so the script's place follows from the actions played and undo rewinds it; a
step no longer possible when its turn comes is skipped, with a logged note, and the next step or the
heuristic declares instead), and answer the rules' choices by their ``prefers``
(:class:`~kassen.l5r.policies.Prefers`); everyone else follows the heuristic.

Where they stand: ``position`` (feet along the line of the position model, :mod:`kassen.l5r.movement`),
by default the first side at 0 and the others ``core.movement.start_distance`` away. What they carry
from an earlier fight: ``wounds`` and ``disadvantages`` (a maim's lasting ones, with their effects:
:mod:`kassen.l5r.aftermath`).

>>> fight = run_duel("kakita-vs-hida", seed=1)
>>> fight.over, fight.result.winner in {"Crane", "Crab"}
(True, True)
"""

from __future__ import annotations

__all__ = [
    "CharacterModel",
    "ScenarioModel",
    "ScriptStep",
    "WeaponModel",
    "bundled_scenarios",
    "load_scenario",
    "run_duel",
    "setup",
]

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from kassen.content.content import Content, read_layer
from kassen.content.layers import deep_merge
from kassen.content.loader import layer_parts, merge_tables
from kassen.content.yamlio import StrictModel, refuse_too_many, validation_issues
from kassen.core.errors import ContentError, ContentIssue, did_you_mean
from kassen.core.fastreplace import replace
from kassen.core.fight import Fight
from kassen.core.policy import ByActor, Policy
from kassen.core.ruleset import Setup
from kassen.core.scenario import ScenarioSource, open_fight, read_scenario
from kassen.core.scenario import bundled_scenarios as core_bundled
from kassen.i18n import S_
from kassen.l5r.actions import Act, Action, ActKind, Attack, Declaration, Declare
from kassen.l5r.character import Character, FighterId, Weapon
from kassen.l5r.content import load_content
from kassen.l5r.domain import Position, Rank, SkillRank, Tn, WoundCount
from kassen.l5r.injuries import with_disadvantage
from kassen.l5r.policies import Heuristic, Preferences, Prefers, SkippingScript
from kassen.l5r.state import DuelState, Fighter
from kassen.l5r.tables import (
    SECTIONS,
    VIEW_SECTIONS,
    L5Tables,
    Location,
    RingName,
    SpecialAttackName,
    TraitName,
    unknown_weapon_skill,
)
from kassen.l5r.turn import shared_characters

#: Most actions of an auto-played duel.
MAX_ACTIONS = 20_000
_TRAITS = (
    "stamina",
    "willpower",
    "strength",
    "perception",
    "agility",
    "intelligence",
    "reflexes",
    "awareness",
)


class WeaponModel(StrictModel):
    name: str = "weapon"
    damage: str = Field(pattern=r"^[0-9]+k[0-9]+$")
    skill: str


class ScriptStep(StrictModel):
    """One scripted declaration: ``attack: NAME`` with its raises, or ``do: KIND`` (``target`` for aid)."""

    attack: str | None = None
    damage_raises: int = Field(default=0, ge=0, le=100)
    called_shot: Location | None = None
    special: SpecialAttackName | None = None
    full_attack: bool = False
    obstructs: str | None = None
    do: ActKind | None = None
    target: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> ScriptStep:
        if (self.attack is None) == (self.do is None) or self.do is ActKind.ATTACK:
            raise ValueError(S_("a step is either `attack: NAME` or `do: KIND` (not attack)"))
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


class CharacterModel(StrictModel):
    name: str = Field(min_length=1)
    side: str | None = None
    rings: dict[RingName, Rank] = Field(default_factory=dict)
    traits: dict[TraitName, Rank] = Field(default_factory=dict)
    void: Rank = 2
    insight_rank: Rank = 1
    skills: dict[str, SkillRank] = Field(default_factory=dict, max_length=200)
    weapon: str | WeaponModel = "katana"
    armor: str = "none"
    tn_to_be_hit: Tn | None = None
    hazard_behind: bool = False
    wounds: WoundCount = 0
    disadvantages: list[str] = Field(
        default_factory=list,
        description="Lasting disadvantages the character carries into the duel (a maim's: Lame, "
        "Missing Limb...), with their effects (called_shots.disadvantages).",
    )
    position: Position | None = Field(
        default=None,
        description="Where the character stands, in feet along the line, -1,000 to 1,000 (default: the "
        "first side at 0, the others core.movement.start_distance away).",
    )
    policy: Literal["heuristic", "scripted"] = "heuristic"
    script: list[ScriptStep] = Field(default_factory=list)
    prefers: Preferences = Field(default_factory=Preferences)


#: The most characters a duel fields (the ruleset's ``max_units``); a file with more is refused before
#: they are read.
MAX_UNITS = 100


class ScenarioModel(StrictModel):
    name: str = Field(min_length=1)  # a title to print (an empty one read "(seed 7): winner...")
    description: str = ""
    ends_at: Literal["out", "first_blood"] = "out"
    max_turns: int = Field(default=30, ge=1, le=1000)
    seed: int | None = Field(default=None, ge=0, le=(1 << 64) - 1)
    tables: str | None = Field(
        default=None,
        description="A directory of table overrides (core.yaml, called_shots.yaml, special_attacks.yaml), "
        "relative to this file; read by `kassen l5r duel` (elsewhere, give it as --content DIR).",
    )
    characters: list[CharacterModel] = Field(min_length=2)

    @model_validator(mode="before")
    @classmethod
    def _unit_limit(cls, data: Any) -> Any:
        refuse_too_many(data, "characters", MAX_UNITS, "a roll-and-keep duel")
        return data

    @model_validator(mode="after")
    def _names_and_sides(self) -> ScenarioModel:
        names = [c.name for c in self.characters]
        if len(set(names)) != len(names):
            raise ValueError(S_("character names must be unique"))
        if len({c.side or c.name for c in self.characters}) < 2:
            raise ValueError(S_("a duel needs at least two sides"))
        return self


def _character(
    m: CharacterModel, i: int, tables: L5Tables, src: ScenarioSource, issues: list[ContentIssue]
) -> Character:
    where = ("characters", i)
    traits: dict[str, int] = dict.fromkeys(_TRAITS, 2)
    for ring, value in m.rings.items():
        for trait in tables.core.rings[ring]:
            traits[trait] = value
    for trait, value in m.traits.items():
        traits[trait] = value
    for ring, value in m.rings.items():
        a, b = tables.core.rings[ring]
        if min(traits[a], traits[b]) != value:
            issues.append(
                src.issue(
                    f"{ring} {value} is not the lower of {a} {traits[a]} and {b} {traits[b]}",
                    *where,
                    "rings",
                    ring,
                )
            )
    weapon = Weapon("unarmed", 0, 0, "")  # replaced below, or the content error is reported
    if isinstance(m.weapon, str):
        row = tables.core.weapons.get(m.weapon)
        if row is None:
            known = ", ".join(sorted(tables.core.weapons))
            issues.append(
                src.issue(
                    f"unknown weapon {m.weapon!r} (known: {known})"
                    f"{did_you_mean(m.weapon, tables.core.weapons)}; or give damage and skill",
                    *where,
                    "weapon",
                )
            )
        else:
            x, y = (int(v) for v in row.damage.split("k"))
            weapon = Weapon(m.weapon, x, y, row.skill)
    else:
        x, y = (int(v) for v in m.weapon.damage.split("k"))
        if y > x or y < 1:
            issues.append(src.issue(f"cannot keep {y} of {x} dice", *where, "weapon", "damage"))
        why = unknown_weapon_skill(m.weapon.skill, tables.core.skill_names())
        if why is not None:
            issues.append(src.issue(why, *where, "weapon", "skill"))
        weapon = Weapon(m.weapon.name, x, y, m.weapon.skill)
    if m.armor not in tables.core.tn_to_be_hit.armor:
        known = ", ".join(sorted(tables.core.tn_to_be_hit.armor))
        near = did_you_mean(m.armor, tables.core.tn_to_be_hit.armor)
        issues.append(src.issue(f"unknown armor {m.armor!r} (known: {known}){near}", *where, "armor"))
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


def _known_skills(model: ScenarioModel, tables: L5Tables) -> frozenset[str]:
    """The skills a character may list: the game's (the tables' ``core.skills.known`` and the skills its
    rules roll by name; every weapon's skill, of the tables or inline, is one of them). Any other name is
    refused as a likely typo (``kenjutsuu``), since an unknown skill would silently count as 0; a skill
    of your own table goes in ``known`` in a layer."""
    return tables.core.skill_names()


def _unknown_skill(name: str, known: frozenset[str]) -> str:
    close = difflib.get_close_matches(name.lower(), sorted(known), n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(sorted(known))}"
    return f"unknown skill {name!r} (it would count as 0); {hint}"


def setup(scenario: ScenarioSource, content: Content[L5Tables]) -> Setup[DuelState, Action]:
    """The scenario's body validated into the duel: the initial state, the title, the seed it states
    (None when it gives none), the action limit and the scenario's policies. Raises
    :class:`ContentError` with every problem found."""
    try:
        model = ScenarioModel.model_validate(dict(scenario.data))
    except ValidationError as exc:
        raise ContentError(validation_issues(exc, scenario.file, scenario.node)) from None
    tables = content.tables
    issues: list[ContentIssue] = []
    if model.tables is not None:
        issues.append(
            scenario.issue(
                "`tables:` is read by `kassen l5r duel`; elsewhere give the directory as --content DIR, "
                "or write the tables in the scenario's `content:` block",
                "tables",
            )
        )
    names = {c.name for c in model.characters}
    known_skills = _known_skills(model, tables)
    for i, m in enumerate(model.characters):
        for skill in m.skills:
            if skill not in known_skills:
                issues.append(
                    scenario.issue(_unknown_skill(skill, known_skills), "characters", i, "skills", skill)
                )
    fighters = []
    first_side = model.characters[0].side or model.characters[0].name
    known = tables.called_shots.disadvantages.effects
    for i, m in enumerate(model.characters):
        default = 0 if (m.side or m.name) == first_side else tables.core.movement.start_distance
        f = Fighter(
            _character(m, i, tables, scenario, issues),
            wounds=m.wounds,
            position=default if m.position is None else m.position,
        )
        for j, name in enumerate(m.disadvantages):
            if name not in known:
                issues.append(
                    scenario.issue(
                        f"unknown disadvantage {name!r} (known: {', '.join(sorted(known))})"
                        + did_you_mean(name, known),
                        "characters",
                        i,
                        "disadvantages",
                        j,
                    )
                )
            else:
                f = with_disadvantage(f, name, tables, 0)
        fighters.append(f)
        for j, step in enumerate(m.script):
            for field, value in (
                ("attack", step.attack),
                ("obstructs", step.obstructs),
                ("target", step.target),
            ):
                if value is not None and value not in names:
                    issues.append(
                        scenario.issue(
                            f"no character named {value!r}{did_you_mean(value, names)}",
                            "characters",
                            i,
                            "script",
                            j,
                            field,
                        )
                    )
    if issues:
        raise ContentError(issues)
    state = DuelState(
        fighters=tuple(fighters), name=model.name, ends_at=model.ends_at, max_turns=model.max_turns
    )
    scripted = [m for m in model.characters if m.policy == "scripted"]
    scripts = {
        m.name: tuple(Declare(FighterId(m.name), step.declaration()) for step in m.script) for m in scripted
    }

    def policy() -> Policy[DuelState, Action]:
        heuristic = Heuristic()
        own: dict[str, Policy[DuelState, Action]] = {m.name: Prefers(m.prefers, heuristic) for m in scripted}
        return SkippingScript(scripts, ByActor(own, heuristic))

    return Setup(shared_characters(state, content.tables), model.name, model.seed, MAX_ACTIONS, policy)


# -- the ruleset's own reading of a scenario -------------------------------------------------------------
def load_scenario(source: str | Path, *, text: str | None = None) -> ScenarioSource:
    """Read a roll-and-keep scenario (a bundled name, ``l5r/NAME`` or a path; the ``ruleset: l5r``
    header may be left out). A ``tables: DIR`` directory (relative to the file) becomes part of the
    scenario's own content, under its ``content:`` block: the fight's chronicle records it, so a replay
    needs nothing else."""
    src = read_scenario(source, ruleset="l5r", text=text)
    tables = src.data.get("tables")
    if tables is None:
        return src
    if not isinstance(tables, str) or not tables:
        raise ContentError(src.issue("`tables:` names a directory of table overrides", "tables"))
    layer = read_layer(Path(src.file).parent / tables, "tables")
    load_content([layer])  # the directory alone first: its errors name its own files and lines
    sections = (*SECTIONS, *VIEW_SECTIONS)
    parts, _ = layer_parts(layer, sections, by_stem=True)
    merged, _ = merge_tables([parts], sections)
    for key, value in (src.content or {}).items():
        old = merged.get(key)
        merged[key] = (
            deep_merge(old, value) if isinstance(old, Mapping) and isinstance(value, Mapping) else value
        )
    body = {k: v for k, v in src.data.items() if k != "tables"}
    return replace(src, data=body, content=merged)


def run_duel(
    scenario: str | Path | ScenarioSource,
    seed: int | None = None,
    *,
    content: Sequence[str | Path] = (),
    policy: Policy[DuelState, Action] | None = None,
) -> Fight[DuelState, Action]:
    """Play ``scenario`` (default seed: the scenario's) to its end with its policies (or ``policy``)."""
    src = scenario if isinstance(scenario, ScenarioSource) else load_scenario(scenario)
    fight: Fight[DuelState, Action] = open_fight(src, seed=seed, content=content, policy=policy)
    fight.autoplay()
    return fight


def bundled_scenarios() -> tuple[str, ...]:
    """Names of the bundled duels (``kassen l5r duel NAME``)."""
    return tuple(s.name for s in core_bundled("l5r"))
