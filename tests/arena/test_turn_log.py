"""The bout's turn writes its events with a copier written once for the class (BoutTurn.log and
log_later, over one template event): each is the record the core's own Turn.log would make."""

from __future__ import annotations

import kassen.arena.bout.turn as turn_module
from kassen.arena.bout import BoutTurn
from kassen.core.engine import Turn
from kassen.core.events import Event
from kassen.core.rng import Rng

from .helpers import RULES, begun, fighter


def test_bout_turn_logs_the_events_the_core_turn_logs() -> None:
    # rule: AR.CORE.3 — every event of the bout's turn is an Event like the core's, of its own fields
    state = begun(fighter("a", "east"), fighter("b", "west"))
    bout, core = BoutTurn(state, Rng(1), RULES), Turn(state, Rng(1), RULES)
    for turn in (bout, core):
        turn.log("wait", "AR.GAP.2", automatic=False, fighter="a")
        turn.log("subturn", "AR.CORE.3", subturn=2)
        turn.log("bout_over")
    assert bout.events == core.events
    assert all(type(e) is Event for e in bout.events)
    assert [e.to_json() for e in bout.events] == [e.to_json() for e in core.events]
    assert len({id(e) for e in bout.events}) == 3 and len({id(e.data) for e in bout.events}) == 3
    bout.log_later("moved", "AR.GAP.2", lambda: {"fighter": "b"}, automatic=False)
    later = bout.events[-1]
    assert type(later) is Event and later.to_json() == Event("moved", {"fighter": "b"}, "AR.GAP.2").to_json()
    # the template every event is written over is left as it was
    assert Event("", {}, "", False) == turn_module._EVENT
