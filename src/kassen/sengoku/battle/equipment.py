"""What a unit fights with now: the weapon that carries a technique (a weapon dropped or broken by a
fumble, SG.FUM.2-3, carries nothing), whether a reaction has the weapon in hand it needs, and what the
battlefield changes on the zones add to a check (SG.LUL.3).
"""

from __future__ import annotations

__all__ = ["armed_for", "carrier", "condition_modifiers"]


from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit
from kassen.sengoku.entries import Maneuver, Reach, Weapon


def _illegal(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule=rule)


def carrier(
    rules: BattleRules, unit: Unit, m: Maneuver, choice: str | None, *, picked: bool = False
) -> Weapon | None:
    """The weapon that carries ``m`` for ``unit`` now: ``choice`` (one of its carriers, else
    IllegalActionError), or the first carrier not dropped or broken (SG.FUM.2-3; ``picked``: the dropped
    one was picked up earlier in the breath); a maneuver whose only carriers are lost cannot be used
    (IllegalActionError naming the rule)."""
    if picked and unit.dropped:
        unit = replace(unit, dropped="")
    found = rules.carriers(unit, m)
    if choice is not None:
        chosen = next((w for w in found if w.id == choice), None)
        if chosen is None:
            names = ", ".join(w.id for w in found) or "none"
            raise _illegal(
                S_(
                    "{name} is not used with {choice} (its weapons: {names})",
                    name=m.name,
                    choice=f"{choice!r}",
                    names=names,
                ),
                "SG.BRT.1",
            )
        found = (chosen,)
    for w in found:
        if not unit.lacks(w.id):
            return w
    if not found:
        return None
    w = found[0]
    if w.id in unit.broken:
        raise _illegal(
            S_("{name}'s {name2} is broken: no {name3}", name=unit.name, name2=w.name, name3=m.name),
            "SG.FUM.3",
        )
    raise _illegal(
        S_(
            "{name}'s {name2} is on the ground: pick it up ({pickup_cost} Energy) first",
            name=unit.name,
            name2=w.name,
            pickup_cost=unit.pickup_cost,
        ),
        "SG.FUM.2",
    )


def condition_modifiers(
    rules: BattleRules, state: BattleState, unit: Unit, m: Maneuver, weapon: str | None, here: str, there: str
) -> tuple[Step, ...]:
    """Check modifiers of the battlefield changes on the attacker's and the target's zones (SG.LUL.3):
    a ranged attack from or into fog."""
    if not state.conditions or rules.reach(unit, m, weapon) is not Reach.RANGED:
        return ()
    out: list[Step] = []
    for c in state.conditions:
        change = rules.yoma.change(c.change)
        if change is None or not change.ranged_check or c.zone not in (here, there):
            continue
        out.append(
            Step(
                change.ranged_check,
                S_(
                    "{name} in {zone}: ranged {ranged_check}",
                    name=change.name,
                    zone=c.zone,
                    ranged_check=f"{change.ranged_check:+d}",
                ),
                "SG.LUL.3",
            )
        )
    return tuple(out)


def armed_for(rules: BattleRules, unit: Unit, m: Maneuver, *, picked: bool = False) -> bool:
    """A reaction whose check takes the weapon's skill (parry, block) needs the weapon in hand, not on
    the ground nor broken (SG.FUM.2-3); ``picked``: picked up earlier in the breath."""
    if m.check is None or not m.check.weapon_skill:
        return True
    weapons = rules.creature(unit).weapons
    if not weapons:
        return True
    w = weapons[0]
    return w not in unit.broken and (w != unit.dropped or picked)
