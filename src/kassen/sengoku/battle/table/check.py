"""Asking the rules whether an action is allowed now, without rolling anything: the menus' one source of
"not allowed, and why".

:func:`refusal` runs the action's own handler (``BattleTurn.apply``: it validates before anything is
rolled or changed) on a working copy whose dice stop it at the first roll: an action that gets that far
is allowed; one the rules refuse comes back as its message and the rule that forbids it.
"""

from __future__ import annotations

__all__ = ["NoDice", "Rolled", "refusal"]

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle.actions import Action
from kassen.sengoku.battle.flow import BattleTurn
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState


class Rolled(Exception):
    """The working copy came to a die: everything before it was allowed."""


class NoDice:
    """A die source that stops the working copy at the first die it would roll."""

    def die(self, sides: int) -> int:
        raise Rolled


def refusal(rules: BattleRules, state: BattleState, action: Action) -> tuple[str, str] | None:
    """``(why, rule)`` when the rules refuse ``action`` now, else ``None`` (nothing changes)."""
    try:
        BattleTurn(state, NoDice(), rules).apply(action)
    except Rolled:
        return None
    except IllegalActionError as exc:
        return exc.message, exc.rule
    return None
