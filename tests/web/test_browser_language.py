"""The table in two languages in a real browser (Playwright driving Debian's Chromium): a GM whose browser
asks for Japanese and a player whose browser asks for English open the same fight; each screen speaks its
reader's language (``<html lang>``, the screens' words, the rule dialog), the player's follows the GM's
actions live, and the switch on the page changes one viewer's language — remembered, the screen opening
again on its own link — and no one else's.

Screenshots of the GM's and the player's screens in Japanese go to ``$KASSEN_SCREENSHOTS`` (default
``build/screenshots/``) as ``ja-web-gm.png`` and ``ja-web-player.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="Playwright for Python (kassen[webtest]) is not installed")

from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from .conftest import Server, start_server, unavailable
from .test_browser import ARGS, CHROMIUM, LAPTOP, LIVE_MS, PHONE, SHOTS


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
    folder = tmp_path_factory.mktemp("languages")
    running = start_server(f"sqlite:///{folder / 'fights.db'}", folder / "server.log")
    yield running
    running.stop()


class Viewer:
    """One browser (its own cookies: its own language switch) with one screen open."""

    def __init__(self, browser: Browser, locale: str, url: str, viewport: dict[str, int]) -> None:
        self.context: BrowserContext = browser.new_context(locale=locale, viewport=viewport)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(url)
        expect(self.root).to_be_visible()

    @property
    def root(self) -> Any:
        return self.page.locator("#screen .screen")

    def lang(self) -> str:
        return str(self.page.evaluate("() => document.documentElement.lang"))

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 5000
        return path

    def close(self) -> None:
        assert self.errors == [], self.errors
        self.context.close()


def test_a_gm_in_japanese_and_a_player_in_english_then_the_switch(browser: Browser, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as api:
        made = api.post("/api/fights", json={"scenario": "sengoku/count-example", "seed": 2}).json()
    fight, gm_token = made["id"], made["gm_token"]
    side, join_token = next(iter(made["join"].items()))
    gm = Viewer(browser, "ja-JP", f"{server.url}/fights/{fight}#t={gm_token}", LAPTOP)
    player = Viewer(browser, "en-US", f"{server.url}/join/{fight}#t={join_token}", PHONE)

    # each in the language its browser asks for
    assert gm.lang() == "ja" and player.lang() == "en"
    expect(gm.page.locator("#order-title")).to_have_text("手番の順")
    expect(gm.page.locator("#gm-title + .row")).to_contain_text("取り消す")
    expect(gm.page.locator("#links h2")).to_have_text("参加リンク")
    expect(player.page.locator("#order-title")).to_have_text("Turn order")
    assert re.search(r"kassen — GM 画面", gm.page.title())

    # the GM plays on, in Japanese; the player's screen follows live, in English
    for _ in range(3):
        seq = gm.root.get_attribute("data-seq")
        gm.page.get_by_role("button", name="方針に任せる").click()
        expect(gm.root).not_to_have_attribute("data-seq", str(seq), timeout=10_000)
        expect(player.root).to_have_attribute(
            "data-seq", str(gm.root.get_attribute("data-seq")), timeout=LIVE_MS
        )
    expect(player.page.locator("#log-title")).to_contain_text("Log")
    expect(gm.page.locator("#log-title")).to_contain_text("ログ")
    expect(gm.page.locator(".card .bar-label").first).to_have_text(re.compile("気力|戰力"))
    expect(player.page.locator(".card .bar-label").first).to_have_text(re.compile("Energy|Wounds"))

    # a rule ID opens its text in the page's language (the dialog's words; the rule's ruleset named)
    gm.page.locator("#screen .log button.rule:visible").first.click()
    dialog = gm.page.locator("#rule-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#rule-source")).to_contain_text("戦国")
    expect(dialog.get_by_role("button", name="閉じる")).to_be_visible()
    dialog.get_by_role("button", name="閉じる").click()

    gm.shot("ja-web-gm")

    # the player switches to Japanese: remembered by that browser, the screen opens again on its link
    player.page.locator('button[data-lang="ja"]').click()
    player.page.wait_for_function("() => document.documentElement.lang === 'ja'")
    expect(player.root).to_be_visible()
    expect(player.page.locator("#order-title")).to_have_text("手番の順")
    assert player.page.evaluate("() => location.hash").startswith("#t=")
    cookies = {c["name"]: c["value"] for c in player.context.cookies()}
    assert cookies == {"kassen_lang": "ja"}  # a language, never a token
    player.page.reload()
    expect(player.page.locator("#order-title")).to_have_text("手番の順")
    player.shot("ja-web-player")
    # ...and only that browser: the GM switches to English, the player stays in Japanese
    gm.page.locator('button[data-lang="en"]').click()
    gm.page.wait_for_function("() => document.documentElement.lang === 'en'")
    expect(gm.page.locator("#order-title")).to_have_text("Turn order")
    seq = gm.root.get_attribute("data-seq")
    gm.page.get_by_role("button", name="Let the policy decide").click()
    expect(gm.root).not_to_have_attribute("data-seq", str(seq), timeout=10_000)
    expect(player.root).to_have_attribute("data-seq", str(gm.root.get_attribute("data-seq")), timeout=LIVE_MS)
    expect(player.page.locator("#order-title")).to_have_text("手番の順")
    assert side
    gm.close()
    player.close()


def test_the_scripts_own_words_and_a_refusal_in_japanese(browser: Browser, server: Server) -> None:
    """What the page's script says by itself (a notice, a check of the typed faces) and what the server
    refuses, in the page's language."""
    with httpx.Client(base_url=server.url, timeout=30) as api:
        made = api.post("/api/fights", json={"scenario": "arena/duel", "seed": 4, "dice": "table"}).json()
    gm = Viewer(browser, "ja-JP", f"{server.url}/fights/{made['id']}#t={made['gm_token']}", LAPTOP)
    # the links panel's copy button: the script's own notice
    gm.page.locator("#links button[data-copy]").first.click()
    expect(gm.page.locator("#notice")).to_have_text("コピーした")
    # play until the dice are asked for, then type a face that is no face
    for _ in range(6):
        if gm.page.locator("#faces").count():
            break
        seq = gm.root.get_attribute("data-seq")
        gm.page.get_by_role("button", name="方針に任せる").click()
        gm.page.wait_for_function(
            "seq => document.querySelector('#faces') || "
            "document.querySelector('#screen .screen').dataset.seq !== seq",
            arg=seq,
            timeout=10_000,
        )
    if gm.page.locator("#faces").count():
        gm.page.fill("#faces", "banana")
        gm.page.get_by_role("button", name="振る", exact=True).click()
        expect(gm.page.locator("#notice")).to_contain_text("出目ではない")
        gm.page.fill("#faces", "99")  # the server refuses: a face the die does not have
        gm.page.get_by_role("button", name="振る", exact=True).click()
        expect(gm.page.locator("#notice.error")).to_be_visible()
    gm.close()
