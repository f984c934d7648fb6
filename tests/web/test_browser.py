"""The screens in a real browser (issue 12): Playwright for Python driving Debian's Chromium, headless.

For each ruleset, a GM opens a fight from the fight list and plays it to its end by clicking in the GM
screen — real menu choices (a decision built step by step), the policy's choice, one step by keyboard
alone — while a player screen, opened on a join link in another browser, follows every action live
(it must show the GM's new state within two seconds, without a reload); where the player's side is to
decide, the player clicks on its own screen. A second fight of each ruleset is played with table dice:
the faces rolled are typed into the dice form. Every form control must have a label, every control be
reachable by keyboard (Tab reaches the menu), and the pages raise no script error.

Screenshots of the GM and player screens at laptop and phone widths are saved as test artifacts under
``$KASSEN_SCREENSHOTS`` (default ``build/screenshots/``). Without Chromium the tests skip, saying so
(``.ci/run`` installs it, and makes its absence a failure).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python (kassen[webtest]) is not installed")

from playwright.sync_api import Browser, Page, expect, sync_playwright

from .conftest import ROOT, Server, start_server, unavailable

CHROMIUM = "/usr/bin/chromium"
#: As root, with no network but loopback: no sandbox, and none of Chromium's own background traffic.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(os.environ.get("KASSEN_SCREENSHOTS", ROOT / "build" / "screenshots"))
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LIVE_MS = 2000  # an open screen shows a new state within this

#: Short fights of each ruleset (few actions to the end), and the seed that keeps them short.
PLAYS = {
    "arena": ("arena/knockback", 4),
    "l5r": ("l5r/kakita-vs-hida", 1),
    "sengoku": ("sengoku/count-example", 2),
}

UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea')]
  .filter(el => el.type !== 'hidden' && !el.closest('[hidden]'))
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby'))
  .map(el => el.outerHTML.slice(0, 120))"""
UNREACHABLE = """() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary')]
  .filter(el => !el.disabled && !el.closest('[hidden]') && el.type !== 'hidden')
  .filter(el => el.tabIndex < 0 || !(el.innerText || el.value || el.getAttribute('aria-label')
                || (el.labels && el.labels.length) || el.type === 'file' || el.type === 'radio'))
  .map(el => el.outerHTML.slice(0, 120))"""


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
    folder = tmp_path_factory.mktemp("browser")
    running = start_server(f"sqlite:///{folder / 'fights.db'}", folder / "server.log")
    yield running
    running.stop()


class Screen:
    """One open screen (the GM's or a player's) and what its script reports."""

    def __init__(self, browser: Browser, url: str, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(url)

    @property
    def root(self) -> Any:
        return self.page.locator("#screen .screen")

    def attr(self, name: str) -> str:
        value = self.root.get_attribute(name)
        assert value is not None
        return str(value)

    def shot(self, name: str, viewport: dict[str, int]) -> Path:
        self.page.set_viewport_size(viewport)  # type: ignore[arg-type]
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 5000
        return path

    def check_accessible(self) -> None:
        assert self.page.evaluate(UNLABELLED) == [], "form controls without a label"
        assert self.page.evaluate(UNREACHABLE) == [], "controls out of the tab order or without a name"

    def close(self) -> None:
        assert self.errors == [], self.errors
        self.context.close()


def open_fight(browser: Browser, server: Server, scenario: str, seed: int, dice: str) -> Screen:
    """The fight list's "new fight" form, filled and sent: the GM screen of the new fight."""
    gm = Screen(browser, server.url + "/", LAPTOP)
    gm.check_accessible()
    gm.page.select_option("#scenario-name", scenario)
    gm.page.fill("#seed", str(seed))
    gm.page.check(f"#dice-{dice}")
    gm.page.click("#open-fight")
    gm.page.wait_for_url(re.compile(r"/fights/[A-Za-z0-9_-]{22}#t="))
    expect(gm.root).to_be_visible()
    expect(gm.page.locator("#links input.join-link").first).to_be_visible()
    return gm


def follows(player: Screen, gm: Screen) -> None:
    """The player's screen shows the GM's state within LIVE_MS, with no reload (by its seq: a side's
    screen holds its own view's id, never the state id, ``Fight.view_id``)."""
    expect(player.root).to_have_attribute("data-seq", gm.attr("data-seq"), timeout=LIVE_MS)
    expect(player.root).to_have_attribute("data-pending", gm.attr("data-pending"), timeout=LIVE_MS)


def acted(screen: Screen, seq: str) -> None:
    """Wait for the screen's own refresh after its action."""
    expect(screen.root).not_to_have_attribute("data-seq", seq, timeout=10_000)


def build_decision(gm: Screen) -> list[str]:
    """Click a decision together, option by option: into a deeper menu first (the last allowed
    option, so that it is not always what the policy would pick), then the first option that finishes
    the decision as soon as there is one; the labels clicked."""
    clicked = []
    for depth in range(1, 12):
        menu = gm.page.locator("#screen .menu > .options")
        complete = menu.locator("button.option.complete")
        more = menu.locator("button.option.more")
        if more.count() == 0 or (depth > 1 and complete.count() > 0):
            clicked.append(complete.first.inner_text())
            complete.first.click()
            return clicked
        clicked.append(more.last.inner_text())
        more.last.click()
        expect(gm.page.locator("#screen nav.crumbs button")).to_have_count(depth + 1)
    raise AssertionError(f"no complete option after {clicked}")


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_a_whole_fight_played_by_clicking_with_a_live_player_screen(
    browser: Browser, server: Server, ruleset: str
) -> None:
    scenario, seed = PLAYS[ruleset]
    gm = open_fight(browser, server, scenario, seed, "auto")
    join = gm.page.locator("#links input.join-link").first
    side, link = join.get_attribute("data-side"), join.input_value()
    player = Screen(browser, link, PHONE)
    expect(player.root).to_be_visible()
    assert player.page.locator(".gm-tools, #links").count() == 0  # no GM controls on a player screen
    follows(player, gm)
    gm.check_accessible()
    player.check_accessible()
    gm.shot(f"{ruleset}-gm-start-laptop", LAPTOP)

    # One step by keyboard alone: Tab from the top of the page reaches the menu; Enter takes it.
    gm.page.locator("body").focus()
    for _ in range(40):
        gm.page.keyboard.press("Tab")
        if gm.page.evaluate("() => !!document.activeElement.closest('#screen .options, #screen .menu')"):
            break
    else:
        raise AssertionError("Tab never reaches the menu")
    seq = gm.attr("data-seq")
    focused = gm.page.evaluate("() => document.activeElement.className")
    gm.page.keyboard.press("Enter")
    if "complete" in focused or "option" not in focused:
        acted(gm, seq)
    else:  # a step into a deeper menu: finish the decision by clicking
        expect(gm.page.locator("#screen nav.crumbs")).to_be_visible()
        build_decision(gm)
        acted(gm, seq)
    follows(player, gm)

    built, by_player, steps = False, False, 0
    while gm.attr("data-over") != "1":
        steps += 1
        assert steps < 80, "the fight does not end"
        seq = gm.attr("data-seq")
        if not by_player and player.attr("data-decide") == "1":
            # The player's own unit decides: on the player's screen, which offers only its menus.
            player.page.get_by_role("button", name="Let the policy decide").click()
            acted(player, seq)
            expect(gm.root).to_have_attribute("data-seq", player.attr("data-seq"), timeout=LIVE_MS)
            by_player = True
            continue
        menu = gm.page.locator("#screen .menu > .options button.option")
        if not built and menu.count() > 0 and gm.page.locator("#screen .option.more").count() > 0:
            labels = build_decision(gm)
            built = True
        else:
            gm.page.get_by_role("button", name="Let the policy decide").click()
            labels = []
        acted(gm, seq)
        follows(player, gm)
        if labels:  # the log names what was chosen
            assert gm.page.locator("#screen .entries .entry").count() >= 1
        if steps == 2:
            gm.shot(f"{ruleset}-gm-playing-laptop", LAPTOP)
            player.shot(f"{ruleset}-player-playing-phone", PHONE)
    assert built, "no decision was built by clicking through a menu"
    expect(player.root).to_have_attribute("data-over", "1", timeout=LIVE_MS)
    expect(gm.page.locator("#screen .result")).to_contain_text("Over")
    expect(player.page.locator("#screen .result")).to_contain_text("Over")

    # The explanation behind the numbers, on demand.
    gm.page.locator("#screen details.explain-box summary").first.click()
    expect(gm.page.locator("#screen details.explain-box .explain li").first).to_be_visible()
    gm.check_accessible()
    gm.shot(f"{ruleset}-gm-over-laptop", LAPTOP)
    gm.shot(f"{ruleset}-gm-over-phone", PHONE)
    player.shot(f"{ruleset}-player-over-phone", PHONE)
    player.shot(f"{ruleset}-player-over-laptop", LAPTOP)
    assert side
    player.close()
    gm.close()


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_table_dice_are_typed_into_the_dice_form(browser: Browser, server: Server, ruleset: str) -> None:
    scenario, seed = PLAYS[ruleset]
    gm = open_fight(browser, server, scenario, seed, "table")
    player = Screen(browser, gm.page.locator("#links input.join-link").first.input_value(), PHONE)
    expect(player.root).to_be_visible()
    typed: list[int] = []
    deadline = time.monotonic() + 60
    while not typed or gm.attr("data-pending") == "1":
        assert time.monotonic() < deadline, "no action waited for dice"
        seq, pending = gm.attr("data-seq"), gm.attr("data-pending")
        if pending == "1":
            faces = gm.page.get_by_label(re.compile("Faces rolled"))
            if not typed:
                gm.check_accessible()
                gm.shot(f"{ruleset}-gm-dice-laptop", LAPTOP)
                player.shot(f"{ruleset}-player-dice-phone", PHONE)
            faces.fill("1")  # the lowest face: on every die
            typed.append(1)
            before = gm.page.locator("#screen .dice h2").inner_text()
            faces.press("Enter")
            gm.page.wait_for_function(
                "([seq, before]) => { const r = document.querySelector('#screen .screen');"
                " const h = document.querySelector('#screen .dice h2');"
                " return r && (r.dataset.seq !== seq || !h || h.innerText !== before); }",
                arg=[seq, before],
            )
        else:
            gm.page.get_by_role("button", name="Let the policy decide").click()
            gm.page.wait_for_function(
                "(seq) => { const r = document.querySelector('#screen .screen');"
                " return r && (r.dataset.seq !== seq || r.dataset.pending === '1'); }",
                arg=seq,
            )
        follows(player, gm)
    # The faces typed are in the chronicle, as typed.
    token = gm.page.url.split("#t=")[1]
    fight_id = gm.page.url.split("/fights/")[1].split("#")[0]
    chronicle = gm.page.evaluate(
        "async ([id, token]) => (await fetch('/api/fights/' + id + '/log',"
        " {headers: {Authorization: 'Bearer ' + token}})).json()",
        [fight_id, token],
    )
    rolled = [item["dice"] for item in chronicle["log"] if item.get("dice")]
    assert rolled and rolled[0] == typed, json.dumps(chronicle["log"])[:500]
    player.close()
    gm.close()


def test_the_gm_replaces_a_link_and_every_link_and_the_list_names_only_the_gms_fights(
    browser: Browser, server: Server
) -> None:
    import httpx

    gm = open_fight(browser, server, "arena/duel", 4, "auto")
    fight = gm.page.url.split("/fights/")[1].split("#")[0]
    links = gm.page.locator("#links input.join-link")
    east = links.first
    old = east.input_value()
    player = Screen(browser, old, LAPTOP)
    expect(player.root).to_be_visible()
    gm.page.click("#links [data-rotate='east']")
    expect(east).not_to_have_value(old)
    new = east.input_value()

    def reads(link: str) -> int:
        token = link.split("#t=")[1]
        r = httpx.get(f"{server.url}/api/fights/{fight}", headers={"Authorization": f"Bearer {token}"})
        return r.status_code

    assert reads(old) == 401 and reads(new) == 200
    # every link, the GM's too: the screen goes on with the new GM token
    gm_link = gm.page.locator("#gm-link").input_value()
    gm.page.click("#links [data-rotate='all']")
    expect(gm.page.locator("#gm-link")).not_to_have_value(gm_link)
    assert reads(gm_link) == 401 and reads(new) == 401
    assert reads(gm.page.locator("#gm-link").input_value()) == 200
    assert gm.page.url.endswith("#t=" + gm.page.locator("#gm-link").input_value().split("#t=")[1])
    gm.page.click("#screen .options button:not([disabled])")  # and plays on
    expect(gm.root).not_to_have_attribute("data-seq", "0")
    # the fight list names this fight in the GM's browser, and no fight in another one
    gm.page.goto(server.url + "/")
    expect(gm.page.locator(f".fight-link[data-fight-id='{fight}']")).to_have_text("Arena duel")
    stranger = Screen(browser, server.url + "/", LAPTOP)
    expect(stranger.page.locator(f".fight-link[data-fight-id='{fight}']")).to_have_text(
        re.compile(r"^fight ")
    )
    for screen in (gm, player, stranger):
        screen.page.close()
    assert gm.errors == [] and stranger.errors == []


def test_the_api_reference_shows_in_the_browser_under_the_pages_policy(
    browser: Browser, server: Server
) -> None:
    """The footer's "API" link: a page the server's Content-Security-Policy lets show (an explorer loaded
    from a CDN was blank, every script and style of it refused), with no console error."""
    import httpx

    console: list[str] = []
    page = Screen(browser, server.url + "/", LAPTOP)
    page.page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.page.click("footer a[href='/api/docs']")
    expect(page.page.locator("h1")).to_contain_text("The API")
    operations = httpx.get(server.url + "/openapi.json").json()["paths"]
    shown = page.page.locator(".api-op h3").all_inner_texts()
    assert len(shown) == sum(len(item) for item in operations.values()) > 30
    page.page.click("a[href='#schema-Refusal']")
    expect(page.page.locator("#schema-Refusal")).to_be_in_viewport()
    page.shot("api-reference-laptop", LAPTOP)
    assert console == [], console
    page.close()


def test_an_action_fetches_the_screen_once_with_a_clean_console(browser: Browser, server: Server) -> None:
    """The action's reply and the stream's news of the new state both ask for the screen: it is fetched
    once, with no request aborted (each abort was logged as a console error) and none left waiting."""
    gm = open_fight(browser, server, "arena/duel", 5, "auto")
    console: list[str] = []
    fetched: list[str] = []
    gm.page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    gm.page.on("requestfinished", lambda r: fetched.append(r.url) if r.url.endswith("/screen") else None)
    gm.page.on("requestfailed", lambda r: console.append(f"failed: {r.url} {r.failure}"))
    for _ in range(3):
        seq = gm.attr("data-seq")
        before = len(fetched)
        gm.page.click("#screen .options button.option.complete:not([disabled])")
        acted(gm, seq)
        gm.page.wait_for_timeout(1500)  # the stream's news of the same state has come by now
        assert len(fetched) - before == 1, fetched[before:]
    assert console == [], console
    gm.close()
