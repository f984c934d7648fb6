"""Sengoku campaigns: a weapon the critical mistake table destroys in one battle is gone from the next,
until the GM rearms the character (house default over SG.FUM.3, data/campaign.yaml ``weapons``)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kassen.campaign.roster import Campaigns
from kassen.core.engine import GM as GM_ACTOR
from kassen.core.errors import IllegalActionError
from kassen.core.scenario import read_scenario
from kassen.sengoku.battle import GM, Begin, Breath, Decline, Pass, Use
from kassen.sengoku.battle.actions import GmEndCombat

DUEL = read_scenario(
    "duel",
    text=yaml.safe_dump(
        {
            "ruleset": "sengoku",
            "name": "A duel at the ford",
            "sides": [{"id": "party", "allies": True}, {"id": "yoma"}],
            "units": [
                {"id": "genzaburo", "creature": "genzaburo", "side": "party", "zone": "own-front"},
                {"id": "foe", "creature": "oni", "side": "yoma", "zone": "own-front"},
            ],
        }
    ),
)
CAST = [("genzaburo", "party")]


def first_battle(c: Campaigns) -> Any:
    """Genzaburo's cut fumbles on a double 1; the critical mistake's d100 is 90 (the house row 81-95:
    the weapon used is destroyed); the GM adds no extra and ends the battle."""
    c.new("ford")
    c.add(
        "ford",
        "sengoku",
        "genzaburo",
        "Genzaburo",
        {"creature": "genzaburo", "overrides": {"fate_points": 0}},
    )
    c.start_fight("ford", DUEL, CAST)
    fight = c.open("ford", seed=1, dice="table")
    fight.apply(Begin())
    while fight.state.decision.unit != "genzaburo":
        fight.apply(Pass(fight.state.decision.unit))
    events = fight.apply(Breath("genzaburo", (Use("horizontal-cut", "foe"),)), dice=[1, 1, 90])
    assert any(e.kind == "weapon_broken" for e in events)
    fight.apply(Decline(GM))
    fight.apply(GmEndCombat(winner="party"), by=GM_ACTOR, dice=[])
    assert fight.over
    return fight


def test_a_destroyed_weapon_is_gone_from_the_next_battle_until_rearmed(campaigns: Campaigns) -> None:
    # rule: SG.FUM.3 — the critical mistake destroys the weapon used; the campaign keeps it destroyed
    c = campaigns
    fight = first_battle(c)
    record = c.propose("ford", fight)
    [entry] = record.aftermath
    assert entry.after["weapons_lost"] == ["uchigatana"]
    assert any(n.rule == "SG.FUM.3" and "uchigatana" in n.text for n in entry.notes)
    c.confirm("ford")
    assert "weapons gone until replaced: uchigatana" in " ".join(
        __import__("kassen.sengoku.campaign", fromlist=["CAMPAIGN"]).CAMPAIGN.sheet(
            c.character("ford", "genzaburo")
        )
    )
    c.start_fight("ford", DUEL, CAST)
    again = c.open("ford", seed=2, dice="table")
    assert "uchigatana" not in again.tables.creature(again.state.unit("genzaburo")).weapons
    # in effect: the cut its sword carried cannot be made in the next battle
    again.apply(Begin())
    while again.state.decision.unit != "genzaburo":
        again.apply(Pass(again.state.decision.unit))
    with pytest.raises(IllegalActionError):
        again.apply(Breath("genzaburo", (Use("horizontal-cut", "foe"),)), dice=[5, 5])
    # rearmed in the aftermath, the sword is back for the battle after
    again.apply(GmEndCombat(winner="party"), by=GM_ACTOR, dice=[])
    c.propose("ford", again, {"genzaburo": ["rearm"]})
    c.confirm("ford")
    assert c.character("ford", "genzaburo").lasting["weapons_lost"] == []
    c.start_fight("ford", DUEL, CAST)
    third = c.open("ford", seed=3)
    assert third.tables.creature(third.state.unit("genzaburo")).weapons[0] == "uchigatana"
