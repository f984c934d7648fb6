"""Policies: the heuristic plays sensibly and deterministically; scripts replay given choices."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from kassen.core.policy import Decision, Scripted
from kassen.sengoku.battle import (
    Action,
    BattleState,
    Begin,
    Breath,
    DecisionKind,
    Decline,
    HeuristicPolicy,
    Pass,
    React,
    load_scenario,
    run_battle,
)
from kassen.sengoku.battle.plan import plan_uses
from kassen.sengoku.battle.policies import _later

from .helpers import CATALOG, NO_FATE, Fight, catalog_with, scenario, use


def choose(f: Fight) -> object:
    return HeuristicPolicy(f.rules).choose(f.state, f.legal())


def test_the_heuristic_takes_the_most_expected_wounds_now_and_later() -> None:
    # The heuristic's choice of breath: the most exact expected Wounds now (odds.attack_odds) plus what
    # its unspent Energy is worth later, at the best rate any breath reaches, discounted (_LATER), from
    # the share of the target's Wounds the breath leaves standing (_later); then a reservation added if
    # the breath has room and an enemy can still strike
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"}
        )
    )
    f.begin()
    policy = HeuristicPolicy(f.rules)
    legal = f.legal()
    choice = policy.choose(f.state, legal)
    assert isinstance(choice, Breath)
    g, rules = f.u("genzaburo"), f.rules

    def value(b: Breath) -> tuple[Fraction, int]:
        spent = plan_uses(rules, f.state, g, b.uses).spent
        return policy.breath_value(f.state, g, b, spent=spent)[1], spent

    attacking = [
        b
        for b in legal
        if isinstance(b, Breath)
        and any(rules.maneuver(u.maneuver).attacks for u in b.uses)
        and not plan_uses(rules, f.state, g, b.uses).overload
    ]
    rate = max(v / s for v, s in map(value, attacking))

    def key(b: Breath) -> Fraction:
        v, spent = value(b)
        return v + _later(v, rate, g.energy - spent, f.u("oni").wounds)

    best = max(key(b) for b in attacking)
    core = Breath(choice.unit, choice.uses[:-1]) if choice.uses[-1].maneuver == "parry" else choice
    assert key(core) == best and rate > 0


def test_the_heuristic_prefers_pierce_against_heavy_armor_and_reserves_a_parry() -> None:
    # The heuristic reserves a parry when the breath can afford one and an enemy can reach it
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": {"maneuvers": ["parry"]}},
            {"creature": "samurai", "side": "b", "zone": "own-front"},
        )
    ).begin()
    choice = choose(f)
    assert isinstance(choice, Breath)
    attacks = [u.maneuver for u in choice.uses if u.target]
    techniques = [f.rules.technique(f.u("genzaburo"), f.rules.maneuver(a)) for a in attacks]
    assert attacks and all(t.tags.pierce is not None for t in techniques)
    assert choice.uses[-1].maneuver == "parry"
    assert not plan_uses(f.rules, f.state, f.u("genzaburo"), choice.uses).overload


def test_the_heuristic_walks_toward_an_enemy_out_of_reach() -> None:
    # The heuristic, with nobody in reach, moves closer (a walk into the Core here)
    f = Fight(scenario({"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b"})).begin()
    choice = choose(f)
    assert isinstance(choice, Breath) and choice.uses[0].maneuver == "walk" and choice.uses[0].to == "core"


def test_the_heuristic_retreats_when_its_rules_and_situation_say_so() -> None:
    # The heuristic retreats a unit of no honor class at its last Wound, outnumbered, in its own Rear;
    # an honor-class unit in the same spot does not retreat
    for creature, retreats in (("kuro", True), ("genzaburo", False)):
        f = Fight(
            scenario(
                {"creature": creature, "side": "a", "zone": "own-rear", "wounds": 1},
                {"creature": "oni", "side": "b", "zone": "enemy-rear"},
                {"creature": "samurai", "side": "b", "zone": "enemy-rear"},
            )
        ).begin()
        while f.decider != creature:
            f.do(Pass(f.decider or ""))
        choice = choose(f)
        assert isinstance(choice, Breath)
        assert (choice.uses[0].maneuver == "retreat") is retreats


def test_the_heuristic_answers_with_its_reservation() -> None:
    # The heuristic uses its reservation when attacked
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"}
        )
    )
    f.begin()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    f.breath("oni", use("heavy-blow", "genzaburo"))
    assert choose(f) == React("genzaburo", "parry")


def test_heuristic_battles_are_deterministic() -> None:
    s = load_scenario("demo")
    assert run_battle(s, 9).log_json() == run_battle(s, 9).log_json()


def test_a_script_plays_its_steps_in_order_and_leaves_the_rest_to_the_fallback() -> None:
    # rule: SG.BRT.1 — a scripted breath need not be one that legal_actions lists (two different cuts
    # and a parry), and a reaction the script does not cover goes to the fallback
    s = scenario(
        {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
        {"creature": "oni", "side": "b", "zone": "own-front"},
    )
    odd = Breath("genzaburo", (use("horizontal-cut", "oni"), use("thrust", "oni"), use("parry")))
    fallback_calls: list[object] = []

    def fallback(decision: Decision[BattleState, Action]) -> Action:
        fallback_calls.append(decision.state)
        return next(a for a in decision.legal if isinstance(a, Decline | Pass))

    policy = Scripted({"genzaburo": [odd, Pass("genzaburo")]}, fallback)
    c = s.fight(1, policy=policy)
    c.apply(Begin())
    assert odd not in c.legal_actions()
    c.step()
    assert c.state.unit("genzaburo").energy == 6
    c.apply(Breath("oni", (use("heavy-blow", "genzaburo"),)))
    assert c.state.decision is not None and c.state.decision.kind is DecisionKind.REACTION
    assert isinstance(c.decide(), Decline) and len(fallback_calls) == 1
    assert policy.remaining(c.history) == {"genzaburo": (Pass("genzaburo"),)}  # one step played


def test_a_script_rewinds_on_undo() -> None:
    # rule: SG.BRT.1 — the script's place is derived from the actions played: undo the scripted breath
    # and the script offers it again; its place never lives in the policy
    s = scenario(
        {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
        {"creature": "oni", "side": "b", "zone": "own-front"},
    )
    odd = Breath("genzaburo", (use("horizontal-cut", "oni"), use("thrust", "oni"), use("parry")))
    c = s.fight(1, policy=Scripted({"genzaburo": [odd]}, HeuristicPolicy(s.rules)))
    c.apply(Begin())
    assert c.decide() == odd
    c.step()
    assert c.history[-1] == odd and c.policy is not None
    assert Scripted.cursor((odd,), c.history) == 1
    c.undo()
    assert Scripted.cursor((odd,), c.history) == 0 and c.decide() == odd
    c.step()
    assert c.state.unit("genzaburo").energy == 6


@pytest.mark.parametrize("starts", [("flank", "rear"), ("front",)])
def test_the_heuristic_heads_for_a_zone_the_retreat_maneuver_starts_from(
    tmp_path: Path, starts: tuple[str, ...]
) -> None:
    # The heuristic, wanting to retreat where it cannot, steps into a zone of its own side that the
    # Retreat maneuver's `from_zones` lists (the catalog's, here also overridden to the Front only)
    retreat = CATALOG.maneuver("retreat").model_dump(mode="json", exclude_none=True)
    retreat["movement"]["from_zones"] = list(starts)
    cat = catalog_with(tmp_path, {"maneuvers": [retreat]})
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "core", "wounds": 1},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            {"creature": "samurai", "side": "b", "zone": "enemy-rear"},
            content=cat,
        )
    ).begin()
    while f.decider != "kuro":
        f.do(Pass(f.decider or ""))
    choice = choose(f)
    assert isinstance(choice, Breath) and len(choice.uses) == 1 and choice.uses[0].to is not None
    dest = f.state.zone(choice.uses[0].to)
    assert dest.side == f.state.side("a").view and dest.kind in starts
