"""Typed actions of a Sengoku battle: what a unit (or the GM) decides.

- :class:`Begin` starts the battle (round 1 starts by itself).
- :class:`Breath` is one breath at the unit's count (SG.BRT.1): maneuvers in order (:class:`Use`),
  attacks, defense reservations, Kata, movement (Retreat included, SG.RET.1), stance declare/release.
- :class:`Hold` and :class:`Pass` give up a breath (SG.CNT.6 house default).
- :class:`React` answers an attack with a reserved defense technique (SG.RES.1-2); :class:`Decline`
  lets it through (and ends a unit's upkeep, or the GM's environment decision).
- :class:`FateIntervention` moves a die of the attacker's own roll (SG.FAT.1); :class:`LastBastion`
  makes a fatal hit check miss (SG.FAT.2): each offered to the unit when the rules allow it.
- :class:`FumbleExtras` is the GM's choice of extras after a fumble (SG.FUM.2).
- :class:`Upkeep` is an upkeep maneuver in the lull (SG.LUL.2); :class:`Environment` the GM's yoma roll
  and :class:`BattlefieldChange` a change of the battlefield (SG.LUL.3).
- :class:`GmSetWounds` and :class:`GmEndCombat` are the GM's adjustments (SG.END.1: "or on GM decision");
  :class:`GmAddStatus`, :class:`GmRemoveStatus` (Defenseless, SG.DFL.1; Bleed, SG.AIM.5) and
  :class:`GmAddDebuff`, :class:`GmRemoveDebuff` (a catalog Defense −N, SG.DBF.1) its rulings on a unit.

Each is written in JSON with its ``kind``, the class name in snake case (``gm_set_wounds``), by the one
codec of :mod:`kassen.core.codec`.
"""

from __future__ import annotations

__all__ = [
    "GM",
    "STATUSES",
    "Action",
    "BattlefieldChange",
    "Begin",
    "Breath",
    "Decline",
    "Environment",
    "FateIntervention",
    "FumbleExtras",
    "GmAddDebuff",
    "GmAddStatus",
    "GmEndCombat",
    "GmRemoveDebuff",
    "GmRemoveStatus",
    "GmSetWounds",
    "Hold",
    "LastBastion",
    "Pass",
    "React",
    "Upkeep",
    "Use",
]

from dataclasses import dataclass
from typing import TypeAlias

from kassen.core.fastinit import fast_init
from kassen.sengoku.battle.state import UnitId, Use

#: The GM's id where an action or a decision names one (the deciding actor is then
#: :data:`kassen.core.engine.GM`).
GM = "gm"


@dataclass(frozen=True, slots=True)
class Begin:
    """The GM starts the battle."""


@fast_init
@dataclass(frozen=True, slots=True)
class Breath:
    """One breath of ``unit`` at its count: ``uses`` resolve in order (SG.BRT.1, SG.CNT.3)."""

    unit: UnitId
    uses: tuple[Use, ...]


@dataclass(frozen=True, slots=True)
class Hold:
    """Spend the hold cost on nothing and act again at a lower count (SG.CNT.6)."""

    unit: UnitId


@fast_init
@dataclass(frozen=True, slots=True)
class Pass:
    """No more breaths this round; the Energy left serves reserved reactions only (SG.CNT.6, SG.RD.6)."""

    unit: UnitId


@dataclass(frozen=True, slots=True)
class React:
    """Execute the reserved ``maneuver`` against the attack at hand, at no further Energy (SG.RES.1)."""

    unit: UnitId
    maneuver: str


@dataclass(frozen=True, slots=True)
class Decline:
    """Let the attack through, keeping the reservation; end one's upkeep; or (``gm``) skip the
    environment roll."""

    unit: UnitId


@dataclass(frozen=True, slots=True)
class FateIntervention:
    """Spend Fate to move die ``die`` (0 or 1) of the roll just made onto the other's face (SG.FAT.1)."""

    unit: UnitId
    die: int


@dataclass(frozen=True, slots=True)
class LastBastion:
    """Spend Fate so that the hit check that would take the unit's last Wounds misses (SG.FAT.2)."""

    unit: UnitId


@dataclass(frozen=True, slots=True)
class FumbleExtras:
    """The GM adds ``extras`` (keys of ``fumble.extras``) to the fumble just made (SG.FUM.2); a foot slip
    moves the roller ``to`` an adjacent zone."""

    extras: tuple[str, ...]
    to: str | None = None


@dataclass(frozen=True, slots=True)
class Upkeep:
    """An upkeep maneuver in the lull (SG.LUL.2): its target (an ally in the zone, or the unit itself),
    for a choose-one upkeep ``choice`` (``wounds`` or ``cohesion``), and for a repositioning ``to`` the
    zone the target goes to."""

    unit: UnitId
    maneuver: str
    target: UnitId | None = None
    choice: str | None = None
    to: str | None = None


@dataclass(frozen=True, slots=True)
class Environment:
    """The GM rolls the Yoma Encounter Table (SG.LUL.3); yoma that come arrive in ``zone`` (default: the
    first zone of the row's kind in the layout)."""

    zone: str | None = None


@dataclass(frozen=True, slots=True)
class BattlefieldChange:
    """The GM changes the battlefield in the lull (SG.LUL.3): the catalog's ``change`` on ``zone``."""

    change: str
    zone: str


@dataclass(frozen=True, slots=True)
class GmSetWounds:
    """The GM sets a unit's Wounds (0 incapacitates it, SG.INP.1)."""

    unit: UnitId
    wounds: int


@dataclass(frozen=True, slots=True)
class GmEndCombat:
    """The GM ends the combat (SG.END.1); ``winner`` is a side id or None."""

    reason: str = "the GM ends the combat"
    winner: str | None = None


#: The statuses the GM may put on a unit or take off it: Defenseless (SG.DFL.1; a maintained stance is
#: released, SG.DFL.2) and Bleed (the SG.INP.3 house default: a Wound lost each lull until bound).
STATUSES = ("defenseless", "bleeding")


@dataclass(frozen=True, slots=True)
class GmAddStatus:
    """The GM rules ``unit`` ``status`` (one of :data:`STATUSES`)."""

    unit: UnitId
    status: str


@dataclass(frozen=True, slots=True)
class GmRemoveStatus:
    """The GM ends ``unit``'s ``status`` (one of :data:`STATUSES`)."""

    unit: UnitId
    status: str


@dataclass(frozen=True, slots=True)
class GmAddDebuff:
    """The GM puts the catalog's Defense −N ``debuff`` on ``unit`` (SG.DBF.1; triggered again, SG.RD.3)."""

    unit: UnitId
    debuff: str


@dataclass(frozen=True, slots=True)
class GmRemoveDebuff:
    """The GM takes the catalog's Defense −N ``debuff`` off ``unit``."""

    unit: UnitId
    debuff: str


Action: TypeAlias = (
    Begin
    | Breath
    | Hold
    | Pass
    | React
    | Decline
    | FateIntervention
    | LastBastion
    | FumbleExtras
    | Upkeep
    | Environment
    | BattlefieldChange
    | GmSetWounds
    | GmEndCombat
    | GmAddStatus
    | GmRemoveStatus
    | GmAddDebuff
    | GmRemoveDebuff
)
