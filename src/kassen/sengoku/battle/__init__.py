"""kassen.sengoku.battle: the count-and-breath combat engine of seed 002 on the core's skeleton.

>>> from kassen.sengoku.battle import load_scenario, run_battle
>>> fight = run_battle(load_scenario("demo"), seed=3)
>>> fight.over
True

A round is round start (Energy reset) → the count (the highest Energy breathes) → the lull; each breath
is maneuvers within the limit 5 (overload past it), attacks resolve through the Sengoku attack
resolution, reserved defense techniques answer attacks at 0 further Energy, and the battle ends when a
side has no unit able to act (SG.END.1 house default), followed by death checks and honor flags. Every
house default is read from the catalog (``kassen content list house-default``). The ruleset the core
drives is :data:`RULESET` (``kassen.open_fight("sengoku/demo")``).
"""

from kassen.sengoku.battle.actions import (
    GM,
    Action,
    Begin,
    Breath,
    Decline,
    Environment,
    GmAddDebuff,
    GmAddStatus,
    GmEndCombat,
    GmRemoveDebuff,
    GmRemoveStatus,
    GmSetWounds,
    Hold,
    Pass,
    React,
    Upkeep,
)
from kassen.sengoku.battle.candidates import candidate_breaths
from kassen.sengoku.battle.casting import scenario_policy
from kassen.sengoku.battle.flow import BattleTurn
from kassen.sengoku.battle.plan import Plan, Planner, plan_breath
from kassen.sengoku.battle.policies import HeuristicPolicy
from kassen.sengoku.battle.report import RENDERERS, names, summary
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.ruleset import RULESET, SengokuRuleset
from kassen.sengoku.battle.scenario import (
    Scenario,
    ScenarioModel,
    build_battle,
    bundled_scenarios,
    load_scenario,
    run_battle,
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
    "GM",
    "RENDERERS",
    "RULESET",
    "Action",
    "BattleRules",
    "BattleState",
    "BattleTurn",
    "Begin",
    "Breath",
    "BreathInProgress",
    "Decision",
    "DecisionKind",
    "Decline",
    "Environment",
    "GmAddDebuff",
    "GmAddStatus",
    "GmEndCombat",
    "GmRemoveDebuff",
    "GmRemoveStatus",
    "GmSetWounds",
    "HeuristicPolicy",
    "Hold",
    "Pass",
    "Phase",
    "Plan",
    "Planner",
    "React",
    "Reservation",
    "Result",
    "Scenario",
    "ScenarioModel",
    "SengokuRuleset",
    "Side",
    "Unit",
    "Upkeep",
    "Use",
    "Zone",
    "build_battle",
    "bundled_scenarios",
    "candidate_breaths",
    "load_scenario",
    "names",
    "plan_breath",
    "run_battle",
    "scenario_policy",
    "summary",
]
