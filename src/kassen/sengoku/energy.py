"""Heavy armor and maximum Energy (SG.DEF.7).

Heavy armor lowers maximum Energy (heavy −1, heavy battle −2, from ``data/defense.yaml``), offset by the
Physique 體 modifier. House default: the offset never turns the penalty into a bonus, and a negative
Physique does not deepen it (both switchable in the data).

>>> from kassen.sengoku.profile import ArmorKind, Attributes, CombatProfile
>>> max_energy(11, CombatProfile(armor=ArmorKind.HEAVY_BATTLE, attributes=Attributes(physique=1)))[0]
10
"""

from __future__ import annotations

__all__ = ["armor_energy_penalty", "max_energy"]

from kassen.core.explain import Step
from kassen.i18n import S_
from kassen.sengoku.defense import DefenseRules, load_defense_rules
from kassen.sengoku.profile import CombatProfile


def armor_energy_penalty(
    profile: CombatProfile, *, rules: DefenseRules | None = None
) -> tuple[int, tuple[Step, ...]]:
    """The Energy the profile's armor costs after the Physique offset (a number ≥ 0 under the house
    default), with steps whose values are the running penalty."""
    rules = rules if rules is not None else load_defense_rules()
    row = rules.armor.rows[profile.armor]
    if not row.energy_penalty:
        return 0, ()
    physique = profile.attributes.physique
    penalty = row.energy_penalty
    steps = [
        Step(penalty, S_("{label}: maximum Energy −{penalty}", label=row.label, penalty=penalty), "SG.DEF.7")
    ]
    if physique > 0 or (physique < 0 and rules.energy.negative_physique_deepens):
        penalty -= physique
        steps.append(
            Step(
                penalty, S_("Physique {physique} offsets the penalty", physique=f"{physique:+d}"), "SG.DEF.7"
            )
        )
    elif physique < 0:
        steps.append(
            Step(
                penalty,
                S_("Physique {physique} does not deepen the penalty", physique=f"{physique:+d}"),
                "SG.DEF.7",
            )
        )
    if penalty < 0 and not rules.energy.penalty_can_become_bonus:
        penalty = 0
        steps.append(Step(penalty, S_("the offset never becomes a bonus"), "SG.DEF.7"))
    return penalty, tuple(steps)


def max_energy(
    base: int, profile: CombatProfile, *, rules: DefenseRules | None = None
) -> tuple[int, tuple[Step, ...]]:
    """Maximum Energy after the heavy-armor penalty (SG.DEF.7); ``base`` is the unit's own maximum.

    Each step's value is the maximum Energy after it.
    """
    penalty, penalty_steps = armor_energy_penalty(profile, rules=rules)
    steps = [Step(base, S_("maximum Energy before armor"), "SG.BRT.0")]
    if penalty_steps:
        value = base - penalty
        sign = "−" if penalty >= 0 else "+"
        steps.append(
            Step(
                value,
                _penalty_reason(
                    sign,
                    abs(penalty),
                    penalty_steps,
                    (rules if rules is not None else load_defense_rules()).armor.rows[profile.armor].label,
                    profile.attributes.physique,
                ),
                "SG.DEF.7",
            )
        )
        return value, tuple(steps)
    return base, tuple(steps)


def _penalty_reason(sign: str, penalty: int, steps: tuple[Step, ...], label: str, physique: int) -> str:
    """``−0 Energy (heavy armor: maximum Energy −1; Physique +1 offsets the penalty)``: the penalty's
    steps in one line, one whole template for each shape the steps take (so the catalog finds the line
    as one sentence, not a piece of it)."""
    armor, phys = steps[0].value, f"{physique:+d}"
    shape = tuple(s.reason for s in steps[1:])
    offsets = S_("Physique {physique} offsets the penalty", physique=phys)
    deepen = S_("Physique {physique} does not deepen the penalty", physique=phys)
    never = S_("the offset never becomes a bonus")
    if not shape:
        return S_(
            "{sign}{penalty} Energy ({label}: maximum Energy −{armor})",
            sign=sign,
            penalty=penalty,
            label=label,
            armor=armor,
        )
    if shape == (offsets,):
        return S_(
            "{sign}{penalty} Energy ({label}: maximum Energy −{armor};"
            " Physique {physique} offsets the penalty)",
            sign=sign,
            penalty=penalty,
            label=label,
            armor=armor,
            physique=phys,
        )
    if shape == (deepen,):
        return S_(
            "{sign}{penalty} Energy ({label}: maximum Energy −{armor}; Physique {physique} does not deepen"
            " the penalty)",
            sign=sign,
            penalty=penalty,
            label=label,
            armor=armor,
            physique=phys,
        )
    if shape == (offsets, never):
        return S_(
            "{sign}{penalty} Energy ({label}: maximum Energy −{armor}; Physique {physique} offsets the"
            " penalty; the offset never becomes a bonus)",
            sign=sign,
            penalty=penalty,
            label=label,
            armor=armor,
            physique=phys,
        )
    reason = "; ".join(s.reason for s in steps)
    return S_("{sign}{penalty} Energy ({reason})", sign=sign, penalty=penalty, reason=reason)
