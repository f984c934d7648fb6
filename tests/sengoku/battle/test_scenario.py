"""Battle scenarios in YAML: bundled ones load; bad files report every problem with file, field, why."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kassen.core.errors import ContentError
from kassen.sengoku.battle import bundled_scenarios, load_scenario, run_battle

from .helpers import scenario


def test_bundled_scenarios() -> None:
    assert {"demo", "count-example"} <= set(bundled_scenarios())
    s = load_scenario("demo")
    assert s.file == "kassen/sengoku/data/scenarios/demo.yaml" and s.seed is not None
    assert [x.view for x in s.state.sides] == ["own", "enemy"]


def test_units_start_in_their_sides_start_zone_and_overrides_apply() -> None:
    # rule: SG.ZON.2 — units start in their own Front (house layout) unless the scenario places them
    s = scenario(
        {"creature": "genzaburo", "side": "a"},
        {"creature": "oni", "side": "b", "overrides": {"max_energy": 7, "attributes": {"finesse": 2}}},
        {"id": "thug", "inline": {"grade": "mob", "weapons": ["tanto"]}, "side": "b", "zone": "core"},
    )
    zones = {u.id: u.zone for u in s.state.units}
    assert zones == {"genzaburo": "own-front", "oni": "enemy-front", "thug": "core"}
    rules = s.rules
    oni = s.state.unit("oni")
    assert rules.armor_max_energy(oni)[0] == 7 and rules.attribute(oni, "finesse") == 2
    assert rules.creature(s.state.unit("thug")).name == "thug" and s.state.unit("thug").wounds_max == 1


def test_a_scenario_file_loads_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "name": "Two",
                "sides": [{"id": "a"}, {"id": "b"}],
                "units": [{"creature": "kuro", "side": "a"}, {"creature": "oni", "side": "b"}],
            }
        ),
        encoding="utf-8",
    )
    s = load_scenario(path)
    assert s.file == str(path) and s.state.max_rounds == 20


def test_every_problem_is_reported_with_file_field_and_why(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "name": "Bad",
                "sides": [{"id": "a"}, {"id": "b"}],
                "high_ground": ["hill"],
                "units": [
                    {"creature": "genzabro", "side": "a"},
                    {"creature": "oni", "side": "c", "zone": "moon"},
                    {"creature": "kuro", "side": "a", "overrides": {"max_energy": 0}, "stances": ["walk"]},
                    {
                        "creature": "oni",
                        "side": "b",
                        "script": [{"breath": [{"maneuver": "heavy-blow", "target": "nobody", "to": "x"}]}],
                    },
                ],
            }
        ),
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as err:
        load_scenario(path)
    fields = {i.field: i.message for i in err.value.issues}
    assert all(i.file == str(path) for i in err.value.issues)
    assert "did you mean genzaburo" in fields["units.0.creature"]
    assert "no side 'c'" in fields["units.1.side"] and "no zone 'moon'" in fields["units.1.zone"]
    assert "units.2.overrides.max_energy" in fields and "units.2.stances.0" in fields
    assert "given twice" in fields["units.3.id"]
    assert "no unit 'nobody'" in fields["units.3.script.0.breath.0.target"]
    assert "units.3.script.0.breath.0.to" in fields and "high_ground.0" in fields


def test_schema_errors_name_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "name": "Bad",
                "sides": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
                "units": [{"creature": "kuro", "inline": {}, "side": "a"}, {"side": "b"}],
                "colour": "red",
            }
        ),
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as err:
        load_scenario(path)
    fields = [i.field for i in err.value.issues]
    assert "sides" in fields and "colour" in fields and "units.0" in fields and "units.1" in fields
    assert all(i.line is not None for i in err.value.issues)


def test_an_unknown_scenario_names_the_bundled_ones() -> None:
    with pytest.raises(ContentError, match="bundled: burning-temple, count-example, demo"):
        load_scenario("no-such-battle")


def test_the_package_docstring_example_runs() -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module("kassen.sengoku.battle"))
    assert result.failed == 0 and result.attempted > 0


def test_the_burning_temple_shows_every_issue_13_mechanic_in_auto_play() -> None:
    # rule: SG.CRT.4  rule: SG.FUM.3  rule: SG.FUM.2  rule: SG.FAT.1  rule: SG.FAT.2  rule: SG.AIM.5
    # rule: SG.LUL.3  rule: SG.LUL.2 — the bundled scenario, played by itself with its own seed: both d100
    # tables roll and their rows take effect, the GM drops a fumbler's weapon (the auto-play default),
    # Fate turns a roll and stops a fatal blow, a bleeding unit loses a Wound in a lull and another's
    # wound is bound, the GM's fire, collapse and fog change the Core, the onmyoji sends her shikigami,
    # stances are declared
    fight = run_battle(load_scenario("burning-temple"))
    kinds = {e.kind for e in fight.events}
    assert {"decisive_moment", "critical_mistake", "table_effect"} <= kinds
    assert {"fumble_offered", "weapon_dropped", "fate_intervention", "last_bastion"} <= kinds
    assert {"bleeds", "wound_bound", "battlefield_change", "wounds_lost_to", "change_check"} <= kinds
    assert {"shikigami_moved", "stance"} <= kinds
    changes = [e.data["change"] for e in fight.events if e.kind == "battlefield_change"]
    assert changes == ["fire", "collapse", "fog"][: len(changes)] and len(changes) >= 2


def test_the_gms_script_is_checked_against_the_content() -> None:
    # rule: SG.LUL.3  rule: SG.FUM.2 — a GM step naming an unknown change, zone or fumble extra, or a
    # change in a scenario that does not open the battlefield to changes, is a content error naming it
    units = ({"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b"})
    with pytest.raises(ContentError) as err:
        scenario(*units, gm=[{"change": "flood", "zone": "core"}, {"fumble": ["sneeze"]}], changes=True)
    text = str(err.value)
    assert "'flood'" in text and "'sneeze'" in text
    with pytest.raises(ContentError, match="changes: true"):
        scenario(*units, gm=[{"change": "fire", "zone": "core"}])
    s = scenario(*units, gm=["skip", {"change": "fog", "zone": "core"}], changes=True)
    assert s.state.changes and len(s.scripts["gm"]) == 2
