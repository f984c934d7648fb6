"""The codec's readers and writers of plain JSON data with a declared shape: a ``TypedDict`` (an object of
known keys, each with its type; ``NotRequired`` keys may be left out, unknown keys are refused) and a
``list[T]`` — the shapes of event data (:mod:`kassen.core.events`), which stay plain dicts and lists
in memory. :func:`kassen.core.codec._compile` hands these types here."""

from __future__ import annotations

__all__ = ["json_schema", "list_codec", "typed_dict_codec"]

import types
import typing
from typing import Any, NotRequired, Required, get_args, get_origin

from kassen.core.codec import FormatError, Reader, Writer, _at, _compile, _items, _near, _wrong
from kassen.i18n import S_


def typed_dict_codec(tp: Any) -> tuple[Reader, Writer]:
    """Reads an object with exactly the keys of the TypedDict ``tp`` (its required ones at least), each
    value read by its own type; writes each value by its type."""
    hints, required = _keys(tp)
    compiled = {key: _compile(hint) for key, hint in hints.items()}
    known = ", ".join(compiled)
    name = tp.__name__

    def read(data: Any, path: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise _wrong(path, f"an object ({name})", data)
        for key in data:
            if key not in compiled:
                near = _near(key, compiled)
                raise FormatError(
                    _at(path, str(key)), S_("unknown field (fields: {known}){near}", known=known, near=near)
                )
        for key in required:
            if key not in data:
                raise FormatError(_at(path, key), S_("field required"))
        return {k: compiled[k][0](v, _at(path, k)) for k, v in data.items()}

    def write(value: Any) -> dict[str, Any]:
        return {k: compiled[k][1](v) for k, v in value.items()}

    return read, write


def _keys(tp: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """A TypedDict's keys with their types (``NotRequired`` and ``Required`` taken off), and the keys it
    requires, read from its evaluated hints: under ``from __future__ import annotations`` the class
    itself cannot see a ``NotRequired[...]`` written as text."""
    hints: dict[str, Any] = {}
    required = set(tp.__required_keys__)
    for key, hint in typing.get_type_hints(tp, include_extras=True).items():
        while get_origin(hint) in (NotRequired, Required):
            if get_origin(hint) is NotRequired:
                required.discard(key)
            else:
                required.add(key)
            hint = get_args(hint)[0]
        hints[key] = hint
    return hints, frozenset(required)


def list_codec(item: Any) -> tuple[Reader, Writer]:
    """Reads a JSON list of values of ``item`` (at most the codec's item limit) as a list."""
    item_read, item_write = _compile(item)

    def read(data: Any, path: str) -> list[Any]:
        return [item_read(v, _at(path, i)) for i, v in enumerate(_items(data, path))]

    def write(value: Any) -> list[Any]:
        return [item_write(v) for v in value]

    return read, write


def json_schema(tp: Any) -> dict[str, Any]:
    """The JSON Schema of the plain JSON ``tp`` describes: a TypedDict (its keys, the required ones, no
    others), a list, a string-keyed dict, a union, ``int``, ``str``, ``bool``, ``None``; anything else is
    any JSON."""
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if typing.is_typeddict(tp):
        hints, required = _keys(tp)
        props = {key: json_schema(hint) for key, hint in hints.items()}
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        if tp.__doc__:
            out["description"] = " ".join(tp.__doc__.split())
        if required:
            out["required"] = sorted(required)
        return out
    origin, args = get_origin(tp), get_args(tp)
    if origin is list:
        return {"type": "array", "items": json_schema(args[0]) if args else {}}
    if origin is dict:
        return {"type": "object", "additionalProperties": json_schema(args[1]) if len(args) == 2 else {}}
    if origin is typing.Union or isinstance(tp, types.UnionType):
        return {"anyOf": [json_schema(a) for a in args]}
    return {}
