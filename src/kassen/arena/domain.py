"""The range each number of an arena scenario may take, and why (a house default: seed 004 states no
range for any of them, AR.GAP.2).

A number outside its range is a typo or an attack on the engine, never a fighter: ``dx: 1000000000``
made Move (DX + HT) / 4 and the destinations the menus list within it run past 100 s of CPU. Each range
is the rules' own domain where they have one, with room to spare: the strength table runs from ST 1 to
ST 100 (a giant), so ST does too, and the other attributes share it; a 3d6 check is decided at an
effective 18 (AR.CORE.*), so skills and defences stop at 100 with every penalty still able to bite;
HP and FP run to three times the largest attribute. ``kassen schema scenario --ruleset arena`` shows
every range with its reason; ``docs/arena/house-defaults.md`` gives the other reading (no bounds but the
engine's).
"""

from __future__ import annotations

__all__ = [
    "ATTRIBUTE",
    "Attribute",
    "CheckDice",
    "Clock",
    "Count",
    "Damage",
    "DamageAdds",
    "DamageDice",
    "Distance",
    "Divisor",
    "DrPoints",
    "Modifier",
    "Move",
    "Multiple",
    "Points",
    "PointsLevel",
    "Position",
    "Ratio",
    "Sides",
    "SkillLevel",
    "Small",
    "Weight",
]

from fractions import Fraction
from typing import Annotated

from pydantic import Field

#: ST, DX, IQ, HT, Per and Will: the strength table's rows (ST 1 to 100).
ATTRIBUTE = (1, 100)
#: HP and FP: three times the largest attribute.
POINTS = (1, 300)
#: A skill or a defence before modifiers: a 3d6 check is decided by 18, so 100 leaves room for penalties.
SKILL = (0, 100)
#: Move, in metres a subturn: the largest (DX + HT) / 4 the attributes allow is 50.
MOVE = (0, 50)
#: Metres along the arena's line (a position, a start distance): 1 km is more than any arena.
DISTANCE = (0, 1000)
#: Damage resistance of one location: 100 stops any blow of the strength table (13d+ at ST 100).
DR = (0, 100)
#: Dice and adds of a weapon's damage beyond its ST base: the table's largest, 13d, with room.
DICE = (0, 20)
ADDS = (-20, 100)
#: A fighter's weight in kg: two tonnes (falling damage grows by 1 a 100 kg, AR.FAL.1).
WEIGHT = (0, 2000)

Attribute = Annotated[
    int,
    Field(ge=ATTRIBUTE[0], le=ATTRIBUTE[1], description="1 to 100: the strength table's ST 1 to ST 100"),
]
Points = Annotated[
    int, Field(ge=POINTS[0], le=POINTS[1], description="1 to 300: three times the largest attribute")
]
SkillLevel = Annotated[
    int,
    Field(ge=SKILL[0], le=SKILL[1], description="0 to 100: a 3d6 check is decided by 18; room for penalties"),
]
Move = Annotated[
    int, Field(ge=MOVE[0], le=MOVE[1], description="0 to 50 m a subturn: (DX + HT) / 4 at attributes 100")
]
Distance = Annotated[
    int, Field(ge=DISTANCE[0], le=DISTANCE[1], description="0 to 1,000 m: more than any arena")
]
Position = Annotated[
    int,
    Field(ge=-DISTANCE[1], le=DISTANCE[1], description="-1,000 to 1,000 m along the arena's line"),
]
DrPoints = Annotated[
    int, Field(ge=DR[0], le=DR[1], description="0 to 100: stops any blow of the strength table")
]
DamageDice = Annotated[
    int, Field(ge=DICE[0], le=DICE[1], description="0 to 20 dice: the strength table's largest is 13d")
]
DamageAdds = Annotated[int, Field(ge=ADDS[0], le=ADDS[1], description="-20 to +100 added to the damage roll")]
Damage = Annotated[int, Field(ge=0, le=1000, description="0 to 1,000 points")]
Weight = Annotated[
    int, Field(ge=WEIGHT[0], le=WEIGHT[1], description="0 to 2,000 kg (falling damage grows 1 a 100 kg)")
]
Count = Annotated[int, Field(ge=0, le=10_000, description="0 to 10,000")]
Divisor = Annotated[int, Field(ge=1, le=100, description="1 to 100")]

# -- the content's tables (a scenario's own `content:` block may rewrite them too) ---------------------
#: A modifier, bonus or penalty, a target or a roll read against one: ±100 is past any 3d6 check.
Modifier = Annotated[int, Field(ge=-100, le=100, description="-100 to 100")]
#: Dice a check or a table rolls, and the faces of its die.
CheckDice = Annotated[int, Field(ge=1, le=20, description="1 to 20 dice")]
Sides = Annotated[int, Field(ge=2, le=100, description="2 to 100 faces")]
#: A number of subturns, slots or steps of the engine's clock.
Clock = Annotated[int, Field(ge=0, le=1000, description="0 to 1,000")]
#: A threshold on HP or FP (it may sit below 0: HP at -5 x HT).
PointsLevel = Annotated[int, Field(ge=-POINTS[1], le=POINTS[1], description="-300 to 300")]
#: A multiple of HT (death checks at -1 x HT, death at -5 x HT) or of a roll.
Multiple = Annotated[int, Field(ge=-100, le=100, description="-100 to 100")]
#: A ratio (a wounding multiplier, a posture factor, a share of Move): 0 to 100.
Ratio = Annotated[Fraction, Field(ge=0, le=100, description="0 to 100")]
#: A small count of points (FP spent, audience points): 0 to 100.
Small = Annotated[int, Field(ge=0, le=100, description="0 to 100")]
