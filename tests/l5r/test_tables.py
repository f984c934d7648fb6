"""The tables are data: every house default is documented, every gap and reading is filled; a user's
layer merges over them section by section, validated with file, line and field."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from kassen.core.errors import ContentError
from kassen.l5r.content import bundled_content, content_for
from kassen.l5r.tables import L5Tables

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
    assert {p.split(".")[0] for p, _, _ in rows} == {"core", "called_shots", "special_attacks", "visibility"}
    assert len({p for p, _, _ in rows}) == len(rows)
    for path, h, _ in rows:
        assert f"`{path}`" in text, path
        assert h.rule in text


def test_override_directory_and_hash(
    tmp_path: Path, tables: L5Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A layer merges over the bundled tables key by key: one changed value, everything else bundled.
    (tmp_path / "core.yaml").write_text("tn_to_be_hit:\n  armor:\n    light: 7\n", encoding="utf-8")
    content = content_for(tmp_path)
    assert content.tables.core.tn_to_be_hit.armor == {"none": 0, "light": 7, "heavy": 10}
    assert content.tables.model_copy(update={"core": tables.core}) == tables
    # The hash is of the merged data: 64 hex digits, another than the bundled one, the same whatever
    # path names the layer.
    assert len(content.hash) == 64 and content.hash != bundled_content().hash
    monkeypatch.chdir(tmp_path.parent)
    assert content_for(tmp_path.name).hash == content.hash
    with pytest.raises(ContentError):
        content_for(tmp_path / "missing")
    # Every problem at once, each with the file, line and field of the layer that wrote it.
    (tmp_path / "core.yaml").write_text(
        "rings: {earth: 3}\n"
        "raises: {limit: sometimes}\n"
        "weapons: {katana: {damage: x}}\n"
        "full_defense: {bonus_divisor: 0}\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as err:
        content_for(tmp_path)
    assert all("core.yaml" in i.file for i in err.value.issues) and len(err.value.issues) > 3
    lines = {i.field.split(".")[1]: i.line for i in err.value.issues}
    assert lines == {"rings": 1, "raises": 2, "weapons": 3, "full_defense": 4}
