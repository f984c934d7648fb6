"""The range each number of a roll-and-keep scenario or table may take, and why (a house default: seed 003
states no range, and the tables it points at are not in the excerpt).

A rank (Trait, Ring, Void, Insight Rank, skill) stops at 10, as the game's ranks do. A TN stops at 100: the
highest TN to be hit a character reaches is about 65 (Reflexes 10 and heavy armour), and the raises an
attacker calls and a Full Defense add to it in play (a menu's exact odds then read TNs to about 160, each a
fraction of a second; a TN of 200 made one menu take seconds). Distances are feet along the dueling line, a
thousand at most (a character moves Water x 5 feet a turn). Table entries get the same ranges, or small ones
of their own (raises, dice, multiples), so that a scenario's own ``content:`` block cannot make a roll or a
ladder run away either. ``docs/l5r/README.md`` lists them with the other reading (no bounds but the
engine's).
"""

from __future__ import annotations

__all__ = [
    "MAX_RANK",
    "MAX_TN",
    "DiceChange",
    "Divisor",
    "Feet",
    "Multiple",
    "Position",
    "RaiseCount",
    "Rank",
    "SkillRank",
    "Tn",
    "TnChange",
    "Turns",
    "WoundCount",
]

from typing import Annotated

from pydantic import Field

#: The highest Trait, Ring, Void, Insight Rank or skill rank: the game's ranks stop at 10.
MAX_RANK = 10
#: The highest TN (a TN to be hit, a table's base): Reflexes 10 and heavy armour reach about 65.
MAX_TN = 100
#: Feet along the dueling line.
MAX_FEET = 1000

Rank = Annotated[int, Field(ge=1, le=MAX_RANK, description="1 to 10: the game's ranks stop at 10")]
SkillRank = Annotated[int, Field(ge=0, le=MAX_RANK, description="0 to 10: the game's ranks stop at 10")]
Tn = Annotated[int, Field(ge=0, le=MAX_TN, description="0 to 100 (Reflexes 10 in heavy armour: about 65)")]
TnChange = Annotated[int, Field(ge=-MAX_TN, le=MAX_TN, description="-100 to 100 on a TN")]
Feet = Annotated[int, Field(ge=0, le=MAX_FEET, description="0 to 1,000 feet")]
Position = Annotated[int, Field(ge=-MAX_FEET, le=MAX_FEET, description="-1,000 to 1,000 feet along the line")]
RaiseCount = Annotated[int, Field(ge=0, le=100, description="0 to 100 Raises")]
DiceChange = Annotated[
    int, Field(ge=-10, le=10, description="-10 to 10 dice (the ten dice rule caps a roll)")
]
Multiple = Annotated[int, Field(ge=0, le=20, description="0 to 20")]
Divisor = Annotated[int, Field(ge=1, le=20, description="1 to 20")]
Turns = Annotated[int, Field(ge=0, le=100, description="0 to 100 turns")]
#: Wounds: Earth 10 fills the bundled ladder at 190; room for a ladder of one's own.
WoundCount = Annotated[int, Field(ge=0, le=1000, description="0 to 1,000 Wounds (Earth 10 is Out at 190)")]
