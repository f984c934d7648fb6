"""The web table in Japanese, per viewer: every page and partial speaks its reader's language (the switch on
the page, remembered in a cookie, else the browser's Accept-Language, else English), a GM reading Japanese
and a player reading English at the same table at the same time; the JSON API's data the same in every
language (only a refusal's words follow the reader); hostile language headers and cookies are the
default, never an error.

"The pages' own words" are checked here: the words of the screens themselves (headings, buttons, labels,
hints, the cards' bars, the log's frame, the links panel, the forms, the campaign pages). The words the
rulesets and the data give them — status lines, menus, narration, rule and scenario titles — are the
rulesets' and the data's catalogs' to translate (their own tests cover those); the structural check below
leaves out exactly the elements that carry them, so a word of the page's own cannot hide among them.
"""

from __future__ import annotations

import concurrent.futures
import html
import json
import re
import warnings
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (pip install 'kassen[web]') is not installed")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from babel.messages.pofile import read_po

from kassen import i18n
from kassen.web.app import create_app
from kassen.web.language import JS_WORDS, viewer_language, words_for_script
from kassen.web.settings import Settings

from .leaks import english_left

HOSTS = ("testserver", "localhost")
FIGHTS = ("arena/duel", "sengoku/count-example", "l5r/kakita-vs-hida")
JA = {"Accept-Language": "ja-JP,ja;q=0.9"}
EN = {"Accept-Language": "en-US,en;q=0.9"}
#: Elements whose words come from the rulesets and the data (their catalogs translate them), and the
#: switch's language names (each written in its own language, as language switches are).
FROM_RULES = frozenset(
    {
        "prompt",
        "narration",
        "status",
        "card-notes",
        "card-name",
        "card-side",
        "option",
        "why",
        "odd",
        "crumbs",
        "explain",
        "lang-switch",
        "lines",
        "ok-line",
        "errors",
        "field-error",
        "attacks",
        "defense",
    }
)
FROM_RULES_IDS = frozenset({"fight-title", "sheet-lines"})
#: Words a translation keeps as they are: commands, headers and fields a user types, policy specs, ids.
CODE_WORDS = frozenset(
    {
        *("kassen", "serve", "web", "pip", "install", "lab", "match", "validate", "fight", "rotate"),
        *("choices", "dice", "auto", "null", "true", "false", "all", "table", "root", "Content-Length"),
        *("Content-Type", "Host", "UTF", "Authorization", "Bearer", "TOKEN", "PORT", "SQLite", "PostgreSQL"),
        *("CLI", "heuristic", "random", "scenario", "search", "parry", "walk", "party", "foes", "kuro"),
        *("Lame", "Missing", "Limb", "JSON", "json", "openapi", "detail", "code"),
    }
)
PO = Path(i18n.__file__).resolve().parents[1] / "locale" / "ja" / "LC_MESSAGES" / "web.po"


class _Text(HTMLParser):
    """The text a reader sees on a page: text nodes, and the words of ``title``/``aria-label``/
    ``placeholder``/``alt`` attributes, leaving out what :data:`FROM_RULES` marks (and scripts, QR codes
    and the values of inputs: links and YAML a user reads as data)."""

    VOID = frozenset({"input", "br", "img", "meta", "link", "hr", "source", "col", "area", "base", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip: list[bool] = []
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        skipped = bool(
            (self.skip and self.skip[-1])
            or classes & FROM_RULES
            or found.get("id") in FROM_RULES_IDS
            or tag in ("script", "style", "svg", "textarea", "code", "kbd")
        )
        if not skipped:
            for name in ("title", "aria-label", "placeholder", "alt", "label"):
                if found.get(name) and tag != "optgroup":
                    self.out.append(str(found[name]))
        if tag not in self.VOID:
            self.skip.append(skipped)

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.skip:
            self.skip.pop()

    def handle_data(self, data: str) -> None:
        if not (self.skip and self.skip[-1]):
            self.out.append(data)


def own_words(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return "\n".join(s.strip() for s in parser.out if s.strip())


def lang_of(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found, page[:200]
    return found[1]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'fights.db'}", allowed_hosts=HOSTS))
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def open_fight(client: TestClient, scenario: str, seed: int = 1) -> dict[str, Any]:
    r = client.post("/api/fights", json={"scenario": scenario, "seed": seed})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


def play_first(client: TestClient, made: dict[str, Any]) -> None:
    """One step: the GM takes the first allowed option, all the way down its menu."""
    fight, gm = made["id"], made["gm_token"]
    path: list[str] = []
    while True:
        params = {"path": ",".join(path)} if path else {}
        menu = client.get(f"/api/fights/{fight}/choices", headers=bearer(gm), params=params)
        assert menu.status_code == 200, menu.text
        option = next(o for o in menu.json()["options"] if o.get("allowed", True))
        path.append(option["id"])
        if option["complete"]:
            break
    state = client.get(f"/api/fights/{fight}", headers=bearer(gm), params={"log": "false"}).json()
    r = client.post(
        f"/api/fights/{fight}/actions",
        headers=bearer(gm),
        json={"state_id": state["state_id"], "choices": path},
    )
    assert r.status_code == 200, r.text


def names_of(client: TestClient, made: dict[str, Any]) -> list[str]:
    """The names the content gives (units, sides) and the ids a page shows as they are."""
    view = client.get(f"/api/fights/{made['id']}", headers=bearer(made["gm_token"]), params={"log": "false"})
    data = view.json()
    return [*data["names"].values(), *data["names"].keys(), made["id"], *made["join"].keys()]


# -- one table, two languages ----------------------------------------------------------------------------
def test_a_gm_in_japanese_and_a_player_in_english_at_the_same_table(client: TestClient) -> None:
    made = open_fight(client, "arena/duel")
    fight, gm = made["id"], made["gm_token"]
    east = made["join"]["east"]
    play_first(client, made)
    gm_page = client.get(f"/ui/fights/{fight}/screen", headers=bearer(gm, Cookie="kassen_lang=ja"))
    player_page = client.get(f"/ui/fights/{fight}/screen", headers=bearer(east, **EN))
    assert gm_page.status_code == player_page.status_code == 200
    assert "手番の順" in gm_page.text and "ログ" in gm_page.text and "Turn order" not in gm_page.text
    assert "Turn order" in player_page.text and "手番の順" not in player_page.text
    # the shells of the two screens, each with its <html lang>
    assert lang_of(client.get(f"/fights/{fight}", headers=JA).text) == "ja"
    assert lang_of(client.get(f"/join/{fight}", headers=EN).text) == "en"
    # at the same time: requests of both viewers interleaved on the server's worker threads (the language
    # is a context variable per request, never a process-wide switch)

    def look(viewer: str) -> tuple[str, str]:
        token, headers = (gm, JA) if viewer == "ja" else (east, EN)
        page = client.get(f"/ui/fights/{fight}/screen", headers=bearer(token, **headers)).text
        return viewer, page

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(look, ["ja", "en"] * 16))
    for viewer, page in seen:
        assert ("手番の順" in page) == (viewer == "ja"), viewer
        assert ("Turn order" in page) == (viewer == "en"), viewer


def test_accept_language_chooses_the_pages_language(client: TestClient) -> None:
    cases = {
        "ja-JP,ja;q=0.9,en;q=0.8": "ja",
        "ja": "ja",
        "en-US,en;q=0.9,ja;q=0.8": "en",
        "fr-FR,fr;q=0.9,ja;q=0.5": "ja",
        "fr-FR": "en",
        "ja;q=0": "en",
    }
    for header, lang in cases.items():
        page = client.get("/", headers={"Accept-Language": header}).text
        assert lang_of(page) == lang, header
    assert lang_of(client.get("/").text) == "en"  # no header: English
    assert "新しい戦闘" in client.get("/", headers=JA).text
    assert "New fight" in client.get("/", headers=EN).text


def test_the_switch_overrides_the_browser_and_is_on_every_page(client: TestClient) -> None:
    made = open_fight(client, "sengoku/count-example")
    for path in ("/", f"/fights/{made['id']}", f"/join/{made['id']}", "/campaigns", "/campaigns/ford"):
        page = client.get(path, headers={**EN, "Cookie": "kassen_lang=ja"}).text
        assert lang_of(page) == "ja", path
        assert 'data-lang="en"' in page and 'data-lang="ja"' in page, path  # English / 日本語
        assert re.search(r'data-lang="ja" lang="ja" aria-pressed="true"', page), path
        assert '<script src="/static/language.js"' in page, path
        page = client.get(path, headers={**JA, "Cookie": "kassen_lang=en"}).text
        assert lang_of(page) == "en", path
    script = client.get("/static/language.js")
    assert script.status_code == 200 and "kassen_lang=" in script.text and "location.reload()" in script.text


def test_the_api_refusals_follow_the_reader_the_partials_follow_the_cookie(client: TestClient) -> None:
    made = open_fight(client, "arena/duel")
    fight = made["id"]
    # a screen's partial with the cookie of the switch, whatever the browser says
    r = client.get(
        f"/ui/fights/{fight}/screen", headers=bearer(made["gm_token"], Cookie="kassen_lang=ja", **EN)
    )
    assert "手番の順" in r.text
    # an API refusal: its words in the reader's language, its code and fields as they are
    en = client.get(f"/api/fights/{fight}", headers=EN)
    ja = client.get(f"/api/fights/{fight}", headers=JA)
    assert en.status_code == ja.status_code == 401
    assert en.json()["code"] == ja.json()["code"] == "token"
    assert en.json()["detail"] == "this needs a token: Authorization: Bearer TOKEN"
    assert ja.json()["detail"] == "トークンが必要: Authorization: Bearer TOKEN"
    # a 422 in kassen's words: the message translated, template and values in turn; loc and field as sent
    bad = {"scenario": "arena/duel", "seed": -1}
    en = client.post("/api/fights", json=bad, headers=EN)
    ja = client.post("/api/fights", json=bad, headers=JA)
    assert en.status_code == ja.status_code == 422
    assert en.json()["detail"] == "seed: a whole number from 0 to 18446744073709551615, not -1"
    assert ja.json()["detail"] == "seed: 0から18446744073709551615までの整数。-1 ではない"
    assert [e["loc"] for e in en.json()["errors"]] == [e["loc"] for e in ja.json()["errors"]]
    assert [e["field"] for e in en.json()["errors"]] == [e["field"] for e in ja.json()["errors"]]
    extra = client.post("/api/fights", json={"scenario": "arena/duel", "bogus": 1}, headers=JA).json()
    assert extra["detail"].startswith("bogus: このリクエストのフィールドではない（受け付けるのは "), extra
    # a refusal made before any endpoint (the host allow-list): in the reader's words too
    host = client.get("/", headers={**JA, "Host": "evil.example"})
    assert host.status_code == 400 and host.json() == {
        "detail": "このサーバーはそのホスト名（Host）を扱わない",
        "code": "host",
    }
    # the side's token asking for the GM's things, the rules refusing: every detail in Japanese
    east = made["join"]["east"]
    undo = client.post(f"/api/fights/{fight}/undo", headers=bearer(east, **JA), json={"state_id": "0" * 16})
    assert undo.status_code == 403 and not english_left(undo.json()["detail"]), undo.json()


def test_the_api_data_is_the_same_in_every_language(client: TestClient) -> None:
    """Views, menus with odds, the log's words, narration, the rules' texts, the fight list and the OpenAPI
    document: byte-identical whichever language the reader asks for (or the server's own default)."""
    made = open_fight(client, "sengoku/count-example", seed=3)
    fight, gm, side = made["id"], made["gm_token"], next(iter(made["join"].values()))
    play_first(client, made)
    play_first(client, made)
    reads = [
        ("/api/fights/" + fight, gm),
        ("/api/fights/" + fight, side),
        (f"/api/fights/{fight}/choices", gm),
        (f"/api/fights/{fight}/narration?verbose=true", gm),
        (f"/api/fights/{fight}/narration?verbose=true", side),
        (f"/api/fights/{fight}/log", gm),
        (f"/api/fights/{fight}/links", gm),
        ("/api/fights", None),
        ("/api/scenarios", None),
        ("/api/rules/SG.CNT.5", None),
        ("/openapi.json", None),
    ]

    def read_all(headers: dict[str, str]) -> list[bytes]:
        out = []
        for path, token in reads:
            r = client.get(path, headers=bearer(token, **headers) if token else headers)
            assert r.status_code == 200, (path, r.text[:200])
            out.append(r.content)
        return out

    english = read_all(EN)
    assert read_all({**JA, "Cookie": "kassen_lang=ja"}) == english
    i18n.set_language("ja")  # a server started with KASSEN_LANG=ja (or a Japanese locale)
    try:
        assert read_all(JA) == english
        assert read_all({}) == english
    finally:
        i18n.set_language("en")


# -- no English left on the pages' own words ----------------------------------------------------------------
def test_no_english_left_on_the_table_pages_own_words(client: TestClient) -> None:
    """Every ruleset's GM and player screens along a few steps, the fight list, the screens' shells, the
    links panel and the explanation of a log entry, in Japanese."""
    checked = 0
    for scenario in FIGHTS:
        made = open_fight(client, scenario)
        fight = made["id"]
        allow = names_of(client, made)
        for step in range(3):
            for token in (made["gm_token"], *made["join"].values()):
                page = client.get(f"/ui/fights/{fight}/screen", headers=bearer(token, **JA))
                assert page.status_code == 200
                assert not english_left(own_words(page.text), allow), (scenario, step, own_words(page.text))
                checked += 1
            gm_moves = client.get(f"/ui/fights/{fight}/screen?gm=1", headers=bearer(made["gm_token"], **JA))
            assert not english_left(own_words(gm_moves.text), allow), own_words(gm_moves.text)
            play_first(client, made)
        links = client.get(f"/ui/fights/{fight}/links", headers=bearer(made["gm_token"], **JA))
        assert "参加リンク" in links.text
        assert not english_left(own_words(links.text), allow), own_words(links.text)
        for path in (f"/fights/{fight}", f"/join/{fight}"):
            assert not english_left(own_words(client.get(path, headers=JA).text), allow), path
    index = client.get("/", headers=JA).text
    # the list names the bundled scenarios by title (the data's words) and id: both are left to the data
    shown = re.sub(r"<option [^>]*>.*?</option>", "", index, flags=re.S)
    fights = [f[:6] for f in re.findall(r'data-fight-id="([^"]+)"', index)]  # "戦闘 Qk3xYz…"
    assert not english_left(own_words(shown), fights), own_words(shown)
    assert checked >= 18


def test_no_english_left_on_the_campaign_pages_own_words(client: TestClient) -> None:
    made = client.post("/api/campaigns", json={"id": "ford", "name": "The ford"})
    assert made.status_code == 201, made.text
    gm = made.json()["gm_token"]
    hatamoto = {
        "ruleset": "sengoku",
        "id": "hatamoto",
        "name": "Takeda hatamoto",
        "sheet": {"creature": "samurai"},
    }
    assert client.post("/api/campaigns/ford/characters", headers=bearer(gm), json=hatamoto).status_code == 201
    allow = ["ford", "Takeda", "hatamoto", "party", "foes", "the-ford", "kuro-2"]
    pages = {
        "/campaigns": None,
        "/campaigns/ford": None,
        "/ui/campaigns/ford/home": gm,
        "/ui/campaigns/ford/characters/hatamoto": gm,
        "/ui/campaigns/ford/builder?ruleset=sengoku": gm,
        "/ui/campaigns/ford/builder?ruleset=l5r": gm,
        "/ui/campaigns/ford/builder?ruleset=arena": gm,
        "/ui/campaigns/ford/scenario?ruleset=sengoku": gm,
    }
    for path, token in pages.items():
        r = client.get(path, headers=bearer(token, **JA) if token else JA)
        assert r.status_code == 200, (path, r.text[:300])
        page = r.text
        # the choices of the builder's selects are the catalog's names (the data's words), and its hints
        # show what to type (ids: swordsmanship=2, Lame...): left to the data, like the options' names
        page = re.sub(r"<option [^>]*>.*?</option>", "", page, flags=re.S)
        page = re.sub(r'<span class="hint">\([^<]*\)</span>', "", page) if "builder" in path else page
        assert not english_left(own_words(page), allow), (path, own_words(page))


def test_every_word_the_script_says_has_its_japanese() -> None:
    with i18n.use_language("ja"):
        words = words_for_script()
    assert set(words) == set(JS_WORDS)
    for english, japanese in words.items():
        assert set(re.findall(r"\{\w+\}", english)) == set(re.findall(r"\{\w+\}", japanese)), english
        assert not english_left(re.sub(r"\{\w+\}", "", japanese), ["auto", "kassen"]), japanese
    with i18n.use_language("en"):
        assert words_for_script() == {}  # English: the script's own text


def test_the_web_catalog_is_complete_and_keeps_every_placeholder() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="ja", domain="web")
    count = 0
    for message in catalog:
        if not message.id:
            continue
        count += 1
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"untranslated: {ids[0]!r}"
        wanted = set(re.findall(r"\{\w+\}|%\(\w+\)s", ids[0]))
        for string in strings:
            assert set(re.findall(r"\{\w+\}|%\(\w+\)s", string)) == wanted, (ids[0], string)
            shown = re.sub(r"<[^>]+>|\{\w+\}|%\(\w+\)s", " ", html.unescape(string))
            # what stays in Latin letters is what a user types or reads as code: options, URLs, commands,
            # headers, the API's field names, policy specs, the data's ids
            code = re.findall(r"--[\w-]+|\w+://\S+|\b[\w.-]+=[\w.:=-]*|\b[a-z]+(?:[-/][a-z]+)+\b", shown)
            left = set(english_left(shown, [*code, *CODE_WORDS]))
            assert not left, (ids[0], string, left)
    assert count >= 400


# -- hostile headers and cookies ---------------------------------------------------------------------------
HOSTILE_ACCEPT = [
    "x" * 100_000,
    "ja;q=abc",
    ";;;;,,,,;q=",
    "*",
    "ja-" * 3000,
    "ja;q=1e308,en;q=nan",
    ",".join(["zz"] * 5000),
    "ja;q=-1",
    "\t ja \t;q=0.9",
    "en" + ";q=0.5" * 2000,
    "ja-JP-x-" + "a" * 900,
]
HOSTILE_COOKIE = [
    "kassen_lang=de",
    'kassen_lang="ja',
    "kassen_lang=" + "j" * 100_000,
    "kassen_lang",
    "kassen_lang=; kassen_lang=",
    ";" * 10_000,
    "a=" + "b" * 50_000 + "; kassen_lang=xx",
    "kassen_lang=ja\\",
    "kassen_lang=../../etc",
    "kassen_lang=" + "ja" * 3000,
]


def test_hostile_language_headers_and_cookies_are_the_default(client: TestClient) -> None:
    made = open_fight(client, "arena/duel")
    for value in HOSTILE_ACCEPT:
        assert viewer_language(None, value) in ("en", "ja")
        r = client.get("/", headers={"Accept-Language": value})
        assert r.status_code == 200, value[:40]
        assert lang_of(r.text) in ("en", "ja"), value[:40]
        api = client.get(f"/api/fights/{made['id']}", headers={"Accept-Language": value})
        assert api.status_code == 401 and api.json()["code"] == "token", value[:40]
    for value in HOSTILE_COOKIE:
        r = client.get("/", headers={"Cookie": value, **EN})
        assert r.status_code == 200, value[:40]
        assert lang_of(r.text) == "en", value[:40]  # no language kassen speaks: the browser's
        screen = client.get(f"/ui/fights/{made['id']}/screen", headers=bearer(made["gm_token"], Cookie=value))
        assert screen.status_code == 200 and "Turn order" in screen.text, value[:40]
    assert viewer_language("kassen_lang=ja; kassen_lang=en", None) == "ja"  # the first the header names
    assert viewer_language("other=1; kassen_lang=ja", "en") == "ja"
    assert viewer_language("kassen_lang=jap", "en") == "en"


def test_the_rule_dialog_speaks_the_pages_language(client: TestClient) -> None:
    ja = client.get("/ui/rules/sg.cnt.5", headers=JA)
    en = client.get("/ui/rules/sg.cnt.5", headers=EN)
    assert ja.status_code == en.status_code == 200
    assert ja.json()["id"] == en.json()["id"] == "SG.CNT.5"
    assert ja.json()["ruleset"] == "戦国" and en.json()["ruleset"] == "sengoku"
    assert en.json() == {**client.get("/api/rules/SG.CNT.5").json()}  # English: the API's own words
    missing = client.get("/ui/rules/SG.CNT.99", headers=JA)
    assert missing.status_code == 404 and missing.json()["detail"].startswith("kassen のルール本文にルール")


def test_script_words_reach_the_page(client: TestClient) -> None:
    page = client.get("/", headers=JA).text
    found = re.search(r'data-words="([^"]*)"', page)
    assert found
    words = json.loads(html.unescape(found[1]))
    assert words["copied"] == "コピーした"
    english = client.get("/", headers=EN).text
    assert 'data-words="{}"' in english


def test_kassen_serve_says_its_errors_in_the_language_asked_for(tmp_path: Path) -> None:
    import subprocess
    import sys

    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "kassen", "serve", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        )

    ja = serve("--lang", "ja", "--db", "foo://x")
    en = serve("--db", "foo://x")
    assert ja.returncode == en.returncode == 2
    assert "kassen が戦闘を保存するのは SQLite か PostgreSQL であり、'foo' ではない" in ja.stderr
    assert en.stderr.strip() == "kassen: error: --db: kassen stores fights in SQLite or PostgreSQL, not 'foo'"
    assert "Traceback" not in ja.stderr + en.stderr


def test_the_builders_preview_in_the_readers_words(client: TestClient) -> None:
    """rule: SG.DEF.5 — the preview's Defense, and the character's own status lines, in either language;
    the API's preview in English whatever the reader asks."""
    made = client.post("/api/campaigns", json={"id": "ford", "name": "The ford"})
    gm = made.json()["gm_token"]
    values = {"ruleset": "sengoku", "id": "kuro-2", "name": "Kuro", "creature": "kuro", "physique": "2"}
    en = client.post("/ui/campaigns/ford/builder/check", headers=bearer(gm, **EN), json=values).text
    ja = client.post("/ui/campaigns/ford/builder/check", headers=bearer(gm, **JA), json=values).text
    assert 'data-ok="yes"' in en and 'data-ok="yes"' in ja
    assert re.search(r'id="preview-defense">Defense \d+ \(SG\.DEF\.5\)</p>', en), en
    assert re.search(r'id="preview-defense">防備 \d+（SG\.DEF\.5）</p>', ja), ja
    status = re.compile(r'<ul class="status">(.*?)</ul>', re.S)
    lines_en, lines_ja = (re.findall(r"<li>", status.search(page)[1]) for page in (en, ja))  # type: ignore[index]
    assert lines_en and len(lines_en) == len(lines_ja)  # the character's own lines, found in both
    sheet = {"ruleset": "sengoku", "id": "kuro-2", "name": "Kuro", "sheet": {"creature": "kuro"}}
    api_en = client.post("/api/campaigns/ford/check", headers=bearer(gm, **EN), json=sheet).json()
    api_ja = client.post("/api/campaigns/ford/check", headers=bearer(gm, **JA), json=sheet).json()
    assert api_en == api_ja and api_en["preview"]["defense"].startswith("Defense ")
