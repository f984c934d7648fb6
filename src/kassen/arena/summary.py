"""A finished arena bout in its own words: the ruleset's ``fight_summary`` hook
(:mod:`kassen.core.summary`), read from the typed state and the log.

- **Standing**: a fighter not incapacitated (AR.OUT.1: unconscious, dead, gave up, lost the will) who
  has not lost the match.
- **HP**: each ``damage`` event of an attack, its final injury (AR.DMG.1) dealt by its attacker and taken
  by the fighter it hit; knockback, falls and fatigue are nobody's attack.
- **Uses**: each attack (``attack``, ``all-out-attack``), grapple, guard, move and rise as maneuvers;
  a Guts check (AR.GUT.1), a cheer for the audience and giving up as specials. A Wait or a Decline is
  no use.
- **Attacks**: each ``attack`` event and whether it hit.
- **Rounds**: the subturn the bout ended in.
"""

from __future__ import annotations

__all__ = ["fight_summary"]

from kassen.arena.bout.state import Attack, BoutState, Cheer, GiveUp, Grapple, Guts, Move, Rise, SetGuard
from kassen.core.summary import ActionUse, Attempt, FightSummary, PlayedFight, UnitSummary

_MANEUVERS: dict[type, str] = {Grapple: "grapple", SetGuard: "guard", Move: "move", Rise: "rise"}
_SPECIALS: dict[type, str] = {Guts: "guts", Cheer: "cheer", GiveUp: "give-up"}


def fight_summary(fight: PlayedFight) -> FightSummary:
    """The bout's summary (see the module notes)."""
    state: BoutState = fight.state
    dealt = {f.id: 0 for f in state.fighters}
    taken = dict(dealt)
    attempts: list[Attempt] = []
    for event in fight.events:
        data = event.data
        if event.kind == "attack":
            label = "all-out-attack" if data.get("all_out") else "attack"
            attempts.append(Attempt(str(data["attacker"]), label, bool(data["hit"])))
        elif event.kind == "damage" and data.get("source") == "attack" and data.get("attacker"):
            amount = max(0, int(data["final"]))
            dealt[data["attacker"]] = dealt.get(data["attacker"], 0) + amount
            taken[data["fighter"]] = taken.get(data["fighter"], 0) + amount
    uses: list[ActionUse] = []
    for entry in fight.entries:
        action = entry.action
        if isinstance(action, Attack):
            uses.append(ActionUse(action.actor, "all-out-attack" if action.all_out else "attack"))
        elif type(action) in _MANEUVERS:
            uses.append(ActionUse(action.actor, _MANEUVERS[type(action)]))
        elif type(action) in _SPECIALS:
            uses.append(ActionUse(action.actor, _SPECIALS[type(action)], "special"))
    units = tuple(
        UnitSummary(f.id, f.profile.side, not (f.incapacitated or f.lost), taken[f.id], dealt[f.id])
        for f in state.fighters
    )
    return FightSummary(state.subturn, units, tuple(uses), tuple(attempts))
