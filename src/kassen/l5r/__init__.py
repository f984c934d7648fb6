"""kassen.l5r: the roll-and-keep raises ruleset (seed 003, ledger ``L5.*``).

Raises declared before rolling (+5 TN each, limited, Free Raises), raises for damage, called shots with
their injuries and maims, the special attacks with their contested rolls, wound ranks, and a turn loop
(initiative, declaration, resolution) over the shared :class:`~kassen.core.events.Chronicle`.

>>> from kassen.l5r import load_scenario, run_duel, roll_odds
>>> roll_odds("7k3", 25).fraction
Fraction(60154863, 100000000)
>>> run_duel(load_scenario("kakita-vs-hida"), seed=1).is_over()
True

Every number from a table is data (``kassen/l5r/data/*.yaml``), each house default with its rationale
(``docs/l5r/house-defaults.md``).
"""

from kassen.l5r.actions import (
    Act,
    Action,
    ActKind,
    Attack,
    Begin,
    ChooseCorps,
    ChooseDrive,
    ChooseInjury,
    Declaration,
    Declare,
    ThroatStrike,
)
from kassen.l5r.calc import AttackOutcome, OddsResult, attack_once, roll_odds
from kassen.l5r.character import Character, FighterId, Weapon
from kassen.l5r.duel import account, new_chronicle, run_duel
from kassen.l5r.engine import RULESET, L5Ruleset, validate_declaration
from kassen.l5r.policies import Policy, heuristic, scenario_policy
from kassen.l5r.pool import Pool, PoolRoll, chance, parse_pool, roll_pool, ten_dice
from kassen.l5r.scenario import Scenario, bundled_scenarios, load_scenario
from kassen.l5r.state import DuelState, Fighter, Phase, Status
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName, load_tables
from kassen.l5r.wounds import wound_rank

__all__ = [
    "RULESET",
    "Act",
    "ActKind",
    "Action",
    "Attack",
    "AttackOutcome",
    "Begin",
    "Character",
    "ChooseCorps",
    "ChooseDrive",
    "ChooseInjury",
    "Declaration",
    "Declare",
    "DuelState",
    "Fighter",
    "FighterId",
    "L5Ruleset",
    "L5Tables",
    "Location",
    "OddsResult",
    "Phase",
    "Policy",
    "Pool",
    "PoolRoll",
    "Scenario",
    "SpecialAttackName",
    "Status",
    "ThroatStrike",
    "Weapon",
    "account",
    "attack_once",
    "bundled_scenarios",
    "chance",
    "heuristic",
    "load_scenario",
    "load_tables",
    "new_chronicle",
    "parse_pool",
    "roll_odds",
    "roll_pool",
    "run_duel",
    "scenario_policy",
    "ten_dice",
    "validate_declaration",
    "wound_rank",
]
