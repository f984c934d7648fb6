"""The heuristic plays the whole game (issue 13, mechanic 6): it declares stances, uses Aim Focus,
reserves defences and chooses the weapon that carries a technique, each when it raises the expected
outcome (its Fate choices: test_fate_in_battle.py; the GM's: test_fumble_gm.py; what a breath's attacks
take from a target: test_blows.py)."""

from __future__ import annotations

from fractions import Fraction

from kassen.core.scenario import open_fight
from kassen.sengoku.battle import Breath, HeuristicPolicy, Pass
from kassen.sengoku.battle.actions import FateIntervention
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


def _lone_archer(wounds: int) -> Fight:
    """The one-archer scenario: the gaijin archer (Courage +2, Archery 3, Finesse +2) in the Front, the
    gaijin knight (heavy battle armor and shield: Defense 17) in the Core with ``wounds`` left, no Fate
    and no reservation; the archer to breathe."""
    f = Fight(
        scenario(
            {"id": "archer", "creature": "gaijin-archer", "side": "a", "zone": "own-front"},
            {
                "id": "knight",
                "creature": "gaijin-knight",
                "side": "b",
                "zone": "core",
                "overrides": {"wounds": wounds, "maneuvers": [], "fate_points": 0},
            },
        )
    ).begin()
    while f.decider != "archer":
        f.do(Pass(f.decider or ""))
    return f


def test_aim_focus_when_the_surer_shot_fells_more_often() -> None:
    # rule: SG.AIM.2  rule: SG.AIM.3  rule: SG.PRC.1  rule: SG.WND.4 — the knight has 1 Wound left. With 4
    # Energy: Piercing Arrow with Aim Focus +1 ([Pierce 3]: Defense 14, +6 to hit) fells him with 0.79;
    # two plain Longbow Shots (Defense 17, +5) with 1 - 0.55² ≈ 0.70, though their expected Wounds add up
    # to more than his 1; the heuristic values what the shots take from him, not what they deal, and aims
    f = _lone_archer(1)
    policy = HeuristicPolicy(f.rules)
    archer = f.u("archer")
    aimed = Breath("archer", (use("piercing-arrow", "knight", aim=1),))
    shots = Breath("archer", (use("longbow-shot", "knight"), use("longbow-shot", "knight")))
    odds = f.rules.odds
    fells = odds.attack(6, 14).hit  # the Pierce 3 arrow: 2 Wounds on a hit, more than he has
    shot = odds.attack(5, 17).hit
    assert fells == Fraction(79, 100) and 1 - (1 - shot) ** 2 == Fraction(279, 400)
    # the values: each breath's chance to fell him (plus the heuristic's hair for [Pierce] on heavy armor)
    assert policy.breath_value(f.state, archer, aimed, spent=4)[1] == fells + Fraction(1, 1000)
    assert policy.breath_value(f.state, archer, shots, spent=4)[1] == 1 - (1 - shot) ** 2
    two = odds.attack(5, 17).expected_wounds * 2
    assert two >= 1  # what the old reading, the sum of expected Wounds capped at 1, counted as a sure kill
    for energy, aim in ((4, 1), (5, 2), (10, 2)):
        # the surest shot the Energy buys: with Energy to spare, what is left is worth the Wounds a later
        # breath takes from the share of him this one leaves standing
        f.set_unit("archer", energy=energy)
        choice = pick(f)
        aimed = (use("piercing-arrow", "knight", aim=aim),)
        assert isinstance(choice, Breath) and choice.uses == aimed, energy


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


def test_over_many_demo_battles_aim_focus_is_used_and_no_fate_is_spent_on_a_felling_hit() -> None:
    # rule: SG.AIM.2  rule: SG.FAT.1  rule: SG.WND.4 — 40 demo battles played by the heuristic: Kuro's and
    # Ochiyo's Pierce the Vitals take Aim Focus where the surer blow pays (never, before the heuristic
    # weighed what a blow takes rather than deals), and no Fate Intervention is spent on a roll whose
    # plain hit already takes the target's last Wounds (some 1 in 5 were)
    aimed = fates = 0
    for seed in range(40):
        fight = open_fight("sengoku/demo", seed=seed)
        fight.autoplay()
        rules = fight.tables
        for state, action in zip(fight.states, fight.history, strict=False):
            if isinstance(action, Breath):
                aimed += any(u.aim for u in action.uses)
            elif isinstance(action, FateIntervention):
                p = state.attack
                assert p is not None
                unit, target = state.unit(p.attacker), state.unit(p.target)
                tech = rules.technique(unit, rules.maneuver(p.maneuver), p.weapon or None)
                plain_fells = p.outcomes[0] == "success" and rules.blow_wounds(tech, False) >= target.wounds
                assert not plain_fells, (seed, p)
                fates += 1
    assert aimed >= 5 and fates >= 20
