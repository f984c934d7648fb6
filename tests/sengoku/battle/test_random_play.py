"""Random legal and illegal actions through whole battles (hypothesis): an illegal action raises the
typed error and changes nothing (state and random position); Energy, Wounds and Cohesion never go
negative; every battle ends within its round limit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kassen.core.engine import Snapshot, advance
from kassen.core.errors import IllegalActionError
from kassen.core.rng import Rng
from kassen.sengoku.battle import (
    GM,
    RULESET,
    Action,
    BattleState,
    Breath,
    Decline,
    Environment,
    GmEndCombat,
    GmSetWounds,
    Hold,
    Pass,
    React,
    Upkeep,
    Use,
)

from .helpers import BUNDLED, CATALOG, scenario

MIXED = scenario(
    {"creature": "genzaburo", "side": "a"},
    {"creature": "kuro", "side": "a", "zone": "own-flank"},
    {"id": "ochiyo", "creature": "shirabyoshi", "side": "a", "zone": "own-rear"},
    {"id": "squad", "creature": "ashigaru-squad", "side": "a"},
    {"creature": "oni", "side": "b", "zone": "core"},
    {"creature": "lord", "side": "b"},
    {"id": "guard", "creature": "ashigaru-squad", "side": "b"},
    {"creature": "ashigaru-gunner", "side": "b", "zone": "enemy-rear"},
    {"creature": "pure-land-monk", "side": "b", "zone": "enemy-flank"},
    rounds=3,
    yoma=True,
)
RULES = BUNDLED.tables
MANEUVERS = sorted(CATALOG.maneuvers)
ZONES = [z.id for z in MIXED.state.zones]


def invariants(state: BattleState) -> None:
    for u in state.units:
        assert u.energy >= 0 and 0 <= u.wounds <= u.wounds_max, u
        assert u.cohesion is None or u.cohesion >= 0, u
        assert u.incapacitated == (u.wounds == 0), u
        if not u.on_battlefield:
            assert u.reservations == () or u.retreated, u
    if not state.over:
        assert state.decision is not None or state.phase.value == "start"


@st.composite
def any_action(draw: Any, state: BattleState) -> Action:
    """An action that may or may not be legal now."""
    units = [u.id for u in state.units]
    decider = state.decision.unit if state.decision is not None else units[0]
    uid = draw(st.sampled_from([decider, decider, decider, *units]))  # mostly the one who decides
    kind = draw(st.integers(0, 10))
    legal = [a for a in RULESET.legal_actions(state, RULES) if isinstance(a, Breath)] if kind >= 9 else []
    if legal:  # a legal breath with one thing changed: another target, zone, Aim Focus, or more of it
        b = draw(st.sampled_from(legal))
        i = draw(st.integers(0, len(b.uses) - 1))
        u = b.uses[i]
        changed = draw(
            st.sampled_from(
                [
                    replace(u, target=draw(st.sampled_from(units))),
                    replace(u, to=draw(st.sampled_from(ZONES))),
                    replace(u, aim=draw(st.integers(1, 4))),
                    replace(u, release=True),
                    replace(u, squads=(draw(st.sampled_from(units)),)),
                ]
            )
        )
        uses = (*b.uses[:i], changed, *b.uses[i + 1 :]) * draw(st.integers(1, 3))
        return Breath(b.unit, uses)
    if kind == 0:
        n = draw(st.integers(0, 3))
        uses = tuple(
            Use(
                draw(st.sampled_from(MANEUVERS)),
                draw(st.sampled_from([None, *units])),
                draw(st.integers(0, 3)),
                draw(st.sampled_from([None, *ZONES])),
            )
            for _ in range(n)
        )
        return Breath(uid, uses)
    if kind == 1:
        return Hold(uid)
    if kind == 2:
        return Pass(uid)
    if kind == 3:
        return React(uid, draw(st.sampled_from(MANEUVERS)))
    if kind == 4:
        return Decline(draw(st.sampled_from([GM, *units])))
    if kind == 5:
        return Upkeep(uid, draw(st.sampled_from(MANEUVERS)), draw(st.sampled_from([None, *units])))
    if kind == 6:
        return Environment(draw(st.sampled_from([None, "nowhere", *ZONES])))
    if kind == 7:
        return GmSetWounds(uid, draw(st.integers(-1, 7)))
    return GmEndCombat() if draw(st.integers(0, 20)) == 0 else Pass(uid)


def play(seed: int, data: Any) -> None:
    """One battle of random legal and illegal actions, checking the invariants after each."""
    snap = Snapshot(MIXED.state, Rng(seed).state)
    for _ in range(3000):
        if snap.state.over:
            break
        if data.draw(st.booleans()):
            action = data.draw(any_action(snap.state))
            before, position = snap.state, snap.rng
            try:
                snap, _ = advance(RULESET, RULES, snap, action)
            except IllegalActionError as exc:
                assert exc.rule.startswith("SG.")
                assert snap.state is before and snap.rng == position
            invariants(snap.state)
            continue
        legal = RULESET.legal_actions(snap.state, RULES)
        assert legal, snap.state.decision
        assert RULESET.to_move(snap.state) is not None
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        snap, events = advance(RULESET, RULES, snap, action)
        assert all(e.rule.startswith("SG.") for e in events)
        invariants(snap.state)
    state = snap.state
    assert state.over and RULESET.result(state) is not None
    assert state.result is not None and state.round <= MIXED.state.max_rounds


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_random_legal_and_illegal_actions_through_whole_battles(seed: int, data: Any) -> None:
    # Illegal actions are refused with the typed error naming a rule and change nothing; rule: SG.END.1 —
    # every battle ends (round limit)
    play(seed, data)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_many_random_battles(seed: int, data: Any) -> None:
    play(seed, data)
