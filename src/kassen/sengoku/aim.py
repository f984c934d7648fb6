"""Aim Focus 照準集中: extra Energy → deeper [Pierce]/[Direct] (SG.AIM.*).

Only a technique that states "Aim Focus [Direct] allowed" or "Aim Focus [Pierce] allowed" can use it
(SG.AIM.1). N extra Energy grants [X N] or raises [X M] to [X M+N] (SG.AIM.2). N is capped by the user's
Finesse modifier (SG.AIM.3, house reading of the missing "Cap Rules"); going past the one-breath limit is
allowed and reported as an overload (SG.BRT.2), which the breath engine resolves. It is declared when the
technique is activated and the Energy is spent whatever the check's result (SG.AIM.4).

The technique is the one :class:`~kassen.sengoku.technique.Technique` type, read from its catalog entry:

>>> from kassen.sengoku.technique import technique
>>> result = aim_focus(technique("pierce-the-vitals"), finesse=3, extra=3)
>>> result.cost, result.tags.pierce, result.overload
(5, 5, False)
"""

from __future__ import annotations

__all__ = [
    "AimFocus",
    "AimFocusResult",
    "aim_cap",
    "aim_focus",
    "largest_extra_within_breath",
]

from dataclasses import dataclass

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.defense import DefenseRules, load_defense_rules
from kassen.sengoku.profile import ALL, AimFocus, Amount, AttackTags
from kassen.sengoku.tags import check_tags, format_tags
from kassen.sengoku.technique import Technique


@dataclass(frozen=True, slots=True)
class AimFocusResult:
    """The technique as activated: Energy ``cost`` (base + ``extra``), resulting ``tags``, the breath's
    total spending against its limit, and whether that is an overload (SG.BRT.2)."""

    technique: str
    extra: int
    cost: int
    tags: AttackTags
    breath_spent: int
    breath_limit: int
    overload: bool
    steps: tuple[Step, ...]

    @property
    def energy_spent(self) -> int:
        """Spent on activation, hit or miss (SG.AIM.4)."""
        return self.cost


def aim_cap(finesse: int) -> int:
    """The most extra Energy Aim Focus may add: the Finesse modifier, never below 0 (SG.AIM.3)."""
    return max(0, finesse)


def largest_extra_within_breath(
    technique: Technique, *, finesse: int, other_spending: int = 0, rules: DefenseRules | None = None
) -> int:
    """The largest N that keeps the breath within its limit and N within the Finesse cap.

    Thousand-Year Arrow (cost 4) with Finesse +2 in an otherwise empty breath: 1 (SG.AIM.5).
    """
    if technique.aim_focus is AimFocus.NONE:
        return 0
    rules = rules if rules is not None else load_defense_rules()
    room = rules.aim_focus.breath_limit - technique.cost - other_spending
    return max(0, min(aim_cap(finesse), room))


def _scaled(amount: Amount | None, extra: int) -> Amount:
    if amount == ALL:
        return ALL
    return (amount or 0) + extra


def aim_focus(
    technique: Technique,
    *,
    finesse: int,
    extra: int,
    other_spending: int = 0,
    after_check: bool = False,
    rules: DefenseRules | None = None,
) -> AimFocusResult:
    """Activate ``technique`` with ``extra`` Aim Focus Energy (0 for none).

    ``other_spending`` is what the breath already spends on other maneuvers. Refused with
    :class:`~kassen.core.errors.IllegalActionError` naming the rule: Aim Focus on a technique that does
    not allow it (SG.AIM.1), a negative N (SG.AIM.2), N above the Finesse cap (SG.AIM.3), or declared
    after the check (SG.AIM.4).
    """
    rules = rules if rules is not None else load_defense_rules()
    check_tags(technique.tags)
    if technique.cost < 0 or other_spending < 0:
        raise IllegalActionError(S_("Energy costs cannot be negative"), rule="SG.BRT.1")
    if extra < 0:
        raise IllegalActionError(
            S_("Aim Focus adds Energy; N = {extra} is negative", extra=extra), rule="SG.AIM.2"
        )
    if extra and after_check:
        raise IllegalActionError(
            S_("Aim Focus is declared when the technique is activated, not after the check"), rule="SG.AIM.4"
        )
    if extra and technique.aim_focus is AimFocus.NONE:
        raise IllegalActionError(
            S_(
                "{name} does not state 'Aim Focus [Direct] allowed' or 'Aim Focus [Pierce] allowed'",
                name=technique.name,
            ),
            rule="SG.AIM.1",
        )
    if extra > aim_cap(finesse):
        raise IllegalActionError(
            S_(
                "Aim Focus N = {extra} exceeds the Finesse cap {finesse} (Finesse {finesse2})",
                extra=extra,
                finesse=aim_cap(finesse),
                finesse2=f"{finesse:+d}",
            ),
            rule="SG.AIM.3",
        )
    tags = technique.tags
    steps = [
        Step(
            technique.cost,
            S_("{name}: base cost {cost}", name=technique.name, cost=technique.cost),
            "SG.AIM.2",
        )
    ]
    cost = technique.cost + extra
    if extra:
        if technique.aim_focus is AimFocus.PIERCE:
            tags = replace(tags, pierce=_scaled(tags.pierce, extra))
        else:
            tags = replace(tags, direct=_scaled(tags.direct, extra))
        before = format_tags(technique.tags) or S_("no tag")
        steps.append(
            Step(
                cost,
                S_(
                    "+{extra} Aim Focus Energy (Finesse cap {finesse})", extra=extra, finesse=aim_cap(finesse)
                ),
                "SG.AIM.3",
            )
        )
        steps.append(Step(cost, S_("{before} → {tags}", before=before, tags=format_tags(tags)), "SG.AIM.2"))
    limit = rules.aim_focus.breath_limit
    spent = other_spending + cost
    overload = spent > limit
    if overload:
        steps.append(
            Step(
                spent,
                S_("breath spends {spent}, over the limit {limit}: overload check", spent=spent, limit=limit),
                "SG.BRT.2",
            )
        )
    else:
        steps.append(
            Step(
                spent, S_("breath spends {spent} of the limit {limit}", spent=spent, limit=limit), "SG.BRT.1"
            )
        )
    steps.append(
        Step(
            cost, S_("{cost} Energy spent on activation, whatever the check's result", cost=cost), "SG.AIM.4"
        )
    )
    return AimFocusResult(
        technique=technique.name,
        extra=extra,
        cost=cost,
        tags=tags,
        breath_spent=spent,
        breath_limit=limit,
        overload=overload,
        steps=tuple(steps),
    )
