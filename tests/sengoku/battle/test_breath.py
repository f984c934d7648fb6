"""A breath: its maneuvers and their order, the limit 5 and overload, combo fatigue, named techniques
(SG.BRT.1-3, SG.MAN.1)."""

from __future__ import annotations

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import Breath, Pass
from kassen.sengoku.battle.candidates import candidate_breaths
from kassen.sengoku.battle.plan import plan_breath, plan_uses

from .helpers import Fight, scenario, use


def duel(**genzaburo: object) -> Fight:
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", **genzaburo},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()


def test_a_breath_chooses_maneuvers_resolved_in_order() -> None:
    # rule: SG.BRT.1 — a breath holds attack techniques, defense reservations (prepaid), Kata, movement
    # and stance declare/release, total at most 5; they resolve in the order given
    f = duel()
    events = f.breath(
        "genzaburo", use("immovable-formation"), use("horizontal-cut", "oni"), use("parry"), faces=(1, 2)
    )
    breath = f.of("breath", events)[0]
    assert breath.rule == "SG.BRT.1" and not breath.automatic
    assert breath.data["costs"] == [1, 2, 1] and breath.data["spent"] == 4 and breath.data["limit"] == 5
    assert not breath.data["overload"]
    assert f.kinds(events)[f.kinds(events).index("stance") :].index("attack") > 0
    g = f.u("genzaburo")
    assert g.stances == ("immovable-formation",) and [r.maneuver for r in g.reservations] == ["parry"]
    assert g.energy == 7


@pytest.mark.parametrize(
    ("uses", "rule"),
    [
        ((), "SG.BRT.1"),
        ((use("no-such-cut", "oni"),), "SG.BRT.1"),
        ((use("heavy-blow", "oni"),), "SG.BRT.1"),  # the Oni's technique, not Genzaburo's
        ((use("horizontal-cut"),), "SG.BRT.1"),  # no target
        ((use("immovable-formation", release=True),), "SG.BRT.1"),  # nothing to release
        ((use("horizontal-cut", "nobody"),), "SG.BRT.1"),
    ],
)
def test_an_illegal_breath_names_its_rule_and_changes_nothing(uses: tuple[object, ...], rule: str) -> None:
    # rule: SG.BRT.1
    f = duel()
    before = f.state
    with pytest.raises(IllegalActionError) as err:
        f.do(Breath("genzaburo", uses))  # type: ignore[arg-type]
    assert err.value.rule == rule
    assert f.state is before


def test_a_maintained_immovable_formation_forbids_movement() -> None:
    # rule: SG.BRT.1 — a stance's own limits hold while it is maintained; releasing it first frees the unit
    f = duel(stances=["immovable-formation"])
    with pytest.raises(IllegalActionError) as err:
        f.breath("genzaburo", use("walk", to="own-rear"))
    assert err.value.rule == "SG.BRT.1"
    f.breath("genzaburo", use("immovable-formation", release=True), use("walk", to="own-rear"))
    assert f.u("genzaburo").zone == "own-rear" and f.u("genzaburo").stances == ()
    assert f.u("genzaburo").energy == 10  # releasing costs nothing, the walk 1


def test_overload_check_failure_loses_all_energy_and_makes_defenseless() -> None:
    # rule: SG.BRT.2 — past the limit 5, an overload check (house default: 2d10 + Physique >= 11 + 1 per
    # Energy over); failure: all Energy lost and Defenseless; either way next round's maximum drops
    f = duel(stances=["immovable-formation"])
    uses = (use("horizontal-cut", "oni"), use("horizontal-cut", "oni"), use("thrust", "oni"), use("parry"))
    events = f.breath("genzaburo", *uses, faces=(1, 2, 2, 1, 1, 3, 2, 3))
    assert f.of("breath", events)[0].data["overload"] and f.of("breath", events)[0].data["spent"] == 7
    check = f.of("overload_check", events)[0]
    assert check.automatic and check.rule == "SG.BRT.2"
    assert (check.data["target"], check.data["total"], check.data["success"]) == (13, 6, False)
    g = f.u("genzaburo")
    assert g.energy == 0 and g.defenseless and g.overload_penalty == 2
    assert g.stances == ()  # Defenseless released the stance (SG.DFL.2)
    while f.state.round == 1:
        f.do(Pass(f.decider or ""))
    assert f.u("genzaburo").energy == 9 and not f.u("genzaburo").defenseless


def test_overload_check_success_keeps_energy_but_not_next_rounds() -> None:
    # rule: SG.BRT.2 — a passed overload check keeps the Energy left; the next round still pays the excess
    f = duel()
    uses = (use("horizontal-cut", "oni"), use("horizontal-cut", "oni"), use("thrust", "oni"), use("parry"))
    f.breath("genzaburo", *uses, faces=(1, 2, 2, 1, 1, 3, 10, 9))
    g = f.u("genzaburo")
    assert g.energy == 4 and not g.defenseless and g.overload_penalty == 2


def test_combo_fatigue_third_use_in_a_round_costs_more() -> None:
    # rule: SG.BRT.3 — house default: two uses of a technique in a round at its cost (the count example's
    # two cuts), the third and later +1 Energy each
    f = duel()
    events = f.breath(
        "genzaburo", *(use("horizontal-cut", "oni") for _ in range(3)), faces=(1, 2, 2, 1, 1, 3, 10, 9)
    )
    breath = f.of("breath", events)[0]
    assert breath.data["costs"] == [2, 2, 3]
    assert breath.data["cost_steps"][2][-1]["rule"] == "SG.BRT.3"
    f.breath("oni", use("heavy-blow", "genzaburo"), faces=(1, 2))
    # across breaths too: a fourth cut this round costs 3
    plan = plan_uses(f.rules, f.state, f.u("genzaburo"), (use("horizontal-cut", "oni"),))
    assert plan.costs == (3,)


def test_named_techniques_use_their_own_attribute_tags_and_wounds() -> None:
    # rule: SG.MAN.1 — Horizontal Cut (Courage, standard); Thrust (Finesse, [Pierce 2], cost 2, 1 Wound):
    # against a samurai in heavy armor (14) the Thrust rolls against 12
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "samurai", "side": "b", "zone": "own-front", "overrides": {"maneuvers": []}},
        )
    ).begin()
    events = f.breath(
        "genzaburo", use("horizontal-cut", "samurai"), use("thrust", "samurai"), faces=(1, 2, 6, 4)
    )
    cut, thrust = f.of("attack", events)
    assert cut.data["defense"] == 14 and cut.data["modifier"] == 4
    assert "Courage +2" in [s["reason"] for s in cut.data["modifier_steps"]]
    assert thrust.data["defense"] == 12 and thrust.data["modifier"] == 3
    assert "Finesse +1" in [s["reason"] for s in thrust.data["modifier_steps"]]
    assert any("[Pierce 2]" in s["reason"] for s in thrust.data["defense_steps"])
    assert thrust.data["outcome"] == "hit" and f.u("samurai").wounds == 3


def test_every_listed_breath_is_legal() -> None:
    # rule: SG.BRT.1 — legal_actions lists a bounded set of breaths, each one valid
    f = duel()
    breaths = candidate_breaths(f.rules, f.state, f.u("genzaburo"))
    assert 10 < len(breaths) < 400
    for b in breaths:
        plan_breath(f.rules, f.state, b)


def test_no_stance_in_the_breath_that_made_the_unit_defenseless_but_in_the_next() -> None:
    # rule: SG.BRT.1 — and SG.DFL.2/SG.DFL.3: a stance later in the breath that made the unit Defenseless
    # is forfeited; Defenseless ends as its next breath starts (before it is declared, the house reading),
    # so that breath may declare a stance and reserve
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "core"},
            {"creature": "oni", "side": "b", "zone": "core"},
        )
    ).begin()
    events = f.breath(
        "genzaburo", use("core-zone-exit", to="own-front"), use("immovable-formation"), faces=(1, 2)
    )
    forfeit = f.of("forfeit", events)[0]  # failed exit: Defenseless, so the stance in the same breath is lost
    assert forfeit.rule == "SG.DFL.2" and f.u("genzaburo").stances == ()
    f.do(Pass("oni"))
    events = f.breath("genzaburo", use("immovable-formation"), use("parry"))
    # rule: SG.DFL.3 — Defenseless is removed automatically as the unit's next action starts
    ends = f.of("defenseless_ends", events)[0]
    assert ends.rule == "SG.DFL.3" and not f.u("genzaburo").defenseless
    assert f.u("genzaburo").stances == ("immovable-formation",) and f.u("genzaburo").reservations


def archer() -> Fight:
    return Fight(
        scenario(
            {"creature": "gaijin-archer", "side": "a", "zone": "own-front"},
            {"creature": "oni", "side": "b", "zone": "core"},
        )
    ).begin()


def test_aim_focus_energy_is_spent_on_a_miss() -> None:
    # rule: SG.AIM.4 — Aim Focus is declared on activation and its Energy is spent hit or miss: Piercing
    # Arrow (3) with aim 2 misses and still costs 5
    f = archer()
    events = f.breath("gaijin-archer", use("piercing-arrow", "oni", aim=2), faces=(1, 2))
    assert f.of("attack", events)[0].data["outcome"] == "miss"
    assert f.of("breath", events)[0].data["costs"] == [5]
    assert f.of("energy_spent", events)[0].data["spent"] == 5
    assert f.u("gaijin-archer").energy == 5


def test_aim_focus_past_the_breath_limit_calls_for_the_overload_check() -> None:
    # rule: SG.AIM.4 — the aimed Energy counts toward the breath like any other: 5 + a 2-Energy shot = 7
    # is past the limit 5, so the overload check follows (SG.BRT.2)
    f = archer()
    events = f.breath(
        "gaijin-archer",
        use("piercing-arrow", "oni", aim=2),
        use("longbow-shot", "oni"),
        faces=(1, 2, 1, 2, 10, 9),
    )
    breath = f.of("breath", events)[0]
    assert breath.data["spent"] == 7 and breath.data["overload"]
    check = f.of("overload_check", events)[0]
    assert check.rule == "SG.BRT.2" and check.data["success"]
    a = f.u("gaijin-archer")
    assert a.energy == 3 and a.overload_penalty == 2
