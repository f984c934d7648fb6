"""The arena ruleset on the core (:class:`kassen.core.ruleset.Ruleset`), registered as ``arena`` through
the ``kassen.rulesets`` entry point: content through :mod:`kassen.arena.content`, scenarios through
:mod:`kassen.arena.scenario`, the bout through :mod:`kassen.arena.bout`, accounts through
:mod:`kassen.arena.report`. Playing at the table: decisions step by step and the words of the
referee's menus (:mod:`kassen.arena.table.menus`), exact odds (:mod:`kassen.arena.bout.forecast`), the
referee's own moves (:mod:`kassen.arena.bout.gm`), what a side may see and the status lines
(:mod:`kassen.arena.table.views`).

>>> import kassen
>>> duel = kassen.open_fight("arena/duel", seed=3)
>>> [o.label for o in duel.menu().options]
['begin the bout (popularity checks first)']
>>> duel.choose(["begin"]) and duel.menu(["attack", "ken", "torso"]).options[0].odds.text()
'hit 85.4%, critical 1.9%, defended 5.3%, stun 85.4%, knock-down 22.1%, KO 0.0%; expected injury 8.12'

>>> import kassen
>>> fight = kassen.open_fight("arena/knockback", seed=3)
>>> fight.to_move
Actor(kind='gm', id='gm', side=None)
>>> fight.legal_actions()
(Begin(),)
"""

from __future__ import annotations

__all__ = ["RULESET", "ArenaRuleset", "BoutAction"]

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeAlias

from kassen.arena import guess
from kassen.arena.accounting import ACCOUNTING
from kassen.arena.bout import (
    Action,
    BoutState,
    BoutTurn,
    deciding_fighter,
    legal_actions,
    resolve,
)
from kassen.arena.bout import (
    follow_up as bout_follow_up,
)
from kassen.arena.bout.forecast import choice_odds
from kassen.arena.bout.gm import GM_ACTIONS, REFEREE, GmAction, apply_gm, gm_actions
from kassen.arena.bout.turn import as_bout_turn
from kassen.arena.content import load_content
from kassen.arena.events import EVENT_TYPES
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.report import RENDERERS, names
from kassen.arena.rules import ArenaRules
from kassen.arena.scenario import MAX_UNITS, ScenarioModel, setup_scenario
from kassen.arena.summary import fight_summary as summarize
from kassen.arena.table import menus, views
from kassen.content.content import Content, Layer
from kassen.core.engine import GM, Actor, Outcome, Turn
from kassen.core.menu import Menu, Odds
from kassen.core.policy import Policy
from kassen.core.rng import DieSource, Rng
from kassen.core.ruleset import Renderer, RulesetInfo, Setup
from kassen.core.scenario import ScenarioSource
from kassen.core.summary import FightSummary, PlayedFight
from kassen.core.view import Viewer, Visibility
from kassen.i18n import N_, S_

#: Every action of a bout: the fighters' decisions and the referee's own moves (:mod:`kassen.arena.bout.gm`).
BoutAction: TypeAlias = Action | GmAction


@lru_cache(maxsize=256)
def _actor(fid: str, side: str) -> Actor:
    """Each fighter's Actor (an immutable value), asked several times per action: made once."""
    return Actor("unit", fid, side)


class ArenaRuleset:
    """The 3d6 arena (seed 004, ledger ``AR.*``) as the core's ruleset hooks."""

    #: Which events tell each change of a bout's state (:mod:`kassen.arena.accounting`).
    accounting = ACCOUNTING

    info = RulesetInfo(
        name="arena",
        title=N_("Arena (3d6 damage and injury, seed 004)"),
        ledger="AR",
        state_type=BoutState,
        action_type=BoutAction,
        scenarios=("kassen.arena.data", "bouts"),
        rule_texts=("kassen.arena.data", "rules.yaml"),
        scenario_model=ScenarioModel,
        max_units=MAX_UNITS,
        seeds=("004",),
        event_types=EVENT_TYPES,
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
        return _actor(fid, state.fighter(fid).profile.side)

    def legal_actions(self, state: BoutState, tables: ArenaRules) -> Sequence[Action]:
        return legal_actions(state, tables)

    def start(self, state: BoutState, dice: DieSource, tables: ArenaRules) -> BoutTurn:
        return BoutTurn(state, dice, tables)

    def resolve(self, turn: Turn[BoutState], action: BoutAction) -> None:
        if isinstance(action, GM_ACTIONS):
            apply_gm(as_bout_turn(turn), action)
        else:
            resolve(as_bout_turn(turn), action)

    #: One automatic step at a time, some sixty an action: the bout's own function, called with no method
    #: of the ruleset's in between (it checks the turn is the one start() made).
    follow_up = staticmethod(bout_follow_up)

    def result(self, state: BoutState) -> Outcome | None:
        """The winning side (None: nobody) and why, in words with names."""
        r = state.result
        if r is None:
            return None
        if r.winner is None or r.reason == REFEREE:
            return Outcome(r.winner, S_("{reason} (subturn {subturn})", reason=r.reason, subturn=r.subturn))
        return Outcome(r.winner, S_("alone still standing after subturn {subturn}", subturn=r.subturn))

    def heuristic(self, tables: ArenaRules) -> Policy[BoutState, Action]:
        return HeuristicPolicy(tables)

    def names(self, state: BoutState) -> Mapping[str, str]:
        return names(state)

    # -- playing at the table ------------------------------------------------------------------
    # -- the search's hooks (:mod:`~kassen.arena.guess`) ---------------------------------------------------
    def value(self, state: BoutState, tables: ArenaRules) -> Mapping[str, float]:
        """Each side's share of the strength its fighters have left (a house default)."""
        return guess.value(state, tables)

    def determinize(
        self,
        seen: dict[str, Any],
        events: Sequence[Mapping[str, Any]],
        tables: ArenaRules,
        side: str,
        rng: Rng,
    ) -> BoutState:
        """A whole bout from what ``side`` sees, the hidden values guessed (a house default)."""
        return guess.determinize(seen, events, tables, side, rng)

    def fight_summary(self, fight: PlayedFight) -> FightSummary:
        """A finished bout in its own words (:mod:`kassen.arena.summary`)."""
        return summarize(fight)

    def units(self, state: BoutState) -> Mapping[str, str]:
        """Every fighter's side, by its id."""
        return views.units(state)

    def visibility(self, tables: ArenaRules) -> Visibility:
        """What a side may not see of the others: the content's ``visibility`` table."""
        return views.visibility(tables)

    def choices(self, state: BoutState, tables: ArenaRules, path: Sequence[str]) -> Menu:
        """The decision of whoever decides now, step by step (:mod:`kassen.arena.table.menus`)."""
        return menus.choices(state, tables, path, self.to_move(state))

    def decision(self, state: BoutState, tables: ArenaRules, path: Sequence[str]) -> Action:
        """The action a complete path of choices names."""
        return menus.decision(state, tables, path, self.to_move(state))

    def odds(self, state: BoutState, tables: ArenaRules, action: BoutAction) -> Odds | None:
        """The exact odds of an attack-like choice (:mod:`kassen.arena.bout.forecast`)."""
        return None if isinstance(action, GM_ACTIONS) else choice_odds(state, action, tables)

    def label(self, state: BoutState, tables: ArenaRules, field: str, value: Any) -> str | None:
        """Words for the referee's menus, which the core derives from :meth:`gm_actions`."""
        return menus.gm_label(state, field, value)

    def gm_actions(self, state: BoutState, tables: ArenaRules) -> Sequence[GmAction]:
        """The referee's own moves, open at any point of the bout (:mod:`kassen.arena.bout.gm`)."""
        return gm_actions(state, tables)

    def status(self, state: BoutState, tables: ArenaRules, viewer: Viewer) -> Sequence[str]:
        """The order of play above each menu, as ``viewer`` may see it."""
        return views.status(state, tables, viewer)


RULESET = ArenaRuleset()
