"""The Defense data file: values, house defaults, overrides, errors; the grade table it builds on."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from kassen.core.errors import ContentError
from kassen.sengoku import aim, breakage, defense, defenseless, energy, tags
from kassen.sengoku.defense import compute_defense, load_defense_rules
from kassen.sengoku.grades import load_grades
from kassen.sengoku.profile import ArmorKind, CombatProfile, Grade

BUNDLED = Path(defense.__file__).parent / "data" / "defense.yaml"


def test_armor_table_values_from_the_seed_text() -> None:
    # rule: SG.DEF.1 — the missing Defense table, filled from the text (SG.DEF.2, SG.DEF.7).
    rules = load_defense_rules()
    assert rules.armor.house_default.rule == "SG.DEF.1"
    rows = {k: (r.defense, r.energy_penalty) for k, r in rules.armor.rows.items()}
    assert rows == {
        ArmorKind.NONE: (0, 0),
        ArmorKind.LIGHT: (2, 0),
        ArmorKind.HEAVY: (4, 1),
        ArmorKind.HEAVY_BATTLE: (6, 2),
    }
    assert rules.armor.shield == 1


def test_every_gap_and_reading_has_a_house_default() -> None:
    # rule: SG.RD.3 rule: SG.RD.5 rule: SG.RD.7 rule: SG.RD.9 rule: SG.BRK.5 rule: SG.BRK.6 rule: SG.INC.4
    rules = load_defense_rules()
    ids = [h.rule for h in rules.house_defaults()]
    for rule in (
        "SG.DEF.1",
        "SG.DEF.7",
        "SG.RD.5",
        "SG.RD.3",
        "SG.RD.9",
        "SG.BRK.5",
        "SG.BRK.6",
        "SG.INC.4",
        "SG.RD.7",
        "SG.AIM.3",
    ):
        assert rule in ids
    assert all(len(h.rationale) > 80 for h in rules.house_defaults())


def test_bundled_rules_are_cached() -> None:
    # rule: SG.DEF.1
    assert load_defense_rules() is load_defense_rules()


def test_override_file(tmp_path: Path) -> None:
    # rule: SG.DEF.2 — a user's own table replaces the bundled one.
    text = BUNDLED.read_text(encoding="utf-8").replace(
        "heavy: {defense: 4, energy_penalty: 1, label: heavy armor}",
        "heavy: {defense: 5, energy_penalty: 1, label: o-yoroi}",
    )
    path = tmp_path / "defense.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_defense_rules(path)
    result = compute_defense(CombatProfile(armor=ArmorKind.HEAVY), rules=rules)
    assert result.defense == 15
    assert result.steps[-1].reason == "+5 o-yoroi"


def test_bad_override_reports_every_problem_with_its_line(tmp_path: Path) -> None:
    # rule: SG.BRK.5 — the data is validated: unknown keys, negative numbers, bad readings.
    text = BUNDLED.read_text(encoding="utf-8")
    text = text.replace("  shield: 1\n", "  shield: -1\n")
    text = text.replace("each_round: accumulate", "each_round: sometimes")
    text = text.replace("novice: {target_number: 11", "novice: {target_number: eleven")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_defense_rules(path)
    issues = info.value.issues
    fields = {i.field.split(".")[0] for i in issues}
    assert {"armor", "debuffs", "exorcism"} <= fields
    lines = text.splitlines()
    for issue in issues:
        assert issue.line is not None
        assert issue.file == str(path)
    shield = next(i for i in issues if i.field == "armor.shield")
    assert shield.line is not None
    assert "shield: -1" in lines[shield.line - 1]


def test_missing_rows_are_errors(tmp_path: Path) -> None:
    # rule: SG.INC.4 — every Exorcism rank needs a row.
    text = BUNDLED.read_text(encoding="utf-8").replace(
        "    saint: {target_number: immune, evasion_exempt: true}\n", ""
    )
    path = tmp_path / "short.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError, match="missing Exorcism ranks: saint"):
        load_defense_rules(path)


def test_wounds_by_grade_house_default() -> None:
    # rule: SG.WND.5 — a Mob falls to one cut; a Veteran endures three fatal wounds; a Lord more; PCs too.
    table = load_grades()
    assert table.house_default.rule == "SG.WND.5"
    wounds = {g: table.row(g).wounds for g in Grade}
    assert wounds[Grade.MOB] == 1
    assert wounds[Grade.LORD] > wounds[Grade.VETERAN]
    assert wounds[Grade.MOB] < wounds[Grade.MINION] < wounds[Grade.VETERAN] <= wounds[Grade.ELITE]
    assert wounds[Grade.PC] >= 1


def test_wounds_reading_veteran_still_standing_after_three() -> None:
    # rule: SG.RD.8 — house reading: an ashigaru is a Mob (one cut), a Veteran has 4 (standing after 3).
    table = load_grades()
    assert table.row(Grade.MOB).wounds == 1
    assert table.row(Grade.VETERAN).wounds - 3 >= 1


@pytest.mark.parametrize("module", [aim, breakage, defense, defenseless, energy, tags])
def test_docstring_examples(module: object) -> None:
    # rule: SG.DEF.5 — the examples in the module docstrings run.
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)  # type: ignore[arg-type]
    assert result.failed == 0
    assert result.attempted > 0
