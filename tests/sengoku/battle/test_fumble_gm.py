"""The GM's fumble extras in a battle (SG.FUM.2): a GM decision after every fumble (to_move is the GM),
its options, each extra's effect on the state, the house default for auto-play, logged and replayed."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight as CoreFight
from kassen.sengoku.battle import GM, Breath, DecisionKind, Decline, HeuristicPolicy, Hold, Pass
from kassen.sengoku.battle.actions import FumbleExtras
from kassen.sengoku.battle.plan import plan_uses

from .helpers import CATALOG, NO_FATE, Fight, catalog_with, scenario, use


def fumbled(content: object = None) -> Fight:
    """Genzaburo fumbles (2-2 + 4 = 8 against the Oni's 12) with his first cut; a parry and a second cut
    follow in the same breath."""
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            content=content,  # type: ignore[arg-type]
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), use("horizontal-cut", "oni"), faces=(2, 2))
    assert f.of("attack", events)[0].data["outcome"] == "fumble"
    return f


def test_after_a_fumble_the_gm_decides_the_extras() -> None:
    # rule: SG.FUM.2 — "GM may add further effects": the breath waits on a GM decision whose options are
    # the house default's set (listed first), each extra alone (the foot slip once per adjacent zone), or
    # none (Decline)
    f = fumbled()
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.FUMBLE and d.attacker == "genzaburo"
    assert f.to_move is not None and f.to_move.kind == "gm"
    legal = f.legal()
    assert legal[0] == FumbleExtras(("drop-weapon",))
    assert FumbleExtras(("stance-collapse",)) in legal and legal[-1] == Decline(GM)
    slips = {a.to for a in legal if isinstance(a, FumbleExtras) and a.extras == ("foot-slip",)}
    assert slips == set(f.state.neighbours("own-front"))
    assert f.of("fumble_offered")[0].rule == "SG.FUM.2"


def test_drop_weapon_bars_its_techniques_until_picked_up() -> None:
    # rule: SG.FUM.2 — drop weapon (1 Energy to pick up): the second cut of the breath is forfeited, the
    # parry cannot be reserved, and a later breath picks it up for 1 and cuts again
    f = fumbled()
    events = f.do(FumbleExtras(("drop-weapon",)))
    assert f.u("genzaburo").dropped == "uchigatana" and f.u("genzaburo").pickup_cost == 1
    [forfeit] = f.of("forfeit", events)
    assert forfeit.rule == "SG.FUM.2" and "on the ground" in forfeit.data["why"]
    g = f.u("genzaburo")
    with pytest.raises(IllegalActionError) as err:
        plan_uses(f.rules, f.state, g, (use("parry"),))
    assert err.value.rule in ("SG.FUM.2", "SG.DFL.2")
    plan = plan_uses(f.rules, f.state, g, (use("pick-up-weapon"), use("thrust", "oni")))
    assert plan.costs == (1, 2)


def test_stance_collapse_makes_the_next_action_dearer() -> None:
    # rule: SG.FUM.2 — stance collapse (next action Energy +1): the next breath costs 1 more, and so would
    # a Hold; then it is paid
    f = fumbled()
    f.do(FumbleExtras(("stance-collapse",)), 1, 2)  # the second cut goes on: a miss
    assert f.u("genzaburo").surcharge == 1
    f.do(Pass("oni"))
    events = f.breath("genzaburo", use("thrust", "oni"), faces=(1, 2))
    breath = f.of("breath", events)[0]
    assert breath.data["costs"] == [3] and any(
        "stance collapse" in s["reason"] for s in breath.data["cost_steps"][0]
    )
    assert f.u("genzaburo").surcharge == 0


def test_a_hold_pays_the_stance_collapse_too() -> None:
    # rule: SG.FUM.2 — a Hold is the unit's next action: 1 + 1
    f = fumbled()
    f.do(FumbleExtras(("stance-collapse",)), 1, 2)
    f.do(Pass("oni"))
    events = f.do(Hold("genzaburo"))
    hold = f.of("hold", events)[0]
    assert hold.data["before"] - hold.data["after"] == 2 and f.u("genzaburo").surcharge == 0


def test_foot_slip_moves_the_roller_where_the_gm_says() -> None:
    # rule: SG.FUM.2 — foot slip (forced movement): one adjacent zone the GM names; another is refused
    f = fumbled()
    with pytest.raises(IllegalActionError) as err:
        f.do(FumbleExtras(("foot-slip",), "enemy-rear"))
    assert err.value.rule == "SG.FUM.2"
    with pytest.raises(IllegalActionError):
        f.do(FumbleExtras(("foot-slip",)))  # no zone named
    events = f.do(FumbleExtras(("foot-slip", "stance-collapse"), "own-rear"))
    assert f.u("genzaburo").zone == "own-rear" and f.u("genzaburo").surcharge == 1
    assert f.of("forced_move", events)[0].data["to"] == "own-rear"
    assert f.of("forfeit", events)  # the Oni is out of the second cut's reach now


def test_no_extra_and_the_breath_goes_on() -> None:
    # rule: SG.FUM.2 — the GM may add nothing: Decline; the second cut is rolled
    f = fumbled()
    events = f.do(Decline(GM), 1, 2)
    assert "fumble_extras_none" in f.kinds(events) and len(f.of("attack", events)) == 1


def test_the_house_default_for_auto_play_is_data(tmp_path: Path) -> None:
    # rule: SG.FUM.2 — when the battle plays itself the GM adds `fumble.gm_auto_play` (drop-weapon);
    # overridden to none, the GM's heuristic declines
    assert CATALOG.resolution.fumble.gm_auto_play == ("drop-weapon",)
    f = fumbled()
    assert HeuristicPolicy(f.rules).choose(f.state, f.legal()) == FumbleExtras(("drop-weapon",))
    content = catalog_with(tmp_path, {"resolution": {"fumble": {"gm_auto_play": []}}})
    g = fumbled(content)
    assert HeuristicPolicy(g.rules).choose(g.state, g.legal()) == Decline(GM)


def test_a_scenarios_gm_script_names_the_extras_and_it_replays() -> None:
    # rule: SG.FUM.2 — a scripted GM's step `{fumble: [...], to: ...}` is played at the fumble's decision;
    # the chronicle replays it
    s = scenario(
        {
            "creature": "genzaburo",
            "side": "a",
            "overrides": NO_FATE,
            "policy": "scripted",
            "script": [{"breath": [{"maneuver": "horizontal-cut", "target": "oni"}]}],
        },
        {"creature": "oni", "side": "b", "zone": "own-front"},
        gm=[{"fumble": ["stance-collapse"]}],
    )
    fight = s.fight(0)
    fight.apply(fight.decide())  # Begin
    fight.apply(Breath("genzaburo", (use("horizontal-cut", "oni"),)), dice=[3, 3])
    assert fight.decide() == FumbleExtras(("stance-collapse",))
    fight.autoplay()
    again = CoreFight.from_json(fight.to_json())
    assert again.log_json() == fight.log_json()


def test_the_gms_adjustments_wait_for_the_fumble_decision() -> None:
    # rule: SG.FUM.2 — while the fumble's extras wait, a GmSetWounds would lose the decision: refused
    from kassen.sengoku.battle import GmSetWounds

    f = fumbled()
    before = f.state
    with pytest.raises(IllegalActionError):
        f.do(GmSetWounds("oni", 1))
    assert f.state is before
