"""Arena campaigns: a fighter's record over a run of matches, and its popularity at each match's start
following the seed's formula (seed 004: 10, +1 champion, +1 at 10 or more matches fought, +2 aged 19 or
under, plus the highest and minus the lowest reaction modifier)."""

from __future__ import annotations

from typing import Any

import pytest

from kassen.arena.campaign import CAMPAIGN
from kassen.campaign.hooks import CampaignError
from kassen.campaign.roster import Campaigns
from kassen.core.scenario import read_scenario

TEMPLATE = read_scenario("arena/duel")
RYU = next(f for f in TEMPLATE.data["fighters"] if f["id"] == "ryu")
AOI = {
    **{k: v for k, v in RYU.items() if k not in ("id", "name", "side", "champion")},
    "matches": 8,
    "age": 18,
    "reactions": [2, -1],
}


def popularity_at_start(events: Any, fighter: str) -> int:
    return int(
        next(e.data["popularity"] for e in events if e.kind == "popularity" and e.data["fighter"] == fighter)
    )


def test_popularity_follows_the_formula_over_a_run_of_matches(campaigns: Campaigns) -> None:
    # rule: AR.AUD.1 — popularity = 10 +1 champion +1 at 10+ matches +2 aged 19 or under + highest − lowest
    # rule: AR.AUD.2 — checked at each match's start; audience points are never carried over
    c = campaigns
    c.new("arena")
    c.add("arena", "arena", "ryu", "Aoi", AOI)  # replaces Ryu in the template, on Ryu's side
    champion = False
    losses = wins = 0
    for match in range(4):
        c.start_fight("arena", TEMPLATE, [("ryu", "east")])
        fight = c.open("arena", seed=100 + match)
        fight.autoplay()
        fought = 8 + match  # matches fought before this one
        expected = 10 + 2 + 2 - 1 + (fought >= 10) + champion
        assert popularity_at_start(fight.events, "ryu") == expected
        aoi = fight.state.fighter("ryu")
        assert fight.initial_state.fighter("ryu").audience_points == 0  # nothing carried in
        won = fight.result is not None and fight.result.winner == "east"
        take = {"ryu": ["championship"]} if won and not champion else {}
        record = c.propose("arena", fight, take)
        entry = record.aftermath[0]
        assert entry.after["matches"] == match + 1
        wins, losses = wins + won, losses + (not won and fight.result.winner is not None)
        assert (entry.after["wins"], entry.after["losses"]) == (wins, losses)
        c.confirm("arena")
        champion = champion or won
        assert aoi is not None
    ch = c.character("arena", "ryu")
    assert CAMPAIGN.popularity(ch) == 10 + 2 + 2 - 1 + 1 + champion
    assert losses > 0  # the run holds a loss, counted as a match fought (house default)


def test_a_championship_needs_a_win(sqlite_campaigns: Campaigns) -> None:
    c = sqlite_campaigns
    c.new("arena")
    c.add("arena", "arena", "ryu", "Aoi", AOI)
    c.start_fight("arena", TEMPLATE, [("ryu", "east")])
    for seed in range(100, 120):
        fight = c.open("arena", seed=seed)
        fight.autoplay()
        if fight.result is not None and fight.result.winner == "west":
            break
    else:
        pytest.fail("no loss in 20 seeds")
    with pytest.raises(CampaignError, match="did not win"):
        c.propose("arena", fight, {"ryu": ["championship"]})
