"""The roll-and-keep ruleset on the core's engine skeleton (:mod:`kassen.core.engine`).

:data:`RULESET` supplies the hooks of :class:`kassen.core.ruleset.Ruleset`: its content (the tables,
:mod:`kassen.l5r.content`), its scenarios (:func:`kassen.l5r.scenario.setup`), who decides now, the legal
decisions (:mod:`kassen.l5r.legal`), and the resolution of one decision in an
:class:`~kassen.l5r.turn.L5Turn`: ``resolve`` validates it (an
:class:`~kassen.core.errors.IllegalActionError` naming the rule, nothing rolled) and applies it;
``follow_up`` is one automatic step of the turn loop (:func:`kassen.l5r.flow.step`), which the core
repeats under its one cap until someone must decide. It is registered as ``l5r`` (the ``kassen.rulesets``
entry point), so ``kassen.open_fight("l5r/kakita-vs-hida")`` and ``kassen replay`` find it.

>>> import kassen
>>> fight = kassen.open_fight("l5r/first-blood", seed=3)
>>> fight.to_move
Actor(kind='gm', id='gm', side=None)
>>> fight.autoplay()
>>> fight.result.reason
'first blood'
"""

from __future__ import annotations

__all__ = ["RULESET", "DuelAction", "L5Ruleset"]

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from kassen.content.content import Content, Layer
from kassen.core.engine import GM, Actor, Handlers, Outcome, Turn
from kassen.core.fastreplace import replace
from kassen.core.fight import state_codec
from kassen.core.menu import Menu, Odds
from kassen.core.policy import Policy
from kassen.core.rng import DieSource, Rng
from kassen.core.ruleset import Renderer, RulesetInfo, Setup
from kassen.core.scenario import ScenarioSource
from kassen.core.summary import FightSummary, PlayedFight
from kassen.core.view import Viewer, Visibility
from kassen.i18n import S_
from kassen.l5r import flow, guess, menus, views
from kassen.l5r.accounting import ACCOUNTING
from kassen.l5r.actions import (
    Action,
    Begin,
    ChooseCorps,
    ChooseDrive,
    ChooseInjury,
    Declaration,
    Declare,
    ThroatStrike,
)
from kassen.l5r.attacks import throat_strike
from kassen.l5r.content import load_content
from kassen.l5r.damage import choose_injury
from kassen.l5r.events import EVENT_TYPES
from kassen.l5r.gm import GM_ACTIONS, GmAction, apply_gm, gm_actions
from kassen.l5r.legal import legal_actions, validate_listed
from kassen.l5r.odds import attack_preview
from kassen.l5r.policies import Heuristic
from kassen.l5r.report import RENDERERS
from kassen.l5r.scenario import MAX_UNITS, ScenarioModel, setup
from kassen.l5r.specials import choose_corps, choose_drive
from kassen.l5r.state import DuelState, Phase
from kassen.l5r.summary import fight_summary as summarize
from kassen.l5r.tables import L5Tables
from kassen.l5r.turn import L5Turn, shared_characters
from kassen.l5r.validate import next_declarer, skip_reason

#: Every action of a duel: the characters' decisions and the GM's own moves (:mod:`kassen.l5r.gm`).
DuelAction: TypeAlias = Action | GmAction


def _begin(turn: L5Turn, action: Begin) -> None:
    names = [f.name for f in turn.state.fighters]
    if len(names) == 2:
        text = S_("the duel begins: {a} vs {b}", a=names[0], b=names[1])
    elif len(names) == 3:
        text = S_("the duel begins: {a} vs {b} vs {c}", a=names[0], b=names[1], c=names[2])
    else:
        text = S_("the duel begins: {names}", names=" vs ".join(names))
    turn.event("begin", text, "L5.CORE.8")
    flow.start_turn(turn)


def _declare(turn: L5Turn, action: Declare) -> None:
    for step in action.skipped:  # validated: each is no longer possible (L5.CORE.8)
        why = skip_reason(turn.state, action.actor, step, turn.tables)
        turn.event(
            "script_skipped",
            S_(
                "{name}'s scripted declaration ({act}) is skipped: {why}",
                name=action.actor,
                act=step.describe(),
                why=why.message,
            ),
            why.rule,
            fighter=action.actor,
            act=state_codec(Declaration).dump(step),
        )
    f = turn.fighter(action.actor)
    turn.put(replace(f, declared=action.act, declarations_made=f.declarations_made + 1))
    turn.event(
        "declare",
        S_("{name} declares: {act}", name=action.actor, act=action.act.describe()),
        "L5.CORE.8",
        fighter=action.actor,
        act=state_codec(Declaration).dump(action.act),
    )


#: Action type → what applying it does, once validated (DESIGN principle 9: dispatch by table).
_APPLY: Handlers[L5Turn] = (
    Handlers[L5Turn]()
    .add(Begin, _begin)
    .add(Declare, _declare)
    .add(ChooseInjury, choose_injury)
    .add(ChooseCorps, choose_corps)
    .add(ChooseDrive, choose_drive)
    .add(ThroatStrike, throat_strike)
)


class L5Ruleset:
    """The roll-and-keep raises ruleset (seed 003, ledger ``L5.*``)."""

    #: Which events tell each change of a duel's state (:mod:`kassen.l5r.accounting`).
    accounting = ACCOUNTING

    info = RulesetInfo(
        name="l5r",
        title="Roll-and-keep raises, called shots and duels",
        ledger="L5",
        state_type=DuelState,
        action_type=DuelAction,
        scenarios=("kassen.l5r.data", "duels"),
        rule_texts=("kassen.l5r.data", "rules.yaml"),
        scenario_model=ScenarioModel,
        max_units=MAX_UNITS,
        event_types=EVENT_TYPES,
        legal_actions_complete=False,
        legal_actions_note=(
            "Every legal decision is listed, except that a character whose raises have no limit "
            "(core.raises.limit: none) is offered attacks with at most core.raises.max_enumerated_raises "
            "paid raises (beyond its Free Raises); an attack with more is still legal and accepted. With a "
            "limit (the house default: Void) the list is complete. A declaration may also carry the script "
            "steps a scenario's script skips (Declare.skipped, each checked to be no longer possible), "
            "which the list leaves empty."
        ),
    )
    renderers: Mapping[str, Renderer] = RENDERERS

    def load_content(self, layers: Sequence[Layer]) -> Content[L5Tables]:
        return load_content(layers)

    def setup(self, scenario: ScenarioSource, content: Content[L5Tables]) -> Setup[DuelState, Action]:
        return setup(scenario, content)

    def to_move(self, state: DuelState) -> Actor | None:
        """The GM before the duel begins; then the character with a choice waiting, else the next to
        declare; ``None`` once over."""
        if state.phase is Phase.OVER:
            return None
        if state.phase is Phase.START:
            return GM
        who = state.pending.chooser if state.pending is not None else next_declarer(state)
        if who is None:  # in the middle of a resolution: no fight rests here between two actions
            return None
        f = state.fighter(who)
        return Actor("unit", f.name, f.side)

    def legal_actions(self, state: DuelState, tables: L5Tables) -> Sequence[Action]:
        return legal_actions(state, tables)

    def start(self, state: DuelState, dice: DieSource, tables: L5Tables) -> L5Turn:
        return L5Turn(shared_characters(state, tables), dice, tables)

    def resolve(self, turn: Turn[DuelState], action: DuelAction) -> None:
        """Validate ``action`` (naming the rule that forbids it), then apply it."""
        assert isinstance(turn, L5Turn)
        if isinstance(action, GM_ACTIONS):
            apply_gm(turn, action)
            return
        validate_listed(turn.state, action, turn.tables)  # validate(), an attack listed just now read back
        _APPLY(turn, action)

    def follow_up(self, turn: Turn[DuelState]) -> bool:
        assert isinstance(turn, L5Turn)
        return flow.step(turn)

    def result(self, state: DuelState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        return Outcome(state.winner, state.reason)

    def heuristic(self, tables: L5Tables) -> Policy[DuelState, Action]:
        return Heuristic()

    def names(self, state: DuelState) -> Mapping[str, str]:
        """Fighters by their names (a fighter's id is its name), sides as the scenario writes them."""
        out = {str(f.side): str(f.side) for f in state.fighters}
        out.update({str(f.name): str(f.name) for f in state.fighters})
        return out

    # -- playing at the table: menus, odds, views, the GM's moves, the turn order -----------------
    def choices(self, state: DuelState, tables: L5Tables, path: Sequence[str]) -> Menu:
        """The menu after ``path`` (:mod:`kassen.l5r.menus`): action, target, special, called shot, raises."""
        return menus.choices(state, tables, path, self.to_move(state))

    def decision(self, state: DuelState, tables: L5Tables, path: Sequence[str]) -> Action:
        """The action a complete ``path`` names."""
        return menus.decision(state, tables, path)

    def label(self, state: DuelState, tables: L5Tables, field: str, value: Any) -> str | None:
        """Words for the GM's menus, which the core derives from :meth:`gm_actions`."""
        return menus.gm_label(state, tables, field, value)

    def odds(self, state: DuelState, tables: L5Tables, action: DuelAction) -> Odds | None:
        """The exact outcome distribution of an attack-like decision (:mod:`kassen.l5r.odds`)."""
        preview = attack_preview(state, tables, action) if not isinstance(action, GM_ACTIONS) else None
        return preview.odds if preview is not None else None

    def gm_actions(self, state: DuelState, tables: L5Tables) -> Sequence[GmAction]:
        """The GM's own moves, open at any point of the duel (:mod:`kassen.l5r.gm`)."""
        return gm_actions(state, tables)

    # -- the search's hooks (:mod:`~kassen.l5r.guess`) -----------------------------------------------------
    def value(self, state: DuelState, tables: L5Tables) -> Mapping[str, float]:
        """Each side's share of the Wounds its standing fighters can still take (a house default)."""
        return guess.value(state, tables)

    def determinize(
        self,
        seen: dict[str, Any],
        events: Sequence[Mapping[str, Any]],
        tables: L5Tables,
        side: str,
        rng: Rng,
    ) -> DuelState:
        """A whole duel from what ``side`` sees, the hidden values guessed (a house default)."""
        return guess.determinize(seen, events, tables, side, rng)

    def fight_summary(self, fight: PlayedFight) -> FightSummary:
        """A finished duel in its own words (:mod:`kassen.l5r.summary`)."""
        return summarize(fight)

    def units(self, state: DuelState) -> Mapping[str, str]:
        return views.units(state)

    def visibility(self, tables: L5Tables) -> Visibility:
        return views.visibility(tables)

    def status(self, state: DuelState, tables: L5Tables, viewer: Viewer) -> Sequence[str]:
        """The turn order above each menu, as ``viewer`` may see it (:mod:`kassen.l5r.views`)."""
        return views.status(state, tables, viewer)


RULESET = L5Ruleset()
