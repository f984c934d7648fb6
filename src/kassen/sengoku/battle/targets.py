"""Whom an attack may strike (SG.BRT.1, SG.INP.1, SG.RET.1, SG.ZON.2, SG.INC.2), for
:mod:`~kassen.sengoku.battle.plan`: :func:`target_refusal` says why not (message, rule), and
:func:`_strikable` tests many targets of one attack with what they share worked out once."""

from __future__ import annotations

__all__ = ["target_refusal"]

from collections.abc import Callable

from kassen.i18n import S_
from kassen.sengoku.battle.moves import in_range
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit
from kassen.sengoku.defense import Exemption
from kassen.sengoku.entries import Maneuver, Range

#: Why a run of maneuvers is illegal: the message and rule.
_Refusal = tuple[str, str]


def target_refusal(
    rules: BattleRules,
    state: BattleState,
    unit: Unit,
    m: Maneuver,
    target: str | None,
    here: str,
    weapon: str | None,
) -> _Refusal | None:
    """Why ``m`` (with ``weapon``) cannot attack the unit ``target`` from ``here`` (message, rule), or
    None."""
    if target is None:
        return (S_("{name} names the unit it attacks", name=m.name), "SG.BRT.1")
    if not state.has_unit(target):
        return (S_("no unit {target} in this battle", target=f"{target!r}"), "SG.BRT.1")
    t = state.unit(target)
    if t.side == unit.side:
        return (S_("{name} fights on {name2}'s side", name=t.name, name2=unit.name), "SG.BRT.1")
    if t.incapacitated:
        return (S_("{name} is Incapacitated, removed from the zone", name=t.name), "SG.INP.1")
    if not t.on_battlefield:
        return (S_("{name} has left the battlefield", name=t.name), "SG.RET.1")
    assert t.zone is not None
    if not in_range(state, rules.range(unit, m, weapon), here, t.zone):
        return (
            S_(
                "{name} in {zone} is out of {name2}'s reach from {here}",
                name=t.name,
                zone=t.zone,
                name2=m.name,
                here=here,
            ),
            "SG.ZON.2",
        )
    tech = rules.technique(unit, m, weapon)
    if tech.tags.incorporeal:
        row = rules.defense.exorcism.ranks[rules.creature(t).exorcism]
        if row.target_number is Exemption.IMMUNE:
            return (S_("{name} is immune to [Incorporeal] attacks: no check", name=t.name), "SG.INC.2")
    return None


def _strikable(
    rules: BattleRules, state: BattleState, unit: Unit, m: Maneuver, here: str, weapon: str | None
) -> Callable[[str], bool]:
    """Whether :func:`target_refusal` lets ``m`` (with ``weapon``) strike a target from ``here``: the
    same tests, with what does not depend on the target (whom the range reaches, whether the technique
    is [Incorporeal]) worked out once for all the targets of an attack group."""
    rng = rules.range(unit, m, weapon)
    # in_range: the whole battlefield, the zone itself, or at most one zone away (a neighbour)
    everywhere = rng is Range.BATTLEFIELD
    reached = {here} if rng in (Range.SAME_ZONE, Range.SELF) else {here, *state.neighbours(here)}
    incorporeal = rules.technique(unit, m, weapon).tags.incorporeal
    ranks = rules.defense.exorcism.ranks
    side = unit.side

    def strikable(target: str) -> bool:
        if not state.has_unit(target):
            return False
        t = state.unit(target)
        if t.side == side or t.incapacitated or not t.on_battlefield:
            return False
        if not everywhere and t.zone not in reached:
            return False
        return not (incorporeal and ranks[rules.creature(t).exorcism].target_number is Exemption.IMMUNE)

    return strikable
