"""Battle scenarios in YAML: the sides, the units (catalog creatures with overrides, or inline), where
they stand, how each one decides (scripted choices or the heuristic), the seed and the round limit.

A file is validated at the boundary, every problem reported at once with file, field and why
(:class:`~kassen.core.errors.ContentError`); it becomes a :class:`Scenario`: the initial
:class:`~kassen.sengoku.battle.state.BattleState`, each unit's script, and the catalog it was built on.
Bundled scenarios live in ``kassen/sengoku/data/scenarios/`` (``kassen sengoku battle NAME``).

.. code-block:: yaml

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
    "bundled_scenarios",
    "load_scenario",
    "new_chronicle",
    "run_battle",
    "scenario_from_model",
]

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, model_validator

from kassen.content.layers import deep_merge
from kassen.content.yamlio import StrictModel, load_model, load_text
from kassen.core.errors import ContentError, ContentIssue
from kassen.core.events import Chronicle, canonical_json
from kassen.sengoku.battle.actions import GM, Action, Breath, Decline, Environment, Hold, Pass, React, Upkeep
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.ruleset import SengokuRuleset, ruleset_for
from kassen.sengoku.battle.state import BattleState, Side, Unit, Use, View, Zone
from kassen.sengoku.catalog import Catalog, UnknownEntryError, load_catalog
from kassen.sengoku.entries import Creature

Id = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]


class UseModel(StrictModel):
    """One maneuver of a scripted breath (see :class:`~kassen.sengoku.battle.state.Use`)."""

    maneuver: Id
    target: Id | None = None
    aim: int = Field(default=0, ge=0)
    to: Id | None = None
    squads: list[Id] = Field(default_factory=list)
    release: bool = False
    choice: Literal["wounds", "cohesion"] | None = None

    def use(self) -> Use:
        return Use(
            self.maneuver, self.target, self.aim, self.to, tuple(self.squads), self.release, self.choice
        )


class UpkeepModel(StrictModel):
    maneuver: Id
    target: Id | None = None
    choice: Literal["wounds", "cohesion"] | None = None


class ScriptStep(StrictModel):
    """One scripted choice: ``breath: [uses]``, ``do: hold|pass|decline``, ``react: MANEUVER`` or
    ``upkeep: {maneuver, target, choice}``."""

    breath: list[UseModel] | None = None
    do: Literal["hold", "pass", "decline"] | None = None
    react: Id | None = None
    upkeep: UpkeepModel | None = None

    @model_validator(mode="after")
    def _one_choice(self) -> ScriptStep:
        given = [x for x in (self.breath, self.do, self.react, self.upkeep) if x is not None]
        if len(given) != 1:
            raise ValueError(
                "a step is exactly one of `breath: [...]`, `do: hold|pass|decline`, `react:`, `upkeep:`"
            )
        if self.breath is not None and not self.breath:
            raise ValueError("a breath names at least one maneuver")
        return self

    def action(self, unit: str) -> Action:
        if self.breath is not None:
            return Breath(unit, tuple(u.use() for u in self.breath))
        if self.react is not None:
            return React(unit, self.react)
        if self.upkeep is not None:
            return Upkeep(unit, self.upkeep.maneuver, self.upkeep.target, self.upkeep.choice)
        if self.do == "hold":
            return Hold(unit)
        if self.do == "decline":
            return Decline(unit)
        return Pass(unit)


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
    wounds: int | None = Field(default=None, ge=1)
    cohesion: int | None = Field(default=None, ge=0)
    initiative: int = Field(default=0, ge=0)
    initiative_round: int = Field(
        default=1,
        ge=1,
        description="The round whose first breath the initiative +N applies to (SG.CNT.2: combat start, or "
        "the start of a round an effect names).",
    )
    stances: list[Id] = Field(default_factory=list)
    policy: Literal["heuristic", "scripted"] = "heuristic"
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


class ScenarioModel(StrictModel):
    name: str = Field(min_length=1)
    description: str = ""
    seed: int | None = None
    rounds: int | None = Field(default=None, ge=1, le=1000, description="The round limit (SG.END.1).")
    yoma: bool = Field(default=False, description="The GM may roll the Yoma Encounter Table (SG.LUL.3).")
    high_ground: list[Id] = Field(default_factory=list)
    sides: list[SideModel] = Field(min_length=2, max_length=2)
    units: list[UnitModel] = Field(min_length=2)
    gm: list[Literal["roll", "skip"]] = Field(
        default_factory=list, description="The GM's environment choices."
    )


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded battle: its initial state, each unit's scripted actions, the catalog it stands on."""

    name: str
    state: BattleState
    scripts: tuple[tuple[str, tuple[Action, ...]], ...]
    scripted: tuple[str, ...]
    gm: tuple[Action, ...]
    seed: int | None
    file: str
    catalog: Catalog
    description: str = ""

    @property
    def ruleset(self) -> SengokuRuleset:
        return ruleset_for(self.catalog)

    def script(self, unit: str) -> tuple[Action, ...]:
        return dict(self.scripts).get(unit, ())

    def policy(self) -> Any:
        """Scripted units play their scripts (then the heuristic); the others the heuristic."""
        from kassen.sengoku.battle.policies import scenario_policy

        return scenario_policy(self)


def _creature(
    m: UnitModel, catalog: Catalog, file: str, where: str, issues: list[ContentIssue]
) -> tuple[Creature | None, str]:
    """The unit's template and its ``spec`` (canonical JSON when inline or overridden)."""
    if m.creature is not None:
        try:
            base = catalog.creature(m.creature)
        except UnknownEntryError as exc:
            issues.append(ContentIssue(file, f"{where}.creature", str(exc)))
            return None, ""
        if not m.overrides:
            return base, ""
        data = deep_merge(base.model_dump(mode="json"), m.overrides)
        field = f"{where}.overrides"
    else:
        assert m.inline is not None
        data = {"id": m.id, "name": m.name or m.id, **m.inline}
        field = f"{where}.inline"
    try:
        c = Creature.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            issues.append(ContentIssue(file, f"{field}.{loc}" if loc else field, err["msg"]))
        return None, ""
    for kind, ids in (("weapon", c.weapons), ("maneuver", c.maneuvers), ("trait", c.traits)):
        for ref in ids:
            try:
                catalog.entry(ref)
            except UnknownEntryError:
                issues.append(ContentIssue(file, field, f"unknown {kind} {ref!r}"))
    for slot, equipment in (("armor", c.armor), ("shield", c.shield)):
        if equipment is not None:
            try:
                catalog.armor_entry(equipment) if slot == "armor" else catalog.shield(equipment)
            except UnknownEntryError as exc:
                issues.append(ContentIssue(file, field, str(exc)))
    return c, canonical_json(c.model_dump(mode="json"))


def _check_script(
    m: UnitModel, ids: set[str], zones: set[str], catalog: Catalog, file: str, where: str
) -> list[ContentIssue]:
    issues: list[ContentIssue] = []
    for j, step in enumerate(m.script):
        at = f"{where}.script.{j}"
        named: list[tuple[str, str]] = []
        for k, u in enumerate(step.breath or []):
            named.append((f"{at}.breath.{k}.maneuver", u.maneuver))
            for field, ref in (("target", u.target), *((f"squads.{i}", s) for i, s in enumerate(u.squads))):
                if ref is not None and ref not in ids:
                    issues.append(
                        ContentIssue(file, f"{at}.breath.{k}.{field}", f"no unit {ref!r} in this battle")
                    )
            if u.to is not None and u.to not in zones:
                issues.append(
                    ContentIssue(
                        file, f"{at}.breath.{k}.to", f"no zone {u.to!r} (zones: {', '.join(sorted(zones))})"
                    )
                )
        if step.react is not None:
            named.append((f"{at}.react", step.react))
        if step.upkeep is not None:
            named.append((f"{at}.upkeep.maneuver", step.upkeep.maneuver))
            if step.upkeep.target is not None and step.upkeep.target not in ids:
                issues.append(ContentIssue(file, f"{at}.upkeep.target", f"no unit {step.upkeep.target!r}"))
        for field, ref in named:
            if ref not in catalog.maneuvers:
                issues.append(ContentIssue(file, field, f"unknown maneuver {ref!r}"))
    return issues


def scenario_from_model(
    model: ScenarioModel, file: str = "<scenario>", catalog: Catalog | None = None
) -> Scenario:
    """Build the battle; raises :class:`ContentError` with every problem found."""
    cat = catalog if catalog is not None else load_catalog()
    rules = BattleRules(cat) if catalog is not None else ruleset_for(cat).rules
    tactics = rules.tactics
    issues: list[ContentIssue] = []
    zone_ids = {z.id for z in tactics.zones}
    for i, z in enumerate(model.high_ground):
        if z not in zone_ids:
            issues.append(
                ContentIssue(
                    file, f"high_ground.{i}", f"no zone {z!r} (zones: {', '.join(sorted(zone_ids))})"
                )
            )
    side_ids = [s.id for s in model.sides]
    if len(set(side_ids)) != len(side_ids):
        issues.append(ContentIssue(file, "sides", "side ids must be unique"))
    views: tuple[View, View] = ("own", "enemy")
    sides = tuple(Side(s.id, s.name or s.id, views[i], s.allies) for i, s in enumerate(model.sides))
    unit_ids = [m.id or m.creature or "" for m in model.units]
    seen: set[str] = set()
    for i, uid in enumerate(unit_ids):
        if uid in seen:
            issues.append(ContentIssue(file, f"units.{i}.id", f"unit id {uid!r} is given twice (set `id`)"))
        seen.add(uid)
    units: list[Unit] = []
    scripts: list[tuple[str, tuple[Action, ...]]] = []
    for i, m in enumerate(model.units):
        where = f"units.{i}"
        uid = unit_ids[i]
        c, spec = _creature(m, cat, file, where, issues)
        if m.side not in side_ids:
            issues.append(
                ContentIssue(file, f"{where}.side", f"no side {m.side!r} (sides: {', '.join(side_ids)})")
            )
        issues += _check_script(m, set(unit_ids), zone_ids, cat, file, where)
        if m.zone is not None and m.zone not in zone_ids:
            issues.append(
                ContentIssue(
                    file, f"{where}.zone", f"no zone {m.zone!r} (zones: {', '.join(sorted(zone_ids))})"
                )
            )
        for j, s in enumerate(m.stances):
            entry = cat.maneuvers.get(s)
            if entry is None or entry.grants is None:
                issues.append(
                    ContentIssue(file, f"{where}.stances.{j}", f"{s!r} is not a stance or held Kata")
                )
        if c is None or m.side not in side_ids:
            continue
        view = sides[side_ids.index(m.side)].view
        template = Unit(uid, m.name or c.name, m.side, i, m.creature or "", spec)
        top = rules.wounds_max(template)
        if m.wounds is not None and m.wounds > top:
            issues.append(ContentIssue(file, f"{where}.wounds", f"at most {top} (the unit's maximum Wounds)"))
        cohesion_max = rules.cohesion_max(c)
        if m.cohesion is not None and cohesion_max is None:
            issues.append(ContentIssue(file, f"{where}.cohesion", "only a squad has Cohesion"))
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
            )
        )
        scripts.append((uid, tuple(step.action(uid) for step in m.script)))
    if issues:
        raise ContentError(issues)
    zones = tuple(Zone(z.id, z.kind, z.side, z.id in model.high_ground) for z in tactics.zones)
    state = BattleState(
        name=model.name,
        sides=sides,
        zones=zones,
        adjacent=tuple((a, b) for a, b in tactics.adjacent),
        units=tuple(units),
        max_rounds=model.rounds or rules.end.round_limit,
        yoma=model.yoma,
    )
    gm: tuple[Action, ...] = tuple(Environment() if g == "roll" else Decline(GM) for g in model.gm)
    return Scenario(
        name=model.name,
        state=state,
        scripts=tuple(scripts),
        scripted=tuple(uid for uid, m in zip(unit_ids, model.units, strict=True) if m.policy == "scripted"),
        gm=gm,
        seed=model.seed,
        file=file,
        catalog=cat,
        description=model.description,
    )


_PACKAGE = "kassen.sengoku.data"


def bundled_scenarios() -> tuple[str, ...]:
    """Names of the bundled battles (``kassen sengoku battle NAME``)."""
    folder = resources.files(_PACKAGE).joinpath("scenarios")
    return tuple(sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml")))


def load_scenario(source: str | Path, catalog: Catalog | None = None) -> Scenario:
    """Load a scenario from a file path, or a bundled one by name (``demo``, ``count-example``)."""
    path = Path(source)
    if path.is_file():
        return scenario_from_model(load_model(path, ScenarioModel), str(path), catalog)
    name = str(source).removesuffix(".yaml")
    if name in bundled_scenarios():
        text = resources.files(_PACKAGE).joinpath("scenarios", f"{name}.yaml").read_text(encoding="utf-8")
        file = f"kassen/sengoku/data/scenarios/{name}.yaml"
        return scenario_from_model(load_text(text, ScenarioModel, file), file, catalog)
    known = ", ".join(bundled_scenarios())
    raise ContentError(
        ContentIssue(
            str(source), "(file)", f"no such file, and no bundled battle of that name (bundled: {known})"
        )
    )


def new_chronicle(
    scenario: Scenario, seed: int, *, rounds: int | None = None
) -> Chronicle[BattleState, Action]:
    """A chronicle at the start of ``scenario``; its meta records the scenario and the catalog's content
    hash (DESIGN principle 3). ``rounds`` replaces the round limit."""
    state = scenario.state if rounds is None else replace(scenario.state, max_rounds=rounds)
    meta = {"scenario": scenario.name, "file": scenario.file, "content_hash": scenario.catalog.content_hash}
    return Chronicle(scenario.ruleset, state, seed, meta=meta)


def run_battle(
    scenario: Scenario,
    seed: int | None = None,
    *,
    rounds: int | None = None,
    policy: Any = None,
    max_actions: int = 50_000,
) -> Chronicle[BattleState, Action]:
    """Play ``scenario`` to its end (seed: the given one, else the scenario's, else 0)."""
    used = seed if seed is not None else (scenario.seed if scenario.seed is not None else 0)
    chronicle = new_chronicle(scenario, used, rounds=rounds)
    chronicle.run(policy or scenario.policy(), max_actions=max_actions)
    return chronicle
