"""The Sengoku battle as a ruleset of the shared :class:`~kassen.core.events.Chronicle`.

:class:`SengokuRuleset` supplies what the core asks: ``legal_actions(state)``, a pure
``apply(state, action, rng) -> (state, events)`` (an illegal action raises
:class:`~kassen.core.errors.IllegalActionError` naming its rule and changes nothing, the random source
included), and JSON for states and actions (``core.serial``). It holds one catalog (never in the state);
:data:`RULESET`, on the bundled catalog, is registered as ``"sengoku"`` so ``Chronicle.replay`` finds it.
A battle on user content replays with :func:`replay_battle`, which checks the content hash.

``legal_actions`` lists what the deciding unit (or the GM, for the lull's environment roll) may do now;
for a breath it is a bounded set of sensible breaths (see :mod:`~kassen.sengoku.battle.plan`), each
legal; any other legal breath is accepted by ``apply``. The GM's adjustments (:class:`GmSetWounds`,
:class:`GmEndCombat`) are not listed: they are the GM's, not the deciding unit's.
"""

from __future__ import annotations

__all__ = ["RULESET", "SengokuRuleset", "replay_battle", "ruleset_for"]

from collections.abc import Mapping, Sequence
from typing import Any

from kassen.core.errors import KassenError
from kassen.core.events import Chronicle, Event, JSONValue, register_ruleset
from kassen.core.rng import DieSource
from kassen.core.serial import dump, load
from kassen.sengoku.battle.actions import (
    ACTION_KINDS,
    GM,
    Action,
    Begin,
    Decline,
    Environment,
    Hold,
    Pass,
    React,
    kind_of,
)
from kassen.sengoku.battle.flow import Battle, upkeep_options
from kassen.sengoku.battle.plan import candidate_breaths, usable_reservations
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase
from kassen.sengoku.catalog import Catalog, load_catalog


class SengokuRuleset:
    """The count-and-breath combat of seed 002 over one catalog (the bundled one by default)."""

    name = "sengoku"

    def __init__(self, catalog: Catalog | None = None) -> None:
        self._catalog = catalog
        self._rules: BattleRules | None = None

    @property
    def rules(self) -> BattleRules:
        if self._rules is None:
            self._rules = BattleRules(self._catalog if self._catalog is not None else load_catalog())
        return self._rules

    @property
    def catalog(self) -> Catalog:
        return self.rules.catalog

    # -- the core's protocol ---------------------------------------------------------------------------
    def legal_actions(self, state: BattleState) -> Sequence[Action]:
        if state.phase is Phase.OVER:
            return []
        if state.phase is Phase.START:
            return [Begin()]
        d = state.decision
        if d is None:
            return []
        rules = self.rules
        if d.kind is DecisionKind.BREATH:
            unit = state.unit(d.unit)
            out: list[Action] = list(candidate_breaths(rules, state, unit))
            if unit.energy >= rules.pass_hold.hold_cost:
                out.append(Hold(unit.id))
            out.append(Pass(unit.id))
            return out
        if d.kind is DecisionKind.REACTION:
            unit = state.unit(d.unit)
            reactions = usable_reservations(rules, state, unit, ambushed=d.ambushed)
            return [*(React(unit.id, m) for m in reactions), Decline(unit.id)]
        if d.kind is DecisionKind.UPKEEP:
            return [*upkeep_options(rules, state, state.unit(d.unit)), Decline(d.unit)]
        return [Environment(), Decline(GM)]

    def apply(
        self, state: BattleState, action: Action, rng: DieSource
    ) -> tuple[BattleState, Sequence[Event]]:
        """Validate and resolve ``action``, then everything automatic until the next decision. Pure."""
        battle = Battle(self.rules, state, rng)
        battle.apply(action)
        return battle.state, battle.events

    def is_over(self, state: BattleState) -> bool:
        return state.phase is Phase.OVER

    def state_to_json(self, state: BattleState) -> JSONValue:
        return dump(state, BattleState)

    def state_from_json(self, data: JSONValue) -> BattleState:
        state: BattleState = load(data, BattleState)
        return state

    def action_to_json(self, action: Action) -> JSONValue:
        return {"kind": kind_of(action), **dump(action, type(action))}

    def action_from_json(self, data: JSONValue) -> Action:
        if not isinstance(data, dict) or data.get("kind") not in ACTION_KINDS:
            raise KassenError(f"not a Sengoku battle action: {data!r} (kinds: {', '.join(ACTION_KINDS)})")
        cls = ACTION_KINDS[data["kind"]]
        action: Action = load({k: v for k, v in data.items() if k != "kind"}, cls)
        return action


RULESET = SengokuRuleset()
register_ruleset(RULESET)


def ruleset_for(catalog: Catalog) -> SengokuRuleset:
    """The bundled :data:`RULESET` when ``catalog`` is the bundled catalog, else a ruleset over it."""
    if catalog is load_catalog() or catalog.content_hash == RULESET.catalog.content_hash:
        return RULESET
    return SengokuRuleset(catalog)


def replay_battle(data: Mapping[str, JSONValue], catalog: Catalog | None = None) -> Chronicle[Any, Any]:
    """Replay a battle's chronicle JSON on ``catalog`` (the bundled one by default), after checking that
    the content hash in its meta is the catalog's (DESIGN principle 3)."""
    cat = catalog if catalog is not None else load_catalog()
    wanted = dict(data.get("meta", {})).get("content_hash")
    if wanted is not None and wanted != cat.content_hash:
        raise KassenError(
            f"this battle was played on other content (hash {str(wanted)[:12]}…, this catalog "
            f"{cat.content_hash[:12]}…): pass the same --content"
        )
    ruleset = ruleset_for(cat)
    chronicle: Chronicle[Any, Any] = Chronicle(
        ruleset, ruleset.state_from_json(data["initial_state"]), int(data["seed"]), meta=data.get("meta", {})
    )
    for entry in data["log"]:
        chronicle.apply(ruleset.action_from_json(entry["action"]))
    return chronicle
