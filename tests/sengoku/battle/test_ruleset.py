"""The battle on the core's skeleton: who decides (``to_move``), one automatic step at a time
(``follow_up``), validation before anything is rolled, the GM's actions, content layers and a scenario's
own ``content:`` block, bounded memos, names, and words for every event kind the package can log."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
import yaml

import kassen
from kassen.content.content import read_layer
from kassen.core.engine import GM, Actor, Outcome, Snapshot, advance
from kassen.core.errors import ContentError, IllegalActionError
from kassen.core.fight import Fight, state_codec
from kassen.core.report import account
from kassen.core.rng import Rng
from kassen.sengoku.battle import (
    RULESET,
    BattleTurn,
    Begin,
    Breath,
    DecisionKind,
    Decline,
    Environment,
    GmEndCombat,
    GmSetWounds,
    Pass,
    Phase,
    React,
    load_scenario,
    names,
    run_battle,
)
from kassen.sengoku.battle.memo import PLANNERS, Memo
from kassen.sengoku.battle.plan import planner
from kassen.sengoku.battle.state import BattleState
from kassen.sengoku.catalog import load_catalog

from .helpers import BUNDLED, scenario, use
from .helpers import Fight as Driver

SRC = Path(kassen.__file__).parent / "sengoku"


# ------------------------------------------------------------------------------------------ to_move


def test_to_move_is_the_gm_a_unit_with_its_side_or_nobody() -> None:
    # rule: SG.RND.2 — the GM begins the battle; then the unit at the count breathes; an attacked unit
    # with a reservation decides its reaction; the GM decides the lull's environment roll (SG.LUL.3)
    f = Driver(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            yoma=True,
        )
    )
    assert f.to_move == GM and f.legal() == [Begin()]
    f.begin()
    assert f.to_move == Actor("unit", "genzaburo", "a")
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    assert f.to_move == Actor("unit", "oni", "b")
    f.breath("oni", use("heavy-blow", "genzaburo"))
    assert f.state.decision is not None and f.state.decision.kind is DecisionKind.REACTION
    assert f.to_move == Actor("unit", "genzaburo", "a")
    f.do(Decline("genzaburo"), 1, 2)
    while f.state.decision is not None and f.state.decision.kind is DecisionKind.BREATH:
        f.do(Pass(f.state.decision.unit))
    assert f.state.decision is not None and f.state.decision.kind is DecisionKind.ENVIRONMENT
    assert f.to_move == GM
    f.do(GmEndCombat(winner="a"))
    assert f.to_move is None and f.legal() == []
    assert RULESET.result(f.state) == Outcome("a", "the GM ends the combat")


# ------------------------------------------------------------------------------------------ follow_up


def test_follow_up_runs_one_automatic_step_at_a_time() -> None:
    # rule: SG.RND.2 — what the rules do by themselves after an action is drained one step at a time by
    # the core: each maneuver of the breath, then the combat-end check and the next unit at the count,
    # until someone must decide; by hand it gives what advance gives
    s = scenario(
        {"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"}
    )
    begun, _ = advance(RULESET, s.rules, Snapshot(s.state, Rng(3).state), Begin())
    breath = Breath("genzaburo", (use("horizontal-cut", "oni"), use("horizontal-cut", "oni"), use("parry")))
    expected, events = advance(RULESET, s.rules, begun, breath)
    rng = Rng.from_state(begun.rng)
    turn = RULESET.start(begun.state, rng, s.rules)
    assert isinstance(turn, BattleTurn)
    RULESET.resolve(turn, breath)
    assert turn.state.breath is not None and turn.state.breath.index == 0  # paid, nothing resolved yet
    steps = 0
    indexes = []
    while RULESET.follow_up(turn):
        steps += 1
        indexes.append(turn.state.breath.index if turn.state.breath is not None else None)
    assert indexes[:3] == [1, 2, 3] and steps >= 4  # one maneuver per step, then the count moves on
    assert turn.state == expected.state and tuple(turn.events) == events and rng.state == expected.rng
    assert turn.state.decision is not None and not RULESET.follow_up(turn)  # someone must decide


def test_an_illegal_action_is_refused_before_anything_is_rolled() -> None:
    # rule: SG.CNT.3 — the action is validated first: no face typed, yet the refusal names the rule
    # (a die drawn first would be a typed-dice error)
    fight = kassen.open_fight("sengoku/count-example", seed=1)
    fight.apply(Begin())
    with pytest.raises(IllegalActionError) as err:
        fight.apply(Breath("oni", (use("heavy-blow", "kuro"),)), dice=[])
    assert err.value.rule == "SG.CNT.3" and len(fight.entries) == 1
    with pytest.raises(IllegalActionError) as err:
        fight.apply(React("kuro", "parry"), dice=[])
    assert err.value.rule == "SG.RES.2"


def test_the_gms_actions_are_accepted_without_being_listed() -> None:
    # rule: SG.END.1 — the GM may set Wounds or end the combat at any time but during a reaction; they
    # are not the deciding unit's choices, so legal_actions does not list them
    fight = kassen.open_fight("sengoku/count-example", seed=1)
    fight.apply(Begin())
    assert not any(isinstance(a, GmSetWounds | GmEndCombat) for a in fight.legal_actions())
    events = fight.apply(GmSetWounds("oni", 2))
    assert events[0].kind == "gm_set_wounds" and fight.state.unit("oni").wounds == 2
    fight.apply(GmEndCombat("the oni flees", None))
    assert fight.over and fight.result == Outcome(None, "the oni flees")
    info = RULESET.info
    assert not info.legal_actions_complete and "any other legal breath" in info.legal_actions_note


# ------------------------------------------------------------------------------------------ content


def _big_oni(tmp_path: Path) -> Path:
    layer = tmp_path / "layer"
    layer.mkdir()
    oni = load_catalog().creature("oni").model_dump(mode="json", exclude_none=True)
    oni.update(name="Big Oni", wounds=9)
    (layer / "oni.yaml").write_text(yaml.safe_dump({"creatures": [oni]}), encoding="utf-8")
    return layer


def test_a_content_layer_changes_the_battle_and_its_hash_is_of_the_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rule: SG.WND.5 — a user's layer replaces the creature by id; the content hash is of the merged
    # data, so the same layer named by a relative or an absolute path has the same hash
    layer = _big_oni(tmp_path)
    fight = kassen.open_fight("sengoku/count-example", seed=2, content=[layer])
    assert fight.state.unit("oni").name == "Big Oni" and fight.content.hash != BUNDLED.hash
    assert fight.tables.catalog.creature("oni").wounds == 9
    monkeypatch.chdir(tmp_path)
    again = kassen.open_fight("sengoku/count-example", seed=2, content=[Path("layer")])
    assert again.content.hash == fight.content.hash
    assert fight.content.layers[1].entries.keys() == {"creatures.oni"}
    # restating the bundled entry as it is changes no data: the same hash as the bundled content
    same = tmp_path / "same.yaml"
    oni = load_catalog().creature("oni").model_dump(mode="json", exclude_none=True)
    same.write_text(yaml.safe_dump({"creatures": [oni]}), encoding="utf-8")
    assert RULESET.load_content([read_layer(same, "layer 1")]).hash == BUNDLED.hash


def test_a_scenarios_own_content_block_is_its_last_layer(tmp_path: Path) -> None:
    # rule: SG.WND.5 — a scenario's `content:` block is merged last; the chronicle records it, and the
    # replay rebuilds the same content from it
    oni = load_catalog().creature("oni").model_dump(mode="json", exclude_none=True)
    oni.update(name="Scenario Oni", wounds=7)
    data = {
        "ruleset": "sengoku",
        "name": "Own content",
        "seed": 5,
        "content": {"creatures": [oni]},
        "sides": [{"id": "a", "allies": True}, {"id": "b"}],
        "units": [{"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b"}],
    }
    path = tmp_path / "own.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    fight = kassen.open_fight(path)
    oni_unit = fight.state.unit("oni")
    assert (oni_unit.name, oni_unit.wounds) == ("Scenario Oni", 7)
    assert fight.content.layers[-1].label == "scenario"
    assert load_scenario(path).state == fight.state  # the ruleset's own loader takes the block too
    fight.autoplay()
    chronicle = json.loads(fight.log_json())
    assert chronicle["meta"]["content"]["scenario"]["creatures"][0]["name"] == "Scenario Oni"
    assert Fight.from_json(chronicle).log_json() == fight.log_json()
    # a problem inside the block is reported with the scenario's file, line and field
    data["content"] = {"creatures": [{**oni, "grade": "titan"}]}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        kassen.open_fight(path)
    (issue,) = err.value.issues
    assert issue.file == str(path) and issue.line is not None and issue.field == "creatures.oni.grade"


def test_the_bundled_scenarios_carry_the_header() -> None:
    # rule: SG.RND.2 — every bundled scenario names its ruleset, and the generic listing finds them
    from kassen.core.scenario import bundled_scenarios, read_scenario

    listed = {s.name: s.title for s in bundled_scenarios("sengoku")}
    assert listed == {
        "burning-temple": "The burning temple",
        "count-example": "The count example (SG.CNT.7)",
        "demo": "The raid at Kawanaka ford",
    }
    for name in listed:
        text = (SRC / "data" / "scenarios" / f"{name}.yaml").read_text(encoding="utf-8")
        assert "\nruleset: sengoku\n" in text
        assert read_scenario(name).ruleset == "sengoku"


# ------------------------------------------------------------------------------------------ memos


def test_memos_are_bounded_and_keyed_by_value(tmp_path: Path) -> None:
    # rule: SG.BRT.1 — the planners legal_actions, the heuristic and resolve share are found by value
    # (an equal state finds the same one) and never more than a few are kept
    memo: Memo[int, int] = Memo(3)
    for i in range(10):
        memo[i] = i
    assert len(memo) <= 3 and memo[9] == 9
    # full, it forgets the older half before taking a new reading, and keeps the newer ones
    memo = Memo(4)
    for i in range(4):
        memo[i] = i
    memo[1] = 10  # a key it holds: rewritten in place, nothing forgotten
    assert dict(memo) == {0: 0, 1: 10, 2: 2, 3: 3}
    memo[4] = 4
    assert dict(memo) == {2: 2, 3: 3, 4: 4}
    (tmp_path / "empty.yaml").write_text("{}\n", encoding="utf-8")
    content = RULESET.load_content([read_layer(tmp_path, "layer 1")])
    s = load_scenario("demo", content)
    run_battle(s, 4)
    rules = content.tables
    fight = kassen.open_fight("demo", seed=4)
    fight.autoplay()
    breaths = [st for st in fight.states if st.decision is not None and st.decision.kind.value == "breath"]
    for st in breaths:
        assert st.decision is not None
        first = planner(rules, st, st.unit(st.decision.unit))
        rules.scratch.value.last_planner = None  # found by value: an equal state read back finds it
        again = state_codec(BattleState).load(state_codec(BattleState).dump(st))
        assert again is not st and planner(rules, again, again.unit(st.decision.unit)) is first
        assert len(rules.scratch.value.planners) <= PLANNERS
    assert len(breaths) > PLANNERS  # more states than the memo keeps


# ------------------------------------------------------------------------------------------ words


def _logged_kinds() -> set[str]:
    """Every event kind the package logs: the literal first argument of each ``log``/``event``/``Event``
    call (both branches of a conditional), and the d100 tables' keys, which are logged by name."""
    kinds: set[str] = set()
    dynamic = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if name == "_consult" and len(node.args) > 1:  # attack.py's d100 tables: logged by their key
                arg = node.args[1]
                assert isinstance(arg, ast.Constant), ast.dump(arg)
                kinds.add(arg.value)
                continue
            if name not in ("log", "event", "Event"):
                continue
            found = [
                n.value for n in ast.walk(first) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
            if found:
                kinds.update(found)
            else:
                dynamic.append(ast.unparse(first))
    # the one forwarder (attack.py's _Log.event passes its `kind` on) and the d100 tables' own keys
    assert sorted(dynamic) == ["kind", "table.table"], dynamic
    return kinds


def test_every_event_kind_logged_has_a_renderer() -> None:
    # rule: SG.RND.2 — the account says every event in words: a renderer for each kind any part of the
    # ruleset logs (the battle flow and the attack resolution it runs)
    kinds = _logged_kinds()
    assert {"ambush", "incapacitated", "decisive_moment", "critical_mistake", "effect", "attack"} <= kinds
    assert kinds - set(RULESET.renderers) == set()
    assert set(RULESET.renderers) - kinds == set()  # and no renderer for a kind nobody logs


def test_an_account_names_units_and_maneuvers_and_every_line_has_words() -> None:
    # rule: SG.LUL.3 — yoma that arrive in the lull are named too ("Gaki 1"), never by id
    f = run_battle(load_scenario("demo"), 7)
    text = account(f, verbose=True)
    assert "no words for this event" not in text and "Result:" in text
    assert "Takeda Nobukado" in text and "Horizontal Cut" in text
    shown = names(f.initial_state)
    assert shown["gaki-2"] == "Gaki 2" and shown["maneuver:thrust"] == "Thrust"
    assert shown["party"] == "The raiders"
    with pytest.raises(KeyError):
        shown["nobody-at-all"]


def test_the_environment_decline_and_yoma_have_words() -> None:
    # rule: SG.LUL.3 — the GM's roll and the yoma it brings, told with their names
    f = Driver(scenario({"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b"}, yoma=True))
    f.begin()
    while f.state.decision is not None and f.state.decision.kind is DecisionKind.BREATH:
        f.do(Pass(f.state.decision.unit))
    f.do(Environment(), 60)
    fight = Fight(RULESET, f.content, f.scenario.state, 0)
    lines = account(fight, events=[e.to_json() for e in f.events])
    assert "Gaki 1 arrives" in lines and "gaki-1" not in lines
    assert f.state.phase is not Phase.START


def test_a_unit_may_play_a_core_policy_by_name() -> None:
    # rule: SG.CNT.3 — a scenario's unit may ask for `first-legal` or `random` (the core's policies,
    # through ByActor); the others keep the heuristic
    s = scenario(
        {"creature": "genzaburo", "side": "a"},
        {"creature": "oni", "side": "b", "zone": "own-front", "policy": "first-legal"},
        {"creature": "kuro", "side": "a", "policy": "random"},
    )
    assert s.policies == {"oni": "first-legal", "kuro": "random"}
    fight = s.fight(3)
    fight.autoplay()
    for i, entry in enumerate(fight.entries):
        if entry.actor is not None and entry.actor.id == "oni":
            assert entry.action == RULESET.legal_actions(fight.states[i], fight.tables)[0]
    again = s.fight(3)
    again.autoplay()
    assert again.log_json() == fight.log_json()  # random, but from the fight's seed
