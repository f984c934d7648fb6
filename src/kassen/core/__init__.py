"""The shared core: errors, explanation steps, the injected random generator, events, the engine
skeleton (actors, snapshots, turns) and the ruleset registry. The fight itself (:mod:`kassen.core.fight`),
scenarios (:mod:`kassen.core.scenario`), policies, reports and the codec are imported from their modules:
they bring pydantic and YAML, which ``kassen roll`` does not need."""

from kassen.core.engine import GM, MAX_AUTOMATIC_STEPS, Actor, Outcome, Snapshot, Turn
from kassen.core.errors import (
    ContentError,
    ContentIssue,
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    IllegalActionError,
    KassenError,
    TypedDiceError,
)
from kassen.core.events import Event, canonical_json
from kassen.core.explain import Step, format_steps, steps_to_json
from kassen.core.rng import Rng, ScriptedDice
from kassen.core.ruleset import RulesetInfo, find_ruleset, register_ruleset, registered_rulesets

__all__ = [
    "GM",
    "MAX_AUTOMATIC_STEPS",
    "Actor",
    "ContentError",
    "ContentIssue",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "Event",
    "IllegalActionError",
    "KassenError",
    "Outcome",
    "Rng",
    "RulesetInfo",
    "ScriptedDice",
    "Snapshot",
    "Step",
    "Turn",
    "TypedDiceError",
    "canonical_json",
    "find_ruleset",
    "format_steps",
    "register_ruleset",
    "registered_rulesets",
    "steps_to_json",
]
