"""The shared core: errors, explanation steps and the injected random generator."""

from kassen.core.errors import (
    ContentError,
    ContentIssue,
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    IllegalActionError,
    KassenError,
)
from kassen.core.explain import Step, format_steps, steps_to_json
from kassen.core.rng import Rng

__all__ = [
    "ContentError",
    "ContentIssue",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "IllegalActionError",
    "KassenError",
    "Rng",
    "Step",
    "format_steps",
    "steps_to_json",
]
