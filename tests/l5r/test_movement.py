"""The position model (L5.GAP.1 house default, core.movement): every Move effect of the excerpt restricts
something real — limping and Lame slow the closing (L5.LEG.1), a pinned foot stops it (L5.FOT.1), a Drive
opens a gap (L5.DRV.1), a disarmed weapon lies feet away and must be reached (L5.DSM.1)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kassen import open_fight
from kassen.core.errors import ContentError, IllegalActionError
from kassen.l5r.actions import Act, ActKind, Attack, Declare
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import FighterId
from kassen.l5r.content import content_for
from kassen.l5r.movement import action_move, speed
from kassen.l5r.policies import heuristic
from kassen.l5r.ruleset import RULESET
from kassen.l5r.scenario import load_scenario
from kassen.l5r.state import DuelState, Fighter, Phase, Status
from kassen.l5r.tables import L5Tables, SpecialAttackName
from kassen.l5r.validate import validate_attack, validate_declaration

from .conftest import ScriptedRng, apply, char, duel, first, kinds, play

A, T = FighterId("A"), FighterId("T")
HIT = [10, 9, 9, 9, 9, 9, 9]  # 6k3 → (10+9) + 9 + 9 = 37
LIMPING = Status("movement_divisor", "leg: limping", "L5.LEG.1", amount=2)
LAME = Status("movement_divisor", "Lame", "L5.GAP.1", amount=2)
PINNED = Status("cannot_move", "foot: pinned", "L5.FOT.1", ended_by="remove_weapon")
PRONE = Status("prone", "foot: fall", "L5.FOT.1", ended_by="regain_footing")


def at(f: Fighter, position: int, *statuses: Status) -> Fighter:
    return replace(f.with_status(*statuses), position=position)


def declaring(state: DuelState, actor: FighterId) -> DuelState:
    """``state`` at ``actor``'s declaration (the others already declared Wait)."""
    fighters = tuple(f if f.name == actor else replace(f, declared=Act(ActKind.WAIT)) for f in state.fighters)
    order = (actor, *[f.name for f in state.fighters if f.name != actor])
    return replace(
        state, fighters=fighters, phase=Phase.DECLARE, declare_order=order, act_order=order, cursor=0
    )


def test_the_model_is_a_house_default_in_data(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — positions, reach, moves: data with a rationale and the other reading
    m = tables.core.movement
    assert m.house_default.rule == "L5.GAP.1" and ("core.movement", m.house_default, m.alternative) in (
        tables.house_defaults()
    )
    assert (m.start_distance, m.reach, m.feet_per_water, m.move_action_multiple) == (5, 5, 5, 2)
    assert m.stops_movement == ["cannot_move", "prone"]


def test_scenarios_place_the_sides_and_may_place_each_character() -> None:
    # rule: L5.GAP.1 — the first side at 0, the others start_distance away; `position:` overrides
    fight = open_fight("l5r/bridge-ambush", seed=1)
    assert [f.position for f in fight.state.fighters] == [0, 5, 5]
    fight = open_fight("l5r/lame-veteran", seed=1)
    assert [f.position for f in fight.state.fighters] == [0, 20]


def test_speed_is_water_times_five_halved_by_each_limp_and_stopped_by_pin_or_prone(tables: L5Tables) -> None:
    # rule: L5.LEG.1 — limping halves movement, cumulatively with Lame (L5.GAP.1);  rule: L5.FOT.1 —
    # pinned: cannot move; prone too (stops_movement)
    f = Fighter(char("A"))  # Water 2
    assert speed(f, tables, 1).feet == 10 and action_move(f, tables, 1) == 20
    assert speed(at(f, 0, LIMPING), tables, 1).feet == 5
    assert speed(at(f, 0, LIMPING, LAME), tables, 1).feet == 2
    for stop in (PINNED, PRONE):
        sp = speed(at(f, 0, stop), tables, 1)
        assert sp.feet == 0 and sp.stopped == stop


def test_an_attack_reaches_only_within_reach_and_the_turns_move(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — reach 5 + move 10: a target 15 feet off may be attacked, 16 feet not
    state = duel(char("A"), at(Fighter(char("T")), 15))
    validate_attack(state, state.fighter(A), Attack(T), tables, free=0)
    far = state.with_fighter(at(state.fighter(T), 16))
    with pytest.raises(IllegalActionError) as err:
        validate_attack(far, far.fighter(A), Attack(T), tables, free=0)
    assert err.value.rule == "L5.GAP.1" and "16 feet away" in str(err.value)


def test_a_limping_or_pinned_attacker_cannot_close(tables: L5Tables) -> None:
    # rule: L5.LEG.1 — limping: 10 feet off is out of reach (5 + 5); rule: L5.FOT.1 — pinned: 6 feet is
    state = duel(at(Fighter(char("A")), 0, LIMPING), at(Fighter(char("T")), 12))
    with pytest.raises(IllegalActionError) as err:
        validate_attack(state, state.fighter(A), Attack(T), tables, free=0)
    assert err.value.rule == "L5.LEG.1" and "moves only 5 feet" in str(err.value)
    state = duel(at(Fighter(char("A")), 0, PINNED), at(Fighter(char("T")), 6))
    with pytest.raises(IllegalActionError) as err:
        validate_attack(state, state.fighter(A), Attack(T), tables, free=0)
    assert err.value.rule == "L5.FOT.1"
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(declaring(state, A), A, Act(ActKind.CLOSE, T), tables)
    assert err.value.rule == "L5.FOT.1" and "cannot move" in str(err.value)
    validate_attack(state.with_fighter(at(state.fighter(T), 5)), state.fighter(A), Attack(T), tables, free=0)


def test_the_attacker_closes_first_and_an_attack_beyond_reach_is_lost(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — 12 feet off: the attacker moves 7 feet, then rolls; a target 20 feet off when the
    # turn comes (driven away meanwhile) cannot be reached: the action is lost
    state = duel(char("A", agility=3), at(Fighter(char("T")), 12))
    state, out = play(state, resolve_attack, A, Attack(T), dice=ScriptedRng([*HIT, 5, 5, 1, 1, 1]))
    move = first(out, "move")
    assert move.data["feet"] == 7 and state.fighter(A).position == 7 and kinds(out)[1] == "attack"
    state = duel(char("A", agility=3), at(Fighter(char("T")), 20))
    state, out = play(state, resolve_attack, A, Attack(T))
    assert kinds(out) == ["lost_action"] and first(out, "lost_action").rule == "L5.GAP.1"


def test_closing_and_retreating_spend_the_action_moving(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — close: twice the turn's move, stopping at reach; retreat: away from the nearest
    state = declaring(duel(char("A"), at(Fighter(char("T")), 40)), A)
    state, out = apply(state, Declare(A, Act(ActKind.CLOSE, T)), ScriptedRng([5] * 20))
    assert state.fighter(A).position == 20 and "20 feet still to go" not in first(out, "move").data["text"]
    assert "15 feet still to go" in first(out, "move").data["text"]
    state = declaring(duel(at(Fighter(char("A")), 0, LIMPING), at(Fighter(char("T")), 8)), A)
    state, out = apply(state, Declare(A, Act(ActKind.CLOSE, T)), ScriptedRng([5] * 20))
    assert state.fighter(A).position == 3 and first(out, "move").rule == "L5.LEG.1"  # 10 feet allowed
    state = declaring(duel(char("A"), at(Fighter(char("T")), 5)), A)
    with pytest.raises(IllegalActionError):  # already within reach: nothing to close
        validate_declaration(state, A, Act(ActKind.CLOSE, T), tables)
    state, _ = apply(state, Declare(A, Act(ActKind.RETREAT)), ScriptedRng([5] * 20))
    assert state.fighter(A).position == -20


def test_a_drive_moves_the_defender_back_and_a_slowed_one_must_close_again(tables: L5Tables) -> None:
    # rule: L5.DRV.1 — forced back Strength + Weapon Skill feet (3 + 3), straight away from the attacker,
    # who stays; rule: L5.LEG.1 — limping, the defender (move 5) cannot strike back from 6 + 5 feet
    a = Fighter(char("A", agility=3, void=4, strength=3))
    state = duel(a, at(Fighter(char("T")), 5, LIMPING))
    state, out = play(
        state,
        resolve_attack,
        A,
        Attack(T, special=SpecialAttackName.DRIVE),
        dice=ScriptedRng([*HIT, 10, 9, 1]),
    )
    assert state.fighter(T).position == 11 and state.fighter(A).position == 0
    assert first(out, "drive").data["position"] == 11
    with pytest.raises(IllegalActionError) as err:
        validate_attack(state, state.fighter(T), Attack(A), tables, free=0)
    assert err.value.rule == "L5.LEG.1"
    choice = heuristic(declaring(state, T), RULESET.legal_actions(declaring(state, T), tables), tables)
    assert choice == Declare(T, Act(ActKind.CLOSE, A))  # no attack reaches: the heuristic closes


def test_a_disarmed_weapon_lies_feet_away_and_must_be_reached(tables: L5Tables) -> None:
    # rule: L5.DSM.1 — knocked (Strength 3 + 9) = 12 feet behind its owner; rule: L5.GAP.1 — going for
    # it spends the action moving: 20 feet reach it at once, a lame 10 feet only halfway; rule:
    # L5.FOT.1 — a pinned owner cannot go for it at all until the pinning weapon is out
    a = Fighter(char("A", agility=3, void=4, strength=3))
    state = duel(a, at(Fighter(char("T", skills=(("kenjutsu", 2),))), 5))
    state, out = play(
        state,
        resolve_attack,
        A,
        Attack(T, special=SpecialAttackName.DISARM),
        dice=ScriptedRng([*HIT, 5, 5, 1, 1, 9]),
    )
    t = state.fighter(T)
    assert not t.weapon_in_hand and t.weapon_at == 17 and first(out, "disarm").data["feet"] == 12
    got, out = apply(declaring(state, T), Declare(T, Act(ActKind.RECOVER_WEAPON)), ScriptedRng([5] * 20))
    t = got.fighter(T)
    assert t.weapon_in_hand and t.position == 17 and first(out, "recover_weapon").data["feet"] == 12
    lame = state.with_fighter(state.fighter(T).with_status(LAME))
    half, out = apply(declaring(lame, T), Declare(T, Act(ActKind.RECOVER_WEAPON)), ScriptedRng([5] * 20))
    assert not half.fighter(T).weapon_in_hand and half.fighter(T).position == 15
    assert "2 feet still to go" in first(out, "move").data["text"]
    pinned = state.with_fighter(state.fighter(T).with_status(PINNED))
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(declaring(pinned, T), T, Act(ActKind.RECOVER_WEAPON), tables)
    assert err.value.rule == "L5.FOT.1"
    choice = heuristic(declaring(pinned, T), RULESET.legal_actions(declaring(pinned, T), tables), tables)
    assert choice == Declare(T, Act(ActKind.REMOVE_WEAPON))
    at_feet = pinned.with_fighter(replace(pinned.fighter(T), weapon_at=5))  # dropped where he stands
    validate_declaration(declaring(at_feet, T), T, Act(ActKind.RECOVER_WEAPON), tables)


def test_moving_with_a_point_at_the_throat_brings_the_strike(tables: L5Tables) -> None:
    # rule: L5.PTT.1 — closing and retreating are sudden movements (data: triggers)
    triggers = tables.special_attacks.point_to_throat.triggers
    assert "close" in triggers and "retreat" in triggers


def test_prone_may_be_allowed_to_move_by_data(tmp_path: Path, tables: L5Tables) -> None:
    # rule: L5.GAP.1 — stops_movement is data: a layer without prone lets a prone character crawl
    (tmp_path / "core.yaml").write_text("movement:\n  stops_movement: [cannot_move]\n", encoding="utf-8")
    crawl = content_for(tmp_path).tables
    f = at(Fighter(char("A")), 0, PRONE)
    assert speed(f, tables, 1).feet == 0 and speed(f, crawl, 1).feet == 10
    (tmp_path / "core.yaml").write_text("movement:\n  stops_movement: [flying]\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        content_for(tmp_path)
    assert err.value.issues[0].field.startswith("core.movement.stops_movement")


def test_a_scenario_position_is_validated() -> None:
    # rule: L5.GAP.1 — positions are feet along the line, within bounds
    text = "ruleset: l5r\nname: x\ncharacters:\n  - {name: A, position: 99999999}\n  - {name: B}\n"
    with pytest.raises(ContentError) as err:
        open_fight(load_scenario("x.yaml", text=text))
    assert err.value.issues[0].field == "characters.0.position"


def _texts(seed: int) -> list[tuple[str, str, str]]:
    fight = open_fight("l5r/lame-veteran", seed=seed)
    fight.autoplay()
    return [(e.kind, e.rule, str(e.data.get("text", ""))) for e in fight.events]


def test_the_bundled_ford_duel_plays_the_position_model() -> None:
    # rule: L5.GAP.1  rule: L5.DSM.1  rule: L5.FOT.1 — seed 3: the lame Hida closes only 10 feet of the
    # 20 in turn 1; disarmed, his blade lands 12 feet behind him; pinned on the way to it, he cannot move
    # until the pinning weapon is out, then walks toward it
    events = _texts(3)
    assert (
        "move",
        "L5.GAP.1",
        "Hida Tadaka moves 10 feet closing on Bayushi Kaneko, 5 feet still to go",
    ) in (events)
    assert any(k == "disarm" and "lands 12 feet away, behind him" in t for k, _, t in events)
    assert ("move", "L5.FOT.1", "Hida Tadaka cannot move (foot: pinned)") in events
    assert any(k == "move" and r == "L5.GAP.1" and "toward the dropped weapon" in t for k, r, t in events)
    # rule: L5.DRV.1  rule: L5.LEG.1 — seed 27: a Drive moves him back 7 feet; a leg maim adds a second
    # Lame to the one he carried in (cumulative)
    events = _texts(27)
    assert any(k == "drive" and "drives Hida Tadaka back 7 feet" in t for k, _, t in events)
    assert any(k == "maim" and "leg - maimed" in t for k, _, t in events)
