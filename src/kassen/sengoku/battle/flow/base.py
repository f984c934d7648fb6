"""The working copy of a battle inside one action: small helpers and the statuses every rule changes.

:class:`TurnBase` is the :class:`~kassen.core.engine.Turn` of a Sengoku battle: ``state`` is the
:class:`~kassen.sengoku.battle.state.BattleState` being rewritten, ``dice`` the one die source (the
seeded RNG, or faces typed at the table), ``rules`` the content's
:class:`~kassen.sengoku.battle.rules.BattleRules`, and ``log`` records the events. The parts of the flow
build on it (attacks, breaths, rounds), and :class:`~kassen.sengoku.battle.flow.turn.BattleTurn` is the
whole of it.
"""

from __future__ import annotations

__all__ = ["TurnBase", "use_json"]

from typing import Any

from kassen.core.engine import Turn
from kassen.core.fastreplace import replace
from kassen.core.rng import DieSource
from kassen.i18n import S_
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, BreathInProgress, Unit, Use
from kassen.sengoku.check import Faces, roll_faces
from kassen.sengoku.entries import ManeuverKind
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.wounds import Squad


def use_json(use: Use) -> dict[str, Any]:
    """A maneuver use as short JSON: the maneuver and the fields that are set."""
    out: dict[str, Any] = {"maneuver": use.maneuver}
    if use.target is not None:
        out["target"] = use.target
    if use.aim:
        out["aim"] = use.aim
    if use.to is not None:
        out["to"] = use.to
    if use.squads:
        out["squads"] = list(use.squads)
    if use.release:
        out["release"] = True
    if use.choice is not None:
        out["choice"] = use.choice
    if use.weapon is not None:
        out["weapon"] = use.weapon
    return out


class TurnBase(Turn[BattleState]):
    """The state being rewritten by one action (never the caller's object), its dice, rules and events."""

    __slots__ = ("context_memo", "rules")

    def __init__(self, state: BattleState, dice: DieSource, tables: BattleRules) -> None:
        super().__init__(state, dice, tables)
        self.rules = tables
        #: The attack context last worked out, with what it was read from (see ``AttackFlow.context``).
        self.context_memo: tuple[object, ...] | None = None

    # -- small helpers ---------------------------------------------------------------------------------
    def u(self, uid: str) -> Unit:
        return self.state.unit(uid)

    def put(self, unit: Unit) -> None:
        self.state = self.state.with_unit(unit)

    def set(self, **changes: Any) -> None:
        self.state = self.state.changed_by(changes)

    def put_set(self, unit: Unit, **changes: Any) -> None:
        """``put(unit)`` then ``set(**changes)``, in one copy of the state."""
        self.state = self.state.with_unit(unit, changes)

    def faces(self) -> Faces:
        return roll_faces(self.dice, sides=self.rules.resolution.check.sides)

    def profile(self, unit: Unit, weapon: str | None = None) -> CombatProfile:
        return self.rules.profile(self.state, unit, weapon=weapon)

    def forfeit(self, b: BreathInProgress, use: Use, why: str, rule: str) -> bool:
        self.log("forfeit", rule, unit=b.unit, use=use_json(use), why=why)
        return False

    # -- statuses --------------------------------------------------------------------------------------
    def action_starts(self, unit: Unit, when: str = S_("its next action starts")) -> Unit:
        """Defenseless ends when the unit's next action starts (SG.DFL.3; whether a React is one is the
        catalog's SG.DFL.3 reading)."""
        if not unit.defenseless:
            return unit
        self.log("defenseless_ends", "SG.DFL.3", unit=unit.id, when=when)
        return replace(unit, defenseless=False)

    def defenseless(self, uid: str, cause: str, rule: str, *, logged: bool = False) -> None:
        """The unit becomes Defenseless: any maintained [stance] is released at once (SG.DFL.1-2).
        ``logged``: the resolution already logged it (a fumble)."""
        unit = self.u(uid)
        if unit.defenseless:
            return
        stances = [s for s in unit.stances if self.rules.maneuver(s).kind is ManeuverKind.STANCE]
        kept = tuple(s for s in unit.stances if s not in stances)
        self.put(replace(unit, defenseless=True, stances=kept))
        if not logged:
            self.log("defenseless", rule, unit=uid, cause=cause, released=stances)
        if stances:
            self.log("stance_released", "SG.DFL.2", unit=uid, stances=stances, cause=S_("Defenseless"))

    def rout(self, uid: str) -> None:
        unit = self.u(uid)
        if unit.routed:
            return
        self.put(replace(unit, routed=True, routed_round=self.state.round))
        self.log("routed", "SG.RET.5", unit=uid, cohesion=unit.cohesion)

    def wounded(self, uid: str, after: int, fell: bool) -> None:
        """Wounds applied; at 0 the unit is Incapacitated and removed from its zone (SG.INP.1); a Lord's
        fall costs his side's squads Cohesion (SG.INP.2, SG.RD.9)."""
        unit = self.u(uid)
        if not fell:
            self.put(replace(unit, wounds=after))
            return
        self.put(replace(unit, wounds=after, incapacitated=True, zone=None, reservations=(), stances=()))
        self.log(
            "removed", "SG.INP.1", unit=uid, zone=unit.zone, why=S_("Incapacitated: removed from the zone")
        )
        if self.rules.creature(unit).grade is not Grade.LORD:
            return
        squads = [
            Squad(u.id, u.side, u.cohesion)
            for u in self.state.units
            if u.cohesion is not None and u.on_battlefield
        ]
        after_fall, _ = self.rules.lord_fall(self.profile(self.u(uid)), squads)
        for old, new in zip(squads, after_fall, strict=True):
            if new.cohesion == old.cohesion:
                continue
            self.cohesion(old.name, new.cohesion - old.cohesion, "SG.INP.2", S_("commander lost"))

    def cohesion(self, uid: str, change: int, rule: str, why: str) -> None:
        unit = self.u(uid)
        assert unit.cohesion is not None
        value = unit.cohesion + change
        floor = self.rules.squads.rout_at + 1
        if change < 0 and unit.ward and value < floor <= unit.cohesion:
            value = floor
            self.log("ward_holds", "SG.RET.5", unit=uid, cohesion=value)
        value = max(0, min(value, unit.cohesion_max or value))
        self.put(replace(unit, cohesion=value))
        self.log("cohesion", rule, unit=uid, before=unit.cohesion, after=value, why=why)
        if value <= self.rules.squads.rout_at:
            self.rout(uid)
        elif change > 0 and unit.routed and unit.cohesion <= self.rules.squads.rout_at < value:
            self.put(replace(self.u(uid), routed=False))
            self.log("rallied", "SG.RET.5", unit=uid, cohesion=value)
