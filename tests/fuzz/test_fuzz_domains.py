"""Every number of every ruleset's scenario and content models has a range from the rules' own domain
(a house default where the seeds state none), and a scenario with its values at those limits opens,
lists what may be done and plays — or is refused with a KassenError — within 2 s of CPU.

``dx: 1000000000`` was inside the old catch-all (±1,000,000,000) and made an arena fighter's Move, and
the destinations its menu lists, run past 100 s; each range is now the field's own (``kassen.arena
.domain``, ``kassen.l5r.domain``, ``kassen.sengoku.domain``), shown by ``kassen schema scenario``.
The long run (``make test-slow``) sets every scenario number of every bundled scenario to each of its
limits, one at a time and all at once; the default run does all at once.
"""

from __future__ import annotations

import copy
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from domains import Number, content_models, numbers
from harness import TALLY

import kassen
from kassen.core.errors import KassenError
from kassen.core.ruleset import find_ruleset
from kassen.core.scenario import _bundled_files, bundled_scenarios
from kassen.sengoku.entries import Creature

#: The CPU one run may take: open the fight, list its actions and menus, play its first actions.
CPU_SECONDS = 2.0
#: Actions played in one run, each followed by the menu of whoever decides next.
ACTIONS = 12
#: The widest range a field may have (a seed excepted): past it a field is bounded in name only.
WIDEST = 10**6
#: A key to write under a mapping of numbers a scenario has not filled in.
KEYS = {"rings": "fire", "traits": "agility", "skills": "kenjutsu", "armor": "torso"}
SCENARIOS = [(s.ruleset, s.name) for s in bundled_scenarios() if s.ruleset in ("arena", "l5r", "sengoku")]


def scenario_numbers(ruleset: str) -> list[Number]:
    """The numbers of a ruleset's scenario, with a Sengoku unit's ``overrides`` (a catalog creature's
    fields) and ``inline`` template among them."""
    found = list(numbers(find_ruleset(ruleset).info.scenario_model))
    if ruleset == "sengoku":
        for where in ("overrides",):
            found += [Number(("units", "[]", where, *n.path), n.lo, n.hi, n.kind) for n in numbers(Creature)]
    return [n for n in found if n.path[-1] != "seed"]


@pytest.mark.parametrize("ruleset", ["arena", "l5r", "sengoku"])
def test_every_scenario_number_has_a_range_of_its_own(ruleset: str) -> None:
    found = list(numbers(find_ruleset(ruleset).info.scenario_model))
    assert found
    for n in found:
        assert n.lo is not None and n.hi is not None, f"{ruleset} scenario {n.text}: no range"
        assert n.path[-1] == "seed" or n.hi - n.lo <= WIDEST, f"{ruleset} scenario {n.text}: {n.lo}..{n.hi}"
    schema = find_ruleset(ruleset).info.scenario_model.model_json_schema()
    assert "maximum" in str(schema) and "minimum" in str(schema)


def test_every_content_number_has_a_range_of_its_own() -> None:
    models = content_models()
    assert {"arena", "l5r", "sengoku creatures", "sengoku resolution"} <= set(models)
    for name, model in models.items():
        for n in numbers(model):
            assert n.lo is not None and n.hi is not None, f"{name} {n.text}: no range"
            assert n.hi - n.lo <= WIDEST, f"{name} {n.text}: {n.lo}..{n.hi}"


def _set(node: Any, path: tuple[str, ...], value: Any) -> bool:
    """Write ``value`` at ``path`` under ``node`` (every item of a list, the mapping's keys or a usual
    one); False when the path leads nowhere in this scenario (no script steps to write into)."""
    head, rest = path[0], path[1:]
    if head == "[]":
        items = node if isinstance(node, list) else []
        return any([_set(item, rest, value) for item in items]) if rest else False
    if head == "*":
        if not isinstance(node, dict):
            return False
        keys = list(node) or [KEYS.get(path[-2] if len(path) > 1 else "", "x")]
        for key in keys:
            if rest:
                _set(node.setdefault(key, {}), rest, value)
            else:
                node[key] = value
        return True
    if not isinstance(node, dict):
        return False
    if not rest:
        node[head] = value
        return True
    child = node.get(head)
    if child is None:
        if rest[0] == "[]":
            return False
        child = node[head] = {}
    return _set(child, rest, value)


def _value(n: Number, side: str) -> Any:
    v = n.lo if side == "lo" else n.hi
    return float(v) if isinstance(v, Fraction) else v


def variants(ruleset: str, name: str, one_at_a_time: bool) -> list[tuple[str, dict[str, Any]]]:
    data = yaml.safe_load(_bundled_files(ruleset)[name].read_text("utf-8"))
    out = []
    for side in ("lo", "hi"):
        every = copy.deepcopy(data)
        for n in scenario_numbers(ruleset):
            _set(every, n.path, _value(n, side))
            if one_at_a_time:
                one = copy.deepcopy(data)
                if _set(one, n.path, _value(n, side)):
                    out.append((f"{n.text}={_value(n, side)}", one))
        out.append((f"every number at its {side}", every))
    return out


def run_at_limits(label: str, data: dict[str, Any], parent: Path) -> float:
    """Open, list and play the scenario ``data``; returns the CPU seconds it took (a refusal counts)."""
    path = Path(tempfile.mkdtemp(dir=parent)) / "limits.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    start = time.process_time()
    try:
        fight = kassen.open_fight(path, seed=1)
        fight.legal_actions()
        for _ in range(ACTIONS):
            if fight.over:
                break
            fight.menu([])
            fight.step()
        TALLY["successes"] += 1
    except KassenError:
        TALLY["clean errors"] += 1
    TALLY["inputs"] += 1
    took = time.process_time() - start
    if took > CPU_SECONDS:
        TALLY["over 2 s"] += 1
    return took


@pytest.mark.parametrize(("ruleset", "name"), SCENARIOS)
def test_a_scenario_with_every_number_at_a_limit_runs_or_is_refused(
    ruleset: str, name: str, workdir: Path
) -> None:
    for label, data in variants(ruleset, name, one_at_a_time=False):
        run_at_limits(f"{ruleset}/{name} {label}", data, workdir)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "name"), SCENARIOS)
def test_no_scenario_number_at_a_limit_takes_over_2_s(ruleset: str, name: str, workdir: Path) -> None:
    slow = []
    runs = variants(ruleset, name, one_at_a_time=True)
    assert len(runs) > 2 * len({n.path[0] for n in scenario_numbers(ruleset)})
    for label, data in runs:
        took = run_at_limits(f"{ruleset}/{name} {label}", data, workdir)
        if took > CPU_SECONDS:
            slow.append(f"{label}: {took:.2f} s")
    assert not slow, f"{ruleset}/{name}: over {CPU_SECONDS} s of CPU: {'; '.join(slow)}"
