"""Defenseless 無防備 as it touches the profile (SG.DFL.2, SG.DFL.3).

Becoming Defenseless releases every maintained [stance] at once and costs Defense −4 (applied by
:func:`~kassen.sengoku.defense.compute_defense` from ``data/defense.yaml``); while it lasts the unit
cannot declare a stance, reserve defense techniques or use evasion/counterattack-type defense
techniques. When it ends (the unit's next action, or the lull, SG.DFL.3) is the engine's concern; it
calls :func:`clear_defenseless`.

>>> from kassen.sengoku.profile import BonusKind, CombatProfile, DefenseBonus
>>> unit = CombatProfile(bonuses=(DefenseBonus(BonusKind.STANCE, 2, "Immovable Formation"),))
>>> fallen, _ = make_defenseless(unit)
>>> fallen.defenseless, fallen.bonuses, can_declare_stance(fallen)
(True, (), False)
"""

from __future__ import annotations

__all__ = [
    "can_declare_stance",
    "can_reserve_defense",
    "can_use_evasion_defense",
    "clear_defenseless",
    "make_defenseless",
]


from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.defense import DefenseRules, load_defense_rules
from kassen.sengoku.profile import BonusKind, CombatProfile


def make_defenseless(
    target: CombatProfile, *, rules: DefenseRules | None = None
) -> tuple[CombatProfile, tuple[Step, ...]]:
    """The unit becomes Defenseless (SG.DFL.2): stances released, Defense −4 while it lasts.

    Step values are the Defense change each part makes.
    """
    rules = rules if rules is not None else load_defense_rules()
    steps: list[Step] = []
    kept = []
    for bonus in target.bonuses:
        if bonus.kind is BonusKind.STANCE:
            reason = (
                S_("stance +{value} ({source}) released", value=bonus.value, source=bonus.source)
                if bonus.source
                else S_("stance +{value} released", value=bonus.value)
            )
            steps.append(Step(-bonus.value, reason, "SG.DFL.2"))
        else:
            kept.append(bonus)
    penalty = rules.reductions.defenseless
    if not target.defenseless:
        steps.append(Step(-penalty, S_("Defenseless: Defense −{penalty}", penalty=penalty), "SG.DFL.2"))
    return replace(target, defenseless=True, bonuses=tuple(kept)), tuple(steps)


def clear_defenseless(target: CombatProfile) -> CombatProfile:
    """Defenseless ends (SG.DFL.3: the unit's next action starts, or the lull phase comes first).

    Released stances do not come back; the unit may declare a new one.
    """
    return replace(target, defenseless=False)


def can_declare_stance(unit: CombatProfile) -> bool:
    """A Defenseless unit cannot declare a new [stance] (SG.DFL.2)."""
    return not unit.defenseless


def can_reserve_defense(unit: CombatProfile) -> bool:
    """A Defenseless unit cannot reserve defense techniques (SG.DFL.2)."""
    return not unit.defenseless


def can_use_evasion_defense(unit: CombatProfile) -> bool:
    """A Defenseless unit cannot use evasion- or counterattack-type defense techniques (SG.DFL.2)."""
    return not unit.defenseless
