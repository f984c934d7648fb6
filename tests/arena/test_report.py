"""Accounts in words (AR.OUT.1: the winner by name): a renderer for every event kind the arena logs,
found by reading the source, and every one of them exercised on real events."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import kassen.arena
from kassen.arena.bout import Attack, Cheer, Decline, Wait
from kassen.arena.bout.gm import GmAddCondition, GmEndBout, GmRemoveCondition, GmSetFp, GmSetHp
from kassen.arena.content import load_rules
from kassen.arena.fighter import Guard, Shock, Weapon
from kassen.arena.report import RENDERERS, names
from kassen.arena.ruleset import RULESET
from kassen.arena.terms import Condition, DamageType, MatchFormat, Posture
from kassen.core.events import Event
from kassen.core.policy import RandomPolicy
from kassen.core.report import account, render_event
from kassen.core.scenario import bundled_scenarios, open_fight

from .helpers import begun, edit, fighter, step

SOURCE = Path(kassen.arena.__file__).parent


def logged_kinds() -> tuple[set[str], list[str]]:
    """Every event kind passed as a literal to a ``.log(...)`` or ``.log_later(...)`` call under
    src/kassen/arena, and the places where a kind is not a literal (there must be none, or the test
    could not see them)."""
    kinds: set[str] = set()
    dynamic: list[str] = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("log", "log_later")
            ):
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    kinds.add(first.value)
                else:
                    dynamic.append(f"{path.relative_to(SOURCE)}:{node.lineno}")
    return kinds, dynamic


def test_every_logged_event_kind_has_a_renderer() -> None:
    kinds, dynamic = logged_kinds()
    assert not dynamic, f"event kinds computed at run time: {dynamic}"
    assert len(kinds) > 40
    assert kinds <= set(RENDERERS), sorted(kinds - set(RENDERERS))
    assert set(RENDERERS) <= kinds, sorted(set(RENDERERS) - kinds)  # no renderer for a kind never logged
    assert RULESET.renderers is RENDERERS


def _events() -> list[tuple[dict[str, Any], dict[str, str]]]:
    """(event, display names; empty when the ids are single letters that read as words)"""
    # Real events of every kind: bundled bouts played by their policies and at random, and the kinds
    # only a switched reading or a rare choice gives (fighters "a", "b", "g": their ids are not checked).
    out = []
    policies: tuple[RandomPolicy[Any, Any] | None, ...] = (None, RandomPolicy())
    for s in bundled_scenarios("arena"):
        for seed in range(6):
            for policy in policies:
                fight = open_fight(f"arena/{s.name}", seed=seed)
                fight.autoplay(policy, max_actions=3000)
                who = dict(names(fight.initial_state))
                out += [(e.to_json(), who) for e in fight.events]
    a = fighter("a", "east", dx=12, skill=14, weapon=Weapon("maul", "none", 3, 0, DamageType.CRUSHING))
    b = fighter("b", "west", defense=8)
    hp = load_rules({"injury": {"fatigue": {"below_zero": {"reading": "hp"}}}})
    state = edit(begun(a, b, rules=hp), "a", fp=0, hp=10)
    _, below = step(state, Attack("a", "b", all_out=True), [6, 6, 6], hp)
    state = edit(replace(begun(a, b), slot=1), "b", audience_points=1, shocks=(Shock("shock", 4, 2),))
    _, cleared = step(state, Cheer("b", "shake_it_off"))
    # FP 1 from an all-out attack's FP (the bundled bouts' heuristic no longer goes there), then a second wind
    state = edit(begun(a, b, format=MatchFormat.MATCH, faces=[6] * 6), "a", fp=2, audience_points=1)
    state, helpless = step(state, Attack("a", "b", all_out=True), [6, 6, 6])
    _, recovered = step(state, Cheer("a", "second_wind"))
    giant = fighter(
        "g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING)
    )
    weak = fighter("b", "west", defense=8, st=4, ht=16, hp=20)
    state = edit(begun(giant, weak), "b", guards=(Guard("left_arm", "skull"),))
    _, dropped = step(state, Attack("g", "b", "left_hand"), [1, 1, 2, 1, 1, 1, 1, 6, 6, 6])
    _, rooted = step(begun(giant, weak), Attack("g", "b", "left_leg"), [1, 1, 2, 1, 1, 1, 1, 6, 6, 6])
    lying = edit(begun(giant, weak), "b", posture=Posture.LYING)  # a leg knockback cannot fell it
    _, down = step(lying, Attack("g", "b", "left_leg"), [1, 1, 2, 1, 1, 1, 1, 6, 6, 6])
    # a head blow on a fighter already unconscious changes nothing (b cannot defend: no defence roll)
    state = edit(begun(a, b, fighter("c", "west")), "b", conditions=(Condition.UNCONSCIOUS,))
    _, further = step(state, Attack("a", "b", "skull"), [1, 1, 1, 2, 2, 2])
    # AR.RD.8's other reading: a second stunning hit renews the stun's cause
    latest = load_rules({"injury": {"guts": {"stun_cause": "latest_hit"}}})
    state, _ = step(begun(a, b, rules=latest), Attack("a", "b"), [3, 3, 3, 6, 6, 6, 2, 2, 1], latest)
    state, _ = step(state, Decline("b"), [1, 1, 2], latest)
    state, _ = step(state, Wait("b"), [6, 6, 6], latest)
    _, renewed = step(state, Attack("a", "b"), [3, 3, 3, 1, 1, 2, 2, 2, 3, 1, 1, 2], latest)
    extra = (*below, *cleared, *helpless, *recovered, *dropped, *rooted, *down, *further, *renewed)
    out += [(e.to_json(), {}) for e in extra]
    # the referee's own moves (issue 11)
    duel = open_fight("arena/duel", seed=3)
    duel.step()
    for move in (
        GmSetHp("ken", 5),
        GmSetFp("ken", 6),
        GmAddCondition("ryu", "stunned"),
        GmRemoveCondition("ryu", "stunned"),
        GmEndBout("east"),
    ):
        duel.apply(move)
    out += [
        (ev.to_json(), dict(names(duel.initial_state))) for entry in duel.entries[-5:] for ev in entry.events
    ]
    return out


def test_every_renderer_words_the_values_hidden_from_a_side() -> None:
    # rule: AR.GAP.2 — another side reads None where the visibility table hides a value: never "None"
    table = load_rules().visibility
    hidden: dict[str, set[str]] = {}
    for rule in table.events:
        hidden.setdefault(rule.kind, set()).update(rule.fields)
    seen: set[str] = set()
    for event, who in _events():
        fields = hidden.get(event["kind"], set()) & set(event["data"])
        if not fields:
            continue
        seen.add(event["kind"])
        redacted = {**event, "data": {**event["data"], **dict.fromkeys(fields)}}
        text = "\n".join(render_event(RULESET, redacted, who, verbose=True))
        assert "None" not in text and "{" not in text, text
        assert text != "\n".join(render_event(RULESET, event, who, verbose=True))
    assert seen == set(hidden)  # every event kind with a hidden field, on a real event


def test_every_renderer_says_real_events_in_words_with_names() -> None:
    seen: set[str] = set()
    for event, who in _events():
        seen.add(event["kind"])
        lines = render_event(RULESET, event, who, verbose=True)
        assert lines, event
        text = "\n".join(lines)
        assert "no words" not in text and "{" not in text, text
        for ident in (k for k, v in who.items() if k != v):  # the line names, never ids
            assert not re.search(rf"\b{re.escape(ident)}\b", lines[0]), (ident, text)
        assert f"[{event['rule']}]" in text
    assert seen == set(RENDERERS), sorted(set(RENDERERS) - seen)


def test_names_and_the_winner_by_name() -> None:
    # rule: AR.OUT.1
    fight = open_fight("arena/melee", seed=2)
    assert names(fight.state) == {
        "goro": "Goro",
        "aki": "Aki",
        "mei": "Mei",
        "giant": "Goro",
        "pair": "the pair side (Aki and Mei)",
    }
    fight.autoplay()
    assert fight.result is not None and fight.result.winner == "pair"
    text = account(fight)
    assert text.rstrip().endswith(
        "Result: winner: the pair side (Aki and Mei) (alone still standing after subturn 7)."
    )
    assert "Subturn 1  [AR.CORE.3]" in text


def test_a_check_is_told_with_its_faces_and_steps_when_verbose() -> None:
    # rule: AR.CORE.1
    event = Event(
        "check",
        {
            "fighter": "ken",
            "check": "guts",
            "against": "unconscious",
            "faces": [3, 5, 5],
            "roll": 13,
            "target": 12,
            "success": False,
            "margin": -1,
            "critical": False,
            "steps": [{"value": 12, "reason": "Will", "rule": "AR.GUT.1"}],
        },
        "AR.GUT.1",
    ).to_json()
    lines = render_event(RULESET, event, {"ken": "Ken"}, verbose=True)
    assert lines[0].strip() == (
        "Ken's guts (Will) check against unconsciousness: 3d6 = 3 + 5 + 5 = 13 against 12: failure by 1"
        "  [AR.GUT.1]"
    )
    assert "Will" in lines[1] and len(render_event(RULESET, event, {}, verbose=False)) == 1
