"""Decisions in steps (issue 11): maneuver → target → hit location → options, every prefix checked, a
complete path exactly an action the bout accepts; on random reachable states the menus reach exactly the
legal actions, and a choice not on the menu is refused — with the rule that forbids what it names."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kassen.arena.bout import Attack, Move, SetGuard, legal_actions, move_allowance
from kassen.arena.ruleset import RULESET
from kassen.arena.table.menus import LOWER, steps
from kassen.arena.terms import Condition
from kassen.core.errors import IllegalActionError
from kassen.core.menu import MenuError
from kassen.core.policy import RandomPolicy
from kassen.core.scenario import bundled_scenarios, open_fight

from .helpers import edit
from .table_support import fight_at

SCENARIOS = [s.name for s in bundled_scenarios("arena")]


def leaves(fight: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every complete path through the fight's menus (an option shown as not allowed is refused, with
    its rule, and leads nowhere)."""
    out: list[tuple[str, ...]] = []
    options = fight.menu(path).options
    allowed = [o.allowed for o in options]
    assert allowed == sorted(allowed, reverse=True)  # what may not be done comes last: "1" is allowed
    for option in options:
        here = (*path, option.id)
        if not option.allowed:
            assert option.why and option.rule.startswith("AR.")
            with pytest.raises(IllegalActionError) as refused:
                RULESET.decision(fight.state, fight.tables, here)
            assert refused.value.rule == option.rule
            continue
        out += [here] if option.complete else leaves(fight, here)
    return out


def reached(scenario: str, seed: int, moves: int) -> Any:
    """A bout played ``moves`` actions by random choices (a reachable state, often an odd one)."""
    fight = open_fight(f"arena/{scenario}", seed=seed)
    policy: RandomPolicy[Any, Any] = RandomPolicy(salt=seed)
    for _ in range(moves):
        if fight.over:
            break
        fight.step(policy)
    return fight


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCENARIOS), st.integers(0, 2**32), st.integers(0, 40))
def test_on_random_reachable_states_the_menus_reach_exactly_the_legal_actions(
    scenario: str, seed: int, moves: int
) -> None:
    # rule: AR.GAP.2, AR.STN.1, AR.GUT.1, AR.AUD.3 — slots, offers, stunned fighters: whatever decides now
    fight = reached(scenario, seed, moves)
    if fight.over:
        return
    paths = leaves(fight)
    built = [RULESET.decision(fight.state, fight.tables, p) for p in paths]
    legal = list(legal_actions(fight.state, fight.tables))
    assert sorted(map(repr, built)) == sorted(map(repr, legal))  # the same decisions, each once
    assert len(set(paths)) == len(paths)
    for action in built[:: max(1, len(built) // 12)]:
        fight.check(action)  # each applies
    for path in paths[:: max(1, len(paths) // 12)]:
        for cut in range(1, len(path)):  # every prefix is a menu, and goes on
            assert path[cut] in [o.id for o in fight.menu(path[:cut]).options]
        with pytest.raises(MenuError, match="one too many"):
            fight.menu((*path, "more"))
    with pytest.raises(MenuError):
        fight.menu(("no-such-choice",))
    actor = fight.to_move
    if actor is None or actor.kind != "unit":
        return
    before = fight.state_id
    with pytest.raises(IllegalActionError):  # a fighter that is none of the bout's: the rule says why
        fight.choose(["attack", "nobody", "torso", "normal"])
    assert fight.state_id == before
    if not fight.state.offers:
        f = fight.state.fighter(actor.id)
        metres, _ = move_allowance(fight.state, f, fight.tables)
        with pytest.raises(IllegalActionError) as far:  # one metre beyond the effective Move
            fight.menu(["move", str(f.position + metres + 1)])
        assert far.value.rule in ("AR.GAP.2", "AR.STN.1", "AR.HP.1", "AR.FTG.3", "AR.KNB.5")


def test_an_attack_is_maneuver_target_location_options() -> None:
    # rule: AR.GAP.1, AR.GAP.2 — every step asked, one opponent within reach still named
    duel = open_fight("arena/duel", seed=3)
    duel.step()
    assert duel.menu().options[0].id == "attack"
    target = duel.menu(["attack"])
    assert target.prompt == "Ryu attacks: choose the target"
    assert [(o.id, o.label, o.complete) for o in target.options] == [("ken", "Ken (1 m away)", False)]
    assert duel.menu(["attack", "ken"]).prompt.startswith("Ryu attacks Ken: choose the hit location")
    assert duel.menu(["attack", "ken", "torso"]).prompt.endswith("a normal or an all-out attack?")
    assert RULESET.decision(duel.state, duel.tables, ["attack", "ken", "torso", "all_out"]) == Attack(
        "ryu", "ken", "torso", all_out=True
    )
    grapple = duel.menu(["grapple"])
    assert [(o.id, o.complete) for o in grapple.options] == [("ken", True)] and grapple.options[0].odds
    melee = open_fight("arena/melee", seed=2)
    melee.step()
    while (
        melee.to_move is None
        or melee.to_move.id != "goro"
        or not any(isinstance(a, Attack) for a in melee.legal_actions())
    ):
        melee.step()
    targets = melee.menu(["attack"])
    assert targets.prompt == "Goro attacks: choose the target"
    assert {o.id for o in targets.options} <= {"aki", "mei"} and all(
        " m away)" in o.label for o in targets.options
    )
    first = targets.options[0].id
    assert melee.menu(["attack", first]).prompt.startswith(f"Goro attacks {first.title()}: choose the hit")
    assert steps(Attack("goro", first, "vitals"), melee.tables) == (
        ("maneuver", "attack"), ("target", first), ("location", "vitals"), ("option", "normal"),
    )  # fmt: skip


def test_answering_the_first_option_closes_in_and_fights() -> None:
    # rule: AR.GAP.2, AR.DMG.1 — moves closing on the nearest opponent come first, then attacks at the
    # torso: a bout answered "1" throughout goes somewhere
    pit = open_fight("arena/pit", seed=5)
    pit.step()
    assert pit.menu().options[0].id == "move"
    first = pit.menu(["move"]).options[0]
    assert first.label.startswith("to 1 m (closing 5 m; then 1 m from Oni)")
    guard = pit.menu(["guard", pit.menu(["guard"]).options[0].id])
    assert guard.options[-1].id != LOWER  # nothing guarded yet: no "lower"


def test_a_choice_not_on_the_menu_is_refused_with_the_rule() -> None:
    # rule: AR.GAP.2, AR.GAP.1, AR.STN.1, AR.HP.1
    pit = open_fight("arena/pit", seed=5)
    pit.step()  # Kai, 6 m from Oni: nobody within reach
    shown = pit.menu().options[-1]  # shown last, not allowed, with why and the rule
    assert (shown.id, shown.allowed, shown.rule) == ("attack", False, "AR.GAP.2")
    assert shown.why == "oni is 6 m from kai, beyond its reach of 1 m: close first"
    with pytest.raises(IllegalActionError, match="beyond its reach") as beyond:
        pit.menu(["attack"])
    assert beyond.value.rule == "AR.GAP.2"
    with pytest.raises(IllegalActionError, match="can move 6 m this slot") as far:
        pit.menu(["move", "-3"])  # 9 m away: too far
    assert far.value.rule == "AR.GAP.2"
    with pytest.raises(MenuError, match="not a choice here"):
        pit.menu(["move", "six"])
    duel = open_fight("arena/duel", seed=3)
    duel.step()
    with pytest.raises(IllegalActionError, match="another name of 'skull'") as alias:
        duel.menu(["attack", "ken", "brain"])
    assert alias.value.rule == "AR.GAP.1"
    with pytest.raises(IllegalActionError, match="nothing to decline") as decline:
        duel.menu(["decline"])
    assert decline.value.rule == "AR.GUT.1"
    stunned = fight_at(edit(duel.state, "ryu", conditions=(Condition.STUNNED,)))
    assert stunned.menu().options[0].id == "wait"
    assert stunned.menu().options[0].label == "wait (stunned: may only defend)"
    assert [(o.id, o.rule) for o in stunned.menu().options if not o.allowed] == [
        ("attack", "AR.STN.1"),
        ("move", "AR.STN.1"),
    ]
    with pytest.raises(IllegalActionError, match="stunned and may only defend") as stun:
        stunned.menu(["attack"])
    assert stun.value.rule == "AR.STN.1"
    with pytest.raises(IllegalActionError, match="stunned and may only defend"):
        stunned.choose(["move", "1"])
    with pytest.raises(MenuError, match="not a choice here"):
        duel.menu(["attack", "ken", "torso", "sideways"])
    # the refused choices changed nothing
    assert duel.state == duel.states[-1] and len(duel.entries) == 1


def test_a_guard_is_arm_then_location_or_lowering_it() -> None:
    # rule: AR.GAP.2 — a guard (庇い) covers a location that is not a limb with an uncrippled arm
    duel = open_fight("arena/duel", seed=1)  # Ken's first blow does not stun Ryu: he guards, then acts
    duel.step()
    duel.choose(["guard", "left_arm", "skull"])
    while duel.to_move is not None and duel.to_move.id != "ryu":
        duel.step()
    arm = duel.menu(["guard", "left_arm"])
    assert arm.options[-1].id == LOWER and arm.options[-1].label == "lower the guard"
    assert RULESET.decision(duel.state, duel.tables, ["guard", "left_arm", LOWER]) == SetGuard(
        "ryu", "left_arm", ""
    )
    assert all(duel.tables.locations.locations[o.id].limb is None for o in arm.options[:-1])
    crippled = fight_at(edit(duel.state, "ryu", crippled=("left_arm",)))
    with pytest.raises(IllegalActionError, match="crippled") as refused:
        crippled.menu(["guard", "left_arm"])
    assert refused.value.rule == "AR.DMG.6"


def test_moves_are_listed_up_to_the_effective_move() -> None:
    # rule: AR.HP.1 — HP 3 or less halves Move: the menu offers the halved distances only
    pit = open_fight("arena/pit", seed=5)
    pit.step()
    hurt = fight_at(edit(pit.state, "kai", hp=3))
    tos = [RULESET.decision(hurt.state, hurt.tables, ["move", o.id]) for o in hurt.menu(["move"]).options]
    assert {abs(m.to - 6) for m in tos if isinstance(m, Move)} == {1, 2, 3}
    assert hurt.menu().options[0].label == "move (up to 3 m)"
