"""The API's reference at ``/api/docs``: the published OpenAPI document (``/openapi.json``) read into one
page rendered on the server.

An interactive explorer (Swagger UI, ReDoc) loads its code and styles from a CDN and runs an inline
script: every page of this server is sent with a Content-Security-Policy that allows only its own
scripts and styles, so such a page stays blank — and a table played offline could not fetch it anyway.
This page needs neither: each operation (method, path, what it does, its parameters, its body, every
reply it can get) and each body's schema, in order, linked to one another. A client generator reads
``/openapi.json`` itself.
"""

from __future__ import annotations

__all__ = ["operations", "router", "schemas"]

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from kassen.web.pages import render

router = APIRouter(include_in_schema=False)

_METHODS = ("get", "post", "put", "patch", "delete")


@router.get("/api/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> HTMLResponse:
    doc = request.app.openapi()
    return render("apidocs.html", info=doc.get("info", {}), groups=operations(doc), schemas=schemas(doc))


def operations(doc: Mapping[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The document's operations grouped by what they act on (``/api/fights/...`` → ``fights``), each
    as the page shows it, in the document's order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for path, item in doc.get("paths", {}).items():
        for method in _METHODS:
            op = item.get(method)
            if op is None:
                continue
            parts = [p for p in path.split("/") if p and p != "api"]
            groups.setdefault(parts[0] if parts else "/", []).append(_operation(method, path, op))
    return list(groups.items())


def _operation(method: str, path: str, op: Mapping[str, Any]) -> dict[str, Any]:
    body = op.get("requestBody", {}).get("content", {})
    media = next(iter(body), None)
    return {
        "anchor": op.get("operationId") or f"{method}-{path}",
        "method": method.upper(),
        "path": path,
        "summary": op.get("summary", ""),
        "description": _paragraphs(op.get("description", "")),
        "parameters": [
            {
                "name": p.get("name", ""),
                "where": p.get("in", ""),
                "required": bool(p.get("required")),
                "type": type_text(p.get("schema", {})),
                "description": p.get("description") or p.get("schema", {}).get("description", ""),
            }
            for p in op.get("parameters", [])
        ],
        "body": None if media is None else {"media": media, "type": type_text(body[media].get("schema", {}))},
        "responses": [
            {
                "status": status,
                "description": reply.get("description", ""),
                "type": type_text(_first_schema(reply)),
            }
            for status, reply in sorted(op.get("responses", {}).items())
        ],
    }


def _first_schema(reply: Mapping[str, Any]) -> Mapping[str, Any]:
    """The schema of a reply's first media type (``{}``: a reply with no body)."""
    for media in reply.get("content", {}).values():
        schema: Mapping[str, Any] = media.get("schema", {})
        return schema
    return {}


def schemas(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each named schema with its fields (name, type, whether required, what it is)."""
    out = []
    for name, schema in doc.get("components", {}).get("schemas", {}).items():
        required = set(schema.get("required", ()))
        out.append(
            {
                "name": name,
                "description": _paragraphs(schema.get("description", "")),
                "type": "" if "properties" in schema else type_text(schema),
                "fields": [
                    {
                        "name": field,
                        "type": type_text(spec),
                        "required": field in required,
                        "description": spec.get("description", ""),
                    }
                    for field, spec in schema.get("properties", {}).items()
                ],
            }
        )
    return out


def type_text(schema: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A schema's type as pieces of text, each with the schema it names (``""``: none): ``NewFight``,
    ``list of Choice``, ``integer or null``, ``one of "auto", "table"``."""
    if not schema:
        return []
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        return [(name, name)]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            pieces: list[tuple[str, str]] = []
            for i, part in enumerate(schema[key]):
                if i:
                    pieces.append((" and " if key == "allOf" else " or ", ""))
                pieces += type_text(part) or [("any", "")]
            return pieces
    if "const" in schema:
        return [(_literal(schema["const"]), "")]
    if "enum" in schema:
        return [("one of " + ", ".join(_literal(v) for v in schema["enum"]), "")]
    kind = schema.get("type")
    if kind == "array":
        return [("list of ", ""), *(type_text(schema.get("items", {})) or [("any", "")])]
    if kind == "object" and isinstance(schema.get("additionalProperties"), Mapping):
        return [("map of ", ""), *type_text(schema["additionalProperties"])]
    if isinstance(kind, list):
        return [(" or ".join(str(k) for k in kind), "")]
    return [(str(kind or "any"), "")]


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    return str(value).lower() if isinstance(value, bool) else str(value)


def _paragraphs(text: str) -> list[str]:
    return [p.strip() for p in text.split("\n\n") if p.strip()]
