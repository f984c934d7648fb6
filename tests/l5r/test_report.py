"""Every event the ruleset logs has words (kassen.core.report): a renderer per kind, found by reading the
package's source, and accounts that say the duel with names, rules and (verbose) every step."""

from __future__ import annotations

import ast
from pathlib import Path

from typer.testing import CliRunner

import kassen.l5r
from kassen.cli.main import app
from kassen.core.report import account, render_event
from kassen.l5r.ruleset import RULESET
from kassen.l5r.scenario import run_duel

SRC = Path(kassen.l5r.__file__).parent
#: Calls that log an event with its kind as the first argument (L5Turn.event; the core's Turn.log).
LOGGERS = {"event", "log"}
#: Handler factories whose first argument is the kind their handler logs (kassen.l5r.acts._ending).
FACTORIES = {"_ending"}


def _literals(expr: ast.expr) -> set[str] | None:
    """The string kinds ``expr`` can be: a literal, or a conditional between literals; else None."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        a, b = _literals(expr.body), _literals(expr.orelse)
        return None if a is None or b is None else a | b
    return None


class _Kinds(ast.NodeVisitor):
    def __init__(self, file: str) -> None:
        self.file = file
        self.kinds: set[str] = set()
        self.dynamic: list[str] = []
        self.functions: list[str] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name in LOGGERS | FACTORIES and node.args and not (name == "event" and self.file == "turn.py"):
            found = _literals(node.args[0])
            inside_factory = any(fn in FACTORIES for fn in self.functions)
            if found is not None:
                self.kinds |= found
            elif not inside_factory:  # the factory's handler logs the kind it was made with
                self.dynamic.append(f"{self.file}:{node.lineno}")
        self.generic_visit(node)


def logged_kinds() -> set[str]:
    """Every event kind the package's source can log."""
    kinds: set[str] = set()
    dynamic: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        visitor = _Kinds(path.name)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        kinds |= visitor.kinds
        dynamic += visitor.dynamic
    assert not dynamic, f"events logged with a kind that is not a literal: {dynamic}"
    return kinds


def test_every_logged_event_kind_has_a_renderer() -> None:
    kinds = logged_kinds()
    assert {"attack", "maim", "injury", "regain_grip", "remove_weapon", "struggle", "disengage"} <= kinds
    assert kinds <= set(RULESET.renderers), sorted(kinds - set(RULESET.renderers))
    assert set(RULESET.renderers) <= kinds, sorted(set(RULESET.renderers) - kinds)  # no stale renderer


def test_renderers_say_the_event_with_its_rule_and_steps() -> None:
    names = {"A": "A", "Crane": "Crane"}
    steps = [{"value": 10, "reason": "TN of the attack roll", "rule": "L5.CORE.3"}]
    attack = {"kind": "attack", "rule": "L5.CORE.3", "data": {"text": "A: attack on T - hit", "steps": steps}}
    assert render_event(RULESET, attack, names, verbose=False) == ["A: attack on T - hit  [L5.CORE.3]"]
    verbose = render_event(RULESET, attack, names, verbose=True)
    assert verbose[0] == "A: attack on T - hit  [L5.CORE.3]" and "TN of the attack roll" in verbose[1]
    turn = {"kind": "turn", "rule": "L5.CORE.8", "data": {"text": "turn 2", "turn": 2}}
    assert render_event(RULESET, turn, names, verbose=False) == ["", "== Turn 2 =="]
    declare = {"kind": "declare", "rule": "L5.CORE.8", "data": {"text": "A declares: wait"}}
    assert render_event(RULESET, declare, names, verbose=False) == ["  A declares: wait"]
    assert render_event(RULESET, declare, names, verbose=True) == ["  A declares: wait  [L5.CORE.8]"]


def test_the_generic_fight_command_and_the_duel_command_tell_the_same_account() -> None:
    runner = CliRunner()
    generic = runner.invoke(app, ["fight", "l5r/bridge-ambush", "--seed", "5"])
    own = runner.invoke(app, ["l5r", "duel", "bridge-ambush", "--seed", "5"])
    assert generic.exit_code == own.exit_code == 0
    body = account(run_duel("bridge-ambush", 5))

    def words(text: str) -> str:  # the console wraps long lines
        return " ".join(text.split())

    assert words(body) in words(generic.stdout) and words(body) in words(own.stdout)
    assert "no words for this event" not in body and "Result: " in body
