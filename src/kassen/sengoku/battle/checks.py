"""A maneuver's check modifiers and which reserved techniques a unit can execute now, for
:mod:`~kassen.sengoku.battle.plan`, which re-exports them (SG.CHK.1, SG.ZON.1, SG.MAN.1, SG.RES.2,
SG.DFL.2)."""

from __future__ import annotations

__all__ = ["check_modifier", "reaction_defenseless", "situational", "usable_reservations"]

from kassen.core.explain import Step
from kassen.i18n import S_
from kassen.sengoku.battle.equipment import armed_for
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit, Zone
from kassen.sengoku.entries import Maneuver, ReactionKind, Situation
from kassen.sengoku.house import ZoneApplies
from kassen.sengoku.technique import serious_injury_step
from kassen.sengoku.words import modifier_reason


def check_modifier(
    rules: BattleRules, unit: Unit, m: Maneuver, zone: Zone | None = None
) -> tuple[int, tuple[Step, ...]]:
    """A non-attack check's modifier: attribute + skill (or the weapon in hand's) + bonus, and the zone's
    check rows (Infiltration +2 in the Flank, SG.ZON.1/SG.RD.2)."""
    check = m.check
    if check is None:
        return 0, ()
    steps: list[Step] = []
    total = 0
    if check.attribute:
        v = rules.attribute(unit, check.attribute)
        total += v
        steps.append(Step(v, modifier_reason(check.attribute, v), "SG.CHK.1"))
    skill = rules.check_skill(unit, m)
    if skill:
        v = rules.skill(unit, skill)
        total += v
        steps.append(Step(v, modifier_reason(skill, v), "SG.CHK.1"))
    if check.bonus:
        total += check.bonus
        steps.append(
            Step(check.bonus, S_("{name} {bonus}", name=m.name, bonus=f"{check.bonus:+d}"), "SG.CHK.1")
        )
    if zone is not None:
        for e in rules.zone_effects(unit, m, ZoneApplies.CHECK, zone, skill=skill):
            total += e.amount
            steps.append(Step(e.amount, S_("{zone}: {text}", zone=e.zone, text=e.text), "SG.ZON.1"))
    penalty = rules.check_penalty(unit)
    if penalty:
        total -= penalty
        steps.append(serious_injury_step(penalty))
    return total, tuple(steps)


def situational(unit: Unit, m: Maneuver, *, stance_changed: bool) -> tuple[int, tuple[Step, ...]]:
    """A technique's situational check bonuses (Quick Draw after a stance change...)."""
    if m.check is None:
        return 0, ()
    total = 0
    steps: list[Step] = []
    for s in m.check.situational:
        applies = (
            (s.when is Situation.AFTER_STANCE_CHANGE and stance_changed)
            or (s.when is Situation.INFILTRATING and unit.infiltrating)
            or (s.when is Situation.FIRST_ATTACK and unit.attacks == 0)
        )
        if applies:
            total += s.bonus
            steps.append(
                Step(
                    s.bonus,
                    (
                        S_("{name}: {when} +{bonus}", name=m.name, when=s.text or s.when.value, bonus=s.bonus)
                        if s.bonus >= 0
                        else S_(
                            "{name}: {when} -{bonus}",
                            name=m.name,
                            when=s.text or s.when.value,
                            bonus=-s.bonus,
                        )
                    ),
                    "SG.MAN.1",
                )
            )
    return total, tuple(steps)


def reaction_defenseless(
    rules: BattleRules, state: BattleState, unit: Unit, *, ambushed: bool = False
) -> bool:
    """Whether Defenseless bars the unit's evasion against an attack now (SG.DFL.2): its own Defenseless
    (unless SG.DFL.3's reading ends it as the reaction starts and lets the reaction be chosen free of
    it), a routed squad's (SG.RET.5), or the ambush's when the attack is one (``ambushed``, SG.AMB.1)."""
    timing = rules.dfl_timing
    own = unit.defenseless and not (
        timing.reaction_ends_defenseless and not timing.restrictions_apply_to_next_breath
    )
    return own or ambushed or rules.rout_defenseless(state, unit)


def usable_reservations(
    rules: BattleRules, state: BattleState, unit: Unit, *, ambushed: bool = False
) -> tuple[str, ...]:
    """The reserved techniques the unit can execute now: at 0 Energy only if SG.RD.6 says so (SG.RES.2;
    a unit that passed counts its Energy only if SG.CNT.6's default keeps it for reactions), and no
    evasion while it counts as Defenseless against the attack (SG.DFL.2, :func:`reaction_defenseless`)."""
    if not unit.on_battlefield or not unit.reservations:
        return ()
    energy = 0 if unit.passed and not rules.pass_hold.pass_keeps_energy_for_reactions else unit.energy
    if energy <= 0 and not rules.at_zero.usable_at_zero_energy:
        return ()
    barred = reaction_defenseless(rules, state, unit, ambushed=ambushed)
    out = []
    for r in unit.reservations:
        m = rules.maneuver(r.maneuver)
        reaction = m.reaction
        if reaction is None or (barred and reaction.kind is ReactionKind.EVASION):
            continue
        if not armed_for(rules, unit, m):
            continue
        out.append(r.maneuver)
    return tuple(dict.fromkeys(out))
