"""Events, the canonical JSON and the ruleset registry (the fight itself is tested in
test_fight_api.py and test_fight_conformance.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event, canonical_json
from kassen.core.ruleset import find_ruleset, registered_rulesets


def test_an_event_writes_only_what_it_has() -> None:
    assert Event("turn", {"n": 1}).to_json() == {"kind": "turn", "data": {"n": 1}}
    full = Event("lull", {}, "SG.LUL.1", automatic=True).to_json()
    assert full == {"kind": "lull", "data": {}, "rule": "SG.LUL.1", "automatic": True}


def test_canonical_json_is_sorted_compact_and_keeps_unicode() -> None:
    assert canonical_json({"b": 1, "a": ["合戦", None]}) == '{"a":["合戦",null],"b":1}'


def test_the_registry_finds_installed_rulesets_by_name_and_names_the_known_ones() -> None:
    assert {"sengoku", "l5r", "arena"} <= set(registered_rulesets())
    assert find_ruleset("arena").info.name == "arena"
    with pytest.raises(KassenError, match=r"unknown ruleset 'chess'.*known: .*arena"):
        find_ruleset("chess")
    with pytest.raises(KassenError, match="a ruleset name is a string"):
        find_ruleset(3)  # type: ignore[arg-type]


def test_listing_rulesets_imports_none_of_them() -> None:
    code = (
        "import sys\nfrom kassen.core.ruleset import registered_rulesets\nnames = registered_rulesets()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:2] in (['kassen', n] for n in names)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_illegal_action_error_keeps_the_bare_message_and_the_rule() -> None:
    err = IllegalActionError("not your count", rule="SG.CNT.3")
    assert err.message == "not your count" and err.rule == "SG.CNT.3"
    assert str(err) == "not your count (SG.CNT.3)"


def test_steps_to_json_is_each_steps_own_json() -> None:
    # Explainability, not a ledger rule: the log's steps are each step's own JSON, in order
    from kassen.core.explain import Step, steps_to_json

    steps = (Step(12, "Defense", "SG.CHK.1"), Step(-2, "Defense -2", ""), Step(0, "", "L5.CORE.1"))
    assert steps_to_json(steps) == [s.to_json() for s in steps]
    assert steps_to_json(iter(steps)) == [s.to_json() for s in steps]
    assert steps_to_json(()) == []
