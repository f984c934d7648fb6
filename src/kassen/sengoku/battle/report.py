"""A battle told in words: a renderer for every event kind the battle logs, names, and a summary.

:data:`RENDERERS` is the ruleset's table for :func:`kassen.core.report.account` (``kassen sengoku
battle`` and ``kassen fight`` both tell a battle through it): rounds and counts, who breathes and with
which maneuvers, every roll with both faces, Wounds before → after, statuses as they change, the lull,
the end with its death checks and honor follow-ups, and what the attack resolution logs (hits, Critical
Hits, Fumbles, the d100 tables, Fate). Each line ends with the rule that made it; with ``--verbose``
the explanation steps follow (an attack's modifier and the target's Defense step by step, a reaction's
check, a breath's Energy costs). The attack check is also logged on its own by the resolution; the
attack's line already says it, so its own line is shown only with ``--verbose``.

:func:`names` gives display names by id: units, sides, maneuvers (``maneuver:ID``) and the yoma the
Yoma Encounter Table brings (``oni-1`` → "Oni 1"). :func:`summary` is the state at the end: who won,
who stands with how many Wounds, who fell and who left.

The renderers are split along the table's families: :mod:`~kassen.sengoku.battle.report_pieces` (the
words, rolls and templates they share), :mod:`~kassen.sengoku.battle.report_round` (the round, the
count, breaths, moves, the lull and the end) and :mod:`~kassen.sengoku.battle.report_attacks` (attacks,
reactions, the d100 tables, Fate, weapons and armor).
"""

from __future__ import annotations

__all__ = ["RENDERERS", "BattleNames", "names", "summary"]

from collections.abc import Iterator, Mapping

from kassen.i18n import N_, _
from kassen.sengoku.battle.report_attacks import (
    _r_armor_broken,
    _r_armor_holds,
    _r_attack,
    _r_attack_check,
    _r_behind,
    _r_blow,
    _r_debuff,
    _r_fate,
    _r_fate_declined,
    _r_fate_intervention,
    _r_fate_offered,
    _r_last_bastion,
    _r_last_bastion_offered,
    _r_reaction,
    _r_table,
    _r_table_effect,
    _r_weapon,
    _r_weapon_dropped,
    _r_weapon_kept,
)
from kassen.sengoku.battle.report_pieces import Render, _said, _t
from kassen.sengoku.battle.report_round import (
    _check,
    _r_ambush,
    _r_arrives,
    _r_breath,
    _r_change,
    _r_change_check,
    _r_change_ends,
    _r_count,
    _r_death,
    _r_energy,
    _r_energy_changed,
    _r_env_skipped,
    _r_forfeit,
    _r_gm_debuff,
    _r_gm_status,
    _r_hold,
    _r_honor,
    _r_lost_to,
    _r_move,
    _r_over,
    _r_pursuit,
    _r_round,
    _r_tie,
    _r_upkeep,
    _r_yoma,
)
from kassen.sengoku.battle.state import BattleState
from kassen.sengoku.catalog import load_catalog


class BattleNames(Mapping[str, str]):
    """Display names by id: the battle's units and sides (what it iterates and counts); besides them,
    maneuvers as ``maneuver:ID`` and the yoma that arrive in the lull (``ID-N`` of a catalog creature →
    its name and N)."""

    def __init__(
        self, known: Mapping[str, str], maneuvers: Mapping[str, str], creatures: Mapping[str, str]
    ) -> None:
        self._known = dict(known)
        self._maneuvers = maneuvers
        self._creatures = creatures

    def __getitem__(self, key: str) -> str:
        found = self._known.get(key)
        if found is not None:
            return found
        kind, _, mid = key.partition(":")
        if kind == "maneuver" and mid in self._maneuvers:
            return self._maneuvers[mid]
        base, _, n = key.rpartition("-")
        if n.isdigit() and base in self._creatures:
            return f"{self._creatures[base]} {n}"
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._known)

    def __len__(self) -> int:
        return len(self._known)


def names(state: BattleState) -> BattleNames:
    """Display names of the battle's units and sides, maneuvers and arriving yoma (by id). Maneuver and
    creature names are the bundled catalog's (an entry only a user's layer defines shows its id)."""
    catalog = load_catalog()
    known = {u.id: u.name for u in state.units}
    known.update({s.id: s.name for s in state.sides})
    return BattleNames(
        known,
        {k: m.name for k, m in catalog.maneuvers.items()},
        {k: c.name for k, c in catalog.creatures.items()},
    )


RENDERERS: dict[str, Render] = {
    # the round and the count
    "battle_begins": _said(N_("Battle: {name}")),
    "round": _r_round,
    "energy_reset": _r_energy,
    "count": _r_count,
    "tie": _r_tie,
    "breath": _r_breath,
    "energy_spent": _said(N_("Energy {before} → {after}"), 1),
    "initiative_used": _said(N_("{unit}'s initiative +{initiative} is used: Energy is {energy}"), 1),
    "hold": _r_hold,
    "pass": _said(N_("{unit} passes with Energy {energy}")),
    "overload_check": _check(N_("overload check")),
    "energy_lost": _said(N_("{unit} loses Energy: {before} → {after}"), 2),
    # attacks and reactions
    "attack": _r_attack,
    "attack_check": _r_attack_check,
    "hit": _r_blow(N_("a hit")),
    "critical_hit": _r_blow(N_("a Critical Hit")),
    "miss": _said(N_("it misses {target}"), 2),
    "wounds_lost": _said(N_("{unit}: Wounds {before} → {after}"), 2, hidden=N_("{unit} loses Wounds")),
    "wounds_behind": _said(N_("{wounds} Wound(s) to the enemy behind {behind}"), 2),
    "effect": _said(N_("for the GM, on {target}: {text}"), 2),
    "debuff": _r_debuff,
    "bleed": _said(N_("{unit} bleeds: {effect}"), 2),
    "bleeds": _said(N_("{unit} bleeds: Wounds {before} → {after}"), 1, hidden=N_("{unit} bleeds")),
    "wound_bound": _said(N_("{unit} binds {target}'s wound: the bleeding stops"), 1),
    "fumble": _said(N_("Fumble! {attacker} stumbles"), 2),
    "fumble_offered": _said(
        N_("the GM may add a fumble's extras on {unit} (drop weapon, stance collapse, foot slip)"), 2
    ),
    "fumble_extra": _said(N_("the GM's extra on {unit}'s Fumble: {effect}"), 2),
    "fumble_extras_none": _said(N_("the GM adds nothing to {unit}'s Fumble"), 2),
    "forced_move": _said(N_("{unit} slips from {frm} to {to}"), 2),
    "weapon_dropped": _r_weapon_dropped,
    "weapon_broken": _r_weapon(N_("{unit}'s {weapon} breaks: lost for the rest of the combat")),
    "weapon_kept": _r_weapon_kept,
    "weapon_picked_up": _r_weapon(N_("{unit}'s {weapon} is picked up again")),
    "energy_changed": _r_energy_changed,
    "decisive_moment": _r_table,
    "critical_mistake": _r_table,
    "table_effect": _r_table_effect,
    "fate_spent": _r_fate,
    "fate_offered": _r_fate_offered,
    "last_bastion_offered": _r_last_bastion_offered,
    "fate_intervention": _r_fate_intervention,
    "last_bastion": _r_last_bastion,
    "fate_declined": _r_fate_declined,
    "ambush": _r_ambush,
    "ambush_immune": _said(N_("{target} cannot be ambushed by {attacker} ({condition})"), 2),
    "reaction_offered": _said(N_("{unit} holds a reservation against {attacker}'s {maneuver}"), 2),
    "declined": _said(N_("{unit} lets {attacker}'s attack through and keeps its reservation"), 2),
    "reaction": _r_reaction,
    "behind": _r_behind,
    "armor_broken": _r_armor_broken,
    "armor_holds": _r_armor_holds,
    # statuses
    "defenseless": _said(N_("{unit} is Defenseless ({cause})"), 2),
    "defenseless_ends": _said(N_("{unit} is no longer Defenseless ({when})"), 1),
    "incapacitated": _said(N_("{unit} is Incapacitated"), 2),
    "removed": _said(N_("{unit} is removed from {zone}: {why}"), 2),
    "cohesion_loss": _said(
        N_("a Lord has fallen: the squads of {faction} lose {amount} Cohesion ({scope})"), 2
    ),
    "cohesion": _said(N_("{unit}: Cohesion {before} → {after} ({why})"), 2),
    "routed": _said(N_("{unit} routs"), 2),
    "rallied": _said(N_("{unit} rallies"), 2),
    "ward_holds": _said(N_("{unit}'s ward holds: Cohesion stays at {cohesion}"), 2),
    # other maneuvers
    "reserve": _said(
        N_("{unit} reserves {maneuver} (prepaid)"), 1, hidden=N_("{unit} reserves a defense (prepaid)")
    ),
    "stance": _said(N_("{unit} declares {maneuver}"), 1),
    "stance_released": _said(N_("{unit} releases {stances}"), 1),
    "kata": _said(N_("{unit} performs {maneuver}: {effect}"), 1),
    "move": _r_move,
    "forfeit": _r_forfeit,
    "pursuit": _r_pursuit,
    "retreat_failed": _said(
        N_("{unit}'s retreat fails: Defenseless, Energy lost, −{exhaustion} next round"), 2
    ),
    "retreated": _said(N_("{unit} leaves the battlefield from {frm}"), 1),
    "cohesion_check": _check(N_("Cohesion check")),
    "reload": _said(N_("{unit} reloads"), 1),
    # the lull
    "lull": _said(N_("-- lull phase (round {round}) --")),
    "reservations_expire": _said(
        N_("{unit}'s reservations expire: {maneuvers}"), 1, hidden=N_("{unit}'s reservations expire")
    ),
    "limits_reset": _said(N_("{unit}: limited maneuvers reset: {maneuvers}"), 1),
    "debuffs_count_down": _said(N_("{unit}: {ended}"), 1),
    "ward_ends": _said(N_("{unit}'s Cohesion ward ends"), 1),
    "upkeep": _r_upkeep,
    "upkeep_done": _said(N_("{unit} ends its upkeep"), 1),
    "wounds_recovered": _said(
        N_("{unit}: Wounds {before} → {after}"), 2, hidden=N_("{unit} recovers Wounds")
    ),
    "ward": _said(N_("{unit} cannot rout until the next lull"), 2),
    "yoma_roll": _r_yoma,
    "arrives": _r_arrives,
    "environment_skipped": _r_env_skipped,
    "battlefield_change": _r_change,
    "change_check": _r_change_check,
    "change_ends": _r_change_ends,
    "wounds_lost_to": _r_lost_to,
    "shikigami_moved": _said(N_("{unit} is sent from {frm} to {to}"), 2),
    # the end and the GM
    "combat_over": _r_over,
    "death_check": _r_death,
    "honor_follow_up": _r_honor,
    "gm_set_wounds": _said(
        N_("GM sets {unit}'s Wounds {before} → {after}"), hidden=N_("GM sets {unit}'s Wounds")
    ),
    "gm_status": _r_gm_status,
    "gm_debuff": _r_gm_debuff,
}


def summary(state: BattleState) -> str:
    """Who won, who is left standing with how many Wounds, who fell (and their death checks), who left."""
    r = state.result
    lines = [_("Summary")]
    if r is not None:
        winner = state.side(r.winner).name if r.winner else _("nobody")
        lines.append(
            "  "
            + _("winner: {winner} (round {round}: {reason})").format(
                winner=winner, round=r.round, reason=_t(r.reason)
            )
        )
    deaths = {d.unit: d for d in state.deaths}
    honor = {h.unit: h for h in state.honor}
    for side in state.sides:
        lines.append(f"  {side.name}:")
        for u in state.units:
            if u.side != side.id:
                continue
            if u.incapacitated:
                d = deaths.get(u.id)
                if d is None:
                    text = _("Incapacitated")
                elif d.survives:
                    text = _("Incapacitated — survives, seriously injured")
                else:
                    text = _("Incapacitated — dies")
            elif u.retreated:
                h = honor.get(u.id)
                text = (
                    _("retreated (honor follow-up: {follow_up})").format(follow_up=_t(h.follow_up))
                    if h is not None
                    else _("retreated")
                )
            else:
                text = _("Wounds {wounds}/{wounds_max} in {zone}").format(
                    wounds=u.wounds, wounds_max=u.wounds_max, zone=_t(u.zone)
                ) + (_(", routed") if u.routed else "")
                if u.cohesion is not None:
                    text += _(", Cohesion {cohesion}").format(cohesion=u.cohesion)
            lines.append(f"    {u.name}: {text}")
    return "\n".join(lines) + "\n"
