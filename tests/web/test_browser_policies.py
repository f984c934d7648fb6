"""A side played by the search, in a real browser: the GM opens a fight from the fight list with one side
played by the search, a player plays the other side by clicking on a phone-sized screen, and the
search's actions arrive by themselves (no click, no reload); the player's screen shows nothing hidden.
Playwright for Python with Debian's Chromium, as tests/web/test_browser.py."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="Playwright for Python (kassen[webtest]) is not installed")

from playwright.sync_api import Browser, expect

from .conftest import Server
from .test_browser import LAPTOP, PHONE, Screen, acted, browser, server

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests


def attack(player: Screen) -> None:
    """Click an attack together on the player's menu: "attack", then the first option of each step
    until one finishes the decision."""
    options = player.page.locator("#screen .menu > .options")
    for depth in range(8):
        if depth == 0:
            options.locator("button.option.more", has_text=re.compile(r"^(\d\s*)?attack")).first.click()
        else:
            complete = options.locator("button.option.complete")
            if complete.count():
                complete.first.click()
                return
            options.locator("button.option.more").first.click()
        expect(player.page.locator("#screen nav.crumbs button")).to_have_count(depth + 2)
    raise AssertionError("no attack could be finished")


def test_a_side_played_by_the_search_plays_itself_against_a_player(browser: Browser, server: Server) -> None:
    gm = Screen(browser, server.url + "/", LAPTOP)
    gm.check_accessible()
    gm.page.select_option("#scenario-name", "arena/duel")
    # a row per side of the scenario chosen: west is the search's
    expect(gm.page.locator("#side-policies select.side-policy")).to_have_count(2)
    gm.page.select_option('#side-policies select[data-side="west"]', "search:iterations=200")
    gm.check_accessible()
    gm.page.fill("#seed", "3")
    gm.page.click("#open-fight")
    gm.page.wait_for_url(re.compile(r"/fights/[A-Za-z0-9_-]{22}#t="))
    expect(gm.root).to_be_visible()
    expect(gm.page.locator('form.who-plays select[data-side="west"]')).to_have_value("search:iterations=200")

    link = gm.page.locator('#links input.join-link[data-side="east"]').input_value()
    player = Screen(browser, link, PHONE)
    expect(player.root).to_be_visible()
    expect(player.page.locator("#screen")).to_contain_text("search:iterations=200")  # who plays is public

    # the GM begins the bout
    seq = gm.attr("data-seq")
    gm.page.get_by_role("button", name="Let the policy decide").click()
    acted(gm, seq)

    clicks = 0
    while player.attr("data-over") != "1":
        # the player decides whenever it is east's turn: west's turns are played by the server alone
        expect(player.root).to_have_attribute("data-decide", "1", timeout=30_000)
        seq = player.attr("data-seq")
        attack(player)
        clicks += 1
        assert clicks < 40, "the bout does not end"
        acted(player, seq)
        # after east's action, the search's reply comes by itself: the seq moves on again, or the bout ends
        player.page.wait_for_function(
            """(seq) => { const r = document.querySelector('#screen .screen');
                          return r && (r.dataset.over === '1' || Number(r.dataset.seq) > seq); }""",
            arg=int(seq) + 1,
            timeout=30_000,
        )
    assert clicks >= 1
    log = player.page.locator("#screen .entries .entry .who")
    assert any("Ken" in x for x in log.all_inner_texts()), "the search (Ken, west) played"
    # the player's screen shows nothing hidden: Ken's HP and FP numbers are the other corner's
    text = player.page.locator("#screen").inner_text()
    assert re.search(r"Ken: HP -?\d+ →", text) is None and re.search(r"Ken spends FP.*: \d+ →", text) is None
    player.shot("arena-search-side-player-phone", PHONE)
    gm.shot("arena-search-side-gm-laptop", LAPTOP)
    player.close()
    gm.close()
