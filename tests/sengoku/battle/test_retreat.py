"""Retreat: where from and what it costs, squads and their Cohesion, pursuit (with the SG.RD.9 reading),
the honor follow-up, Rout (SG.RET.1-5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import Pass, Phase
from kassen.sengoku.house import RetreatRules

from .helpers import CATALOG, NO_FATE, Fight, house, scenario, use


def test_retreat_costs_three_from_ones_own_flank_or_rear_and_leaves_the_battlefield() -> None:
    # rule: SG.RET.1 — cost 3; only from one's own Flank or Rear Zone; the unit leaves the battlefield
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
        )
    ).begin()
    events = f.breath("kuro", use("retreat"))
    assert f.of("breath", events)[0].data["costs"] == [3]
    assert f.of("retreated", events)[0].rule == "SG.RET.1" and "pursuit" not in f.kinds(events)
    kuro = f.u("kuro")
    assert kuro.retreated and kuro.zone is None and kuro.energy == 9
    while f.state.round < 3:  # Kuro never decides again
        assert f.decider != "kuro"
        f.do(Pass(f.decider or ""))


def test_a_retreat_from_ones_own_flank_succeeds() -> None:
    # rule: SG.RET.1 — one's own Flank Zone is a retreat zone as much as the Rear: cost 3, the unit leaves
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-flank"},
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
        )
    ).begin()
    events = f.breath("kuro", use("retreat"))
    assert f.of("breath", events)[0].data["costs"] == [3]
    assert f.of("retreated", events)[0].rule == "SG.RET.1"
    kuro = f.u("kuro")
    assert kuro.retreated and kuro.zone is None and kuro.energy == 9


@pytest.mark.parametrize("zone", ["core", "own-front", "enemy-flank", "enemy-rear"])
def test_no_retreat_from_other_zones(zone: str) -> None:
    # rule: SG.RET.1 — from the Core Zone (or any zone but one's own Flank or Rear) a retreat is refused
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": zone}, {"creature": "oni", "side": "b", "zone": "core"}
        )
    ).begin()
    before = f.state
    with pytest.raises(IllegalActionError) as err:
        f.breath("kuro", use("retreat"))
    assert err.value.rule == "SG.RET.1" and f.state is before


def test_nothing_follows_a_retreat() -> None:
    # rule: SG.RET.1 — the unit can no longer act in that combat, not even in the same breath
    f = Fight(
        scenario({"creature": "kuro", "side": "a", "zone": "own-flank"}, {"creature": "oni", "side": "b"})
    ).begin()
    with pytest.raises(IllegalActionError) as err:
        f.breath("kuro", use("retreat"), use("walk", to="own-rear"))
    assert err.value.rule == "SG.RET.1"


def squad_fight() -> Fight:
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-rear"},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "zone": "own-rear"},
            {"creature": "kuro", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
        )
    ).begin()


def test_an_allied_squad_retreats_with_a_cohesion_check() -> None:
    # rule: SG.RET.2 — an allied squad in the same zone can retreat with the unit: one Cohesion check,
    # 2d10 + Presence >= 11; success: it leaves too
    f = squad_fight()
    f.do(Pass("kuro"))
    events = f.breath("genzaburo", use("retreat", squads=("squad",)), faces=(6, 5))
    check = f.of("cohesion_check", events)[0]
    assert check.rule == "SG.RET.2" and (check.data["total"], check.data["target"]) == (11, 11)
    assert f.u("squad").retreated and f.u("genzaburo").retreated


def test_a_squad_that_fails_its_cohesion_check_routs() -> None:
    # rule: SG.RET.2 — failure: the squad stays on the battlefield in Rout, a pursuit target from the next
    # round (house SG.RET.5: Defenseless then, and only Retreat is open to it)
    f = squad_fight()
    f.do(Pass("kuro"))
    f.breath("genzaburo", use("retreat", squads=("squad",)), faces=(1, 2))
    squad = f.u("squad")
    assert squad.routed and not squad.retreated and squad.zone == "own-rear"
    assert f.of("routed")[0].rule == "SG.RET.5"
    profile = f.rules.profile(f.state, squad)
    assert not profile.defenseless  # not yet: from the next round
    while f.decider != "squad":
        f.do(Pass(f.decider or ""))
    with pytest.raises(IllegalActionError) as err:
        f.breath("squad", use("walk", to="own-front"))
    assert err.value.rule == "SG.RET.5"
    f.do(Pass("squad"))
    while f.state.round == 1:
        f.do(Pass(f.decider or ""))
    assert f.rules.profile(f.state, f.u("squad")).defenseless


def test_pursuit_is_an_opposed_finesse_check_the_retreater_wins_on_a_tie() -> None:
    # rule: SG.RET.3 — an enemy near: 2d10 + Finesse each (the pursuer with the highest Finesse); the
    # retreater wins or ties → safe
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            {"creature": "samurai", "side": "b", "zone": "own-flank"},
        )
    ).begin()
    events = f.breath("kuro", use("retreat"), faces=(4, 4, 6, 4))  # 8 + 3 = 11 vs 10 + Finesse 1 = 11
    pursuit = f.of("pursuit", events)[0]
    assert pursuit.rule == "SG.RET.3" and pursuit.data["pursuer"] == "samurai"
    assert (pursuit.data["total"], pursuit.data["pursuer_total"]) == (11, 11)
    assert pursuit.data["winner"] == "retreater" and f.u("kuro").retreated


def test_a_lost_pursuit_leaves_the_retreater_defenseless_and_exhausted() -> None:
    # rule: SG.RET.3 — pursuer wins: the retreat fails; Defenseless, all Energy lost, Energy −3 next round
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    f.breath("kuro", use("retreat"), faces=(2, 3, 6, 5))  # 8 vs 11
    kuro = f.u("kuro")
    assert not kuro.retreated and kuro.zone == "own-rear"
    assert kuro.defenseless and kuro.energy == 0 and kuro.exhaustion == 3
    assert f.of("retreat_failed")[0].rule == "SG.RET.3"
    while f.state.round == 1:
        f.do(Pass(f.decider or ""))
    assert f.u("kuro").energy == 9


def test_pursuers_stand_in_an_adjacent_zone() -> None:
    # rule: SG.RD.9 — the pursuit reading (house, the seed's words): "enemy units in a zone adjacent to your
    # zone"; an enemy in the retreater's own zone does not pursue
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "own-rear"},
        )
    ).begin()
    events = f.breath("kuro", use("retreat"))
    assert "pursuit" not in f.kinds(events) and f.u("kuro").retreated
    assert f.rules.retreat.pursuit_zones == "adjacent"


def test_the_same_and_adjacent_reading(tmp_path: Path) -> None:
    # rule: SG.RD.9 — with `pursuit_zones: same-and-adjacent`, an enemy in the same zone pursues too
    cat = house(tmp_path, "SG.RET.3", pursuit_zones="same-and-adjacent")
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "own-rear"},
            content=cat,
        )
    ).begin()
    events = f.breath("kuro", use("retreat"), faces=(9, 8, 1, 2))
    pursuit = f.of("pursuit", events)[0]
    assert pursuit.data["zones"] == "same-and-adjacent" and pursuit.data["reading"] == "SG.RD.9"
    assert pursuit.data["winner"] == "retreater" and f.u("kuro").retreated


def test_honor_follow_up_flags_after_combat() -> None:
    # rule: SG.RET.4 — after combat, an honor-class retreater gets a follow-up (house: a responsibility
    # check, 2d10 + Presence >= 11); a non-honor class gets none; both are recorded as flags
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"creature": "genzaburo", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
        )
    ).begin()
    f.breath("kuro", use("retreat"))
    events = f.breath("genzaburo", use("retreat"))
    assert f.state.phase is Phase.OVER and f.state.result is not None and f.state.result.winner == "b"
    flags = {e.data["unit"]: e for e in f.of("honor_follow_up", events)}
    assert all(e.automatic and e.rule == "SG.RET.4" for e in flags.values())
    assert flags["genzaburo"].data["follow_up"] == "check"
    assert flags["genzaburo"].data["check"] == {"attribute": "presence", "target": 11}
    assert flags["kuro"].data["follow_up"] == "none"
    assert [(h.unit, h.honor, h.follow_up) for h in f.state.honor] == [
        ("kuro", "non-honor", "none"),
        ("genzaburo", "honor", "check"),
    ]


def test_a_lords_fall_costs_his_squads_cohesion_and_they_rout_at_zero() -> None:
    # rule: SG.RET.5 — house squad rules: Rout at Cohesion 0 (then only Retreat); a Cohesion ward keeps a
    # squad above it; the Lord's fall costs every squad of his side 1 Cohesion (SG.INP.2, SG.RD.9)
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
            {"creature": "lord", "side": "b", "zone": "own-front", "wounds": 1},
            {"id": "guard", "creature": "ashigaru-squad", "side": "b", "cohesion": 1},
            {"id": "warded", "creature": "ashigaru-squad", "side": "b", "cohesion": 1},
        )
    ).begin()
    f.set_unit("warded", ward=True)
    f.do(Pass("lord"))
    events = f.breath("genzaburo", use("one-stroke-of-the-home-province", "lord"), faces=(3, 4))
    assert f.u("lord").incapacitated and f.u("lord").zone is None
    losses = f.of("cohesion", events)
    assert [(e.rule, e.data["unit"], e.data["after"]) for e in losses] == [
        ("SG.INP.2", "guard", 0),
        ("SG.INP.2", "warded", 1),
    ]
    assert f.u("guard").routed and not f.u("warded").routed
    assert f.of("ward_holds", events)[0].rule == "SG.RET.5"


def test_losing_cohesion_never_rallies_a_routed_squad() -> None:
    # rule: SG.RET.5 — a squad Routed by a failed retreat Cohesion check (SG.RET.2) stays Routed when its
    # Lord's fall then costs it 1 Cohesion (SG.INP.2): only a rise past the Rout threshold rallies
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "zone": "own-rear"},
            {"creature": "lord", "side": "a", "zone": "core", "wounds": 1},
            {"creature": "genzaburo", "side": "b", "zone": "core", "overrides": NO_FATE},
            {"creature": "samurai", "side": "a", "zone": "own-front"},
        )
    ).begin()
    f.breath("kuro", use("retreat", squads=("squad",)), faces=(1, 2))
    assert f.u("squad").routed and f.u("squad").cohesion == 2
    while f.decider != "genzaburo":
        f.do(Pass(f.decider or ""))
    events = f.breath("genzaburo", use("one-stroke-of-the-home-province", "lord"), faces=(3, 4))
    assert f.u("lord").incapacitated
    loss = f.of("cohesion", events)
    assert [(e.rule, e.data["unit"], e.data["before"], e.data["after"]) for e in loss] == [
        ("SG.INP.2", "squad", 2, 1)
    ]
    assert f.u("squad").routed and "rallied" not in f.kinds()


@pytest.mark.parametrize(("roller", "modifier", "leaves"), [("squad", 0, False), ("retreater", 1, True)])
def test_who_rolls_the_squads_cohesion_check(
    tmp_path: Path, roller: str, modifier: int, leaves: bool
) -> None:
    # rule: SG.RET.2 — the squad's Cohesion check, 2d10 + Presence >= 11; whose Presence is a house reading
    # (`cohesion_check_roller` on SG.RET.3, default `squad`): the squad's own (+0) or Genzaburo's (+1).
    # The same 5 + 5 fails the squad's own check and passes on Genzaburo's Presence
    cat = house(tmp_path, "SG.RET.3", cohesion_check_roller=roller)
    assert f"cohesion_check_roller: {roller}" in (tmp_path / "house.yaml").read_text(encoding="utf-8")
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-rear"},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "zone": "own-rear"},
            {"creature": "kuro", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            content=cat,
        )
    ).begin()
    f.do(Pass("kuro"))
    events = f.breath("genzaburo", use("retreat", squads=("squad",)), faces=(5, 5))
    check = f.of("cohesion_check", events)[0]
    expected_roller = "squad" if roller == "squad" else "genzaburo"
    assert (check.data["roller"], check.data["modifier"], check.data["total"]) == (
        expected_roller,
        modifier,
        10 + modifier,
    )
    assert f.u("squad").retreated is leaves and f.u("squad").routed is not leaves


def test_the_squad_rolls_its_own_cohesion_check_by_default() -> None:
    # rule: SG.RET.2 — house default (SG.RET.3 `cohesion_check_roller: squad`): the squad's own Presence
    assert CATALOG.default(RetreatRules).cohesion_check_roller == "squad"
