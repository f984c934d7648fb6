"""Decisions built step by step (issue 11): action → target → special → called shot → raises, each prefix
checked, a complete path exactly an action ``apply`` accepts, a choice the rules forbid refused with the
rule that forbids it — on the bundled duels and on random reachable states."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kassen import open_fight
from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight
from kassen.core.menu import MenuError
from kassen.core.policy import RandomPolicy
from kassen.l5r.actions import Act, ActKind, Attack, ChooseInjury, Declare, ThroatStrike
from kassen.l5r.character import FighterId
from kassen.l5r.menus import steps_of
from kassen.l5r.ruleset import RULESET
from kassen.l5r.scenario import bundled_scenarios
from kassen.l5r.state import InjuryPending, Phase, ThroatPending
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName

SCENARIOS = list(bundled_scenarios())
KAKITA, HIDA = FighterId("Kakita Toshiro"), FighterId("Hida Kuroda")


def leaves(fight: Fight[Any, Any], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every complete path through the menus."""
    out: list[tuple[str, ...]] = []
    for option in fight.menu(path).options:
        here = (*path, option.id)
        out += [here] if option.complete else leaves(fight, here)
    return out


def reached(scenario: str, seed: int, steps: int) -> Fight[Any, Any]:
    """A bundled duel after ``steps`` decisions of a random player (a random reachable state)."""
    fight = open_fight(f"l5r/{scenario}", seed=seed)
    for _ in range(steps):
        if fight.over:
            break
        fight.step(RandomPolicy(seed))
    return fight


def check_menus(fight: Fight[Any, Any], *, complete: bool) -> None:
    """Every menu-built decision applies; with a complete list they are exactly the legal actions;
    anything not on a menu is refused (a MenuError, or the rule)."""
    rs, state, tables = fight.ruleset, fight.state, fight.tables
    paths = leaves(fight)
    built = [rs.decision(state, tables, p) for p in paths]
    for action in built:
        fight.check(action)  # raises if the rules refuse it
    legal = list(rs.legal_actions(state, tables))
    assert len(set(built)) == len(built)
    if complete:
        assert set(built) == set(legal)
    else:
        assert set(built) <= set(legal)
    prefixes = sorted({p[:k] for p in paths for k in range(len(p))}, key=lambda p: (len(p), p))
    for i, path in enumerate(prefixes):
        with pytest.raises(MenuError):
            fight.menu((*path, "no-such-choice"))
        if i % 3:  # the rules' refusals on every third step (each probe rebuilds the menus)
            continue
        shown = {o.id for o in fight.menu(path).options}
        for other in (
            "attack",
            "full_attack",
            "full_defense",
            "head",
            "bind",
            "point_to_throat",
            "9",
            "maimed",
        ):
            if other in shown:
                continue
            try:
                fight.menu((*path, other))
            except IllegalActionError as exc:  # refused with the rule that forbids it
                assert exc.rule.startswith("L5.")
            except MenuError:
                pass
            else:
                raise AssertionError(f"{other!r} after {path} is not on the menu, yet accepted")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_menus_on_the_bundled_duels_give_exactly_the_legal_decisions(scenario: str) -> None:
    # rule: L5.CORE.8 — whoever decides (the GM, a declarer, a chooser) is offered every legal decision.
    fight = reached(scenario, 1, 0)
    for i in range(12):
        if fight.over:
            break
        if i in (0, 1, 2, 4, 7, 11):
            check_menus(fight, complete=True)
        fight.step()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from(SCENARIOS), seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_on_random_reachable_states_menus_and_legal_actions_agree(
    scenario: str, seed: int, steps: int
) -> None:
    fight = reached(scenario, seed, steps)
    if not fight.over:
        check_menus(fight, complete=RULESET.info.legal_actions_complete or _limited(fight.tables))


def _limited(tables: L5Tables) -> bool:
    return tables.core.raises.limit != "none"  # with a raise limit the legal list is complete


def test_with_no_raise_limit_the_menus_offer_the_listed_decisions(tmp_path: Any) -> None:
    # rule: L5.CORE.3 — no cap: the list stops at max_enumerated_raises, and so do the menus.
    (tmp_path / "core.yaml").write_text("raises: {limit: none, max_enumerated_raises: 2}\n", encoding="utf-8")
    fight = open_fight("l5r/kakita-vs-hida", seed=3, content=[tmp_path])
    fight.choose(["begin"])
    check_menus(fight, complete=False)
    built = {RULESET.decision(fight.state, fight.tables, p) for p in leaves(fight)}
    assert built == set(fight.legal_actions())


def test_a_declaration_is_action_target_special_called_shot_raises() -> None:
    # rule: L5.CORE.3 — raises declared before rolling: the steps say what they buy and how many are left.
    fight = open_fight("l5r/bridge-ambush", seed=1)
    fight.choose(["begin"])
    goro = fight.to_move
    assert goro is not None and goro.id == "Goro"
    first = fight.menu()
    assert [o.id for o in first.options][:2] == ["attack", "full_attack"]
    by_id = {o.id: o for o in first.options}
    assert not by_id["attack"].complete and by_id["wait"].complete
    targets = fight.menu(["attack"])
    assert {o.id for o in targets.options} == {"Ronin Masaru", "Jiro"}  # allies too (L5.CORE.2)
    assert "TN to be hit 20" in targets.options[0].label and "5 ft away" in targets.options[0].label
    specials = fight.menu(["attack", "Ronin Masaru"])
    assert specials.prompt.startswith("Goro: choose a special attack (2 raises left: at most 2 on one roll")
    # Goro's Void 2 carries 2 raises (L5.CORE.3): a Foul's 4 are too many. With no second opponent to
    # obstruct a Foul would be ineffective, not illegal (L5.FOL.1): it is refused for its raises only
    assert "bind, clipping, disarm, foul, point-to-throat [L5.CORE.3]" in specials.prompt
    assert "[L5.FOL.1]" not in specials.prompt
    called = fight.menu(["attack", "Ronin Masaru", "none"])
    assert [o.id for o in called.options] == ["none", "torso"]
    raises = fight.menu(["attack", "Ronin Masaru", "none", "none"])
    assert [o.id for o in raises.options] == ["0", "1", "2"] and all(o.complete for o in raises.options)
    assert raises.options[2].label.startswith("2 raises for damage (+2k0)")
    action = RULESET.decision(fight.state, fight.tables, ["attack", "Ronin Masaru", "none", "none", "2"])
    assert action == Declare(FighterId("Goro"), Attack(FighterId("Ronin Masaru"), damage_raises=2))
    assert steps_of(action, fight.tables) == (
        ("action", "attack"),
        ("target", "Ronin Masaru"),
        ("special", "none"),
        ("called_shot", "none"),
        ("raises", "2"),
    )
    fight.choose(["attack", "Ronin Masaru", "none", "none", "2"])
    assert fight.state.fighter("Goro").declared == action.act


def test_a_choice_the_rules_forbid_is_refused_with_the_rule() -> None:
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    fight.choose(["begin"])
    assert fight.to_move is not None and fight.to_move.id == HIDA  # Void 2: two raises on one roll
    # rule: L5.CORE.3 — a called shot to the head needs 4 raises
    with pytest.raises(IllegalActionError) as err:
        fight.menu(["attack", "none", "head"])
    assert err.value.rule == "L5.CORE.3" and "at most 2 raise(s)" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        fight.menu(["attack", "none", "none", "3"])
    assert err.value.rule == "L5.CORE.3"
    # rule: L5.SPC.2 — Mark may not be part of a Full Attack
    with pytest.raises(IllegalActionError) as err:
        fight.menu(["full_attack", "mark"])
    assert err.value.rule == "L5.SPC.2"
    prompt = fight.menu(["full_attack"]).prompt
    assert (
        "clipping, mark, point-to-throat, subdue [L5.SPC.2]" in prompt
        and "bind, disarm, foul [L5.CORE.3]" in prompt  # a Foul with nobody to obstruct: legal (L5.FOL.1)
    )
    # rule: L5.ARM.1 — no loose grip to regain
    with pytest.raises(IllegalActionError) as err:
        fight.menu(["regain_grip"])
    assert err.value.rule == "L5.ARM.1"
    with pytest.raises(MenuError, match="not a choice here"):
        fight.menu(["dance"])
    with pytest.raises(MenuError, match="one too many"):
        fight.menu(["wait", "now"])
    assert len(fight.entries) == 1  # nothing changed


def test_the_injury_choice_refuses_a_maim_below_the_threshold() -> None:
    # rule: L5.CS.3 — a maim only when the damage reaches Earth x the location's multiple
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    state = fight.state
    pending = InjuryPending(KAKITA, HIDA, Location.ARM, 5, (), ("deep_gash", "loose_grip", "numb_arm"))
    state = _with(state, phase=Phase.RESOLVE, pending=pending, turn=1)
    menu = RULESET.choices(state, fight.tables, ())
    assert [o.id for o in menu.options] == ["deep_gash", "loose_grip", "numb_arm", "none"]
    assert all(o.complete for o in menu.options) and "5 damage" in menu.prompt
    assert "deep gash: " in menu.options[0].label
    with pytest.raises(IllegalActionError) as err:
        RULESET.choices(state, fight.tables, ("maimed",))
    assert err.value.rule == "L5.CS.3"
    assert RULESET.decision(state, fight.tables, ("none",)) == ChooseInjury(KAKITA, None)


def test_the_point_to_throat_strike_starts_at_the_special_step() -> None:
    # rule: L5.PTT.1 — the holder's extra attack: plain or Subdue, with four Free Raises
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    state = _with(fight.state, phase=Phase.RESOLVE, pending=ThroatPending(KAKITA, HIDA), turn=1)
    menu = RULESET.choices(state, fight.tables, ())
    assert [o.id for o in menu.options] == ["none", "subdue"]
    assert "4 Free" in menu.prompt
    called = RULESET.choices(state, fight.tables, ("none",))
    assert "head" in {o.id for o in called.options}  # 4 Free Raises pay for the head
    strike = RULESET.decision(state, fight.tables, ("none", "head", "0"))
    assert strike == ThroatStrike(KAKITA, Attack(HIDA, called_shot=Location.HEAD))
    with pytest.raises(IllegalActionError) as err:  # no Full Attack and no Foul in the extra attack
        RULESET.choices(state, fight.tables, ("foul",))
    assert err.value.rule in {"L5.PTT.1", "L5.FOL.1"}


def test_other_declarations_name_their_target() -> None:
    # rule: L5.GAP.1 — closing on an opponent beyond reach is a declaration with a target
    fight = open_fight("l5r/lame-veteran", seed=2)
    fight.choose(["begin"])
    while fight.to_move is not None and fight.to_move.id != "Hida Tadaka":
        fight.step()
    menu = fight.menu()
    ids = [o.id for o in menu.options]
    assert "close" in ids and "attack" not in ids  # Bayushi Kaneko is 20 ft away: beyond reach
    assert "attack [L5.GAP.1]" in menu.prompt
    close = menu.options[ids.index("close")]
    assert close.complete  # one opponent: the target is taken without asking
    assert RULESET.decision(fight.state, fight.tables, ["close"]) == Declare(
        FighterId("Hida Tadaka"), Act(ActKind.CLOSE, FighterId("Bayushi Kaneko"))
    )


def _with(state: Any, **changes: Any) -> Any:
    from dataclasses import replace

    return replace(state, **changes)


def test_special_names_and_locations_are_the_tables_ids() -> None:
    # the menu's ids are the data's names: a path can be written by hand
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    fight.choose(["begin"])
    fight.choose(["wait"])
    ids = {o.id for o in fight.menu(["attack"]).options}
    assert ids <= {"none", *(s.value for s in SpecialAttackName)}
    assert {o.id for o in fight.menu(["attack", "none"]).options} <= {
        "none",
        *(loc.value for loc in Location),
    }
