"""The arena bout on the core's engine skeleton, in subturns, split along its handler tables.

- :mod:`~kassen.arena.bout.state`: the state and the actions (frozen dataclasses, through the codec);
- :mod:`~kassen.arena.bout.reading`: pure readings (who decides, effective skill and defence...);
- :mod:`~kassen.arena.bout.legal`: every legal action, and the validation that accepts exactly those;
- :mod:`~kassen.arena.bout.turn`: :class:`BoutTurn`, the core's ``Turn`` with the arena's helpers;
- :mod:`~kassen.arena.bout.actions`: what each action does; :mod:`~kassen.arena.bout.tasks`: what each
  scheduled task does (the agenda: everything automatic);
- :mod:`~kassen.arena.bout.flow`: ``resolve`` (validate, then apply) and ``follow_up`` (one automatic
  step, drained by the core under its one cap).

Everything the rules schedule fires by itself and is logged as an automatic event: the popularity checks
at the start of a match (AR.AUD.2), fatigue every 10 subturns (AR.FTG.1), stun recovery each subturn
(AR.STN.2), HT checks at 0 HP (AR.HP.2), death checks (AR.HP.3), landings at the end of the subturn
(AR.KNB.6), shock expiry after the next subturn (AR.INJ.2, AR.CORE.3).

The fighters stand on a line, in metres (the AR.GAP.2 position model in ``match.position``): an attack
needs its target within reach, a :class:`Move` spends the slot moving up to the effective Move (AR.HP.1,
AR.FTG.3, AR.KNB.5), knockback pushes the target away (AR.KNB.1).

Decisions are either a fighter's slot (attack, guard, move, rise, wait...) or an *offer*: when a fighter
becomes stunned or incapacitated, or drops to FP 1 in match format, it may at once try to override it
(guts check AR.GUT.1, or an audience point AR.AUD.3) or decline; in match format declining an
incapacitated state loses (AR.OUT.1, AR.FTG.4). Overriding an automatic unconsciousness or stun exempts
that damage's others (AR.INJ.10). The bout ends once an action's consequences have all resolved and at
most one side still stands.
"""

from kassen.arena.bout.flow import follow_up, resolve
from kassen.arena.bout.legal import legal_actions, validate
from kassen.arena.bout.reading import (
    active_targets,
    attack_location,
    attack_target,
    attribute_modifiers,
    can_defend,
    deciding_fighter,
    defense_target,
    distance,
    guts_target,
    in_reach,
    move_allowance,
    shock_modifier,
)
from kassen.arena.bout.state import (
    Action,
    Attack,
    Begin,
    BoutState,
    Cheer,
    Decline,
    GiveUp,
    Grapple,
    Guts,
    HitRecord,
    Move,
    Offer,
    Result,
    Rise,
    SetGuard,
    Task,
    Wait,
    initial_state,
)
from kassen.arena.bout.turn import BoutTurn

__all__ = [
    "Action",
    "Attack",
    "Begin",
    "BoutState",
    "BoutTurn",
    "Cheer",
    "Decline",
    "GiveUp",
    "Grapple",
    "Guts",
    "HitRecord",
    "Move",
    "Offer",
    "Result",
    "Rise",
    "SetGuard",
    "Task",
    "Wait",
    "active_targets",
    "attack_location",
    "attack_target",
    "attribute_modifiers",
    "can_defend",
    "deciding_fighter",
    "defense_target",
    "distance",
    "follow_up",
    "guts_target",
    "in_reach",
    "initial_state",
    "legal_actions",
    "move_allowance",
    "resolve",
    "shock_modifier",
    "validate",
]
