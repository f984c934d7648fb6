"""YAML bout scenarios: fighters, format, ground, rule overrides and policies → a runnable bout.

A scenario is validated like all content (unknown keys, bad values and unknown hit locations are errors
with file, line and field, all reported at once). Bundled scenarios live in ``kassen/arena/data/bouts``
and are found by name (``duel``); anything else is a path.

>>> s = load_scenario("duel")
>>> s.name, [f.id for f in s.state.fighters]
('Arena duel', ['ryu', 'ken'])
>>> chronicle = run_scenario(s, seed=7)
>>> chronicle.is_over()
True
"""

from __future__ import annotations

__all__ = [
    "FighterModel",
    "Scenario",
    "ScenarioModel",
    "bundled_scenarios",
    "load_scenario",
    "run_scenario",
]

import hashlib
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from kassen.arena.bout import RULESET, BoutState, new_bout
from kassen.arena.damage import Reduction
from kassen.arena.fighter import Fighter, GutsBonusPlan, LocationDR, Weapon, build_fighter
from kassen.arena.policies import ByFighter, HeuristicPolicy, Policy, ScriptedPolicy, first_legal
from kassen.arena.rules import ArenaRules, content_hash, load_rules
from kassen.arena.terms import CheckKind, DamageType, MatchFormat, Posture
from kassen.content.yamlio import StrictModel, load_text
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.events import Chronicle

_BOUTS = "kassen.arena.data.bouts"
Attribute = Literal["st", "dx", "iq", "ht", "per", "will"]


class WeaponModel(StrictModel):
    name: str = "fist"
    base: Literal["thrust", "swing", "none"] = "thrust"
    dice: int = Field(default=0, ge=0)
    adds: int = 0
    type: DamageType = DamageType.CRUSHING
    painful: bool = False


class DRModel(StrictModel):
    armor: int = Field(default=0, ge=0)
    bone: int | None = Field(default=None, ge=0)
    soft: int | None = Field(default=None, ge=0)


class ReductionModel(StrictModel):
    name: str
    divisor: int = Field(default=1, ge=1)
    subtract: int = Field(default=0, ge=0)


class GutsBonusModel(StrictModel):
    checks: tuple[CheckKind, ...]
    min_fp_after: int


class FighterModel(StrictModel):
    """One fighter of a scenario. What is left out comes from the data's ``fighter_defaults`` and
    ``combat`` defaults (AR.GAP.2): HP = ST, FP = HT, Move = (DX + HT) / 4, skill = DX, defence =
    (DX + HT) / 4 + 3, 70 kg, the default guts-bonus plan."""

    id: str = Field(min_length=1)
    name: str | None = None
    side: str = Field(min_length=1)
    st: int = Field(default=10, ge=1)
    dx: int = Field(default=10, ge=1)
    iq: int = Field(default=10, ge=1)
    ht: int = Field(default=10, ge=1)
    per: int = Field(default=10, ge=1)
    will: int = Field(default=10, ge=1)
    hp: int | None = Field(default=None, ge=1)
    fp: int | None = Field(default=None, ge=1)
    move: int | None = Field(default=None, ge=0)
    weight_kg: int | None = Field(default=None, ge=0)
    encumbrance: int = Field(default=0, ge=0, le=4)
    skill: int | None = None
    defense: int | None = None
    weapon: WeaponModel = WeaponModel()
    armor: dict[str, int | DRModel] = Field(default_factory=dict)
    reductions: tuple[ReductionModel, ...] = ()
    champion: bool = False
    holds_title: bool = False
    matches: int = Field(default=0, ge=0)
    age: int | None = Field(default=None, ge=0)
    reactions: tuple[int, ...] = ()
    guts_bonus: GutsBonusModel | None = None
    posture: Posture = Posture.STANDING
    altitude: Fraction = Field(default=Fraction(0), ge=0)
    policy: Literal["heuristic", "scripted", "first_legal"] = "heuristic"
    script: tuple[dict[str, Any], ...] = ()

    @field_validator("armor")
    @classmethod
    def _known_locations(cls, value: dict[str, int | DRModel]) -> dict[str, int | DRModel]:
        table = load_rules().locations
        out: dict[str, int | DRModel] = {}
        for name, dr in value.items():
            if name == "all":
                out[name] = dr
                continue
            try:
                out[table.find(name).key] = dr
            except KassenError as exc:
                raise ValueError(str(exc)) from None
        return out

    @field_validator("reactions")
    @classmethod
    def _reaction_range(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        low, high = load_rules().match.reactions.allowed_range
        for v in value:
            if not low <= v <= high:
                raise ValueError(f"reaction modifier {v} is outside {low}..{high} (AR.GAP.2)")
        return value

    def to_fighter(self, rules: ArenaRules | None = None) -> Fighter:
        """The fighter, what it leaves out taken from ``rules`` (the scenario's, overrides included)."""
        r = rules or load_rules()
        entries: dict[str, LocationDR] = {}
        everywhere = self.armor.get("all")
        if everywhere is not None:
            for key in r.locations.keys:
                entries[key] = _dr_entry(key, everywhere)
        for key, dr in self.armor.items():
            if key != "all":
                entries[key] = _dr_entry(key, dr)
        w = self.weapon
        plan = self.guts_bonus
        return build_fighter(
            self.id,
            self.side,
            name=self.name or self.id,
            rules=r,
            st=self.st,
            dx=self.dx,
            iq=self.iq,
            ht=self.ht,
            per=self.per,
            will=self.will,
            hp=self.hp,
            fp=self.fp,
            move=self.move,
            weight_kg=self.weight_kg,
            skill=self.skill,
            defense=self.defense,
            guts_bonus=None if plan is None else GutsBonusPlan(plan.checks, plan.min_fp_after),
            encumbrance=self.encumbrance,
            weapon=Weapon(w.name, w.base, w.dice, w.adds, w.type, w.painful),
            dr=tuple(entries[k] for k in r.locations.keys if k in entries),
            reductions=tuple(Reduction(x.name, x.divisor, x.subtract) for x in self.reductions),
            champion=self.champion,
            holds_title=self.holds_title,
            matches=self.matches,
            age=self.age,
            reactions=self.reactions,
        )


def _dr_entry(key: str, dr: int | DRModel) -> LocationDR:
    if isinstance(dr, int):
        if dr < 0:
            raise ContentError(ContentIssue("scenario", f"armor.{key}", "armor DR cannot be negative"))
        return LocationDR(key, dr)
    return LocationDR(key, dr.armor, dr.bone, dr.soft)


class ScenarioModel(StrictModel):
    name: str
    description: str = ""
    format: MatchFormat = MatchFormat.MATCH
    ground: str | None = None
    seed: int = 0
    max_actions: int = Field(default=5000, ge=1)
    rules_overrides: dict[str, Any] = Field(default_factory=dict)
    fighters: tuple[FighterModel, ...] = Field(min_length=2)

    @model_validator(mode="after")
    def _consistent(self) -> ScenarioModel:
        ids = [f.id for f in self.fighters]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"fighter ids must be unique: {', '.join(dupes)}")
        if len({f.side for f in self.fighters}) < 2:
            raise ValueError("fighters must be on at least two sides")
        rules = load_rules(self.rules_overrides or None)
        if self.ground is not None and self.ground not in rules.falling.falling.ground:
            raise ValueError(
                f"unknown ground {self.ground!r} (known: {', '.join(rules.falling.falling.ground)})"
            )
        return self


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario: the initial bout state, the policy that plays it, and what replay needs."""

    name: str
    description: str
    state: BoutState
    policy_factory: Any
    seed: int
    max_actions: int
    source_hash: str

    def policy(self) -> Policy:
        """A fresh policy (scripts start from their first entry)."""
        made: Policy = self.policy_factory()
        return made


def bundled_scenarios() -> tuple[str, ...]:
    """Names of the bundled scenarios."""
    return tuple(
        sorted(
            p.name.removesuffix(".yaml")
            for p in resources.files(_BOUTS).iterdir()
            if p.name.endswith(".yaml")
        )
    )


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A bundled scenario by name, or a YAML file by path."""
    text, file = _read(name_or_path)
    model = load_text(text, ScenarioModel, file)
    rules = load_rules(model.rules_overrides or None)
    fighters = [f.to_fighter(rules) for f in model.fighters]
    state = new_bout(
        fighters,
        format=model.format,
        ground=model.ground,
        overrides=model.rules_overrides or None,
        name=model.name,
        postures={f.id: f.posture for f in model.fighters},
        altitudes={f.id: f.altitude for f in model.fighters},
    )

    def factory() -> Policy:
        per: dict[str, Policy] = {}
        heuristic = HeuristicPolicy()
        for f in model.fighters:
            base: Policy = first_legal if f.policy == "first_legal" else heuristic
            per[f.id] = ScriptedPolicy({f.id: f.script}, base) if f.policy == "scripted" else base
        return ByFighter(per, heuristic)

    factory()  # parse the scripts now, so a bad script is a content error at load time
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return Scenario(model.name, model.description, state, factory, model.seed, model.max_actions, digest)


def _read(name_or_path: str | Path) -> tuple[str, str]:
    name = str(name_or_path)
    if name in bundled_scenarios():
        file = f"{name}.yaml"
        return resources.files(_BOUTS).joinpath(file).read_text(
            encoding="utf-8"
        ), f"kassen/arena/data/bouts/{file}"
    path = Path(name)
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except OSError as exc:
        known = ", ".join(bundled_scenarios())
        raise ContentError(
            ContentIssue(str(path), "(file)", f"cannot read: {exc.strerror} (bundled: {known})")
        ) from None


def run_scenario(scenario: Scenario, seed: int | None = None) -> Chronicle[BoutState, Any]:
    """Play the scenario to its end with its policies; the chronicle replays from its JSON."""
    used = scenario.seed if seed is None else seed
    chronicle: Chronicle[BoutState, Any] = Chronicle(
        RULESET,
        scenario.state,
        used,
        meta={"content": content_hash(), "scenario": scenario.name, "scenario_hash": scenario.source_hash},
    )
    chronicle.run(scenario.policy(), max_actions=scenario.max_actions)
    return chronicle
