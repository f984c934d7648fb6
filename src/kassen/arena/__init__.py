"""kassen.arena: the 3d6 damage-and-injury arena ruleset (seed 004, ledger ``AR.*``).

>>> from kassen.arena import check_odds, resolve_damage
>>> resolve_damage(12, "cut", ht=10, location="left_arm", armor_dr=2).final
6
>>> check_odds(12).counts
(160, 4, 4, 56)

Importing the package registers the bout ruleset as ``"arena"`` (:data:`RULESET`).
"""

from kassen.arena.audience import audience_effect, popularity
from kassen.arena.bout import (
    RULESET,
    Action,
    ArenaRuleset,
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    GiveUp,
    Grapple,
    Guts,
    Rise,
    SetGuard,
    Wait,
    bout_actor,
    new_bout,
)
from kassen.arena.checks import (
    CheckOdds,
    CheckResult,
    ContestResult,
    check_odds,
    contest_odds,
    resolve_check,
    resolve_contest,
    roll_check,
)
from kassen.arena.damage import DamageResult, Reduction, plan_fall, resolve_damage, strength_damage
from kassen.arena.fighter import Fighter, FighterState, GutsBonusPlan, LocationDR, Weapon, build_fighter
from kassen.arena.injury import Effect, effective_move, hp_effects, injury_effects
from kassen.arena.knockback import knockback_distance, landing_facing, limb_knockback_outcome, posture_factor
from kassen.arena.odds import damage_table, expected_final, hit_chance, knockout_chance
from kassen.arena.policies import ByFighter, HeuristicPolicy, ScriptedPolicy
from kassen.arena.rules import ArenaRules, load_rules
from kassen.arena.scenario import Scenario, bundled_scenarios, load_scenario, run_scenario
from kassen.arena.terms import (
    CheckKind,
    Condition,
    DamageSource,
    DamageType,
    Facing,
    MatchFormat,
    Posture,
    Tier,
)

__all__ = [
    "RULESET",
    "Action",
    "ArenaRules",
    "ArenaRuleset",
    "Attack",
    "Begin",
    "BoutState",
    "ByFighter",
    "CheckKind",
    "CheckOdds",
    "CheckResult",
    "Cheer",
    "Condition",
    "ContestResult",
    "DamageResult",
    "DamageSource",
    "DamageType",
    "Decline",
    "Effect",
    "Facing",
    "Fighter",
    "FighterState",
    "GiveUp",
    "Grapple",
    "Guts",
    "GutsBonusPlan",
    "HeuristicPolicy",
    "LocationDR",
    "MatchFormat",
    "Posture",
    "Reduction",
    "Rise",
    "Scenario",
    "ScriptedPolicy",
    "SetGuard",
    "Tier",
    "Wait",
    "Weapon",
    "audience_effect",
    "bout_actor",
    "build_fighter",
    "bundled_scenarios",
    "check_odds",
    "contest_odds",
    "damage_table",
    "effective_move",
    "expected_final",
    "hit_chance",
    "hp_effects",
    "injury_effects",
    "knockback_distance",
    "knockout_chance",
    "landing_facing",
    "limb_knockback_outcome",
    "load_rules",
    "load_scenario",
    "new_bout",
    "plan_fall",
    "popularity",
    "posture_factor",
    "resolve_check",
    "resolve_contest",
    "resolve_damage",
    "roll_check",
    "run_scenario",
    "strength_damage",
]
