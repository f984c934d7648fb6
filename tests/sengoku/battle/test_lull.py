"""The lull phase: automatic resets, upkeep maneuvers, environment variables (SG.LUL.1-3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import GM, DecisionKind, Decline, Environment, Pass, Upkeep

from .helpers import CATALOG, Fight, catalog_with, scenario, use


def to_lull_end(f: Fight) -> None:
    """Everyone passes through the rest of this round's count (stops at the lull's decisions, or at the
    next round)."""
    start = f.state.round
    while (
        f.state.round == start
        and f.state.decision is not None
        and f.state.decision.kind is DecisionKind.BREATH
    ):
        f.do(Pass(f.state.decision.unit))


def test_the_lull_removes_defenseless_and_expires_reservations() -> None:
    # rule: SG.LUL.1 — automatic: Defenseless removed, all reservations expire, as automatic events
    f = Fight(
        scenario({"creature": "genzaburo", "side": "a", "zone": "core"}, {"creature": "oni", "side": "b"})
    ).begin()
    f.breath("genzaburo", use("parry"), use("breakthrough", to="enemy-front"), faces=(1, 2))
    assert f.u("genzaburo").defenseless
    f.do(Pass("oni"))
    f.do(Pass("genzaburo"))  # a pass is no action: Defenseless stays until the lull
    lull = f.events[[e.kind for e in f.events].index("lull") :]
    ends = f.of("defenseless_ends", lull)[0]
    assert ends.automatic and ends.rule == "SG.LUL.1" and ends.data["when"] == "the lull phase"
    assert f.of("reservations_expire", lull)
    assert not f.u("genzaburo").defenseless and f.u("genzaburo").reservations == ()


def test_limited_maneuvers_reset_in_the_lull() -> None:
    # rule: SG.LUL.1 — counters of maneuvers limited "N rounds" reset (One Stroke: once per round)
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"}
        )
    ).begin()
    f.breath("genzaburo", use("one-stroke-of-the-home-province", "oni"), faces=(1, 2))
    f.do(Pass("oni"))
    with pytest.raises(IllegalActionError) as err:
        f.breath("genzaburo", use("one-stroke-of-the-home-province", "oni"))
    assert err.value.rule == "SG.LUL.1"
    to_lull_end(f)
    reset = f.of("limits_reset")[0]
    assert reset.rule == "SG.LUL.1" and reset.data["maneuvers"] == ["one-stroke-of-the-home-province"]
    assert f.state.round == 2
    f.breath("genzaburo", use("one-stroke-of-the-home-province", "oni"), faces=(1, 2))


def healer() -> Fight:
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "wounds": 3},
            {"id": "ochiyo", "creature": "shirabyoshi", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
        )
    ).begin()


def test_upkeep_maneuvers_in_the_lull_cost_no_energy() -> None:
    # rule: SG.LUL.2 — upkeep maneuvers (no Energy cost), only by upkeep-type traits: the Entertainer's
    # Flower of the Battlefield recovers 1 Wound (or Cohesion +1)
    f = healer()
    to_lull_end(f)
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.UPKEEP and d.unit == "ochiyo"
    legal = f.legal()
    assert Upkeep("ochiyo", "flower-of-the-battlefield", "genzaburo", "wounds") in legal
    assert Decline("ochiyo") in legal
    events = f.do(Upkeep("ochiyo", "flower-of-the-battlefield", "genzaburo", "wounds"))
    assert f.of("upkeep", events)[0].rule == "SG.LUL.2"
    assert f.of("wounds_recovered", events)[0].data == {"unit": "genzaburo", "before": 3, "after": 4}
    assert f.state.round == 2 and f.u("ochiyo").energy == f.u("ochiyo").max_energy


def test_upkeep_is_for_the_lull_only() -> None:
    # rule: SG.LUL.2 — a lull-only upkeep maneuver cannot be a breath's maneuver; nor can a unit
    # without the trait perform it
    f = healer()
    f.do(Pass("genzaburo"))
    with pytest.raises(IllegalActionError) as err:
        f.breath("ochiyo", use("flower-of-the-battlefield"))
    assert err.value.rule == "SG.LUL.2"
    to_lull_end(f)
    with pytest.raises(IllegalActionError) as err:
        f.do(Upkeep("genzaburo", "flower-of-the-battlefield", "genzaburo", "wounds"))
    assert err.value.rule == "SG.LUL.2"


def test_teppo_reload_in_the_lull() -> None:
    # rule: SG.LUL.2 — teppo-type weapons reload automatically during the lull
    f = Fight(
        scenario(
            {"creature": "ashigaru-gunner", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "core"},
        )
    ).begin()
    f.do(Pass("oni"))
    f.breath("ashigaru-gunner", use("teppo-shot", "oni"), faces=(1, 2))
    assert f.u("ashigaru-gunner").unloaded
    with pytest.raises(IllegalActionError) as err:
        f.breath("ashigaru-gunner", use("teppo-shot", "oni"))
    assert err.value.rule == "SG.LUL.2"
    to_lull_end(f)
    reload = next(e for e in f.of("reload") if e.automatic)
    assert reload.rule == "SG.LUL.2" and not f.u("ashigaru-gunner").unloaded


def test_the_cohesion_ward_holds_a_squad_above_rout_until_the_next_lull() -> None:
    # rule: SG.LUL.2 — the Pure Land Monk's upkeep keeps its squad from collapsing (house: SG.RET.5)
    f = Fight(
        scenario(
            {"id": "monk", "creature": "pure-land-monk", "side": "a"},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "cohesion": 1},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
        )
    ).begin()
    to_lull_end(f)
    f.do(Upkeep("monk", "cohesion-ward", "squad"))
    assert f.u("squad").ward and f.of("ward")[0].rule == "SG.RET.5"


def test_the_gm_may_roll_the_yoma_encounter_table() -> None:
    # rule: SG.LUL.3 — environment variables (GM): yoma intrusion on the d100 Yoma Encounter Table
    f = Fight(
        scenario({"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b"}, yoma=True)
    ).begin()
    to_lull_end(f)
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.ENVIRONMENT and d.unit == GM
    assert f.legal() == [Environment(), Decline(GM)]
    events = f.do(Environment(), 60)  # 51-70: three gaki in the Rear
    roll = f.of("yoma_roll", events)[0]
    assert roll.rule == "SG.LUL.3" and roll.data["roll"] == 60 and roll.data["name"] == "Hungry ghosts"
    gaki = [u for u in f.state.units if u.creature == "gaki"]
    assert (
        len(gaki) == 3 and {u.zone for u in gaki} == {"own-rear"} and {u.side for u in gaki} == {"intruders"}
    )
    assert f.state.round == 2 and all(u.energy == 8 for u in gaki)


def test_a_quiet_roll_and_a_skipped_one() -> None:
    # rule: SG.LUL.3 — the roll is optional: the GM may skip it; a quiet row brings nobody
    f = Fight(
        scenario({"creature": "genzaburo", "side": "a"}, {"creature": "oni", "side": "b"}, yoma=True)
    ).begin()
    to_lull_end(f)
    f.do(Environment(), 10)
    assert len(f.state.units) == 2 and f.state.round == 2
    to_lull_end(f)
    f.do(Decline(GM))
    assert f.of("environment_skipped") and f.state.round == 3


def test_a_limit_every_two_rounds_counts_from_the_round_of_use(tmp_path: Path) -> None:
    # rule: SG.LUL.1 — a maneuver limited "once every 2 rounds" used in round 2 is refused in round 3 and
    # open again in round 4: the counter resets N rounds after its first use, not on rounds divisible by N
    stroke = CATALOG.maneuver("one-stroke-of-the-home-province").model_dump(mode="json", exclude_none=True)
    stroke["limits"] = [{"uses": 1, "per": "round", "every": 2}]
    cat = catalog_with(tmp_path, {"maneuvers": [stroke]})
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            content=cat,
        )
    ).begin()
    to_lull_end(f)
    assert f.state.round == 2
    f.breath("genzaburo", use("one-stroke-of-the-home-province", "oni"), faces=(1, 2))
    to_lull_end(f)
    assert f.state.round == 3 and not f.of("limits_reset")
    while f.decider != "genzaburo":
        f.do(Pass(f.decider or ""))
    with pytest.raises(IllegalActionError) as err:
        f.breath("genzaburo", use("one-stroke-of-the-home-province", "oni"))
    assert err.value.rule == "SG.LUL.1"
    to_lull_end(f)
    assert f.state.round == 4
    reset = f.of("limits_reset")[0]
    assert reset.rule == "SG.LUL.1" and reset.data["maneuvers"] == ["one-stroke-of-the-home-province"]
    while f.decider != "genzaburo":
        f.do(Pass(f.decider or ""))
    f.breath("genzaburo", use("one-stroke-of-the-home-province", "oni"), faces=(1, 2))
