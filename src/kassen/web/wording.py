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

#: What each field takes, in words (the request models of :mod:`kassen.web.api`, the query and path
#: parameters of the API and the screens).
FIELDS: dict[str, str] = {
    "scenario": "a bundled scenario's name (arena/duel, sengoku/demo) or a scenario's YAML text",
    "seed": f"a whole number from {SEED_BOUNDS.lo} to {SEED_BOUNDS.hi}",
    "dice": "auto (kassen rolls) or table (the faces rolled are typed)",
    "faces": f"the faces rolled: a list of 1 to {MAX_TYPED_FACES} whole numbers from 1 to {MAX_FACE}, or "
    "null for a die kassen rolls",
    "state_id": "the state id the choice was made on: 8 to 64 hex digits, as the fight's view gives it",
    "at": "the state id to fork from: 8 to 64 hex digits (the fight's start, or any entry of its log)",
    "choices": f"the menu ids chosen, a list of 1 to {MAX_PATH} ids of 1 to 200 characters",
    "gm": "true or false (the GM's own moves)",
    "auto": "true or false (the policy decides)",
    "expires_in": "seconds until the links expire, from 60 to 315360000 (ten years), or null",
    "policies": "an object of side → policy (heuristic, random, first-legal, scenario, "
    "search:iterations=400, search:time=1.0); {} for every side by its players",
    "rotate": "all, or a side's id",
    "name": "the fight's name, 1 to 200 characters",
    "archived": "true or false",
    "limit": "a whole number from 1 to 500",
    "offset": "a whole number from 0",
    "log": "true or false",
    "verbose": "true or false",
    "path": "the menu ids chosen so far, separated by commas",
    "p": "a menu id chosen so far",
    "rule": "a rule ID such as SG.CNT.5 (letters, digits, dots and hyphens)",
    "fight_id": "a fight's id (22 letters, digits, - and _)",
    "index": "a log entry's number, a whole number from 0",
}

#: Words for a value's kind, by the check that refused it.
_KINDS = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "dict_type": "a JSON object",
    "model_type": "a JSON object",
    "model_attributes_type": "a JSON object",
    "list_type": "a list",
    "tuple_type": "a list",
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
        return ("the body" if place == "body" else f"the {place}"), ""
    if place == "query":
        shown = f"{shown} (in the address's query)"
    elif place == "path":
        shown = f"{shown} (in the address)"
    return shown, name


def field_words(name: str, parent: str = "") -> str:
    """What the field ``name`` takes (``parent``: the field it is an item of)."""
    if parent == "dice":
        return f"a face from 1 to {MAX_FACE}, or null for a die kassen rolls"
    if parent == "choices":
        return "a menu id of 1 to 200 characters"
    if parent == "policies":
        return "a side's policy: 1 to 200 characters (heuristic, random, search:time=1.0...)"
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
        if where == "the body":
            return "the request needs a JSON body"
        return f"{where}: missing" + (f" — give {wants}" if wants else "")
    if kind == "extra_forbidden":
        fields = ", ".join(sorted(known))
        return f"{where}: not a field of this request" + (f" (it takes {fields})" if fields else "")
    if kind in ("value_error", "assertion_error"):
        text = str(error.get("msg", ""))
        for prefix in ("Value error, ", "Assertion failed, "):
            text = text.removeprefix(prefix)
        return f"{where}: {text}" if where != "the body" else text
    if kind == "json_invalid":
        return f"the body is not JSON ({str(ctx.get('error', ''))[:80]})"
    if kind in ("too_short", "too_long"):
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        items = "item" if bound == 1 else "items"
        word = "at least" if kind == "too_short" else "at most"
        return f"{where}: {word} {bound} {items}, not {ctx.get('actual_length', '?')}" + (
            f" — {wants}" if wants else ""
        )
    if kind in ("string_too_short", "string_too_long"):
        if kind == "string_too_short" and ctx.get("min_length") == 1:
            return f"{where}: empty" + (f" — give {wants}" if wants else "")
        bound = ctx.get("min_length") if kind == "string_too_short" else ctx.get("max_length")
        word = "at least" if kind == "string_too_short" else "at most"
        return f"{where}: {word} {bound} characters" + (f" — {wants}" if wants else "")
    if kind in ("literal_error", "enum"):
        expected = str(ctx.get("expected", "")).replace("'", "")
        return f"{where}: {expected or wants}, not {_shown(given)}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than", "multiple_of"):
        if wants:
            return f"{where}: {wants}, not {_shown(given)}"
        bound = next((ctx[k] for k in ("ge", "gt", "le", "lt") if k in ctx), "?")
        words = {"greater_than_equal": "at least", "greater_than": "more than", "less_than_equal": "at most"}
        return f"{where}: {words.get(kind, 'less than')} {bound}, not {_shown(given)}"
    if kind == "string_pattern_mismatch":
        return f"{where}: {wants or 'not in the form this field takes'}, not {_shown(given)}"
    if kind in _KINDS:
        what = wants or _KINDS[kind]
        return f"{where}: {what}, not {_shown(given)}"
    return f"{where}: " + (
        f"{wants}, not {_shown(given)}" if wants else f"not a value this request takes ({kind})"
    )


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
