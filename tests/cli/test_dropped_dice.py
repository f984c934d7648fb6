"""One notation for a dropped die everywhere: ``~~1~~`` (Markdown strikethrough), in ``kassen roll`` and
in the roll-and-keep commands and accounts alike."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.rng import Rng
from kassen.l5r.pool import Pool, roll_pool

#: A single tilde around a face that is not part of a double one: the old roll-and-keep notation.
SINGLE = re.compile(r"(?<!~)~[0-9][0-9+]*~(?!~)")


def test_roll_strikes_dropped_dice_with_double_tildes() -> None:
    result = CliRunner().invoke(app, ["roll", "4d6kh1", "--seed", "5"])
    assert result.exit_code == 0
    assert len(re.findall(r"~~[0-9]+~~", result.stdout)) == 3 and not SINGLE.search(result.stdout)


def test_roll_and_keep_strikes_dropped_dice_the_same_way() -> None:
    # rule: L5.CORE.1 (roll X d10, keep the Y highest: the rest are shown struck)
    rolled = roll_pool(Pool(6, 2), Rng(3), "attack")
    text = rolled.faces_text()
    assert len(re.findall(r"~~[0-9+]+~~", text)) == 4 and not SINGLE.search(text), text
    assert rolled.steps[-1].reason.endswith(text)


def test_the_l5r_commands_show_the_same_notation() -> None:
    result = CliRunner().invoke(app, ["l5r", "attack", "--seed", "3"])
    assert result.exit_code == 0
    assert "~~" in result.stdout and not SINGLE.search(result.stdout)
