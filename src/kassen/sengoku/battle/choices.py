"""The heuristic's choices outside the count: Fate Intervention (SG.FAT.1-2), the GM's fumble extras
(SG.FUM.2) and the lull's upkeep (SG.LUL.2); :class:`~kassen.sengoku.battle.policies.HeuristicPolicy`
asks these (see its module notes)."""

from __future__ import annotations

__all__ = ["fate_choice", "fumble_choice", "upkeep_choice"]

from collections.abc import Sequence

from kassen.sengoku.battle.actions import Action, Decline, FateIntervention, FumbleExtras, Upkeep
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState
from kassen.sengoku.entries import ReactionKind
from kassen.sengoku.resolution import EffectKind
from kassen.sengoku.technique import Technique


def fate_choice(rules: BattleRules, state: BattleState, legal: Sequence[Action]) -> Action:
    """Fate Intervention (SG.FAT.1) when the Critical Hit it makes changes what the blow does: it fells
    a target the plain hit would not, it turns a miss into a hit, or it takes more Wounds (from the
    target, or from the enemy behind it: a teppo's critical, SG.CRT.2) while the unit still keeps a
    point for its own Last Bastion (SG.FAT.2); a double 10 (Heavenly Mandate, SG.CRT.4) is preferred.

    A point is never spent where the plain hit already takes the target's last Wounds: the critical
    takes no more from a fallen target (SG.INP.1). What lands is read as the battle lands it: the
    blow's Wounds with its added effects (SG.WND.6), softened as a failed evasion softens them
    (SG.RES.4; a reaction that succeeds turns either away), and a target that can still pay for a Last
    Bastion is expected to make the fatal blow miss (the heuristic's own answer): a critical that only
    makes it fatal buys nothing but the target's point, for the plain hit's Wounds and one's own. A
    Heavenly Mandate's d100 row (SG.CRT.4) is no reason by itself: most rows act on the target."""
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
    crit = _lands(r, state, tech, critical=True)
    if crit is None:
        return decline  # made fatal, the blow meets the target's Last Bastion
    hit = _lands(r, state, tech, critical=False) if plain in ("success", "critical") else 0
    if hit is None:
        return decline  # already fatal: the Last Bastion meets either
    wounds = target.wounds
    if hit >= wounds:
        taken = 0  # the plain hit already fells: only what the critical does beyond the target counts
    else:
        if crit >= wounds:
            return max(crits, key=lambda a: p.faces[1 - a.die])  # it fells where the plain hit would not
        taken = crit - hit
    costs = r.resolution.fate
    spare = unit.fate_points - costs.intervention_cost >= costs.last_bastion_cost
    more = taken + _behind(r, state, tech)
    pays = more > 0 and (spare or (hit == 0 and taken > 0))
    if not pays:
        return decline
    return max(crits, key=lambda a: p.faces[1 - a.die])


def _lands(rules: BattleRules, state: BattleState, tech: Technique, *, critical: bool) -> int | None:
    """The Wounds the pending attack's blow (a hit, or a Critical Hit) takes if it gets through: its
    Wounds with added effects (SG.WND.6), softened as the target's pending evasion softens them when it
    fails (SG.RES.4); None when it would take the target's last Wounds and the target can still pay for
    a Last Bastion (SG.FAT.2), which makes it miss."""
    p = state.attack
    assert p is not None
    target = state.unit(p.target)
    due = rules.blow_wounds(tech, critical)
    fate = rules.resolution.fate
    if due >= target.wounds > 0 and target.fate_points >= fate.last_bastion_cost:
        return None
    if p.reaction:
        answer = rules.maneuver(p.reaction).reaction
        if answer is not None and answer.kind is ReactionKind.EVASION and answer.failure_wound_reduction:
            due -= min(answer.failure_wound_reduction, max(0, due - answer.failure_minimum_wounds))
    return due


def _behind(rules: BattleRules, state: BattleState, tech: Technique) -> int:
    """The Wounds a Critical Hit adds to the enemy behind the target (SG.CRT.2, the teppo's) that a plain
    hit does not: its critical effects', when another unit of the target's side stands in its zone (the
    battle's reading of "the enemy behind")."""
    p = state.attack
    assert p is not None
    extra = sum(e.wounds for e in tech.on_critical if e.kind is EffectKind.WOUNDS_BEHIND)
    if not extra:
        return 0
    target = state.unit(p.target)
    behind = any(
        u.side == target.side and u.id != target.id and u.on_battlefield and u.zone == target.zone
        for u in state.units
    )
    return extra if behind else 0


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
