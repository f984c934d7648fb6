"""The Python API refuses arguments of the wrong kind with kassen's own error, as the CLI does: every
public function of the dice, the RNG, the fight and the lab's exact tables, given each of a set of
wrong values in each argument, raises a KassenError (never an AttributeError, a bare TypeError, a hang
or a silent answer) — the wrong kind an ArgumentError, which is a TypeError too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest

import kassen
from kassen import dice, lab
from kassen.core.errors import ArgumentError, KassenError
from kassen.core.view import Viewer

#: Values of the wrong kind for almost any argument.
WRONG: tuple[Any, ...] = (None, 5.5, "x", True, [], {}, object(), b"2d6", Fraction(1, 2))


def refused(call: Callable[[], Any]) -> KassenError:
    with pytest.raises(KassenError) as info:
        call()
    return info.value


def sweep(
    f: Callable[..., Any],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    wrong: Sequence[Any],
    *,
    positional: bool = True,
) -> int:
    """Call ``f`` with each wrong value in place of each argument in turn (the positional ones only
    when ``positional``); each call must raise a KassenError. Returns how many calls were made."""
    n = 0
    for i in range(len(args) if positional else 0):
        for bad in wrong:
            given = list(args)
            given[i] = bad
            if type(bad) is type(args[i]) and bad == args[i]:
                continue
            refused(lambda given=given: f(*given, **kwargs))
            n += 1
    for key in kwargs:
        for bad in wrong:
            if type(bad) is type(kwargs[key]) and bad == kwargs[key]:
                continue
            refused(lambda key=key, bad=bad: f(*args, **{**kwargs, key: bad}))
            n += 1
    return n


def test_the_issue_examples_are_typed_errors() -> None:
    for call, words in (
        (lambda: dice.at_least(None, 5), "a dice expression is text such as '2d6'"),
        (lambda: dice.distribution(5), "not an int"),
        (lambda: dice.at_least("2d6", "x"), "target is a whole number, not a str"),
    ):
        error = refused(call)
        assert isinstance(error, ArgumentError) and isinstance(error, TypeError)
        assert words in str(error)


def test_dice_functions_refuse_every_wrong_kind() -> None:
    expressions = (None, 5, 5.5, True, [], {}, object(), b"2d6", Fraction(1, 2))
    targets = (None, "x", 5.5, True, [], {}, object(), b"5", Fraction(1, 2))
    flags = (None, 1, "x", [], {}, 0.0)
    for f in (dice.at_least, dice.probability_at_least):
        assert sweep(f, ["2d6", 5], {}, expressions + targets) > 0
        sweep(f, ["2d6", 5], {"unskilled": False}, flags, positional=False)
        bad_tolerances = (None, "x", 5.5, [], Fraction(3, 2), 0)
        sweep(f, ["2d6", 5], {"tolerance": Fraction(1, 10**9)}, bad_tolerances, positional=False)
        sweep(f, ["2d6", 5], {"limits": dice.DEFAULT_LIMITS}, (None, 5, "x", {}), positional=False)
    sweep(dice.distribution, ["2d6"], {}, expressions)
    sweep(dice.distribution, [dice.parse("2d6")], {"unskilled": False}, flags, positional=False)
    sweep(dice.parse, ["2d6"], {"unskilled": False, "limits": dice.DEFAULT_LIMITS}, flags, positional=False)
    sweep(lambda c, s: list(dice.enumerate_faces(c, s)), [2, 6], {}, targets)
    table = dice.distribution("2d6")
    for method in (table.at_least, table.at_most, table.equal):
        sweep(method, [7], {}, targets)


def test_huge_arguments_are_refused_at_once() -> None:
    assert "too many cases" in str(refused(lambda: list(dice.enumerate_faces(10**40, 6))))
    assert "too many cases" in str(refused(lambda: list(dice.enumerate_faces(3, 10**40))))


def test_the_rng_refuses_every_wrong_kind() -> None:
    sweep(dice.Rng, [1], {}, WRONG)
    sweep(dice.Rng(1).die, [6], {}, WRONG)
    sweep(dice.Rng(1).below, [6], {}, WRONG)
    sweep(dice.Rng.from_state, [6], {}, WRONG)
    sweep(dice.Rng(1).advance, [6], {}, (*WRONG, -1))


def test_a_fight_refuses_every_wrong_kind() -> None:
    sweep(kassen.open_fight, ["arena/duel"], {"seed": 1, "dice": "auto"}, (5.5, True, [], {}, -1))
    fight = kassen.open_fight("arena/duel", seed=1)
    sweep(fight.menu, [[]], {"viewer": Viewer("east")}, (5, {}, object(), Viewer("north")))
    sweep(fight.view, [Viewer("east")], {}, WRONG)
    sweep(fight.status, [Viewer("east")], {}, WRONG)
    sweep(fight.view_id, [Viewer("east")], {}, WRONG)
    sweep(fight.apply, [{"kind": "begin"}], {}, WRONG)
    sweep(fight.autoplay, [], {"max_actions": 3}, (5.5, "x", True, 0, -1))
    assert not fight.entries  # nothing refused changed the fight


def test_the_lab_tables_refuse_every_wrong_kind() -> None:
    axes = (None, 5, 5.5, "x", True, object(), [None], ["x"], [10**40], [5.5])
    sweep(lab.sengoku_table, [[1, 2], [10, 11]], {}, axes)
    sweep(lab.arena_table, [[10, 12]], {}, axes)
    sweep(lambda s, d: lab.arena_table(s, d), [[10, 12], [8, 9]], {}, axes[1:])  # defenses None: none
    sweep(lab.l5r_table, [[(3, 2)], [10, 15]], {}, (*axes, [(2, 3)], [(3,)]))
    pools = [[(3, 2)], [10, 15]]
    sweep(lab.l5r_table, pools, {"raises": 0}, (None, "x", 5.5, True, -1, 21), positional=False)
    sweep(lab.l5r_table, pools, {"unskilled": False}, (None, 1, "x"), positional=False)
    assert "vary is a list" in str(refused(lambda: lab.sweep("arena/duel", 5, fights=2)))  # type: ignore[arg-type]
