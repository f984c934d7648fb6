"""Arena bout scenarios: fighters, format, ground and policies → a :class:`~kassen.core.ruleset.Setup`.

A scenario is a YAML file with the generic header (``ruleset: arena``; an optional ``content:`` block of
the scenario's own, merged over the bundled data and any ``--content`` layers) and the arena's body::

    ruleset: arena
    name: Arena duel
    format: match            # match | fight
    ground: sand
    seed: 7
    start_distance: 1        # optional: metres between the sides at the start (a fighter's position: wins)
    content:                 # optional: sections merged over the bundled data
      injury: {shock: {combine: max_each_summed}}
    fighters:
      - {id: ryu, side: east, st: 12, weapon: {name: broadsword, base: swing, adds: 1, type: cut}}
      - {id: ken, side: west, policy: scripted, script: [{kind: attack, target: ryu, location: skull}]}

The body is validated like all content (unknown keys, bad values, unknown hit locations and grounds,
bad script steps: every problem at once, with file, line and field) against the content in force.
Scripts are played by the core's :class:`~kassen.core.policy.Scripted` (a step is tried on a copy
of the state, and what that worked out is kept for the play that follows): each step is stored
exactly as it will be applied (an attack naming no location aims at the data's default location,
AR.DMG.1; a location named by an alias is its key), so undo rewinds a script. Play one with
:func:`kassen.open_fight`:

>>> import kassen
>>> fight = kassen.open_fight("arena/duel", seed=7)
>>> fight.meta["scenario"], [f.id for f in fight.state.fighters]
('Arena duel', ['ryu', 'ken'])
>>> fight.autoplay()
>>> fight.over
True
"""

from __future__ import annotations

__all__ = ["FighterModel", "ScenarioModel", "script_steps", "setup_scenario"]

import difflib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError, ValidationInfo, field_validator, model_validator

from kassen.arena.bout import Action, Attack, BoutState, initial_state
from kassen.arena.bout.state import Grapple, SetGuard
from kassen.arena.content import load_rules
from kassen.arena.damage import Reduction
from kassen.arena.domain import (
    ATTRIBUTE,
    POINTS,
    Attribute,
    Count,
    Damage,
    DamageAdds,
    DamageDice,
    Distance,
    Divisor,
    DrPoints,
    Move,
    Points,
    Position,
    SkillLevel,
    Weight,
)
from kassen.arena.fighter import Fighter, GutsBonusPlan, LocationDR, Weapon, build_fighter
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import CheckKind, DamageType, MatchFormat, Posture
from kassen.content.content import Content
from kassen.content.yamlio import StrictModel, refuse_too_many, validation_issues
from kassen.core.codec import FormatError
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.fastreplace import replace
from kassen.core.fight import state_codec
from kassen.core.policy import ByActor, FirstLegal, Policy, Scripted
from kassen.core.ruleset import Setup
from kassen.core.scenario import ScenarioSource
from kassen.i18n import _


def _rules(info: ValidationInfo) -> ArenaRules:
    """The content a scenario is validated against (the bundled data when none is given)."""
    context = info.context if isinstance(info.context, Mapping) else {}
    rules = context.get("rules")
    return rules if isinstance(rules, ArenaRules) else load_rules()


class WeaponModel(StrictModel):
    name: str = "fist"
    base: Literal["thrust", "swing", "none"] = "thrust"
    dice: DamageDice = 0
    adds: DamageAdds = 0
    type: DamageType = DamageType.CRUSHING
    painful: bool = False
    reach: Annotated[int, Field(ge=0, le=10, description="0 to 10 m (a polearm: 3)")] | None = None


class DRModel(StrictModel):
    armor: DrPoints = 0
    bone: DrPoints | None = None
    soft: DrPoints | None = None


def _dr_number(value: Any) -> Any:
    """A location's DR written as one number is its armour DR (``torso: 3``)."""
    return {"armor": value} if isinstance(value, int) and not isinstance(value, bool) else value


#: A location's DR: a number (its armour) or armour, bone and soft DR — and the JSON Schema says both, so
#: an editor checking a scenario against ``kassen schema scenario`` takes ``torso: 3`` as the loader does.
LocationArmor = Annotated[DRModel, BeforeValidator(_dr_number, json_schema_input_type=DrPoints | DRModel)]


class ReductionModel(StrictModel):
    name: str
    divisor: Divisor = 1
    subtract: Damage = 0


class GutsBonusModel(StrictModel):
    checks: tuple[CheckKind, ...]
    min_fp_after: Annotated[
        int, Field(ge=-POINTS[1], le=POINTS[1], description="-300 to 300: the FP it keeps (at most FP)")
    ]


class FighterModel(StrictModel):
    """One fighter of a scenario. What is left out comes from the data's ``fighter_defaults``,
    ``combat`` and ``position`` defaults (AR.GAP.2): HP = ST, FP = HT, Move = (DX + HT) / 4, skill = DX,
    defence = (DX + HT) / 4 + 3, 70 kg, the default guts-bonus plan, the default reach, and a position
    with its side. ``st_bonus`` is the ST bonuses its knockback damage counts (AR.KNB.3), 0 unless
    given."""

    id: str = Field(min_length=1)
    name: str | None = None
    side: str = Field(min_length=1)
    st: Attribute = 10
    dx: Attribute = 10
    iq: Attribute = 10
    ht: Attribute = 10
    per: Attribute = 10
    will: Attribute = 10
    hp: Points | None = None
    fp: Points | None = None
    move: Move | None = None
    weight_kg: Weight | None = None
    encumbrance: int = Field(default=0, ge=0, le=4, description="0 to 4: the encumbrance levels")
    skill: SkillLevel | None = None
    defense: SkillLevel | None = None
    weapon: WeaponModel = WeaponModel()
    armor: dict[str, LocationArmor] = Field(default_factory=dict)
    reductions: tuple[ReductionModel, ...] = Field(default=(), max_length=20)
    champion: bool = False
    holds_title: bool = False
    matches: Count = 0
    age: Annotated[int, Field(ge=0, le=200, description="0 to 200 years")] | None = None
    reactions: tuple[Annotated[int, Field(ge=-20, le=20)], ...] = Field(default=(), max_length=20)
    guts_bonus: GutsBonusModel | None = None
    posture: Posture = Posture.STANDING
    altitude: Fraction = Field(default=Fraction(0), ge=0, le=100, description="0 to 100 m above the ground")
    position: Position | None = None
    st_bonus: Annotated[int, Field(ge=0, le=ATTRIBUTE[1], description="0 to 100 ST of bonuses")] = 0
    policy: Literal["heuristic", "scripted", "first_legal"] = "heuristic"
    script: tuple[dict[str, Any], ...] = ()

    @field_validator("armor")
    @classmethod
    def _known_locations(cls, value: dict[str, DRModel], info: ValidationInfo) -> dict[str, DRModel]:
        table = _rules(info).locations
        out: dict[str, DRModel] = {}
        for name, dr in value.items():
            if name == "all":
                out[name] = dr
                continue
            why = _location_problem(name, _rules(info))
            if why:
                raise ValueError(why)
            out[table.find(name).key] = dr
        return out

    @field_validator("reactions")
    @classmethod
    def _reaction_range(cls, value: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        low, high = _rules(info).match.reactions.allowed_range
        for v in value:
            if not low <= v <= high:
                raise ValueError(
                    _("reaction modifier {value} is outside {low}..{high} (AR.GAP.2)").format(
                        value=v, low=low, high=high
                    )
                )
        return value

    def to_fighter(self, rules: ArenaRules) -> Fighter:
        """The fighter, what it leaves out taken from ``rules`` (the content in force)."""
        entries: dict[str, LocationDR] = {}
        everywhere = self.armor.get("all")
        if everywhere is not None:
            for key in rules.locations.keys:
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
            rules=rules,
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
            weapon=Weapon(w.name, w.base, w.dice, w.adds, w.type, w.painful, w.reach),
            dr=tuple(entries[k] for k in rules.locations.keys if k in entries),
            reductions=tuple(Reduction(x.name, x.divisor, x.subtract) for x in self.reductions),
            champion=self.champion,
            holds_title=self.holds_title,
            matches=self.matches,
            age=self.age,
            reactions=self.reactions,
            st_bonus=self.st_bonus,
        )


def _dr_entry(key: str, dr: DRModel) -> LocationDR:
    return LocationDR(key, dr.armor, dr.bone, dr.soft)


#: The most fighters a bout fields (the ruleset's ``max_units``); a file with more is refused before
#: they are read.
MAX_UNITS = 100


class ScenarioModel(StrictModel):
    """The body of an arena scenario (the header ``ruleset:``/``content:`` is the core's)."""

    name: str = Field(min_length=1)  # a title to print (an empty one read "(seed 7): winner...")
    description: str = ""
    format: MatchFormat = MatchFormat.MATCH
    ground: str | None = None
    seed: int | None = Field(
        default=None,
        ge=0,
        le=(1 << 64) - 1,
        description="The seed a run by name plays (kassen fight); none: 64 random bits. A table never "
        "plays on it unless asked: anyone with the file has it.",
    )
    max_actions: int = Field(
        default=5000, ge=1, le=100_000, description="1 to 100,000 actions of an auto-played bout"
    )
    start_distance: Distance | None = None
    fighters: tuple[FighterModel, ...] = Field(min_length=2)

    @model_validator(mode="before")
    @classmethod
    def _unit_limit(cls, data: Any) -> Any:
        refuse_too_many(data, "fighters", MAX_UNITS, "an arena bout")
        return data

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> ScenarioModel:
        ids = [f.id for f in self.fighters]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(_("fighter ids must be unique: {ids}").format(ids=", ".join(dupes)))
        if len({f.side for f in self.fighters}) < 2:
            raise ValueError(_("fighters must be on at least two sides"))
        falling = _rules(info).falling.falling
        if self.ground is not None and self.ground not in falling.ground:
            raise ValueError(
                _("unknown ground {ground} (known: {known})").format(
                    ground=repr(self.ground), known=", ".join(falling.ground)
                )
            )
        return self


def _interned(step: Action) -> Action:
    """The script step equal to ``step`` (of its class) an earlier setup was given, else ``step``,
    remembered (a bounded memo): every fight of a scenario plays the same step objects, which the
    fights' shared action codec then knows by identity, where each fight's fresh copies were compared
    with the one read back before by hash, class and repr."""
    return _step_of(type(step).__name__, step)


@lru_cache(maxsize=512)
def _step_of(kind: str, step: Action) -> Action:
    """The first step met of class ``kind`` equal to ``step`` (remembered by value: immutable actions)."""
    return step


def script_steps(fighter: str, entries: Sequence[Mapping[str, Any]], rules: ArenaRules) -> tuple[Action, ...]:
    """A fighter's script as the actions it will apply: each entry is an action's JSON without its
    ``actor`` (``{"kind": "attack", "target": "ken", "location": "skull"}``); an attack naming no
    location aims at the data's ``damage.basic.default_location`` (AR.DMG.1), a location named by an
    alias is its key. Raises :class:`~kassen.core.errors.ContentError` with every bad step.

    >>> script_steps("ken", [{"kind": "attack", "target": "ryu"}], load_rules())
    (Attack(actor='ken', target='ryu', location='torso', all_out=False),)
    """
    issues, steps = _script(fighter, entries, rules, ScenarioSource("script", "script", "arena", {}), ())
    if issues:
        raise ContentError(issues)
    return steps


def _location_problem(name: str, rules: ArenaRules) -> str:
    """Why ``name`` is no hit location (with the nearest one), or ``""``."""
    try:
        rules.locations.find(name)
    except KassenError:
        keys = list(rules.locations.keys)
        near = difflib.get_close_matches(name.strip().lower().replace(" ", "_"), keys, n=1)
        if near:
            return _("unknown hit location {name}; did you mean {near}?").format(
                name=repr(name), near=repr(near[0])
            )
        return _("unknown hit location {name}; known: {known}").format(name=repr(name), known=", ".join(keys))
    return ""


def _script(
    fighter: str,
    entries: Sequence[Mapping[str, Any]],
    rules: ArenaRules,
    source: ScenarioSource,
    where: tuple[str | int, ...],
    fighters: frozenset[str] = frozenset(),
) -> tuple[list[ContentIssue], tuple[Action, ...]]:
    codec = state_codec(Action)
    issues: list[ContentIssue] = []
    steps: list[Action] = []
    for j, entry in enumerate(entries):
        at = (*where, j)
        if entry.get("kind") == "begin":
            issues.append(source.issue(_("a script cannot contain begin (the referee's)"), *at, "kind"))
            continue
        try:
            action: Action = codec.load({**entry, "actor": fighter})
        except FormatError as exc:
            issues.append(source.issue(exc.message, *at, *exc.path.split(".") if exc.path else ()))
            continue
        if isinstance(action, Attack | Grapple) and fighters and action.target not in fighters:
            near = difflib.get_close_matches(action.target, sorted(fighters), n=1)
            if near:
                text = _("no fighter {fid} in this bout; did you mean {near}?")
                why = text.format(fid=repr(action.target), near=repr(near[0]))
            else:
                text = _("no fighter {fid} in this bout; fighters: {known}")
                why = text.format(fid=repr(action.target), known=", ".join(sorted(fighters)))
            issues.append(source.issue(why, *at, "target"))
            continue
        if isinstance(action, SetGuard):
            # a misspelt guard would otherwise be refused when its turn comes and the heuristic play instead
            for field, name in (("arm", action.arm), ("location", action.location)):
                if name and (why := _location_problem(name, rules)):
                    issues.append(source.issue(why, *at, field))
        if isinstance(action, Attack):
            if action.location is not None and (why := _location_problem(action.location, rules)):
                issues.append(source.issue(why, *at, "location"))
                continue
            key = rules.locations.find(action.location).key if action.location is not None else None
            action = replace(action, location=key if key is not None else rules.damage.basic.default_location)
        steps.append(action)
    return issues, tuple(steps)


def setup_scenario(scenario: ScenarioSource, content: Content[ArenaRules]) -> Setup[BoutState, Action]:
    """A scenario's body validated against ``content`` into the bout at its start, with its title,
    default seed, action limit and a factory of its policy (one per fight: scripts first, then each
    fighter's own policy, the heuristic by default)."""
    rules = content.tables
    data = dict(scenario.data)
    issues: list[ContentIssue] = []
    if "rules_overrides" in data:
        issues.append(
            scenario.issue(
                _("renamed: a scenario's overrides are its `content:` block (sections at its top level)"),
                "rules_overrides",
            )
        )
        del data["rules_overrides"]
    try:
        model = ScenarioModel.model_validate(data, context={"rules": rules})
    except ValidationError as exc:
        raise ContentError(issues + validation_issues(exc, scenario.file, scenario.node)) from None
    scripts: dict[str, tuple[Action, ...]] = {}
    for i, f in enumerate(model.fighters):
        ids = frozenset(x.id for x in model.fighters)
        found, steps = _script(f.id, f.script, rules, scenario, ("fighters", i, "script"), ids)
        issues += found
        if f.policy == "scripted":
            scripts[f.id] = tuple(_interned(step) for step in steps)
    if issues:
        raise ContentError(issues)
    state = initial_state(
        [f.to_fighter(rules) for f in model.fighters],
        rules,
        format=model.format,
        ground=model.ground,
        name=model.name,
        postures={f.id: f.posture for f in model.fighters},
        altitudes={f.id: f.altitude for f in model.fighters},
        positions={f.id: f.position for f in model.fighters if f.position is not None},
        start_distance=model.start_distance,
    )
    plain = [f.id for f in model.fighters if f.policy == "first_legal"]

    def policy() -> Policy[BoutState, Action]:
        per: dict[str, Policy[BoutState, Action]] = {fid: FirstLegal() for fid in plain}
        return Scripted(scripts, ByActor(per, HeuristicPolicy(rules)))

    return Setup(state, model.name, model.seed, model.max_actions, policy)
