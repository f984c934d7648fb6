"""The API reference at ``/api/docs``: one page rendered on the server from the published OpenAPI document,
which names every operation and schema of it, links each type to its schema, and loads nothing from
another site (the pages' Content-Security-Policy allows only the server's own scripts and styles: an
explorer fetched from a CDN was a blank page). In a browser: tests/web/test_browser.py."""

from __future__ import annotations

import re
from typing import Any

from kassen.web.apidocs import type_text


def test_the_reference_names_every_operation_and_schema_and_links_its_types(client: Any) -> None:
    doc = client.get("/openapi.json").json()
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    operations = [(m.upper(), p) for p, item in doc["paths"].items() for m in item]
    assert len(operations) > 30
    for method, path in operations:
        assert f'<code class="method">{method}</code> <code>{path}</code>' in html, (method, path)
    anchors = set(re.findall(r'id="([^"]+)"', html))
    for name in doc["components"]["schemas"]:
        assert f"schema-{name}" in anchors, name
    links = set(re.findall(r'href="#([^"]+)"', html))
    assert links and links <= anchors, links - anchors  # every link lands on the page
    assert "/api/docs" not in {p for _, p in operations}  # the page itself is not an operation
    # nothing fetched from elsewhere: no script or style but the server's own
    assert not re.search(r'<(script|link)[^>]*(src|href)="(https?:)?//', html)
    assert "swagger" not in html.lower()


def test_types_read_as_words() -> None:
    assert type_text({"$ref": "#/components/schemas/NewFight"}) == [("NewFight", "NewFight")]
    assert type_text({"type": "array", "items": {"$ref": "#/x/Choice"}}) == [
        ("list of ", ""),
        ("Choice", "Choice"),
    ]
    assert type_text({"anyOf": [{"type": "integer"}, {"type": "null"}]}) == [
        ("integer", ""),
        (" or ", ""),
        ("null", ""),
    ]
    assert type_text({"enum": ["auto", "table"]}) == [('one of "auto", "table"', "")]
    assert type_text({"const": True}) == [("true", "")]
    assert type_text({}) == []


def test_the_reference_is_in_the_readers_language(client: Any) -> None:
    html = client.get("/api/docs", headers={"Accept-Language": "ja"}).text
    assert 'lang="ja"' in html and "Parameters" not in html and "Replies" not in html
