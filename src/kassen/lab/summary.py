"""What one finished fight tells the lab, in its ruleset's own words: the ruleset's ``fight_summary``
hook (:meth:`kassen.core.ruleset.Ruleset.fight_summary`, types in :mod:`kassen.core.summary`).

The lab knows no ruleset by name, and guesses nothing: a ruleset without the hook is refused before a
fight is played (:func:`check_hook`), one whose hook returns something else is refused when it does.
"""

from __future__ import annotations

__all__ = [
    "ActionUse",
    "Attempt",
    "FightSummary",
    "PlayedFight",
    "UnitSummary",
    "check_hook",
    "summarize",
]

from typing import Any

from kassen.core.summary import ActionUse, Attempt, FightSummary, PlayedFight, UnitSummary
from kassen.i18n import _
from kassen.lab.limits import LabError


def check_hook(ruleset: Any) -> None:
    """A :class:`LabError` unless ``ruleset`` summarizes its fights itself."""
    if not callable(getattr(ruleset, "fight_summary", None)):
        raise LabError(
            _(
                "the {name} ruleset has no fight_summary hook (kassen.core.ruleset.Ruleset): the lab cannot "
                "tell who still stands or what each unit did, and does not guess"
            ).format(name=ruleset.info.name)
        )


def summarize(fight: PlayedFight) -> FightSummary:
    """The ruleset's own summary of ``fight``, checked."""
    ruleset = fight.ruleset
    check_hook(ruleset)
    out = ruleset.fight_summary(fight)
    if not isinstance(out, FightSummary):
        raise LabError(
            _("the {name} ruleset's fight_summary returned {kind}, not a FightSummary").format(
                name=ruleset.info.name, kind=type(out).__name__
            )
        )
    return out
