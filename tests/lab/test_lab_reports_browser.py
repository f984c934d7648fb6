"""A sweep report and a sensitivity report, rendered in headless Chromium as a designer opens them: the
answer first, every plot drawn, no table wider than the page (a wide one scrolls in its own box),
nothing fetched. Screenshots go to build/screenshots (KASSEN_SCREENSHOTS) to be looked at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="Playwright for Python (kassen[webtest]) is not installed")
pytest.importorskip("SALib", reason="the lab extra (make test installs it)")

from playwright.sync_api import Browser, sync_playwright

from kassen import lab
from kassen.lab.api import write_sweep
from kassen.lab.sensitivity import sensitivity
from kassen.lab.writing import write_sensitivity

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
SHOTS = Path(os.environ.get("KASSEN_SCREENSHOTS", ROOT / "build" / "screenshots"))
CHECK = """() => ({
  answer: document.querySelector('p.answer') ? document.querySelector('p.answer').innerText : null,
  answerFirst: document.querySelector('h1 + p.answer') !== null,
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  images: [...document.images].map(i => i.complete && i.naturalWidth > 0),
  tables: document.querySelectorAll('div.wrap > table').length,
})"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("KASSEN_WEB_REQUIRE") == "1":
            pytest.fail(f"required for this run (KASSEN_WEB_REQUIRE=1): no {CHROMIUM}")
        pytest.skip(f"Debian's chromium is not installed ({CHROMIUM})")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield launched
        launched.close()


def _render(browser: Browser, report: Path, name: str, width: int) -> dict[str, object]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(report.as_uri())
    page.wait_for_load_state("load")
    facts: dict[str, object] = page.evaluate(CHECK)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.close()
    facts["fetched"] = fetched
    return facts


def _assert_readable(facts: dict[str, object]) -> None:
    answer = facts["answer"]
    assert isinstance(answer, str) and answer.endswith(".") and facts["answerFirst"]
    assert facts["overflow"] == 0  # the page never scrolls sideways
    images = facts["images"]
    assert isinstance(images, list) and images and all(images)  # every plot drawn
    assert facts["tables"] and facts["fetched"] == []


def test_a_sweep_report_reads_in_chromium(browser: Browser, tmp_path: Path) -> None:
    vary = ["fighters.ryu.skill=6..10", "fighters.ken.skill=9..13"]
    result = lab.sweep("duel", vary, fights=40, seed=0, side="east", baseline=["fighters.ryu.skill=8",
                       "fighters.ken.skill=11"], jobs=2)  # fmt: skip
    out = tmp_path / "sweep"
    write_sweep(result, out)
    for width in (1280, 390):
        facts = _render(browser, out / "report.html", "lab-sweep-report", width)
        _assert_readable(facts)
        assert str(facts["answer"]).startswith("Ryu wins ")


def test_a_sensitivity_report_reads_in_chromium(browser: Browser, tmp_path: Path) -> None:
    vary = ["fighters.ryu.skill=9..15", "fighters.ken.skill=9..15", "fighters.ken.dx=9..13"]
    result = sensitivity("duel", vary, fights=40, side="east", trajectories=4, jobs=2)
    out = tmp_path / "sensitivity"
    write_sensitivity(result, out)
    for width in (1280, 390):
        facts = _render(browser, out / "report.html", "lab-sensitivity-report", width)
        _assert_readable(facts)
        assert "matters most" in str(facts["answer"])
