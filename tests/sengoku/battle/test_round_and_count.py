"""Round start, the count and its ties, Energy spent, hold and pass (SG.RND.*, SG.CNT.1-6, SG.BRT.0)."""

from __future__ import annotations

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import DecisionKind, Hold, Pass, Phase

from .helpers import Fight, scenario, use


def pass_round(f: Fight) -> None:
    """Everyone passes until the next round starts."""
    start = f.state.round
    while f.state.round == start and not f.state.over:
        d = f.state.decision
        assert d is not None and d.kind is DecisionKind.BREATH
        f.do(Pass(d.unit))


def three() -> Fight:
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            {"creature": "kuro", "side": "a"},
        )
    )


def test_maximum_energy_is_the_creatures_own_or_its_grades() -> None:
    # rule: SG.BRT.0 — Genzaburo 11, Kuro 12, the Oni 10 are their own; a samurai (Veteran) and an
    # ashigaru (Mob) take the grade's house default, the samurai's heavy armor offset by Physique +1
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "kuro", "side": "a"},
            {"creature": "oni", "side": "b"},
            {"creature": "samurai", "side": "b"},
            {"creature": "ashigaru", "side": "b"},
        )
    ).begin()
    assert {u.id: u.max_energy for u in f.state.units} == {
        "genzaburo": 11,
        "kuro": 12,
        "oni": 10,
        "samurai": 10,
        "ashigaru": 8,
    }


def test_round_start_resets_energy_with_armor_overload_and_exhaustion() -> None:
    # rule: SG.RND.1 — every unit resets to its maximum Energy after the armor penalty (SG.DEF.7) and the
    # pending overload and exhaustion penalties; maintained stances stay
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "stances": ["immovable-formation"]},
            {"creature": "oni", "side": "b"},
            {"creature": "samurai", "side": "b", "overrides": {"attributes": {"physique": 0, "finesse": 1}}},
        )
    )
    f.set_unit("genzaburo", overload_penalty=2)
    f.set_unit("oni", exhaustion=3)
    f.begin()
    assert {u.id: u.energy for u in f.state.units} == {"genzaburo": 9, "oni": 7, "samurai": 9}
    resets = f.of("energy_reset")
    assert all(e.automatic and e.rule == "SG.RND.1" for e in resets)
    assert resets[0].data["overload"] == 2 and resets[1].data["exhaustion"] == 3
    assert [s["rule"] for s in resets[2].data["armor"]] == ["SG.BRT.0", "SG.DEF.7"]
    assert f.u("genzaburo").overload_penalty == 0 and f.u("oni").exhaustion == 0
    pass_round(f)
    assert f.state.round == 2
    assert {u.id: u.energy for u in f.state.units} == {"genzaburo": 11, "oni": 10, "samurai": 9}
    assert f.u("genzaburo").stances == ("immovable-formation",)


def test_a_round_is_start_count_lull_next_round() -> None:
    # rule: SG.RND.2 — round start → count progression → lull phase → next round
    f = three().begin()
    pass_round(f)
    kinds = [k for k in f.kinds() if k in ("round", "count", "pass", "lull")]
    assert kinds[:2] == ["round", "count"]
    lull = kinds.index("lull")
    assert "count" in kinds[:lull] and "pass" in kinds[:lull]
    assert kinds[lull + 1] == "round"
    assert [e.data["round"] for e in f.of("round")] == [1, 2]
    assert f.state.phase is Phase.COUNT


def test_the_count_starts_at_the_highest_energy() -> None:
    # rule: SG.CNT.1 — the first count is the highest current Energy of all units
    f = three().begin()
    first = f.of("count")[0]
    assert first.rule == "SG.CNT.1" and first.data["count"] == 12 and first.data["units"] == ["kuro"]
    assert f.state.count == 12 and f.decider == "kuro"


def test_initiative_counts_only_for_the_first_breath() -> None:
    # rule: SG.CNT.2 — initiative +2 puts the Oni's first breath at count 12, above Genzaburo's 11; it is
    # not real Energy: after Heavy Blow (3) the Oni has 10 - 3 = 7; next round it is gone
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front", "initiative": 2},
        )
    ).begin()
    assert (f.state.count, f.decider) == (12, "oni")
    events = f.breath("oni", use("heavy-blow", "genzaburo"), faces=(1, 2))
    assert f.u("oni").energy == 7 and f.u("oni").initiative == 0
    used = f.of("initiative_used", events)[0]
    assert used.rule == "SG.CNT.2" and used.data == {"unit": "oni", "initiative": 2, "energy": 7}
    assert (f.state.count, f.decider) == (11, "genzaburo")
    pass_round(f)
    assert (f.state.count, f.decider) == (11, "genzaburo")


def test_initiative_for_a_named_round_counts_only_for_that_rounds_first_breath() -> None:
    # rule: SG.CNT.2 — an effect that names the start of round 2 (`initiative_round: 2`) applies its +2 to
    # that round's first breath in the same way: not in round 1, and gone after it is used
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front", "initiative": 2, "initiative_round": 2},
        )
    ).begin()
    assert (f.state.count, f.decider) == (11, "genzaburo") and f.u("oni").initiative == 0
    pass_round(f)
    assert f.state.round == 2 and (f.state.count, f.decider) == (12, "oni")
    events = f.breath("oni", use("heavy-blow", "genzaburo"), faces=(1, 2))
    used = f.of("initiative_used", events)[0]
    assert used.rule == "SG.CNT.2" and used.data == {"unit": "oni", "initiative": 2, "energy": 7}
    assert (f.state.count, f.decider) == (11, "genzaburo")
    pass_round(f)
    assert f.state.round == 3 and (f.state.count, f.decider) == (11, "genzaburo")
    assert f.u("oni").initiative == 0


def test_only_the_unit_at_the_count_breathes() -> None:
    # rule: SG.CNT.3 — a unit whose Energy is below the count cannot breathe; the state is unchanged
    f = three().begin()
    before = f.state
    with pytest.raises(IllegalActionError) as err:
        f.breath("genzaburo", use("horizontal-cut", "oni"))
    assert err.value.rule == "SG.CNT.3"
    assert f.state is before
    f.do(Pass("kuro"))
    assert f.decider == "genzaburo"  # Energy 11 >= count 11


def test_ties_finesse_then_allies_then_the_house_keys() -> None:
    # rule: SG.CNT.4 — descending Finesse; still tied, allies first; then the house default: higher
    # maximum Energy, higher Physique, setup order
    ten = {"max_energy": 10}
    f = Fight(
        scenario(
            {"creature": "oni", "side": "b", "overrides": ten},  # Finesse 0
            {"id": "samurai-b", "creature": "samurai", "side": "b"},  # Finesse 1, side b
            {"creature": "genzaburo", "side": "a", "overrides": ten},  # Finesse 1, allies
            {"creature": "kuro", "side": "a", "overrides": ten},  # Finesse 3
        )
    ).begin()
    tie = f.of("tie")[0]
    assert tie.rule == "SG.CNT.4" and tie.data["order"] == ["kuro", "genzaburo", "samurai-b", "oni"]
    with pytest.raises(IllegalActionError) as err:
        f.do(Pass("genzaburo"))
    assert err.value.rule == "SG.CNT.4"
    for uid in ("kuro", "genzaburo", "samurai-b", "oni"):
        assert f.decider == uid
        f.do(Pass(uid))


def test_house_tie_keys_max_energy_physique_setup() -> None:
    # rule: SG.CNT.4 — two allies at the same count and Finesse: the higher maximum Energy first, then the
    # higher Physique, then the order they were set up in
    f = Fight(
        scenario(
            {"id": "late", "creature": "samurai", "side": "a"},
            {
                "id": "strong",
                "creature": "samurai",
                "side": "a",
                "overrides": {"attributes": {"physique": 2}},
            },
            {"id": "early", "creature": "samurai", "side": "a"},
            {"id": "big", "creature": "samurai", "side": "a", "overrides": {"max_energy": 11}},
            {"creature": "oni", "side": "b", "overrides": {"max_energy": 3}},
        )
    ).begin()
    f.do(Hold("big"))  # 11 → 10: now tied at 10 with the others, but its maximum is higher
    tie = f.of("tie")[-1]
    assert tie.data["order"] == ["big", "strong", "late", "early"]


def test_energy_drops_by_what_was_spent_and_the_next_count_follows() -> None:
    # rule: SG.CNT.5 — Energy drops by the breath's cost; the next count is the highest remaining Energy;
    # a breath over the unit's Energy is refused
    f = three().begin()
    f.do(Pass("kuro"))
    f.breath("genzaburo", use("horizontal-cut", "oni"), use("horizontal-cut", "oni"), faces=(1, 2, 1, 2))
    assert f.u("genzaburo").energy == 7
    spent = f.of("energy_spent")[-1]
    assert spent.rule == "SG.CNT.5" and (spent.data["before"], spent.data["after"]) == (11, 7)
    assert (f.state.count, f.decider) == (10, "oni")
    f.set_unit("oni", energy=2)  # as if the Oni had spent most of its Energy: it still decides now
    with pytest.raises(IllegalActionError) as err:
        f.breath("oni", use("heavy-blow", "genzaburo"))
    assert err.value.rule == "SG.CNT.5"


def test_hold_and_pass() -> None:
    # rule: SG.CNT.6 — Hold spends 1 Energy on nothing and the unit acts again at a lower count; Pass ends
    # its breaths for the round and keeps its Energy for reserved reactions
    f = three().begin()
    held = f.do(Hold("kuro"))
    assert f.u("kuro").energy == 11 and f.of("hold", held)[0].rule == "SG.CNT.6"
    assert f.state.count == 11 and f.decider == "kuro"  # tied with Genzaburo at 11: Finesse first
    f.do(Pass("kuro"))
    assert f.u("kuro").passed and f.u("kuro").energy == 11
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    assert f.u("genzaburo").passed and f.u("genzaburo").energy == 10
    while f.decider != "oni":
        f.do(Pass(f.decider or ""))
    f.breath("oni", use("heavy-blow", "genzaburo"))
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.REACTION and d.unit == "genzaburo"


def test_a_unit_that_cannot_pay_for_any_maneuver_passes() -> None:
    # rule: SG.CNT.6 — house default: a unit that cannot pay for any maneuver passes, automatically
    f = Fight(
        scenario(
            {
                "id": "monk",
                "inline": {"grade": "veteran", "max_energy": 1},
                "side": "a",
                "stances": ["immovable-formation"],
            },
            {"creature": "oni", "side": "b"},
        )
    ).begin()
    assert f.decider == "oni"
    events = f.do(Pass("oni"))
    auto = [e for e in f.of("pass", events) if e.automatic]
    assert [(e.data["unit"], e.data["reason"]) for e in auto] == [("monk", "cannot pay for any maneuver")]
    assert f.kinds(events).index("pass", 1) < f.kinds(events).index("lull")


def test_a_remembered_tie_key_is_the_catalogs_own() -> None:
    # rule: SG.CNT.4 — the content remembers a unit's place among units at the same count by all the
    # catalog's keys read of it; for every unit of every state of these battles (copies of one template
    # among them, told apart by their setup order) it is what BattleRules.tie_key gives on fresh content
    from kassen.core.scenario import open_fight
    from kassen.sengoku.battle.copies import copied_units
    from kassen.sengoku.battle.flow.rounds import tie_key
    from kassen.sengoku.battle.rules import BattleRules

    compared = 0
    for source, seed in (("demo", 1), (copied_units("demo", 3), 2), ("burning-temple", 0)):
        fight = open_fight(source, seed=seed)
        fight.autoplay()
        fresh = BattleRules(fight.tables.catalog)
        for state in fight.states[::2]:
            for unit in state.units:
                assert tie_key(fight.tables, state, unit) == fresh.tie_key(state, unit), unit.id
                compared += 1
    assert compared > 500
