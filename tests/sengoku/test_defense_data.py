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
    # The data is validated: unknown keys, negative numbers, bad readings.
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
    wounds = {g.value: table.row(g).wounds for g in Grade}
    # The exact house table (docs/sengoku/content.md): pinned, so a change is a decision, not an accident.
    assert wounds == {"mob": 1, "minion": 2, "veteran": 4, "elite": 5, "lord": 6, "pc": 5}
    # The seed's anchors: one cut fells a Mob; a Lord endures more than a Veteran.
    assert wounds["mob"] == 1 and wounds["lord"] > wounds["veteran"]


def _hits_to_fall(grade: Grade, grades: object = None) -> int:
    from kassen.sengoku.wounds import apply_wounds

    target = CombatProfile(grade=grade)
    for hit in range(1, 20):
        change = apply_wounds(target, 1, grades=grades)  # type: ignore[arg-type]
        if change.incapacitated:
            return hit
        target = change.profile
    raise AssertionError("never fell")


def test_wounds_reading_veteran_still_standing_after_three() -> None:
    # rule: SG.RD.8 — house reading: an ashigaru is a Mob (falls to one cut); a Veteran "keeps hold of
    # the blade after three fatal wounds", so it is still standing after 3 hits and falls on the 4th.
    assert _hits_to_fall(Grade.MOB) == 1
    assert _hits_to_fall(Grade.VETERAN) == 4


def test_wounds_reading_alternative_veteran_three(tmp_path: Path) -> None:
    # rule: SG.RD.8 — the other reading (a Veteran has 3 Wounds) is one data change away.
    text = Path(load_grades.__code__.co_filename).with_name("data").joinpath("grades.yaml").read_text("utf-8")
    changed = text.replace("veteran: {defense: 10, wounds: 4}", "veteran: {defense: 10, wounds: 3}")
    assert changed != text
    path = tmp_path / "grades.yaml"
    path.write_text(changed, encoding="utf-8")
    assert _hits_to_fall(Grade.VETERAN, load_grades(path)) == 3


@pytest.mark.parametrize("module", [aim, breakage, defense, defenseless, energy, tags])
def test_docstring_examples(module: object) -> None:
    # The examples in the module docstrings run (they are documentation, not a rule's test).
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)  # type: ignore[arg-type]
    assert result.failed == 0
    assert result.attempted > 0
