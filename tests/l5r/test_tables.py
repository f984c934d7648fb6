"""The tables are data: every house default is documented, every gap and reading is filled."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from kassen.core.errors import ContentError
from kassen.l5r.tables import L5Tables, content_hash, load_tables

DOCS = Path(__file__).parents[2] / "docs" / "l5r" / "house-defaults.md"


def test_every_gap_and_reading_has_a_house_default_in_data(tables: L5Tables) -> None:
    # rule: L5.GAP.1  rule: L5.RD.1  rule: L5.RD.2  rule: L5.RD.3 — each is filled in data, with a
    # rationale and the alternative reading.
    rules = {h.rule for _, h, _ in tables.house_defaults()}
    assert {"L5.GAP.1", "L5.RD.1", "L5.RD.2", "L5.RD.3", "L5.CLP.1"} <= rules
    assert {
        "L5.CORE.1",
        "L5.CORE.2",
        "L5.CORE.3",
        "L5.CORE.4",
        "L5.CORE.6",
        "L5.CORE.7",
        "L5.CORE.8",
    } <= rules
    for _, h, alternative in tables.house_defaults():
        assert len(h.rationale) > 40 and len(alternative) > 20


def test_every_house_default_has_a_docs_entry(tables: L5Tables) -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = tables.house_defaults()
    data = resources.files("kassen.l5r.data")
    in_files = sum(  # `house_default:` keys in the bundled YAML, counted in the text
        len(re.findall(r"^\s*house_default:", item.read_text(encoding="utf-8"), flags=re.M))
        for item in data.iterdir()
        if item.name.endswith(".yaml")
    )
    assert rows and len(rows) == in_files  # every house default in data is listed (and checked here)
    assert {p.split(".")[0] for p, _, _ in rows} == {"core", "called_shots", "special_attacks"}
    assert len({p for p, _, _ in rows}) == len(rows)
    for path, h, _ in rows:
        assert f"`{path}`" in text, path
        assert h.rule in text


def test_override_directory_and_hash(tmp_path: Path, tables: L5Tables) -> None:
    assert load_tables(tmp_path) == tables
    with pytest.raises(ContentError):
        load_tables(tmp_path / "missing")
    (tmp_path / "core.yaml").write_text("rings: {}\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_tables(tmp_path)
    assert all("core.yaml" in i.file for i in err.value.issues) and len(err.value.issues) > 3
    assert len(content_hash(tables)) == 64
