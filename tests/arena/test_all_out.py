"""An all-out attack's "no defence" lasts until the fighter's next slot (AR.FTG.1, the AR.GAP.2 all-out
house default) and ends when that slot comes, whether the fighter takes it or the slot is passed over
because it cannot act (issue 13: clearing it was lost when the slot was passed over)."""

from __future__ import annotations

from kassen.arena.bout import Attack, Wait
from kassen.arena.fighter import Fall
from kassen.arena.terms import Facing, Posture

from .helpers import begun, edit, fighter, find, step

A = fighter("a", "east", dx=12, skill=14)
B = fighter("b", "west", defense=8)


def test_no_defence_ends_when_the_slot_is_passed_over() -> None:
    # rule: AR.FTG.1 — b attacked all-out (no defence) and is now in the air (it cannot act): its slot in
    # subturn 1 is passed over, and with it the no-defence ends; in subturn 2 b defends a's attack
    airborne = Fall(False, Facing.FACE_UP, Posture.STANDING, "torso", Posture.STANDING)
    s = edit(begun(A, B), "b", no_defense=True, posture=Posture.AERIAL, fall=airborne)
    s, _ = step(s, Wait("a"))  # b's slot is passed over; b lands at the end of the subturn
    assert s.subturn == 2 and s.slot == 0 and not s.fighter("b").no_defense
    assert s.fighter("b").posture is Posture.STANDING
    _, ev = step(s, Attack("a", "b"), [3, 3, 3, 6, 6, 6, 2])
    assert find(ev, "check", check="defense")  # a defence is rolled


def test_no_defence_lasts_until_the_slot_comes() -> None:
    # rule: AR.FTG.1 — before b's next slot, b rolls no defence
    s = edit(begun(A, B), "b", no_defense=True)
    _, ev = step(s, Attack("a", "b"), [3, 3, 3, 2])
    assert not find(ev, "check", check="defense") and find(ev, "attack")[0].data["hit"]
