"""The security checks the issue names (issue 12, "Security"): tokens of at least 128 random bits; a side
token never reads the log, undoes, forks or acts for another side (each ruleset); user text is escaped
everywhere; request bodies and uploads have a size limit; state-changing requests are safe from
cross-site forgery (the token rides in a header, never a cookie; cross-site form posts are refused).
The hidden-value search over every response to a side is ``test_hidden.py``."""

from __future__ import annotations

import base64
import json
from importlib import resources
from typing import Any

import pytest

from kassen.web.tokens import join_token, new_fight_id, new_token

from .conftest import FIGHTS, open_table

EVIL = "<script>alert('x')</script>"


def _bits(token: str) -> int:
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


def test_tokens_and_fight_ids_carry_at_least_128_random_bits(client: Any) -> None:
    assert _bits(new_fight_id()) == 128 and _bits(new_token()) == 256
    assert len({new_token() for _ in range(2000)}) == 2000
    assert len({new_fight_id() for _ in range(2000)}) == 2000
    t = open_table(client, "sengoku/count-example")
    assert _bits(t.id) >= 128 and _bits(t.gm) >= 128
    assert all(_bits(token) >= 128 for token in t.join.values())
    # A join token is derived from the GM token: knowing one side's token and the fight tells nothing.
    assert join_token(t.gm, t.id, "party") == t.join["party"]
    assert join_token(new_token(), t.id, "party") != t.join["party"]


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
def test_a_side_token_reads_and_decides_for_its_own_side_only(client: Any, ruleset: str) -> None:
    t = open_table(client, FIGHTS[ruleset], seed=2)
    # Play (the GM, auto) until a side's unit is to decide, so "another side's turn" means something.
    for _ in range(30):
        if t.side_of_turn() is not None or t.view(log=False)["over"]:
            break
        assert t.act({"auto": True}).status_code == 200
    mover = t.side_of_turn()
    assert mover is not None, "no side's turn came up"
    before = t.view(log=False)
    for side, token in t.join.items():
        assert t.get("/log", token).status_code == 403
        assert t.get("/links", token).status_code == 403
        assert t.post("/undo", token, {"state_id": before["state_id"]}).status_code == 403
        assert t.post("/fork", token, {"at": before["state_id"]}).status_code == 403
        assert t.get("/choices", token, gm="true").status_code == 403
        if side != mover:
            assert t.get("/choices", token).status_code == 403
            assert (
                t.post("/actions", token, {"state_id": before["state_id"], "auto": True}).status_code == 403
            )
            path = t.first_path()  # a path the mover may take: still not this side's to take
            r = t.post("/actions", token, {"state_id": before["state_id"], "choices": path})
            assert r.status_code == 403 and r.json()["code"] == "not_yours"
    after = t.view(log=False)
    assert (after["state_id"], after["fight"]["seq"]) == (before["state_id"], before["fight"]["seq"])
    assert t.act({"auto": True}, t.join[mover]).status_code == 200  # and the mover may


def _evil_duel() -> str:
    text = resources.files("kassen.arena").joinpath("data/bouts/duel.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Arena duel", f'name: "{EVIL} duel"')
    return text.replace("name: Ryu", f'name: "{EVIL}"')


def test_user_text_renders_escaped_everywhere(client: Any) -> None:
    t = open_table(client, _evil_duel(), seed=4)
    for _ in range(3):
        t.act({"auto": True})
    assert t.view()["scenario"].startswith(EVIL)  # the JSON API returns the text as it was given
    pages = [
        client.get("/"),
        client.get(f"/fights/{t.id}"),
        client.get(f"/ui/fights/{t.id}/screen", headers=t.headers(t.gm)),
        client.get(f"/ui/fights/{t.id}/screen", headers=t.headers(t.join["east"])),
        client.get(f"/ui/fights/{t.id}/links", headers=t.headers(t.gm)),
        client.get(f"/ui/fights/{t.id}/entries/1", headers=t.headers(t.gm)),
        client.get(f"/ui/fights/{t.id}/screen", headers=t.headers(t.gm), params={"p": "attack"}),
    ]
    shown = 0
    for page in pages:
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "<script>alert" not in page.text, page.url
        shown += page.text.count("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
    assert shown >= len(pages) - 1  # the name is there, escaped (the bare shell names no unit)
    # The JSON API is served as JSON, which a browser never renders as a page.
    assert t.get("", t.gm).headers["content-type"] == "application/json"


def test_bodies_and_uploads_over_the_limit_are_413_and_change_nothing(client: Any) -> None:
    before = client.get("/api/fights").json()["total"]
    huge_yaml = "ruleset: arena\nname: big\n" + "# padding\n" * 120_000  # an uploaded scenario file
    r = client.post("/api/fights", json={"scenario": huge_yaml})
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    t = open_table(client, "arena/duel")
    chronicle = t.get("/log", t.gm).json()
    chronicle["padding"] = "x" * (8 * 1024 * 1024)
    r = client.post(
        "/api/fights/import", content=json.dumps(chronicle), headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413
    assert client.get("/api/fights").json()["total"] == before + 1  # only the fight opened above


def test_state_changing_requests_are_safe_from_cross_site_forgery(client: Any) -> None:
    t = open_table(client, "arena/duel", seed=4)
    before = t.view(log=False)
    # No response ever sets a cookie: there is no ambient credential for another site to ride on.
    for r in (client.get("/"), t.get("", t.gm), client.post("/api/fights", json={"scenario": "arena/duel"})):
        assert "set-cookie" not in r.headers
    # A cookie is no credential.
    r = client.get(f"/api/fights/{t.id}", headers={"Cookie": f"token={t.gm}; Authorization=Bearer {t.gm}"})
    assert r.status_code == 401
    url = f"/api/fights/{t.id}/actions"
    state = before["state_id"]
    # What a page of another site can send without a preflight: a form (urlencoded, multipart, text).
    forms = [
        client.post(url, data={"state_id": state, "auto": "true"}),
        client.post(url, files={"state_id": (None, state)}),
        client.post(
            url, content=json.dumps({"state_id": state, "auto": True}), headers={"Content-Type": "text/plain"}
        ),
    ]
    assert all(r.status_code == 415 for r in forms)
    # The same JSON with the token, but sent from another origin (a browser says so): refused.
    for headers in (
        {"Origin": "https://evil.example"},
        {"Origin": "http://testserver.evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "null"},
        {"Origin": "http://["},  # no URL at all: it was a 500 (urlsplit's ValueError)
        {"Origin": "http://[::1"},
    ):
        r = client.post(url, json={"state_id": state, "auto": True}, headers={**t.headers(t.gm), **headers})
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
    # Never allowed to be read by another origin either (no CORS is granted).
    r = client.options(
        url, headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    )
    assert "access-control-allow-origin" not in r.headers
    after = t.view(log=False)
    assert after["state_id"] == before["state_id"] and after["fight"]["seq"] == before["fight"]["seq"]
    # From this site, with the token in its header, the same action goes through.
    same_site = {**t.headers(t.gm), "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post(url, json={"state_id": state, "auto": True}, headers=same_site).status_code == 200


def test_a_join_link_carries_its_token_in_the_fragment_never_sent_to_the_server(client: Any) -> None:
    t = open_table(client, "arena/duel")
    for link in (t.created["links"]["gm"], *t.created["links"]["join"].values()):
        page, _, fragment = link.partition("#")
        assert fragment.startswith("t=") and "?" not in page
    page = client.get(f"/join/{t.id}")
    assert all(token not in page.text for token in (t.gm, *t.join.values()))
