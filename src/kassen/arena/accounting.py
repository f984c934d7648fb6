"""Which events tell each change of a bout's state: the arena's ``accounting`` hook
(:mod:`kassen.core.accounting`).

What a fighter has and is — HP, FP, posture, facing, height, conditions, crippled limbs, damage by
location, shock, guards, grapples, rooting, defence, audience points and bonuses, position, a pending
landing, an offer waiting for it — and the bout's start, subturn, order and result are each told by the
events below. Left out as bookkeeping nobody sees: the agenda of scheduled checks and the next hit's
number (each check it schedules is told when it runs), the slot (who is to move says it), a fighter's
count of idle slots, the cause of a stun kept for the guts penalties (AR.GUT.2), and the HP of the last
death check (each death check is told by its ``check`` event).
"""

from __future__ import annotations

__all__ = ["ACCOUNTING"]

from collections.abc import Iterator

from kassen.arena.bout.state import BoutState
from kassen.core.accounting import Accounting, Change, by_keys, field_changes

_FIGHTER_TOLD_BY: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "hp": {"injury", "gm_hp", "fatigue_below_zero"},
        "fp": {"fatigue", "fatigue_below_zero", "fp_recovered", "gm_fp"},
        "posture": {"falls", "landed", "rise", "aerial", "knocked_back", "gm_condition"},
        "facing": {"falls", "landed", "lands_facing", "rise", "gm_condition"},
        "altitude": {"aerial", "landed", "knocked_back"},
        "conditions": {
            "stunned",
            "stun_ended",
            "stun_renewed",
            "incapacitated",
            "dead",
            "helpless",
            "gave_up",
            "overridden",
            "gm_condition",
        },
        "crippled": {"crippled"},
        "location_damage": {"injury"},
        "head_damage": {"injury"},
        "shocks": {"shock", "pain", "shock_expired", "shock_cleared"},
        "guards": {"guard", "guard_dropped", "crippled", "incapacitated", "dead", "gave_up", "gm_condition"},
        "grappling": {"grapple", "grapple_released"},
        "rooted_until": {"rooted"},
        "no_defense": {"attack", "defense_back"},
        "guts_checks": {"check"},
        "audience_points": {"audience_points", "audience_point"},
        "check_bonuses": {"audience_point", "check"},
        "death_checks_done": {"death_check_due", "check"},
        "lost": {"match_lost", "gave_up", "gm_end"},
        "fall": {"aerial", "knocked_back", "landed", "falls"},
        "position": {"moved", "knocked_back"},
        "offer": {"override_offered", "declined", "overridden", "exempted", "check"},
    }.items()
}
_FIGHTER_FIELDS = tuple(k for k in _FIGHTER_TOLD_BY if k != "offer")
_BOUT_TOLD_BY = {
    "started": frozenset({"bout_begins"}),
    "order": frozenset({"bout_begins"}),
    "subturn": frozenset({"subturn"}),
    "result": frozenset({"bout_over", "gm_end"}),
}


def _changes(before: BoutState, after: BoutState) -> Iterator[Change]:
    yield from field_changes(None, before, after, tuple(_BOUT_TOLD_BY))
    old = {f.id: f for f in before.fighters}
    for new in after.fighters:
        was = old.get(new.id)
        if was is None:
            yield Change(new.id, "joined")
            continue
        yield from field_changes(new.id, was, new, _FIGHTER_FIELDS)
    for fid in {o.fighter for o in before.offers + after.offers}:
        if [o for o in before.offers if o.fighter == fid] != [o for o in after.offers if o.fighter == fid]:
            yield Change(fid, "offer")


ACCOUNTING: Accounting[BoutState] = Accounting(
    _changes,
    {**_FIGHTER_TOLD_BY, **_BOUT_TOLD_BY},
    by_keys(
        ("fighter", "attacker", "target", "defender", "order"),
        quick_contest=("attacker", "defender"),  # its ``winner`` is "first" or "second"
    ),
)
