"""Reservations and reactions: prepaid defense techniques answering attacks off the unit's count
(SG.RES.1-4, SG.RD.6, SG.DFL.2)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import DecisionKind, Decline, Pass, React, Reservation
from kassen.sengoku.battle.plan import usable_reservations

from .helpers import CATALOG, Fight, house, layer_content, scenario, use


def genzaburo_and_oni(catalog: object = None) -> Fight:
    s = scenario(
        {"creature": "genzaburo", "side": "a"},
        {"creature": "oni", "side": "b", "zone": "own-front"},
        content=catalog,  # type: ignore[arg-type]
    )
    return Fight(s).begin()


def test_a_reservation_is_paid_in_the_breath_and_used_at_no_further_cost() -> None:
    # rule: SG.RES.1 — reserved in a breath and paid then; when attacked the unit executes it at 0
    # further Energy; one reservation answers one attack
    f = genzaburo_and_oni()
    events = f.breath("genzaburo", use("parry"))
    assert f.u("genzaburo").energy == 10
    assert f.of("reserve", events)[0].rule == "SG.RES.1"
    f.do(Pass("genzaburo"))
    f.breath("oni", use("heavy-blow", "genzaburo"), use("claw-rake", "genzaburo"))
    assert f.decider == "genzaburo"
    # 16 hits; parry 18 + 3 = 21 nullifies it; the claw rake that follows meets no reservation and is
    # resolved at once (1 + 2 + 4 misses)
    events = f.do(React("genzaburo", "parry"), 6, 5, 9, 9, 1, 2)
    assert f.u("genzaburo").energy == 10 and f.u("genzaburo").wounds == 5
    attack = f.of("attack", events)
    assert attack[0].data["nullified"] and attack[0].data["reaction"] == "parry"
    assert attack[1].data["reaction"] == "" and "reaction_offered" not in f.kinds(events)
    assert f.u("genzaburo").reservations == () and f.state.decision is not None
    assert f.state.decision.kind is DecisionKind.BREATH


def test_reacting_with_what_was_not_reserved_is_refused() -> None:
    # rule: SG.RES.1 — only the technique reserved can be executed; the state stays as it was
    f = genzaburo_and_oni()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    f.breath("oni", use("heavy-blow", "genzaburo"))
    before = f.state
    with pytest.raises(IllegalActionError) as err:
        f.do(React("genzaburo", "back-of-blade-block"))
    assert err.value.rule == "SG.RES.1" and f.state is before


def test_off_its_count_a_unit_with_a_reservation_may_react() -> None:
    # rule: SG.RES.2 — an attacked unit holding a reserved technique decides (react or not) before the
    # attack resolves; without a reservation the attack resolves at once; nobody else acts meanwhile
    f = genzaburo_and_oni()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    events = f.breath("oni", use("heavy-blow", "genzaburo"))
    offered = f.of("reaction_offered", events)[0]
    assert offered.automatic and offered.rule == "SG.RES.2" and "attack" not in f.kinds(events)
    d = f.state.decision
    assert d is not None and (d.kind, d.unit, d.attacker, d.maneuver) == (
        DecisionKind.REACTION,
        "genzaburo",
        "oni",
        "heavy-blow",
    )
    assert [type(a).__name__ for a in f.legal()] == ["React", "Decline"]
    for wrong, rule in ((React("oni", "parry"), "SG.RES.2"), (Pass("oni"), "SG.RES.2")):
        with pytest.raises(IllegalActionError) as err:
            f.do(wrong)
        assert err.value.rule == rule
    f.do(Decline("genzaburo"), 1, 2)  # the blow misses; the parry is kept
    assert [r.maneuver for r in f.u("genzaburo").reservations] == ["parry"]


def test_a_reaction_with_no_attack_waiting_is_refused() -> None:
    # rule: SG.RES.2
    f = genzaburo_and_oni()
    with pytest.raises(IllegalActionError) as err:
        f.do(React("genzaburo", "parry"))
    assert err.value.rule == "SG.RES.2"


def test_reservations_expire_in_the_lull() -> None:
    # rule: SG.RES.3 — all reservations expire in the lull phase
    f = genzaburo_and_oni()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    events = f.do(Pass("oni"))
    expired = f.of("reservations_expire", events)[0]
    assert expired.automatic and expired.rule == "SG.RES.3" and expired.data["maneuvers"] == ["parry"]
    assert f.u("genzaburo").reservations == () and f.state.round == 2


def test_parry_fails_and_the_blow_lands() -> None:
    # rule: SG.RES.4 — house default: the parry is 2d10 + Finesse + weapon skill against the attack's
    # total; below it, the attack goes through in full
    f = genzaburo_and_oni()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    f.breath("oni", use("heavy-blow", "genzaburo"))
    events = f.do(React("genzaburo", "parry"), 6, 5, 1, 2)  # 16 against 1 + 2 + 3 = 6
    reaction = f.of("reaction", events)[0]
    assert reaction.rule == "SG.RES.4" and not reaction.data["success"]
    assert not reaction.automatic  # the unit chose to react; only the roll's outcome is the dice's
    assert (reaction.data["total"], reaction.data["against"]) == (6, 16)
    assert f.u("genzaburo").wounds == 3


def test_back_of_blade_block_nullifies_and_costs_the_attacker_energy() -> None:
    # rule: SG.RES.4 — the block (Physique + weapon skill) nullifies and penalises the attacker: 1 Energy;
    # a tie goes to the defender
    f = Fight(
        scenario({"creature": "lord", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"})
    ).begin()
    f.breath("lord", use("back-of-blade-block"))
    f.do(Pass("lord"))
    f.breath("oni", use("heavy-blow", "lord"))
    events = f.do(React("lord", "back-of-blade-block"), 6, 5, 6, 6)  # 16 vs 12 + Physique 1 + 3 = 16
    reaction = f.of("reaction", events)[0]
    assert reaction.data["success"] and reaction.data["total"] == reaction.data["against"] == 16
    assert f.u("lord").wounds == 6
    assert f.u("oni").energy == 6  # 10 - 3 for the blow - 1 for the block
    assert f.of("energy_lost", events)[0].rule == "SG.RES.4"


def test_emergency_evasion_softens_a_blow_even_when_it_fails() -> None:
    # rule: SG.RES.4 — evasion: success nullifies; failure still takes 1 Wound off (never below 1)
    f = Fight(
        scenario({"creature": "kuro", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"})
    ).begin()
    f.breath("kuro", use("emergency-evasion"), use("emergency-evasion"))
    f.do(Pass("kuro"))
    f.breath("oni", use("heavy-blow", "kuro"), use("claw-rake", "kuro"))
    events = f.do(React("kuro", "emergency-evasion"), 4, 5, 1, 2)  # hit 14; evasion 6 fails
    assert f.u("kuro").wounds == 4  # Heavy Blow's 2 Wounds softened to 1
    assert "softened by 1" in f.of("reaction", events)[0].data["effect"]
    events = f.do(React("kuro", "emergency-evasion"), 6, 6, 1, 2)  # claw rake Critical Hit 2 → 1
    assert f.u("kuro").wounds == 3


def test_evasion_is_not_for_the_defenseless() -> None:
    # rule: SG.RES.4 — and SG.DFL.2: a Defenseless unit cannot use an evasion-type technique
    f = Fight(
        scenario({"creature": "kuro", "side": "a"}, {"creature": "oni", "side": "b", "zone": "own-front"})
    ).begin()
    f.do(Pass("kuro"))
    f.set_unit(
        "kuro", defenseless=True, reservations=(Reservation("emergency-evasion"), Reservation("parry"))
    )
    assert usable_reservations(f.rules, f.state, f.u("kuro")) == ("parry",)
    f.breath("oni", use("heavy-blow", "kuro"))
    with pytest.raises(IllegalActionError) as err:
        f.do(React("kuro", "emergency-evasion"))
    assert err.value.rule == "SG.DFL.2"


def test_a_reservation_is_usable_at_zero_energy() -> None:
    # rule: SG.RD.6 — house reading: a unit at 0 Energy still uses what it reserved (Genzaburo parries
    # "with 0 Energy")
    f = genzaburo_and_oni()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    f.set_unit("genzaburo", energy=0)
    f.breath("oni", use("heavy-blow", "genzaburo"))
    assert f.decider == "genzaburo"
    f.do(React("genzaburo", "parry"), 6, 5, 10, 9)
    assert f.u("genzaburo").energy == 0 and f.u("genzaburo").wounds == 5


def test_the_other_reading_at_zero_energy(tmp_path: Path) -> None:
    # rule: SG.RD.6 — with `usable_at_zero_energy: false` a unit at 0 Energy gets no reaction
    f = genzaburo_and_oni(house(tmp_path, "SG.RD.6", usable_at_zero_energy=False))
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    f.set_unit("genzaburo", energy=0)
    assert usable_reservations(f.rules, f.state, f.u("genzaburo")) == ()
    events = f.breath("oni", use("heavy-blow", "genzaburo"), faces=(6, 5))
    assert "reaction_offered" not in f.kinds(events) and f.u("genzaburo").wounds == 3


@pytest.mark.parametrize("keeps", [True, False])
def test_a_pass_keeps_energy_for_reactions_or_not(tmp_path: Path, keeps: bool) -> None:
    # rule: SG.CNT.6 — house default `pass_keeps_energy_for_reactions`: the Energy a unit keeps when it
    # passes still counts for the reactions it reserved. Under the SG.RD.6 reading `usable_at_zero_energy:
    # false` it decides: kept, the passed Genzaburo (10 Energy) may parry; not kept, he counts as at 0
    # and gets no reaction
    data = [
        CATALOG.house_default("SG.RD.6").model_dump(mode="json") | {"usable_at_zero_energy": False},
        CATALOG.house_default("SG.CNT.6").model_dump(mode="json")
        | {"pass_keeps_energy_for_reactions": keeps},
    ]
    (tmp_path / "house.yaml").write_text(yaml.safe_dump({"house_defaults": data}), encoding="utf-8")
    f = genzaburo_and_oni(layer_content(tmp_path))
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    assert f.u("genzaburo").passed and f.u("genzaburo").energy == 10
    if keeps:
        assert usable_reservations(f.rules, f.state, f.u("genzaburo")) == ("parry",)
        f.breath("oni", use("heavy-blow", "genzaburo"))
        assert f.decider == "genzaburo" and f.state.decision is not None
        assert f.state.decision.kind is DecisionKind.REACTION
        f.do(React("genzaburo", "parry"), 6, 5, 10, 9)
        assert f.u("genzaburo").wounds == 5
    else:
        assert usable_reservations(f.rules, f.state, f.u("genzaburo")) == ()
        events = f.breath("oni", use("heavy-blow", "genzaburo"), faces=(6, 5))
        assert "reaction_offered" not in f.kinds(events) and f.u("genzaburo").wounds == 3


def test_a_chosen_reaction_is_logged_as_the_units_decision() -> None:
    # rule: SG.RES.1 — the unit executes its reserved technique because it chose to (React): the reaction
    # event is not automatic, even when the attack missed and no reaction roll is made
    f = genzaburo_and_oni()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    f.breath("oni", use("heavy-blow", "genzaburo"))
    events = f.do(React("genzaburo", "parry"), 1, 2)  # 1 + 2 + 5 misses
    reaction = f.of("reaction", events)[0]
    assert reaction.rule == "SG.RES.1" and not reaction.data["rolled"] and not reaction.automatic
    assert f.u("genzaburo").reservations == ()
