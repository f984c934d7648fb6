"""Whom an attack may strike (SG.BRT.1, SG.INP.1, SG.RET.1, SG.ZON.2, SG.INC.2), for
:mod:`~kassen.sengoku.battle.plan`: :func:`target_refusal` says why not (message, rule), and
:func:`_strikable` tests many targets of one attack with what they share worked out once."""

from __future__ import annotations

__all__ = ["target_refusal"]

from collections.abc import Callable

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
        return (f"{m.name} names the unit it attacks", "SG.BRT.1")
    if not state.has_unit(target):
        return (f"no unit {target!r} in this battle", "SG.BRT.1")
    t = state.unit(target)
    if t.side == unit.side:
        return (f"{t.name} fights on {unit.name}'s side", "SG.BRT.1")
    if t.incapacitated:
        return (f"{t.name} is Incapacitated, removed from the zone", "SG.INP.1")
    if not t.on_battlefield:
        return (f"{t.name} has left the battlefield", "SG.RET.1")
    assert t.zone is not None
    if not in_range(state, rules.range(unit, m, weapon), here, t.zone):
        return (f"{t.name} in {t.zone} is out of {m.name}'s reach from {here}", "SG.ZON.2")
    tech = rules.technique(unit, m, weapon)
    if tech.tags.incorporeal:
        row = rules.defense.exorcism.ranks[rules.creature(t).exorcism]
        if row.target_number is Exemption.IMMUNE:
            return (f"{t.name} is immune to [Incorporeal] attacks: no check", "SG.INC.2")
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
