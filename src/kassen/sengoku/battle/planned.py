"""A declared breath planned when it begins (SG.BRT.1, SG.CNT.3-5): :func:`planned_breath` is
:func:`~kassen.sengoku.battle.plan.plan_breath`, remembered by the content for the breaths of a unit's
listing.

Why. A breath the heuristic chose from the unit's listing was found legal, and priced, by the listing
remembered for the unit's situation (``candidates.listing_key``: two states with the same key list the
same breaths at the same prices); its plan — each maneuver's cost with its steps, the Energy spent — is
the same in every state with that key, but for combo fatigue's steps, which count the unit's uses of
each maneuver this round (SG.BRT.3) and so are part of the key here. Planned afresh it costs a walk of
every maneuver (the listing found in memory walked none of them), at every breath.
"""

from __future__ import annotations

__all__ = ["planned_breath"]

from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.candidates import listing_key
from kassen.sengoku.battle.plan import Plan, breath_turn, planner
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState


def planned_breath(rules: BattleRules, state: BattleState, breath: Breath) -> Plan:
    """:func:`~kassen.sengoku.battle.plan.plan_breath` of ``breath`` in ``state``: validated (its turn,
    SG.CNT.3-4; its maneuvers; its Energy, SG.CNT.5) and priced, or IllegalActionError naming the rule.
    A breath of the unit's listing (one of its own breath objects, when the planner has it: what the
    heuristic chose from it) is remembered by the listing's key, the
    breath and the unit's uses this round of its maneuvers; any other is planned as it comes."""
    unit = breath_turn(state, breath.unit)
    plans = planner(rules, state, unit)
    uses = breath.uses
    listing = plans.listing
    if listing is None:
        return plans.plan(uses)
    key = (listing_key(rules, state, plans), uses, tuple(unit.uses_this_round(u.maneuver) for u in uses))
    found = rules.breath_plans.get(key)
    if found is None:
        plan = plans.plan(uses)
        if listing.has(breath):
            rules.breath_plans[key] = (plan.uses, plan.spent)
        return plan
    planned, spent = found
    if spent > unit.energy:
        return plans.plan(uses)  # refused, with its own message (SG.CNT.5)
    return Plan(unit, planned, spent, rules.breath_limit)
