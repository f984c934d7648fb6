"""YAML bout scenarios: validation with file, line and field; defaults; scripted policies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kassen.arena.fighter import GutsBonusPlan, build_fighter
from kassen.arena.rules import load_rules
from kassen.arena.scenario import bundled_scenarios, load_scenario, run_scenario
from kassen.arena.terms import CheckKind, MatchFormat, Posture
from kassen.core.errors import ContentError, KassenError

GOOD = """\
name: Test bout
fighters:
  - id: a
    side: east
    st: 12
    dx: 13
    ht: 11
    armor: {all: 1, torso: 4, brain: {armor: 2, soft: 1}}
  - id: b
    side: west
    policy: scripted
    script:
      - {kind: guard, arm: right_arm, location: skull}
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "bout.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_bundled_scenarios_load_and_run() -> None:
    assert {"duel", "melee", "knockback"} <= set(bundled_scenarios())
    melee = load_scenario("melee")
    assert melee.state.format is MatchFormat.FIGHT and len(melee.state.fighters) == 3
    goro = melee.state.fighter("goro")
    assert goro.altitude == 1 and goro.profile.reductions[0].subtract == 1
    assert run_scenario(melee).is_over()


def test_defaults_and_armor_everywhere(tmp_path: Path) -> None:
    # rule: AR.GAP.2 (fighter defaults: skill = DX, defence = (DX + HT) / 4 + 3; HP = ST, FP = HT)
    s = load_scenario(write(tmp_path, GOOD))
    a = s.state.fighter("a").profile
    assert (a.hp, a.fp, a.skill, a.defense, a.move) == (12, 11, 13, 9, 6)
    assert a.dr_at("torso").armor == 4 and a.dr_at("left_foot").armor == 1
    skull = a.dr_at("skull")
    assert (skull.armor, skull.soft) == (2, 1)
    assert s.state.order == ("a", "b")
    assert s.state.fighter("b").posture is Posture.STANDING


def test_fighter_defaults_come_from_the_data_and_follow_an_override(tmp_path: Path) -> None:
    # rule: AR.GAP.2 (fighter defaults are data: HP, FP, Move, weight, defence and the guts-bonus plan
    # of a fighter that leaves them out follow match.fighter_defaults and match.combat, overrides too)
    rules = load_rules()
    fd = rules.match.fighter_defaults
    plain = build_fighter("x", "east")
    assert plain.weight_kg == fd.weight_kg
    assert plain.guts_bonus == GutsBonusPlan(tuple(fd.guts_bonus.checks), fd.guts_bonus.min_fp_after)
    d = rules.match.combat.defense_default
    assert plain.defense == sum(getattr(plain, a) for a in d.attributes) // d.divisor + d.add
    over = {
        "match": {
            "fighter_defaults": {
                "hp": "ht",
                "fp": "will",
                "move": {"attributes": ["dx"], "divisor": 2, "add": 1},
                "weight_kg": 95,
                "guts_bonus": {"checks": ["knockdown"], "min_fp_after": 5},
            },
            "combat": {"defense_default": {"add": 4}, "attack_skill_default": "iq"},
        }
    }
    f = build_fighter("x", "east", rules=load_rules(over), st=12, dx=13, iq=9, ht=11, will=14)
    assert (f.hp, f.fp, f.move, f.weight_kg, f.defense, f.skill) == (11, 14, 13 // 2 + 1, 95, 24 // 4 + 4, 9)
    assert f.guts_bonus == GutsBonusPlan((CheckKind.KNOCKDOWN,), 5)
    given = build_fighter("x", "east", rules=load_rules(over), weight_kg=60, defense=7, move=3)
    assert (given.weight_kg, given.defense, given.move) == (60, 7, 3)  # given values beat the data
    # a scenario's own rules_overrides reach its fighters
    text = GOOD.replace("name: Test bout", "name: Test bout\nrules_overrides: " + json.dumps(over))
    a = load_scenario(write(tmp_path, text)).state.fighter("a").profile
    assert (a.hp, a.fp, a.move, a.weight_kg, a.defense, a.skill) == (11, 10, 13 // 2 + 1, 95, 24 // 4 + 4, 10)
    assert a.guts_bonus == GutsBonusPlan((CheckKind.KNOCKDOWN,), 5)


def test_scripted_policy_plays_its_entries_then_falls_back(tmp_path: Path) -> None:
    s = load_scenario(write(tmp_path, GOOD))
    c = run_scenario(s, 4)
    played = [e.action for e in c.entries]
    b_actions = [a for a in played if a.get("actor") == "b"]
    assert b_actions[0] == {"kind": "guard", "actor": "b", "arm": "right_arm", "location": "skull"}
    # The script holds one entry; after it the fallback policy plays on (here it attacks).
    assert len(b_actions) > 1
    assert b_actions[1]["kind"] != "guard" and b_actions[1]["kind"] == "attack"


def test_every_problem_is_reported_with_line_and_field(tmp_path: Path) -> None:
    bad = (
        GOOD.replace("st: 12", "st: 0")
        .replace("{all: 1, torso: 4", "{all: 1, tail: 4")
        .replace("side: west", "side: west\n    colour: red")
    )
    with pytest.raises(ContentError) as err:
        load_scenario(write(tmp_path, bad))
    issues = err.value.issues
    fields = {i.field for i in issues}
    assert "fighters.0.st" in fields and "fighters.0.armor" in fields and "fighters.1.colour" in fields
    st_issue = next(i for i in issues if i.field == "fighters.0.st")
    assert st_issue.line == 5 and st_issue.file.endswith("bout.yaml")
    assert "unknown hit location" in next(i for i in issues if i.field == "fighters.0.armor").message


def test_one_side_or_duplicate_ids_are_content_errors(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="two sides"):
        load_scenario(write(tmp_path, GOOD.replace("side: west", "side: east")))
    with pytest.raises(ContentError, match="unique"):
        load_scenario(write(tmp_path, GOOD.replace("id: b", "id: a")))


def test_bad_script_entry_is_an_error_at_load(tmp_path: Path) -> None:
    with pytest.raises(KassenError):
        load_scenario(write(tmp_path, GOOD.replace("kind: guard", "kind: dance")))


def test_missing_file_names_the_bundled_scenarios(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="duel"):
        load_scenario(tmp_path / "nothing.yaml")


def test_rule_overrides_in_a_scenario_are_kept_in_the_state(tmp_path: Path) -> None:
    # rule: AR.RD.1 (readings switchable from data)
    text = GOOD.replace(
        "name: Test bout", "name: Test bout\nrules_overrides:\n  injury: {shock: {combine: max_each_summed}}"
    )
    s = load_scenario(write(tmp_path, text))
    assert s.state.rules.injury.shock.combine == "max_each_summed"
    with pytest.raises(ContentError):
        load_scenario(write(tmp_path, text.replace("max_each_summed", "sum")))
