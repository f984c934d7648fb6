"""Which policy each unit of a scenario plays: its script, a plain policy it names, or the heuristic
(:class:`~kassen.sengoku.battle.policies.HeuristicPolicy`) for the rest."""

from __future__ import annotations

__all__ = ["PLAIN_POLICIES", "scenario_policy"]

from collections.abc import Callable, Mapping, Sequence

from kassen.core.policy import ByActor, FirstLegal, Policy, RandomPolicy, Scripted
from kassen.sengoku.battle.actions import Action
from kassen.sengoku.battle.policies import HeuristicPolicy
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState

#: The policies a scenario's unit may name besides ``heuristic`` (the default) and ``scripted``.
PLAIN_POLICIES: dict[str, Callable[[], Policy[BattleState, Action]]] = {
    "random": RandomPolicy,
    "first-legal": FirstLegal,
}


def scenario_policy(
    rules: BattleRules,
    scripts: Mapping[str, Sequence[Action]],
    chosen: Mapping[str, str] | None = None,
) -> Policy[BattleState, Action]:
    """Each actor in ``scripts`` (unit ids, and ``gm`` for the GM's environment choices) plays its
    script, step by step when legal; a unit in ``chosen`` plays the policy it names (``random``,
    ``first-legal``); the heuristic decides the rest."""
    own = {uid: PLAIN_POLICIES[name]() for uid, name in (chosen or {}).items()}
    return Scripted(scripts, ByActor(own, HeuristicPolicy(rules)))
