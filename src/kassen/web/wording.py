"""A malformed request told in kassen's own words: pydantic's checks of every request model, query and
path parameter (``Input should be a valid integer``, ``Tuple should have at least 2 items after
validation``) become one sentence that names the field as the API documents it and says what it takes
(``seed: a whole number from 0 to 18446744073709551615, not -1``).

The words for each field are :data:`FIELDS`, by its name; a field not there is still named, and its
type's words said (``true or false``, ``a whole number``). A check this module does not know by type
says what the field takes, never pydantic's message.
"""

from __future__ import annotations

__all__ = ["FIELDS", "describe", "field_words"]

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kassen.core.fight import MAX_FACE, MAX_TYPED_FACES, SEED_BOUNDS
from kassen.core.menu import MAX_PATH
from kassen.i18n import N_, S_

#: The body as a field's place ("the body: ..."), and the words for the other places.
BODY = S_("the body")
_PLACES = {"body": BODY, "query": S_("the query"), "path": S_("the path"), "header": S_("the header")}
#: The bounds said in words (each a template of the catalog, filled by :func:`_one`).
_BOUND_WORDS = (
    N_("{field}: at least {n}, not {given}"),
    N_("{field}: more than {n}, not {given}"),
    N_("{field}: at most {n}, not {given}"),
    N_("{field}: less than {n}, not {given}"),
)

#: What each field takes, in words (the request models of :mod:`kassen.web.api`, the query and path
#: parameters of the API and the screens).
FIELDS: dict[str, str] = {
    "scenario": S_("a bundled scenario's name (arena/duel, sengoku/demo) or a scenario's YAML text"),
    "seed": S_("a whole number from {lo} to {hi}", lo=SEED_BOUNDS.lo, hi=SEED_BOUNDS.hi),
    "dice": S_("auto (kassen rolls) or table (the faces rolled are typed)"),
    "faces": S_(
        "the faces rolled: a list of 1 to {most} whole numbers from 1 to {top}, "
        "or null for a die kassen rolls",
        most=MAX_TYPED_FACES,
        top=MAX_FACE,
    ),
    "state_id": S_("the state id the choice was made on: 8 to 64 hex digits, as the fight's view gives it"),
    "at": S_("the state id to fork from: 8 to 64 hex digits (the fight's start, or any entry of its log)"),
    "choices": S_("the menu ids chosen, a list of 1 to {most} ids of 1 to 200 characters", most=MAX_PATH),
    "gm": S_("true or false (the GM's own moves)"),
    "auto": S_("true or false (the policy decides)"),
    "expires_in": S_("seconds until the links expire, from 60 to 315360000 (ten years), or null"),
    "policies": S_(
        "an object of side → policy (heuristic, random, first-legal, scenario, "
        "search:iterations=400, search:time=1.0); {empty} for every side by its players",
        empty="{}",
    ),
    "rotate": S_("all, or a side's id"),
    "name": S_("the fight's name, 1 to 200 characters"),
    "archived": S_("true or false"),
    "limit": S_("a whole number from 1 to 500"),
    "offset": S_("a whole number from 0"),
    "log": S_("true or false"),
    "verbose": S_("true or false"),
    "path": S_("the menu ids chosen so far, separated by commas"),
    "p": S_("a menu id chosen so far"),
    "rule": S_("a rule ID such as SG.CNT.5 (letters, digits, dots and hyphens)"),
    "fight_id": S_("a fight's id (22 letters, digits, - and _)"),
    "index": S_("a log entry's number, a whole number from 0"),
}

#: Words for a value's kind, by the check that refused it.
_KINDS = {
    "string_type": S_("text"),
    "int_type": S_("a whole number"),
    "int_parsing": S_("a whole number"),
    "int_from_float": S_("a whole number"),
    "float_type": S_("a number"),
    "float_parsing": S_("a number"),
    "bool_type": S_("true or false"),
    "bool_parsing": S_("true or false"),
    "dict_type": S_("a JSON object"),
    "model_type": S_("a JSON object"),
    "model_attributes_type": S_("a JSON object"),
    "list_type": S_("a list"),
    "tuple_type": S_("a list"),
    "none_required": "null",
}


def _where(loc: Sequence[Any]) -> tuple[str, str]:
    """The field as the API names it (``dice[0]``, ``seed``, ``limit``) and its name alone."""
    parts = list(loc)
    place = parts.pop(0) if parts and parts[0] in ("body", "query", "path", "header") else "body"
    name = ""
    shown = ""
    for part in parts:
        if isinstance(part, int):
            shown += f"[{part}]"
        else:
            text = str(part)
            if text in ("function-after", "function-before", "function-wrap") or "[" in text:
                continue  # pydantic's names for its own validators, not the request's
            shown = f"{shown}.{text}" if shown else text
            name = text
    if not shown:
        return _PLACES.get(place, BODY), ""
    if place == "query":
        shown = S_("{field} (in the address's query)", field=shown)
    elif place == "path":
        shown = S_("{field} (in the address)", field=shown)
    return shown, name


def field_words(name: str, parent: str = "") -> str:
    """What the field ``name`` takes (``parent``: the field it is an item of)."""
    if parent == "dice":
        return S_("a face from 1 to {top}, or null for a die kassen rolls", top=MAX_FACE)
    if parent == "choices":
        return S_("a menu id of 1 to 200 characters")
    if parent == "policies":
        return S_("a side's policy: 1 to 200 characters (heuristic, random, search:time=1.0...)")
    return FIELDS.get(name, "")


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _one(error: Mapping[str, Any], known: Iterable[str], dice_are_faces: bool) -> str:
    kind = str(error.get("type", ""))
    loc = list(error.get("loc", ()))
    where, name = _where(loc)
    names = [str(p) for p in loc if isinstance(p, str) and p not in ("body", "query", "path")]
    parent = names[-2] if len(names) >= 2 else ""
    if isinstance(loc[-1] if loc else None, int):  # an item of a list: its list is the parent
        parent, name = name, ""
    if dice_are_faces and name == "dice" and not parent:
        wants = FIELDS["faces"]
    else:
        wants = field_words(name, parent) if (name or parent) else ""
    ctx = error.get("ctx") or {}
    given = error.get("input")
    if kind == "missing":
        if where == BODY:
            return S_("the request needs a JSON body")
        if wants:
            return S_("{field}: missing — give {wants}", field=where, wants=wants)
        return S_("{field}: missing", field=where)
    if kind == "extra_forbidden":
        fields = ", ".join(sorted(known))
        if fields:
            return S_("{field}: not a field of this request (it takes {fields})", field=where, fields=fields)
        return S_("{field}: not a field of this request", field=where)
    if kind in ("value_error", "assertion_error"):
        text = str(error.get("msg", ""))
        for prefix in ("Value error, ", "Assertion failed, "):
            text = text.removeprefix(prefix)
        return f"{where}: {text}" if where != BODY else text
    if kind == "json_invalid":
        return S_("the body is not JSON ({error})", error=str(ctx.get("error", ""))[:80])
    if kind in ("too_short", "too_long"):
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        actual = ctx.get("actual_length", "?")
        if kind == "too_short":
            said = (
                S_("{field}: at least {n} item, not {actual}", field=where, n=bound, actual=actual)
                if bound == 1
                else S_("{field}: at least {n} items, not {actual}", field=where, n=bound, actual=actual)
            )
        else:
            said = (
                S_("{field}: at most {n} item, not {actual}", field=where, n=bound, actual=actual)
                if bound == 1
                else S_("{field}: at most {n} items, not {actual}", field=where, n=bound, actual=actual)
            )
        return S_("{said} — {wants}", said=said, wants=wants) if wants else said
    if kind in ("string_too_short", "string_too_long"):
        if kind == "string_too_short" and ctx.get("min_length") == 1:
            if wants:
                return S_("{field}: empty — give {wants}", field=where, wants=wants)
            return S_("{field}: empty", field=where)
        bound = ctx.get("min_length") if kind == "string_too_short" else ctx.get("max_length")
        said = (
            S_("{field}: at least {n} characters", field=where, n=bound)
            if kind == "string_too_short"
            else S_("{field}: at most {n} characters", field=where, n=bound)
        )
        return S_("{said} — {wants}", said=said, wants=wants) if wants else said
    if kind in ("literal_error", "enum"):
        expected = str(ctx.get("expected", "")).replace("'", "")
        return S_("{field}: {wants}, not {given}", field=where, wants=expected or wants, given=_shown(given))
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than", "multiple_of"):
        if wants:
            return S_("{field}: {wants}, not {given}", field=where, wants=wants, given=_shown(given))
        bound = next((ctx[k] for k in ("ge", "gt", "le", "lt") if k in ctx), "?")
        template = {
            "greater_than_equal": "{field}: at least {n}, not {given}",
            "greater_than": "{field}: more than {n}, not {given}",
            "less_than_equal": "{field}: at most {n}, not {given}",
        }.get(kind, "{field}: less than {n}, not {given}")
        return S_(template, field=where, n=bound, given=_shown(given))
    if kind == "string_pattern_mismatch":
        return S_(
            "{field}: {wants}, not {given}",
            field=where,
            wants=wants or S_("not in the form this field takes"),
            given=_shown(given),
        )
    if kind in _KINDS:
        what = wants or _KINDS[kind]
        return S_("{field}: {wants}, not {given}", field=where, wants=what, given=_shown(given))
    if wants:
        return S_("{field}: {wants}, not {given}", field=where, wants=wants, given=_shown(given))
    return S_("{field}: not a value this request takes ({kind})", field=where, kind=kind)


def describe(
    errors: Sequence[Mapping[str, Any]], known: Iterable[str] = (), *, dice_are_faces: bool = False
) -> list[dict[str, Any]]:
    """Each error as ``{"loc", "field", "message"}`` in kassen's words (``known``: the fields the
    request's body takes; ``dice_are_faces``: the body's ``dice`` are typed faces, not a dice mode)."""
    fields = tuple(known)
    out = []
    for e in errors:
        loc = [str(p) for p in e.get("loc", ())]
        where, _ = _where(list(e.get("loc", ())))
        out.append({"loc": loc, "field": where, "message": _one(e, fields, dice_are_faces)[:300]})
    return out
