"""Explanation steps: every number kassen produces carries the steps that made it.

A step is ``(value, reason, rule)``: the value after or contributed by the step, a short reason in the
game's words, and the ledger rule ID that justifies it (empty for pure arithmetic such as a dice total).
"""

from __future__ import annotations

__all__ = ["Step", "format_steps", "steps_to_json"]

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kassen.core.fastinit import fast_init


@fast_init
@dataclass(frozen=True, slots=True)
class Step:
    """One line of an explanation."""

    value: int
    reason: str
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "reason": self.reason, "rule": self.rule}


def steps_to_json(steps: Iterable[Step]) -> list[dict[str, Any]]:
    """Each step's :meth:`Step.to_json` (written out here: every logged resolution converts a few)."""
    return [{"value": s.value, "reason": s.reason, "rule": s.rule} for s in steps]


def format_steps(steps: Iterable[Step]) -> str:
    """Plain-text rendering, one step per line: ``  14  heavy armor +4  [SG.DEF.2]``; each reason in the
    reader's language (:func:`kassen.i18n.translate_text`: the step keeps its English reason)."""
    from kassen.i18n import translate_text

    lines = []
    for s in steps:
        rule = f"  [{s.rule}]" if s.rule else ""
        lines.append(f"{s.value:>4}  {translate_text(s.reason)}{rule}")
    return "\n".join(lines)
