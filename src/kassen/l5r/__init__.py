"""kassen.l5r: the roll-and-keep raises ruleset (seed 003, ledger ``L5.*``).

Raises declared before rolling (+5 TN each, limited, Free Raises), raises for damage, called shots with
their injuries and maims, the special attacks with their contested rolls, wound ranks, and a turn loop
(initiative, declaration, resolution) on the core's engine skeleton: :data:`RULESET` is the ruleset
``l5r`` that :func:`kassen.open_fight` and :class:`kassen.Fight` run.

>>> import kassen
>>> from kassen.l5r import roll_odds
>>> roll_odds("7k3", 25).fraction
Fraction(60154863, 100000000)
>>> fight = kassen.open_fight("l5r/kakita-vs-hida", seed=1)
>>> fight.autoplay()
>>> fight.over
True

Every number from a table is data (``kassen/l5r/data/*.yaml``, the fight's content:
:mod:`kassen.l5r.content`), each house default with its rationale (``docs/l5r/house-defaults.md``).
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
from kassen.l5r.aftermath import Carried, aftermath, carry
from kassen.l5r.calc import AttackOutcome, OddsResult, attack_once, roll_odds
from kassen.l5r.character import Character, FighterId, Weapon
from kassen.l5r.content import bundled_content, bundled_tables, content_for, load_content
from kassen.l5r.policies import Heuristic, Preferences, Prefers, SkippingScript, heuristic
from kassen.l5r.pool import Pool, PoolRoll, chance, parse_pool, pool_dice, roll_pool, ten_dice
from kassen.l5r.ruleset import RULESET, L5Ruleset
from kassen.l5r.scenario import bundled_scenarios, load_scenario, run_duel
from kassen.l5r.state import DuelState, Fighter, Phase, Status
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName
from kassen.l5r.turn import L5Turn
from kassen.l5r.validate import validate, validate_declaration
from kassen.l5r.wounds import wound_rank

__all__ = [
    "RULESET",
    "Act",
    "ActKind",
    "Action",
    "Attack",
    "AttackOutcome",
    "Begin",
    "Carried",
    "Character",
    "ChooseCorps",
    "ChooseDrive",
    "ChooseInjury",
    "Declaration",
    "Declare",
    "DuelState",
    "Fighter",
    "FighterId",
    "Heuristic",
    "L5Ruleset",
    "L5Tables",
    "L5Turn",
    "Location",
    "OddsResult",
    "Phase",
    "Pool",
    "PoolRoll",
    "Preferences",
    "Prefers",
    "SkippingScript",
    "SpecialAttackName",
    "Status",
    "ThroatStrike",
    "Weapon",
    "aftermath",
    "attack_once",
    "bundled_content",
    "bundled_scenarios",
    "bundled_tables",
    "carry",
    "chance",
    "content_for",
    "heuristic",
    "load_content",
    "load_scenario",
    "parse_pool",
    "pool_dice",
    "roll_odds",
    "roll_pool",
    "run_duel",
    "ten_dice",
    "validate",
    "validate_declaration",
    "wound_rank",
]

# The public functions check their arguments at the door (kassen.core.arguments): a wrong kind is an
# ArgumentError naming it, never an AttributeError from inside; the rules call the plain functions.
from kassen.core.arguments import check_exports

check_exports(globals(), __all__)
