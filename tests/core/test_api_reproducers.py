"""The Python API reproducers of the hostile-input issue (issue 14), each pinned: a wrong argument gets
the project's own error naming what was wrong, never an AttributeError, a wrong value or a hang."""

from __future__ import annotations

from typing import Any

import pytest

import kassen
from kassen import dice
from kassen.core.codec import FormatError
from kassen.core.errors import KassenError
from kassen.core.rng import Rng
from kassen.dice import DiceError


def test_dice_roll_checks_its_expression_and_its_rng() -> None:
    with pytest.raises(DiceError, match="text or a parsed Expression, not NoneType"):
        dice.roll(None, Rng(1))  # type: ignore[arg-type]
    with pytest.raises(DiceError, match="rolled with an Rng"):
        dice.roll("2d6", None)  # type: ignore[arg-type]


@pytest.mark.parametrize("sides", [0, 5.5, float("nan"), True])
def test_a_die_has_a_whole_number_of_faces(sides: Any) -> None:
    with pytest.raises(KassenError, match="whole number of faces"):
        Rng(1).die(sides)


def test_a_gm_move_with_a_boolean_for_a_number_is_refused_and_changes_nothing() -> None:
    # rule: SG.INP.1
    from kassen.sengoku.battle.actions import GmSetWounds

    fight = kassen.open_fight("demo", seed=1)
    before = fight.state_id
    unit = next(iter(fight.units()))
    with pytest.raises(FormatError, match="wounds: expected an integer"):
        fight.apply(GmSetWounds(unit, True))  # type: ignore[arg-type]
    assert fight.state_id == before
