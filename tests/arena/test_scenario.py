"""YAML bout scenarios: validation with file, line and field; defaults; the scenario's own content block;
scripted policies (core ``Scripted``: undo rewinds them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kassen.arena.bout import Attack, Begin, SetGuard
from kassen.arena.content import bundled_content, load_rules
from kassen.arena.fighter import GutsBonusPlan, build_fighter
from kassen.arena.terms import CheckKind, MatchFormat, Posture
from kassen.core.errors import ContentError, KassenError
from kassen.core.fight import Fight
from kassen.core.policy import Scripted
from kassen.core.scenario import bundled_scenarios, open_fight

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


def load(path: Path | str, **kw: Any) -> Fight[Any, Any]:
    """A scenario file (no header needed: the arena's own loader) as a fight at its start."""
    return open_fight(path, ruleset="arena", **kw)


def test_bundled_scenarios_load_and_run() -> None:
    assert {"duel", "melee", "knockback", "pit"} <= {s.name for s in bundled_scenarios("arena")}
    melee = load("melee")
    assert melee.state.format is MatchFormat.FIGHT and len(melee.state.fighters) == 3
    goro = melee.state.fighter("goro")
    assert goro.altitude == 1 and goro.profile.reductions[0].subtract == 1
    melee.autoplay()
    assert melee.over


def test_bundled_scenarios_name_their_ruleset_in_the_header() -> None:
    for s in bundled_scenarios("arena"):
        assert s.ruleset == "arena"
        assert open_fight(s.name, ruleset="arena").meta["scenario"] == s.title


def test_defaults_and_armor_everywhere(tmp_path: Path) -> None:
    # rule: AR.GAP.2 (fighter defaults: skill = DX, defence = (DX + HT) / 4 + 3; HP = ST, FP = HT)
    s = load(write(tmp_path, GOOD))
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
    # a scenario's own content block reaches its fighters
    text = GOOD.replace("name: Test bout", "name: Test bout\ncontent: " + json.dumps(over))
    a = load(write(tmp_path, text)).state.fighter("a").profile
    assert (a.hp, a.fp, a.move, a.weight_kg, a.defense, a.skill) == (11, 10, 13 // 2 + 1, 95, 24 // 4 + 4, 10)
    assert a.guts_bonus == GutsBonusPlan((CheckKind.KNOCKDOWN,), 5)


def test_scripted_policy_plays_its_entries_then_falls_back(tmp_path: Path) -> None:
    s = load(write(tmp_path, GOOD), seed=4)
    s.autoplay()
    played = [s.action_json(e.action) for e in s.entries]
    b_actions = [a for a in played if a.get("actor") == "b"]
    assert b_actions[0] == {"kind": "guard", "actor": "b", "arm": "right_arm", "location": "skull"}
    # The script holds one entry; after it the fallback policy plays on (here it attacks).
    assert len(b_actions) > 1
    assert b_actions[1]["kind"] != "guard" and b_actions[1]["kind"] == "attack"


def test_undo_rewinds_a_script() -> None:
    # The script's place is derived from the actions played (core Scripted), so undo rewinds it: the
    # knockback scenario's Tetsu guards his skull first, whatever happened before the undo.
    fight = load("knockback", seed=3)
    assert isinstance(fight.policy, Scripted)
    guard = SetGuard("tetsu", "left_arm", "skull")
    fight.step()  # the referee's Begin
    assert fight.decide() == guard
    fight.step()
    assert fight.history[-1] == guard and fight.policy.remaining(fight.history)["tetsu"][0] != guard
    fight.undo()
    assert fight.policy.remaining(fight.history)["tetsu"][0] == guard
    assert fight.decide() == guard


def test_script_steps_are_stored_as_they_will_be_applied(tmp_path: Path) -> None:
    # rule: AR.DMG.1 — an attack step naming no location aims at the data's default location; an alias
    # is stored as its key: the steps equal the actions applied, so the script's place can be found
    text = GOOD.replace(
        "      - {kind: guard, arm: right_arm, location: skull}",
        "      - {kind: attack, target: a}\n      - {kind: attack, target: a, location: brain}",
    )
    fight = load(write(tmp_path, text), seed=4)
    assert isinstance(fight.policy, Scripted)
    assert fight.policy.scripts["b"] == (Attack("b", "a", "torso"), Attack("b", "a", "skull"))
    block = "content: {damage: {basic: {default_location: face}}}"
    moved = text.replace("name: Test bout", f"name: Test bout\n{block}")
    fight = load(write(tmp_path, moved), seed=4)
    assert isinstance(fight.policy, Scripted)
    assert fight.policy.scripts["b"][0] == Attack("b", "a", "face")
    fight.autoplay()
    b_attacks = [e.action for e in fight.entries if isinstance(e.action, Attack) and e.action.actor == "b"]
    assert b_attacks[:2] == [Attack("b", "a", "face"), Attack("b", "a", "skull")]


def test_every_problem_is_reported_with_line_and_field(tmp_path: Path) -> None:
    bad = (
        GOOD.replace("st: 12", "st: 0")
        .replace("{all: 1, torso: 4", "{all: 1, tail: 4")
        .replace("side: west", "side: west\n    colour: red")
    )
    with pytest.raises(ContentError) as err:
        load(write(tmp_path, bad))
    issues = err.value.issues
    fields = {i.field for i in issues}
    assert "fighters.0.st" in fields and "fighters.0.armor" in fields and "fighters.1.colour" in fields
    st_issue = next(i for i in issues if i.field == "fighters.0.st")
    assert st_issue.line == 5 and st_issue.file.endswith("bout.yaml")
    assert "unknown hit location" in next(i for i in issues if i.field == "fighters.0.armor").message


def test_one_side_or_duplicate_ids_are_content_errors(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="two sides"):
        load(write(tmp_path, GOOD.replace("side: west", "side: east")))
    with pytest.raises(ContentError, match="unique"):
        load(write(tmp_path, GOOD.replace("id: b", "id: a")))


def test_bad_script_entry_is_an_error_at_load(tmp_path: Path) -> None:
    with pytest.raises(KassenError):
        load(write(tmp_path, GOOD.replace("kind: guard", "kind: dance")))
    with pytest.raises(ContentError) as err:
        step = GOOD.replace("guard, arm: right_arm, location: skull", "attack, target: a, location: tail")
        load(write(tmp_path, step))
    [issue] = err.value.issues
    assert issue.field == "fighters.1.script.0.location" and issue.line == 13
    with pytest.raises(ContentError, match="begin"):
        load(write(tmp_path, GOOD.replace("{kind: guard, arm: right_arm, location: skull}", "{kind: begin}")))


def test_missing_file_names_the_bundled_scenarios(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="duel"):
        load(tmp_path / "nothing.yaml")


def test_rule_overrides_in_a_scenario_content_block_are_in_the_fights_content(tmp_path: Path) -> None:
    # rule: AR.RD.1 (readings switchable from data) — the scenario's content block is the last layer:
    # in the fight's content (never in the state), recorded in the chronicle's meta, replayed from it
    text = GOOD.replace(
        "name: Test bout", "name: Test bout\ncontent:\n  injury: {shock: {combine: max_each_summed}}"
    )
    s = load(write(tmp_path, text))
    assert s.tables.injury.shock.combine == "max_each_summed"
    assert s.content.hash != bundled_content().hash
    assert s.meta["content"]["scenario"] == {"injury": {"shock": {"combine": "max_each_summed"}}}
    s.step(), s.step()
    assert Fight.from_json(json.loads(s.log_json())).tables.injury.shock.combine == "max_each_summed"
    with pytest.raises(ContentError) as err:
        load(write(tmp_path, text.replace("max_each_summed", "sum")))
    [issue] = err.value.issues
    assert issue.field == "injury.shock.combine" and issue.line == 3 and issue.file.endswith("bout.yaml")


def test_the_old_rules_overrides_key_says_where_it_went(tmp_path: Path) -> None:
    text = GOOD.replace("name: Test bout", "name: Test bout\nrules_overrides: {injury: {}}")
    with pytest.raises(ContentError, match="content") as err:
        load(write(tmp_path, text))
    assert err.value.issues[0].field == "rules_overrides" and err.value.issues[0].line == 2


def test_a_file_with_another_rulesets_header_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="not a arena"):
        load(write(tmp_path, "ruleset: l5r\n" + GOOD))


def test_the_referee_begins_every_bout() -> None:
    # rule: AR.CORE.3
    for s in bundled_scenarios("arena"):
        fight = load(s.name)
        assert fight.legal_actions() == (Begin(),) and fight.to_move is not None
        assert fight.to_move.kind == "gm"
