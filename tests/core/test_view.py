"""Views: the GM sees everything; a side sees its own units fully and of the others only what the
visibility table (content data) makes public — no hidden value anywhere in a side's serialized view."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from kassen.core.errors import KassenError
from kassen.core.report import account
from kassen.core.scenario import open_fight
from kassen.core.view import GM_VIEW, Viewer

SENTINEL = 987_654_321


def _fight_with_sentinel() -> Any:
    fight = open_fight("coinflip/best-of-three", seed=4)
    fight.autoplay()
    # give Bob's tokens a value that cannot appear by chance, then look for it in Ann's view
    players = fight.state.players
    state = replace(fight.state, players=(players[0], replace(players[1], tokens=SENTINEL)))
    fight._snapshots[-1] = replace(fight.snapshot, state=state)
    return fight


def test_the_gm_sees_everything_and_a_side_only_what_is_public() -> None:
    # rule: CF.VIEW.1
    fight = _fight_with_sentinel()
    gm, left = fight.view(GM_VIEW), fight.view(Viewer("left"))
    assert str(SENTINEL) in json.dumps(gm)
    assert str(SENTINEL) not in json.dumps(left)
    assert str(SENTINEL) in json.dumps(fight.view(Viewer("right")))  # Bob's own tokens
    # they differ exactly by the hidden fields of the table
    assert gm["state"]["players"][1]["tokens"] == SENTINEL and left["state"]["players"][1]["tokens"] is None
    left["state"]["players"][1]["tokens"] = SENTINEL
    assert left["state"] == gm["state"]
    for g, s in zip(gm["log"], left["log"], strict=True):
        for ge, se in zip(g["events"], s["events"], strict=True):
            if ge["kind"] == "flip" and ge["data"]["loser"] == "bob":
                assert se["data"]["tokens"] is None
                se["data"]["tokens"] = ge["data"]["tokens"]
            assert ge == se
        if g["actor"] and g["actor"].get("side") == "right":
            assert "action" not in s  # the other side's choices are not shown, only what they did
    assert "rng" not in json.dumps(left)


def test_a_side_reads_the_account_without_the_hidden_values() -> None:
    fight = open_fight("coinflip/best-of-three", seed=4)
    fight.autoplay()
    text = account(fight, viewer=Viewer("left"))
    assert "Bob is down to ?" in text and "Ann is down to 1" in text
    assert "Bob is down to 1" in account(fight)


def test_an_unknown_side_is_refused() -> None:
    fight = open_fight("coinflip/best-of-three", seed=4)
    with pytest.raises(KassenError, match="no side 'middle'"):
        fight.view(Viewer("middle"))


@pytest.mark.parametrize(
    ("scenario", "path", "hidden"),
    [
        ("arena/duel", ["attack", "ken", "torso"], {"stun", "knock-down", "KO"}),
        ("l5r/kakita-vs-hida", None, {"target down", "wound ranks", "Wounds"}),
    ],
)
def test_a_sides_menu_leaves_out_the_odds_that_give_hidden_values_away(
    scenario: str, path: list[str] | None, hidden: set[str]
) -> None:
    fight = open_fight(scenario, seed=1)
    fight.step()
    side = fight.to_move.side
    if path is None:  # the first complete attack on the menu
        path = []
        while True:
            option = next(o for o in fight.menu(path).options if o.allowed and (o.complete or o.odds is None))
            path.append(option.id)
            if option.complete:
                path.pop()
                break
    gm_odds = {o.id: o.odds for o in fight.menu(path).options if o.odds is not None}
    side_odds = {o.id: o.odds for o in fight.menu(path, viewer=Viewer(side)).options if o.odds is not None}
    assert gm_odds and set(gm_odds) == set(side_odds)
    for key, odds in gm_odds.items():
        names = {k for k, _ in odds.outcomes} | {k for k, _ in odds.expected}
        seen = {k for k, _ in side_odds[key].outcomes} | {k for k, _ in side_odds[key].expected}
        assert names & hidden and seen == names - hidden


def test_a_sides_view_id_follows_what_it_sees_and_nothing_hidden() -> None:
    # rule: AR.GAP.2 — HP is hidden from the other side: changing it changes the GM's id, not theirs
    fight = open_fight("arena/duel", seed=4)
    fight.step()
    east, west = Viewer("east"), Viewer("west")
    assert fight.view(east)["state_id"] == fight.view_id(east) != fight.state_id
    assert fight.view(GM_VIEW)["state_id"] == fight.state_id
    before = {v.side: fight.view_id(v) for v in (east, west)}
    state_before = fight.state_id
    hidden = replace(
        fight.state,
        fighters=tuple(
            replace(f, hp=f.hp - 1) if f.profile.side == "west" else f for f in fight.state.fighters
        ),
    )
    fight._snapshots[-1] = replace(fight.snapshot, state=hidden)
    fight._ids[-1] = None
    assert fight.state_id != state_before  # the GM's id names the change
    assert fight.view_id(east) == before["east"]  # east cannot see west's HP: its id is the same
    assert fight.view_id(west) != before["west"]  # west sees its own
    fight.step()
    assert fight.view_id(east) != before["east"]  # an action is seen
