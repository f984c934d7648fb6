"""The rule texts shipped as package data (``<ruleset>/data/rules.yaml``) for ``kassen rules ID``.

Every file is well formed; when the rules ledger is present, every ledger ID has exactly one entry,
in ledger order, and its ``kind`` matches the ledger's marker.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml

LEDGER_DIR = Path(__file__).resolve().parents[3] / "shared" / "rules"
RULESETS = {
    "sengoku": ("kassen.sengoku.data", "sengoku.md"),
    "l5r": ("kassen.l5r.data", "l5r.md"),
    "arena": ("kassen.arena.data", "arena.md"),
}
KINDS = {"rule", "gap", "core", "reading"}
ID_LINE = re.compile(r"- \*\*((?:SG|L5|AR)\.[A-Z0-9]+\.\d+)\*\*(.*)")

needs_ledger = pytest.mark.skipif(not LEDGER_DIR.is_dir(), reason="rules ledger not available")


def load(ruleset: str) -> dict[str, Any]:
    package, _ = RULESETS[ruleset]
    data = yaml.safe_load((files(package) / "rules.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def ledger_kinds(ruleset: str) -> dict[str, str]:
    """Ledger ID -> kind, in ledger order.

    RD ids (``.RD.`` in the id) are readings; otherwise a bullet marked GAP (or "House default
    needed", the ledger's other way of writing a gap) is a gap; otherwise one marked CORE, on the
    bullet or on its section heading ("## Core mechanics (CORE)"), is core.
    """
    _, ledger = RULESETS[ruleset]
    kinds: dict[str, str] = {}
    heading = ""
    for line in (LEDGER_DIR / ledger).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            heading = line
            continue
        m = ID_LINE.match(line)
        if not m:
            continue
        rule_id, body = m.groups()
        if ".RD." in rule_id:
            kind = "reading"
        elif re.search(r"\bGAP\b", body) or "House default needed" in body:
            kind = "gap"
        elif re.search(r"\bCORE\b", body) or "(CORE)" in heading:
            kind = "core"
        else:
            kind = "rule"
        assert rule_id not in kinds, f"{rule_id} appears twice in {ledger}"
        kinds[rule_id] = kind
    return kinds


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_rule_texts_are_well_formed(ruleset: str) -> None:
    data = load(ruleset)
    assert set(data) == {"ruleset", "rules"}
    assert data["ruleset"] == ruleset
    rules = data["rules"]
    assert isinstance(rules, dict) and rules
    for rule_id, entry in rules.items():
        assert isinstance(entry, dict), rule_id
        assert set(entry) == {"title", "text", "kind"}, rule_id
        assert entry["kind"] in KINDS, rule_id
        for field in ("title", "text"):
            assert isinstance(entry[field], str) and entry[field].strip(), (rule_id, field)
        assert len(entry["text"]) <= 300, rule_id
        assert "\n" not in entry["text"], rule_id
        assert 1 <= len(entry["title"].split()) <= 5, rule_id


@needs_ledger
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_rule_texts_cover_the_ledger(ruleset: str) -> None:
    expected = ledger_kinds(ruleset)
    rules = load(ruleset)["rules"]
    assert set(rules) == set(expected)
    assert list(rules) == list(expected), "entries are not in ledger order"
    assert {i: e["kind"] for i, e in rules.items()} == expected


@needs_ledger
def test_sengoku_gaps_point_at_content_show() -> None:
    rules = load("sengoku")["rules"]
    for rule_id, entry in rules.items():
        if entry["kind"] == "gap":
            assert f"`kassen content show {rule_id}`" in entry["text"], rule_id
