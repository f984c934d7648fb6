"""User catalog files: merged over the bundled catalog by id; broken files give every error at once,
each with file, line and field, and nothing is loaded."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from kassen.core.errors import ContentError, ContentIssue
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.defense import compute_defense

BUNDLED = load_catalog()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dedent(text), encoding="utf-8")
    return path


def issues_of(*dirs: Path) -> list[ContentIssue]:
    with pytest.raises(ContentError) as info:
        load_catalog(dirs)
    return info.value.issues


def find(issues: list[ContentIssue], field: str) -> ContentIssue:
    matches = [i for i in issues if i.field == field]
    assert matches, f"no issue on {field}: {[str(i) for i in issues]}"
    return matches[0]


# ------------------------------------------------------------------------------------- merging


def test_user_content_adds_and_overrides_by_id(tmp_path: Path) -> None:
    write(
        tmp_path / "weapons.yaml",
        """\
        weapons:
          - id: naginata
            name: Naginata
            reach: long
            skill: polearms
            attack_a: overhead-cut
        """,
    )
    write(
        tmp_path / "units" / "bandit.yaml",
        """\
        creatures:
          - id: bandit
            name: Mountain bandit
            grade: minion
            armor: light-armor
            weapons: [naginata]
          - id: oni
            name: Great Oni
            grade: elite
            natural_armor: {value: 3, pierceable: true}
            weapons: [kanabo]
        """,
    )
    catalog = load_catalog([tmp_path])
    assert catalog.technique_for("bandit").weapon == "naginata"
    assert compute_defense(catalog.profile("bandit")).defense == 11
    assert catalog.creature("oni").name == "Great Oni"  # replaced whole: no max_energy of its own now
    assert catalog.max_energy("oni") == 11 and BUNDLED.max_energy("oni") == 10
    assert list(catalog.weapons)[-1] == "naginata" and "naginata" not in BUNDLED.weapons
    assert catalog.content_hash != BUNDLED.content_hash


def test_layers_apply_in_order_and_a_single_file_is_a_layer(tmp_path: Path) -> None:
    one = write(tmp_path / "one.yaml", "debuffs:\n  - {id: fear, name: Fear, value: 1, rounds: 1}\n")
    two = write(tmp_path / "two" / "x.yaml", "debuffs:\n  - {id: fear, name: Terror, value: 3}\n")
    catalog = load_catalog([one, two.parent])
    assert (catalog.debuff("fear").name, catalog.debuff("fear").value) == ("Terror", 3)


def test_patches_of_the_tables(tmp_path: Path) -> None:
    write(
        tmp_path / "table.yaml",
        """\
        grades:
          grades: {veteran: {wounds: 3}}
        resolution:
          wounds: {critical_reading: double}
        defense:
          debuffs: {each_round: renew}
        """,
    )
    catalog = load_catalog([tmp_path])
    assert catalog.grades.row(catalog.profile("oni").grade).wounds == 3
    assert catalog.resolution.wounds.critical_reading == "double"
    assert catalog.defense.debuffs.each_round == "renew"
    assert BUNDLED.resolution.wounds.critical_reading == "plus_one"


# ----------------------------------------------------------------------------------- broken files


def test_missing_field(tmp_path: Path) -> None:
    write(tmp_path / "m.yaml", "maneuvers:\n  - id: jab\n    name: Jab\n    kind: attack\n    wounds: 1\n")
    (issue,) = issues_of(tmp_path)
    assert (issue.file, issue.field, issue.line) == (str(tmp_path / "m.yaml"), "maneuvers.jab.cost", 2)
    assert issue.message == "required field is missing"


def test_wrong_type_and_unknown_key(tmp_path: Path) -> None:
    write(
        tmp_path / "m.yaml",
        """\
        maneuvers:
          - id: jab
            name: Jab
            kind: attack
            cost: two
            wounds: 1
            colour: red
        """,
    )
    issues = issues_of(tmp_path)
    cost = find(issues, "maneuvers.jab.cost")
    assert cost.line == 5 and "valid integer" in cost.message and "'two'" in cost.message
    extra = find(issues, "maneuvers.jab.colour")
    assert extra.line == 7 and "unknown field" in extra.message


def test_unknown_references(tmp_path: Path) -> None:
    write(
        tmp_path / "refs.yaml",
        """\
        weapons:
          - id: odd-sword
            name: Odd sword
            reach: short
            skill: swordsmanship
            attack_a: horizontal-slash
        maneuvers:
          - id: poison-cut
            name: Poison cut
            kind: attack
            cost: 2
            wounds: 1
            on_hit: [{effect: debuff, debuff: snake-venom}]
        creatures:
          - id: bandit
            name: Bandit
            grade: veteran
            armor: plate
            weapons: [odd-sword, nunchaku]
        house_defaults:
          - rule: SG.AMB.3
            rationale: Only sentinels.
            immune_traits: [sentinel]
            once_per_target: true
        """,
    )
    issues = issues_of(tmp_path)
    assert find(issues, "weapons.odd-sword.attack_a").message == (
        "unknown maneuver 'horizontal-slash'; did you mean horizontal-cut?"
    )
    assert find(issues, "weapons.odd-sword.attack_a").line == 6
    assert "unknown debuff 'snake-venom'" in find(issues, "maneuvers.poison-cut.on_hit.0.debuff").message
    assert find(issues, "creatures.bandit.armor").line == 18
    assert find(issues, "creatures.bandit.weapons.1").message.startswith("unknown weapon 'nunchaku'")
    assert "unknown trait 'sentinel'" in find(issues, "house_defaults.SG.AMB.3.immune_traits.0").message
    assert len(issues) == 5


def test_reference_to_the_wrong_kind(tmp_path: Path) -> None:
    write(
        tmp_path / "w.yaml",
        """\
        weapons:
          - id: parrying-dagger
            name: Parrying dagger
            reach: short
            skill: swordsmanship
            attack_a: parry
            techniques: [oni]
        """,
    )
    issues = issues_of(tmp_path)
    assert (
        find(issues, "weapons.parrying-dagger.techniques.0").message == "'oni' is a creature, not a maneuver"
    )
    assert (
        "'parry' is a defense maneuver, not an attack"
        in find(issues, "weapons.parrying-dagger.attack_a").message
    )


def test_duplicate_id_in_one_file_and_between_two_files(tmp_path: Path) -> None:
    entry = "  - {id: fear, name: Fear, value: 1}\n"
    write(tmp_path / "a.yaml", "debuffs:\n" + entry + entry)
    write(tmp_path / "b.yaml", "debuffs:\n" + entry)
    issues = issues_of(tmp_path)
    assert [(i.file, i.line) for i in issues] == [
        (str(tmp_path / "a.yaml"), 3),
        (str(tmp_path / "b.yaml"), 2),
    ]
    assert all(i.field == "debuffs.fear.id" and "duplicate id 'fear'" in i.message for i in issues)
    assert f"{tmp_path / 'a.yaml'}:2" in issues[1].message


def test_an_id_is_unique_across_kinds(tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "traits:\n  - {id: thrust, name: Thrust trait}\n")
    (issue,) = issues_of(tmp_path)
    assert issue.field == "traits.thrust.id" and "already a maneuver" in issue.message


def test_invalid_yaml_and_duplicate_keys(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", "weapons:\n  - id: x\n    name: [unclosed\n")
    write(tmp_path / "b.yaml", "debuffs:\n  - id: fear\n    name: Fear\n    value: 1\n    value: 2\n")
    issues = issues_of(tmp_path)
    assert [(i.file.rsplit("/", 1)[-1], i.field) for i in issues] == [
        ("a.yaml", "(yaml)"),
        ("b.yaml", "debuffs.0.value"),
    ]
    assert issues[0].line is not None and "invalid YAML" in issues[0].message
    assert issues[1].line == 5 and "given twice (first at line 4)" in issues[1].message


def test_file_structure_errors(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", "- just a list\n")
    write(tmp_path / "b.yaml", "weapons: {id: x}\nspells: []\nmaneuvers: [plain text]\ngrades: [1]\n")
    issues = issues_of(tmp_path)
    messages = {(i.file.rsplit("/", 1)[-1], i.field): i.message for i in issues}
    assert messages[("a.yaml", "(root)")] == "a content file is a mapping of sections"
    assert messages[("b.yaml", "weapons")] == "a section is a list of entries"
    assert messages[("b.yaml", "spells")].startswith("unknown section 'spells'; known: weapons")
    assert messages[("b.yaml", "maneuvers.0")] == "an entry is a mapping of fields"
    assert messages[("b.yaml", "grades")] == "a table is a mapping of fields"


def test_a_bad_patch_names_the_file_line_and_field(tmp_path: Path) -> None:
    write(tmp_path / "p.yaml", "resolution:\n  wounds:\n    critical_reading: triple\n")
    (issue,) = issues_of(tmp_path)
    assert (issue.field, issue.line) == ("resolution.wounds.critical_reading", 3)
    assert "'triple'" in issue.message


def test_semantic_errors(tmp_path: Path) -> None:
    write(
        tmp_path / "s.yaml",
        """\
        armor:
          - {id: mithril-shirt, name: Mithril shirt, armor: light, grade: mythic}
        maneuvers:
          - id: lunge
            name: Lunge
            kind: defense
            cost: 1
            reservable: true
        house_defaults:
          - rule: SG.CNT.4
            rationale: mine
            order: [finesse, allies-first]
          - rule: SG.XYZ.9
            rationale: none
        """,
    )
    issues = issues_of(tmp_path)
    assert "unknown equipment grade 'mythic'" in find(issues, "armor.mithril-shirt.grade").message
    assert "a defense maneuver needs `reaction`" in find(issues, "maneuvers.lunge").message
    assert "must end with setup-order" in find(issues, "house_defaults.SG.CNT.4.order").message
    assert find(issues, "house_defaults.SG.CNT.4.order").line == 12
    assert "unknown rule 'SG.XYZ.9'" in find(issues, "house_defaults.SG.XYZ.9").message


def test_a_missing_directory_is_an_error(tmp_path: Path) -> None:
    (issue,) = issues_of(tmp_path / "nowhere")
    assert issue.field == "(file)" and "no such file" in issue.message
    (tmp_path / "empty").mkdir()
    (issue,) = issues_of(tmp_path / "empty")
    assert "holds no .yaml" in issue.message


def test_every_error_at_once_and_nothing_loaded(tmp_path: Path) -> None:
    # Five broken files of every kind: one ContentError lists them all, sorted by file and line.
    write(tmp_path / "1-missing.yaml", "debuffs:\n  - {id: a, name: A}\n")
    write(tmp_path / "2-type.yaml", "debuffs:\n  - {id: b, name: B, value: lots}\n")
    write(tmp_path / "3-ref.yaml", "traits:\n  - {id: c, name: C, grants: [nothing-here]}\n")
    write(
        tmp_path / "4-dup.yaml", "debuffs:\n  - {id: d, name: D, value: 1}\n  - {id: d, name: D, value: 1}\n"
    )
    write(tmp_path / "5-yaml.yaml", "debuffs: [\n")
    issues = issues_of(tmp_path)
    assert [i.file.rsplit("/", 1)[-1] for i in issues] == [
        "1-missing.yaml",
        "2-type.yaml",
        "3-ref.yaml",
        "4-dup.yaml",
        "5-yaml.yaml",
    ]
    assert [i.field for i in issues[:4]] == [
        "debuffs.a.value",
        "debuffs.b.value",
        "traits.c.grants.0",
        "debuffs.d.id",
    ]
    # Nothing was loaded: the bundled catalog is the same object, unchanged.
    assert load_catalog() is BUNDLED and "a" not in BUNDLED.debuffs
