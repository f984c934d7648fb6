"""What the battle engine reads from the catalog, looked up once: :class:`BattleRules`.

The catalog is never in the battle state: a :class:`BattleRules` is the content's tables (what
``Ruleset.load_content`` returns and the core passes to every action), wrapping one catalog. It holds the
flow house defaults (SG.CNT.4, SG.CNT.6, SG.BRT.2-3, SG.RES.4, SG.RD.6, SG.ZON.2, SG.RD.2, SG.AMB.1/3,
SG.LUL.3, SG.RET.3-5, SG.END.1) and remembers per-template lookups (creatures, techniques, base profiles),
exact odds and the last few breath planners, each memo keyed by value and bounded, so the hot loop stays
cheap. Everything here is a pure reading of the catalog and the state; no rule numbers live in Python.

The pure rules of seed 000 (:mod:`kassen.sengoku.defense`, :mod:`~kassen.sengoku.energy`,
:mod:`~kassen.sengoku.wounds`, :mod:`~kassen.sengoku.attack`...) fall back to the *bundled* tables when
no table is passed — right for a calculator, never for a battle on its own content. So the battle calls
them only through the methods of :class:`BattleRules` under "the content's tables" (:meth:`defense_of`,
:meth:`armor_max_energy`, :meth:`wound`, :meth:`resolve_attack`...), each of which passes this content's
``defense``, ``resolution`` and ``grades`` itself: an override in a ``--content`` layer or a scenario's
``content:`` block reaches every rule that reads it.
"""

from __future__ import annotations

__all__ = ["AMBUSH_CONDITIONS", "BattleRules", "Memo", "ZoneEffect"]

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from kassen.core.errors import ContentError, ContentIssue
from kassen.core.explain import Step
from kassen.core.rng import DieSource
from kassen.sengoku.aim import AimFocusResult, aim_focus, largest_extra_within_breath
from kassen.sengoku.attack import Attack, AttackResult, DefenseLike, resolve_attack
from kassen.sengoku.battle.memo import Memo
from kassen.sengoku.battle.readings import UnitReadings
from kassen.sengoku.battle.state import BattleState, Unit, Zone
from kassen.sengoku.catalog import Catalog, catalog_skills
from kassen.sengoku.check import (
    CheckKind,
    CheckOutcome,
    CheckResult,
    Classified,
    Faces,
    OpposedResult,
    TieRule,
    classify,
    resolve_check,
    resolve_opposed,
)
from kassen.sengoku.death import DeathCheck, death_check
from kassen.sengoku.defense import DefenseResult, compute_defense, trigger_debuff
from kassen.sengoku.energy import max_energy
from kassen.sengoku.entries import (
    Creature,
    Maneuver,
    MovementTo,
    Range,
    Reach,
    Weapon,
    ZoneKind,
)
from kassen.sengoku.house import (
    AmbushImmunity,
    AmbushReadings,
    AmbushRules,
    CombatEnd,
    ComboFatigue,
    DefenselessTiming,
    HonorFollowUp,
    OverloadCheck,
    PassHold,
    Reactions,
    ReservationAtZero,
    RetreatRules,
    RoutAndFumbleReadings,
    SquadRules,
    TieKey,
    TieOrder,
    YomaEncounters,
    ZoneApplies,
    ZoneModifier,
    ZoneModifiers,
    ZoneTactics,
)
from kassen.sengoku.odds import OddsTable, check_chance
from kassen.sengoku.profile import AttackTags, CombatProfile, DefenseDebuff
from kassen.sengoku.resolution import EffectKind, TableEffect
from kassen.sengoku.table_effects import EffectDone, apply_effect
from kassen.sengoku.technique import Technique, from_maneuver
from kassen.sengoku.wounds import (
    Squad,
    WoundsChange,
    apply_wounds,
    hit_wounds,
    lord_fall,
    max_wounds,
)
from kassen.sengoku.wounds import (
    critical_wounds as critical_wounds_of,
)

#: The ambush condition ids the engine can test (SG.AMB.1); the catalog's list may use only these.
AMBUSH_CONDITIONS = frozenset({"infiltrating", "unseen-from-the-flank"})


@dataclass(frozen=True, slots=True)
class ZoneEffect:
    """A zone row that touched a maneuver (SG.ZON.1 read by SG.RD.2)."""

    amount: int
    text: str
    zone: str


class BattleRules(UnitReadings):
    """One catalog as the battle engine reads it (see the module notes)."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__()
        self.catalog = catalog
        self.defense = catalog.defense
        self.resolution = catalog.resolution
        self.grades = catalog.grades
        self.tie = catalog.default(TieOrder)
        self.pass_hold = catalog.default(PassHold)
        self.overload = catalog.default(OverloadCheck)
        self.combo = catalog.default(ComboFatigue)
        self.reactions = catalog.default(Reactions)
        self.at_zero = catalog.default(ReservationAtZero)
        self.dfl_timing = catalog.default(DefenselessTiming)
        self.tactics = catalog.default(ZoneTactics)
        self.zone_table = catalog.default(ZoneModifiers)
        self.ambush = catalog.default(AmbushRules)
        unknown = [c.id for c in self.ambush.conditions if c.id not in AMBUSH_CONDITIONS]
        if unknown:
            where = [v.source for v in catalog.house_defaults_for("SG.AMB.1")] or ["<catalog>"]
            known = ", ".join(sorted(AMBUSH_CONDITIONS))
            raise ContentError(
                [
                    ContentIssue(
                        where[-1],
                        "SG.AMB.1.conditions",
                        f"unknown ambush condition {c!r} (SG.AMB.1; known: {known})",
                    )
                    for c in unknown
                ]
            )
        self.immunity = catalog.default(AmbushImmunity)
        self.ambush_readings = catalog.default(AmbushReadings)
        self.fumble_readings = catalog.default(RoutAndFumbleReadings)
        #: The aid Kata every unit knows: binding a bleeding ally, picking up a dropped weapon.
        self.aids = tuple(m.id for m in catalog.maneuvers.values() if m.aid is not None)
        bound_by = self.resolution.death_check.bleed.bound_by
        if bound_by not in self.aids:
            raise ContentError(
                [
                    ContentIssue(
                        "resolution",
                        "death_check.bleed.bound_by",
                        f"{bound_by!r} is not an aid maneuver (known: {', '.join(self.aids)})",
                    )
                ]
            )
        self.yoma = catalog.default(YomaEncounters)
        self.honor = catalog.default(HonorFollowUp)
        self.squads = catalog.default(SquadRules)
        self.end = catalog.default(CombatEnd)
        self.retreat = catalog.default(RetreatRules)
        self.breath_limit = catalog.defense.aim_focus.breath_limit
        self.retreat_ids = tuple(
            m.id
            for m in catalog.maneuvers.values()
            if m.movement is not None and m.movement.to is MovementTo.OFF_BATTLEFIELD
        )
        #: Open to every unit: the zone rules' movements and Retreat (SG.ZON.2, SG.RET.1).
        t = self.tactics
        self.common = tuple(
            dict.fromkeys((t.walk, t.run, t.breakthrough, t.core_exit, *self.retreat_ids, *self.aids))
        )
        #: The zone kinds whose zone-table row unlocks ambush (SG.AMB.1 "a Flank Zone unlocks ambush").
        self.ambush_zones = tuple(
            row.zone
            for row in self.zone_table.rows
            if row.applies is ZoneApplies.UNLOCK and "ambush" in row.select.keywords
        )
        self._unlock_keywords = frozenset(
            k
            for row in self.zone_table.rows
            if row.applies is ZoneApplies.UNLOCK
            for k in row.select.keywords
        )
        # Pure readings of the catalog, each worked out by a function of exactly its key (a unit's
        # template by its creature id and spec, a maneuver by its id in this catalog, zones by value):
        # bounded, so a long-lived content object never grows without limit.
        self._creatures: Memo[tuple[str, str], Creature] = Memo()
        self._known: Memo[tuple[str, str], tuple[str, ...]] = Memo()
        self._techniques: Memo[tuple[str, str, str, str | None], Technique] = Memo()
        self._profiles: Memo[tuple[str, str, str | None], CombatProfile] = Memo()
        self._weapons: Memo[tuple[str, str, str], tuple[Weapon, ...]] = Memo()
        self._max: Memo[tuple[str, str], tuple[int, tuple[Step, ...]]] = Memo()
        self._zone_effects: Memo[tuple[object, ...], tuple[ZoneEffect, ...]] = Memo()
        #: Checks by their faces (and the faces' type), modifier and target: frozen values of them alone.
        self._checks: Memo[tuple[object, ...], CheckResult] = Memo()
        self._attack_checks: Memo[tuple[object, ...], tuple[CheckResult, Classified]] = Memo()
        #: A blow's Wounds and steps (``blow``), by what they read of the technique.
        self._blows: Memo[tuple[object, ...], tuple[int, tuple[Step, ...]]] = Memo()
        self._skills: frozenset[str] | None = None
        #: The Defense an attack's tags roll against on a profile (a pure reading of the two).
        self.defenses: Memo[tuple[CombatProfile, AttackTags], DefenseResult] = Memo()
        #: Exact attack odds under this catalog's tables (:mod:`kassen.sengoku.odds`).
        self.odds = OddsTable(catalog.resolution, defense_rules=catalog.defense, grades=catalog.grades)

    def skills(self) -> frozenset[str]:
        """The skills a creature of this catalog may have (``catalog.catalog_skills``), read once: every
        scenario whose units override their template checks its skills against them."""
        found = self._skills
        if found is None:
            found = self._skills = catalog_skills(self.catalog)
        return found

    # -- templates -------------------------------------------------------------------------------------
    def creature(self, unit: Unit) -> Creature:
        """The unit's template: the catalog creature, or its inline/overridden ``spec``."""
        return self.template(unit.creature, unit.spec)

    def template(self, creature: str, spec: str) -> Creature:
        """The template of a unit of this creature id and ``spec`` (:meth:`creature`)."""
        key = (creature, spec)
        found = self._creatures.get(key)
        return found if found is not None else self._creatures.put(key, self._template(*key))

    def _template(self, creature: str, spec: str) -> Creature:
        return Creature.model_validate(json.loads(spec)) if spec else self.catalog.creature(creature)

    def servant(self, unit: Unit) -> bool:
        """A shikigami: it moves only when its side's onmyoji repositions it in the lull (SG.LUL.2)."""
        return any(self.catalog.trait(t).shikigami for t in self.creature(unit).traits)

    def maneuver(self, key: str) -> Maneuver:
        found = self.catalog.maneuvers.get(key)
        return found if found is not None else self.catalog.maneuver(key)

    def known(self, unit: Unit) -> tuple[str, ...]:
        """Every maneuver the unit can choose: its weapons' techniques, its own, its traits' grants
        (SG.BRT.1), and the movements every unit has (walk, run, Breakthrough, Core Zone Exit, Retreat)."""
        key = (unit.creature, unit.spec)
        found = self._known.get(key)
        return found if found is not None else self._known.put(key, self._known_of(*key))

    def _known_of(self, creature: str, spec: str) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys((*self.catalog.known_maneuvers(self.template(creature, spec)), *self.common))
        )

    def carriers(self, unit: Unit, maneuver: Maneuver) -> tuple[Weapon, ...]:
        """The unit's weapons a maneuver can be used with: the one whose license it is, else every one of
        the unit's weapons listing it (in the unit's order), else the weapon in hand (attacks only)."""
        return self._carriers(unit.creature, unit.spec, maneuver.id)

    def _carriers(self, creature: str, spec: str, maneuver: str) -> tuple[Weapon, ...]:
        key = (creature, spec, maneuver)
        found = self._weapons.get(key)
        return found if found is not None else self._weapons.put(key, self._carriers_of(*key))

    def _carriers_of(self, creature: str, spec: str, maneuver_id: str) -> tuple[Weapon, ...]:
        c, maneuver = self.template(creature, spec), self.maneuver(maneuver_id)
        if maneuver.weapon is not None:
            return (self.catalog.weapon(maneuver.weapon),)
        listing = tuple(
            self.catalog.weapon(w) for w in c.weapons if maneuver.id in self.catalog.weapon(w).maneuver_ids()
        )
        if listing:
            return listing
        if maneuver.attacks and c.weapons:
            return (self.catalog.weapon(c.weapons[0]),)
        return ()

    def weapon_for(self, unit: Unit, maneuver: Maneuver, choice: str | None = None) -> Weapon | None:
        """The weapon a maneuver is used with: ``choice`` when it is one of its carriers, else the first
        carrier (:meth:`carriers`)."""
        return self._weapon_for(unit.creature, unit.spec, maneuver.id, choice)

    def _weapon_for(self, creature: str, spec: str, maneuver: str, choice: str | None) -> Weapon | None:
        found = self._carriers(creature, spec, maneuver)
        if choice is not None:
            for w in found:
                if w.id == choice:
                    return w
        return found[0] if found else None

    def technique(self, unit: Unit, maneuver: Maneuver, weapon: str | None = None) -> Technique:
        key = (unit.creature, unit.spec, maneuver.id, weapon)
        found = self._techniques.get(key)
        return found if found is not None else self._techniques.put(key, self._technique(*key))

    def _technique(self, creature: str, spec: str, maneuver: str, weapon: str | None) -> Technique:
        return from_maneuver(self.maneuver(maneuver), self._weapon_for(creature, spec, maneuver, weapon))

    def reach(self, unit: Unit, maneuver: Maneuver, weapon: str | None = None) -> Reach | None:
        w = self.weapon_for(unit, maneuver, weapon)
        return w.reach if w is not None else maneuver.reach

    def range(self, unit: Unit, maneuver: Maneuver, weapon: str | None = None) -> Range:
        """Whom it reaches (house default for SG.ZON.2): its stated range, else melee in the same zone and
        ranged weapons one zone away."""
        if maneuver.range is not None:
            return maneuver.range
        return Range.ADJACENT_ZONE if self.reach(unit, maneuver, weapon) is Reach.RANGED else Range.SAME_ZONE

    def attribute(self, unit: Unit, name: str | None) -> int:
        if name is None:
            return 0
        value: int = getattr(self.creature(unit).attributes, name)
        return value

    def skill(self, unit: Unit, name: str | None) -> int:
        return self.creature(unit).skills.get(name, 0) if name else 0

    # -- profiles --------------------------------------------------------------------------------------
    def base_profile(self, unit: Unit, weapon: str | None = None) -> CombatProfile:
        # keyed by the weapon as given: the catalog reads None (the first weapon) and "" (none) apart
        key = (unit.creature, unit.spec, weapon)
        found = self._profiles.get(key)
        return found if found is not None else self._profiles.put(key, self._profile(*key))

    def _profile(self, creature: str, spec: str, weapon: str | None) -> CombatProfile:
        return self.catalog.profile(self.template(creature, spec), weapon=weapon)

    def wounds_max(self, unit: Unit) -> int:
        return max_wounds(self.base_profile(unit), self.grades)

    def armor_max_energy(self, unit: Unit) -> tuple[int, tuple[Step, ...]]:
        """Maximum Energy before round penalties: the creature's own or its grade's (SG.BRT.0), less the
        heavy-armor penalty offset by Physique (SG.DEF.7), both from this content's ``defense`` table."""
        key = (unit.creature, unit.spec)
        found = self._max.get(key)
        return found if found is not None else self._max.put(key, self._max_energy(*key))

    def _max_energy(self, creature: str, spec: str) -> tuple[int, tuple[Step, ...]]:
        base = self.catalog.max_energy(self.template(creature, spec))
        return max_energy(base, self._profile(creature, spec, None), rules=self.defense)

    # -- the content's tables: every pure rule the battle calls, with this content's tables ----------------
    def defense_of(self, target: CombatProfile, tags: AttackTags) -> DefenseResult:
        """The Defense ``tags`` roll against on ``target`` (SG.DEF.5): this content's armor rows, shield,
        reductions (Defenseless, minimum), grade bases and readings."""
        key = (target, tags)
        found = self.defenses.get(key)
        if found is None:
            found = self.defenses[key] = compute_defense(target, tags, rules=self.defense, grades=self.grades)
        return found

    def aim(self, tech: Technique, finesse: int, extra: int) -> AimFocusResult:
        """``tech`` activated with ``extra`` Aim Focus Energy (SG.AIM.1-4) under this content's breath
        limit (raises IllegalActionError naming the rule)."""
        return aim_focus(tech, finesse=finesse, extra=extra, rules=self.defense)

    def aim_room(self, tech: Technique, finesse: int) -> int:
        """The most Aim Focus Energy that keeps an otherwise empty breath within this content's limit and
        N within the Finesse cap (SG.AIM.3, SG.AIM.5)."""
        return largest_extra_within_breath(tech, finesse=finesse, rules=self.defense)

    def debuffed(
        self, target: CombatProfile, debuff: DefenseDebuff
    ) -> tuple[CombatProfile, tuple[Step, ...]]:
        """A Defense −N source triggers on ``target`` (SG.DBF.1), again under this content's SG.RD.3
        reading (accumulate or renew)."""
        return trigger_debuff(target, debuff, rules=self.defense)

    def hit_wounds(self, tech: Technique) -> int:
        """Wounds of a hit with ``tech`` (SG.WND.1, SG.WND.3): this content's ``wounds.hit``."""
        return self.blow(tech, False)[0]

    def critical_wounds(self, tech: Technique) -> int:
        """Wounds of a Critical Hit with ``tech`` (SG.WND.2, SG.CRT.2): this content's ``wounds.critical``
        and SG.RD.1 reading."""
        return self.blow(tech, True)[0]

    def blow_wounds(self, tech: Technique, critical: bool) -> int:
        """Wounds of a blow before any reaction: hit or Critical Hit, with added effects (SG.WND.6)."""
        base = self.critical_wounds(tech) if critical else self.hit_wounds(tech)
        extra = sum(e.wounds for e in tech.on_hit if e.kind is EffectKind.EXTRA_WOUNDS)
        if critical:
            extra += sum(e.wounds for e in tech.on_critical if e.kind is EffectKind.EXTRA_WOUNDS)
        return base + extra

    def blow(self, tech: Technique, critical: bool) -> tuple[int, tuple[Step, ...]]:
        """The Wounds of a hit (or a Critical Hit) with ``tech`` and their steps (SG.WND.1-3, SG.CRT.1-2,
        SG.RD.1), remembered by what they read of the technique (its Wounds, critical Wounds and name)
        and worked out from a technique made of those alone."""
        key = (critical, tech.wounds, tech.critical_wounds, tech.name)
        found = self._blows.get(key)
        return found if found is not None else self._blows.put(key, self._blow(*key))

    def _blow(
        self, critical: bool, wounds: int | None, critical_wounds: int | None, name: str
    ) -> tuple[int, tuple[Step, ...]]:
        read = Technique(name=name, wounds=wounds, critical_wounds=critical_wounds)
        return critical_wounds_of(read, self.resolution) if critical else hit_wounds(read, self.resolution)

    def check(self, faces: Faces, modifier: int, target: int) -> CheckResult:
        """A check from its faces, ``2dN + modifier >= target`` with this content's die (SG.CHK.1):
        remembered by its faces, modifier and target (the result is a frozen value of them alone)."""
        sides = self.resolution.check.sides
        if len(faces) != 2:
            return resolve_check(faces, modifier, target, sides=sides)  # refused, with its message
        key = (type(faces), faces[0], faces[1], modifier, target)
        found = self._checks.get(key)
        if found is None:
            found = self._checks[key] = resolve_check(faces, modifier, target, sides=sides)
        return found

    def chance(self, modifier: int, target: int) -> Fraction:
        """The exact chance of ``2dN + modifier >= target`` with this content's die (SG.CHK.1)."""
        return check_chance(modifier, target, sides=self.resolution.check.sides)

    def attack_check(self, faces: Faces, modifier: int, defense: int) -> tuple[CheckResult, CheckOutcome]:
        """An attack check and what its double means under this content's SG.RD.4 readings (SG.CHK.1-2,
        SG.CRT.1, SG.FUM.1)."""
        if len(faces) != 2:
            return self.check(faces, modifier, defense), CheckOutcome.FAILURE  # refused by check
        check, kind = self.classified_check(faces, modifier, defense)
        return check, kind.outcome

    def classified_check(self, faces: Faces, modifier: int, defense: int) -> tuple[CheckResult, Classified]:
        """An attack check (SG.CHK.1) and all its double means under this content's SG.RD.4 readings,
        remembered by its faces, modifier and Defense (frozen values of those alone); faces that are not
        two are refused by the check itself, every time."""
        if len(faces) != 2:
            check = self.check(faces, modifier, defense)  # raises, with its message
            return check, classify(check, kind=CheckKind.ATTACK, rules=self.resolution)
        key = (type(faces), faces[0], faces[1], modifier, defense)
        found = self._attack_checks.get(key)
        if found is None:
            check = self.check(faces, modifier, defense)
            kind = classify(check, kind=CheckKind.ATTACK, rules=self.resolution)
            found = self._attack_checks[key] = (check, kind)
        return found

    def opposed(
        self, first: Faces, first_modifier: int, second: Faces, second_modifier: int, tie: TieRule
    ) -> OpposedResult:
        """An opposed check with this content's die (SG.CHK.3)."""
        sides = self.resolution.check.sides
        return resolve_opposed(first, first_modifier, second, second_modifier, tie=tie, sides=sides)

    def wound(self, target: CombatProfile, amount: int, rule: str) -> WoundsChange:
        """``amount`` Wounds off ``target`` (SG.WND.1-4, SG.INP.1-2): maximum Wounds by this content's
        grades, a Lord's fall by its ``lord_fall``."""
        return apply_wounds(target, amount, rules=self.resolution, grades=self.grades, rule=rule)

    def lord_fall(
        self, lord: CombatProfile, squads: Sequence[Squad]
    ) -> tuple[tuple[Squad, ...], tuple[Step, ...]]:
        """The squads after ``lord`` falls (SG.INP.2) under this content's ``lord_fall`` (SG.RD.9)."""
        return lord_fall(lord, squads, rules=self.resolution)

    def death_check(self, fallen: CombatProfile, dice: DieSource) -> DeathCheck:
        """The death check after combat (SG.INP.3) against this content's ``death_check.target``."""
        return death_check(fallen, dice, rules=self.resolution, grades=self.grades)

    def table_effect(
        self, effect: TableEffect, unit: CombatProfile, *, hit_wounds: int, executing_grade: str, rule: str
    ) -> EffectDone:
        """One d100 row effect on a unit's profile (SG.CRT.4, SG.FUM.3), with this content's tables
        (Wounds and grades, Defenseless, [Break] grade order)."""
        return apply_effect(
            effect,
            unit,
            hit_wounds=hit_wounds,
            executing_grade=executing_grade,
            rule=rule,
            rules=self.resolution,
            defense_rules=self.defense,
            grades=self.grades,
        )

    def resolve_attack(
        self,
        attacker: CombatProfile,
        target: CombatProfile,
        action: Attack,
        defense: DefenseLike,
        faces: Faces,
        table_dice: DieSource,
    ) -> AttackResult:
        """One attack through the seed-000 resolution with this content's resolution, grades and Defense
        tables (the d100 rows, Wounds, Defenseless, [Break])."""
        return resolve_attack(
            attacker,
            target,
            action,
            defense,
            faces,
            table_dice=table_dice,
            rules=self.resolution,
            grades=self.grades,
            defense_rules=self.defense,
            checks=self.classified_check,
            blows=self.blow,
        )

    def cohesion_max(self, creature: Creature) -> int | None:
        if not creature.squad:
            return None
        if creature.cohesion is not None:
            return creature.cohesion
        return self.squads.cohesion_by_grade[creature.grade]

    # -- zones (SG.ZON.1, SG.RD.2) ---------------------------------------------------------------------
    @staticmethod
    def _zone_has(zone: Zone, kind: ZoneKind) -> bool:
        return zone.high_ground if kind is ZoneKind.HIGH_GROUND else zone.kind == kind.value

    def _selects(
        self,
        creature: str,
        spec: str,
        maneuver: Maneuver,
        row: ZoneModifier,
        skill: str | None,
        weapon: str | None,
    ) -> bool:
        s = row.select
        if s.weapons or s.reach:
            w = self._weapon_for(creature, spec, maneuver.id, weapon)
            if s.weapons and (w is None or w.id not in s.weapons):
                return False
            if s.reach and (w.reach if w is not None else maneuver.reach) not in s.reach:  # reach()
                return False
        if s.kinds and maneuver.kind not in s.kinds:
            return False
        if s.keywords and not set(s.keywords) & set(maneuver.keywords):
            return False
        return not (s.skill and s.skill != skill)

    def zone_effects(
        self,
        unit: Unit,
        maneuver: Maneuver,
        applies: ZoneApplies,
        zone: Zone,
        *,
        target_zone: Zone | None = None,
        skill: str | None = None,
        weapon: str | None = None,
    ) -> tuple[ZoneEffect, ...]:
        """The zone rows that touch ``maneuver`` used from ``zone`` with ``weapon`` (its first carrier by
        default); rows about the occupant of the target's zone, such as high ground's "enemy melee −1",
        read ``target_zone``."""
        key = (unit.creature, unit.spec, maneuver.id, applies, zone, target_zone, skill, weapon)
        found = self._zone_effects.get(key)
        return found if found is not None else self._zone_effects.put(key, self._zone_rows(*key))

    def _zone_rows(
        self,
        creature: str,
        spec: str,
        maneuver_id: str,
        applies: ZoneApplies,
        zone: Zone,
        target_zone: Zone | None,
        skill: str | None,
        weapon: str | None,
    ) -> tuple[ZoneEffect, ...]:
        maneuver = self.maneuver(maneuver_id)
        out: list[ZoneEffect] = []
        for row in self.zone_table.rows:
            if row.applies is not applies:
                continue
            where = target_zone if row.select.against_occupant else zone
            if where is None or not self._zone_has(where, row.zone):
                continue
            if self._selects(creature, spec, maneuver, row, skill, weapon):
                out.append(ZoneEffect(row.amount, row.text, where.id))
        return tuple(out)

    def zone_cost(
        self, unit: Unit, maneuver: Maneuver, base: int, zone: Zone, weapon: str | None = None
    ) -> tuple[int, tuple[ZoneEffect, ...]]:
        """The cost after the zone's Energy rows, never below the table's minimum when a row applies."""
        effects = self.zone_effects(unit, maneuver, ZoneApplies.ENERGY, zone, weapon=weapon)
        if not effects:
            return base, ()
        return max(self.zone_table.energy_minimum, base + sum(e.amount for e in effects)), effects

    def unlocks_ambush(self, zone: Zone) -> bool:
        """The zone table unlocks ambush in ``zone`` (SG.ZON.1, SG.AMB.1)."""
        return any(self._zone_has(zone, kind) for kind in self.ambush_zones)

    def unlocked(self, unit: Unit, maneuver: Maneuver, zone: Zone) -> bool:
        """A maneuver with a keyword some zone unlocks (mounted, ambush) is usable only where a row unlocks
        it (SG.ZON.1, SG.RD.2)."""
        if not self._unlock_keywords & set(maneuver.keywords):
            return True
        return bool(self.zone_effects(unit, maneuver, ZoneApplies.UNLOCK, zone))

    def check_penalty(self, unit: Unit) -> int:
        """The lasting -N on every check the unit makes (its template's ``check_penalty``: a campaign's
        serious injury, SG.INP.3 house default)."""
        return self.creature(unit).check_penalty

    def check_skill(self, unit: Unit, maneuver: Maneuver) -> str | None:
        check = maneuver.check
        if check is None:
            return None
        if check.weapon_skill:
            c = self.creature(unit)
            return self.catalog.weapon(c.weapons[0]).skill if c.weapons else None
        return check.skill

    # -- count -----------------------------------------------------------------------------------------
    def tie_key(self, state: BattleState, unit: Unit) -> tuple[int, ...]:
        """The unit's place among units at the same count (SG.CNT.4): the catalog's keys in order,
        remembered by all they may read (the unit's template, its side's allies-first, its maximum
        Energy and setup order) and worked out from those alone."""
        key = (unit.creature, unit.spec, state.side(unit.side).allies, unit.max_energy, unit.setup)
        found = self.tie_keys.get(key)
        return found if found is not None else self.tie_keys.put(key, self._tie_key(*key))

    def _tie_key(
        self, creature: str, spec: str, allies: bool, max_energy: int, setup: int
    ) -> tuple[int, ...]:
        attributes = self.template(creature, spec).attributes
        out: list[int] = []
        for key in self.tie.order:
            if key is TieKey.FINESSE:
                out.append(-attributes.finesse)
            elif key is TieKey.ALLIES_FIRST:
                out.append(0 if allies else 1)
            elif key is TieKey.MAX_ENERGY:
                out.append(-max_energy)
            elif key is TieKey.PHYSIQUE:
                out.append(-attributes.physique)
            else:
                out.append(setup)
        return tuple(out)
