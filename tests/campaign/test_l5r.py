"""Roll-and-keep campaigns: a maim lasts ("neither natural or magical healing will repair the secondary
effects — only the Wounds can be recovered", seed 003) and the next duel starts with its effects."""

from __future__ import annotations

from typing import Any

import pytest

from kassen.campaign.hooks import CampaignError
from kassen.campaign.roster import Campaigns
from kassen.core.scenario import read_scenario
from kassen.l5r.movement import speed

TEMPLATE = read_scenario("l5r/lame-veteran")
SHEETS: dict[str, dict[str, Any]] = {
    c["name"]: {
        k: v
        for k, v in c.items()
        if k not in ("name", "side", "wounds", "disadvantages", "position", "policy", "script", "prefers")
    }
    for c in TEMPLATE.data["characters"]
}


def roster(c: Campaigns) -> None:
    c.new("ford")
    c.add(
        "ford",
        "l5r",
        "tadaka",
        "Hida Tadaka",
        SHEETS["Hida Tadaka"],
        lasting={"wounds": 6, "disadvantages": ["Lame"]},
    )
    c.add("ford", "l5r", "kaneko", "Bayushi Kaneko", SHEETS["Bayushi Kaneko"], owner="ayumi")


def test_a_maim_lasts_into_the_next_duel_and_healing_leaves_it(campaigns: Campaigns) -> None:
    # rule: L5.CS.3 — the maim's disadvantage stays for good; only the Wounds can be recovered
    c = campaigns
    roster(c)
    cast = [("tadaka", "Crab"), ("kaneko", "Scorpion")]
    c.start_fight("ford", TEMPLATE, cast)
    fight = c.open("ford", seed=27)  # the seed that leaves Tadaka alive with a fresh leg maim
    fight.autoplay()
    record = c.propose("ford", fight.to_json(), {"tadaka": ["heal"]})
    tadaka = next(e for e in record.aftermath if e.character == "tadaka")
    assert tadaka.after["disadvantages"] == ["Lame", "Lame"]  # cumulative (L5.CS.2)
    assert tadaka.after["wounds"] == 0 and not tadaka.after["dead"]
    assert any("maimed: Lame" in n.text and n.rule == "L5.CS.3" for n in tadaka.notes)
    c.confirm("ford")
    c.start_fight("ford", TEMPLATE, cast)
    t = c.open("ford", seed=1).state.fighter("Hida Tadaka")
    # rule: L5.LEG.1 — Lame (maimed leg): movement halved, twice for two maims
    assert t.conditions == ("Lame", "Lame") and t.wounds == 0
    assert speed(t, c.open("ford", seed=1).tables, 1).feet == 2


def test_wounds_carry_unless_healed(sqlite_campaigns: Campaigns) -> None:
    # rule: L5.CS.3 — house default carry_wounds: the next duel follows before any healing
    c = sqlite_campaigns
    roster(c)
    cast = [("tadaka", "Crab"), ("kaneko", "Scorpion")]
    c.start_fight("ford", TEMPLATE, cast)
    fight = c.open("ford", seed=27)
    fight.autoplay()
    record = c.propose("ford", fight)
    tadaka = next(e for e in record.aftermath if e.character == "tadaka")
    assert tadaka.after["wounds"] == fight.state.fighter("Hida Tadaka").wounds > 0
    c.confirm("ford")
    c.start_fight("ford", TEMPLATE, cast)
    assert c.open("ford", seed=1).state.fighter("Hida Tadaka").wounds == tadaka.after["wounds"]


def test_a_player_sees_only_their_characters(sqlite_campaigns: Campaigns) -> None:
    c = sqlite_campaigns
    roster(c)
    token = c.player_token("ford", "ayumi")
    role = c.role("ford", token)
    assert role is not None and not role.gm
    assert [ch.id for ch in c.characters("ford", role)] == ["kaneko"]
    with pytest.raises(CampaignError, match="no character"):
        c.character("ford", "tadaka", role)
    assert c.role("ford", "guess") is None
