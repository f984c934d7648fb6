"""The GM's own moves (issue 11): set a unit's Wounds, put a status on or take it off (Defenseless,
Bleed), add or remove a Defense −N, end the combat — open to the GM at any point but while an attack
waits on a decision, never among a unit's legal decisions, each a logged action of the GM that replays
and undoes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kassen import open_fight
from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight
from kassen.sengoku.battle import (
    RULESET,
    DecisionKind,
    GmAddDebuff,
    GmAddStatus,
    GmEndCombat,
    GmRemoveDebuff,
    GmRemoveStatus,
    GmSetWounds,
)
from kassen.sengoku.battle.table.gm import gm_actions

from .support import duel

GM_KINDS = (GmSetWounds, GmAddStatus, GmRemoveStatus, GmAddDebuff, GmRemoveDebuff, GmEndCombat)


def _gm(fight: Fight[Any, Any], *path: str) -> Any:
    events = fight.choose(list(path), gm=True)
    entry = fight.entries[-1]
    assert entry.actor is not None and entry.actor.kind == "gm"  # recorded as the GM's
    return events


def test_the_gms_moves_are_open_at_any_point_and_never_a_units() -> None:
    fight = open_fight("sengoku/burning-temple", seed=2)
    assert {o.id for o in fight.menu(gm=True).options} >= {"gm_set_wounds", "gm_add_status", "gm_end_combat"}
    waited = 0
    while not fight.over:
        assert not any(isinstance(a, GM_KINDS) for a in fight.legal_actions())
        d = fight.state.decision
        moves = gm_actions(fight.state, fight.tables)
        waits = (DecisionKind.REACTION, DecisionKind.FATE, DecisionKind.LAST_BASTION, DecisionKind.FUMBLE)
        if fight.state.attack is not None or (d is not None and d.kind in waits):
            assert moves == [] and not fight.menu(gm=True).options  # the GM waits (SG.RES.2)
            waited += 1
        else:
            kinds = {o.id for o in fight.menu(gm=True).options}
            assert {"gm_set_wounds", "gm_add_status", "gm_add_debuff", "gm_end_combat"} <= kinds
        fight.step()
    assert waited and gm_actions(fight.state, fight.tables) == []


def test_setting_wounds_is_logged_replayed_and_undone(tmp_path: Path) -> None:
    # rule: SG.WND.4 — Wounds from the maximum down to 0; rule: SG.INP.1 — at 0 Incapacitated, removed
    fight = duel(tmp_path)
    menu = fight.menu(["gm_set_wounds", "oni"], gm=True)
    assert menu.options[0].label == "0 Wounds (Incapacitated)"
    events = _gm(fight, "gm_set_wounds", "oni", "2")
    assert [e.kind for e in events] == ["gm_set_wounds"] and events[0].rule == "SG.WND.4"
    assert fight.state.unit("oni").wounds == 2
    data = fight.to_json()
    assert data["log"][-1]["action"] == {"kind": "gm_set_wounds", "unit": "oni", "wounds": 2}
    assert Fight.from_json(json.loads(json.dumps(data))).log_json() == fight.log_json()
    events = _gm(fight, "gm_set_wounds", "oni", "0")
    assert {"incapacitated", "removed", "combat_over"} <= {e.kind for e in events}
    assert fight.over and fight.result is not None and fight.result.winner == "a"
    fight.undo()
    assert not fight.over and fight.state.unit("oni").wounds == 2
    with pytest.raises(IllegalActionError) as err:
        fight.apply(GmSetWounds("oni", 99))
    assert err.value.rule == "SG.WND.4"


def test_defenseless_put_on_releases_the_stance_and_comes_off(tmp_path: Path) -> None:
    # rule: SG.DFL.1 — Defenseless by the GM's ruling; rule: SG.DFL.2 — a maintained stance is released
    fight = duel(tmp_path)
    fight.choose(["immovable-formation", "end_breath"])
    assert fight.state.unit("genzaburo").stances == ("immovable-formation",)
    events = _gm(fight, "gm_add_status", "genzaburo", "defenseless")
    assert [e.kind for e in events] == ["gm_status", "stance_released"] and events[0].rule == "SG.DFL.1"
    g = fight.state.unit("genzaburo")
    assert g.defenseless and g.stances == ()
    assert [o.id for o in fight.menu(["gm_add_status"], gm=True).options] == ["genzaburo", "oni"]
    only = next(o for o in fight.menu(gm=True).options if o.id == "gm_remove_status")
    assert only.complete  # one status to take off: the core's derived menu asks no more
    _gm(fight, "gm_remove_status")
    assert not fight.state.unit("genzaburo").defenseless
    with pytest.raises(IllegalActionError) as err:
        fight.apply(GmRemoveStatus("genzaburo", "defenseless"))
    assert err.value.rule == "SG.DFL.1"


def test_bleed_put_on_costs_a_wound_in_the_lull(tmp_path: Path) -> None:
    # rule: SG.AIM.5 — Bleed (the SG.INP.3 house default: 1 Wound each lull until bound)
    fight = duel(tmp_path)
    _gm(fight, "gm_add_status", "oni", "bleeding")
    before = fight.state.unit("oni").wounds
    while fight.state.round == 1:
        fight.choose(["pass_round"])
    assert fight.state.unit("oni").wounds == before - 1
    assert any(e.kind == "bleeds" and e.data["unit"] == "oni" for e in fight.events)


def test_a_defense_minus_n_lowers_the_odds_defense_and_comes_off(tmp_path: Path) -> None:
    # rule: SG.DBF.1 — Defense −N on the target: the attack's odds read the lower Defense at once
    fight = duel(tmp_path)
    before = next(o for o in fight.menu(["thrust"]).options if o.id == "oni")
    events = _gm(fight, "gm_add_debuff", "oni", "kusarigama-bind")
    assert events[0].kind == "gm_debuff" and events[0].rule == "SG.DBF.1"
    after = next(o for o in fight.menu(["thrust"]).options if o.id == "oni")
    assert before.odds is not None and after.odds is not None
    assert dict(after.odds.outcomes)["hit"] > dict(before.odds.outcomes)["hit"]
    assert "vs Defense 10" in before.label and "vs Defense 8" in after.label  # the bind's Defense −2
    remove = next(o for o in fight.menu(gm=True).options if o.id == "gm_remove_debuff")
    assert remove.complete  # the one Defense −N on anyone: nothing more to ask
    _gm(fight, "gm_remove_debuff")
    assert fight.state.unit("oni").debuffs == ()


def test_the_gm_ends_the_combat(tmp_path: Path) -> None:
    # rule: SG.END.1 — the combat ends on the GM's decision, with the winner the GM names (or none)
    fight = duel(tmp_path)
    menu = fight.menu(["gm_end_combat"], gm=True)
    assert [o.label for o in menu.options] == ["Side A wins", "Side B wins", "no winner"]
    events = _gm(fight, "gm_end_combat", "b")
    assert events[0].kind == "combat_over" and fight.result is not None and fight.result.winner == "b"
    assert gm_actions(fight.state, fight.tables) == []


def test_while_an_attack_waits_the_gm_waits(tmp_path: Path) -> None:
    # rule: SG.RES.2 — the attack at hand is resolved first (here it waits on Fate, SG.FAT.1)
    fight = duel(tmp_path, overrides={"fate_points": 2})
    fight.dice_mode = "table"
    fight.choose(["horizontal-cut", "oni", "end_breath"])
    fight.roll([4, 5])
    assert fight.state.decision is not None and fight.state.decision.kind is DecisionKind.FATE
    for action in (
        GmSetWounds("oni", 1),
        GmAddStatus("oni", "defenseless"),
        GmAddDebuff("oni", "grudge-curse"),
    ):
        with pytest.raises(IllegalActionError) as err:
            fight.apply(action)
        assert err.value.rule == "SG.RES.2"
    assert RULESET.gm_actions(fight.state, fight.tables) == []


def test_every_gm_move_is_in_the_chronicle_and_replays(tmp_path: Path) -> None:
    # rule: SG.DBF.1 — a Defense −N; rule: SG.DFL.1 — Defenseless; rule: SG.END.1 — the GM's end
    fight = duel(tmp_path)
    _gm(fight, "gm_add_status", "oni", "bleeding")
    _gm(fight, "gm_add_debuff", "genzaburo", "grudge-curse")
    fight.choose(["thrust", "oni", "end_breath"])
    _gm(fight, "gm_add_status", "genzaburo", "defenseless")
    _gm(fight, "gm_remove_debuff")
    _gm(fight, "gm_set_wounds", "genzaburo", "3")
    _gm(fight, "gm_end_combat", "none")
    data = json.loads(json.dumps(fight.to_json()))
    kinds = [e["action"]["kind"] for e in data["log"]]
    assert kinds == [
        "begin",
        "gm_add_status",
        "gm_add_debuff",
        "breath",
        "gm_add_status",
        "gm_remove_debuff",
        "gm_set_wounds",
        "gm_end_combat",
    ]
    assert fight.result is not None and fight.result.winner is None
    again = Fight.from_json(data)
    assert again.log_json() == fight.log_json() and again.state == fight.state
