"""Issue 14's reproducers, one test each: strict models everywhere (unknown keys and names refused with
a suggestion, numbers range-checked), limits on units named in the message and checked before the units
are read, and nothing written when an input is refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kassen
from kassen.cli.main import app
from kassen.core.errors import ContentError
from kassen.core.ruleset import find_ruleset
from kassen.core.scenario import _bundled_files
from kassen.sengoku.catalog import load_catalog


def bundled(ruleset: str, name: str) -> str:
    return _bundled_files(ruleset)[name].read_text("utf-8")


def refused(tmp_path: Path, text: str) -> str:
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        kassen.open_fight(path, seed=1)
    return str(info.value)


FIRST_BLOOD = bundled("l5r", "first-blood")
DUEL = bundled("arena", "duel")
KNOCKBACK = bundled("arena", "knockback")
COUNT = bundled("sengoku", "count-example")


# -- unknown keys: refused, with the nearest known one ---------------------------------------------------
@pytest.mark.parametrize(
    ("text", "old", "new", "words"),
    [
        (
            FIRST_BLOOD,
            "max_turns: 20",
            "max_turnz: 20",
            "max_turnz: unknown field (not in the format); did you mean 'max_turns'?",
        ),
        (
            DUEL,
            "    skill: 14",
            "    skil: 14",
            "fighters.0.skil: unknown field (not in the format); did you mean 'skill'?",
        ),
        (
            COUNT,
            "rounds: 6",
            "roundz: 6",
            "roundz: unknown field (not in the format); did you mean 'rounds'?",
        ),
        (
            COUNT,
            "overrides: {wounds: 8}",
            "overrides: {wouds: 8}",
            "overrides.wouds: unknown field (not in the format); did you mean 'wounds'?",
        ),
        (
            KNOCKBACK,
            "location: torso, all_out",
            "locaton: torso, all_out",
            "locaton: unknown field (fields: actor, target, location, all_out); did you mean 'location'?",
        ),
    ],
)
def test_an_unknown_key_is_refused_with_a_suggestion(
    tmp_path: Path, text: str, old: str, new: str, words: str
) -> None:
    assert old in text
    assert words in refused(tmp_path, text.replace(old, new, 1))


# -- names that refer to something --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "old", "new", "words"),
    [
        # rule: L5.CORE.1 (the skill a roll adds: a misspelt one would silently be 0)
        (
            FIRST_BLOOD,
            "kenjutsu: 3, defense: 2",
            "swordmanship: 3, defense: 2",
            "unknown skill 'swordmanship'",
        ),
        (
            FIRST_BLOOD,
            "kenjutsu: 3, defense: 1",
            "kenjutsuu: 4, defense: 1",
            "unknown skill 'kenjutsuu' (it would count as 0); did you mean 'kenjutsu'?",
        ),
        (
            FIRST_BLOOD,
            "attack: Doji Hana, damage",
            "attack: Doji Hanna, damage",
            "no character named 'Doji Hanna'; did you mean 'Doji Hana'?",
        ),
        (
            KNOCKBACK,
            "arm: left_arm, location: skull",
            "arm: left_arm, location: skulll",
            "unknown hit location 'skulll'; did you mean 'skull'?",
        ),
        (
            KNOCKBACK,
            "target: tetsu, location: torso",
            "target: tetsuu, location: torso",
            "no fighter 'tetsuu' in this bout; did you mean 'tetsu'?",
        ),
        (
            KNOCKBACK,
            "{kind: attack, target: tetsu",
            "{kind: atack, target: tetsu",
            "'atack' is not one of begin, attack",
        ),
        (
            DUEL,
            "armor: {torso: 3",
            "armor: {torsoo: 3",
            "unknown hit location 'torsoo'; did you mean 'torso'?",
        ),
        (
            COUNT,
            "maneuver: heavy-blow, target: genzaburo",
            "maneuver: heavy-blw, target: genzaburo",
            "unknown maneuver 'heavy-blw'; did you mean 'heavy-blow'?",
        ),
        (COUNT, "target: kuro}", "target: kuroo}", "no unit 'kuroo' in this battle; did you mean 'kuro'?"),
        (COUNT, "zone: own-flank", "zone: own-flnk", "did you mean 'own-flank'?"),
        (COUNT, "side: yoma", "side: yomma", "no side 'yomma' (sides: party, yoma); did you mean 'yoma'?"),
        (
            COUNT,
            "overrides: {wounds: 8}",
            "overrides: {wounds: 8, skills: {swordmanship: 2}}",
            "unknown skill 'swordmanship' (nothing rolls it); did you mean 'swordsmanship'?",
        ),
    ],
)
def test_a_misspelt_name_is_refused_with_a_suggestion(
    tmp_path: Path, text: str, old: str, new: str, words: str
) -> None:
    assert old in text
    assert words in refused(tmp_path, text.replace(old, new, 1))


def test_a_catalog_creature_with_a_skill_nothing_rolls_is_refused(tmp_path: Path) -> None:
    (tmp_path / "creatures.yaml").write_text(
        "creatures:\n  - id: ronin\n    name: Ronin\n    grade: veteran\n    weapons: [uchigatana]\n"
        "    skills: {swordmanship: 3}\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError, match=r"unknown skill 'swordmanship'.*did you mean 'swordsmanship'"):
        load_catalog([tmp_path])


def test_every_bundled_scenario_and_the_catalog_still_load() -> None:
    load_catalog()
    for ruleset in ("sengoku", "l5r", "arena"):
        for name in _bundled_files(ruleset):
            assert kassen.open_fight(f"{ruleset}/{name}", seed=0).units()


# -- numbers within what the rules allow ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "old", "new", "words"),
    [
        # rule: L5.CORE.1 (skill ranks stop at 10)
        (
            FIRST_BLOOD,
            "kenjutsu: 3, defense: 2",
            "kenjutsu: 1000000000000, defense: 2",
            "skills.kenjutsu: Input should be less than or equal to 10",
        ),
        (FIRST_BLOOD, "void: 3", "void: 11", "void: Input should be less than or equal to 10"),
        # rule: AR.GAP.2 (a skill within the house domain, 0 to 100: a 3d6 check is decided by 18)
        (
            DUEL,
            "skill: 14",
            "skill: 1000000000000",
            "fighters.0.skill: Input should be less than or equal to 100, got 1000000000000",
        ),
        # rule: AR.GAP.2 (attributes within the strength table's 1 to 100; dx 1e9 made Move run away)
        (DUEL, "dx: 12", "dx: 1000000000", "fighters.0.dx: Input should be less than or equal to 100"),
        # rule: SG.WND.5 (a unit's Wounds within the house domain, 1 to 20: a Lord has 6)
        (
            COUNT,
            "overrides: {wounds: 8}",
            "overrides: {wounds: 100000000000}",
            "overrides.wounds: Input should be less than or equal to 20, got 100000000000",
        ),
        (COUNT, "seed: 4", "seed: -4", "seed: Input should be greater than or equal to 0"),
        (COUNT, "rounds: 6", "rounds: yes", "rounds: expected a number, got true"),
        # a mapping that may hold numbers or records (arena armor): its numbers are bounded too
        (
            DUEL,
            "armor: {torso: 3, vitals: 3",
            "armor: {torso: 3, vitals: 1180591620717411303424",
            "armor.vitals.armor: Input should be less than or equal to 100, got 1180591620717411303424",
        ),
        # a title to print, at least one character: an empty one read "(seed 7): winner..."
        (DUEL, "name: Arena duel", 'name: ""', "name: String should have at least 1 character"),
        (FIRST_BLOOD, "name: A contest to first blood", 'name: ""', "name: String should have at least 1"),
    ],
)
def test_a_value_out_of_range_is_refused(tmp_path: Path, text: str, old: str, new: str, words: str) -> None:
    assert old in text
    assert words in refused(tmp_path, text.replace(old, new, 1))


# -- the unit limit ------------------------------------------------------------------------------------
def _battle(units: int) -> str:
    kinds = ("samurai", "ashigaru", "oni", "shinobi")
    lines = ["ruleset: sengoku", f"name: {units} units", "rounds: 1", "sides:", "  - {id: a, allies: true}"]
    lines += ["  - {id: b}", "units:"]
    lines += [f"  - {{creature: {kinds[i % 4]}, id: u{i}, side: {'ab'[i % 2]}}}" for i in range(units)]
    return "\n".join(lines) + "\n"


def test_a_battle_at_the_unit_limit_runs_a_few_seconds_at_most(tmp_path: Path) -> None:
    limit = find_ruleset("sengoku").info.max_units
    path = tmp_path / "limit.yaml"
    path.write_text(_battle(limit), encoding="utf-8")
    fight = kassen.open_fight(path, seed=1)
    start = time.perf_counter()
    for _ in range(20):
        if not fight.over:
            fight.step()
    assert len(fight.units()) == limit and len(fight.entries) >= 2
    assert (time.perf_counter() - start) / len(fight.entries) < 3.0  # seconds per action, on a busy machine


@pytest.mark.parametrize("ruleset", ["sengoku", "l5r", "arena"])
def test_one_unit_past_the_limit_is_refused_naming_it(tmp_path: Path, ruleset: str) -> None:
    limit = find_ruleset(ruleset).info.max_units
    if ruleset == "sengoku":
        text = _battle(limit + 1)
    elif ruleset == "l5r":
        text = "ruleset: l5r\nname: crowd\ncharacters:\n" + "".join(
            f"  - {{name: c{i}, side: s{i % 2}}}\n" for i in range(limit + 1)
        )
    else:
        text = "ruleset: arena\nname: crowd\nfighters:\n" + "".join(
            f"  - {{id: f{i}, side: s{i % 2}}}\n" for i in range(limit + 1)
        )
    message = refused(tmp_path, text)
    assert f"{limit + 1} " in message and f"at most {limit} (its ruleset's max_units)" in message


def test_thousands_of_units_are_refused_at_once(tmp_path: Path) -> None:
    start = time.perf_counter()
    message = refused(tmp_path, _battle(3000))
    assert "3000 units; a sengoku battle fields at most" in message
    assert time.perf_counter() - start < 2.0


# -- nothing written on refusal ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["play", "hostile.yaml", "--save", "out.json"],
        ["lab", "run", "hostile.yaml", "-n", "1", "--out", "out", "-q"],
        ["play", "l5r/first-blood", "--seed", "-1", "--save", "out.json"],
    ],
)
def test_a_refused_input_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hostile.yaml").write_text(
        FIRST_BLOOD.replace("kenjutsu: 3", "kenjutsuu: 3"), encoding="utf-8"
    )
    result = CliRunner().invoke(app, args, input="")
    assert result.exit_code == 2 and result.stderr.startswith("kassen: error: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile.yaml"]


@pytest.mark.parametrize("damage", ["３k2", "٣k2", "3k２"])
def test_a_weapon_rows_damage_is_ascii_digits_only(damage: str) -> None:
    """A table layer's weapon damage is read like every other number: ASCII digits (issue 14)."""
    # rule: L5.CORE.5
    from pydantic import ValidationError

    from kassen.l5r.tables import WeaponRow

    assert WeaponRow.model_validate({"damage": "3k2", "skill": "kenjutsu"}).damage == "3k2"
    with pytest.raises(ValidationError):
        WeaponRow.model_validate({"damage": damage, "skill": "kenjutsu"})


def test_a_tables_own_skill_is_known_once_a_layer_lists_it(tmp_path: Path) -> None:
    """The skill list the typo check reads is data (core.yaml ``skills.known``): a table's own skill is
    refused until the scenario's content (or a layer) lists it, then accepted and the duel plays out."""
    own = FIRST_BLOOD.replace("kenjutsu: 3", "naginata-jutsu: 3", 1)
    path = tmp_path / "own.yaml"
    path.write_text(own, encoding="utf-8")
    with pytest.raises(ContentError, match="unknown skill 'naginata-jutsu'"):
        kassen.open_fight(path)
    layered = own.replace(
        "ruleset: l5r\n", "ruleset: l5r\ncontent:\n  core:\n    skills:\n      known: [naginata-jutsu]\n", 1
    )
    path.write_text(layered, encoding="utf-8")
    fight = kassen.open_fight(path, seed=1)
    fight.autoplay()
    assert fight.result is not None


# -- a weapon's skill names the skill every attack with it rolls --------------------------------------------
def test_a_misspelt_inline_weapon_skill_is_refused(tmp_path: Path) -> None:
    # rule: L5.CORE.1 (an attack rolls the weapon's skill: a misspelt one made the character fight unskilled)
    inline = "    skills: {kenjutsu: 3, defense: 2}\n    weapon: {name: blade, damage: 3k2, skill: %s}\n"
    text = FIRST_BLOOD.replace("    skills: {kenjutsu: 3, defense: 2}\n", inline % "kenjutsuu", 1)
    assert text != FIRST_BLOOD
    words = refused(tmp_path, text)
    assert "weapon.skill: unknown skill 'kenjutsuu'" in words and "did you mean 'kenjutsu'?" in words
    fine = FIRST_BLOOD.replace("    skills: {kenjutsu: 3, defense: 2}\n", inline % "kenjutsu", 1)
    (tmp_path / "fine.yaml").write_text(fine, encoding="utf-8")
    assert kassen.open_fight(tmp_path / "fine.yaml", seed=1).units()


def test_a_misspelt_weapon_row_skill_in_a_layer_is_refused(tmp_path: Path) -> None:
    # rule: L5.CORE.5 (a weapon row: its damage and the skill it rolls)
    (tmp_path / "core.yaml").write_text(
        "weapons:\n  nodachi: {damage: 3k3, skill: kenjutsuu}\n", encoding="utf-8"
    )
    with pytest.raises(ContentError, match=r"nodachi.skill: unknown skill 'kenjutsuu'.*'kenjutsu'"):
        kassen.open_fight("l5r/first-blood", content=[tmp_path])
    row = "weapons:\n  nodachi: {damage: 3k3, skill: kenjutsu}\n"
    (tmp_path / "core.yaml").write_text(row, encoding="utf-8")
    assert kassen.open_fight("l5r/first-blood", content=[tmp_path]).units()


def test_a_misspelt_weapon_or_check_skill_in_a_sengoku_layer_is_refused(tmp_path: Path) -> None:
    # rule: SG.CHK.1 (a check adds the skill of the weapon, or the one the maneuver names)
    weapon = (
        "weapons:\n  - id: odachi\n    name: Odachi\n    reach: short\n    skill: swordmanship\n"
        "    attack_a: horizontal-cut\n    attack_b: thrust\n"
    )
    (tmp_path / "weapons.yaml").write_text(weapon, encoding="utf-8")
    with pytest.raises(ContentError, match=r"odachi.skill: unknown skill 'swordmanship'.*'swordsmanship'"):
        load_catalog([tmp_path])
    (tmp_path / "weapons.yaml").unlink()
    (tmp_path / "maneuvers.yaml").write_text(
        "maneuvers:\n  - id: wild-cut\n    name: Wild cut\n    kind: attack\n    cost: 2\n"
        "    check: {attribute: courage, skill: swordmanship}\n    wounds: 1\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError, match=r"wild-cut.check.skill: unknown skill 'swordmanship'"):
        load_catalog([tmp_path])
    # a new skill far from every known one is a skill of one's own (test_catalog_files: a naginata's
    # polearms); near a known one, held by a creature, it is one too
    (tmp_path / "maneuvers.yaml").unlink()
    (tmp_path / "weapons.yaml").write_text(weapon.replace("swordmanship", "odachi-jutsu"), encoding="utf-8")
    assert load_catalog([tmp_path]).weapon("odachi").skill == "odachi-jutsu"
    (tmp_path / "weapons.yaml").write_text(weapon.replace("swordmanship", "spears"), encoding="utf-8")
    with pytest.raises(ContentError, match=r"unknown skill 'spears' .*; did you mean 'spear'"):
        load_catalog([tmp_path])
    (tmp_path / "creatures.yaml").write_text(
        "creatures:\n  - id: ronin\n    name: Ronin\n    grade: veteran\n    weapons: [odachi]\n"
        "    skills: {spears: 3}\n",
        encoding="utf-8",
    )
    assert load_catalog([tmp_path]).creature("ronin").skills == {"spears": 3}


def test_the_cli_refuses_a_misspelt_sengoku_weapon_skill(tmp_path: Path) -> None:
    (tmp_path / "weapons.yaml").write_text(
        "weapons:\n  - id: odachi\n    name: Odachi\n    reach: short\n    skill: swordmanship\n"
        "    attack_a: horizontal-cut\n    attack_b: thrust\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["content", "validate", str(tmp_path)])
    assert result.exit_code == 2 and "did you mean 'swordsmanship'?" in result.stderr
