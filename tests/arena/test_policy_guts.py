"""The heuristic's guts checks against incapacity: never down to the helpless or unconscious threshold, which
loses as surely as declining, unless an audience point can still lift it from FP 1 (AR.GUT.1, AR.FTG.4-5,
AR.RD.6); and over many bundled bouts it never does."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kassen.arena.bout import BoutState, Cheer, Decline, Guts, Offer
from kassen.arena.policies import HeuristicPolicy
from kassen.arena.terms import Condition, MatchFormat
from kassen.core.engine import Actor
from kassen.core.policy import Decision
from kassen.core.scenario import open_fight

from .helpers import RULES, begun, edit, fighter, legal, step

A = fighter("a", "east")
B = fighter("b", "west")


def unconscious(fp: int, points: int = 0, format: MatchFormat = MatchFormat.MATCH) -> BoutState:
    """B fallen unconscious at an HT check at 0 HP (no damage, no contest: Will 10, a 50% guts check),
    offered the override with ``fp`` FP and ``points`` audience points."""
    match = format is MatchFormat.MATCH
    s = begun(A, B, format=format, faces=[6] * 6 if match else [])  # a match's popularity checks fail
    out = s.fighter("b").with_condition(Condition.UNCONSCIOUS).conditions
    s = edit(s, "b", fp=fp, hp=0, audience_points=points, conditions=out)
    return replace(s, offers=(Offer("b", Condition.UNCONSCIOUS.value, "AR.HP.2"),))


def choice(s: BoutState) -> object:
    decision = Decision(s, Actor("unit", "b", "west"), legal(s), (), 0, RULES, lambda a: True)
    return HeuristicPolicy(RULES)(decision)


@pytest.mark.parametrize("format", [MatchFormat.MATCH, MatchFormat.FIGHT])
def test_no_guts_check_down_to_fp_1_or_0(format: MatchFormat) -> None:
    # rule: AR.GUT.1  rule: AR.FTG.4  rule: AR.FTG.5 — a guts check costs 2 FP: from 4 FP it leaves 2 and
    # is tried; from 3 or 2 it leaves the fighter helpless (FP 1) or unconscious (FP 0), which loses the
    # match (or puts it out of a fight) as declining does, and the FP are kept
    assert choice(unconscious(4, format=format)) == Guts("b")
    for fp in (3, 2):
        s = unconscious(fp, format=format)
        assert Guts("b") in legal(s) and choice(s) == Decline("b"), fp


def test_down_to_fp_1_only_with_a_second_wind_left() -> None:
    # rule: AR.GUT.1  rule: AR.FTG.4  rule: AR.RD.6  rule: AR.AUD.3 — in a match an audience point lifts a
    # fighter from FP 1 (second wind): with one in hand the check from 3 FP is its way to stay in, taken
    # plainly so the point is kept for the second wind; the crowd's roar would spend it
    s = unconscious(3, points=1)
    assert Cheer("b", "roar_of_the_crowd") in legal(s)
    assert choice(s) == Guts("b")
    s, _ = step(s, Guts("b"), [1, 1, 1])  # the check succeeds: stunned instead, at FP 1
    assert s.fighter("b").fp == 1 and s.offers[0].condition == "helpless"
    assert choice(s) == Cheer("b", "second_wind")
    s, _ = step(s, Cheer("b", "second_wind"))
    assert s.fighter("b").fp == 3 and not s.fighter("b").lost
    # outside a match no override is offered at FP 1: the point cannot help, the check is declined
    assert choice(unconscious(3, points=1, format=MatchFormat.FIGHT)) == Decline("b")


def test_over_many_bouts_no_guts_check_leaves_a_fighter_helpless_for_good() -> None:
    # rule: AR.GUT.1  rule: AR.FTG.4  rule: AR.FTG.5 — every guts check the heuristic makes in 30 bouts of
    # each bundled scenario leaves it above FP 1, or at FP 1 with a second wind to spend
    checks = 0
    for name in ("pit", "duel", "melee", "knockback"):
        for seed in range(30):
            fight = open_fight(f"arena/{name}", seed=seed)
            fight.autoplay()
            for state, action in zip(fight.states, fight.history, strict=False):
                offer = state.offers[0].condition if state.offers else ""
                cheered = isinstance(action, Cheer) and offer not in ("", "helpless")
                if not isinstance(action, Guts) and not cheered:
                    continue
                f = state.fighter(action.actor)
                after = f.fp - RULES.injury.guts.fp_cost
                points = f.audience_points - cheered
                match = state.format is MatchFormat.MATCH
                assert after > 1 or (after == 1 and points > 0 and match), (name, seed)
                checks += 1
    assert checks > 50


def test_the_long_pit_keeps_kais_last_fp() -> None:
    # rule: AR.GUT.1  rule: AR.FTG.4 — `kassen arena bout pit --seed 13` (seed 1 before the heuristic
    # weighed a hit by what it is worth): Kai, unconscious at FP 3 with no audience point left, used to
    # pay 2 FP for a check that could only leave him helpless and lose the match; he declines, and loses
    # it with his FP kept
    fight = open_fight("arena/pit", seed=13)
    fight.autoplay()
    paid = [e for e in fight.events if e.kind == "fatigue" and e.rule == "AR.GUT.1"]
    checks = [e for e in paid if e.data["fighter"] == "kai"]
    assert checks and all(e.data["fp_after"] > 1 for e in checks)  # his checks: 9 FP to 7, 6 to 4
    declined = [
        a
        for s, a in zip(fight.states, fight.history, strict=False)
        if isinstance(a, Decline) and a.actor == "kai" and s.offers and s.fighter("kai").fp == 3
    ]
    assert declined and fight.state.fighter("kai").fp == 3
