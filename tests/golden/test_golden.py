"""Golden logs: every bundled scenario of every ruleset, seeds 0-9, replays to its pinned chronicle JSON
byte for byte (canonical form). A change that must alter them regenerates them in its own commit
(``python tests/golden/regenerate.py``) and says why."""

from __future__ import annotations

import json

import pytest
from golden_cases import HERE, SEEDS, cases, path_of, play

from kassen.core.events import canonical_json
from kassen.core.fight import Fight

CASES = [(r, s, seed) for r, s in cases() for seed in SEEDS]
#: Rulesets whose rules changed in the commit before their logs are re-pinned (in the next commit).
REPINNING: set[str] = set()


def test_every_bundled_scenario_is_pinned() -> None:
    pinned = {p.relative_to(HERE) for p in HERE.glob("*/*.json") if p.parent.name not in REPINNING}
    wanted = {path_of(r, s, seed).relative_to(HERE) for r, s, seed in CASES if r not in REPINNING}
    assert pinned == wanted


@pytest.mark.parametrize(("ruleset", "scenario", "seed"), CASES, ids=[f"{r}:{s}:{n}" for r, s, n in CASES])
def test_golden_log(ruleset: str, scenario: str, seed: int) -> None:
    if ruleset in REPINNING:
        pytest.skip("its rules changed: re-pinned in the next commit")
    expected = canonical_json(json.loads(path_of(ruleset, scenario, seed).read_text("utf-8")))
    assert play(ruleset, scenario, seed) == expected


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize(("ruleset", "scenario"), sorted(set(cases())))
def test_a_pinned_log_replays_as_identical(ruleset: str, scenario: str, seed: int) -> None:
    if ruleset in REPINNING:
        pytest.skip("its rules changed: re-pinned in the next commit")
    pinned = json.loads(path_of(ruleset, scenario, seed).read_text("utf-8"))
    assert Fight.from_json(pinned).log_json() == canonical_json(pinned)
