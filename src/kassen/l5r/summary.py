"""A finished roll-and-keep duel in its own words: the ruleset's ``fight_summary`` hook
(:mod:`kassen.core.summary`), read from the typed state and the log.

- **Standing**: a fighter neither Out, Dead (L5.CORE.6) nor yielded (L5.PTT.1).
- **Wounds**: each ``damage`` event's Wounds (L5.DMG.1), dealt by its attacker and taken by its target.
- **Uses**: each declaration (L5.CORE.3): an attack (``attack``, ``full-attack``), a special attack by
  its name (L5.SPC.1) or a Point-to-throat strike (L5.PTT.1) as specials, any other act by its name
  (``full-defense``, ``wait``...); the answers to a Corps-a-Corps (L5.CAC.1) and to a drive
  (L5.DRV.1) as reactions. Choosing a called shot's injury is no use.
- **Attacks**: each ``attack`` event and whether it hit, by the declaration it carries out.
- **Rounds**: the turn the duel ended in.
"""

from __future__ import annotations

__all__ = ["fight_summary"]

from kassen.core.summary import ActionUse, Attempt, FightSummary, PlayedFight, UnitSummary
from kassen.l5r.actions import Attack, ChooseCorps, ChooseDrive, Declare, ThroatStrike
from kassen.l5r.state import DuelState
from kassen.l5r.turn import standing


def _attack_name(attack: Attack) -> str:
    if attack.special is not None:
        return attack.special.value.replace("_", "-")
    return "full-attack" if attack.full_attack else "attack"


def fight_summary(fight: PlayedFight) -> FightSummary:
    """The duel's summary (see the module notes)."""
    state: DuelState = fight.state
    names = [str(f.name) for f in state.fighters]
    dealt = dict.fromkeys(names, 0)
    taken = dict.fromkeys(names, 0)
    declared: dict[str, str] = {}
    uses: list[ActionUse] = []
    attempts: list[Attempt] = []
    for entry in fight.entries:
        action = entry.action
        striking = ""
        if isinstance(action, Declare):
            act = action.act
            if isinstance(act, Attack):
                name = _attack_name(act)
                uses.append(ActionUse(action.actor, name, "special" if act.special else "maneuver"))
            else:
                name = act.do.value.replace("_", "-")
                uses.append(ActionUse(action.actor, name))
            declared[action.actor] = name
        elif isinstance(action, ThroatStrike):
            striking = "throat-strike"
            uses.append(ActionUse(action.actor, striking, "special"))
        elif isinstance(action, ChooseCorps | ChooseDrive):
            uses.append(ActionUse(action.actor, action.choice.replace("_", "-"), "reaction"))
        for event in entry.events:
            data = event.data
            if event.kind == "attack":
                attacker = str(data["attacker"])
                label = striking or declared.get(attacker, "attack")
                attempts.append(Attempt(attacker, label, bool(data["hit"])))
            elif event.kind == "damage":
                attacker, target, amount = str(data["attacker"]), str(data["target"]), int(data["damage"])
                dealt[attacker] = dealt.get(attacker, 0) + amount
                taken[target] = taken.get(target, 0) + amount
    tables = fight.tables
    units = tuple(
        UnitSummary(str(f.name), str(f.side), standing(f, tables), taken[str(f.name)], dealt[str(f.name)])
        for f in state.fighters
    )
    return FightSummary(state.turn, units, tuple(uses), tuple(attempts))
