"""A finished Sengoku battle in its own words: the ruleset's ``fight_summary`` hook
(:mod:`kassen.core.summary`), read from the typed state and the log.

- **Standing**: a unit neither incapacitated (SG.INP.1), retreated (SG.RET.1) nor routed (SG.RET.2).
- **Wounds**: each ``attack`` event's Wounds before and after (SG.CHK.1), dealt by its attacker and taken
  by its target; Wounds lost otherwise (bleeding, a GM's ruling) are nobody's attack.
- **Uses**: each maneuver of a breath (SG.BRT.1) and of an upkeep (SG.LUL.2), a reservation named
  ``reserve:MANEUVER``; each reserved reaction executed (SG.RES.1), by its maneuver; Fate spent to move
  a die (SG.FAT.1) and a Last Bastion (SG.FAT.2) as specials.
  A Hold, a Pass or a Decline is no use; an offer (of a reaction, Fate, a Last Bastion) is no attack.
- **Attacks**: each ``attack`` event, by its maneuver; it succeeds on a hit or a Critical Hit that no
  reaction nullified.
- **Rounds**: the round the battle ended in.
"""

from __future__ import annotations

__all__ = ["fight_summary"]

from collections import Counter

from kassen.core.summary import ActionUse, Attempt, FightSummary, PlayedFight, UnitSummary
from kassen.sengoku.battle.actions import Breath, FateIntervention, LastBastion, React, Upkeep
from kassen.sengoku.battle.state import BattleState

#: Attack outcomes that hit (SG.CHK.1).
_HITS = frozenset({"hit", "critical"})


def fight_summary(fight: PlayedFight) -> FightSummary:
    """The battle's summary (see the module notes)."""
    state: BattleState = fight.state
    dealt = {u.id: 0 for u in state.units}
    taken = dict(dealt)
    attempts: list[Attempt] = []
    for event in fight.events:
        if event.kind != "attack":
            continue
        data = event.data
        attacker, target = data["attacker"], data["target"]
        before, after = data.get("wounds_before"), data.get("wounds_after")
        if isinstance(before, int) and isinstance(after, int) and before > after:
            dealt[attacker] = dealt.get(attacker, 0) + before - after
            taken[target] = taken.get(target, 0) + before - after
        success = data.get("outcome") in _HITS and not data.get("nullified", False)
        attempts.append(Attempt(attacker, str(data.get("maneuver") or "attack"), success))
    # a breath that stops for another's decision goes on in a later entry: its reservations are
    # counted over the whole log, one per reserved use
    reserved = Counter(
        (str(e.data["unit"]), str(e.data["maneuver"])) for e in fight.events if e.kind == "reserve"
    )
    uses: list[ActionUse] = []
    for entry in fight.entries:
        action = entry.action
        if isinstance(action, Breath):
            for use in action.uses:
                name = use.maneuver
                if reserved[action.unit, name]:  # reserved (SG.RES.1), not executed: named apart
                    reserved[action.unit, name] -= 1
                    name = f"reserve:{name}"
                uses.append(ActionUse(action.unit, name))
        elif isinstance(action, Upkeep):
            uses.append(ActionUse(action.unit, action.maneuver))
        elif isinstance(action, React):
            uses.append(ActionUse(action.unit, action.maneuver, "reaction"))
        elif isinstance(action, FateIntervention):
            uses.append(ActionUse(action.unit, "fate-intervention", "special"))
        elif isinstance(action, LastBastion):
            uses.append(ActionUse(action.unit, "last-bastion", "special"))
    units = tuple(
        UnitSummary(
            u.id,
            u.side,
            not (u.incapacitated or u.retreated or u.routed),
            taken.get(u.id, 0),
            dealt.get(u.id, 0),
        )
        for u in state.units
    )
    return FightSummary(state.round, units, tuple(uses), tuple(attempts))
