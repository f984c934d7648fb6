"""Bleed (Pierce the Vitals, SG.AIM.5; the house default of SG.INP.3) and the lull's environment: the GM's
battlefield changes (fire, fog, collapse, SG.LUL.3) and the onmyoji's shikigami (SG.LUL.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import (
    GM,
    Breath,
    DecisionKind,
    Decline,
    Environment,
    HeuristicPolicy,
    Pass,
    Upkeep,
)
from kassen.sengoku.battle.actions import BattlefieldChange
from kassen.sengoku.battle.plan import plan_uses

from .helpers import CATALOG, NO_FATE, Fight, catalog_with, scenario, use


def pass_round(f: Fight, *faces: int) -> None:
    """Everyone passes until this round's count is over (the last Pass rolls ``faces``: what the lull or
    the end of the combat needs)."""
    rnd = f.state.round
    while (
        f.state.decision is not None and f.state.decision.kind is DecisionKind.BREATH and f.state.round == rnd
    ):
        after = f.state.unit(f.decider or "")
        others = [
            u
            for u in f.state.units
            if u.id != after.id and u.on_battlefield and not u.passed and u.energy > 0
        ]
        f.do(Pass(after.id), *(faces if not others else ()))


def bleeding(content: object = None, ally: bool = False) -> Fight:
    units = [
        {"creature": "kuro", "side": "a", "zone": "own-front", "overrides": NO_FATE},
        {"creature": "samurai", "side": "b", "zone": "own-front"},
    ]
    if ally:
        units.append({"id": "friend", "creature": "samurai", "side": "b", "zone": "own-front"})
    f = Fight(scenario(*units, content=content)).begin()  # type: ignore[arg-type]
    f.breath("kuro", use("pierce-the-vitals", "samurai"), faces=(5, 6))  # 11 + 6 = 17 vs 12: 2 Wounds
    assert f.u("samurai").wounds == 2 and f.u("samurai").bleeding
    return f


def test_pierce_the_vitals_makes_the_target_bleed_a_wound_each_lull() -> None:
    # rule: SG.AIM.5  rule: SG.INP.3 — "2 Wounds. Bleed.": the house default (resolution.yaml) takes 1
    # Wound in each lull until bound; it applies, not only logs
    f = bleeding()
    assert "bleed" in f.kinds()
    pass_round(f)
    assert f.u("samurai").wounds == 1
    [bled] = f.of("bleeds")
    assert bled.rule == "SG.AIM.5" and (bled.data["before"], bled.data["after"]) == (2, 1)


def test_bleeding_to_zero_incapacitates_and_stops() -> None:
    # rule: SG.INP.3 — a unit bled to 0 is Incapacitated like any other and bleeds no more
    f = bleeding()
    f.set_unit("samurai", wounds=1)
    pass_round(f, 6, 6)  # side b has nobody left: the death check
    s = f.u("samurai")
    assert s.incapacitated and not s.bleeding and s.zone is None


def test_an_ally_binds_the_wound_for_one_energy() -> None:
    # rule: SG.INP.3 — "until an ally spends 1 Energy beside it to bind the wound": Bind Wound, 1 Energy,
    # on a bleeding ally in the same zone (not the bleeder itself)
    f = bleeding(ally=True)
    while f.decider != "friend":
        f.do(Pass(f.decider or ""))
    with pytest.raises(IllegalActionError) as err:
        f.do(Breath("friend", (use("bind-wound", "friend"),)))
    assert err.value.rule == "SG.INP.3"
    events = f.breath("friend", use("bind-wound", "samurai"))
    assert f.of("breath", events)[0].data["costs"] == [1]
    assert not f.u("samurai").bleeding and f.of("wound_bound", events)
    pass_round(f)
    assert f.u("samurai").wounds == 2


def test_the_heuristic_binds_a_bleeding_ally_first() -> None:
    # rule: SG.INP.3 — a wound bound now saves a Wound in every lull to come
    f = bleeding(ally=True)
    while f.decider != "friend":
        f.do(Pass(f.decider or ""))
    choice = HeuristicPolicy(f.rules).choose(f.state, f.legal())
    assert isinstance(choice, Breath) and choice.uses[0].maneuver == "bind-wound"


def test_the_alternative_bleed_is_only_a_mark(tmp_path: Path) -> None:
    # rule: SG.INP.3 — `death_check.bleed.wounds_per_lull: 0`: the mark stays, no Wound is lost
    content = catalog_with(tmp_path, {"resolution": {"death_check": {"bleed": {"wounds_per_lull": 0}}}})
    f = bleeding(content)
    pass_round(f)
    assert f.u("samurai").wounds == 2


# ------------------------------------------------------------------------------------------ SG.LUL.3


def lull(*units: dict[str, object], **extra: object) -> Fight:
    f = Fight(scenario(*units, changes=True, **extra)).begin()
    pass_round(f)
    while f.state.decision is not None and f.state.decision.kind is DecisionKind.UPKEEP:
        f.do(Decline(f.decider or ""))
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.ENVIRONMENT and f.to_move is not None
    assert f.to_move.kind == "gm"
    return f


PAIR = (
    {"creature": "genzaburo", "side": "a", "zone": "core", "overrides": NO_FATE},
    {"creature": "oni", "side": "b", "zone": "core"},
)


def test_the_gm_may_change_the_battlefield_in_the_lull() -> None:
    # rule: SG.LUL.3 — "Battlefield changes: fire, fog, collapse": with `changes: true` the GM's
    # environment decision lists each change on each zone (and the yoma roll only when `yoma`), or none
    f = lull(*PAIR)
    legal = f.legal()
    assert BattlefieldChange("fire", "core") in legal and legal[-1] == Decline(GM)
    assert Environment() not in legal
    assert len([a for a in legal if isinstance(a, BattlefieldChange)]) == 3 * len(f.state.zones)
    with pytest.raises(IllegalActionError) as err:
        f.do(Environment())
    assert err.value.rule == "SG.LUL.3"
    with pytest.raises(IllegalActionError):
        f.do(BattlefieldChange("flood", "core"))


def test_fire_burns_the_units_in_its_zone_each_lull_while_it_lasts() -> None:
    # rule: SG.LUL.3 — house fire: 2 rounds, 1 Wound in each lull to every unit in the zone, then over
    f = lull(*PAIR)
    f.do(BattlefieldChange("fire", "core"))
    assert [c.change for c in f.state.conditions] == ["fire"] and f.state.conditions[0].until == 3
    pass_round(f)
    assert f.u("genzaburo").wounds == 4 and f.u("oni").wounds == 3
    burned = f.of("wounds_lost_to")
    assert {e.data["cause"] for e in burned} == {"Fire"} and burned[0].rule == "SG.LUL.3"


def test_fog_blinds_ranged_attacks_from_or_into_its_zone() -> None:
    # rule: SG.LUL.3 — house fog: ranged attacks from or into the zone take −2 on the check (2 rounds)
    f = lull(
        {"creature": "gaijin-archer", "side": "a", "zone": "own-front"},
        {"creature": "oni", "side": "b", "zone": "core"},
    )
    f.do(BattlefieldChange("fog", "core"))
    f.do(
        Decline(GM)
    ) if f.state.decision is not None and f.state.decision.kind is DecisionKind.ENVIRONMENT else None
    while f.decider != "gaijin-archer":
        f.do(Pass(f.decider or ""))
    events = f.breath("gaijin-archer", use("longbow-shot", "oni"), faces=(5, 6))
    attack = f.of("attack", events)[0]
    fog = [s for s in attack.data["modifier_steps"] if s["rule"] == "SG.LUL.3"]
    assert [s["value"] for s in fog] == [-2]
    assert attack.data["modifier"] == 2 + 3 - 2  # Courage + Archery, fog


def test_a_collapse_strikes_at_once_those_who_fail_to_get_clear() -> None:
    # rule: SG.LUL.3 — house collapse: each unit in the zone rolls 2d10 + Finesse >= 11; who fails loses 1
    # Wound and is Defenseless; nothing lasts
    f = lull(*PAIR)
    events = f.do(BattlefieldChange("collapse", "core"), 9, 9, 1, 2)  # Genzaburo clear, the Oni caught
    checks = f.of("change_check", events)
    assert [c.data["success"] for c in checks] == [True, False]
    assert f.u("genzaburo").wounds == 5 and not f.u("genzaburo").defenseless
    assert f.u("oni").wounds == 3 and f.u("oni").defenseless and f.state.conditions == ()


def test_a_scenario_without_changes_offers_none() -> None:
    # rule: SG.LUL.3 — the GM's battlefield changes are the scenario's to open (`changes`), like yoma
    f = Fight(scenario(*PAIR)).begin()
    pass_round(f)
    assert f.state.round == 2 and "environment_skipped" not in f.kinds()  # round 2 at once


def test_the_changes_are_house_data() -> None:
    # rule: SG.LUL.3 — fire, fog, collapse as the catalog's entries, with the rationale of SG.LUL.3
    env = CATALOG.house_default("SG.LUL.3")
    assert [c.id for c in env.changes] == ["fire", "fog", "collapse"]  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------------ SG.LUL.2


def shikigami() -> Fight:
    return Fight(
        scenario(
            {"creature": "onmyoji", "side": "a", "zone": "own-front"},
            {"id": "crane", "creature": "shikigami", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "enemy-front"},
        )
    ).begin()


def test_a_shikigami_moves_only_when_its_onmyoji_repositions_it() -> None:
    # rule: SG.LUL.2 — "Onmyoji: reposition shikigami": the servant takes no movement of its own; in the
    # lull the onmyoji sends it to the onmyoji's zone or an adjacent one
    f = shikigami()
    with pytest.raises(IllegalActionError) as err:
        plan_uses(f.rules, f.state, f.u("crane"), (use("walk", to="own-front"),))
    assert err.value.rule == "SG.LUL.2"
    pass_round(f)
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.UPKEEP and d.unit == "onmyoji"
    moves = [a for a in f.legal() if isinstance(a, Upkeep) and a.to is not None]
    assert {a.to for a in moves} == {"own-front", *f.state.neighbours("own-front")} - {"own-rear"}
    with pytest.raises(IllegalActionError):
        f.do(Upkeep("onmyoji", "reposition-shikigami", "crane", None, "enemy-rear"))
    choice = HeuristicPolicy(f.rules).choose(f.state, f.legal())
    assert choice == Upkeep("onmyoji", "reposition-shikigami", "crane", None, "core")  # nearest the Oni
    events = f.do(choice)
    assert f.u("crane").zone == "core" and f.of("shikigami_moved", events)[0].rule == "SG.LUL.2"
