"""The range each number of a Sengoku scenario or catalog entry may take, and why (a house default:
seeds 000 and 002 state no range, and their worked examples use small numbers).

The seeds' units have Energy 10 to 12 (a breath spends 1 to 5 of it), 1 to 6 Wounds by grade, Defense 8
to 10 before armour, attributes 0 to 3 and skills to 5; a check is 2d10 plus modifiers against a
Defense. Each range below leaves room for a campaign's own monsters and still keeps every count, loop
and table of the engine small: a unit with 30 Energy breathes at 30 counts a round, not at
1,000,000,000. A scenario's own ``content:`` block is bounded the same way. ``kassen schema scenario
--ruleset sengoku`` and ``kassen content schema`` show every range; ``docs/sengoku/content.md`` gives the
other reading (no bounds but the engine's).
"""

from __future__ import annotations

__all__ = [
    "MAX_ENERGY",
    "MAX_ROUNDS",
    "MAX_WOUNDS",
    "AttributeValue",
    "DefensePoints",
    "Energy",
    "MaxEnergy",
    "MaxWounds",
    "Modifier",
    "Percent",
    "Rounds",
    "SkillRank",
    "Small",
    "Target",
    "Wounds",
]

from typing import Annotated

from pydantic import Field

#: Energy: the seeds' units have 10 to 12; 30 is a count track three times as long.
MAX_ENERGY = 30
#: Wounds: a Lord has 6 by grade (SG.WND.*); 20 is a monster of a campaign's own.
MAX_WOUNDS = 20
#: Rounds of one battle (SG.END.1: the house limit is 20).
MAX_ROUNDS = 100

Energy = Annotated[
    int, Field(ge=0, le=MAX_ENERGY, description="0 to 30 Energy (the seeds' units have 10 to 12)")
]
Wounds = Annotated[int, Field(ge=0, le=MAX_WOUNDS, description="0 to 20 Wounds (a Lord has 6)")]
DefensePoints = Annotated[int, Field(ge=0, le=40, description="0 to 40 (Defense is 8 to 10 before armour)")]
AttributeValue = Annotated[int, Field(ge=-5, le=10, description="-5 to 10 (the seeds' units have 0 to 3)")]
SkillRank = Annotated[int, Field(ge=0, le=10, description="0 to 10 (the seeds' units have 1 to 5)")]
Modifier = Annotated[int, Field(ge=-20, le=20, description="-20 to 20 on a 2d10 check")]
Target = Annotated[int, Field(ge=2, le=40, description="2 to 40: a 2d10 check with its modifiers")]
Small = Annotated[int, Field(ge=0, le=20, description="0 to 20")]
MaxEnergy = Annotated[int, Field(ge=1, le=MAX_ENERGY, description="1 to 30 (the seeds' units: 10 to 12)")]
MaxWounds = Annotated[int, Field(ge=1, le=MAX_WOUNDS, description="1 to 20 (a Lord has 6)")]
Rounds = Annotated[int, Field(ge=1, le=MAX_ROUNDS, description="1 to 100 rounds")]
Percent = Annotated[int, Field(ge=1, le=100, description="1 to 100 (a d100 roll)")]
