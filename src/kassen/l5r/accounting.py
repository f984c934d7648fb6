"""Which events tell each change of a duel's state: the roll-and-keep ``accounting`` hook
(:mod:`kassen.core.accounting`).

What a fighter has and is — Wounds, lasting statuses (injuries, binds, locks, a point at the throat...),
conditions, its weapon and where a dropped one lies, death, yielding, first blood, position,
initiative, its declaration and a Full Defense's bonus — and the duel's turn and end are each told by
the events below. Left out as the turn's bookkeeping, which who is to move already says: the phase and
cursor of the turn, the orders of declaration and action (each initiative is told), whether a fighter
has acted or rolled its Full Defense and how many declarations it made, the exchange being resolved
and a pending choice (each is told by the event that asks it: ``injury_choice``...).
"""

from __future__ import annotations

__all__ = ["ACCOUNTING"]

from collections.abc import Iterator

from kassen.core.accounting import Accounting, Change, by_keys, field_changes
from kassen.l5r.state import DuelState

_STATUS_KINDS = {
    "injury",
    "maim",
    "bind",
    "bind_freed",
    "clear_vision",
    "clipping",
    "corps_a_corps",
    "disengage",
    "drive",
    "foul",
    "free_weapon",
    "gm_injury",
    "gm_status_removed",
    "medical_aid",
    "point_to_throat",
    "regain_footing",
    "regain_grip",
    "release_bind",
    "released",
    "status_ended",
    "thrown",
}
_FIGHTER_TOLD_BY: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "wounds": {"wounds", "gm_wounds"},
        "statuses": _STATUS_KINDS,
        "conditions": {"gm_condition", "gm_condition_removed", "dying", "out"},
        "weapon_in_hand": {"disarm", "weapon_dropped", "recover_weapon", "remove_weapon"},
        "weapon_at": {"disarm", "weapon_dropped", "recover_weapon", "remove_weapon"},
        "dead": {"death"},
        "death": {"death"},
        "yielded": {"yield"},
        "bloodied": {"wounds", "mark", "gm_wounds"},
        "position": {"move", "drive", "thrown", "disengage"},
        "initiative": {"initiative"},
        "declared": {"declare", "script_skipped", "turn"},  # a new turn clears them
        "full_defense_bonus": {"full_defense"},
    }.items()
}
_FIGHTER_FIELDS = tuple(_FIGHTER_TOLD_BY)
_DUEL_TOLD_BY = {"turn": frozenset({"turn"}), "winner": frozenset({"over"})}


def _changes(before: DuelState, after: DuelState) -> Iterator[Change]:
    yield from field_changes(None, before, after, tuple(_DUEL_TOLD_BY))
    for was, new in zip(before.fighters, after.fighters, strict=True):
        yield from field_changes(new.name, was, new, _FIGHTER_FIELDS)


ACCOUNTING: Accounting[DuelState] = Accounting(
    _changes,
    {**_FIGHTER_TOLD_BY, **_DUEL_TOLD_BY},
    by_keys(("fighter", "attacker", "target", "chooser")),
)
