"""The heuristic's choices outside the count: Fate Intervention (SG.FAT.1-2), the GM's fumble extras
(SG.FUM.2) and the lull's upkeep (SG.LUL.2); :class:`~kassen.sengoku.battle.policies.HeuristicPolicy`
asks these (see its module notes)."""

from __future__ import annotations

__all__ = ["fate_choice", "fumble_choice", "upkeep_choice"]

from collections.abc import Sequence

from kassen.sengoku.battle.actions import Action, Decline, FateIntervention, FumbleExtras, Upkeep
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState


def fate_choice(rules: BattleRules, state: BattleState, legal: Sequence[Action]) -> Action:
    """Fate Intervention (SG.FAT.1) when the Critical Hit pays: it turns a miss into a hit, it fells a
    target the plain hit would not, or the unit still keeps a point for its own Last Bastion
    (SG.FAT.2); a double 10 (Heavenly Mandate) is preferred."""
    r = rules
    p = state.attack
    decline = next(a for a in legal if isinstance(a, Decline))
    if p is None or not p.outcomes:
        return decline
    plain, shifted = p.outcomes[0], dict(zip(p.offered, p.outcomes[1:], strict=True))
    crits = [a for a in legal if isinstance(a, FateIntervention) and shifted.get(a.die) == "critical"]
    if not crits:
        return decline
    unit, target = state.unit(p.attacker), state.unit(p.target)
    tech = r.technique(unit, r.maneuver(p.maneuver), p.weapon or None)
    crit = r.critical_wounds(tech)
    hit = r.hit_wounds(tech) if plain in ("success", "critical") else 0
    costs = r.resolution.fate
    spare = unit.fate_points - costs.intervention_cost >= costs.last_bastion_cost
    pays = crit > hit and (hit == 0 or (crit >= target.wounds > hit) or spare)
    if not pays:
        return decline
    return max(crits, key=lambda a: p.faces[1 - a.die])


def fumble_choice(rules: BattleRules, legal: Sequence[Action]) -> Action:
    """The GM's extras when the battle plays itself: the catalog's ``fumble.gm_auto_play``."""
    wanted = rules.resolution.fumble.gm_auto_play
    options = [a for a in legal if isinstance(a, FumbleExtras)]
    for a in options:
        if set(a.extras) == set(wanted):
            return a
    usable = [a for a in options if set(a.extras) <= set(wanted)]
    if usable:
        return max(usable, key=lambda a: len(a.extras))
    return next(a for a in legal if isinstance(a, Decline))


def upkeep_choice(rules: BattleRules, state: BattleState, legal: Sequence[Action]) -> Action:
    ups = [a for a in legal if isinstance(a, Upkeep)]
    heal = [a for a in ups if a.choice in (None, "wounds") and a.target is not None and a.to is None]
    heal = [a for a in heal if rules.maneuver(a.maneuver).upkeep is not None]
    heal = [
        a
        for a in heal
        if (up := rules.maneuver(a.maneuver).upkeep) is not None
        and (up.wounds_recovered or not up.prevents_collapse)
    ] or heal
    if heal and any(a.choice is not None or _heals(rules, a) for a in heal):
        healing = [a for a in heal if a.choice is not None or _heals(rules, a)]
        return min(
            healing,
            key=lambda a: state.unit(a.target or "").wounds - state.unit(a.target or "").wounds_max,
        )
    rest = [a for a in ups if a.to is None and (a.choice == "cohesion" or a.target is not None)]
    if rest:
        return rest[0]
    move = _send(state, [a for a in ups if a.to is not None])
    if move is not None:
        return move
    return next(a for a in legal if isinstance(a, Decline))


def _heals(rules: BattleRules, a: Upkeep) -> bool:
    up = rules.maneuver(a.maneuver).upkeep
    return up is not None and bool(up.wounds_recovered)


def _send(state: BattleState, moves: list[Upkeep]) -> Upkeep | None:
    """Send a shikigami to the allowed zone nearest an enemy, if that is nearer than where it is."""
    best: tuple[int, Upkeep] | None = None
    for a in moves:
        servant = state.unit(a.target or "")
        enemies = [u.zone for u in state.units if u.side != servant.side and u.able and u.zone is not None]
        if not enemies or servant.zone is None or a.to is None:
            continue
        now = min(state.distance(servant.zone, z) for z in enemies)
        then = min(state.distance(a.to, z) for z in enemies)
        if then < now and (best is None or then < best[0]):
            best = (then, a)
    return best[1] if best is not None else None
