"""The arena ruleset on the core (:class:`kassen.core.ruleset.Ruleset`), registered as ``arena`` through
the ``kassen.rulesets`` entry point: content through :mod:`kassen.arena.content`, scenarios through
:mod:`kassen.arena.scenario`, the bout through :mod:`kassen.arena.bout`, accounts through
:mod:`kassen.arena.report`.

>>> import kassen
>>> fight = kassen.open_fight("arena/knockback", seed=3)
>>> fight.to_move
Actor(kind='gm', id='gm', side=None)
>>> fight.legal_actions()
(Begin(),)
"""

from __future__ import annotations

__all__ = ["RULESET", "ArenaRuleset"]

from collections.abc import Mapping, Sequence

from kassen.arena.bout import (
    Action,
    BoutState,
    BoutTurn,
    deciding_fighter,
    follow_up,
    legal_actions,
    resolve,
)
from kassen.arena.content import load_content
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.report import RENDERERS, names
from kassen.arena.rules import ArenaRules
from kassen.arena.scenario import ScenarioModel, setup_scenario
from kassen.content.content import Content, Layer
from kassen.core.engine import GM, Actor, Outcome, Turn
from kassen.core.errors import KassenError
from kassen.core.policy import Policy
from kassen.core.rng import DieSource
from kassen.core.ruleset import Renderer, RulesetInfo, Setup
from kassen.core.scenario import ScenarioSource


class ArenaRuleset:
    """The 3d6 arena (seed 004, ledger ``AR.*``) as the core's ruleset hooks."""

    info = RulesetInfo(
        name="arena",
        title="Arena (3d6 damage and injury, seed 004)",
        ledger="AR",
        state_type=BoutState,
        action_type=Action,
        scenarios=("kassen.arena.data", "bouts"),
        rule_texts=("kassen.arena.data", "rules.yaml"),
        scenario_model=ScenarioModel,
        seeds=("004",),
    )

    def __init__(self) -> None:
        self.renderers: Mapping[str, Renderer] = RENDERERS

    def load_content(self, layers: Sequence[Layer]) -> Content[ArenaRules]:
        return load_content(layers)

    def setup(self, scenario: ScenarioSource, content: Content[ArenaRules]) -> Setup[BoutState, Action]:
        return setup_scenario(scenario, content)

    def to_move(self, state: BoutState) -> Actor | None:
        """The referee (GM) for Begin; then the fighter of the first offer, else the fighter whose slot
        it is; None once the bout is over."""
        if state.result is not None:
            return None
        if not state.started:
            return GM
        fid = deciding_fighter(state)
        if fid is None:
            return None
        return Actor("unit", fid, state.fighter(fid).profile.side)

    def legal_actions(self, state: BoutState, tables: ArenaRules) -> Sequence[Action]:
        return legal_actions(state, tables)

    def start(self, state: BoutState, dice: DieSource, tables: ArenaRules) -> BoutTurn:
        return BoutTurn(state, dice, tables)

    def resolve(self, turn: Turn[BoutState], action: Action) -> None:
        resolve(_bout_turn(turn), action)

    def follow_up(self, turn: Turn[BoutState]) -> bool:
        return follow_up(_bout_turn(turn))

    def result(self, state: BoutState) -> Outcome | None:
        """The winning side (None: nobody) and why, in words with names."""
        r = state.result
        if r is None:
            return None
        if r.winner is None:
            return Outcome(None, f"{r.reason} (subturn {r.subturn})")
        return Outcome(r.winner, f"alone still standing after subturn {r.subturn}")

    def heuristic(self, tables: ArenaRules) -> Policy[BoutState, Action]:
        return HeuristicPolicy(tables)

    def names(self, state: BoutState) -> Mapping[str, str]:
        return names(state)


def _bout_turn(turn: Turn[BoutState]) -> BoutTurn:
    if not isinstance(turn, BoutTurn):
        raise KassenError("an arena action is resolved in the turn the arena's start() made")
    return turn


RULESET = ArenaRuleset()
