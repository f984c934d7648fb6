"""The Sengoku battle as a ruleset of the core: :data:`RULESET` (entry point ``kassen.rulesets``).

:class:`SengokuRuleset` supplies the core's hooks (:class:`kassen.core.ruleset.Ruleset`): the content
(the catalog's layers through :mod:`kassen.sengoku.catalog`, as :class:`BattleRules` — never in the
state), a scenario made ready (:func:`~kassen.sengoku.battle.scenario.build_battle`), who decides now,
the legal actions, the working copy of one action (:class:`~kassen.sengoku.battle.flow.BattleTurn`), its
resolution and one automatic step of the flow at a time, the result, the heuristic, names and renderers.

``legal_actions`` lists what the deciding unit (or the GM, to begin and for the lull's environment roll)
may do now; for a breath it is a bounded set of sensible breaths
(:mod:`~kassen.sengoku.battle.candidates`), each legal, and ``resolve`` accepts any other legal breath.
The GM's adjustments (:class:`~kassen.sengoku.battle.actions.GmSetWounds`,
:class:`~kassen.sengoku.battle.actions.GmEndCombat`, a status or a Defense −N put on or taken off) are
not listed: the GM may apply them at any time but during an attack's reaction (SG.END.1, SG.WND.4), and
``resolve`` accepts them.

Playing at the table (:mod:`kassen.sengoku.battle.table`): ``choices``/``decision`` build every
decision step by step (any legal breath, maneuver by maneuver, not only the listed ones), ``odds`` is
the exact outcome distribution of a breath's first attack, ``gm_actions`` and ``label`` the GM's own
moves, ``units``/``visibility`` what a side may see, ``status`` the count track above each menu.

>>> import kassen
>>> fight = kassen.open_fight("sengoku/demo", seed=3)
>>> fight.to_move
Actor(kind='gm', id='gm', side=None)
>>> fight.autoplay()
>>> fight.over, fight.result.winner in ("party", "takeda", None)
(True, True)
"""

from __future__ import annotations

__all__ = ["RULESET", "SengokuRuleset"]

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from kassen.content.content import Content, Layer
from kassen.core.engine import GM, Actor, Outcome, Turn
from kassen.core.errors import KassenError
from kassen.core.menu import Menu, Odds
from kassen.core.policy import Policy
from kassen.core.rng import DieSource, Rng
from kassen.core.ruleset import Renderer, RulesetInfo, Setup
from kassen.core.scenario import ScenarioSource
from kassen.core.summary import FightSummary, PlayedFight
from kassen.core.view import Viewer, Visibility
from kassen.i18n import S_
from kassen.sengoku.battle import guess
from kassen.sengoku.battle.accounting import ACCOUNTING
from kassen.sengoku.battle.actions import GM as GM_ID
from kassen.sengoku.battle.actions import (
    Action,
    BattlefieldChange,
    Begin,
    Breath,
    Decline,
    Environment,
    FateIntervention,
    Hold,
    LastBastion,
    Pass,
    React,
)
from kassen.sengoku.battle.candidates import candidate_breaths
from kassen.sengoku.battle.events import EVENT_TYPES
from kassen.sengoku.battle.flow import BattleTurn, upkeep_options
from kassen.sengoku.battle.flow.effects import fumble_options
from kassen.sengoku.battle.plan import usable_reservations
from kassen.sengoku.battle.policies import HeuristicPolicy
from kassen.sengoku.battle.report import RENDERERS, names
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.scenario import MAX_UNITS, ScenarioModel, build_battle
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase
from kassen.sengoku.battle.summarize import fight_summary as summarize
from kassen.sengoku.battle.table import gm, menus, views
from kassen.sengoku.battle.table.preview import attack_preview
from kassen.sengoku.catalog import Catalog, catalog_content

_NOTE = (
    "a breath is any sequence of maneuvers within the unit's Energy: listed are single maneuvers, a "
    "technique twice, an attack with a reservation, a move then an attack, Aim Focus to the breath limit, "
    "a stance (or its release then a move), a technique with each weapon that carries it, picking up a "
    "dropped weapon (then an attack), binding a bleeding ally, Retreat with or without the squads in the "
    "zone, then Hold and Pass; any other legal breath is accepted. After a fumble the GM's extras are "
    "listed one by one (the house default's set first); any set of them is accepted. The GM's own moves "
    "(GmSetWounds, GmEndCombat, a status or a Defense -N put on or taken off) are accepted at any time "
    "but while an attack is under way, never listed: gm_actions offers them. The menus (choices) build "
    "any legal breath step by step."
)


#: The decisions the GM makes: the lull's environment (SG.LUL.3) and a fumble's extras (SG.FUM.2).
_GM_DECIDES = (DecisionKind.ENVIRONMENT, DecisionKind.FUMBLE)


def _battle_content(content: Content[Catalog]) -> Content[BattleRules]:
    """The catalog's content as the engine reads it: the same hash and digests, :class:`BattleRules`."""
    c = content
    return Content(c.ruleset, BattleRules(c.tables), c.hash, c.sections, c.layers, c.inline)


@lru_cache(maxsize=1)
def _bundled() -> Content[BattleRules]:
    return _battle_content(catalog_content())


class SengokuRuleset:
    """The count-and-breath combat of seed 002 (see the module notes)."""

    info = RulesetInfo(
        name="sengoku",
        title="Sengoku: wounds and breath (count and breath battles)",
        ledger="SG",
        state_type=BattleState,
        action_type=Action,
        scenarios=("kassen.sengoku.data", "scenarios"),
        rule_texts=("kassen.sengoku.data", "rules.yaml"),
        scenario_model=ScenarioModel,
        max_units=MAX_UNITS,
        legal_actions_complete=False,
        legal_actions_note=_NOTE,
        seeds=("000", "002"),
        event_types=EVENT_TYPES,
    )

    #: Which events tell each change of a battle's state (:mod:`kassen.sengoku.battle.accounting`).
    accounting = ACCOUNTING

    #: How many actions a search's rollout plays before :meth:`value` scores it (a house default; a
    #: spec's ``depth`` wins, ``depth=0`` plays to the end). The heuristic weighs every breath's
    #: candidates, so a rollout to a battle's end costs about 15 ms: at a table's second a decision
    #: the search would see some 65 of them; cut at 8 actions (a count or so), about 250, and the
    #: Wounds left read the battle well that soon. Measured on the demo battle, search at 200
    #: iterations cut at 8 against the heuristic: 9 of 10 mirrored fights, 0.4 s a decision.
    search_depth = 8

    def __init__(self) -> None:
        self.renderers: Mapping[str, Renderer] = dict(RENDERERS)

    # -- content and scenarios -------------------------------------------------------------------------
    def load_content(self, layers: Sequence[Layer]) -> Content[BattleRules]:
        """The bundled catalog (cached) with each layer merged over it, as the engine reads it."""
        if not layers:
            return _bundled()
        return _battle_content(catalog_content(layers))

    def setup(self, scenario: ScenarioSource, content: Content[BattleRules]) -> Setup[BattleState, Action]:
        return build_battle(scenario, content).setup()

    # -- who decides, and what ----------------------------------------------------------------------
    def to_move(self, state: BattleState) -> Actor | None:
        if state.phase is Phase.OVER:
            return None
        d = state.decision
        if state.phase is Phase.START or d is None or d.kind in _GM_DECIDES:
            return GM
        return Actor("unit", d.unit, state.unit(d.unit).side)

    def legal_actions(self, state: BattleState, tables: BattleRules) -> Sequence[Action]:
        if state.phase is Phase.OVER:
            return []
        if state.phase is Phase.START:
            return [Begin()]
        d = state.decision
        if d is None:
            return []
        if d.kind is DecisionKind.BREATH:
            unit = state.unit(d.unit)
            out: list[Action] = list(candidate_breaths(tables, state, unit))
            if unit.energy >= tables.pass_hold.hold_cost:
                out.append(Hold(unit.id))
            out.append(Pass(unit.id))
            return out
        if d.kind is DecisionKind.REACTION:
            unit = state.unit(d.unit)
            reactions = usable_reservations(tables, state, unit, ambushed=d.ambushed)
            return [*(React(unit.id, m) for m in reactions), Decline(unit.id)]
        if d.kind is DecisionKind.UPKEEP:
            return [*upkeep_options(tables, state, state.unit(d.unit)), Decline(d.unit)]
        if d.kind is DecisionKind.FATE:
            offered = state.attack.offered if state.attack is not None else ()
            return [*(FateIntervention(d.unit, die) for die in offered), Decline(d.unit)]
        if d.kind is DecisionKind.LAST_BASTION:
            return [LastBastion(d.unit), Decline(d.unit)]
        if d.kind is DecisionKind.FUMBLE:
            return [*fumble_options(tables, state, d), Decline(GM_ID)]
        env: list[Action] = [Environment()] if state.yoma else []
        if state.changes:
            env += [BattlefieldChange(c.id, z.id) for c in tables.yoma.changes for z in state.zones]
        return [*env, Decline(GM_ID)]

    # -- one action ------------------------------------------------------------------------------------
    def start(self, state: BattleState, dice: DieSource, tables: BattleRules) -> BattleTurn:
        return BattleTurn(state, dice, tables)

    def resolve(self, turn: Turn[BattleState], action: Action) -> None:
        """Validate ``action`` (IllegalActionError naming the rule) and apply it."""
        _battle(turn).apply(action)

    def follow_up(self, turn: Turn[BattleState]) -> bool:
        """One automatic step of the flow; False when someone must decide or the combat is over."""
        return _battle(turn).step()

    def result(self, state: BattleState) -> Outcome | None:
        r = state.result
        return None if r is None else Outcome(r.winner, r.reason)

    # -- players and words -----------------------------------------------------------------------------
    def heuristic(self, tables: BattleRules) -> Policy[BattleState, Action]:
        return HeuristicPolicy(tables)

    def names(self, state: BattleState) -> Mapping[str, str]:
        return names(state)

    # -- playing at the table: menus, odds, views, the GM's moves, the count track ------------
    def choices(self, state: BattleState, tables: BattleRules, path: Sequence[str]) -> Menu:
        """The menu after ``path`` of whoever decides now (:mod:`~kassen.sengoku.battle.table.menus`)."""
        return menus.choices(state, tables, path, self.to_move(state))

    def decision(self, state: BattleState, tables: BattleRules, path: Sequence[str]) -> Action:
        """The action a complete ``path`` names, every step validated."""
        return menus.decision(state, tables, path)

    def odds(self, state: BattleState, tables: BattleRules, action: Action) -> Odds | None:
        """The exact odds of a breath's first attack, as the menus show them at its target
        (:mod:`~kassen.sengoku.battle.table.preview`); ``None`` for any other action."""
        if not isinstance(action, Breath) or not any(
            tables.maneuver(u.maneuver).attacks for u in action.uses
        ):
            return None
        index = next(i for i, u in enumerate(action.uses) if tables.maneuver(u.maneuver).attacks)
        found = attack_preview(tables, state, action.unit, action.uses, index)
        return found.odds if found is not None else None

    def gm_actions(self, state: BattleState, tables: BattleRules) -> Sequence[Action]:
        """The GM's own moves now (:mod:`~kassen.sengoku.battle.table.gm`)."""
        return gm.gm_actions(state, tables)

    def label(self, state: BattleState, tables: BattleRules, field: str, value: Any) -> str | None:
        """Words for the GM's menus, which the core derives from :meth:`gm_actions`."""
        return gm.gm_label(state, tables, field, value)

    # -- the search's hooks (:mod:`~kassen.sengoku.battle.guess`) ---------------------------------------
    def value(self, state: BattleState, tables: BattleRules) -> Mapping[str, float]:
        """Each side's share of the Wounds left on units still able to fight (a house default)."""
        return guess.value(state, tables)

    def determinize(
        self,
        seen: dict[str, Any],
        events: Sequence[Mapping[str, Any]],
        tables: BattleRules,
        side: str,
        rng: Rng,
    ) -> BattleState:
        """A whole state from what ``side`` sees, the hidden values guessed (a house default)."""
        return guess.determinize(seen, events, tables, side, rng)

    def fight_summary(self, fight: PlayedFight) -> FightSummary:
        """A finished battle in its own words (:mod:`kassen.sengoku.battle.summarize`)."""
        return summarize(fight)

    def units(self, state: BattleState) -> Mapping[str, str]:
        """Every unit's side, by id."""
        return views.units(state)

    def visibility(self, tables: BattleRules) -> Visibility:
        """What a side may not see of the others (the content's ``visibility`` table)."""
        return views.visibility(tables)

    def status(self, state: BattleState, tables: BattleRules, viewer: Viewer) -> Sequence[str]:
        """The count track above each menu, as ``viewer`` may see it."""
        return views.status(state, tables, viewer)


def _battle(turn: Turn[BattleState]) -> BattleTurn:
    if not isinstance(turn, BattleTurn):
        raise KassenError(
            S_("a Sengoku action is resolved in a BattleTurn, not {kind}", kind=type(turn).__name__)
        )
    return turn


RULESET = SengokuRuleset()
