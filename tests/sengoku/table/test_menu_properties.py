"""The menus against the rules on random reachable states (issue 11): Sengoku's ``legal_actions`` is a
sample (``legal_actions_complete`` is False), so the menus are built from the breath's own validation
and must reach every listed decision and breaths beyond it; every menu-built decision applies; a choice
not on the menu is refused (a MenuError listing the choices, or the rule that forbids it)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight
from kassen.core.menu import MenuError
from kassen.sengoku.battle import RULESET, Breath
from kassen.sengoku.battle.table.menus import canonical, path_of

from .support import SCENARIOS, reached, walk


def check_menus(fight: Fight[Any, Any], rnd: random.Random) -> tuple[int, int]:
    """Every listed action through the menus; random walks applied; off-menu choices refused. Returns
    how many walks built a decision that is not in the list, and how many walks were made."""
    rs, state, tables = RULESET, fight.state, fight.tables
    legal = list(fight.legal_actions())
    for action in legal:  # every listed decision is reachable, step by step
        path = path_of(state, tables, action)
        assert path is not None, action
        for k in range(len(path)):
            assert path[k] in {o.id for o in fight.menu(path[:k]).options if o.allowed}, (path, k)
        expected = canonical(tables, action) if isinstance(action, Breath) else action
        assert rs.decision(state, tables, path) == expected
    beyond = walks = 0
    for _ in range(4):  # random walks: each built decision is one the rules accept
        built = walk(fight, rnd)
        action = rs.decision(state, tables, built)
        fight.check(action)
        walks += 1
        beyond += action not in legal
        _refused_off_the_menu(fight, built, rnd)
    return beyond, walks


def _refused_off_the_menu(fight: Fight[Any, Any], path: list[str], rnd: random.Random) -> None:
    """At a random prefix of ``path``: an unknown id is a MenuError; a shown option the rules refuse
    is refused naming its rule; an id of another step (a zone where a maneuver is due...) is refused."""
    k = rnd.randrange(len(path))
    prefix = path[:k]
    menu = fight.menu(prefix)
    with pytest.raises(MenuError):
        fight.menu([*prefix, "no-such-choice"])
    for o in menu.options:
        if not o.allowed:
            with pytest.raises(IllegalActionError) as err:
                RULESET.decision(fight.state, fight.tables, [*prefix, o.id])
            assert err.value.rule.startswith("SG.") and err.value.rule == o.rule
            break
    shown = {o.id for o in menu.options}
    for other in ("end_breath", "hold_breath", "own-front", "oni", "aim:1", "parry", "let_through"):
        if other in shown:
            continue
        try:
            fight.menu([*prefix, other])
        except (MenuError, IllegalActionError):
            continue
        raise AssertionError(f"{other!r} after {prefix} is not on the menu, yet accepted")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_menus_on_the_bundled_battles_reach_the_list_and_beyond(scenario: str) -> None:
    # rule: SG.BRT.1 — any maneuvers within the Energy: the menus build breaths the list does not hold
    fight = reached(scenario, 1, 0)
    rnd = random.Random(7)
    beyond = 0
    for i in range(30):
        if fight.over:
            break
        if i % 3 == 0:
            beyond += check_menus(fight, rnd)[0]
        fight.step()
    assert beyond >= 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from(SCENARIOS), seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_on_random_reachable_states_menus_and_rules_agree(scenario: str, seed: int, steps: int) -> None:
    # rule: SG.CNT.3 — whoever decides now (a unit at its count, a reaction, the GM) has its menu
    fight = reached(scenario, seed, steps)
    if not fight.over:
        check_menus(fight, random.Random(seed))
