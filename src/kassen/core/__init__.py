"""The shared core: errors, explanation steps, the injected random generator, events and the
replayable chronicle of a fight."""

from kassen.core.errors import (
    ContentError,
    ContentIssue,
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    IllegalActionError,
    KassenError,
)
from kassen.core.events import (
    Chronicle,
    Event,
    LogEntry,
    Ruleset,
    canonical_json,
    find_ruleset,
    register_ruleset,
    registered_rulesets,
)
from kassen.core.explain import Step, format_steps, steps_to_json
from kassen.core.rng import Rng

__all__ = [
    "Chronicle",
    "ContentError",
    "ContentIssue",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "Event",
    "IllegalActionError",
    "KassenError",
    "LogEntry",
    "Rng",
    "Ruleset",
    "Step",
    "canonical_json",
    "find_ruleset",
    "format_steps",
    "register_ruleset",
    "registered_rulesets",
    "steps_to_json",
]
