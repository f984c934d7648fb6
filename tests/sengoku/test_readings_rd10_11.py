"""The readings SG.RD.10 (ambush and stances; who has "taken a breath") and SG.RD.11 (a rout that leaves a
side with nobody; a reservation after a fumble in the same breath), each pinned by playing it out, with
both values of each switch."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.sengoku.battle import GM, Decline, Hold, Pass, Phase
from kassen.sengoku.house import AmbushReadings, CombatEnd, RoutAndFumbleReadings

from .battle.helpers import CATALOG, NO_FATE, Fight, house, scenario, use


def test_both_readings_are_house_defaults_with_their_alternative() -> None:
    # rule: SG.RD.10  rule: SG.RD.11 — documented in the catalog (`kassen content show`), each naming the
    # reading in force and the other one
    ambush = CATALOG.default(AmbushReadings)
    assert ambush.basic_ambush_releases_stance is True and ambush.pass_or_hold_counts_as_breath is True
    rout = CATALOG.default(RoutAndFumbleReadings)
    assert rout.fumble_forfeits_later_reservation is True
    assert "routed" not in CATALOG.default(CombatEnd).out_states
    for rule in ("SG.RD.10", "SG.RD.11"):
        [view] = CATALOG.house_defaults_for(rule)
        assert view.source == "house_defaults" and view.rationale.count("Alternative") == 2


# ------------------------------------------------------------------------------------------ SG.RD.10


def stance_ambush(tmp_path: Path, releases: bool) -> Fight:
    content = house(tmp_path, "SG.RD.10", basic_ambush_releases_stance=releases)
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-flank", "overrides": NO_FATE},
            {"creature": "samurai", "side": "b", "zone": "own-flank", "stances": ["immovable-formation"]},
            content=content,
        )
    ).begin()


def test_a_basic_ambush_releases_the_targets_stance(tmp_path: Path) -> None:
    # rule: SG.RD.10 — house reading: a basic ambush inflicts the Defenseless status (SG.AMB.1 with
    # SG.DFL.2): the maintained [stance] is released at once, then −4. Samurai: 10 + heavy armor 4 +
    # Immovable Formation 2 = 16; ambushed: 16 − 2 − 4 = 10; it stays Defenseless for the second attack
    f = stance_ambush(tmp_path, True)
    events = f.breath(
        "genzaburo", use("horizontal-cut", "samurai"), use("horizontal-cut", "samurai"), faces=(1, 2, 1, 2)
    )
    first, second = f.of("attack", events)
    assert f.of("ambush", events)[0].data["status"] and first.data["ambush"]
    assert first.data["defense"] == 10 and second.data["defense"] == 10
    [released] = f.of("stance_released", events)
    assert released.rule == "SG.DFL.2" and released.data["stances"] == ["immovable-formation"]
    samurai = f.u("samurai")
    assert samurai.stances == () and samurai.defenseless and samurai.ambushed


def test_the_other_reading_leaves_the_stance_standing(tmp_path: Path) -> None:
    # rule: SG.RD.10 — `basic_ambush_releases_stance: false`: the target counts as Defenseless against the
    # ambusher's first attack only (16 − 4 = 12, the stance's +2 still counting) and the stance stands
    f = stance_ambush(tmp_path, False)
    events = f.breath(
        "genzaburo", use("horizontal-cut", "samurai"), use("horizontal-cut", "samurai"), faces=(1, 2, 1, 2)
    )
    first, second = f.of("attack", events)
    reasons = [str(s["reason"]) for s in first.data["defense_steps"]]
    assert any("Defenseless" in r for r in reasons) and first.data["defense"] == 12
    assert second.data["defense"] == 16 and not second.data["ambush"]
    assert not f.of("stance_released", events)
    samurai = f.u("samurai")
    assert samurai.stances == ("immovable-formation",) and not samurai.defenseless and samurai.ambushed


def test_a_defenseless_status_does_release_the_stance_for_contrast() -> None:
    # rule: SG.RD.10 — SG.DFL.2's Defenseless status (here from a fumble, SG.FUM.1) releases a maintained
    # [stance] at once, as the house's ambush now does
    f = Fight(
        scenario(
            {
                "creature": "genzaburo",
                "side": "a",
                "zone": "own-front",
                "stances": ["immovable-formation"],
                "overrides": NO_FATE,
            },
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(2, 2))
    assert f.of("attack", events)[0].data["outcome"] == "fumble"
    [released] = f.of("stance_released", events)
    assert released.rule == "SG.DFL.2" and released.data["stances"] == ["immovable-formation"]
    assert f.u("genzaburo").defenseless and f.u("genzaburo").stances == ()


def flank_pair(tmp_path: Path | None = None, counts: bool = True) -> Fight:
    """Kuro (Energy 12, side b) breathes first; Genzaburo (side a) waits in the same Flank Zone."""
    content = house(tmp_path, "SG.RD.10", pass_or_hold_counts_as_breath=counts) if tmp_path else None
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-flank", "overrides": NO_FATE},
            {"creature": "kuro", "side": "b", "zone": "own-flank"},
            content=content,
        )
    ).begin()


def test_a_unit_that_only_passed_has_taken_its_breath() -> None:
    # rule: SG.RD.10 — house reading: the count reached Kuro and he passed (SG.CNT.6): a breath given up
    # is a breath taken for the flank ambush, so Genzaburo's attack is no ambush (Kuro may answer it)
    f = flank_pair()
    f.do(Pass("kuro"))
    assert f.u("kuro").breaths == 0 and f.u("kuro").count_reached
    events = f.breath("genzaburo", use("horizontal-cut", "kuro"), faces=(1, 2))
    assert not f.of("ambush", events) and not f.of("attack", events)[0].data["ambush"]


def test_a_unit_that_only_held_has_taken_its_breath_too() -> None:
    # rule: SG.RD.10 — a Hold (1 Energy on nothing) is the count reaching the unit as well
    f = flank_pair()
    f.do(Hold("kuro"))
    assert f.u("kuro").energy == 11 and f.decider == "kuro"
    f.do(Pass("kuro"))
    events = f.breath("genzaburo", use("horizontal-cut", "kuro"), faces=(1, 2))
    assert not f.of("ambush", events)


def test_the_other_reading_a_pass_or_a_hold_is_no_breath(tmp_path: Path) -> None:
    # rule: SG.RD.10 — `pass_or_hold_counts_as_breath: false`: only a declared breath counts; a unit that
    # only passed or held, in this round or an earlier one, is still unseen from the flank
    f = flank_pair(tmp_path, counts=False)
    f.do(Hold("kuro"))
    f.do(Pass("kuro"))
    f.do(Pass("genzaburo"))
    assert f.state.round == 2 and f.decider == "kuro"
    f.do(Pass("kuro"))
    events = f.breath("genzaburo", use("horizontal-cut", "kuro"), faces=(1, 2))
    [ambush] = f.of("ambush", events)
    assert ambush.rule == "SG.AMB.1" and ambush.data["condition"] == "unseen-from-the-flank"


@pytest.mark.parametrize("counts", [True, False])
def test_a_unit_that_declared_a_breath_is_no_longer_unseen(tmp_path: Path, counts: bool) -> None:
    # rule: SG.RD.10 — under either reading a declared breath (here only a reservation, SG.RES.1) is a
    # breath taken, and the flank ambush no longer applies
    f = flank_pair(tmp_path, counts)
    f.breath("kuro", use("emergency-evasion"))
    assert f.u("kuro").breaths == 1
    f.do(Pass("kuro"))
    f.breath("genzaburo", use("horizontal-cut", "kuro"))
    d = f.state.decision
    assert d is not None and d.unit == "kuro" and not d.ambushed  # Kuro may answer: no ambush
    events = f.do(Decline("kuro"), 1, 2)
    assert not f.of("ambush", events) and not f.of("attack", events)[0].data["ambush"]


# ------------------------------------------------------------------------------------------ SG.RD.11


def last_stand(catalog: object = None) -> Fight:
    """Genzaburo and his squad are side a's only units, in their own Rear; the Oni is far off (no
    pursuit)."""
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-rear", "overrides": NO_FATE},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            content=catalog,  # type: ignore[arg-type]
        )
    ).begin()


def test_a_rout_left_alone_is_pursued_from_the_next_round() -> None:
    # rule: SG.RD.11 — house reading: the squad that fails its Cohesion check (SG.RET.2) "remains on the
    # battlefield in Rout state"; it is not out (SG.END.1's `out_states`), the combat goes on and the
    # routed squad counts as Defenseless from the next round (SG.RET.5, its pursuit)
    f = last_stand()
    events = f.breath("genzaburo", use("retreat", squads=("squad",)), faces=(1, 2))
    assert not f.of("cohesion_check", events)[0].data["success"]
    assert f.of("routed", events) and "combat_over" not in f.kinds(events)
    assert f.state.phase is not Phase.OVER and not f.rules.profile(f.state, f.u("squad")).defenseless
    while f.state.round == 1:
        f.do(Pass(f.decider or ""))
    assert f.rules.profile(f.state, f.u("squad")).defenseless


def test_the_other_reading_ends_the_combat_at_once(tmp_path: Path) -> None:
    # rule: SG.RD.11 — `routed` among SG.END.1's `out_states`: the breath of the retreat that routs the
    # squad ends the combat: no lull, no pursuit from the next round
    f = last_stand(house(tmp_path, "SG.END.1", out_states=["incapacitated", "retreated", "routed"]))
    events = f.breath("genzaburo", use("retreat", squads=("squad",)), faces=(1, 2))
    kinds = f.kinds(events)
    assert kinds.index("routed") < kinds.index("combat_over") and "lull" not in kinds
    over = f.of("combat_over", events)[0]
    assert over.rule == "SG.END.1" and over.data["winner"] == "b" and over.data["round"] == 1
    assert f.state.phase is Phase.OVER and f.u("squad").routed


def fumble_then_parry(tmp_path: Path | None = None, forfeits: bool = True) -> tuple[Fight, list[object]]:
    content = house(tmp_path, "SG.RD.11", fumble_forfeits_later_reservation=forfeits) if tmp_path else None
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front", "overrides": NO_FATE},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            content=content,
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), use("parry"), faces=(2, 2))
    assert f.of("attack", events)[0].data["outcome"] == "fumble" and f.u("genzaburo").defenseless
    events += f.do(Decline(GM))  # the GM adds no extra (SG.FUM.2); the breath goes on
    return f, list(events)


def test_a_reservation_after_a_fumble_in_the_same_breath_is_forfeited_with_its_energy() -> None:
    # rule: SG.RD.11 — house reading: the fumble (a double on a failed attack, SG.FUM.1) makes Genzaburo
    # Defenseless; the parry reserved later in the same breath is forfeited (SG.DFL.2), and the breath was
    # paid whole (SG.CNT.5): 11 - Horizontal Cut 2 - parry 1 = 8, nothing refunded
    f, events = fumble_then_parry()
    [forfeit] = f.of("forfeit", events)  # type: ignore[arg-type]
    assert forfeit.rule == "SG.RD.11" and forfeit.data["use"] == {"maneuver": "parry"}
    genzaburo = f.u("genzaburo")
    assert genzaburo.reservations == () and genzaburo.energy == 8


def test_the_other_reading_keeps_the_reservation(tmp_path: Path) -> None:
    # rule: SG.RD.11 — `fumble_forfeits_later_reservation: false`: the parry was declared with the breath,
    # before the fumble, and is kept (a parry is no evasion, so a Defenseless unit may still use it)
    f, events = fumble_then_parry(tmp_path, forfeits=False)
    assert not f.of("forfeit", events)  # type: ignore[arg-type]
    assert [r.maneuver for r in f.u("genzaburo").reservations] == ["parry"]
    assert f.u("genzaburo").energy == 8


def test_the_same_reservation_without_the_fumble_is_kept() -> None:
    # rule: SG.RD.11 — the contrast: a plain miss (no double) leaves the parry reserved
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front", "overrides": NO_FATE},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), use("parry"), faces=(1, 2))
    assert f.of("attack", events)[0].data["outcome"] == "miss" and not f.of("forfeit", events)
    assert [r.maneuver for r in f.u("genzaburo").reservations] == ["parry"]
