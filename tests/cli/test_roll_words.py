"""What a table-dice prompt says (kassen.core.rolls): who rolls, for what, which dice and how many are
left, read from the ruleset's own events for any ruleset — with the words the dice decide left out —
and how many dice are left when too many faces are typed."""

from __future__ import annotations

import kassen
from kassen.core.rolls import dice_left, next_roll
from kassen.core.view import Viewer


def test_a_roll_and_keep_initiative_names_each_roller_and_pool() -> None:
    # rule: L5.CORE.8 — each fighter rolls initiative: Kakita Toshiro 5k3, Hida Kuroda 4k2
    fight = kassen.open_fight("l5r/kakita-vs-hida", seed=1, dice="table")
    assert next_roll(fight) is None  # nothing waits for dice
    fight.choose(["begin"])  # the GM begins the duel
    roll = next_roll(fight)
    assert roll is not None
    assert (roll.roller, roll.kind, roll.dice, roll.left) == ("Kakita Toshiro", "initiative", "5d10", 5)
    assert roll.text == "Kakita Toshiro rolls … for initiative"
    assert roll.words() == "Kakita Toshiro: roll 5d10 — Kakita Toshiro rolls … for initiative (5 dice left)"
    # eleven faces for the nine dice of both rolls: nine are left, three are not too many
    assert dice_left(fight, [1] * 11) == 9 and dice_left(fight, [1] * 3) is None
    fight.roll([7, 3])
    roll = next_roll(fight)
    assert roll is not None and (roll.typed, roll.left) == (2, 3)
    assert roll.words().endswith("(3 dice left, 2 in)")
    fight.roll([9, 2, 5])
    for viewer in (None, Viewer("Crane"), Viewer("Crab")):
        roll = next_roll(fight) if viewer is None else next_roll(fight, viewer)
        assert roll is not None and (roll.roller, roll.dice) == ("Hida Kuroda", "4d10")


def test_an_arena_check_names_the_roller_and_the_target_number() -> None:
    # rule: AR.AUD.2 — a popularity check is 3d6 against the popularity
    fight = kassen.open_fight("arena/duel", seed=4, dice="table")
    fight.choose([fight.menu([]).options[0].id])
    roll = next_roll(fight)
    assert roll is not None
    assert (roll.roller, roll.kind, roll.dice) == ("Ryu", "check", "3d6")
    assert roll.text == "Ryu's popularity check: 3d6 = … against 13: …"
    fight.roll([5])
    roll = next_roll(fight)
    assert roll is not None and roll.text.startswith("Ryu's popularity check: 3d6 = 5 + …") and roll.left == 2


def test_a_sengoku_check_and_the_d100_after_a_fumble_are_two_rolls() -> None:
    # rule: SG.CHK.1, SG.FUM.3 — a check is 2d10 + modifier; a fumble reads a d100 table
    fight = kassen.open_fight("sengoku/count-example", seed=4, dice="table")
    fight.choose([fight.menu([]).options[0].id])
    fight.choose(["stealth-movement", "own-front", "stroke-of-fire", "oni", "end_breath"])
    roll = next_roll(fight)
    assert roll is not None and (roll.roller, roll.dice, roll.left) == ("Kuro", "2d10", 2)
    assert "stealth-movement own-flank → own-front: 2d10 […] + 7 = … vs 11" in roll.text
    demo = kassen.open_fight("sengoku/demo", seed=3, dice="table")
    while demo.to_move is not None and demo.to_move.kind == "gm":
        demo.step()
    demo.choose(["shuriken-throw", "retainer", "end_breath"])
    demo.roll([1, 1])  # a double 1: a fumble, and its d100
    roll = next_roll(demo, Viewer("party"))
    assert roll is not None and (roll.dice, roll.typed, roll.left) == ("1d100", 0, 1)
    assert "2d10 [1, 1] + 4 = 6 vs Defense 10: Fumble" in roll.text
