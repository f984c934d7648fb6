"""The arena's content through the core's layers: the bundled sections, --content layers and a
scenario's own content block merged over them, every problem at once with file, line and field, one
hash of the merged data, and no tables in the state (AR.RD.1, AR.CORE.2: readings switched in data)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from kassen.arena.bout import BoutState
from kassen.arena.content import SECTIONS, bundled_content, load_content, load_rules
from kassen.content.content import ContentMismatchError, read_layer
from kassen.core.errors import ContentError
from kassen.core.fight import Fight, state_codec
from kassen.core.scenario import open_fight


def layer_dir(tmp_path: Path, files: dict[str, str], name: str = "layer") -> Path:
    root = tmp_path / name
    root.mkdir()
    for file, text in files.items():
        (root / file).write_text(text, encoding="utf-8")
    return root


def test_the_bundled_content_is_read_once_and_is_the_default() -> None:
    assert load_content([]) is bundled_content() is bundled_content()
    assert load_rules() is bundled_content().tables
    assert set(bundled_content().sections) == set(SECTIONS)


def test_a_layer_merges_over_the_bundled_data_by_file_or_by_section(tmp_path: Path) -> None:
    # rule: AR.RD.1, AR.CORE.2 — a file named after a section is that section's body; any other file
    # holds sections at its top level
    root = layer_dir(
        tmp_path,
        {
            "injury.yaml": "shock: {combine: max_each_summed}\n",
            "more.yaml": "checks:\n  contest: {tie_winner: first}\n",
        },
    )
    content = load_content([read_layer(root, "layer 1")])
    assert content.tables.injury.shock.combine == "max_each_summed"
    assert content.tables.checks.contest.tie_winner == "first"
    assert content.tables.injury.stun == bundled_content().tables.injury.stun  # the rest is kept
    assert content.hash != bundled_content().hash
    changed = {k for k, v in content.sections.items() if v != bundled_content().sections[k]}
    assert changed == {"injury", "checks"}
    assert set(content.layers[1].entries) == {"injury.shock", "checks.contest"}


def test_the_hash_is_of_the_merged_data_not_of_paths_or_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = layer_dir(tmp_path, {"injury.yaml": "shock: {combine: max_each_summed}\n"})
    monkeypatch.chdir(tmp_path)
    relative = load_content([read_layer(Path("layer"), "layer 1")])
    absolute = load_content([read_layer(root.resolve(), "layer 1")])
    assert relative.hash == absolute.hash
    same = layer_dir(
        tmp_path,
        {"more.yaml": "# restating the bundled reading\ninjury: {shock: {combine: one_max}}\n"},
        "same",
    )
    restated = load_content([read_layer(same, "layer 1")])
    assert restated.tables == bundled_content().tables and restated.hash == bundled_content().hash


def test_later_layers_win(tmp_path: Path) -> None:
    first = layer_dir(tmp_path, {"injury.yaml": "shock: {combine: max_each_summed}\n"}, "first")
    second = layer_dir(tmp_path, {"x.yaml": "injury: {shock: {combine: one_max}}\n"}, "second")
    content = load_content([read_layer(first, "layer 1"), read_layer(second, "layer 2")])
    assert content.tables.injury.shock.combine == "one_max"


def test_every_problem_of_every_layer_at_once_with_file_line_and_field(tmp_path: Path) -> None:
    root = layer_dir(
        tmp_path,
        {
            "injury.yaml": "# readings\nshock:\n  combine: sum\n",
            "more.yaml": "checks:\n  contest: {tie_winner: always}\nspells: {}\n",
        },
    )
    with pytest.raises(ContentError) as err:
        load_content([read_layer(root, "layer 1")])
    found = {(Path(i.file).name, i.field, i.line) for i in err.value.issues}
    assert ("injury.yaml", "injury.shock.combine", 3) in found
    assert ("more.yaml", "checks.contest.tie_winner", 2) in found
    assert ("more.yaml", "spells", 3) in found
    assert len(err.value.issues) == 3


def test_a_cross_reference_is_checked_after_merging() -> None:
    with pytest.raises(ContentError, match="default_location"):
        load_rules({"damage": {"basic": {"default_location": "tail"}}})


def test_no_tables_in_the_state() -> None:
    fields = {f.name for f in dataclasses.fields(BoutState)}
    assert not fields & {"overrides", "rules", "tables", "content"}
    fight = open_fight("arena/duel")
    text = json.dumps(state_codec(BoutState).dump(fight.state))
    assert "house_default" not in text and "attack_types" not in text


def test_the_scenario_block_is_the_last_layer_and_replays(tmp_path: Path) -> None:
    # rule: AR.RD.1 — a --content layer, then the scenario's own block over it
    layer = layer_dir(
        tmp_path, {"injury.yaml": "shock: {combine: max_each_summed}\nhead_blow: {reading: cumulative}\n"}
    )
    duel = (Path(__file__).parents[2] / "src/kassen/arena/data/bouts/duel.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(
        duel.replace("seed: 7", "seed: 7\ncontent:\n  injury: {shock: {combine: one_max}}"), "utf-8"
    )
    fight = open_fight(scenario, content=[layer])
    assert fight.tables.injury.shock.combine == "one_max"  # the scenario's block is last
    assert fight.tables.injury.head_blow.reading == "cumulative"  # the layer's other value stays
    assert [d.label for d in fight.content.layers] == ["bundled", "layer 1", "scenario"]
    fight.autoplay()
    again = Fight.from_json(json.loads(fight.log_json()), content=[layer])
    assert again.log_json() == fight.log_json()
    with pytest.raises(ContentMismatchError, match="--content"):
        Fight.from_json(json.loads(fight.log_json()))
