"""The d100 rows take effect in a battle (SG.CRT.4 decisive moment, SG.FUM.3 critical mistake): each row
of the house tables changes the state, not only the log, and is told in words."""

from __future__ import annotations

from typing import Any

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.report import account
from kassen.sengoku.battle import GM, Breath, DecisionKind, Decline, Pass

from .helpers import NO_FATE, Fight, scenario, use


def duel(*extra: dict[str, Any], target: str = "oni", attacker: str = "genzaburo") -> Fight:
    return Fight(
        scenario(
            {"creature": attacker, "side": "a", "overrides": NO_FATE},
            {"id": "foe", "creature": target, "side": "b", "zone": "own-front", "overrides": NO_FATE},
            *extra,
        )
    ).begin()


def mandate(f: Fight, d100: int, *more: int, attacker: str = "genzaburo") -> list[Any]:
    """A double 10 on a hit (Heavenly Mandate) and the decisive moment's d100 (``more``: dice after it)."""
    while f.decider != attacker:
        f.do(f.legal()[-1])  # the others pass
    events = f.breath(attacker, use("horizontal-cut", "foe"), faces=(10, 10, d100, *more))
    [table] = f.of("decisive_moment", events)
    assert table.rule == "SG.CRT.4" and table.data["roll"] == d100
    return events


def retribution(f: Fight, d100: int, *more: int) -> list[Any]:
    """A double 1 on a miss (Karmic Retribution), the critical mistake's d100, then the GM adds nothing."""
    events = f.breath(f.decider or "", use("horizontal-cut", "foe"), faces=(1, 1, d100, *more))
    [table] = f.of("critical_mistake", events)
    assert table.rule == "SG.FUM.3" and table.data["roll"] == d100
    d = f.state.decision
    assert (
        d is not None and d.kind is DecisionKind.FUMBLE and f.to_move is not None and f.to_move.kind == "gm"
    )
    return events + list(f.do(Decline(GM)))


def test_rhythm_of_victory_gives_back_energy_never_above_the_maximum() -> None:
    # rule: SG.CRT.4 — house row 1-15: the attacker regains 1 Energy (11 − 2 for the cut, + 1 = 10)
    f = duel()
    events = mandate(f, 5)
    assert f.u("genzaburo").energy == 10
    [changed] = f.of("energy_changed", events)
    assert (changed.data["before"], changed.data["after"]) == (9, 10)


def test_shattered_guard_makes_the_target_defenseless() -> None:
    # rule: SG.CRT.4 — house row 16-30: the target becomes Defenseless (the status, SG.DFL.1-2)
    f = duel()
    mandate(f, 20)
    assert f.u("foe").defenseless


def test_cleaving_stroke_wounds_another_enemy_in_the_zone() -> None:
    # rule: SG.CRT.4 — house row 31-45: another enemy in the target's zone loses 1 Wound; with nobody
    # there it is said and nothing else happens
    f = duel({"id": "gaki", "creature": "gaki", "side": "b", "zone": "own-front"})
    before = f.u("gaki").wounds
    mandate(f, 40)
    assert f.u("gaki").wounds == before - 1
    g = duel()
    events = mandate(g, 40)
    assert any("nobody there" in e.data["text"] for e in g.of("table_effect", events))


def test_armor_split_breaks_the_targets_armor() -> None:
    # rule: SG.CRT.4  rule: SG.BRK.2 — house row 46-60: [Pierce 2] + [Break] on the target's armor (an
    # ordinary uchigatana against ordinary heavy armor: 2 points gone until repaired, Defense 14 → 12)
    f = duel(target="samurai")
    mandate(f, 50)
    assert f.u("foe").armor_damage == 2
    assert f.rules.profile(f.state, f.u("foe")).armor_damage == 2


def test_terror_in_the_ranks_costs_the_zones_enemy_squads_cohesion() -> None:
    # rule: SG.CRT.4 — house row 61-75: every enemy squad in the target's zone loses 1 Cohesion
    f = duel({"id": "squad", "creature": "ashigaru-squad", "side": "b", "zone": "own-front"})
    before = f.u("squad").cohesion
    assert before is not None
    mandate(f, 70)
    assert f.u("squad").cohesion == before - 1


def test_heavens_favour_gives_a_fate_point() -> None:
    # rule: SG.CRT.4 — house row 76-90: the attacker gains 1 Fate point (which it can spend, SG.FAT.1)
    f = duel()
    mandate(f, 80)
    assert f.u("genzaburo").fate_points == 1


@pytest.mark.parametrize(("target", "fallen", "lost"), [("oni", True, 4), ("lord", False, 3)])
def test_decisive_blow_incapacitates_and_a_lord_loses_one_more(target: str, fallen: bool, lost: int) -> None:
    # rule: SG.CRT.4  rule: SG.INP.1 — house row 91-100: the target is Incapacitated at once and removed
    # from its zone; a Lord instead loses 1 more Wound (Critical Hit 2 + 1)
    f = duel(target=target)
    before = f.u("foe").wounds
    events = mandate(f, 95, *((5, 5) if fallen else ()))  # the fallen's death check ends the combat
    assert f.u("foe").incapacitated is fallen
    assert before - f.u("foe").wounds == (before if fallen else lost)
    if fallen:
        assert f.u("foe").zone is None and f.of("removed", events)


def test_overextended_costs_energy() -> None:
    # rule: SG.FUM.3 — house row 1-20: the roller also loses 2 Energy (11 − 2 − 2 = 7)
    f = duel()
    retribution(f, 10)
    assert f.u("genzaburo").energy == 7 and f.u("genzaburo").defenseless


def test_weapon_flung_away_must_be_picked_up_for_two_energy() -> None:
    # rule: SG.FUM.3  rule: SG.FUM.2 — house row 21-40: the weapon falls and costs 2 Energy to pick up;
    # until then its techniques are illegal, then one breath picks it up and cuts again
    f = duel()
    retribution(f, 30)
    g = f.u("genzaburo")
    assert (g.dropped, g.pickup_cost) == ("uchigatana", 2)
    f.do(Pass("foe"))  # the Oni waits; Genzaburo breathes again at 9
    assert f.decider == "genzaburo"
    with pytest.raises(IllegalActionError) as err:
        f.do(Breath("genzaburo", (use("horizontal-cut", "foe"),)))
    assert err.value.rule == "SG.FUM.2"
    events = f.breath("genzaburo", use("pick-up-weapon"), use("horizontal-cut", "foe"), faces=(1, 2))
    assert f.of("breath", events)[0].data["costs"] == [2, 2]
    assert not f.u("genzaburo").dropped and f.of("weapon_picked_up", events)


def test_self_injury_costs_the_roller_a_wound() -> None:
    # rule: SG.FUM.3 — house row 41-60: the roller loses 1 Wound (Genzaburo 5 → 4)
    f = duel()
    retribution(f, 50)
    assert f.u("genzaburo").wounds == 4


def test_friendly_blow_falls_on_the_nearest_ally_or_the_roller() -> None:
    # rule: SG.FUM.3 — house row 61-80: the nearest ally in the roller's zone loses the attack's hit
    # Wounds (Horizontal Cut: 1); with no ally there, the roller does
    f = duel({"id": "friend", "creature": "samurai", "side": "a"})
    retribution(f, 70)
    assert f.u("friend").wounds == 3 and f.u("genzaburo").wounds == 5
    g = duel()
    retribution(g, 70)
    assert g.u("genzaburo").wounds == 4


def test_weapon_destroyed_for_the_rest_of_the_combat() -> None:
    # rule: SG.FUM.3 — house row 81-95: the weapon used breaks; its techniques stay illegal, and the
    # parry (which takes the weapon in hand's skill) cannot be reserved either
    f = duel()
    events = retribution(f, 90)
    assert f.u("genzaburo").broken == ("uchigatana",) and f.of("weapon_broken", events)
    plans = f.rules
    from kassen.sengoku.battle.plan import plan_uses

    for uses in ((use("horizontal-cut", "foe"),), (use("parry"),)):
        with pytest.raises(IllegalActionError):
            plan_uses(plans, f.state, f.u("genzaburo"), uses)


def test_a_divine_weapon_falls_instead_of_breaking() -> None:
    # rule: SG.FUM.3 — the house row's exception: a divine item cannot be destroyed by a fumble; it falls
    # (1 Energy to pick up)
    f = duel(attacker="gaijin-knight")
    f.breath("gaijin-knight", use("horizontal-cut", "foe"), faces=(1, 1, 90))
    f.do(Decline(GM))
    knight = f.u("gaijin-knight")
    assert knight.broken == () and (knight.dropped, knight.pickup_cost) == ("excalibur", 1)


def test_heavens_scorn_wounds_and_breaks() -> None:
    # rule: SG.FUM.3 — house row 96-100: the roller loses 1 Wound and the weapon breaks
    f = duel()
    retribution(f, 98)
    g = f.u("genzaburo")
    assert g.wounds == 4 and g.broken == ("uchigatana",)


def test_every_row_is_told_in_words() -> None:
    # rule: SG.CRT.4  rule: SG.FUM.3 — the account says what each row did, never a placeholder
    f = duel({"id": "squad", "creature": "ashigaru-squad", "side": "b", "zone": "own-front"})
    mandate(f, 70)
    from kassen.core.fight import Fight as CoreFight

    fight = CoreFight(f.ruleset, f.content, f.scenario.state, 0)
    text = account(fight, events=[e.to_json() for e in f.events])
    assert "Terror in the Ranks" in text and "loses 1 Cohesion" in text and "Cohesion 2 → 1" in text
    assert "?" not in text and "no words" not in text
