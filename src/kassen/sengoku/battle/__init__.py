"""kassen.sengoku.battle: the count-and-breath combat engine of seed 002 over the shared Chronicle.

>>> from kassen.sengoku.battle import load_scenario, run_battle
>>> chronicle = run_battle(load_scenario("demo"), seed=3)
>>> chronicle.is_over()
True

A round is round start (Energy reset) → the count (the highest Energy breathes) → the lull; each breath
is maneuvers within the limit 5 (overload past it), attacks resolve through the Sengoku attack
resolution, reserved defense techniques answer attacks at 0 further Energy, and the battle ends when a
side has no unit able to act (SG.END.1 house default), followed by death checks and honor flags. Every
house default is read from the catalog (``kassen content list house-default``).
"""

from kassen.sengoku.battle.actions import (
    ACTION_KINDS,
    GM,
    Action,
    Begin,
    Breath,
    Decline,
    Environment,
    GmEndCombat,
    GmSetWounds,
    Hold,
    Pass,
    React,
    Upkeep,
)
from kassen.sengoku.battle.plan import Plan, candidate_breaths, plan_breath
from kassen.sengoku.battle.policies import HeuristicPolicy, Policy, ScriptedPolicy, scenario_policy
from kassen.sengoku.battle.report import account, summary
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.ruleset import RULESET, SengokuRuleset, replay_battle, ruleset_for
from kassen.sengoku.battle.scenario import (
    Scenario,
    ScenarioModel,
    bundled_scenarios,
    load_scenario,
    new_chronicle,
    run_battle,
    scenario_from_model,
)
from kassen.sengoku.battle.state import (
    BattleState,
    BreathInProgress,
    Decision,
    DecisionKind,
    Phase,
    Reservation,
    Result,
    Side,
    Unit,
    Use,
    Zone,
)

__all__ = [
    "ACTION_KINDS",
    "GM",
    "RULESET",
    "Action",
    "BattleRules",
    "BattleState",
    "Begin",
    "Breath",
    "BreathInProgress",
    "Decision",
    "DecisionKind",
    "Decline",
    "Environment",
    "GmEndCombat",
    "GmSetWounds",
    "HeuristicPolicy",
    "Hold",
    "Pass",
    "Phase",
    "Plan",
    "Policy",
    "React",
    "Reservation",
    "Result",
    "Scenario",
    "ScenarioModel",
    "ScriptedPolicy",
    "SengokuRuleset",
    "Side",
    "Unit",
    "Upkeep",
    "Use",
    "Zone",
    "account",
    "bundled_scenarios",
    "candidate_breaths",
    "load_scenario",
    "new_chronicle",
    "plan_breath",
    "replay_battle",
    "ruleset_for",
    "run_battle",
    "scenario_from_model",
    "scenario_policy",
    "summary",
]
