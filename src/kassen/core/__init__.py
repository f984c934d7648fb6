"""The shared core: errors, explanation steps, the injected random generator, events, the engine
skeleton (actors, snapshots, turns) and the ruleset registry. The fight itself (:mod:`kassen.core.fight`),
scenarios (:mod:`kassen.core.scenario`), policies, reports and the codec are imported from their modules:
they bring pydantic and YAML, which ``kassen roll`` does not need. Even the names below load on first
use, so that importing one module of the core (``kassen.core.rng`` for ``kassen roll``) imports no other."""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
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

# Loaded on first use: importing kassen.core (as importing kassen.core.rng does) imports nothing else.
_LAZY = {
    "GM": "kassen.core.engine",
    "MAX_AUTOMATIC_STEPS": "kassen.core.engine",
    "Actor": "kassen.core.engine",
    "Outcome": "kassen.core.engine",
    "Snapshot": "kassen.core.engine",
    "Turn": "kassen.core.engine",
    "ContentError": "kassen.core.errors",
    "ContentIssue": "kassen.core.errors",
    "DiceError": "kassen.core.errors",
    "DiceLimitError": "kassen.core.errors",
    "DiceSyntaxError": "kassen.core.errors",
    "IllegalActionError": "kassen.core.errors",
    "KassenError": "kassen.core.errors",
    "TypedDiceError": "kassen.core.errors",
    "Event": "kassen.core.events",
    "canonical_json": "kassen.core.events",
    "Step": "kassen.core.explain",
    "format_steps": "kassen.core.explain",
    "steps_to_json": "kassen.core.explain",
    "Rng": "kassen.core.rng",
    "ScriptedDice": "kassen.core.rng",
    "RulesetInfo": "kassen.core.ruleset",
    "find_ruleset": "kassen.core.ruleset",
    "register_ruleset": "kassen.core.ruleset",
    "registered_rulesets": "kassen.core.ruleset",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kassen.core' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
