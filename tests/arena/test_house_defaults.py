"""Every gap, CORE default and reading has a house default in data, with a rationale, and a documented
entry with its alternative (AR.GAP.1, AR.GAP.2, AR.RD.1-7, AR.DMG.5, AR.DMG.6, AR.FAL.1, AR.KNB.1, AR.AUD.3,
AR.CORE.1-3)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from kassen.arena.content import load_rules

DOCS = Path(__file__).resolve().parents[2] / "docs" / "arena" / "house-defaults.md"
REQUIRED = {
    "AR.CORE.1", "AR.CORE.2", "AR.CORE.3", "AR.DMG.1", "AR.DMG.3", "AR.DMG.5", "AR.DMG.6", "AR.FAL.1",
    "AR.KNB.1", "AR.KNB.3", "AR.AUD.3", "AR.GAP.1", "AR.GAP.2", "AR.RD.1", "AR.RD.2", "AR.RD.3", "AR.RD.4",
    "AR.RD.5", "AR.RD.6", "AR.RD.7",
}  # fmt: skip


def house_defaults() -> list[tuple[str, str, dict[str, Any]]]:
    found: list[tuple[str, str, dict[str, Any]]] = []

    def walk(node: Any, path: str, file: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if str(key).endswith("house_default") and isinstance(value, dict):
                    found.append((file, f"{path}{key}", value))
                else:
                    walk(value, f"{path}{key}.", file)

    data = resources.files("kassen.arena.data")
    for item in sorted(data.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            walk(yaml.safe_load(item.read_text(encoding="utf-8")), "", item.name)
    return found


def test_every_gap_reading_and_core_default_has_a_house_default_in_data() -> None:
    # rule: AR.GAP.1, AR.GAP.2, AR.RD.1, AR.RD.2, AR.RD.3, AR.RD.4, AR.RD.5, AR.RD.6, AR.RD.7, AR.AUD.3
    blocks = house_defaults()
    rules = {b["rule"] for _, _, b in blocks}
    assert rules >= REQUIRED, sorted(REQUIRED - rules)
    for file, where, block in blocks:
        assert set(block) == {"rule", "rationale"}, (file, where)
        assert re.fullmatch(r"AR\.[A-Z]+\.\d+", block["rule"]), (file, where)
        assert len(block["rationale"]) > 60, (file, where)


def test_every_house_default_is_documented_with_its_alternative() -> None:
    text = DOCS.read_text(encoding="utf-8")
    sections = re.split(r"^### ", text, flags=re.M)[1:]
    documented: dict[str, str] = {}
    for section in sections:
        for rule in re.findall(r"AR\.[A-Z]+\.\d+", section.splitlines()[0]):
            documented[rule] = documented.get(rule, "") + section
    blocks = house_defaults()
    assert blocks and len(blocks) == _blocks_in_the_files()  # every block in data is checked
    assert {b["rule"] for _, _, b in blocks} >= REQUIRED
    for file, where, block in blocks:
        section = documented.get(block["rule"])
        assert section is not None, f"{block['rule']} ({file} {where}) has no section in {DOCS.name}"
        assert "*Alternative:*" in section, block["rule"]


def _blocks_in_the_files() -> int:
    """``house_default:`` keys (``timing_house_default:`` too) in the bundled YAML, counted in the text,
    not through the walker."""
    data = resources.files("kassen.arena.data")
    return sum(
        len(re.findall(r"^\s*\w*house_default:", item.read_text(encoding="utf-8"), flags=re.M))
        for item in data.iterdir()
        if item.name.endswith(".yaml")
    )


def test_the_loaded_models_keep_the_house_defaults() -> None:
    # rule: AR.RD.2, AR.RD.5, AR.RD.1
    r = load_rules()
    assert r.damage.crippling.house_default.rule == "AR.RD.2"
    assert r.injury.head_blow.house_default.rule == "AR.RD.5"
    assert r.injury.shock.house_default.rule == "AR.RD.1"
    assert r.falling.knockback.landing.house_default.rule == "AR.RD.3"
    assert r.match.popularity.readings.house_default.rule == "AR.RD.7"
