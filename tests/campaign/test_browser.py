"""A campaign in a real browser (Playwright for Python driving Debian's Chromium, headless): a GM creates
a campaign, builds a Sengoku character by form (a wrong value shows the loader's error beside its
field; the valid sheet shows its Defense and the odds of its attacks), builds a scenario by form (a
zone the battlefield lacks is refused beside its field), starts the fight from the campaign, plays it
at the web table by clicking, proposes and confirms the aftermath, and sees it on the character's
sheet. Screenshots go to ``$KASSEN_CAMPAIGN_SCREENS`` (default ``build/screenshots/``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="Playwright for Python (kassen[webtest]) is not installed")

from playwright.sync_api import Browser, Page, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from web.conftest import ROOT, Server, start_server, unavailable

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
]
#: Form controls without a label (tests/web/test_browser.py's check).
UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea')]
  .filter(el => el.type !== 'hidden' && !el.closest('[hidden]'))
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
  .map(el => el.outerHTML.slice(0, 120))"""
SHOTS = Path(os.environ.get("KASSEN_CAMPAIGN_SCREENS", ROOT / "build" / "screenshots"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        unavailable(f"Debian's chromium is not installed ({CHROMIUM}; .ci/run installs it)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("campaign-browser")
    running = start_server(f"sqlite:///{folder / 'kassen.db'}", folder / "server.log")
    yield running
    running.stop()


def shot(page: Page, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"campaign-{name}.png"
    page.screenshot(path=str(path), full_page=full)
    assert path.stat().st_size > 5000


def play_at_the_table(page: Page) -> None:
    """Click the GM's screen until the fight is over, as a player keen to fight would: an option that
    finishes the decision with odds shown (an attack) first, else deeper into the menu (a few steps at
    most), else the first option that finishes it; the foes are played by the server's policy."""
    screen = page.locator("#screen .screen")
    options = "#screen .menu > .options > li"
    deeper = 0
    for _ in range(600):
        expect(screen).to_be_visible()
        if screen.get_attribute("data-over") == "1":
            return
        seq = screen.get_attribute("data-seq")
        attack = page.locator(f"{options}:has(.odds) button.option.complete")
        complete = page.locator(f"{options} button.option.complete")
        more = page.locator(f"{options} button.option.more")
        try:  # the screen refreshes as the server's policy moves: a button may go before its click
            if attack.count() > 0 or (complete.count() > 0 and (deeper >= 3 or more.count() == 0)):
                (attack if attack.count() > 0 else complete).first.click(timeout=3000)
                expect(screen).not_to_have_attribute("data-seq", seq or "", timeout=20_000)
                deeper = 0
            elif more.count() > 0:
                more.first.click(timeout=3000)
                deeper += 1
                page.wait_for_timeout(150)
            else:
                page.wait_for_timeout(300)
        except PlaywrightError:
            deeper = 0
            continue
    raise AssertionError("the fight did not end")


def test_a_gm_builds_a_character_and_a_scenario_plays_the_fight_and_confirms_its_aftermath(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(server.url + "/campaigns")
    page.fill("#campaign-id", "ford")
    page.fill("#campaign-name", "The raid at the ford")
    page.click("#create-campaign")
    page.wait_for_url(re.compile(r"/campaigns/ford"))
    expect(page.locator("#roster-title")).to_be_visible()

    # the character builder: a wrong value shows the loader's words beside its field
    page.click("#new-sengoku")
    expect(page.locator("#builder")).to_be_visible()
    page.fill("#f-id", "hatamoto")
    page.fill("#f-name", "Takeda hatamoto")
    page.fill("#f-owner", "ayumi")
    assert page.evaluate(UNLABELLED) == []
    page.select_option("#f-creature", "samurai")
    page.fill("#f-physique", "99")
    expect(page.locator("#err-physique")).to_contain_text("less than or equal to", timeout=10_000)
    expect(page.locator("#err-name")).to_be_empty()
    shot(page, "builder-error")
    page.fill("#f-physique", "2")
    page.fill("#f-skills", "swordsmanship=3")
    page.fill("#f-fate_points", "1")
    expect(page.locator("#err-physique")).to_be_empty(timeout=10_000)
    # rule: SG.DEF.5 (the preview's Defense), with the exact odds of its attacks
    expect(page.locator("#preview-defense")).to_contain_text("Defense", timeout=20_000)
    expect(page.locator("#preview-attacks li").first).to_contain_text("hit")
    shot(page, "builder-preview")
    page.click("#save-character")
    expect(page.locator("#sheet-title")).to_contain_text("Takeda hatamoto")

    # the scenario builder: a zone the battlefield lacks is refused beside its field
    page.click("#back-home")
    page.click("#build-sengoku")
    assert page.evaluate(UNLABELLED) == []
    page.fill("#s-scenario_id", "ford-duel")
    page.fill("#s-title", "A duel at the ford")
    page.select_option("#s-unit-0-who", "char:hatamoto")
    page.fill("#s-unit-0-place", "own-front")
    page.select_option("#s-unit-1-who", "creature:ashigaru-squad")
    page.select_option("#s-unit-1-side", "1")
    page.fill("#s-unit-1-place", "the-moon")
    expect(page.locator("#err-unit-1-place")).not_to_be_empty(timeout=10_000)
    shot(page, "scenario-error")
    page.fill("#s-unit-1-place", "own-front")
    expect(page.locator("#err-unit-1-place")).to_be_empty(timeout=10_000)
    page.click("#save-scenario")
    expect(page.locator("#scenario-saved")).to_be_visible(timeout=10_000)
    expect(page.locator("#scenario-yaml")).to_contain_text("creature: samurai")
    shot(page, "scenario-saved")

    # the fight starts from the campaign and opens at the web table
    page.get_by_role("button", name="← the roster").first.click()
    assert page.evaluate(UNLABELLED) == []
    # a character of the GM's, imported as YAML, and a player's link: the player sees only their own
    page.click("#campaign details.not-now summary")
    ronin = "ruleset: sengoku\nid: ronin\nname: Wandering ronin\nsheet: {creature: samurai}\n"
    page.fill("#import-yaml", ronin)
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#campaign-notice")).to_contain_text("imported Wandering ronin")
    page.fill("#player-name", "ayumi")
    page.click("#make-player-link")
    link = page.locator("#player-link").input_value()
    player_context = browser.new_context(viewport={"width": 390, "height": 844})
    player = player_context.new_page()
    player.goto(link)
    expect(player.locator("#roster-title")).to_contain_text("ayumi")
    expect(player.locator("#roster-hatamoto")).to_be_visible()
    assert player.locator("#roster-ronin, #start-fight, #new-sengoku, #player-form").count() == 0
    shot(player, "player")
    player_context.close()
    page.select_option("#start-template", "ford-duel")
    page.select_option("#start-other-policy", "heuristic")
    page.fill("#start-seed", "4")
    page.click("#start-button")
    expect(page.locator("#open-table")).to_be_visible(timeout=20_000)
    page.click("#open-table")
    page.wait_for_url(re.compile(r"/fights/[A-Za-z0-9_-]{22}"))
    play_at_the_table(page)
    expect(page.locator("#screen .result")).to_be_visible()
    shot(page, "table-over", full=False)

    # back at the campaign: the aftermath proposed, reviewed, confirmed, and on the sheet
    page.goto(server.url + "/campaigns/ford")
    expect(page.locator("#last-fight")).to_contain_text("started")
    page.click("#propose-aftermath")
    expect(page.locator("#aftermath")).to_be_visible(timeout=20_000)
    expect(page.locator("#aftermath")).to_contain_text("battles: 0 → 1")
    shot(page, "aftermath-review")
    page.click("#confirm-aftermath")
    expect(page.locator("#campaign-notice")).to_contain_text("written to the roster")
    expect(page.locator("#undo-aftermath")).to_be_visible()
    page.locator("#roster-hatamoto button").first.click()
    # the aftermath in effect on the sheet: the battle counted, and what it left (here the death check)
    expect(page.locator("#sheet .lasting tr", has_text="battles")).to_contain_text("1")
    expect(page.locator("#sheet-lines")).to_contain_text(re.compile(r"battles: 1|died after the battle"))
    expect(page.locator("#sheet")).to_contain_text("Fights: 1")
    shot(page, "sheet-after")
    assert errors == [], errors
    context.close()
