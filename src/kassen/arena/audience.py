"""Popularity and audience points (AR.AUD.1-3).

>>> popularity(champion=True, matches=12, age=18, reactions=(2, -1))[0]
15
"""

from __future__ import annotations

__all__ = ["audience_effect", "popularity"]

from collections.abc import Sequence

from kassen.arena.content import load_rules
from kassen.arena.rules import ArenaRules, AudienceEffect
from kassen.core.errors import KassenError
from kassen.core.explain import Step
from kassen.i18n import N_, S_, _


def popularity(
    *,
    champion: bool = False,
    holds_title: bool = False,
    matches: int = 0,
    age: int | None = None,
    reactions: Sequence[int] = (),
    rules: ArenaRules | None = None,
) -> tuple[int, tuple[Step, ...]]:
    """Popularity (人気度, AR.AUD.1): 10, +1 champion, +1 at 10+ matches, +2 aged 19 or under, plus the
    highest reaction modifier, minus the lowest (AR.RD.7: signs kept; champion = ever won)."""
    r = rules or load_rules()
    p = r.match.popularity
    value = p.base
    steps = [Step(value, N_("popularity base"), "AR.AUD.1")]
    is_champion = holds_title if p.readings.champion == "holds_title" else (champion or holds_title)
    if is_champion:
        value += p.champion_bonus
        steps.append(
            Step(p.champion_bonus, S_("champion ({reading})", reading=p.readings.champion), "AR.AUD.1")
        )
    if matches >= p.matches_for_bonus:
        value += p.matches_bonus
        steps.append(Step(p.matches_bonus, S_("{matches} matches fought", matches=matches), "AR.AUD.1"))
    if age is not None and age <= p.young_age_at_most:
        value += p.young_bonus
        steps.append(Step(p.young_bonus, S_("aged {age}", age=age), "AR.AUD.1"))
    if reactions:
        high, low = max(reactions), min(reactions)
        if p.readings.reactions == "literal":
            bonus, penalty = high, low
        elif p.readings.reactions == "magnitude":
            bonus, penalty = abs(high), -abs(low)
        else:
            bonus, penalty = max(high, 0), min(low, 0)
        if bonus:
            value += bonus
            steps.append(
                Step(
                    bonus, S_("highest reaction modifier {modifier}", modifier=format(high, "+d")), "AR.AUD.1"
                )
            )
        if penalty:
            value += penalty
            steps.append(
                Step(
                    penalty, S_("lowest reaction modifier {modifier}", modifier=format(low, "+d")), "AR.AUD.1"
                )
            )
        steps.append(
            Step(value, S_("reaction modifiers read {reading}", reading=p.readings.reactions), "AR.RD.7")
        )
    steps.append(Step(value, N_("popularity"), "AR.AUD.1"))
    return value, tuple(steps)


def audience_effect(name: str, rules: ArenaRules | None = None) -> AudienceEffect:
    """One effect of the house-default list an audience point buys (AR.AUD.3)."""
    r = rules or load_rules()
    try:
        return r.match.audience.effects[name]
    except KeyError:
        known = ", ".join(r.match.audience.effects)
        raise KassenError(
            _("unknown audience effect {name} (known: {known})").format(name=repr(name), known=known)
        ) from None
