"""The heuristic plays the whole game (issue 13, mechanic 6): it declares stances, uses Aim Focus,
reserves defences and chooses the weapon that carries a technique, each when it raises the expected
outcome (its Fate choices: test_fate_in_battle.py; the GM's: test_fumble_gm.py)."""

from __future__ import annotations

from fractions import Fraction

from kassen.sengoku.battle import Breath, HeuristicPolicy, Pass
from kassen.sengoku.battle.plan import plan_uses

from .helpers import Fight, scenario, use


def pick(f: Fight) -> object:
    return HeuristicPolicy(f.rules).choose(f.state, f.legal())


def test_a_stance_is_declared_when_it_turns_away_more_than_it_costs() -> None:
    # rule: SG.DEF.4  rule: SG.BRT.1 — two heavily armed samurai in Genzaburo's zone: Immovable Formation
    # (+2, SG.DIR.4's stance) is worth the Energy it costs, so the breath declares it before its attack
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front"},
            {"creature": "samurai", "side": "b", "zone": "own-front"},
            {"id": "other", "creature": "samurai", "side": "b", "zone": "own-front"},
        )
    ).begin()
    choice = pick(f)
    assert isinstance(choice, Breath) and choice.uses[0].maneuver == "immovable-formation"
    policy = HeuristicPolicy(f.rules)
    assert policy.stance_value(f.state, f.u("genzaburo"), f.rules.maneuver("immovable-formation")) > 0


def test_no_stance_when_nobody_can_strike() -> None:
    # rule: SG.DEF.4 — with the enemy two zones off, a stance turns nothing away: no stance, a walk
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front"},
            {"creature": "samurai", "side": "b", "zone": "enemy-front"},
        )
    ).begin()
    policy = HeuristicPolicy(f.rules)
    assert policy.stance_value(f.state, f.u("genzaburo"), f.rules.maneuver("immovable-formation")) == 0
    choice = pick(f)
    assert isinstance(choice, Breath) and all(u.maneuver != "immovable-formation" for u in choice.uses)


def test_aim_focus_when_the_last_energy_buys_nothing_better() -> None:
    # rule: SG.AIM.2 — an archer with 4 Energy against heavy battle armor: Piercing Arrow (3) would leave
    # 1 Energy that pays for nothing; Aim Focus +1 (4) turns it into [Pierce 3] and is chosen
    f = Fight(
        scenario(
            {"creature": "gaijin-archer", "side": "a", "zone": "own-front"},
            {"creature": "gaijin-knight", "side": "b", "zone": "core"},
        )
    ).begin()
    while f.decider != "gaijin-archer":
        f.do(Pass(f.decider or ""))
    f.set_unit("gaijin-archer", energy=4)
    choice = pick(f)
    assert isinstance(choice, Breath) and choice.uses == (use("piercing-arrow", "gaijin-knight", aim=1),)
    f.set_unit("gaijin-archer", energy=10)
    choice = pick(f)  # with Energy to spare, the plain arrow and more later
    assert isinstance(choice, Breath) and not any(u.aim for u in choice.uses)


def test_the_weapon_that_carries_a_technique_is_chosen_by_its_worth() -> None:
    # rule: SG.RD.2  rule: SG.CRT.2 — the Warlord's Horizontal Cut is listed under his nodachi and his
    # uchigatana: both are offered; in the Core the short uchigatana costs 1 and the long nodachi 3
    # (SG.ZON.1's rows), so the uchigatana's cut is worth more for its Energy; in the Front the nodachi's
    # critical (3 Wounds) makes its cut worth more Wounds
    for zone, better in (("core", "uchigatana"), ("own-front", "nodachi")):
        f = Fight(
            scenario(
                {"creature": "lord", "side": "a", "zone": zone},
                {"creature": "oni", "side": "b", "zone": zone},
            )
        ).begin()
        cuts = [
            b
            for b in f.legal()
            if isinstance(b, Breath) and len(b.uses) == 1 and b.uses[0].maneuver == "horizontal-cut"
        ]
        assert {b.uses[0].weapon for b in cuts} == {"nodachi", "uchigatana"}
        assert max(cuts, key=lambda b, f=f, zone=zone: _worth(f, b, zone)).uses[0].weapon == better


def _worth(f: Fight, b: Breath, zone: str) -> Fraction:
    """Expected Wounds per Energy in the Core (where the costs differ), expected Wounds elsewhere."""
    lord = f.u("lord")
    spent = plan_uses(f.rules, f.state, lord, b.uses).spent
    value = HeuristicPolicy(f.rules).breath_value(f.state, lord, b, spent=spent)
    return value[0] if zone == "core" else value[1]


def test_a_reservation_only_when_an_enemy_can_still_strike() -> None:
    # rule: SG.RES.1 — a parry is reserved with the attack when an enemy that still has Energy this round
    # can reach the unit; against one that has passed, the Energy is kept
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    policy = HeuristicPolicy(f.rules)
    g = f.u("genzaburo")
    assert policy.reservation_value(f.state, g, "own-front") > 0
    f.set_unit("oni", passed=True)
    assert policy.reservation_value(f.state, f.u("genzaburo"), "own-front") == 0
    choice = pick(f)
    assert isinstance(choice, Breath) and all(u.maneuver != "parry" for u in choice.uses)
