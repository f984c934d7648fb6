"""The shared content loader: YAML with line numbers, duplicate keys, layers merged by id."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from kassen.content import (
    HouseDefault,
    Origin,
    StrictModel,
    deep_merge,
    line_of,
    load_model,
    parse_yaml,
    validation_issues,
    yaml_sources,
)
from kassen.content.layers import merge_by_id
from kassen.content.yamlio import load_text
from kassen.core.errors import ContentError


class Row(StrictModel):
    name: str
    value: int


class Table(StrictModel):
    house_default: HouseDefault
    rows: dict[str, Row]


TEXT = """\
house_default:
  rule: SG.X.1
  rationale: because
rows:
  a: {name: A, value: 1}
  b:
    name: B
    value: two
"""


def test_load_text_still_names_file_line_and_field() -> None:
    with pytest.raises(ContentError) as info:
        load_text(TEXT, Table, "table.yaml")
    (issue,) = info.value.issues
    assert (issue.file, issue.field, issue.line) == ("table.yaml", "rows.b.value", 8)


def test_load_model_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(TEXT.replace("two", "2"), encoding="utf-8")
    assert load_model(path, Table).rows["b"].value == 2


def test_parse_yaml_reports_every_duplicate_key() -> None:
    text = "a: 1\nb:\n  x: 1\n  x: 2\na: 3\n"
    with pytest.raises(ContentError) as info:
        parse_yaml(text, "dup.yaml")
    found = {(i.field, i.line) for i in info.value.issues}
    assert found == {("b.x", 4), ("a", 5)}
    assert "first at line 3" in str(info.value.issues[0]) or "first at line 1" in str(info.value)


def test_parse_yaml_reports_invalid_yaml_with_its_line() -> None:
    with pytest.raises(ContentError) as info:
        parse_yaml("a: [1, 2\nb: 3\n", "bad.yaml")
    (issue,) = info.value.issues
    assert issue.field == "(yaml)" and issue.line is not None and "invalid YAML" in issue.message


def test_line_of_nested_keys_and_list_items() -> None:
    _, node = parse_yaml("top:\n  - id: a\n    deep:\n      x: 1\n  - id: b\n", "f.yaml")
    assert line_of(node, ("top", 1, "id")) == 5
    assert line_of(node, ("top", 0, "deep", "x")) == 4
    assert line_of(node, ("top", 0, "missing", "x")) == 2  # the nearest parent


def test_validation_issues_use_the_label_and_the_path_in_the_file() -> None:
    data, node = parse_yaml("items:\n  - {name: A, value: x}\n", "f.yaml")
    with pytest.raises(ValidationError) as info:
        Row.model_validate(data["items"][0])
    (issue,) = validation_issues(info.value, "f.yaml", node, prefix=("items", 0), label="items.A")
    assert (issue.field, issue.line) == ("items.A.value", 2)
    assert "got 'x'" in issue.message


def test_origin_names_its_entry_and_fields() -> None:
    _, node = parse_yaml("weapons:\n  - id: x\n    reach: far\n", "w.yaml")
    origin = Origin("w.yaml", node, ("weapons", 0), "weapons.x")
    assert origin.where() == "w.yaml:2"
    issue = origin.issue("bad reach", "reach")
    assert (issue.field, issue.line, str(issue)) == (
        "weapons.x.reach",
        3,
        "w.yaml:3: weapons.x.reach: bad reach",
    )


def test_merge_by_id_overrides_across_layers_and_refuses_duplicates_within_one() -> None:
    a1, a2, b1 = Origin("a.yaml", loc=(0,)), Origin("a2.yaml", loc=(0,)), Origin("b.yaml", loc=(0,))
    merged, issues = merge_by_id(
        [
            [("sword", 1, a1), ("bow", 2, a1)],
            [("sword", 10, b1), ("spear", 3, b1), ("spear", 4, a2)],
        ]
    )
    assert {k: v for k, (v, _) in merged.items()} == {"sword": 10, "bow": 2, "spear": 3}
    assert list(merged) == ["sword", "bow", "spear"]
    (issue,) = issues
    assert issue.file == "a2.yaml" and "duplicate id 'spear'" in issue.message and "b.yaml" in issue.message


def test_deep_merge_patches_key_by_key() -> None:
    base = {"wounds": {"hit": 1, "critical": 2}, "dice": 2}
    assert deep_merge(base, {"wounds": {"critical": 3}, "new": True}) == {
        "wounds": {"hit": 1, "critical": 3},
        "dice": 2,
        "new": True,
    }
    assert base["wounds"] == {"hit": 1, "critical": 2}  # never changed in place


def test_yaml_sources_of_a_directory_are_sorted_and_recursive(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text("{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yml").write_text("{}")
    (tmp_path / "notes.txt").write_text("x")
    assert [p.relative_to(tmp_path).as_posix() for p in yaml_sources(tmp_path)] == ["b.yaml", "sub/a.yml"]
    assert yaml_sources(tmp_path / "b.yaml") == [tmp_path / "b.yaml"]
