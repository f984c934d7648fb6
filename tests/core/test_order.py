"""Turn-order strategies of the core, as the three rulesets use them."""

from __future__ import annotations

from kassen.core.order import count_down, initiative, slots


def test_count_down_takes_the_highest_value_at_or_above_the_floor_ties_in_key_order() -> None:
    # rule: SG.CNT.1 — the highest Energy acts; SG.CNT.4 — a tie goes by the tie keys
    energy = {"a": 7, "b": 9, "c": 9, "d": 0, "e": None}
    assert count_down("abcde", energy.get, tie=lambda u: -ord(u)) == (9, ["c", "b"])
    assert count_down("de", energy.get, tie=str) is None  # 0 is below the floor, None is not counted
    assert count_down("ad", energy.get, tie=str, floor=8) is None
    assert count_down([], energy.get, tie=str) is None


def test_initiative_acts_best_first_and_declares_in_reverse() -> None:
    # rule: L5.CORE.8 — declare from the lowest initiative, act from the highest
    acting, declaring = initiative([((1, -30), "lost"), ((0, -12), "slow"), ((0, -25), "fast")])
    assert acting == ("fast", "slow", "lost") and declaring == ("lost", "slow", "fast")


def test_slots_pass_over_who_cannot_act() -> None:
    order = ["ryu", "ken", "bo"]
    assert slots(order, 0, lambda f: True) == 0
    assert slots(order, 0, lambda f: f == "bo") == 2
    assert slots(order, 1, lambda f: f == "ryu") is None
    assert slots(order, 3, lambda f: True) is None
