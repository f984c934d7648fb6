"""The combat flow of seed 002 as the core's :class:`~kassen.core.engine.Turn`, split along its handler
tables:

* :mod:`~kassen.sengoku.battle.flow.base`: the working copy, its helpers and the statuses (Defenseless,
  rout, Wounds, Cohesion);
* :mod:`~kassen.sengoku.battle.flow.context`: whether an attack is an ambush, and what it reads from the
  state (its modifier, the target's Defense);
* :mod:`~kassen.sengoku.battle.flow.attack`: attacks (an ambush landing too), Fate and reactions;
* :mod:`~kassen.sengoku.battle.flow.breath`: breaths and the maneuvers in them (one handler per kind);
* :mod:`~kassen.sengoku.battle.flow.rounds`: round start, the count, the lull and the end;
* :mod:`~kassen.sengoku.battle.flow.turn`: :class:`BattleTurn`, the action handlers (one per action type)
  and the automatic step the core drains.
"""

from kassen.sengoku.battle.flow.base import use_json
from kassen.sengoku.battle.flow.turn import INTRUDERS, BattleTurn, upkeep_options

__all__ = ["INTRUDERS", "BattleTurn", "upkeep_options", "use_json"]
