"""The seed's count example (SG.CNT.7), played from the bundled scenario with its scripted choices and
scripted dice that keep the attacks from disturbing the Energy trace."""

from __future__ import annotations

from kassen.sengoku.battle import DecisionKind, Decline, React, load_scenario

from .helpers import Fight, use


def test_the_count_example_gives_the_seeds_counts_and_energy() -> None:
    # rule: SG.CNT.7 — Genzaburo (Energy 11, uchigatana), Oni (Energy 10, kanabo), Kuro (Energy 12,
    # ninja-to); count 12 Kuro Stealth Movement (3) + Stroke of Fire (2) → 7; count 11 Genzaburo Horizontal
    # Cut ×2 + parry reservation → 6; count 10 Oni Heavy Blow (3) at Genzaburo, who parries from the
    # reservation at 0 further Energy → Oni 7; count 7 Kuro Reverse-Grip Cut ×2 + emergency evasion
    # reservation → 4 (the Oni also has 7: Finesse puts Kuro first, SG.CNT.4).
    s = load_scenario("count-example")
    f = Fight(s).begin()
    energies = {u.id: u.energy for u in f.state.units}
    assert energies == {"genzaburo": 11, "oni": 10, "kuro": 12}
    script = dict(s.scripts)

    assert (f.state.count, f.decider) == (12, "kuro")
    # Stealth check 6+3 + Finesse 3 + Infiltration 2 + Flank +2 = 16 >= 11: infiltrating, so Stroke of
    # Fire is the shinobi's automatic Critical Hit: no dice for it.
    f.do(script["kuro"][0], 6, 3)
    assert f.u("kuro").energy == 7 and f.u("kuro").zone == "own-front"

    assert (f.state.count, f.decider) == (11, "genzaburo")
    f.do(script["genzaburo"][0], 1, 2, 2, 3)  # two misses against the Oni's Defense 12
    g = f.u("genzaburo")
    assert g.energy == 6 and [r.maneuver for r in g.reservations] == ["parry"]

    assert (f.state.count, f.decider) == (10, "oni")
    f.do(script["oni"][0])  # Heavy Blow at Genzaburo: he holds a parry, so he decides first
    assert f.state.decision is not None and f.state.decision.kind is DecisionKind.REACTION
    assert f.decider == "genzaburo"
    # Attack 5+4+5 = 14 hits Defense 12; parry 6+5+3 = 14 ties, and ties go to the defender.
    events = f.do(React("genzaburo", "parry"), 5, 4, 6, 5)
    reaction = f.of("reaction", events)[0]
    assert reaction.data["success"] and reaction.data["effect"] == "the attack is nullified"
    assert f.u("genzaburo").energy == 6  # the parry cost no further Energy
    assert f.u("genzaburo").reservations == () and f.u("genzaburo").wounds == 5
    assert f.u("oni").energy == 7

    assert (f.state.count, f.decider) == (7, "kuro")
    assert [e.data["order"] for e in f.of("tie")] == [["kuro", "oni"]]
    f.do(script["kuro"][1], 1, 2, 2, 1)
    assert f.u("kuro").energy == 4
    assert [r.maneuver for r in f.u("kuro").reservations] == ["emergency-evasion"]

    assert (f.state.count, f.decider) == (7, "oni")
    f.do(script["oni"][1])  # Heavy Blow at Kuro, who holds his evasion
    assert f.decider == "kuro"
    f.do(React("kuro", "emergency-evasion"), 1, 3)  # 1+3+5 = 9 misses Defense 10: no evasion roll
    assert f.u("oni").energy == 4

    breaths = f.of("breath")
    assert [(e.data["count"], e.data["unit"], e.data["spent"]) for e in breaths] == [
        (12, "kuro", 5),
        (11, "genzaburo", 5),
        (10, "oni", 3),
        (7, "kuro", 3),
        (7, "oni", 3),
    ]
    assert [e.data["after"] for e in f.of("energy_spent")] == [7, 6, 7, 4, 4]
    assert [e.data["count"] for e in f.of("count")] == [12, 11, 10, 7, 6]
    assert (f.state.count, f.decider) == (6, "genzaburo")


def test_the_bundled_count_example_plays_to_an_end() -> None:
    # rule: SG.CNT.7 — with the real dice of its seed the bundled scenario traces the same first breaths
    from kassen.sengoku.battle import run_battle

    c = run_battle(load_scenario("count-example"))
    breaths = [e for e in c.events if e.kind == "breath"][:4]
    assert [(e.data["count"], e.data["unit"]) for e in breaths] == [
        (12, "kuro"),
        (11, "genzaburo"),
        (10, "oni"),
        (7, "kuro"),
    ]
    assert c.over


def test_the_count_examples_scripts_are_the_actions_played_and_rewind_on_undo() -> None:
    # rule: SG.CNT.7 — the scenario's scripts are core scripts of actions: each step is played when it
    # is legal (a react step waits for the attack), and its place comes from the actions played, so undo
    # rewinds it
    s = load_scenario("count-example")
    c = s.fight(4)
    c.autoplay()
    script = dict(s.scripts)
    for uid, steps in script.items():
        played = [a for a in c.history if getattr(a, "unit", None) == uid]
        assert all(step in played for step in steps), uid
    first = c.history.index(script["kuro"][0])
    while len(c.history) > first:
        c.undo()
    assert c.decide() == script["kuro"][0]


def test_a_decline_keeps_the_reservation() -> None:
    # rule: SG.RES.2 — off its count, a unit with Energy left and a reserved defense technique *can*
    # react: in the count example's opening Genzaburo is offered the reaction during the Oni's breath, lets
    # the blow through, and keeps his parry
    s = load_scenario("count-example")
    f = Fight(s).begin()
    script = dict(s.scripts)
    f.do(script["kuro"][0], 6, 3)
    f.do(script["genzaburo"][0], 1, 2, 2, 3)
    f.breath("oni", use("heavy-blow", "genzaburo"))
    d = f.state.decision
    assert d is not None and (d.kind, d.unit, d.attacker) == (DecisionKind.REACTION, "genzaburo", "oni")
    assert f.u("genzaburo").energy > 0
    f.do(Decline("genzaburo"), 5, 4)
    assert [r.maneuver for r in f.u("genzaburo").reservations] == ["parry"]
    assert f.u("genzaburo").wounds == 3  # Heavy Blow: 2 Wounds
