"""Knockback damage is thrust for the knocker's ST with its bonuses (AR.KNB.3: 体力には各種ボーナスによる
修正を含めます): each fighter's `st_bonus`, an input that defaults to 0 (issue 13, mechanic 9)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import kassen
from kassen.arena.bout import Attack, Decline, Wait
from kassen.arena.fighter import Weapon
from kassen.arena.ruleset import RULESET
from kassen.arena.terms import DamageType
from kassen.cli.main import app
from kassen.core.engine import drain
from kassen.core.rng import ScriptedDice

from .helpers import RULES, begun, fighter, find, step

GIANT = fighter("g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING))
B = fighter("b", "west", defense=8)


@pytest.mark.parametrize(("bonus", "expression"), [(0, "2d6 - 1"), (2, "2d6")])
def test_knockback_damage_is_thrust_for_st_with_its_bonuses(bonus: int, expression: str) -> None:
    # rule: AR.KNB.3 — a 16 knocks b back 2 m; the DX check fails, b lands on the skull and takes
    # knockback damage: thrust for ST 20 is 2d-1, for ST 20 + 2 in bonuses (ST 22) 2d
    giant = replace(GIANT, st_bonus=bonus)
    assert giant.knockback_st == 20 + bonus
    s, _ = step(begun(giant, B), Attack("g", "b"), [3, 3, 3, 6, 6, 6, 4, 4, 4, 4])
    s, _ = step(s, Decline("b"), [1, 1, 1, 6, 6, 6])  # the knockdown check passes, the knockback check fails
    fall = s.fighter("b").fall
    assert fall is not None and fall.falls and (fall.knocker_st, fall.knocker_st_bonus) == (20 + bonus, bonus)
    turn = RULESET.start(s, ScriptedDice([1] * 20), RULES)  # landing: knockback damage, then checks
    RULESET.resolve(turn, Wait("b"))
    drain(lambda: RULESET.follow_up(turn))
    [roll] = find(turn.events, "damage_roll")
    assert roll.data["expression"] == expression and roll.rule == "AR.KNB.3"
    said = "thrust for ST 22 (ST 20 +2 in bonuses)" if bonus else "thrust for ST 20"
    assert roll.data["what"] == f"knockback: {said}"


def test_a_scenario_gives_the_st_bonus_and_it_defaults_to_0() -> None:
    # rule: AR.KNB.3
    pit = kassen.open_fight("arena/pit", seed=1).state
    assert {f.id: f.profile.st_bonus for f in pit.fighters} == {"oni": 2, "sora": 0, "kai": 0}


def test_the_damage_command_prints_the_knockback_damage_with_the_bonuses() -> None:
    # rule: AR.KNB.3
    runner = CliRunner()
    args = ["arena", "damage", "--basic", "16", "--type", "cr", "--ht", "10", "--st", "10", "--json"]
    plain = json.loads(runner.invoke(app, [*args, "--knocker-st", "20"]).stdout)
    assert plain["knockback_m"] == 2 and plain["knockback_damage"]["thrust"] == "2d-1"
    bonus = json.loads(runner.invoke(app, [*args, "--knocker-st", "20", "--knocker-st-bonus", "2"]).stdout)
    assert bonus["knockback_damage"] == {"st": 22, "st_bonus": 2, "thrust": "2d", "rule": "AR.KNB.3"}
    text = runner.invoke(app, [*args[:-1], "--knocker-st", "20", "--knocker-st-bonus", "2"]).stdout
    assert "thrust for ST 22 (20 +2 in bonuses) = 2d  [AR.KNB.3]" in text
    bad = runner.invoke(app, [*args, "--knocker-st-bonus", "2"])
    assert bad.exit_code == 2 and "--knocker-st-bonus needs --knocker-st" in bad.stderr
