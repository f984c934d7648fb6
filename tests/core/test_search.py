"""The search policy (kassen.core.search) over every registered ruleset, the test-only coin-flip duel
included: it only ever chooses legal actions; it reads neither hidden values nor the fight's RNG (two
fights that differ only there get the same choice for the same search seed); a fight it plays replays
identically and resumes mid-way to the same end."""

from __future__ import annotations

import dataclasses
from typing import Any

import coinflip
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kassen.core.errors import KassenError
from kassen.core.fight import Fight, state_codec
from kassen.core.policy import Decision
from kassen.core.rng import Rng
from kassen.core.ruleset import register_ruleset
from kassen.core.scenario import open_fight
from kassen.core.search import MAX_ROLLOUT, SearchConfig, SearchPolicy, decision_seed
from kassen.core.view import Viewer, redact_state, visibility_of

register_ruleset(coinflip.RULESET)  # collected before the session fixture runs

from test_fight_conformance import CASES  # noqa: E402  (needs the coin-flip duel registered)

SCENARIOS = [f"{c.values[0]}/{c.values[1]}" for c in CASES]


@settings(max_examples=24, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    scenario=st.sampled_from(SCENARIOS),
    seed=st.integers(0, 2**64 - 1),
    search_seed=st.integers(0, 2**32),
    rollout=st.sampled_from(["heuristic", "random", "first-legal"]),
)
def test_the_search_only_chooses_legal_actions(
    scenario: str, seed: int, search_seed: int, rollout: str
) -> None:
    fight = open_fight(scenario, seed=seed)
    config = SearchConfig(iterations=5, seed=search_seed, depth=6, rollout=rollout)  # type: ignore[arg-type]
    search: SearchPolicy[Any, Any] = SearchPolicy(fight.ruleset, fight.tables, config)
    for _ in range(30):
        if fight.over:
            break
        action = search(fight.decision())
        if fight.ruleset.info.legal_actions_complete:
            assert action in fight.legal_actions()
        fight.apply(action)  # an illegal choice raises IllegalActionError here


# -- fairness -------------------------------------------------------------------------------------------
def _at_first_decision_of(fight: Fight[Any, Any], side: str, more: int = 0) -> None:
    """Play the scenario's policies until ``side`` decides (then ``more`` of its decisions further)."""
    for _ in range(500):
        actor = fight.to_move
        assert actor is not None, "the fight ended before the side decided"
        if actor.side == side and len(fight.legal_actions()) > 1:
            if more == 0:
                return
            more -= 1
        fight.step()
    raise AssertionError("the side never decided")


def _hidden_variant(ruleset: str, state: Any, side: str) -> Any:
    """``state`` with every value another side may not see of ``side``'s enemies changed."""
    r = dataclasses.replace
    if ruleset == "sengoku":
        from kassen.sengoku.battle.state import Reservation

        units = tuple(
            u
            if u.side == side
            else r(
                u, fate_points=u.fate_points + 3, reservations=(Reservation("parry"), Reservation("parry"))
            )
            for u in state.units
        )
        return r(state, units=units)
    if ruleset == "arena":
        fighters = tuple(
            f
            if f.profile.side == side
            else r(
                f,
                hp=f.hp - 4,
                fp=f.fp - 3,
                profile=r(f.profile, hp=f.profile.hp + 5, fp=f.profile.fp + 1),
                audience_points=f.audience_points + 2,
            )
            for f in state.fighters
        )
        return r(state, fighters=fighters)
    if ruleset == "l5r":
        fighters = tuple(f if f.character.side == side else r(f, wounds=f.wounds + 1) for f in state.fighters)
        return r(state, fighters=fighters)
    players = tuple(p if p.side == side else r(p, tokens=p.tokens + 7) for p in state.players)
    return r(state, players=players)


FAIR_CASES = [
    ("sengoku/demo", "party", 0),
    ("sengoku/count-example", "party", 0),
    ("arena/duel", "east", 0),
    ("arena/melee", "pair", 1),
    ("l5r/kakita-vs-hida", "Crane", 0),
    ("l5r/bridge-ambush", "ronin", 0),
    ("coinflip/best-of-three", "left", 1),
]


@pytest.mark.parametrize(("scenario", "side", "more"), FAIR_CASES)
def test_the_search_reads_neither_hidden_values_nor_the_rng(scenario: str, side: str, more: int) -> None:
    fight = open_fight(scenario, seed=5)
    _at_first_decision_of(fight, side, more)
    ruleset, tables = fight.ruleset, fight.tables
    variant = _hidden_variant(ruleset.info.name, fight.state, side)
    assert variant != fight.state
    codec = state_codec(ruleset.info.state_type)
    rules, units = visibility_of(ruleset, tables), ruleset.units(fight.state)

    def seen(state: Any) -> Any:
        return redact_state(codec.dump(state), rules, Viewer(side), units.get)

    assert seen(variant) == seen(fight.state), "the variant must look the same to the side"
    d = fight.decision()
    other = Decision(variant, d.actor, d.legal, d.history, d.seed + 1, d.tables, d.is_legal, d.log)
    search: SearchPolicy[Any, Any] = SearchPolicy(ruleset, tables, SearchConfig(iterations=60, seed=11))
    assert search(d) == search(other)


def test_the_heuristic_prior_is_read_on_the_guessed_state_not_the_true_one() -> None:
    # the search hands the heuristic only states its determinize hook made from the side's view
    fight = open_fight("arena/duel", seed=5)
    _at_first_decision_of(fight, "east")
    search: SearchPolicy[Any, Any] = SearchPolicy(fight.ruleset, fight.tables, SearchConfig(iterations=20))
    true_state = fight.state
    seen_states: list[Any] = []
    inner = search.heuristic

    def spy(decision: Decision[Any, Any]) -> Any:
        seen_states.append(decision.state)
        return inner(decision)

    search.heuristic = spy
    search(fight.decision())
    assert seen_states and all(s is not true_state for s in seen_states)
    ken = [s.fighter("ken") for s in seen_states]
    assert all(k.profile.hp == k.profile.st for k in ken)  # HP = ST: the house guess, not Ken's 13


def test_a_search_seed_names_the_decision() -> None:
    assert decision_seed(1, 2, "east") == decision_seed(1, 2, "east")
    assert len({decision_seed(1, 2, "east"), decision_seed(1, 3, "east"), decision_seed(1, 2, "west")}) == 3


# -- replay and resume ---------------------------------------------------------------------------------
REPLAY_CASES = [
    ("arena/duel", ("east", "west")),
    ("l5r/first-blood", ("Crane", "Lion")),
    ("sengoku/count-example", ("party", "yoma")),
    ("coinflip/best-of-three", ("left", "right")),
]


@pytest.mark.parametrize(("scenario", "sides"), REPLAY_CASES)
def test_a_searched_fight_replays_and_resumes_to_the_same_end(scenario: str, sides: tuple[str, str]) -> None:
    policies = {sides[0]: "search:iterations=12", sides[1]: "search:iterations=8,rollout=random"}
    whole = open_fight(scenario, seed=9, policies=policies)
    whole.autoplay()
    data = whole.to_json()
    assert data["meta"]["policies"] == policies
    assert Fight.from_json(data).log_json() == whole.log_json()
    # resumed half-way from its chronicle, the recorded policies play on to the same end
    half = len(whole.entries) // 2
    part = open_fight(scenario, seed=9, policies=policies)
    for _ in range(half):
        part.step()
    resumed = Fight.from_json(part.to_json())
    assert resumed.policy_specs() == policies
    resumed.autoplay()
    assert resumed.log_json() == whole.log_json()


def test_a_time_budget_decides_within_it() -> None:
    import time

    fight = open_fight("sengoku/demo", seed=2)
    _at_first_decision_of(fight, "party")
    search: SearchPolicy[Any, Any] = SearchPolicy(fight.ruleset, fight.tables, SearchConfig(time=0.2))
    start = time.process_time()
    action = search(fight.decision())
    assert fight.is_legal(action)
    # at least one iteration always runs; after the budget, none starts (one iteration here is well
    # under a second even on a loaded machine)
    assert time.process_time() - start < 5


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"time": 0.0},
        {"time": -1.0},
        {"prior": 1.5},
        {"widening": 2.0},
        {"depth": -1},
        {"seed": -1},
        {"exploration": -1.0},
    ],
)
def test_search_settings_are_checked(kwargs: dict[str, Any]) -> None:
    with pytest.raises(KassenError):
        SearchConfig(**kwargs)


def test_a_ruleset_that_hides_values_without_a_guess_is_searched_only_omnisciently() -> None:
    fight = open_fight("coinflip/best-of-three", seed=1)

    class NoGuess:
        def __getattr__(self, name: str) -> Any:
            if name == "determinize":
                raise AttributeError(name)
            return getattr(coinflip.RULESET, name)

    with pytest.raises(KassenError, match="omniscient"):
        SearchPolicy(NoGuess(), fight.tables)
    assert SearchPolicy(NoGuess(), fight.tables, SearchConfig(omniscient=True)).config.omniscient


def test_rollouts_stop_at_the_rulesets_depth_unless_the_spec_says_otherwise() -> None:
    """A ruleset's ``search_depth`` cuts the rollouts when the spec gives no depth; the spec's own depth
    wins, and ``depth=0`` plays each rollout to the end."""
    battle = open_fight("sengoku/count-example", seed=1)
    duel = open_fight("duel", seed=1)
    assert battle.ruleset.search_depth == 8
    assert SearchPolicy(battle.ruleset, battle.tables, SearchConfig()).depth == 8
    assert SearchPolicy(battle.ruleset, battle.tables, SearchConfig(depth=3)).depth == 3
    assert SearchPolicy(battle.ruleset, battle.tables, SearchConfig(depth=0)).depth == MAX_ROLLOUT
    assert not hasattr(duel.ruleset, "search_depth")
    assert SearchPolicy(duel.ruleset, duel.tables, SearchConfig()).depth == MAX_ROLLOUT
    # a rollout cut at the depth stops where it is: one action from a fresh battle is not its end
    search = SearchPolicy(battle.ruleset, battle.tables, SearchConfig(depth=1))
    rolled = search._rollout(battle.state, Rng(3))
    assert search.sim.result(rolled) is None
    assert rolled != battle.state
