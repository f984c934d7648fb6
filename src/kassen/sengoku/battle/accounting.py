"""Which events tell each change of a battle's state: the Sengoku ``accounting`` hook
(:mod:`kassen.core.accounting`).

What a unit has and is — its zone, Wounds, Energy, reservations, stances, Defense debuffs, Defenseless,
incapacitated, retreated, routed, Cohesion, Fate points, armour damage, a weapon dropped or broken,
bleeding, a ward — and the battle's round and result are each told by the events below. Left out as
bookkeeping, which who is to move already says: the count, the phase, the queue, the decision and the
breath or attack in progress, each unit's initiative bookkeeping, tallies of uses and limits, breaths
and attacks made, and flags the turn order reads (passed, count reached, unloaded, surcharge).
"""

from __future__ import annotations

__all__ = ["ACCOUNTING"]

from collections.abc import Iterator

from kassen.core.accounting import Accounting, Change, by_keys, field_changes
from kassen.sengoku.battle.state import BattleState

_WOUNDS = {
    "wounds_lost",
    "wounds_lost_to",
    "hit",
    "critical_hit",
    "behind",
    "wounds_behind",
    "wounds_recovered",
    "gm_set_wounds",
    "wound_bound",
}
_UNIT_TOLD_BY: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "zone": {"move", "removed", "retreated", "shikigami_moved", "pursuit", "forced_move", "arrives"},
        "wounds": _WOUNDS,
        "energy": {"breath", "energy_spent", "energy_reset", "energy_changed", "energy_lost", "pass"},
        "reservations": {"reserve", "reservations_expire", "reaction", "energy_reset"},
        "stances": {"stance", "stance_released", "energy_reset", "incapacitated", "removed"},
        "debuffs": {"table_effect", "debuffs_count_down", "reaction", "upkeep", "gm_status"},
        "defenseless": {"defenseless", "defenseless_ends", "table_effect", "gm_status"},
        "incapacitated": {"incapacitated", "gm_set_wounds"},
        "retreated": {"retreated"},
        "routed": {"routed", "rallied"},
        "cohesion": {"cohesion", "cohesion_loss", "routed", "rallied"},
        "fate_points": {"fate_spent", "fate_intervention", "last_bastion", "table_effect"},
        "armor_damage": {"armor_split", "table_effect", "armor_break"},
        "dropped": {"weapon_dropped", "weapon_picked_up"},
        "broken": {"weapon_broken"},
        "bleeding": {"bleed", "bleeds", "wound_bound"},
        "ward": {"ward", "ward_ends", "ward_holds"},
    }.items()
}
_UNIT_FIELDS = tuple(_UNIT_TOLD_BY)
_BATTLE_TOLD_BY = {
    "round": frozenset({"round"}),
    "result": frozenset({"combat_over"}),
    "conditions": frozenset({"battlefield_change", "change_ends"}),
}


def _changes(before: BattleState, after: BattleState) -> Iterator[Change]:
    yield from field_changes(None, before, after, tuple(_BATTLE_TOLD_BY))
    if before.units is after.units:
        return
    old = {u.id: u for u in before.units}
    for new in after.units:
        was = old.get(new.id)
        if was is None:
            yield Change(new.id, "arrived")
        else:
            yield from field_changes(new.id, was, new, _UNIT_FIELDS)


ACCOUNTING: Accounting[BattleState] = Accounting(
    _changes,
    {**_UNIT_TOLD_BY, **_BATTLE_TOLD_BY, "arrived": frozenset({"arrives"})},
    by_keys(("unit", "attacker", "target", "pursuer", "units"), tie=("order",)),
)
