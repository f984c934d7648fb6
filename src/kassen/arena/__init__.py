"""kassen.arena: the 3d6 arena ruleset (seed 004, ledger ``AR.*``), on the core (``kassen.open_fight``).

>>> from kassen.arena import check_odds, resolve_damage
>>> resolve_damage(12, "cut", ht=10, location="left_arm", armor_dr=2).final
6
>>> check_odds(12).counts
(160, 4, 4, 56)

The ruleset is :data:`RULESET` (``kassen.arena.ruleset``), found as ``"arena"`` through the
``kassen.rulesets`` entry point; a bout is played with ``kassen.open_fight("arena/duel")``.
"""

from kassen.arena.audience import audience_effect, popularity
from kassen.arena.bout import (
    Action,
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    GiveUp,
    Grapple,
    Guts,
    Move,
    Rise,
    SetGuard,
    Wait,
    initial_state,
)
from kassen.arena.checks import (
    AttackOutcome,
    CheckOdds,
    CheckResult,
    ContestResult,
    check_odds,
    check_outcomes,
    contest_odds,
    resolve_attack,
    resolve_check,
    resolve_contest,
    roll_check,
)
from kassen.arena.content import bundled_content, load_content, load_rules
from kassen.arena.damage import DamageResult, Reduction, plan_fall, resolve_damage, strength_damage
from kassen.arena.fighter import Fighter, FighterState, GutsBonusPlan, LocationDR, Weapon, build_fighter
from kassen.arena.injury import Effect, effective_move, hp_effects, injury_effects
from kassen.arena.knockback import knockback_distance, landing_facing, limb_knockback_outcome, posture_factor
from kassen.arena.odds import damage_table, expected_final, hit_chance, knockout_chance
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.rules import ArenaRules
from kassen.arena.ruleset import RULESET, ArenaRuleset
from kassen.arena.scenario import script_steps
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
    "AttackOutcome",
    "Begin",
    "BoutState",
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
    "Move",
    "Posture",
    "Reduction",
    "Rise",
    "SetGuard",
    "Tier",
    "Wait",
    "Weapon",
    "audience_effect",
    "build_fighter",
    "bundled_content",
    "check_odds",
    "check_outcomes",
    "contest_odds",
    "damage_table",
    "effective_move",
    "expected_final",
    "hit_chance",
    "hp_effects",
    "initial_state",
    "injury_effects",
    "knockback_distance",
    "knockout_chance",
    "landing_facing",
    "limb_knockback_outcome",
    "load_content",
    "load_rules",
    "plan_fall",
    "popularity",
    "posture_factor",
    "resolve_attack",
    "resolve_check",
    "resolve_contest",
    "resolve_damage",
    "roll_check",
    "script_steps",
    "strength_damage",
]

# The public functions check their arguments at the door (kassen.core.arguments): a wrong kind is an
# ArgumentError naming it, never an AttributeError from inside; the rules call the plain functions.
from kassen.core.arguments import check_exports

check_exports(globals(), __all__)
