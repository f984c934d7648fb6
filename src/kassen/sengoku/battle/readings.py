"""What the content's rules read of a unit in a state, for its Defense and its profile: the Defense
bonuses held for it (its own stances and the zone-wide ones of its allies beside it, SG.DEF.4, SG.INC.3),
whether a rout leaves it Defenseless (SG.RET.5), and its :class:`~kassen.sengoku.profile.CombatProfile`
(with what the heuristic numbers of it). A part of :class:`~kassen.sengoku.battle.rules.BattleRules`,
apart from the tables it reads."""

from __future__ import annotations

__all__ = ["UnitReadings"]

from typing import TYPE_CHECKING

from kassen.core.fastreplace import replace
from kassen.sengoku.battle.memo import ContentMemos
from kassen.sengoku.battle.state import BattleState, Unit
from kassen.sengoku.profile import CombatProfile, DefenseBonus

if TYPE_CHECKING:
    from kassen.sengoku.entries import Maneuver
    from kassen.sengoku.house import SquadRules


class UnitReadings(ContentMemos):
    """The unit readings of :class:`~kassen.sengoku.battle.rules.BattleRules` (see the module notes)."""

    if TYPE_CHECKING:  # what BattleRules provides
        squads: SquadRules

        def maneuver(self, key: str) -> Maneuver: ...

        def base_profile(self, unit: Unit, weapon: str | None = None) -> CombatProfile: ...

    def grants(self, state: BattleState, unit: Unit) -> tuple[tuple[DefenseBonus, ...], int]:
        """The non-armor Defense bonuses held for the unit (SG.DEF.4): its own stances and Kata, and the
        zone-wide ones of allies in its zone, in the state's order; and the Incorporeal Defense they add
        (SG.INC.3)."""
        own, spirit, _ = self._held_grants(unit.stances)
        if unit.zone is None:
            return own, spirit
        # the zone-wide grants of the others holding stances in its zone, on its side, in the state's
        # order (most units hold none)
        shared: tuple[DefenseBonus, ...] = ()
        side, zone, uid = unit.side, unit.zone, unit.id
        for holder in state.units:
            if holder.stances and holder.zone == zone and holder.side == side and holder.id != uid:
                shared += self._held_grants(holder.stances)[2]
        return (own + shared if shared else own), spirit

    def _held_grants(
        self, stances: tuple[str, ...]
    ) -> tuple[tuple[DefenseBonus, ...], int, tuple[DefenseBonus, ...]]:
        """What a holder of ``stances`` grants: itself (every grant with a value, and the Incorporeal
        Defense), and its allies in the zone (those scoped ``zone-allies``); remembered by the stances."""
        found = self.stance_grants.get(stances)
        if found is None:
            own: list[DefenseBonus] = []
            zone_wide: list[DefenseBonus] = []
            spirit = 0
            for sid in stances:
                m = self.maneuver(sid)
                g = m.grants
                if g is None:
                    continue
                if g.value:
                    bonus = DefenseBonus(g.kind, g.value, m.name)
                    own.append(bonus)
                    if g.scope.value == "zone-allies":
                        zone_wide.append(bonus)
                spirit += g.incorporeal_defense
            found = self.stance_grants[stances] = (tuple(own), spirit, tuple(zone_wide))
        return found

    def profile(self, state: BattleState, unit: Unit, *, weapon: str | None = None) -> CombatProfile:
        """The unit's :class:`CombatProfile` now: its template, Wounds, stances and zone grants,
        Defenseless (a routed squad counts as Defenseless from the round after its rout, SG.RET.5),
        Defense −N, armor damage, Fate points, and its side as its faction (SG.INP.2)."""
        base = self.base_profile(unit, weapon)
        bonuses, spirit = self.grants(state, unit)
        defenseless = unit.defenseless or self.rout_defenseless(state, unit)
        key = (
            unit.creature,  # with the weapon: what the base profile is made of (``base_profile``)
            unit.spec,
            weapon or "",
            unit.id,
            unit.name,
            unit.wounds,
            unit.wounds_max,
            bonuses,
            unit.debuffs,
            defenseless,
            spirit,
            unit.armor_damage,
            unit.fate_points,
            unit.side,
        )
        found = self.profiles_made.get(key)
        if found is not None:
            return found
        made = replace(
            base,
            name=unit.name,
            id=unit.id,
            wounds=unit.wounds,
            wounds_max=unit.wounds_max,
            bonuses=bonuses,
            debuffs=unit.debuffs,
            defenseless=defenseless,
            incorporeal_defense=base.incorporeal_defense + spirit,
            armor_damage=unit.armor_damage,
            fate_points=unit.fate_points,
            faction=unit.side,
        )
        return self.profiles_made.put(key, made)

    def profile_reading(self, state: BattleState, unit: Unit) -> tuple[object, ...]:
        """Everything :meth:`profile` (without a weapon) reads of the state but the unit's name: two
        units with equal readings have profiles equal but for the name (``tests/sengoku/battle/
        test_values.py`` checks it on every unit of many battles). Cheaper to number than the profile."""
        bonuses, spirit = self.grants(state, unit)
        return (
            unit.creature,
            unit.spec,
            unit.wounds,
            unit.wounds_max,
            bonuses,
            spirit,
            unit.debuffs,
            unit.defenseless or self.rout_defenseless(state, unit),
            unit.armor_damage,
            unit.fate_points,
            unit.side,
        )

    def rout_defenseless(self, state: BattleState, unit: Unit) -> bool:
        """Whether the unit counts as Defenseless because it is routed (SG.RET.5's default: from the round
        after its rout when pursuit waits for the next round, else at once)."""
        if not (unit.routed and self.squads.rout_defenseless):
            return False
        return state.round > unit.routed_round if self.squads.rout_pursuit_from_next_round else True
