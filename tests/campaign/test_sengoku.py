"""Sengoku campaigns: a battle's lasting harms — [Break] damage on the armor, Wounds, Fate spent, the
death check of the fallen — confirmed in the aftermath and in force in the next battle (seed 000)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kassen.campaign.hooks import CampaignError
from kassen.campaign.roster import Campaigns
from kassen.core.engine import GM
from kassen.core.fight import Fight
from kassen.core.scenario import read_scenario
from kassen.sengoku.battle import Begin, Breath, Pass, Use
from kassen.sengoku.battle.actions import FateIntervention, GmEndCombat, GmSetWounds

SIDES = [{"id": "raiders", "allies": True}, {"id": "takeda"}]


def template(*units: dict[str, Any]) -> Any:
    text = yaml.safe_dump({"ruleset": "sengoku", "name": "At the ford", "sides": SIDES, "units": list(units)})
    return read_scenario("ford", text=text)


#: The template: the Oni (the GM's, not on the roster) and the places of two roster characters.
FORD = template(
    {"creature": "oni", "side": "raiders"},
    {"id": "hatamoto", "creature": "samurai", "side": "takeda", "zone": "own-front"},
    {"id": "nobukado", "creature": "lord", "side": "takeda"},
)
CAST = [("hatamoto", "takeda"), ("nobukado", "takeda")]


def roster(c: Campaigns) -> None:
    c.new("ford")
    c.add(
        "ford",
        "sengoku",
        "hatamoto",
        "Takeda hatamoto",
        {"creature": "samurai", "overrides": {"maneuvers": [], "fate_points": 1}},
    )
    c.add("ford", "sengoku", "nobukado", "Takeda Nobukado", {"creature": "lord"})


def to(fight: Fight[Any, Any], unit: str) -> None:
    """Pass every breath until ``unit`` breathes."""
    while fight.state.decision.unit != unit:
        fight.apply(Pass(fight.state.decision.unit))


def first_battle(c: Campaigns, death_faces: list[int]) -> Fight[Any, Any]:
    """The Oni's Crushing Blow breaks the hatamoto's armor; the hatamoto spends Fate on its own cut; the
    lord falls (the GM sets his Wounds to 0) and the GM ends the battle: the death check rolls the
    faces typed at the table."""
    fight = c.open("ford", seed=1)
    fight.apply(Begin())
    to(fight, "oni")
    fight.apply(Breath("oni", (Use("crushing-blow", "hatamoto"),)), dice=[4, 3])
    to(fight, "hatamoto")
    fight.apply(Breath("hatamoto", (Use("horizontal-cut", "oni"),)), dice=[4, 5])
    if FateIntervention("hatamoto", 0) in fight.legal_actions():  # none once its Fate is spent
        fight.apply(FateIntervention("hatamoto", 0), dice=[])
    fight.apply(GmSetWounds("nobukado", 0), by=GM)
    fight.apply(GmEndCombat(winner="raiders"), by=GM, dice=death_faces)
    assert fight.over
    return fight


def test_break_damage_fate_and_wounds_last_into_the_next_battle(campaigns: Campaigns) -> None:
    # rule: SG.BRK.2 — "those 3 points disappear until repaired": the next battle's armor lacks them
    # rule: SG.FAT.1 — the Fate point spent stays spent; SG.WND.1 — Wounds lost stay lost (house default)
    c = campaigns
    roster(c)
    c.start_fight("ford", FORD, CAST)
    fight = first_battle(c, [6, 5])  # 6 + 5 + Physique 1 = 12 >= 11: the lord survives
    record = c.propose("ford", fight)
    entries = {e.character: e for e in record.aftermath}
    assert entries["hatamoto"].after["armor_damage"] == 3
    assert entries["hatamoto"].after["fate_points"] == 0
    assert entries["hatamoto"].after["wounds"] == 3  # the Crushing Blow took one of 4
    assert {n.rule for n in entries["hatamoto"].notes} >= {"SG.BRK.2", "SG.FAT.1", "SG.WND.1"}
    # reviewable: nothing on the roster changed before the GM confirms
    assert c.character("ford", "hatamoto").lasting["armor_damage"] == 0
    c.confirm("ford")
    assert c.character("ford", "hatamoto").lasting["armor_damage"] == 3
    c.start_fight("ford", FORD, CAST)
    again = c.open("ford", seed=2)
    unit = again.state.unit("hatamoto")
    assert (unit.armor_damage, unit.fate_points, unit.wounds) == (3, 0, 3)
    # in effect: the Oni's attack now meets Defense 3 lower (heavy armor's points gone until repaired)
    again.apply(Begin())
    to(again, "oni")
    events = again.apply(Breath("oni", (Use("claw-rake", "hatamoto"),)), dice=[1, 2])
    attack = next(e for e in events if e.kind == "attack")
    assert attack.data["defense"] == 11  # 14 with heavy armor, less the 3 the [Break] left


def test_a_fallen_lord_makes_the_death_check_with_typed_dice(campaigns: Campaigns) -> None:
    # rule: SG.INP.3 — death check after combat: 2d10 + the higher of Physique or Fate >= 11 survives
    c = campaigns
    roster(c)
    c.start_fight("ford", FORD, CAST)
    fight = first_battle(c, [2, 3])  # 2 + 3 + Physique 1 = 6 < 11: dies
    record = c.propose("ford", fight)
    lord = next(e for e in record.aftermath if e.character == "nobukado")
    assert lord.after["dead"] is True and "2+3" in lord.after["death"]
    c.confirm("ford")
    assert c.character("ford", "nobukado").dead
    with pytest.raises(CampaignError, match="dead"):
        c.start_fight("ford", FORD, CAST)


def test_a_survivor_starts_the_next_battle_with_one_wound_until_rest(campaigns: Campaigns) -> None:
    # rule: SG.INP.3 — "survive with serious injury": house default 1 Wound until a full day's rest
    c = campaigns
    roster(c)
    c.start_fight("ford", FORD, CAST)
    c.propose("ford", first_battle(c, [6, 5]))
    c.confirm("ford")
    lord = c.character("ford", "nobukado")
    assert lord.lasting["wounds"] == 1 and lord.lasting["serious_injury"]
    c.start_fight("ford", FORD, CAST)
    assert c.open("ford", seed=3).state.unit("nobukado").wounds == 1


def test_undo_until_the_next_battle_starts(campaigns: Campaigns) -> None:
    c = campaigns
    roster(c)
    c.start_fight("ford", FORD, CAST)
    c.propose("ford", first_battle(c, [6, 5]))
    c.confirm("ford")
    c.undo("ford")
    assert c.character("ford", "hatamoto").lasting["armor_damage"] == 0
    c.confirm("ford")  # the proposal is still there for review
    c.start_fight("ford", FORD, CAST)
    with pytest.raises(CampaignError, match="started since"):
        c.undo("ford")
    assert c.character("ford", "hatamoto").lasting["armor_damage"] == 3


def test_patch_once_then_camp_or_forge(sqlite_campaigns: Campaigns) -> None:
    # rule: SG.BRK.6 — an emergency patch only once for the same armor; later damage needs camp or forge
    c = sqlite_campaigns
    roster(c)
    c.start_fight("ford", FORD, CAST)
    fight = first_battle(c, [6, 5])
    record = c.propose("ford", fight, {"hatamoto": ["patch"], "nobukado": ["rest"]})
    after = {e.character: e.after for e in record.aftermath}
    assert after["hatamoto"]["armor_damage"] == 0 and after["hatamoto"]["emergency_patch_used"]
    assert after["nobukado"]["wounds"] is None and not after["nobukado"]["serious_injury"]
    c.confirm("ford")
    c.start_fight("ford", FORD, CAST)
    fight = first_battle(c, [6, 5])
    with pytest.raises(Exception, match="one emergency patch"):
        c.propose("ford", fight, {"hatamoto": ["patch"]})
    record = c.propose("ford", fight, {"hatamoto": ["camp"]})
    hatamoto = next(e for e in record.aftermath if e.character == "hatamoto")
    assert hatamoto.after["armor_damage"] == 0 and hatamoto.after["emergency_patch_used"]


def test_a_chronicle_of_another_scenario_is_refused(sqlite_campaigns: Campaigns) -> None:
    import kassen

    c = sqlite_campaigns
    roster(c)
    c.start_fight("ford", FORD, CAST)
    other = kassen.open_fight("demo", seed=1)
    other.autoplay()
    with pytest.raises(CampaignError, match="did not start from"):
        c.propose("ford", other.to_json())
    assert c.fights("ford")[-1].status == "started"
