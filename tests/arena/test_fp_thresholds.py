"""The FP thresholds (AR.FTG.2-5) are told once per crossing, with the FP before and after each spend taken
when it is spent; "Move halved" at FP 3 is not told when injury already halved Move (AR.FTG.3). Issue 13:
`arena bout melee --seed 11` told "move_halved" twice, `--seed 24` "helpless" twice."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

import kassen
from kassen.arena.bout import Action, Attack, BoutState, move_allowance
from kassen.arena.bout.state import FpThresholds
from kassen.arena.ruleset import RULESET
from kassen.core.engine import drain
from kassen.core.events import Event
from kassen.core.policy import RandomPolicy
from kassen.core.rng import ScriptedDice
from kassen.core.scenario import bundled_scenarios

from .helpers import RULES, begun, edit, fighter, find, kinds, step

A = fighter("a", "east", dx=12, skill=14)
B = fighter("b", "west", defense=8)
FAT = RULES.injury.fatigue
#: FP threshold event → the FP at or below which it holds.
THRESHOLDS = {
    ("fatigued", "AR.FTG.2"): FAT.st_penalty_at_or_below,
    ("move_halved", "AR.FTG.3"): FAT.move_halved_at_or_below,
    ("helpless", "AR.FTG.4"): FAT.helpless_at,
    ("incapacitated", "AR.FTG.5"): FAT.unconscious_at_or_below,
}


def repeats(events: Iterable[Event]) -> list[str]:
    """FP threshold events told again for a fighter without its FP having risen above the threshold
    since (a second wind may lift it, and then a new crossing is told)."""
    told: dict[tuple[str, str, str], bool] = {}  # (fighter, kind, rule) -> told and still in force
    out = []
    for e in events:
        fid = e.data.get("fighter")
        if e.kind == "fp_recovered":
            for key in told:
                limit = THRESHOLDS[key[1:]]
                if key[0] == fid and e.data["fp_after"] > limit:
                    told[key] = False
        if (e.kind, e.rule) in THRESHOLDS:
            key = (str(fid), e.kind, e.rule)
            if told.get(key):
                out.append(f"{fid} {e.kind} {e.rule} again")
            told[key] = True
    return out


@pytest.mark.parametrize(("name", "seed"), [("melee", 11), ("melee", 24)])
def test_the_issues_bouts_tell_each_fp_threshold_once(name: str, seed: int) -> None:
    # rule: AR.FTG.3, AR.FTG.4 — the two bouts of the issue
    fight = kassen.open_fight(f"arena/{name}", seed=seed)
    fight.autoplay()
    assert not repeats(fight.events)
    assert kinds(fight.events).count("helpless") <= 1


def test_no_fp_threshold_event_repeats_in_any_bundled_bout() -> None:
    # rule: AR.FTG.2, AR.FTG.3, AR.FTG.4, AR.FTG.5 — every bundled bout, 15 seeds each, played by its own
    # policies and at random
    told = 0
    for s in bundled_scenarios("arena"):
        for seed in range(1, 16):
            policies: tuple[RandomPolicy[BoutState, Action] | None, ...] = (None, RandomPolicy())
            for policy in policies:
                fight = kassen.open_fight(f"arena/{s.name}", seed=seed)
                fight.autoplay(policy, max_actions=3000)
                assert not repeats(fight.events), (s.name, seed, repeats(fight.events))
                told += sum((e.kind, e.rule) in THRESHOLDS for e in fight.events)
    assert told > 50  # the thresholds are reached, often


def test_move_halved_by_fatigue_is_not_told_when_injury_already_halved_it() -> None:
    # rule: AR.FTG.3, AR.HP.1 — b at HP 3 (Move halved by injury) spends its last FP above 3 on an all-out
    # attack: FP 4 → 3 halves nothing more, and nothing is told
    s = edit(begun(A, B), "b", hp=3, fp=4)
    s = replace(s, slot=1)
    s, ev = step(s, Attack("b", "a", all_out=True), [6, 6, 6])
    assert s.fighter("b").fp == 3 and not find(ev, "move_halved")
    move, steps = move_allowance(s, s.fighter("b"), RULES)
    assert move == 3 and [x.rule for x in steps].count("AR.HP.1") == 1  # Move 5, halved once: 3
    assert any("ignored" in x.reason for x in steps)
    # uninjured, the same spend halves Move and says so, with the Move before and after
    s = edit(begun(A, B), "b", fp=4)
    s = replace(s, slot=1)
    s, ev = step(s, Attack("b", "a", all_out=True), [6, 6, 6])
    [halved] = find(ev, "move_halved")
    assert halved.rule == "AR.FTG.3" and (halved.data["move_before"], halved.data["move_after"]) == (5, 3)


def test_two_spends_in_a_row_are_looked_at_once_from_the_first_fp_to_the_last() -> None:
    # rule: AR.FTG.2, AR.FTG.3 — FP 6 → 4 → 2 in one task: one look from 6 to 2, each threshold told once,
    # in the order FP falls through them
    turn = RULESET.start(edit(begun(A, B), "b", fp=6), ScriptedDice([]), RULES)
    turn.lose_fp("b", 2, "AR.GUT.3", "first")
    turn.lose_fp("b", 2, "AR.GUT.1", "second")
    assert [t for t in turn.settled().agenda if isinstance(t, FpThresholds)] == [FpThresholds("b", 6, 2)]
    drain(lambda: RULESET.follow_up(turn))
    told = [e.kind for e in turn.events if (e.kind, e.rule) in THRESHOLDS]
    assert told == ["fatigued", "move_halved"]
