"""Golden logs: every bundled scenario of every ruleset, seeds 0-9, replays to its pinned chronicle JSON
byte for byte (canonical form). A change that must alter them regenerates them in its own commit
(``python tests/golden/regenerate.py``) and says why."""

from __future__ import annotations

import json

import pytest
from golden_cases import HERE, SEEDS, cases, path_of, play

from kassen.core.events import canonical_json

CASES = [(r, s, seed) for r, s in cases() for seed in SEEDS]


def test_every_bundled_scenario_is_pinned() -> None:
    pinned = {p.relative_to(HERE) for p in HERE.glob("*/*.json")}
    wanted = {path_of(r, s, seed).relative_to(HERE) for r, s, seed in CASES}
    assert pinned == wanted


@pytest.mark.parametrize(("ruleset", "scenario", "seed"), CASES, ids=[f"{r}:{s}:{n}" for r, s, n in CASES])
def test_golden_log(ruleset: str, scenario: str, seed: int) -> None:
    pinned = json.loads(path_of(ruleset, scenario, seed).read_text("utf-8"))
    played = play(ruleset, scenario, seed)
    if "format" in pinned or "format" not in json.loads(played):
        assert played == canonical_json(pinned)
        return
    # Pinned by the old engine (chronicle format 1), played on the core (format 2): until the pins are
    # regenerated in their own commit, every action and every event must be the same, in order.
    new = json.loads(played)
    assert [(e["index"], _v1(e["action"]), _v1(e["events"])) for e in new["log"]] == [
        (e["index"], _v1(e["action"]), _v1(e["events"])) for e in pinned["log"]
    ]
    # (neither state carries its tables any more: they moved into the content)
    assert new["initial_state"] == pinned["initial_state"] or ruleset in ("arena", "l5r")


def _v1(data: object) -> object:
    """JSON in the form both codecs share: l5r's old codec tagged unions with "type" (its Act had the
    field "kind", now "do") and left out default fields; the core's codec writes "kind" and every field."""
    if isinstance(data, list):
        return [_v1(x) for x in data]
    if not isinstance(data, dict):
        return data
    out = {k: _v1(v) for k, v in data.items() if v not in (None, False, 0, "", [])}
    if "type" in out:
        if "kind" in out:
            out["do"] = out.pop("kind")
        out["kind"] = out.pop("type")
    return out
