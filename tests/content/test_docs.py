"""``docs/sengoku/content.md`` is generated from the catalog and must be up to date."""

from __future__ import annotations

import re
from pathlib import Path

from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.catalog_docs import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "sengoku" / "content.md"


def test_the_content_doc_is_up_to_date() -> None:
    expected = render()
    regenerate = "python -m kassen.sengoku.catalog_docs > docs/sengoku/content.md"
    assert DOC.read_text(encoding="utf-8") == expected, f"the doc is stale: run `{regenerate}`"


def test_the_doc_lists_every_house_default_and_every_entry() -> None:
    text = DOC.read_text(encoding="utf-8")
    catalog = load_catalog()
    table_rules = set(re.findall(r"^\| (SG\.[A-Z0-9]+\.\d+) \|", text, flags=re.M))
    tables = ("grades", "defense", "resolution", "house_defaults")
    data_rules = {v.rule for v in catalog.house_defaults() if v.source.startswith(tables)}
    assert data_rules <= table_rules
    for _, key, _ in catalog.entries():
        assert f"| `{key}` |" in text, key


def test_the_override_example_in_the_doc_loads(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "house.yaml").write_text(example, encoding="utf-8")
    catalog = load_catalog([tmp_path])
    assert catalog.maneuver("heavy-blow").wounds == 3
    assert catalog.resolution.wounds.critical_reading == "double"
    assert catalog.house_default("SG.CNT.4").rationale.startswith("At our table")
