"""The referee's own moves (issue 11): set HP or FP, give or take a condition, end the bout — open to the
GM at any point through ``fight.menu(gm=True)``, each a logged action resolved like any other (the rules
then apply: death at −5 × HT, the FP thresholds, an override offered), replayed and undone, and never
among a fighter's legal actions."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kassen.arena.bout.gm import GM_ACTIONS, GmAddCondition, GmEndBout, GmRemoveCondition, GmSetFp, GmSetHp
from kassen.core.engine import GM
from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight
from kassen.core.menu import decide as menu_decide
from kassen.core.policy import RandomPolicy
from kassen.core.report import account
from kassen.core.scenario import bundled_scenarios, open_fight


def _duel(seed: int = 3) -> Any:
    fight = open_fight("arena/duel", seed=seed)
    fight.step()  # begun: Ryu's slot
    return fight


def _kinds(events: Any) -> list[str]:
    return [e.kind for e in events]


def test_the_referees_menu_sets_hp_and_death_follows_at_minus_five_ht() -> None:
    # rule: AR.HP.4, AR.OUT.1 — Ken (HT 12) set to HP -60 is dead, loses the match; Ryu wins
    fight = _duel()
    kinds = fight.menu(gm=True)
    assert [o.label for o in kinds.options] == [
        "set a fighter's HP",
        "set a fighter's FP",
        "give a fighter a condition",
        "end the bout",
    ]
    hp = fight.menu(["gm_set_hp", "ken"], gm=True)
    assert hp.options[0].label == "HP 12" and hp.options[-1].label == "HP -60" and len(hp.options) == 73
    events = fight.choose(["gm_set_hp", "ken", "-60"], gm=True)
    assert _kinds(events)[:2] == ["gm_hp", "dead"] and events[1].rule == "AR.HP.4"
    assert fight.over and fight.result.winner == "east"
    assert fight.menu(gm=True).options == ()  # over: the referee has nothing left to do
    with pytest.raises(IllegalActionError, match="the bout is over") as over:
        fight.apply(GmSetHp("ken", 5))
    assert over.value.rule == "AR.OUT.1"


def test_setting_hp_rolls_nothing_and_the_thresholds_act_as_always() -> None:
    # rule: AR.HP.1, AR.HP.2 — HP 0: Move halved, an HT check at the start of the next subturn
    fight = _duel()
    events = fight.apply(GmSetHp("ken", 0))
    assert _kinds(events) == ["gm_hp"] and fight.state.fighter("ken").hp == 0
    assert fight.menu(["move"]).options  # Ryu's Move stays; Ken's is halved at HP 3 or less
    fight.choose(["wait"])
    assert fight.menu().options[2].label == "move (up to 2 m)"  # Ken: Move 4 halved
    fight.choose(["wait"])
    zero = [e for e in fight.entries[-1].events if e.kind == "check" and e.data["check"] == "zero_hp"]
    assert fight.state.subturn == 2 and [e.data["fighter"] for e in zero] == ["ken"]


def test_fp_set_low_crosses_the_fp_thresholds() -> None:
    # rule: AR.FTG.2, AR.FTG.4, AR.FTG.5 — FP 1 in a match: too tired to act, the match lost unless an
    # audience point lifts it; FP 0: unconscious
    fight = _duel()
    assert fight.state.fighter("ken").audience_points == 0
    events = fight.apply(GmSetFp("ken", 1))
    assert _kinds(events)[:3] == ["gm_fp", "fatigued", "move_halved"] and "helpless" in _kinds(events)
    assert ("match_lost", "AR.FTG.4") in [(e.kind, e.rule) for e in events] and fight.over
    other = _duel()
    events = other.apply(GmSetFp("ryu", 0))
    assert ("incapacitated", "AR.FTG.5") in [(e.kind, e.rule) for e in events]
    again = _duel()
    assert _kinds(again.apply(GmSetFp("ryu", 10))) == ["gm_fp"]  # one FP off crosses no threshold
    assert _kinds(again.apply(GmSetFp("ryu", 11))) == ["gm_fp"]  # given back: nothing to cross


def test_a_condition_given_arises_as_the_rules_make_it_arise() -> None:
    # rule: AR.STN.1, AR.GUT.1, AR.OUT.1 — a stun and an incapacity offer a guts check; giving up does not
    fight = _duel()
    events = fight.apply(GmAddCondition("ken", "stunned"))
    assert _kinds(events) == ["gm_condition", "stunned", "override_offered"]
    assert fight.to_move.id == "ken"  # Ken answers the offer before Ryu's slot goes on
    fight.choose(["decline"])
    assert fight.state.fighter("ken").stunned
    fight.apply(GmRemoveCondition("ken", "stunned"))
    assert not fight.state.fighter("ken").stunned and fight.to_move.id == "ryu"
    events = fight.apply(GmAddCondition("ken", "lost_will"))
    assert ("override_offered", "AR.GUT.1") in [(e.kind, e.rule) for e in events]
    fight.choose(["decline"])
    assert fight.state.fighter("ken").lost and fight.over
    gave = _duel()
    events = gave.apply(GmAddCondition("ryu", "gave_up"))
    assert "override_offered" not in _kinds(events) and gave.over and gave.result.winner == "west"


def test_refused_moves_name_their_rule_and_change_nothing() -> None:
    # rule: AR.HP.4, AR.FTG.5, AR.OUT.1, AR.GAP.2
    fight = _duel()
    before = fight.state
    for action, rule in [
        (GmSetHp("ken", -61), "AR.HP.4"),
        (GmSetHp("ken", 14), "AR.HP.4"),
        (GmSetFp("ryu", 12), "AR.FTG.5"),
        (GmAddCondition("ken", "asleep"), "AR.OUT.1"),
        (GmRemoveCondition("ken", "stunned"), "AR.OUT.1"),
        (GmEndBout("north"), "AR.GAP.2"),
        (GmSetHp("nobody", 3), "AR.GAP.2"),
    ]:
        with pytest.raises(IllegalActionError) as refused:
            fight.apply(action)
        assert refused.value.rule == rule, action
    fight.apply(GmAddCondition("ken", "unconscious"))
    ken = next(o for o in fight.menu(["gm_add_condition"], gm=True).options if o.id == "ken")
    assert ken.complete  # only death can follow: the one condition left for Ken
    assert menu_decide(fight.ruleset, fight.state, fight.tables, ["gm_add_condition", "ken"], gm=True) == (
        GmAddCondition("ken", "dead")
    )
    with pytest.raises(IllegalActionError, match="only death can follow"):
        fight.apply(GmAddCondition("ken", "stunned"))
    assert fight.state != before and len(fight.entries) == 2


def test_the_referee_ends_the_bout_and_the_account_says_so() -> None:
    # rule: AR.OUT.1
    fight = _duel()
    fight.choose(["gm_end_bout", "none"], gm=True)
    assert fight.result is not None and fight.result.winner is None
    assert fight.result.reason == "ended by the referee (subturn 1)"
    text = account(fight)
    assert "The referee ends the bout: nobody wins" in text and "the referee ends it: nobody wins" in text
    won = _duel()
    won.apply(GmEndBout("west"))
    assert won.result.winner == "west" and won.result.reason.startswith("ended by the referee")


def test_before_the_bout_begins_a_referees_move_starts_nothing() -> None:
    # rule: AR.CORE.3 — the subturns start with the referee's Begin, not with a move made before it
    fight = open_fight("arena/duel", seed=3)
    events = fight.apply(GmSetHp("ryu", 10))
    assert _kinds(events) == ["gm_hp"] and fight.state.subturn == 0 and fight.to_move == GM
    fight.step()
    assert fight.state.subturn == 1 and fight.state.fighter("ryu").hp == 10


@pytest.mark.parametrize("scenario", [s.name for s in bundled_scenarios("arena")])
def test_referees_moves_are_logged_replayed_undone_and_never_a_fighters_choice(scenario: str) -> None:
    # rule: AR.GAP.2
    fight = open_fight(f"arena/{scenario}", seed=4)
    policy: RandomPolicy[Any, Any] = RandomPolicy(salt=4)
    moves = 0
    while not fight.over and len(fight.entries) < 60:
        assert not [a for a in fight.legal_actions() if isinstance(a, GM_ACTIONS)]
        gm = fight.menu(gm=True).options
        if len(fight.entries) % 3 == 1 and len(gm) > 2:
            path = [gm[moves % 3].id]  # set HP, set FP, give a condition in turn
            while True:  # the first fighter, then a middling HP or FP, or a stun
                options = fight.menu(path, gm=True).options
                option = options[len(options) // 2 if len(path) > 1 and moves % 3 < 2 else 0]
                path.append(option.id)
                if option.complete:
                    break
            fight.choose(path, gm=True)
            moves += 1
        else:
            fight.step(policy)
    assert moves >= 2
    replayed = Fight.from_json(json.loads(fight.log_json()))
    assert replayed.log_json() == fight.log_json()
    kinds = {type(e.action) for e in fight.entries}
    assert kinds & set(GM_ACTIONS)
    last_gm = max(i for i, e in enumerate(fight.entries) if isinstance(e.action, GM_ACTIONS))
    while len(fight.entries) > last_gm:
        fight.undo()
    assert fight.state == replayed.states[last_gm]
