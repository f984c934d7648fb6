"""The GM's own moves (issue 11): set Wounds, add or remove a status or condition, rule on danger behind
(L5.DRV.1), end the duel — open to the GM at any point, never among a character's legal decisions, each
a logged action resolved like any other, that replays and undoes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kassen import open_fight
from kassen.core.engine import Snapshot, advance
from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight
from kassen.core.rng import Rng
from kassen.l5r.actions import Attack, Declare
from kassen.l5r.character import FighterId
from kassen.l5r.gm import (
    GM_ACTIONS,
    GmAddCondition,
    GmDangerBehind,
    GmEndDuel,
    GmInjure,
    GmRemoveCondition,
    GmRemoveStatus,
    GmSetWounds,
    gm_actions,
)
from kassen.l5r.ruleset import RULESET
from kassen.l5r.state import DrivePending, Phase
from kassen.l5r.tables import Location, SpecialAttackName

KAKITA, HIDA = FighterId("Kakita Toshiro"), FighterId("Hida Kuroda")


def _duel(seed: int = 3) -> Fight[Any, Any]:
    fight = open_fight("l5r/kakita-vs-hida", seed=seed)
    fight.choose(["begin"])
    return fight


def test_the_gms_moves_are_open_at_any_point_and_never_a_characters() -> None:
    fight = open_fight("l5r/bridge-ambush", seed=2)
    assert fight.menu(gm=True).options  # before the duel begins, too
    while not fight.over:
        assert not any(isinstance(a, GM_ACTIONS) for a in fight.legal_actions())
        kinds = {o.id for o in fight.menu(gm=True).options}
        assert {"gm_set_wounds", "gm_injure", "gm_add_condition", "gm_end_duel"} <= kinds
        fight.step()
    assert gm_actions(fight.state, fight.tables) == []
    assert not fight.menu(gm=True).options


def test_setting_wounds_moves_the_rank_and_replays() -> None:
    # rule: L5.CORE.6 — Wounds fill the ranks: the rank follows the count the GM sets
    fight = _duel()
    events = fight.choose(["gm_set_wounds", "Hida Kuroda", "20"], gm=True)
    assert isinstance(events, tuple) and [e.kind for e in events] == ["gm_wounds"]
    assert events[0].data["rank"] == "Nicked" and events[0].rule == "L5.CORE.6"
    hida = fight.state.fighter(HIDA)
    assert hida.wounds == 20 and hida.bloodied
    # a GM move is an action in the log: the chronicle replays it, and undo takes it back
    data = fight.to_json()
    assert data["log"][-1]["action"] == {"kind": "gm_set_wounds", "fighter": "Hida Kuroda", "wounds": 20}
    assert Fight.from_json(json.loads(json.dumps(data))).log_json() == fight.log_json()
    fight.undo()
    assert fight.state.fighter(HIDA).wounds == 0
    with pytest.raises(IllegalActionError) as err:
        fight.apply(GmSetWounds(HIDA, 64))  # Earth 3: the Dead rank's last box is the 63rd
    assert err.value.rule == "L5.CORE.6"


def test_wounds_set_past_out_end_a_duel_to_the_out() -> None:
    # rule: L5.RD.4 — the Dead rank's last box kills; Out ends the duel like any blow
    fight = _duel()
    fight.apply(GmSetWounds(HIDA, 52))
    assert fight.over and fight.result is not None and fight.result.winner == "Crane"
    assert [e.kind for e in fight.entries[-1].events][:2] == ["gm_wounds", "out"]
    fight.undo()
    fight.apply(GmSetWounds(HIDA, 63))
    assert fight.state.fighter(HIDA).dead and any(e.kind == "death" for e in fight.entries[-1].events)
    fight.undo()
    fight.apply(GmSetWounds(HIDA, 60))  # in the Dead rank: down, alive
    hida = fight.state.fighter(HIDA)
    assert not hida.dead and any(e.kind == "dying" for e in fight.entries[-1].events)


def test_a_fighter_put_down_before_declaring_is_out_of_the_declarations() -> None:
    # rule: L5.CORE.8 — the declaration order holds the fighters still able to declare
    fight = open_fight("l5r/bridge-ambush", seed=1)
    fight.choose(["begin"])
    first = fight.state.declare_order[0]
    fight.apply(GmSetWounds(FighterId(first), 40))  # Earth 2: Out (and the duel goes on, two to one)
    assert not fight.over and first not in fight.state.declare_order
    assert fight.to_move is not None and fight.to_move.id != first


def test_an_injury_is_its_statuses_and_a_status_can_be_taken_off() -> None:
    # rule: L5.FOT.1 — a fall: prone, TN to be hit 5, an action to regain footing
    fight = _duel()
    fight.apply(GmInjure(KAKITA, Location.FOOT, "fall"))
    kakita = fight.state.fighter(KAKITA)
    assert kakita.has("prone", fight.state.turn) and kakita.wounds == 0
    assert fight.entries[-1].events[0].kind == "gm_injury" and fight.entries[-1].events[0].rule == "L5.FOT.1"
    label = "prone: foot: fall"
    assert GmRemoveStatus(KAKITA, label) in gm_actions(fight.state, fight.tables)
    fight.choose(["gm_remove_status"], gm=True)  # the only status: complete at once
    assert not fight.state.fighter(KAKITA).statuses
    with pytest.raises(IllegalActionError) as err:
        fight.apply(GmRemoveStatus(KAKITA, label))
    assert err.value.rule == "L5.GAP.1"
    # rule: L5.HND.1 — no grip: the weapon falls
    fight.apply(GmInjure(HIDA, Location.HAND, "no_grip"))
    assert not fight.state.fighter(HIDA).weapon_in_hand
    assert [e.kind for e in fight.entries[-1].events] == ["gm_injury", "weapon_dropped"]
    with pytest.raises(IllegalActionError) as err:
        fight.apply(GmInjure(HIDA, Location.HAND, "paper_cut"))
    assert err.value.rule == "L5.CS.2"


def test_a_condition_brings_its_lasting_effects_and_takes_them_away() -> None:
    # rule: L5.GAP.1 — Lame: movement halved, one less Full Defense die, for good
    fight = _duel()
    fight.apply(GmAddCondition(HIDA, "Lame"))
    hida = fight.state.fighter(HIDA)
    assert hida.conditions == ("Lame",) and {s.kind for s in hida.statuses} == {"movement_divisor", "dice"}
    fight.apply(GmRemoveCondition(HIDA, "Lame"))
    hida = fight.state.fighter(HIDA)
    assert hida.conditions == () and hida.statuses == ()
    with pytest.raises(IllegalActionError) as err:
        fight.apply(GmAddCondition(HIDA, "Bad Hair Day"))
    assert err.value.rule == "L5.GAP.1"


def test_the_gm_rules_on_danger_behind_and_a_drive_may_then_be_refused() -> None:
    # rule: L5.DRV.1 — a defender aware of danger behind may refuse to give way
    fight = _duel()
    assert not fight.state.fighter(HIDA).character.hazard_behind
    fight.apply(GmDangerBehind(HIDA, True))
    assert fight.state.fighter(HIDA).character.hazard_behind
    assert fight.entries[-1].events[0].kind == "gm_danger"
    fight.choose(["wait"])  # Hida declares; Kakita drives him
    drive = Declare(KAKITA, Attack(HIDA, special=SpecialAttackName.DRIVE))
    for seed in range(40):
        after, events = advance(RULESET, fight.tables, Snapshot(fight.state, Rng(seed).state), drive)
        if any(e.kind == "attack" and e.data["hit"] for e in events):
            assert isinstance(after.state.pending, DrivePending) and after.state.pending.chooser == HIDA
            break
    else:
        raise AssertionError("the Drive never hit")


def test_the_gm_ends_the_duel() -> None:
    fight = _duel()
    winners = {o.id for o in fight.menu(["gm_end_duel"], gm=True).options}
    assert winners == {"Crane", "Crab", "none"}
    fight.choose(["gm_end_duel", "none"], gm=True)
    assert fight.over and fight.result is not None
    assert (fight.result.winner, fight.result.reason) == (None, "ended by the GM")
    fight.undo()
    fight.apply(GmEndDuel("Crab"))
    assert fight.state.phase is Phase.OVER and fight.state.winner == "Crab"
    fight.undo()
    with pytest.raises(IllegalActionError):
        fight.apply(GmEndDuel("Lion"))


def test_the_dead_are_beyond_the_gms_moves() -> None:
    # rule: L5.RD.4 — the Dead rank filled is for good
    fight = open_fight("l5r/bridge-ambush", seed=1)
    fight.choose(["begin"])
    fight.apply(GmSetWounds(FighterId("Goro"), 42))
    assert fight.state.fighter("Goro").dead
    with pytest.raises(IllegalActionError) as err:
        fight.apply(GmSetWounds(FighterId("Goro"), 0))
    assert err.value.rule == "L5.RD.4"
    assert not any(getattr(a, "fighter", None) == "Goro" for a in gm_actions(fight.state, fight.tables))
