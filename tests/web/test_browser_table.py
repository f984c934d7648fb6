"""A table with phones, in a real browser (Playwright for Python, Debian's Chromium): the server listens on
the network (``--host 0.0.0.0``); the GM opens a bout with one corner played by a policy; a player joins
on a 390×844 phone window through the link the GM screen shows — on the machine's LAN address, its QR
code read back from the page and checked to encode that very link — and plays the other corner by tapping
and by number keys, told each time it is their turn (a buzz where the phone has one). The server is
stopped mid-bout: both screens show "connection lost — retrying" and a disabled menu; it comes back on
the same port and store, and the banner goes. Dark mode follows the system setting. A rule ID opens its
text. Screenshots of the GM and player screens, light and dark, phone and desktop, are saved under
``$KASSEN_SCREENSHOTS`` (default ``build/screenshots/``)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python (kassen[webtest]) is not installed")
from playwright.sync_api import Browser, Page, expect

from kassen.web.server import lan_address

from .conftest import Server, free_port, start_server, unavailable
from .test_browser import LAPTOP, PHONE, SHOTS, UNLABELLED, UNREACHABLE, browser
from .test_table_screens import qr_matrix

__all__ = ["browser"]

segno = pytest.importorskip("segno", reason="segno (kassen[web]) is not installed")

#: Records what the page asks the phone to buzz (headless Chromium has no motor).
BUZZ = """Object.defineProperty(navigator, 'vibrate', { configurable: true,
  value: function (pattern) { (window.__buzz = window.__buzz || []).push(pattern); return true; } });"""


class Window:
    """One browser window on the table: a GM's or a player's."""

    def __init__(self, browser: Browser, url: str, viewport: dict[str, int], *, phone: bool = False) -> None:
        self.context = browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            is_mobile=phone,
            has_touch=phone,
            color_scheme="light",
        )
        self.context.add_init_script(BUZZ)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(url)

    @property
    def root(self) -> Any:
        return self.page.locator("#screen .screen")

    def attr(self, name: str) -> str:
        return str(self.root.get_attribute(name))

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 5000
        return path

    def background(self) -> float:
        """The page's background lightness, 0 (black) to 1 (white)."""
        rgb = self.page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
        r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    def close(self) -> None:
        assert self.errors == [], self.errors
        self.context.close()


@pytest.fixture
def lan_server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """``kassen serve --host 0.0.0.0`` on a store of its own; restartable on the same port."""
    lan = lan_address()
    if lan is None:
        unavailable("this machine has no network address but loopback: phones could not join")
    port = free_port()
    db = f"sqlite:///{tmp_path / 'table.db'}"
    state: dict[str, Any] = {"lan": lan, "port": port, "db": db, "log": tmp_path / "server.log"}
    state["server"] = start_server(db, state["log"], port, extra=("--host", "0.0.0.0"))
    yield state
    server: Server = state["server"]
    server.stop()


def _attack(player: Window) -> None:
    """An attack chosen with number keys: the key shown beside "attack", then 1 at each step after it."""
    options = player.page.locator("#screen .menu > .options")
    first = options.locator("button.option", has_text=re.compile(r"^\d?\s*attack")).first
    key = first.get_attribute("data-key")
    assert key is not None and first.locator("kbd.key").inner_text() == key
    player.page.keyboard.press(key)
    for depth in range(1, 8):
        expect(player.page.locator("#screen nav.crumbs button")).to_have_count(depth + 1)
        if player.page.locator("#screen .menu > .options button.option.complete").count():
            player.page.keyboard.press("1")
            return
        player.page.keyboard.press("1")
    raise AssertionError("no attack could be finished by number keys")


def _turn(player: Window) -> None:
    expect(player.root).to_have_attribute("data-decide", "1", timeout=30_000)
    expect(player.page.locator("#your-turn")).to_be_visible()


def test_a_player_joins_from_a_phone_by_the_qr_link_and_plays_against_a_policy(
    browser: Browser, lan_server: dict[str, Any]
) -> None:
    server: Server = lan_server["server"]
    lan, port = lan_server["lan"], lan_server["port"]
    gm = Window(browser, server.url + "/", LAPTOP)
    gm.page.select_option("#scenario-name", "arena/duel")
    gm.page.select_option('#side-policies select[data-side="west"]', "heuristic")
    gm.page.fill("#seed", "3")
    gm.page.click("#open-fight")
    gm.page.wait_for_url(re.compile(r"/fights/[A-Za-z0-9_-]{22}#t="))
    expect(gm.root).to_be_visible()
    fight_id = gm.page.url.split("/fights/")[1][:22]

    # the join link names the machine's LAN address, not the 127.0.0.1 the GM opened; its QR code,
    # read back from the page's SVG, encodes exactly that link
    link = gm.page.locator('#links input.join-link[data-side="east"]').input_value()
    assert link.startswith(f"http://{lan}:{port}/join/{fight_id}#t="), link
    svg = gm.page.locator('#links figure.qr-box[data-side="east"] svg').evaluate("e => e.outerHTML")
    expected = segno.make(link, error="m", micro=False, boost_error=False)
    assert qr_matrix(svg) == [[bool(m) for m in row] for row in expected.matrix]
    expect(gm.page.locator('#links figure.qr-box[data-side="east"] svg')).to_be_visible()
    assert gm.page.evaluate(UNLABELLED) == [] and gm.page.evaluate(UNREACHABLE) == []

    # the player, on a phone, opens the link the QR code carries
    player = Window(browser, link, PHONE, phone=True)
    expect(player.root).to_be_visible()
    assert player.page.url.startswith(f"http://{lan}:{port}/join/")
    assert player.page.locator(".gm-tools, #links").count() == 0

    # the GM begins the bout; west is the policy's, east the player's
    seq = gm.attr("data-seq")
    gm.page.get_by_role("button", name="Let the policy decide").click()
    expect(gm.root).not_to_have_attribute("data-seq", seq, timeout=10_000)
    _turn(player)
    assert player.page.evaluate("() => (window.__buzz || []).length") >= 1, "a buzz on the player's turn"
    assert player.page.title().startswith("● your turn")
    # on the phone the menu comes first, the turn order folded after it; the cards mark who acts
    menu_box = player.page.locator("#screen .menu").bounding_box()
    order = player.page.locator("#screen details.order-box")
    assert menu_box is not None and order.bounding_box() is not None
    assert menu_box["y"] < order.bounding_box()["y"]  # type: ignore[index]
    assert order.get_attribute("open") is None
    assert player.page.evaluate(UNLABELLED) == [] and player.page.evaluate(UNREACHABLE) == []
    player.shot("table-player-phone-light")
    order.locator("summary").click()
    expect(player.page.locator('#screen .card.acting[data-unit="ryu"]')).to_be_visible()
    expect(player.page.locator('#screen .card[data-unit="ken"] .bar-row').first).to_contain_text("?")
    expect(gm.page.locator('#screen .card.acting[data-unit="ryu"]')).to_be_visible()
    expect(gm.page.locator('#screen .card[data-unit="ken"] .bar-row').first).to_contain_text(
        re.compile(r"\d+/\d+")
    )
    player.shot("table-player-phone-light-order-open")

    # the player plays east by number keys; the policy answers by itself
    clicks = 0
    stopped = False
    while player.attr("data-over") != "1":
        _turn(player)
        seq = player.attr("data-seq")
        _attack(player)
        clicks += 1
        assert clicks < 40, "the bout does not end"
        expect(player.root).not_to_have_attribute("data-seq", seq, timeout=10_000)
        player.page.wait_for_function(
            """(seq) => { const r = document.querySelector('#screen .screen');
                          return r && (r.dataset.over === '1' || Number(r.dataset.seq) > seq); }""",
            arg=int(seq) + 1,
            timeout=30_000,
        )
        if not stopped and player.attr("data-over") != "1":
            stopped = True
            _turn(player)
            # the server goes away: a banner on both screens, and nothing to click
            server.stop()
            for w in (player, gm):
                expect(w.page.locator("#offline")).to_be_visible(timeout=10_000)
                expect(w.page.locator("#offline")).to_contain_text("connection lost — retrying")
            expect(player.page.locator("#screen .menu button.option").first).to_be_disabled()
            assert player.page.locator("#screen .menu button.option:not([disabled])").count() == 0
            player.page.keyboard.press("1")  # a number key does nothing while the server is away
            player.shot("table-player-phone-offline")
            gm.shot("table-gm-desktop-offline")
            time.sleep(1)
            # it comes back on the same port and store: the banner goes, the menu is back
            lan_server["server"] = server = start_server(
                lan_server["db"], lan_server["log"], port, extra=("--host", "0.0.0.0")
            )
            for w in (player, gm):
                expect(w.page.locator("#offline")).to_be_hidden(timeout=15_000)
            expect(player.page.locator("#screen .menu button.option").first).to_be_enabled(timeout=10_000)
    assert clicks >= 2 and stopped
    expect(gm.root).to_have_attribute("data-over", "1", timeout=10_000)
    log = player.page.locator("#screen .entries .entry .who").all_inner_texts()
    assert any("Ken" in who for who in log), "the policy (Ken, west) played"

    # a rule ID opens its text, as `kassen rules` shows it
    rule = gm.page.locator("#screen .entries button.rule").first
    rid = rule.inner_text()
    rule.click()
    dialog = gm.page.locator("#rule-dialog")
    expect(dialog).to_be_visible()
    expect(gm.page.locator("#rule-title")).to_contain_text(rid)
    assert len(gm.page.locator("#rule-text").inner_text()) > 10
    gm.shot("table-gm-desktop-rule")
    gm.page.locator("#rule-dialog button[type=submit]").click()
    expect(dialog).to_be_hidden()

    # light and dark, as the system asks; phone and desktop
    assert gm.background() > 0.8 and player.background() > 0.8
    gm.shot("table-gm-desktop-light")
    gm.page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    gm.shot("table-gm-phone-light")
    for w in (gm, player):
        w.page.emulate_media(color_scheme="dark")
    assert gm.background() < 0.2 and player.background() < 0.2
    gm.shot("table-gm-phone-dark")
    gm.page.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
    gm.shot("table-gm-desktop-dark")
    player.shot("table-player-phone-dark")
    player.page.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
    player.shot("table-player-desktop-dark")
    player.page.emulate_media(color_scheme="light")
    player.shot("table-player-desktop-light")
    player.close()
    gm.close()


def test_the_gm_renames_archives_and_deletes_fights_from_the_list(
    browser: Browser, lan_server: dict[str, Any]
) -> None:
    server: Server = lan_server["server"]
    gm = Window(browser, server.url + "/", LAPTOP)
    gm.page.select_option("#scenario-name", "sengoku/count-example")
    gm.page.click("#open-fight")
    gm.page.wait_for_url(re.compile(r"/fights/[A-Za-z0-9_-]{22}#t="))
    expect(gm.root).to_be_visible()
    fight_id = gm.page.url.split("/fights/")[1][:22]
    gm.page.get_by_role("button", name="Fork from the start").click()
    expect(gm.page.locator("#notice")).to_contain_text("forked")
    gm.page.goto(server.url + "/")
    item = gm.page.locator(f'li[data-fight-id="{fight_id}"]')
    expect(item.locator("a.fight-link")).to_have_text("The count example (SG.CNT.7)")
    fork = gm.page.locator("li[data-fight-id]").filter(has_text="fork at the start")
    expect(fork).to_have_count(1)
    item.locator("details.manage summary").click()
    item.locator("input.rename-input").fill("Night raid")
    item.get_by_role("button", name="Rename").click()
    expect(gm.page.locator(f'li[data-fight-id="{fight_id}"] a.fight-link')).to_have_text("Night raid")
    gm.page.evaluate("() => document.querySelectorAll('details.manage').forEach(d => { d.open = true; })")
    assert gm.page.evaluate(UNLABELLED) == [] and gm.page.evaluate(UNREACHABLE) == []
    gm.shot("table-index-desktop-light")
    gm.page.reload()
    item = gm.page.locator(f'li[data-fight-id="{fight_id}"]')
    item.locator("details.manage summary").click()
    item.get_by_role("button", name="Archive").click()
    expect(gm.page.locator(f'#fights-archived li[data-fight-id="{fight_id}"]')).to_have_count(1)
    gm.page.on("dialog", lambda d: d.accept())
    archived = gm.page.locator(f'#fights-archived li[data-fight-id="{fight_id}"]')
    gm.page.locator("details.archived > summary").click()
    archived.locator("details.manage summary").click()
    archived.get_by_role("button", name="Delete…").click()
    expect(gm.page.locator(f'li[data-fight-id="{fight_id}"]')).to_have_count(0)
    gm.page.emulate_media(color_scheme="dark")
    gm.shot("table-index-desktop-dark")
    gm.close()
