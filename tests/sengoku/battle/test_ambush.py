"""Ambush: a property of the situation (SG.AMB.1), the shinobi's automatic Critical Hit (SG.AMB.2) and
ambush immunity (SG.AMB.3)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kassen.core.errors import ContentError
from kassen.sengoku.battle import Pass
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.catalog import load_catalog

from .helpers import CATALOG, NO_FATE, Fight, house, layer_content, scenario, use, write_house


def flank(*units: dict[str, object]) -> Fight:
    return Fight(scenario(*units)).begin()


@pytest.mark.parametrize("technique", ["horizontal-cut", "one-stroke-of-the-home-province"])
def test_a_basic_ambush_makes_the_target_defenseless(technique: str) -> None:
    # rule: SG.AMB.1 — house default: from a Flank Zone against a unit that has not yet taken a breath,
    # the first attack makes the target Defenseless (−4), whatever the technique (a weapon technique or a
    # school's secret art alike); with SG.RD.10's reading it is the status, so the second attack of the
    # breath finds it Defenseless too, though it is no ambush
    f = flank(
        {"creature": "genzaburo", "side": "a", "zone": "own-flank", "overrides": NO_FATE},
        {"creature": "oni", "side": "b", "zone": "own-flank"},
    )
    overload = (10, 9) if technique != "horizontal-cut" else ()  # 4 + 2 > 5: an overload check, passed
    events = f.breath(
        "genzaburo", use(technique, "oni"), use("horizontal-cut", "oni"), faces=(1, 2, 1, 2, *overload)
    )
    ambush = f.of("ambush", events)
    assert len(ambush) == 1 and ambush[0].rule == "SG.AMB.1"
    assert ambush[0].data["condition"] == "unseen-from-the-flank"
    first, second = f.of("attack", events)
    assert first.data["ambush"] and any(
        "Defenseless" in str(s["reason"]) for s in first.data["defense_steps"]
    )
    # the Oni: 10 + natural armor 2 = 12; [Pierce all] reaches its scales → 10; Defenseless −4
    assert first.data["defense"] == {"horizontal-cut": 8, "one-stroke-of-the-home-province": 6}[technique]
    assert second.data["defense"] == 8
    assert not second.data["ambush"]
    assert f.u("oni").defenseless and f.u("oni").ambushed
    assert f.of("defenseless", events)[0].data["cause"] == "an ambush"


def test_infiltrating_is_an_ambush_condition_too() -> None:
    # rule: SG.AMB.1 — a unit infiltrating (a successful Stealth Movement) ambushes with its first attack;
    # without the shinobi's trait it is the basic ambush
    f = flank(
        {
            "creature": "kuro",
            "side": "a",
            "zone": "own-flank",
            "overrides": {"traits": ["shinobi-arts"], **NO_FATE},
        },
        {"creature": "oni", "side": "b", "zone": "own-front"},
    )
    events = f.breath(
        "kuro", use("stealth-movement", to="own-front"), use("stroke-of-fire", "oni"), faces=(6, 5, 1, 2)
    )
    assert f.of("ambush", events)[0].data["condition"] == "infiltrating"
    assert f.of("attack", events)[0].data["defense"] == 8  # 12 − 4
    assert not f.u("kuro").infiltrating  # an attack reveals it


def test_the_shinobi_ambush_is_an_automatic_critical_hit_with_no_check() -> None:
    # rule: SG.AMB.2 — shinobi rank 3 [Ambush]: the first attack while infiltrating is an automatic
    # Critical Hit, no check; it replaces the basic ambush and adds no Defenseless; no check, so no reaction
    f = flank(
        {"creature": "kuro", "side": "a", "zone": "own-flank"},
        {"creature": "oni", "side": "b", "zone": "own-front"},
    )
    events = f.breath(
        "kuro",
        use("stealth-movement", to="own-front"),
        use("stroke-of-fire", "oni"),
        use("reverse-grip-cut", "oni"),
        faces=(6, 5, 1, 2, 10, 9),  # the stealth check, only the second attack, the overload check (6 > 5)
    )
    auto, plain = f.of("attack", events)
    assert auto.rule == "SG.AMB.2" and auto.data["automatic_critical"] and "faces" not in auto.data
    assert (auto.data["wounds_before"], auto.data["wounds_after"]) == (4, 2)
    assert "ambush" not in f.kinds(events) and not f.u("oni").defenseless
    assert plain.data["faces"] == [1, 2] and plain.data["defense"] == 12


def test_ambush_immunity_by_trait() -> None:
    # rule: SG.AMB.3 — house default: a vigilant unit cannot be ambushed
    f = flank(
        {"creature": "genzaburo", "side": "a", "zone": "own-flank"},
        {"creature": "oni", "side": "b", "zone": "own-flank", "overrides": {"traits": ["vigilant"]}},
    )
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(1, 2))
    assert f.of("ambush_immune", events)[0].rule == "SG.AMB.3"
    assert f.of("attack", events)[0].data["defense"] == 12


def test_a_unit_is_ambushed_once_per_combat(tmp_path: Path) -> None:
    # rule: SG.AMB.3 — house default: once ambushed, a unit is alert for the rest of the combat (here
    # under SG.RD.10's other reading, so the first ambush leaves no Defenseless behind to blur the second)
    content = house(tmp_path, "SG.RD.10", basic_ambush_releases_stance=False)
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-flank", "overrides": NO_FATE},
            {"creature": "genzaburo", "side": "a", "zone": "own-flank", "overrides": NO_FATE},
            {"creature": "oni", "side": "b", "zone": "own-flank"},
            content=content,
        )
    ).begin()
    events = f.breath("kuro", use("reverse-grip-cut", "oni"), faces=(1, 2))
    assert f.of("ambush", events) and f.u("oni").ambushed
    f.do(Pass("kuro"))  # still at 11 with Genzaburo, and first by Finesse
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(1, 2))
    assert f.of("ambush_immune", events) and not f.of("ambush", events)
    assert f.of("attack", events)[0].data["defense"] == 12


def test_an_unknown_ambush_condition_is_refused_when_the_rules_are_built(tmp_path: Path) -> None:
    # rule: SG.AMB.1 — the catalog's conditions are ids the engine can test; an unknown one is a content
    # error naming the rule and the id (it would otherwise silently never hold)
    conditions = [{"id": "in-the-dark", "text": "night"}, {"id": "infiltrating", "text": "infiltrating"}]
    path = write_house(tmp_path, "SG.AMB.1", conditions=conditions)
    cat = load_catalog([path])
    with pytest.raises(ContentError) as err:
        BattleRules(cat)
    assert "SG.AMB.1" in str(err.value) and "'in-the-dark'" in str(err.value)
    assert len(err.value.issues) == 1
    # the ruleset's content is built the same way, so loading it refuses the layer too
    with pytest.raises(ContentError, match="in-the-dark"):
        layer_content(path)


def test_the_zone_table_says_where_ambush_is_unlocked(tmp_path: Path) -> None:
    # rule: SG.AMB.1 — "attacks from a Flank Zone (which unlocks ambush)": the zones are the zone table's
    # unlock-ambush rows (SG.RD.2); moved to the Rear, an attack from the Rear ambushes and one from the
    # Flank does not
    table = CATALOG.house_default("SG.RD.2").model_dump(mode="json")
    for row in table["rows"]:
        if row["applies"] == "unlock" and "ambush" in row["select"]["keywords"]:
            row["zone"] = "rear"
    (tmp_path / "house.yaml").write_text(yaml.safe_dump({"house_defaults": [table]}), encoding="utf-8")
    cat = layer_content(tmp_path)
    for zone, ambushes in (("own-rear", True), ("own-flank", False)):
        f = Fight(
            scenario(
                {"creature": "genzaburo", "side": "a", "zone": zone},
                {"creature": "oni", "side": "b", "zone": zone},
                content=cat,
            )
        ).begin()
        events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(1, 2))
        assert bool(f.of("ambush", events)) is ambushes
