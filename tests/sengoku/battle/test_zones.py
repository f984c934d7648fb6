"""Zones: their modifiers read as check or Energy numbers (SG.ZON.1, SG.RD.2), the layout, movement,
Breakthrough and Core Zone Exit (SG.ZON.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import Pass

from .helpers import CATALOG, Fight, house, scenario, use


def reasons(steps: list[dict[str, object]]) -> list[object]:
    return [s["reason"] for s in steps]


def test_front_zone_yari_plus_one_on_the_check() -> None:
    # rule: SG.ZON.1 — Front Zone: yari techniques +1 (a check modifier under SG.RD.2)
    f = Fight(
        scenario({"creature": "ashigaru", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"})
    ).begin()
    f.do(Pass("oni"))
    events = f.breath("ashigaru", use("spear-thrust", "oni"), faces=(1, 2))
    attack = f.of("attack", events)[0]
    assert attack.data["modifier"] == 2  # Finesse 0 + Spear 1 + 1
    step = next(s for s in attack.data["modifier_steps"] if "yari" in str(s["reason"]))
    assert step["rule"] == "SG.ZON.1" and step["value"] == 1


def test_core_zone_short_and_long_weapons_change_the_energy_cost() -> None:
    # rule: SG.ZON.1 — Core Zone: short weapons −1, long weapons +1 (Energy costs under SG.RD.2)
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "core"},
            {"creature": "oni", "side": "b", "zone": "core"},
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(1, 2))
    breath = f.of("breath", events)[0]
    assert breath.data["costs"] == [1]
    assert breath.data["cost_steps"][0][1]["rule"] == "SG.RD.2"
    f.do(Pass("genzaburo"))
    events = f.breath("oni", use("heavy-blow", "genzaburo"), faces=(1, 2))
    assert f.of("breath", events)[0].data["costs"] == [4]


def test_flank_zone_infiltration_plus_two() -> None:
    # rule: SG.ZON.1 — Flank Zone: Infiltration +2 (on the Stealth Movement check made from it)
    f = Fight(
        scenario({"creature": "kuro", "side": "a", "zone": "own-flank"}, {"creature": "oni", "side": "b"})
    ).begin()
    events = f.breath("kuro", use("stealth-movement", to="own-front"), faces=(1, 2))
    move = f.of("move", events)[0]
    assert move.data["check"]["modifier"] == 7  # Finesse 3 + Infiltration 2 + 2
    assert "own-flank: Infiltration +2" in reasons(move.data["check"]["steps"])
    assert move.data["moved"] and not move.data["infiltrating"]  # 1 + 2 + 7 = 10 < 11: seen, but moved


def test_rear_zone_upkeep_costs_one_less() -> None:
    # rule: SG.ZON.1 — Rear Zone: upkeep −1 Energy (house reading SG.RD.2: upkeep used during the count,
    # a teppo reload of 2 Energy)
    def reload_cost(zone: str) -> int:
        f = Fight(
            scenario(
                {"creature": "ashigaru-gunner", "side": "a", "zone": zone},
                {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            )
        ).begin()
        f.do(Pass("oni"))
        f.set_unit("ashigaru-gunner", unloaded=True)
        events = f.breath("ashigaru-gunner", use("reload"))
        assert not f.u("ashigaru-gunner").unloaded
        return int(f.of("breath", events)[0].data["costs"][0])

    assert (reload_cost("own-rear"), reload_cost("own-front")) == (1, 2)


def test_high_ground_ranged_plus_two_and_enemy_melee_minus_one() -> None:
    # rule: SG.ZON.1 — High ground: ranged +2, enemy melee −1 (against its occupant)
    f = Fight(
        scenario(
            {"creature": "ashigaru-gunner", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            high_ground=["own-front"],
        )
    ).begin()
    events = f.breath("oni", use("heavy-blow", "ashigaru-gunner"), faces=(1, 2))
    oni = f.of("attack", events)[0]
    assert oni.data["modifier"] == 4  # Physique 3 + Heavy weapons 2 − 1
    assert "own-front: enemy melee -1" in reasons(oni.data["modifier_steps"])
    events = f.breath("ashigaru-gunner", use("teppo-shot", "oni"), faces=(1, 2))
    assert f.of("attack", events)[0].data["modifier"] == 3  # Finesse 0 + Gunnery 1 + 2


def test_zone_numbers_are_read_by_the_house_table(tmp_path: Path) -> None:
    # rule: SG.RD.2 — the Core's short −1 is an Energy cost by the house reading; read as a check
    # modifier instead, the cut costs 2 and its check takes −1
    rows = [r.model_dump(mode="json") for r in CATALOG.house_default("SG.RD.2").rows]  # type: ignore[attr-defined]
    for r in rows:
        if r["zone"] == "core" and r["select"].get("reach") == ["short"]:
            r["applies"] = "check"
    cat = house(tmp_path, "SG.RD.2", rows=rows)
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "core"},
            {"creature": "oni", "side": "b", "zone": "core"},
            content=cat,
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(1, 2))
    assert f.of("breath", events)[0].data["costs"] == [2]
    assert f.of("attack", events)[0].data["modifier"] == 3


def test_walk_goes_to_an_adjacent_zone_only() -> None:
    # rule: SG.ZON.2 — house layout: Rear-Front-Core-Front-Rear with the Flanks; a walk moves one zone
    f = Fight(scenario({"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b"})).begin()
    with pytest.raises(IllegalActionError) as err:
        f.breath("genzaburo", use("walk", to="enemy-rear"))
    assert err.value.rule == "SG.ZON.2"
    f.breath("genzaburo", use("run", to="own-rear"), use("walk", to="own-flank"))
    assert f.u("genzaburo").zone == "own-flank" and f.u("genzaburo").energy == 8


def test_entering_an_enemy_held_zone_needs_a_breakthrough() -> None:
    # rule: SG.ZON.2 — entering a zone of the other side that holds an enemy needs Breakthrough (house:
    # 2d10 + Physique >= 11); a failure leaves the unit in place, Defenseless (SG.DFL.1)
    f = Fight(
        scenario({"creature": "genzaburo", "side": "a", "zone": "core"}, {"creature": "oni", "side": "b"})
    ).begin()
    with pytest.raises(IllegalActionError) as err:
        f.breath("genzaburo", use("walk", to="enemy-front"))
    assert err.value.rule == "SG.ZON.2"
    with pytest.raises(IllegalActionError):
        f.breath("genzaburo", use("breakthrough", to="enemy-flank"))  # nobody holds it: walk
    events = f.breath("genzaburo", use("breakthrough", to="enemy-front"), faces=(1, 2))
    assert f.u("genzaburo").zone == "core" and f.u("genzaburo").defenseless
    assert f.of("defenseless", events)[0].rule == "SG.DFL.1"
    f.do(Pass("oni"))
    f.breath("genzaburo", use("breakthrough", to="enemy-front"), faces=(6, 4))
    assert f.u("genzaburo").zone == "enemy-front" and not f.u("genzaburo").defenseless


def test_leaving_a_contested_core_needs_a_core_zone_exit() -> None:
    # rule: SG.ZON.2 — leaving the Core while an enemy holds it needs Core Zone Exit (house: 2d10 +
    # Finesse >= 11); failure: stays, Defenseless
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "core"},
            {"creature": "oni", "side": "b", "zone": "core"},
        )
    ).begin()
    with pytest.raises(IllegalActionError) as err:
        f.breath("genzaburo", use("walk", to="own-front"))
    assert err.value.rule == "SG.ZON.2"
    f.breath("genzaburo", use("core-zone-exit", to="own-front"), faces=(2, 3))
    assert f.u("genzaburo").zone == "core" and f.u("genzaburo").defenseless
    f.do(Pass("oni"))
    f.breath("genzaburo", use("core-zone-exit", to="own-front"), faces=(5, 5))
    assert f.u("genzaburo").zone == "own-front"
