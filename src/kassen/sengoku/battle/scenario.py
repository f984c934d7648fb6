"""Battle scenarios in YAML: the sides, the units (catalog creatures with overrides, or inline), where
they stand, how each one decides (scripted choices or the heuristic), the seed and the round limit.

A scenario file has the core's header (``ruleset: sengoku``, and optionally a ``content:`` layer of its
own); :func:`build_battle` validates its body against the content, every problem reported at once with
file, line, field and why (:class:`~kassen.core.errors.ContentError`), into a :class:`Scenario`: the
initial :class:`~kassen.sengoku.battle.state.BattleState`, each unit's script (the actions it plays, as
they will be applied), and the content it stands on. Bundled scenarios live in
``kassen/sengoku/data/scenarios/``; :func:`load_scenario` reads one by name or path
(:func:`kassen.core.scenario.read_scenario`), and :func:`kassen.open_fight` does the whole way to a fight.

.. code-block:: yaml

    ruleset: sengoku
    name: The count example
    seed: 1
    sides:
      - {id: party, name: The party, allies: true}
      - {id: yoma, name: The Oni}
    units:
      - {creature: genzaburo, side: party, zone: own-front, policy: scripted,
         script: [{breath: [{maneuver: horizontal-cut, target: oni}]}, {react: parry}]}
      - {creature: oni, side: yoma, zone: own-front}
"""

from __future__ import annotations

__all__ = [
    "Scenario",
    "ScenarioModel",
    "ScriptStep",
    "SideModel",
    "UnitModel",
    "UseModel",
    "build_battle",
    "bundled_scenarios",
    "load_scenario",
    "run_battle",
]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, model_validator

from kassen.content.content import Content, inline_layer, read_layer
from kassen.content.layers import deep_merge
from kassen.content.yamlio import StrictModel, refuse_too_many, validation_issues
from kassen.core.errors import ContentError, ContentIssue, did_you_mean
from kassen.core.events import canonical_json
from kassen.core.fastreplace import replace
from kassen.core.fight import Fight
from kassen.core.policy import Policy
from kassen.core.rng import fresh_seed
from kassen.core.ruleset import Setup, find_ruleset
from kassen.core.scenario import ScenarioSource, read_scenario
from kassen.core.scenario import bundled_scenarios as core_bundled
from kassen.sengoku.battle.actions import (
    GM,
    Action,
    BattlefieldChange,
    Breath,
    Decline,
    Environment,
    FateIntervention,
    FumbleExtras,
    Hold,
    LastBastion,
    Pass,
    React,
    Upkeep,
)
from kassen.sengoku.battle.casting import PLAIN_POLICIES, scenario_policy
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Side, Unit, Use, View, Zone, distinct_names
from kassen.sengoku.catalog import Catalog, UnknownEntryError, unknown_skill
from kassen.sengoku.domain import MAX_ROUNDS, Energy, MaxWounds, Rounds, Small
from kassen.sengoku.entries import Count, Creature

#: The most actions an auto-played battle may take.
MAX_ACTIONS = 50_000

Id = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]


class UseModel(StrictModel):
    """One maneuver of a scripted breath (see :class:`~kassen.sengoku.battle.state.Use`)."""

    maneuver: Id
    target: Id | None = None
    aim: Energy = 0
    to: Id | None = None
    squads: list[Id] = Field(default_factory=list)
    release: bool = False
    choice: Literal["wounds", "cohesion"] | None = None
    weapon: Id | None = None

    def use(self) -> Use:
        return Use(
            self.maneuver,
            self.target,
            self.aim,
            self.to,
            tuple(self.squads),
            self.release,
            self.choice,
            self.weapon,
        )


class UpkeepModel(StrictModel):
    maneuver: Id
    target: Id | None = None
    choice: Literal["wounds", "cohesion"] | None = None
    to: Id | None = None


class ScriptStep(StrictModel):
    """One scripted choice: ``breath: [uses]``, ``do: hold|pass|decline|last-bastion``, ``react:
    MANEUVER``, ``fate: DIE`` (1 or 2, Fate Intervention on the roll just made) or ``upkeep: {maneuver,
    target, choice, to}``."""

    breath: list[UseModel] | None = None
    do: Literal["hold", "pass", "decline", "last-bastion"] | None = None
    react: Id | None = None
    fate: Literal[1, 2] | None = None
    upkeep: UpkeepModel | None = None

    @model_validator(mode="after")
    def _one_choice(self) -> ScriptStep:
        given = [x for x in (self.breath, self.do, self.react, self.fate, self.upkeep) if x is not None]
        if len(given) != 1:
            raise ValueError(
                "a step is exactly one of `breath: [...]`, `do: hold|pass|decline|last-bastion`, `react:`,"
                " `fate:`, `upkeep:`"
            )
        if self.breath is not None and not self.breath:
            raise ValueError("a breath names at least one maneuver")
        return self

    def action(self, unit: str) -> Action:
        if self.breath is not None:
            return Breath(unit, tuple(u.use() for u in self.breath))
        if self.react is not None:
            return React(unit, self.react)
        if self.fate is not None:
            return FateIntervention(unit, self.fate - 1)
        if self.upkeep is not None:
            u = self.upkeep
            return Upkeep(unit, u.maneuver, u.target, u.choice, u.to)
        if self.do == "hold":
            return Hold(unit)
        if self.do == "decline":
            return Decline(unit)
        if self.do == "last-bastion":
            return LastBastion(unit)
        return Pass(unit)


class GmChange(StrictModel):
    """The GM changes the battlefield in a lull (SG.LUL.3): a catalog change on a zone."""

    change: Id
    zone: Id


class GmFumble(StrictModel):
    """The GM's extras on the next fumble (SG.FUM.2); ``to`` for a foot slip."""

    fumble: list[Id] = Field(min_length=1)
    to: Id | None = None


#: One step of the GM's script: ``roll`` the yoma table or ``skip`` a lull's environment (``none``
#: adds no extra to a fumble), a battlefield change, or a fumble's extras.
GmStep = Literal["roll", "skip", "none"] | GmChange | GmFumble


def _gm_action(step: GmStep) -> Action:
    if isinstance(step, GmChange):
        return BattlefieldChange(step.change, step.zone)
    if isinstance(step, GmFumble):
        return FumbleExtras(tuple(step.fumble), step.to)
    return Environment() if step == "roll" else Decline(GM)


class SideModel(StrictModel):
    id: Id
    name: str = ""
    allies: bool = Field(default=False, description="The players' side: it acts first in a tie (SG.CNT.4).")


class UnitModel(StrictModel):
    """A unit: ``creature`` (a catalog id) with optional ``overrides`` (Creature fields merged over it),
    or ``inline`` (a whole Creature). ``zone`` defaults to the side's start zone (SG.ZON.2)."""

    id: Id | None = None
    name: str | None = None
    creature: Id | None = None
    overrides: dict[str, Any] = Field(default_factory=dict)
    inline: dict[str, Any] | None = None
    side: Id
    zone: Id | None = None
    wounds: MaxWounds | None = None
    cohesion: Small | None = None
    armor_damage: Count = Field(
        default=0,
        description="Armor points an earlier [Break] took, gone until repaired (SG.BRK.2), 0 to 40.",
    )
    initiative: Energy = Field(default=0, description="0 to 30: +N on its first breath's count (SG.CNT.2)")
    initiative_round: int = Field(
        default=1,
        ge=1,
        le=MAX_ROUNDS,
        description="The round whose first breath the initiative +N applies to (SG.CNT.2: combat start, or "
        "the start of a round an effect names), 1 to 100.",
    )
    stances: list[Id] = Field(default_factory=list)
    policy: Literal["heuristic", "scripted", "random", "first-legal"] = "heuristic"
    script: list[ScriptStep] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_template(self) -> UnitModel:
        if (self.creature is None) == (self.inline is None):
            raise ValueError("a unit is either `creature: ID` (with optional `overrides`) or `inline: {...}`")
        if self.inline is not None and self.overrides:
            raise ValueError("`overrides` go with `creature`; an inline unit states its fields itself")
        if self.creature is None and self.id is None:
            raise ValueError("an inline unit needs an `id`")
        return self


#: The most units a battle fields (the ruleset's ``max_units``): a battle of 100 units takes about
#: 0.01 s an action (docs/sengoku/battle.md); a file with more is refused before its units are read.
MAX_UNITS = 100


class ScenarioModel(StrictModel):
    name: str = Field(min_length=1)
    description: str = ""
    seed: int | None = Field(default=None, ge=0, le=(1 << 64) - 1)
    rounds: Rounds | None = Field(default=None, description="The round limit (SG.END.1), 1 to 100.")
    yoma: bool = Field(default=False, description="The GM may roll the Yoma Encounter Table (SG.LUL.3).")
    changes: bool = Field(
        default=False, description="The GM may change the battlefield in the lull: fire, fog... (SG.LUL.3)."
    )
    high_ground: list[Id] = Field(default_factory=list)
    sides: list[SideModel] = Field(min_length=2, max_length=2)
    units: list[UnitModel] = Field(min_length=2)

    @model_validator(mode="before")
    @classmethod
    def _unit_limit(cls, data: Any) -> Any:
        refuse_too_many(data, "units", MAX_UNITS, "a sengoku battle")
        return data

    gm: list[GmStep] = Field(
        default_factory=list,
        description="The GM's choices in order: environment (roll, skip, a change) and fumble extras.",
    )


@dataclass(frozen=True)
class Scenario:
    """A battle made ready: its source, the content it stands on, the initial state, the scripts its
    policy plays (scripted units' by id, and the GM's environment choices under ``gm``), its seed."""

    source: ScenarioSource
    content: Content[BattleRules]
    state: BattleState
    scripts: Mapping[str, tuple[Action, ...]] = field(default_factory=dict)
    seed: int | None = None
    description: str = ""
    #: Units that play a policy of the core's by name (``random``, ``first-legal``).
    policies: Mapping[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.state.name

    @property
    def file(self) -> str:
        return self.source.file

    @property
    def rules(self) -> BattleRules:
        return self.content.tables

    @property
    def catalog(self) -> Catalog:
        return self.content.tables.catalog

    def policy(self) -> Policy[BattleState, Action]:
        """Scripted units (and the GM) play their scripts, then the heuristic; the others the heuristic."""
        return scenario_policy(self.rules, self.scripts, self.policies)

    def setup(self) -> Setup[BattleState, Action]:
        """What the core's ``open_fight`` needs (``Ruleset.setup``)."""
        return Setup(self.state, self.name, self.seed, MAX_ACTIONS, self.policy)

    def fight(
        self,
        seed: int | None = None,
        *,
        rounds: int | None = None,
        policy: Policy[BattleState, Action] | None = None,
    ) -> Fight[BattleState, Action]:
        """A fight at the start of this battle (as :func:`kassen.open_fight` opens it); ``rounds``
        replaces the round limit (SG.END.1), ``seed`` the scenario's (none: 64 random bits)."""
        state = self.state if rounds is None else replace(self.state, max_rounds=rounds)
        used = seed if seed is not None else (self.seed if self.seed is not None else fresh_seed())
        return Fight(
            find_ruleset("sengoku"),
            self.content,
            state,
            used,
            meta={"scenario": self.name, "source": self.source.name},
            policy=policy or self.policy(),
            max_actions=MAX_ACTIONS,
        )


class _Issues:
    """The problems found in a scenario, each with its file, field and (when the file has one) line."""

    def __init__(self, source: ScenarioSource) -> None:
        self.source = source
        self.items: list[ContentIssue] = []

    def add(self, message: str, *path: str | int) -> None:
        self.items.append(self.source.issue(message, *path))


def _creature(
    m: UnitModel, catalog: Catalog, issues: _Issues, at: tuple[str | int, ...], skills: frozenset[str]
) -> tuple[Creature | None, str]:
    """The unit's template and its ``spec`` (canonical JSON when inline or overridden, else "").

    The spec never holds the unit's Fate points: they live in the unit's own ``fate_points``, which the
    visibility table hides from the other sides (SG.FAT.1-2), and a copy in the spec would show them to
    every side (and change its view). The spec keeps the template's Fate points (0 for an inline unit),
    and a unit whose overrides change nothing else has no spec at all."""
    base: Creature | None = None
    if m.creature is not None:
        try:
            base = catalog.creature(m.creature)
        except UnknownEntryError as exc:
            issues.add(str(exc), *at, "creature")
            return None, ""
        if not m.overrides:
            return base, ""
        data = deep_merge(base.model_dump(mode="json"), m.overrides)
        where = (*at, "overrides")
    else:
        assert m.inline is not None
        data = {"id": m.id, "name": m.name or m.id, **m.inline}
        where = (*at, "inline")
    try:
        c = Creature.model_validate(data)
    except ValidationError as exc:
        issues.items += validation_issues(exc, issues.source.file, issues.source.node, prefix=where)
        return None, ""
    for skill in c.skills:
        if skill not in skills:
            issues.add(unknown_skill(skill, skills), *where, "skills", skill)
    for kind, ids in (("weapon", c.weapons), ("maneuver", c.maneuvers), ("trait", c.traits)):
        for ref in ids:
            try:
                catalog.entry(ref)
            except UnknownEntryError:
                issues.add(f"unknown {kind} {ref!r}", *where)
    for slot, equipment in (("armor", c.armor), ("shield", c.shield)):
        if equipment is not None:
            try:
                catalog.armor_entry(equipment) if slot == "armor" else catalog.shield(equipment)
            except UnknownEntryError as exc:
                issues.add(str(exc), *where)
    public = c.model_copy(update={"fate_points": base.fate_points if base is not None else 0})
    if public == base:
        return c, ""
    # a field at its default is left out where older specs never had it (their states stay the same)
    unset = {"check_penalty"} if public.check_penalty == 0 else set()
    return c, canonical_json(public.model_dump(mode="json", exclude=unset))


def _check_script(
    m: UnitModel, ids: set[str], zones: set[str], catalog: Catalog, issues: _Issues, at: tuple[str | int, ...]
) -> None:
    for j, step in enumerate(m.script):
        here = (*at, "script", j)
        named: list[tuple[tuple[str | int, ...], str]] = []
        for k, u in enumerate(step.breath or []):
            use_at = (*here, "breath", k)
            named.append(((*use_at, "maneuver"), u.maneuver))
            refs: list[tuple[tuple[str | int, ...], str | None]] = [((*use_at, "target"), u.target)]
            refs += [((*use_at, "squads", i), sq) for i, sq in enumerate(u.squads)]
            for path, ref in refs:
                if ref is not None and ref not in ids:
                    issues.add(f"no unit {ref!r} in this battle{did_you_mean(ref, ids)}", *path)
            if u.to is not None and u.to not in zones:
                near = did_you_mean(u.to, zones)
                issues.add(f"no zone {u.to!r} (zones: {', '.join(sorted(zones))}){near}", *use_at, "to")
        if step.react is not None:
            named.append(((*here, "react"), step.react))
        if step.upkeep is not None:
            named.append(((*here, "upkeep", "maneuver"), step.upkeep.maneuver))
            if step.upkeep.target is not None and step.upkeep.target not in ids:
                near = did_you_mean(step.upkeep.target, ids)
                issues.add(f"no unit {step.upkeep.target!r}{near}", *here, "upkeep", "target")
            if step.upkeep.to is not None and step.upkeep.to not in zones:
                near = did_you_mean(step.upkeep.to, zones)
                issues.add(f"no zone {step.upkeep.to!r}{near}", *here, "upkeep", "to")
        for path, ref in named:
            if ref not in catalog.maneuvers:
                issues.add(f"unknown maneuver {ref!r}{did_you_mean(ref, catalog.maneuvers)}", *path)


def _check_gm(model: ScenarioModel, rules: BattleRules, zones: set[str], issues: _Issues) -> None:
    changes = {c.id for c in rules.yoma.changes}
    extras = set(rules.resolution.fumble.extras)
    for i, step in enumerate(model.gm):
        if isinstance(step, GmChange):
            if step.change not in changes:
                issues.add(
                    f"no battlefield change {step.change!r} (known: {', '.join(sorted(changes))})", "gm", i
                )
            if step.zone not in zones:
                issues.add(f"no zone {step.zone!r}{did_you_mean(step.zone, zones)}", "gm", i, "zone")
            if not model.changes:
                issues.add("the scenario does not open the battlefield to changes (`changes: true`)", "gm", i)
        elif isinstance(step, GmFumble):
            for j, x in enumerate(step.fumble):
                if x not in extras:
                    issues.add(f"unknown fumble extra {x!r} (known: {', '.join(sorted(extras))})", "gm", i, j)
            if step.to is not None and step.to not in zones:
                issues.add(f"no zone {step.to!r}{did_you_mean(step.to, zones)}", "gm", i, "to")


def build_battle(source: ScenarioSource, content: Content[BattleRules]) -> Scenario:
    """Validate a scenario's body (its header already read) against ``content`` into a
    :class:`Scenario`; raises :class:`ContentError` with every problem found."""
    try:
        model = ScenarioModel.model_validate(dict(source.data))
    except ValidationError as exc:
        raise ContentError(validation_issues(exc, source.file, source.node)) from None
    rules = content.tables
    cat = rules.catalog
    tactics = rules.tactics
    issues = _Issues(source)
    zone_ids = {z.id for z in tactics.zones}
    for i, z in enumerate(model.high_ground):
        if z not in zone_ids:
            near = did_you_mean(z, zone_ids)
            issues.add(f"no zone {z!r} (zones: {', '.join(sorted(zone_ids))}){near}", "high_ground", i)
    side_ids = [s.id for s in model.sides]
    if len(set(side_ids)) != len(side_ids):
        issues.add("side ids must be unique", "sides")
    views: tuple[View, View] = ("own", "enemy")
    sides = tuple(Side(s.id, s.name or s.id, views[i], s.allies) for i, s in enumerate(model.sides))
    unit_ids = [m.id or m.creature or "" for m in model.units]
    seen: set[str] = set()
    for i, uid in enumerate(unit_ids):
        if uid in seen:
            issues.add(f"unit id {uid!r} is given twice (set `id`)", "units", i, "id")
        seen.add(uid)
    units: list[Unit] = []
    skills = rules.skills() if any(m.overrides or m.inline for m in model.units) else frozenset()
    scripts: dict[str, tuple[Action, ...]] = {}
    policies: dict[str, str] = {}
    for i, m in enumerate(model.units):
        at: tuple[str | int, ...] = ("units", i)
        uid = unit_ids[i]
        c, spec = _creature(m, cat, issues, at, skills)
        if m.side not in side_ids:
            near = did_you_mean(m.side, side_ids)
            issues.add(f"no side {m.side!r} (sides: {', '.join(side_ids)}){near}", *at, "side")
        _check_script(m, set(unit_ids), zone_ids, cat, issues, at)
        if m.zone is not None and m.zone not in zone_ids:
            near = did_you_mean(m.zone, zone_ids)
            issues.add(f"no zone {m.zone!r} (zones: {', '.join(sorted(zone_ids))}){near}", *at, "zone")
        for j, st in enumerate(m.stances):
            entry = cat.maneuvers.get(st)
            if entry is None or entry.grants is None:
                issues.add(f"{st!r} is not a stance or held Kata", *at, "stances", j)
        if c is None or m.side not in side_ids:
            continue
        view = sides[side_ids.index(m.side)].view
        template = Unit(uid, m.name or c.name, m.side, i, m.creature or "", spec)
        top = rules.wounds_max(template)
        if m.wounds is not None and m.wounds > top:
            issues.add(f"at most {top} (the unit's maximum Wounds)", *at, "wounds")
        cohesion_max = rules.cohesion_max(c)
        if m.cohesion is not None and cohesion_max is None:
            issues.add("only a squad has Cohesion", *at, "cohesion")
        zone = m.zone or (tactics.start["own"] if view == "own" else tactics.start["enemy"])
        units.append(
            replace(
                template,
                zone=zone,
                wounds=m.wounds or top,
                wounds_max=top,
                initiative=m.initiative if m.initiative_round == 1 else 0,
                initiative_round=m.initiative_round,
                initiative_due=m.initiative if m.initiative_round > 1 else 0,
                stances=tuple(m.stances),
                cohesion=m.cohesion if m.cohesion is not None else cohesion_max,
                cohesion_max=cohesion_max,
                fate_points=c.fate_points,
                armor_damage=m.armor_damage,
            )
        )
        if m.policy == "scripted":
            scripts[uid] = tuple(rules.interned(step.action(uid)) for step in m.script)
        elif m.policy in PLAIN_POLICIES:
            policies[uid] = m.policy
    _check_gm(model, rules, zone_ids, issues)
    if issues.items:
        raise ContentError(issues.items)
    units = distinct_names(units)
    # every fight of the content stands on the very same zone records (found by identity in its memos)
    zones = tuple(
        rules.interned(Zone(z.id, z.kind, z.side, z.id in model.high_ground)) for z in tactics.zones
    )
    state = BattleState(
        name=model.name,
        sides=sides,
        zones=zones,
        adjacent=tuple((a, b) for a, b in tactics.adjacent),
        units=tuple(units),
        max_rounds=model.rounds or rules.end.round_limit,
        yoma=model.yoma,
        changes=model.changes,
    )
    if model.gm:
        scripts[GM] = tuple(rules.interned(_gm_action(g)) for g in model.gm)
    return Scenario(source, content, state, scripts, model.seed, model.description, policies)


def bundled_scenarios() -> tuple[str, ...]:
    """Names of the bundled battles (``kassen sengoku battle NAME``)."""
    return tuple(s.name for s in core_bundled("sengoku"))


def load_scenario(
    source: str | Path | ScenarioSource, content: Sequence[str | Path] | Content[BattleRules] = ()
) -> Scenario:
    """A battle from a file path or a bundled name (``demo``, ``count-example``), read by the core's
    :func:`~kassen.core.scenario.read_scenario` (a file without the ``ruleset:`` header is taken as a
    Sengoku scenario); ``content`` is the ``--content`` layers (the scenario's own block goes last), or
    content already loaded."""
    src = source if isinstance(source, ScenarioSource) else read_scenario(source, ruleset="sengoku")
    if isinstance(content, Content):
        if src.content is not None:
            raise ContentError(
                src.issue("a scenario with its own content block needs the layers as paths", "content")
            )
        return build_battle(src, content)
    layers = [read_layer(p, f"layer {i}") for i, p in enumerate(content, 1)]
    if src.content is not None:
        layers.append(inline_layer(src.content, src.file, src.node))
    built: Content[BattleRules] = find_ruleset("sengoku").load_content(layers)
    return build_battle(src, built)


def run_battle(
    scenario: Scenario,
    seed: int | None = None,
    *,
    rounds: int | None = None,
    policy: Policy[BattleState, Action] | None = None,
) -> Fight[BattleState, Action]:
    """Play ``scenario`` to its end (seed: the given one, else the scenario's, else 64 random bits)."""
    fight = scenario.fight(seed, rounds=rounds, policy=policy)
    fight.autoplay()
    return fight
