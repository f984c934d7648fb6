"""What attacks, fumbles and the environment leave on the battlefield, applied to the state.

- the d100 rows' effects the resolution leaves to the battle (:attr:`~kassen.sengoku.attack.
  AttackResult.pending`: Energy, Cohesion, weapons dropped or broken, other units), each through
  :func:`~kassen.sengoku.table_effects.apply_effect` where a profile holds it (SG.CRT.4, SG.FUM.3);
- the GM's fumble extras (SG.FUM.2): the weapon dropped, the next action dearer, the foot slip;
- Bleed, each lull until bound (SG.AIM.5 with the SG.INP.3 house default);
- the GM's battlefield changes (SG.LUL.3): fire, fog, collapse on a zone, from the catalog.
"""

from __future__ import annotations

__all__ = ["EffectsPart", "fumble_options"]


from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.battle.actions import GM, BattlefieldChange, FumbleExtras
from kassen.sengoku.battle.flow.base import TurnBase
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Decision, DecisionKind, Unit, ZoneCondition
from kassen.sengoku.resolution import FumbleExtraKind, TableEffect, TableEffectKind, TableWho
from kassen.sengoku.table_effects import PROFILE_KINDS, describe, reaches_the_fallen


def _droppable(rules: BattleRules, unit: Unit, weapon: str) -> bool:
    if not weapon or unit.lacks(weapon):
        return False
    return not rules.catalog.weapon(weapon).natural


def fumble_options(rules: BattleRules, state: BattleState, decision: Decision) -> list[FumbleExtras]:
    """The GM's choices after a fumble (SG.FUM.2): the house default's extras first (what auto-play
    does), then each extra alone (the foot slip once per adjacent zone); the GM may also combine them
    or add none (Decline)."""
    unit = state.unit(decision.attacker)
    extras = rules.resolution.fumble.extras
    singles: list[FumbleExtras] = []
    for key, extra in extras.items():
        if extra.does is FumbleExtraKind.DROP_WEAPON:
            if _droppable(rules, unit, decision.weapon):
                singles.append(FumbleExtras((key,)))
        elif extra.does is FumbleExtraKind.FORCED_MOVE:
            if unit.zone is not None:
                singles += [FumbleExtras((key,), z) for z in state.neighbours(unit.zone)]
        else:
            singles.append(FumbleExtras((key,)))
    auto = [k for k in rules.resolution.fumble.gm_auto_play if any(k in a.extras for a in singles)]
    first: list[FumbleExtras] = []
    if len(auto) > 1:
        moved = next((a.to for a in singles if a.to is not None and a.extras[0] in auto), None)
        first = [FumbleExtras(tuple(auto), moved)]
    return first + singles


class EffectsPart(TurnBase):
    """Effects of attacks, fumbles and the environment on the state (see the module notes)."""

    __slots__ = ()

    # -- weapons -----------------------------------------------------------------------------------------
    def drop_weapon(self, uid: str, weapon: str, cost: int, rule: str) -> None:
        unit = self.u(uid)
        if not _droppable(self.rules, unit, weapon):
            self.log("weapon_kept", rule, unit=uid, weapon=weapon, why=S_("no weapon in hand to drop"))
            return
        self.put(replace(unit, dropped=weapon, pickup_cost=cost))
        self.log("weapon_dropped", rule, unit=uid, weapon=weapon, pickup_cost=cost)

    def break_weapon(self, uid: str, weapon: str, rule: str) -> None:
        unit = self.u(uid)
        if not weapon or weapon in unit.broken or self.rules.catalog.weapon(weapon).natural:
            self.log("weapon_kept", rule, unit=uid, weapon=weapon, why=S_("no weapon to break"))
            return
        if self.rules.catalog.weapon(weapon).grade == "divine":
            self.drop_weapon(uid, weapon, 1, rule)  # the house table: a divine item falls instead
            return
        dropped = "" if unit.dropped == weapon else unit.dropped
        self.put(replace(unit, broken=(*unit.broken, weapon), dropped=dropped))
        self.log("weapon_broken", rule, unit=uid, weapon=weapon)

    # -- d100 rows -----------------------------------------------------------------------------------------
    def whom(self, who: TableWho, attacker: str, target: str, target_zone: str | None) -> list[str]:
        a, t = self.u(attacker), self.u(target)
        if who is TableWho.ATTACKER:
            return [attacker]
        if who is TableWho.TARGET:
            return [target]
        if who is TableWho.ANOTHER_ENEMY:
            found = [
                u.id
                for u in self.state.units
                if u.side == t.side and u.id != target and u.on_battlefield and u.zone == target_zone
            ]
            return found[:1]
        if who is TableWho.NEAREST_ALLY:
            found = [
                u.id
                for u in self.state.units
                if u.side == a.side and u.id != attacker and u.on_battlefield and u.zone == a.zone
            ]
            return found[:1]
        return [
            u.id
            for u in self.state.units
            if u.side == t.side and u.cohesion is not None and u.on_battlefield and u.zone == target_zone
        ]

    def table_effects(
        self,
        pending: tuple[TableEffect, ...],
        *,
        attacker: str,
        target: str,
        target_zone: str | None,
        weapon: str,
        hit_wounds: int,
        rule: str,
    ) -> None:
        """The d100 row's effects the resolution left to the battle (SG.CRT.4, SG.FUM.3)."""
        for e in pending:
            found = self.whom(e.who, attacker, target, target_zone)
            if not found and e.fallback is not None:
                found = self.whom(e.fallback, attacker, target, target_zone)
            fallen = [uid for uid in found if not self.u(uid).on_battlefield]
            for uid in fallen:  # the roller or the target, felled by this very attack (SG.INP.1)
                if reaches_the_fallen(e.kind, self.rules.resolution):
                    self.table_effect(
                        e, uid, weapon=weapon, attacker=attacker, hit_wounds=hit_wounds, rule=rule
                    )
                else:
                    name = self.u(uid).name
                    what = describe(e, name, hit_wounds=hit_wounds)
                    text = S_(
                        "{what}: {name} is already Incapacitated, so it does nothing", what=what, name=name
                    )
                    self.log("table_effect", rule, unit=uid, effect=e.kind.value, text=text)
            if fallen:
                continue
            if not found:
                self.log(
                    "table_effect",
                    rule,
                    unit=None,
                    effect=e.kind.value,
                    text=S_("{effect}: nobody there", effect=describe(e)),
                )
                continue
            for uid in found:
                self.table_effect(e, uid, weapon=weapon, attacker=attacker, hit_wounds=hit_wounds, rule=rule)

    def table_effect(
        self, e: TableEffect, uid: str, *, weapon: str, attacker: str, hit_wounds: int, rule: str
    ) -> None:
        unit = self.u(uid)
        k = e.kind
        if k in PROFILE_KINDS:
            grade = self.profile(self.u(attacker)).weapon_grade
            done = self.rules.table_effect(
                e, self.profile(unit), hit_wounds=hit_wounds, executing_grade=grade, rule=rule
            )
            self.events.extend(done.events)
            after = done.profile
            self.put(replace(self.u(uid), fate_points=after.fate_points, armor_damage=after.armor_damage))
            if k is TableEffectKind.DEFENSELESS:
                self.defenseless(uid, S_("a d100 row"), rule, logged=True)
            if done.change is not None and done.change.lost:
                self.wounded(uid, done.change.after, done.change.incapacitated)
            return
        text = describe(e, unit.name, hit_wounds=hit_wounds)
        if k is TableEffectKind.ENERGY:
            after_energy = max(0, min(unit.max_energy, unit.energy + e.amount))
            self.put(replace(unit, energy=after_energy))
            self.log("energy_changed", rule, unit=uid, before=unit.energy, after=after_energy, cause=text)
        elif k is TableEffectKind.COHESION:
            self.cohesion(uid, e.amount, rule, text)
        elif k is TableEffectKind.DROP_WEAPON:
            self.drop_weapon(uid, weapon, e.amount, rule)
        else:
            self.break_weapon(uid, weapon, rule)

    # -- the GM's fumble extras (SG.FUM.2) -----------------------------------------------------------------
    def offer_fumble(self, uid: str, weapon: str) -> None:
        """After a fumble in a battle the GM decides its extras (SG.FUM.2)."""
        if not self.rules.resolution.fumble.extras or not self.u(uid).on_battlefield:
            return
        self.set(decision=Decision(DecisionKind.FUMBLE, GM, attacker=uid, weapon=weapon))
        self.log("fumble_offered", "SG.FUM.2", unit=uid)

    def fumble_extras(self, action: FumbleExtras) -> None:
        d = self.state.decision
        if d is None or d.kind is not DecisionKind.FUMBLE:
            raise IllegalActionError(S_("no fumble is waiting for the GM's extras"), rule="SG.FUM.2")
        extras = self.rules.resolution.fumble.extras
        if not action.extras or len(set(action.extras)) != len(action.extras):
            raise IllegalActionError(S_("name each extra once (or Decline for none)"), rule="SG.FUM.2")
        unknown = [x for x in action.extras if x not in extras]
        if unknown:
            raise IllegalActionError(
                S_(
                    "unknown fumble extra {unknown} (known: {value})",
                    unknown=f"{unknown[0]!r}",
                    value=", ".join(extras),
                ),
                rule="SG.FUM.2",
            )
        unit = self.u(d.attacker)
        moves = [x for x in action.extras if extras[x].does is FumbleExtraKind.FORCED_MOVE]
        if moves and (
            action.to is None or unit.zone is None or action.to not in self.state.neighbours(unit.zone)
        ):
            raise IllegalActionError(
                S_("a foot slip moves {name} to an adjacent zone: name it", name=unit.name), rule="SG.FUM.2"
            )
        if not moves and action.to is not None:
            raise IllegalActionError(S_("only a foot slip moves the roller"), rule="SG.FUM.2")
        for x in action.extras:
            if extras[x].does is FumbleExtraKind.DROP_WEAPON and not _droppable(self.rules, unit, d.weapon):
                raise IllegalActionError(
                    S_("{name} has no weapon in hand to drop", name=unit.name), rule="SG.FUM.2"
                )
        self.set(decision=None)
        for x in action.extras:
            extra = extras[x]
            self.log(
                "fumble_extra",
                "SG.FUM.2",
                automatic=False,
                unit=unit.id,
                extra=x,
                energy=extra.energy,
                effect=extra.effect,
            )
            if extra.does is FumbleExtraKind.DROP_WEAPON:
                self.drop_weapon(unit.id, d.weapon, extra.energy, "SG.FUM.2")
            elif extra.does is FumbleExtraKind.NEXT_ACTION_COST:
                now = self.u(unit.id)
                self.put(replace(now, surcharge=now.surcharge + extra.energy))
            else:
                assert action.to is not None
                now = self.u(unit.id)
                self.put(replace(now, zone=action.to))
                self.log("forced_move", "SG.FUM.2", unit=unit.id, frm=now.zone, to=action.to)

    # -- the lull -----------------------------------------------------------------------------------------
    def bleed(self) -> None:
        """Each bleeding unit loses Wounds (the Bleed house default); at 0 it is Incapacitated and bleeds
        no more."""
        per = self.rules.resolution.death_check.bleed.wounds_per_lull
        for unit in self.state.units:
            if not unit.bleeding or not unit.on_battlefield:
                continue
            after = max(0, unit.wounds - per)
            self.log("bleeds", "SG.AIM.5", unit=unit.id, before=unit.wounds, after=after)
            fell = after == 0 and unit.wounds > 0
            if fell:
                self.log("incapacitated", "SG.WND.4", unit=unit.id)
            self.wounded(unit.id, after, fell)
            if fell:
                self.put(replace(self.u(unit.id), bleeding=False))

    def zone_conditions(self) -> None:
        """The battlefield changes in force: a burning zone costs Wounds; a change ends after the lull of
        its last round (SG.LUL.3)."""
        rnd = self.state.round
        kept = []
        for c in self.state.conditions:
            change = self.rules.yoma.change(c.change)
            if change is not None and change.lull_wounds:
                for unit in self.state.units:
                    if unit.on_battlefield and unit.zone == c.zone:
                        self.lose(unit.id, change.lull_wounds, change.name, "SG.LUL.3")
            if c.until > rnd:
                kept.append(c)
            else:
                self.log("change_ends", "SG.LUL.3", zone=c.zone, change=c.change)
        self.set(conditions=tuple(kept))

    def lose(self, uid: str, wounds: int, cause: str, rule: str) -> None:
        unit = self.u(uid)
        after = max(0, unit.wounds - wounds)
        self.log("wounds_lost_to", rule, unit=uid, before=unit.wounds, after=after, cause=cause)
        fell = after == 0 and unit.wounds > 0
        if fell:
            self.log("incapacitated", "SG.WND.4", unit=uid)
        self.wounded(uid, after, fell)

    def battlefield_change(self, action: BattlefieldChange) -> None:
        d = self.state.decision
        if d is None or d.kind is not DecisionKind.ENVIRONMENT or not self.state.changes:
            raise IllegalActionError(
                S_("the GM changes the battlefield in the lull, when the scenario allows"), rule="SG.LUL.3"
            )
        change = self.rules.yoma.change(action.change)
        if change is None:
            known = ", ".join(c.id for c in self.rules.yoma.changes) or "none"
            raise IllegalActionError(
                S_(
                    "no battlefield change {change} (known: {known})",
                    change=f"{action.change!r}",
                    known=known,
                ),
                rule="SG.LUL.3",
            )
        if not self.state.has_zone(action.zone):
            raise IllegalActionError(S_("no zone {zone}", zone=f"{action.zone!r}"), rule="SG.LUL.3")
        self.set(decision=None, environment_done=True)
        until = self.state.round + change.rounds
        self.log(
            "battlefield_change",
            "SG.LUL.3",
            automatic=False,
            change=change.id,
            name=change.name,
            zone=action.zone,
            effect=change.effect,
            until=until if change.rounds else None,
        )
        if change.rounds:
            kept = tuple(
                c for c in self.state.conditions if not (c.zone == action.zone and c.change == change.id)
            )
            self.set(conditions=(*kept, ZoneCondition(action.zone, change.id, until)))
        impact = change.at_once
        if impact is None:
            return
        for unit in [u for u in self.state.units if u.on_battlefield and u.zone == action.zone]:
            escaped = False
            if impact.check is not None:
                modifier = self.rules.attribute(unit, impact.check.attribute) - self.rules.check_penalty(unit)
                faces = self.faces()
                c = self.rules.check(faces, modifier, impact.check.target)
                escaped = c.success
                self.log(
                    "change_check",
                    "SG.LUL.3",
                    unit=unit.id,
                    change=change.id,
                    faces=list(faces),
                    modifier=modifier,
                    total=c.total,
                    target=impact.check.target,
                    success=c.success,
                    **self.explained(steps=c.steps),
                )
            if escaped:
                continue
            if impact.wounds:
                self.lose(unit.id, impact.wounds, change.name, "SG.LUL.3")
            if impact.defenseless and self.u(unit.id).on_battlefield:
                self.defenseless(unit.id, change.name, "SG.LUL.3")
