"""Typed actions of a Sengoku battle: what a unit (or the GM) decides.

- :class:`Begin` starts the battle (round 1 starts by itself).
- :class:`Breath` is one breath at the unit's count (SG.BRT.1): maneuvers in order (:class:`Use`),
  attacks, defense reservations, Kata, movement (Retreat included, SG.RET.1), stance declare/release.
- :class:`Hold` and :class:`Pass` give up a breath (SG.CNT.6 house default).
- :class:`React` answers an attack with a reserved defense technique (SG.RES.1-2); :class:`Decline`
  lets it through (and ends a unit's upkeep, or the GM's environment decision).
- :class:`Upkeep` is an upkeep maneuver in the lull (SG.LUL.2); :class:`Environment` the GM's yoma roll
  (SG.LUL.3).
- :class:`GmSetWounds` and :class:`GmEndCombat` are the GM's adjustments (SG.END.1: "or on GM decision").

Each is written in JSON with its ``kind``, the class name in snake case (``gm_set_wounds``), by the one
codec of :mod:`kassen.core.codec`.
"""

from __future__ import annotations

__all__ = [
    "GM",
    "Action",
    "Begin",
    "Breath",
    "Decline",
    "Environment",
    "GmEndCombat",
    "GmSetWounds",
    "Hold",
    "Pass",
    "React",
    "Upkeep",
    "Use",
]

from dataclasses import dataclass
from typing import TypeAlias

from kassen.sengoku.battle.state import UnitId, Use

#: The GM's id where an action or a decision names one (the deciding actor is then
#: :data:`kassen.core.engine.GM`).
GM = "gm"


@dataclass(frozen=True, slots=True)
class Begin:
    """The GM starts the battle."""


@dataclass(frozen=True, slots=True)
class Breath:
    """One breath of ``unit`` at its count: ``uses`` resolve in order (SG.BRT.1, SG.CNT.3)."""

    unit: UnitId
    uses: tuple[Use, ...]


@dataclass(frozen=True, slots=True)
class Hold:
    """Spend the hold cost on nothing and act again at a lower count (SG.CNT.6)."""

    unit: UnitId


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
class Upkeep:
    """An upkeep maneuver in the lull (SG.LUL.2): its target (an ally in the zone, or the unit itself)
    and, for a choose-one upkeep, ``choice`` (``wounds`` or ``cohesion``)."""

    unit: UnitId
    maneuver: str
    target: UnitId | None = None
    choice: str | None = None


@dataclass(frozen=True, slots=True)
class Environment:
    """The GM rolls the Yoma Encounter Table (SG.LUL.3); yoma that come arrive in ``zone`` (default: the
    first zone of the row's kind in the layout)."""

    zone: str | None = None


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


Action: TypeAlias = (
    Begin | Breath | Hold | Pass | React | Decline | Upkeep | Environment | GmSetWounds | GmEndCombat
)
