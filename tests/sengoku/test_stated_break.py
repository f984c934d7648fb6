"""A weapon's stated [Pierce N] + [Break] on a Critical Hit or a decisive blow (SG.BRK.4, SG.CRT.3), in the
attack resolution and ``kassen sengoku attack``; and the calculator's word on a fumble extra that does not
apply (SG.FUM.2)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.sengoku.attack import Attack, FixedDefense, resolve_attack
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.profile import ArmorKind, CombatProfile
from kassen.sengoku.resolution import load_resolution

runner = CliRunner()
CATALOG = load_catalog()


def _attack(*args: str) -> dict[str, object]:
    r = runner.invoke(app, ["sengoku", "attack", *args, "--json"])
    assert r.exit_code == 0, r.stdout
    data: dict[str, object] = json.loads(r.stdout)
    return data


def test_muramasa_breaks_heavy_armor_on_a_critical_hit() -> None:
    # rule: SG.BRK.4  rule: SG.CRT.3  rule: SG.BRK.2 — the command: a Critical Hit with Muramasa
    # ([Pierce 3] + [Break] on a critical, masterwork ≥ ordinary heavy armor) keeps 3 armor points off
    data = _attack("--weapon", "muramasa", "--faces", "5,5", "--modifier", "4", "--target-armor", "heavy")
    assert data["outcome"] == "critical" and data["armor_damage"] == 3
    events = data["events"]
    assert isinstance(events, list)
    [broken] = [e for e in events if e["kind"] == "armor_broken"]
    assert broken["data"]["lost"] == 3 and broken["data"]["source"] == "Muramasa on a Critical Hit"
    args = ["--weapon", "muramasa", "--faces", "5,5", "--modifier", "4", "--target-armor", "heavy"]
    text = runner.invoke(app, ["sengoku", "attack", *args]).stdout
    assert "[Break] (Muramasa on a Critical Hit): target's armor loses 3 point(s)" in text


def test_muramasa_on_a_plain_hit_keeps_the_armor_whole() -> None:
    # rule: SG.BRK.4 — the stated [Break] fires only on what its source names
    data = _attack("--weapon", "muramasa", "--faces", "5,6", "--modifier", "4", "--target-armor", "heavy")
    assert data["outcome"] == "hit" and data["armor_damage"] == 0


@pytest.mark.parametrize(
    ("faces", "reading", "kept"),
    [
        ((10, 10), "heavenly-mandate", 4),
        ((7, 7), "heavenly-mandate", 0),
        ((7, 7), "critical", 4),
        ((6, 7), "critical", 0),
        ((6, 7), "felling-blow", 4),
        ((6, 7), "heavenly-mandate", 0),
    ],
)
def test_excalibur_on_a_decisive_blow_by_reading(faces: tuple[int, int], reading: str, kept: int) -> None:
    # rule: SG.BRK.4  rule: SG.BRK.7 — "Excalibur (divine item) … [Pierce 4] + [Break] → 4 armor points
    # disappear until repaired" (divine ≥ masterwork), on a decisive blow as `stated_break.decisive_blow`
    # reads it: the house's Heavenly Mandate, or the other readings (any Critical Hit, a felling blow)
    rules = load_resolution().override("stated_break", decisive_blow=reading)
    commander = CombatProfile(
        name="commander", armor=ArmorKind.HEAVY, armor_grade="masterwork", wounds=1, wounds_max=3
    )
    tech = CATALOG.technique("excalibur")
    d100 = [1]  # Rhythm of Victory: a row that leaves the armor alone

    class Dice:
        def die(self, sides: int) -> int:
            return d100.pop()

    res = resolve_attack(
        CombatProfile(name="knight", weapon_grade="divine"),
        commander,
        Attack(tech, modifier=10),
        FixedDefense(12),
        faces,
        table_dice=Dice(),
        rules=rules,
        defense_rules=CATALOG.defense,
    )
    assert res.hit and res.target.armor_damage == kept


def test_a_stated_break_against_higher_grade_armor_only_holds() -> None:
    # rule: SG.BRK.3  rule: SG.BRK.4 — Muramasa (masterwork) against divine armor: the [Break] is void,
    # and the resolution says why
    aegis = CombatProfile(name="aegis", armor=ArmorKind.HEAVY, armor_grade="divine")
    res = resolve_attack(
        CombatProfile(name="blade"),
        aegis,
        Attack(CATALOG.technique("muramasa"), modifier=10),
        FixedDefense(12),
        (5, 5),
        defense_rules=CATALOG.defense,
    )
    assert res.target.armor_damage == 0
    [holds] = [e for e in res.events if e.kind == "armor_holds"]
    assert holds.rule == "SG.BRK.3" and "immune" in str(holds.data["why"])


def test_a_fumble_extra_on_a_non_fumble_says_it_does_not_apply() -> None:
    # rule: SG.FUM.2 — the GM's extras are added to a fumble: on a hit the calculator says they did nothing
    r = runner.invoke(app, ["sengoku", "attack", "--faces", "5,6", "--fumble-extra", "foot-slip"])
    assert r.exit_code == 0
    assert "--fumble-extra foot-slip: not applied (a hit, not a Fumble)" in r.stdout
    data = _attack("--faces", "5,6", "--fumble-extra", "foot-slip")
    assert data["fumble_extras_not_applied"] == ["foot-slip"]
    assert "fumble_extra" not in [e["kind"] for e in data["events"]]  # type: ignore[union-attr]
    fumbled = _attack("--faces", "1,2", "--modifier", "-5", "--fumble-extra", "foot-slip")
    assert fumbled["outcome"] != "fumble" or fumbled["fumble_extras_not_applied"] == []
    double = _attack("--faces", "2,2", "--modifier", "-5", "--fumble-extra", "foot-slip")
    assert double["outcome"] == "fumble" and double["fumble_extras_not_applied"] == []
