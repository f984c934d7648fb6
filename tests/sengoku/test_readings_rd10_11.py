"""The readings SG.RD.10 (ambush and stances; who has "taken a breath") and SG.RD.11 (a rout that leaves a
side with nobody; a reservation after a fumble in the same breath), each pinned by playing it out."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kassen.core.errors import ContentError
from kassen.sengoku.battle import Decline, Hold, Pass, Phase
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.house import AmbushReadings, RoutAndFumbleReadings

from .battle.helpers import CATALOG, Fight, house, scenario, use


def test_both_readings_are_house_defaults_with_their_alternative() -> None:
    # rule: SG.RD.10  rule: SG.RD.11 — documented in the catalog (`kassen content show`), each naming the
    # reading in force and the other one
    ambush = CATALOG.default(AmbushReadings)
    assert ambush.basic_ambush_releases_stance is False and ambush.pass_or_hold_counts_as_breath is False
    rout = CATALOG.default(RoutAndFumbleReadings)
    assert rout.fumble_forfeits_later_reservation is True
    for rule in ("SG.RD.10", "SG.RD.11"):
        [view] = CATALOG.house_defaults_for(rule)
        assert view.source == "house_defaults" and view.rationale.count("Alternative") == 2


@pytest.mark.parametrize(
    ("rule", "field", "other"),
    [
        ("SG.RD.10", "basic_ambush_releases_stance", True),
        ("SG.RD.10", "pass_or_hold_counts_as_breath", True),
        ("SG.RD.11", "fumble_forfeits_later_reservation", False),
    ],
)
def test_the_other_reading_is_refused_not_ignored(tmp_path: Path, rule: str, field: str, other: bool) -> None:
    # rule: SG.RD.10  rule: SG.RD.11 — not switches: an override naming the reading the engine does not
    # implement is a content error naming the field, never a silent no-op
    data = CATALOG.house_default(rule).model_dump(mode="json")
    data[field] = other
    (tmp_path / "house.yaml").write_text(yaml.safe_dump({"house_defaults": [data]}), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_catalog([tmp_path])
    assert field in str(err.value)


# ------------------------------------------------------------------------------------------ SG.RD.10


def test_a_basic_ambush_leaves_the_targets_stance_standing() -> None:
    # rule: SG.RD.10 — the target counts as Defenseless against the ambusher's first attack (SG.AMB.1:
    # -4), but the maintained [stance] is not released (SG.DFL.2 releases it only for the status): its +2
    # counts in the ambushed attack and after it, and the target is not Defenseless afterwards
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-flank"},
            {"creature": "samurai", "side": "b", "zone": "own-flank", "stances": ["immovable-formation"]},
        )
    ).begin()
    events = f.breath(
        "genzaburo", use("horizontal-cut", "samurai"), use("horizontal-cut", "samurai"), faces=(1, 2, 1, 2)
    )
    first, second = f.of("attack", events)
    assert f.of("ambush", events)[0].data["condition"] == "unseen-from-the-flank" and first.data["ambush"]
    # Samurai: 10 + heavy armor 4 + Immovable Formation 2 = 16; ambushed: -4 → 12
    reasons = [str(s["reason"]) for s in first.data["defense_steps"]]
    assert any("Defenseless" in r for r in reasons) and first.data["defense"] == 12
    assert second.data["defense"] == 16 and not second.data["ambush"]
    assert not f.of("stance_released", events)
    samurai = f.u("samurai")
    assert samurai.stances == ("immovable-formation",) and not samurai.defenseless and samurai.ambushed


def test_a_defenseless_status_does_release_the_stance_for_contrast() -> None:
    # rule: SG.RD.10 — what the ambush does not do: SG.DFL.2's Defenseless status (here from a fumble,
    # SG.FUM.1) releases a maintained [stance] at once
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front", "stances": ["immovable-formation"]},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(2, 2))
    assert f.of("attack", events)[0].data["outcome"] == "fumble"
    [released] = f.of("stance_released", events)
    assert released.rule == "SG.DFL.2" and released.data["stances"] == ["immovable-formation"]
    assert f.u("genzaburo").defenseless and f.u("genzaburo").stances == ()


def flank_pair() -> Fight:
    """Kuro (Energy 12, side b) breathes first; Genzaburo (side a) waits in the same Flank Zone."""
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-flank"},
            {"creature": "kuro", "side": "b", "zone": "own-flank"},
        )
    ).begin()


def test_a_unit_that_only_passed_has_not_taken_a_breath() -> None:
    # rule: SG.RD.10 — a Pass is not a breath (SG.CNT.6): the unit is still "unseen from the flank"
    f = flank_pair()
    f.do(Pass("kuro"))
    assert f.u("kuro").breaths == 0
    events = f.breath("genzaburo", use("horizontal-cut", "kuro"), faces=(1, 2))
    [ambush] = f.of("ambush", events)
    assert ambush.rule == "SG.AMB.1" and ambush.data["condition"] == "unseen-from-the-flank"
    assert f.of("attack", events)[0].data["ambush"]


def test_a_unit_that_only_held_has_not_taken_a_breath_either() -> None:
    # rule: SG.RD.10 — a Hold spends 1 Energy on nothing (SG.CNT.6): no maneuver declared, so no breath
    # taken; Kuro holds at 12, is first again at 11 (Finesse, SG.CNT.4), then passes
    f = flank_pair()
    f.do(Hold("kuro"))
    assert f.u("kuro").energy == 11 and f.decider == "kuro"
    f.do(Pass("kuro"))
    assert f.u("kuro").breaths == 0
    events = f.breath("genzaburo", use("horizontal-cut", "kuro"), faces=(1, 2))
    assert f.of("ambush", events)[0].data["condition"] == "unseen-from-the-flank"


def test_and_still_not_in_a_later_round() -> None:
    # rule: SG.RD.10 — "not yet taken a breath this combat": a unit that passed through a whole round is
    # still unseen in the next one
    f = flank_pair()
    f.do(Pass("kuro"))
    f.do(Pass("genzaburo"))
    assert f.state.round == 2 and f.decider == "kuro"
    f.do(Pass("kuro"))
    events = f.breath("genzaburo", use("horizontal-cut", "kuro"), faces=(1, 2))
    assert f.of("ambush", events)[0].data["condition"] == "unseen-from-the-flank"


def test_a_unit_that_declared_a_breath_is_no_longer_unseen() -> None:
    # rule: SG.RD.10 — the contrast: a declared breath (here only a reservation, SG.RES.1) is a breath
    # taken, and the flank ambush no longer applies
    f = flank_pair()
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
            {"creature": "genzaburo", "side": "a", "zone": "own-rear"},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            content=catalog,  # type: ignore[arg-type]
        )
    ).begin()


def test_a_rout_that_leaves_a_side_with_nobody_ends_the_combat_at_once() -> None:
    # rule: SG.RD.11 — with SG.END.1's default (`routed` is an out state, checked after each breath) the
    # breath of the retreat that routs the squad (SG.RET.2: Cohesion 2d10 + Presence >= 11 fails) ends the
    # combat: no lull, no pursuit from the next round
    f = last_stand()
    events = f.breath("genzaburo", use("retreat", squads=("squad",)), faces=(1, 2))
    kinds = f.kinds(events)
    assert not f.of("cohesion_check", events)[0].data["success"]
    assert kinds.index("routed") < kinds.index("combat_over") and "lull" not in kinds
    over = f.of("combat_over", events)[0]
    assert over.rule == "SG.END.1" and over.data["winner"] == "b" and over.data["round"] == 1
    assert f.state.phase is Phase.OVER and f.u("squad").routed and not f.u("squad").defenseless


def test_the_other_reading_pursues_the_rout_from_the_next_round(tmp_path: Path) -> None:
    # rule: SG.RD.11 — the alternative is SG.END.1's `out_states` without `routed`: the combat goes on and
    # the routed squad counts as Defenseless from the next round (SG.RET.5, its pursuit)
    f = last_stand(house(tmp_path, "SG.END.1", out_states=["incapacitated", "retreated"]))
    events = f.breath("genzaburo", use("retreat", squads=("squad",)), faces=(1, 2))
    assert f.of("routed", events) and "combat_over" not in f.kinds(events)
    assert f.state.phase is not Phase.OVER
    while f.state.round == 1:
        f.do(Pass(f.decider or ""))
    assert f.rules.profile(f.state, f.u("squad")).defenseless


def test_a_reservation_after_a_fumble_in_the_same_breath_is_forfeited_with_its_energy() -> None:
    # rule: SG.RD.11 — the fumble (a double on a failed attack, SG.FUM.1) makes Genzaburo Defenseless;
    # the parry reserved later in the same breath is forfeited (SG.DFL.2), and the breath was paid whole
    # (SG.CNT.5): 11 - Horizontal Cut 2 - parry 1 = 8, nothing refunded
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), use("parry"), faces=(2, 2))
    attack = f.of("attack", events)[0]
    assert attack.data["outcome"] == "fumble" and f.u("genzaburo").defenseless
    [forfeit] = f.of("forfeit", events)
    assert forfeit.rule == "SG.DFL.2" and forfeit.data["use"] == {"maneuver": "parry"}
    assert "reserve" not in f.kinds(events)
    genzaburo = f.u("genzaburo")
    assert genzaburo.reservations == () and genzaburo.energy == 8
    assert f.of("energy_spent", events)[0].data["spent"] == 3


def test_the_same_reservation_without_the_fumble_is_kept() -> None:
    # rule: SG.RD.11 — the contrast: a plain miss (no double) leaves the parry reserved
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-front"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), use("parry"), faces=(1, 2))
    assert f.of("attack", events)[0].data["outcome"] == "miss" and not f.of("forfeit", events)
    assert [r.maneuver for r in f.u("genzaburo").reservations] == ["parry"]
