"""Decisions built step by step (issue 11): a breath maneuver → target, zone, aim or weapon → the next
maneuver … → end, with the Energy spent and left and the overload threshold at each step; Hold and Pass;
reservations and stances among the choices; reactions, upkeep, Fate, the GM's fumble extras and
environment as menus. Each prefix is checked as it is built, a complete path is exactly an action
``apply`` accepts, and a choice not allowed is refused with the rule that forbids it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kassen import open_fight
from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight
from kassen.core.menu import Menu, MenuError
from kassen.sengoku.battle import (
    RULESET,
    Breath,
    DecisionKind,
    Decline,
    Hold,
    Pass,
    React,
    Reservation,
    Use,
)
from kassen.sengoku.battle.actions import FateIntervention, FumbleExtras, LastBastion

from .support import battle, duel


def ids(menu: Menu) -> list[str]:
    return [o.id for o in menu.options]


def allowed(menu: Menu) -> list[str]:
    return [o.id for o in menu.options if o.allowed]


def option(menu: Menu, ident: str) -> Any:
    return next(o for o in menu.options if o.id == ident)


def count_example() -> Fight[Any, Any]:
    fight = open_fight("sengoku/count-example", seed=4)
    fight.choose(["begin"])
    return fight


def test_a_breath_is_maneuver_target_next_maneuver_end_with_the_energy_at_each_step() -> None:
    # rule: SG.BRT.1 — maneuvers chosen within one breath; rule: SG.CNT.5 — Energy spent, the rest left;
    # rule: SG.BRT.2 — the limit 5, an overload past it; rule: SG.BRT.3 — a repeated attack costs more
    fight = count_example()
    first = fight.menu()
    assert first.prompt.startswith("Kuro, count 12: choose a maneuver (or Hold, or Pass)")
    assert "0 of 12 Energy spent in this breath, 12 left; limit 5 (5 more before overload)" in first.prompt
    assert option(first, "stealth-movement").label == "Stealth Movement (movement; 3 Energy)"
    zones = fight.menu(["stealth-movement"])
    assert zones.prompt.startswith("Kuro, count 12: Stealth Movement: choose the zone")
    assert allowed(zones) == ["own-rear", "own-front", "core", "enemy-flank"]
    after = fight.menu(["stealth-movement", "own-front"])
    assert "3 of 12 Energy spent in this breath, 9 left; limit 5 (2 more before overload)" in after.prompt
    assert ids(after)[0] == "end_breath" and option(after, "end_breath").complete
    assert option(after, "ninjutsu-assassination").label.endswith("(attack; 4 Energy; overload)")
    path = ["stealth-movement", "own-front", "stroke-of-fire", "oni", "stroke-of-fire", "oni"]
    over = fight.menu(path)
    assert (
        "7 of 12 Energy spent in this breath, 5 left; limit 5 (OVERLOAD by 2: a check follows)" in over.prompt
    )
    assert option(over, "end_breath").label == (
        "End the breath: 7 Energy spent, 5 left; over the limit 5: an overload check follows"
    )
    action = RULESET.decision(fight.state, fight.tables, [*path, "end_breath"])
    assert action == Breath(
        "kuro",
        (
            Use("stealth-movement", to="own-front"),
            Use("stroke-of-fire", "oni"),
            Use("stroke-of-fire", "oni"),
        ),
    )
    assert not any(a == action for a in fight.legal_actions())  # beyond the listed sample
    events = fight.choose([*path, "end_breath"])
    assert isinstance(events, tuple)
    breath = next(e for e in events if e.kind == "breath")
    assert breath.data["costs"] == [3, 2, 2] and breath.data["spent"] == 7 and breath.data["overload"] is True
    assert any(e.kind == "overload_check" for e in events)


def test_hold_and_pass_open_a_breath_and_nothing_else_does() -> None:
    # rule: SG.CNT.6 — a unit may hold (1 Energy, act again lower) or pass instead of a breath
    fight = count_example()
    first = fight.menu()
    assert [o.id for o in first.options if o.complete and o.allowed] == ["hold_breath", "pass_round"]
    assert RULESET.decision(fight.state, fight.tables, ["hold_breath"]) == Hold("kuro")
    assert RULESET.decision(fight.state, fight.tables, ["pass_round"]) == Pass("kuro")
    with pytest.raises(MenuError):
        fight.menu(["walk", "own-front", "hold_breath"])
    with pytest.raises(MenuError):
        fight.menu(["end_breath"])  # nothing to end yet
    with pytest.raises(MenuError):
        RULESET.decision(fight.state, fight.tables, ["walk", "own-front"])  # not ended


def test_a_choice_the_rules_refuse_is_shown_not_allowed_and_refused_with_its_rule() -> None:
    # rule: SG.ZON.2 — melee reaches the same zone only: Kuro in the Flank cannot cut the Oni in the Front
    fight = count_example()
    cut = option(fight.menu(), "reverse-grip-cut")
    assert not cut.allowed and cut.rule == "SG.ZON.2" and "out of Reverse-Grip Cut's reach" in cut.why
    assert not cut.complete  # allowed, it would lead to a target
    with pytest.raises(IllegalActionError) as err:
        fight.menu(["reverse-grip-cut"])
    assert err.value.rule == "SG.ZON.2"
    with pytest.raises(IllegalActionError) as err:
        fight.choose(["stealth-movement", "enemy-rear", "end_breath"])
    assert err.value.rule == "SG.ZON.2"
    with pytest.raises(MenuError):
        fight.menu(["no-such-maneuver"])
    # rule: SG.RET.1 — nothing follows a Retreat
    after = fight.menu(["retreat"])
    assert allowed(after) == ["end_breath"] and option(after, "walk").rule == "SG.RET.1"
    assert len(fight.entries) == 1  # the GM's Begin: nothing refused was applied


def test_reservations_and_stances_are_among_the_choices(tmp_path: Path) -> None:
    # rule: SG.RES.1 — a defense technique reserved in the breath; rule: SG.BRT.1 — declare or release a
    # stance; rule: SG.DFL.3 — a Defenseless unit's own breath ends its Defenseless before it is declared
    # (the house reading of "removed when your next action starts"), so it may reserve again
    fight = duel(tmp_path)
    first = fight.menu()
    assert option(first, "parry").label == "Parry (reserve a defense; 1 Energy)"
    assert option(first, "immovable-formation").label == "Immovable Formation (declare a stance; 1 Energy)"
    fight.choose(["immovable-formation", "parry", "end_breath"])
    genzaburo = fight.state.unit("genzaburo")
    assert genzaburo.reservations == (Reservation("parry"),) and genzaburo.stances == ("immovable-formation",)
    fight.choose(["pass_round"])  # the Oni
    assert fight.to_move is not None and fight.to_move.id == "genzaburo"
    menu = fight.menu()
    release = option(menu, "release:immovable-formation")
    assert release.allowed and release.label == "Release Immovable Formation (0 Energy)"
    assert "immovable-formation" not in allowed(menu)  # maintained already
    state = fight.state
    defenseless = state.with_unit(replace(state.unit("genzaburo"), defenseless=True))
    menu = RULESET.choices(defenseless, fight.tables, [])
    assert option(menu, "parry").allowed
    path = ["release:immovable-formation", "walk", "core", "end_breath"]
    assert RULESET.decision(defenseless, fight.tables, path) == Breath(
        "genzaburo", (Use("immovable-formation", release=True), Use("walk", to="core"))
    )


def test_a_weapon_step_when_two_weapons_carry_the_technique() -> None:
    # rule: SG.BRT.1 — Attack A or Attack B "as the situation fits": Reverse-Grip Cut is the ninja-to's
    # and the tanto's; the menu asks which (the first in hand unnamed, as a breath that names none reads)
    fight = count_example()
    fight.choose(["stealth-movement", "own-front", "end_breath"])
    while fight.to_move is not None and fight.to_move.id != "kuro":
        fight.step()
    weapons = fight.menu(["reverse-grip-cut"])
    assert weapons.prompt.startswith("Kuro, count") and "choose the weapon" in weapons.prompt
    assert ids(weapons) == ["first_weapon", "ninja-to", "tanto"]
    assert option(weapons, "first_weapon").label == "the first weapon in hand that carries it (Ninja-to)"
    assert RULESET.decision(
        fight.state, fight.tables, ["reverse-grip-cut", "tanto", "oni", "end_breath"]
    ) == (Breath("kuro", (Use("reverse-grip-cut", "oni", weapon="tanto"),)))


def test_aim_focus_is_a_step_up_to_the_finesse_cap(tmp_path: Path) -> None:
    # rule: SG.AIM.1 — only a technique that allows it; rule: SG.AIM.3 — up to the Finesse cap;
    # rule: SG.AIM.2 — each point of Aim Focus costs 1 Energy and deepens the tag
    fight = battle(
        tmp_path,
        {"creature": "kuro", "side": "a", "zone": "own-front", "overrides": {"fate_points": 0}},
        {"creature": "oni", "side": "b", "zone": "own-front"},
    )
    aims = fight.menu(["pierce-the-vitals"])
    finesse = fight.tables.attribute(fight.state.unit("kuro"), "finesse")
    assert ids(aims) == [f"aim:{n}" for n in range(finesse + 1)] and "Aim Focus" in aims.prompt
    assert option(aims, "aim:0").label == "no Aim Focus"
    assert option(aims, "aim:2").label.startswith("Aim Focus +2 (2 more Energy")
    action = RULESET.decision(fight.state, fight.tables, ["pierce-the-vitals", "aim:2", "oni", "end_breath"])
    assert action == Breath("kuro", (Use("pierce-the-vitals", "oni", aim=2),))
    plain = option(fight.menu(["pierce-the-vitals", "aim:0"]), "oni").odds
    aimed = option(fight.menu(["pierce-the-vitals", "aim:2"]), "oni").odds
    assert plain is not None and aimed is not None
    assert dict(aimed.outcomes)["hit"] >= dict(plain.outcomes)["hit"]  # deeper [Pierce]: lower Defense


def test_retreat_asks_which_squads_go_along() -> None:
    # rule: SG.RET.2 — an allied squad in the same zone may retreat with the unit
    fight = open_fight("sengoku/demo", seed=3)
    fight.choose(["begin"])
    state = fight.state
    d = state.decision
    assert d is not None
    me = state.unit(d.unit)
    moved = state.with_unit(replace(state.unit("spearmen"), zone="own-rear"))
    moved = moved.with_unit(replace(me, zone="own-rear"))
    menu = RULESET.choices(moved, fight.tables, ["retreat"])
    assert ids(menu) == ["alone", "with:spearmen"] and "who retreats along" in menu.prompt
    action = RULESET.decision(moved, fight.tables, ["retreat", "with:spearmen", "end_breath"])
    assert action == Breath(me.id, (Use("retreat", squads=("spearmen",)),))


def test_a_reaction_is_a_menu_and_a_barred_evasion_is_shown_not_allowed() -> None:
    # rule: SG.RES.2 — attacked off its count, the unit answers with its reservation or lets it through;
    # rule: SG.DFL.2 — no evasion while Defenseless
    fight = count_example()
    fight.step()  # Kuro's scripted breath
    fight.step()  # Genzaburo: two cuts and a parry reserved
    assert fight.state.unit("genzaburo").reservations == (Reservation("parry"),)
    fight.step()  # the Oni's Heavy Blow at Genzaburo: he decides
    d = fight.state.decision
    assert d is not None and d.kind is DecisionKind.REACTION and d.unit == "genzaburo"
    menu = fight.menu()
    assert menu.prompt == "Genzaburo: Oni's Heavy Blow comes — answer with a reservation?"
    assert ids(menu) == ["parry", "let_through"]
    assert RULESET.decision(fight.state, fight.tables, ["parry"]) == React("genzaburo", "parry")
    assert RULESET.decision(fight.state, fight.tables, ["let_through"]) == Decline("genzaburo")
    state = fight.state
    both = (Reservation("parry"), Reservation("emergency-evasion"))
    barred = state.with_unit(replace(state.unit("genzaburo"), reservations=both, defenseless=True))
    menu = RULESET.choices(barred, fight.tables, [])
    evasion = option(menu, "emergency-evasion")
    assert not evasion.allowed and evasion.rule == "SG.DFL.2"
    with pytest.raises(IllegalActionError) as err:
        RULESET.decision(barred, fight.tables, ["emergency-evasion"])
    assert err.value.rule == "SG.DFL.2"


def test_fate_and_last_bastion_are_menus_of_the_unit(tmp_path: Path) -> None:
    # rule: SG.FAT.1 — Fate Intervention on the roll just made: each die that makes a Critical Hit
    fight = duel(tmp_path, overrides={"fate_points": 2})
    fight.dice_mode = "table"
    fight.choose(["horizontal-cut", "oni", "end_breath"])
    fight.roll([4, 5])
    menu = fight.menu()
    assert ids(menu) == ["move_die_1", "move_die_2", "no_fate"]
    assert option(menu, "move_die_1").label == "Move die 1: [4, 5] → [5, 5], a Critical Hit (1 Fate)"
    assert option(menu, "no_fate").label == "Spend no Fate (the roll stands: a hit)"
    assert RULESET.decision(fight.state, fight.tables, ["move_die_2"]) == FateIntervention("genzaburo", 1)
    fight.choose(["move_die_1"])
    assert fight.state.unit("genzaburo").fate_points == 1
    # rule: SG.FAT.2 — Last Bastion when the hit check would take the target's last Wounds
    bastion = _last_bastion_state(tmp_path)
    menu = bastion.menu()
    assert ids(menu) == ["last_bastion", "no_fate"] and "Last Bastion?" in menu.prompt
    assert RULESET.decision(bastion.state, bastion.tables, ["last_bastion"]) == LastBastion("oni")
    bastion.choose(["last_bastion"])
    assert bastion.state.unit("oni").wounds == 1


def _last_bastion_state(tmp_path: Path) -> Fight[Any, Any]:
    fight = duel(tmp_path, oni={"overrides": {"fate_points": 1, "wounds": 1}, "zone": "own-front"})
    fight.dice_mode = "table"
    fight.choose(["horizontal-cut", "oni", "end_breath"])
    fight.roll([9, 8])  # a hit that would take the Oni's last Wound
    d = fight.state.decision
    assert d is not None and d.kind is DecisionKind.LAST_BASTION and d.unit == "oni"
    return fight


def test_the_gms_fumble_extras_are_built_one_at_a_time(tmp_path: Path) -> None:
    # rule: SG.FUM.2 — the GM may add the extras: any of them, in any order, the foot slip to a zone
    fight = duel(tmp_path)
    fight.dice_mode = "table"
    fight.choose(["horizontal-cut", "oni", "end_breath"])
    fight.roll([2, 2])  # a double on a miss: a Fumble
    d = fight.state.decision
    assert d is not None and d.kind is DecisionKind.FUMBLE and fight.to_move is not None
    assert fight.to_move.kind == "gm"
    menu = fight.menu()
    assert ids(menu) == ["no_extras", "drop-weapon", "stance-collapse", "foot-slip"]
    assert "fumbled" in menu.prompt
    zones = fight.menu(["drop-weapon", "foot-slip"])
    assert set(ids(zones)) == set(fight.state.neighbours("own-front"))
    to = ids(zones)[0]
    done = fight.menu(["drop-weapon", "foot-slip", to])
    assert ids(done) == ["done_extras", "stance-collapse"]
    path = ["drop-weapon", "foot-slip", to, "done_extras"]
    assert RULESET.decision(fight.state, fight.tables, path) == FumbleExtras(("drop-weapon", "foot-slip"), to)
    assert RULESET.decision(fight.state, fight.tables, ["no_extras"]) == Decline("gm")
    fight.choose(path)
    genzaburo = fight.state.unit("genzaburo")
    assert genzaburo.dropped == "uchigatana" and genzaburo.zone == to


def test_the_gms_environment_is_a_menu_in_the_lull() -> None:
    # rule: SG.LUL.3 — the GM's environment variables: a battlefield change on a zone, or nothing; the
    # yoma roll only where the scenario opens the battlefield to yoma (shown, not allowed, here)
    fight = open_fight("sengoku/burning-temple", seed=2)
    while not fight.over:
        d = fight.state.decision
        if d is not None and d.kind is DecisionKind.ENVIRONMENT:
            break
        fight.step()
    menu = fight.menu()
    assert menu.prompt == "GM: the lull's environment (SG.LUL.3)"
    assert {"fire", "fog", "collapse", "no_environment"} <= set(allowed(menu))
    yoma = option(menu, "yoma_roll")
    assert not yoma.allowed and yoma.rule == "SG.LUL.3"
    zones = fight.menu(["fire"])
    assert ids(zones) == [z.id for z in fight.state.zones] and all(o.complete for o in zones.options)
    events = fight.choose(["fire", "core"])
    assert isinstance(events, tuple) and events[0].kind == "battlefield_change"


def test_the_gm_begins_and_a_unit_decides_its_upkeep(tmp_path: Path) -> None:
    # rule: SG.RND.2 — the GM begins; rule: SG.LUL.2 — upkeep maneuvers in the lull: maneuver → whom →
    # what it restores (Flower of the Battlefield: a Wound or Cohesion), or the end of the unit's upkeep
    assert ids(open_fight("sengoku/demo", seed=3).menu()) == ["begin"]
    fight = battle(
        tmp_path,
        {"creature": "genzaburo", "side": "a"},
        {"id": "ochiyo", "name": "Ochiyo", "creature": "shirabyoshi", "side": "a"},
        {"creature": "oni", "side": "b"},
    )
    fight.choose(["gm_set_wounds", "genzaburo", "2"], gm=True)
    while (d := fight.state.decision) is not None and d.kind is DecisionKind.BREATH:
        fight.choose(["pass_round"])
    assert d is not None and d.kind is DecisionKind.UPKEEP and d.unit == "ochiyo"  # nothing for Genzaburo
    assert RULESET.decision(fight.state, fight.tables, ["end_upkeep"]) == Decline("ochiyo")
    flower = "flower-of-the-battlefield"
    menu = fight.menu()
    assert menu.prompt.startswith("Ochiyo, lull of round 1: choose an upkeep maneuver")
    assert ids(menu) == [flower, "end_upkeep"]
    whom = fight.menu([flower])
    assert whom.prompt.endswith("choose whom it helps") and ids(whom) == ["genzaburo"]
    what = fight.menu([flower, "genzaburo"])
    assert ids(what) == ["wounds"] and what.options[0].label == "restore Wounds"
    events = fight.choose([flower, "genzaburo", "wounds"])
    assert isinstance(events, tuple) and fight.state.unit("genzaburo").wounds == 3


def test_a_gm_move_is_open_in_turn_too() -> None:
    fight = count_example()
    fight.choose(["gm_add_status", "kuro", "defenseless"], gm=True)
    assert fight.state.unit("kuro").defenseless and fight.entries[-1].actor is not None
    assert fight.entries[-1].actor.kind == "gm"
