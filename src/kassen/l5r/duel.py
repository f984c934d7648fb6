"""Running a duel: a scenario and a seed → a :class:`~kassen.core.events.Chronicle`, and its account.

>>> from kassen.l5r.scenario import load_scenario
>>> c = run_duel(load_scenario("kakita-vs-hida"), seed=3)
>>> c.is_over()
True
>>> Chronicle.replay(c.to_json()).log_json() == c.log_json()
True
"""

from __future__ import annotations

__all__ = ["account", "new_chronicle", "run_duel"]

from collections.abc import Iterable, Mapping
from typing import Any

from kassen.core.events import Chronicle, JSONValue
from kassen.core.explain import Step, format_steps
from kassen.l5r.actions import Action
from kassen.l5r.engine import RULESET
from kassen.l5r.policies import Policy, scenario_policy
from kassen.l5r.scenario import Scenario
from kassen.l5r.state import DuelState
from kassen.l5r.tables import content_hash


def new_chronicle(scenario: Scenario, seed: int) -> Chronicle[DuelState, Action]:
    """A chronicle at the start of ``scenario``: the initial state records the tables, ``meta`` their
    hash and the scenario's name (DESIGN principle 3)."""
    meta = {
        "scenario": scenario.state.name,
        "file": scenario.file,
        "content_hash": content_hash(scenario.state.tables),
    }
    return Chronicle(RULESET, scenario.state, seed, meta=meta)


def run_duel(
    scenario: Scenario, seed: int, *, policy: Policy | None = None, max_actions: int = 20_000
) -> Chronicle[DuelState, Action]:
    """Play ``scenario`` from ``seed`` to its end with its scripts and the heuristic."""
    chronicle = new_chronicle(scenario, seed)
    chronicle.run(policy or scenario_policy(scenario), max_actions=max_actions)
    return chronicle


def _steps(data: Mapping[str, Any]) -> list[Step]:
    return [Step(int(s["value"]), str(s["reason"]), str(s.get("rule", ""))) for s in data.get("steps", [])]


def account(
    log: Mapping[str, JSONValue] | Iterable[Mapping[str, JSONValue]], *, verbose: bool = False
) -> str:
    """A readable account of a duel from its JSON (:meth:`Chronicle.to_json`) or a list of events' JSON.

    Each event is one line (its rule in brackets); ``verbose`` adds every explanation step.
    """
    if isinstance(log, Mapping):
        events = [e for entry in log.get("log", []) for e in entry["events"]]
    else:
        events = list(log)
    lines: list[str] = []
    for e in events:
        kind = e.get("kind")
        data = e.get("data", {})
        rule = f"  [{e['rule']}]" if e.get("rule") else ""
        text = str(data.get("text", kind))
        if kind == "turn":
            lines.append("")
            lines.append(f"== {text.capitalize()} ==")
            continue
        if kind == "declare" and not verbose:
            lines.append(f"  {text}")
            continue
        lines.append(f"{text}{rule}")
        if verbose:
            steps = _steps(data)
            if steps:
                lines.extend("      " + line for line in format_steps(steps).splitlines())
    return "\n".join(lines).strip() + "\n"
