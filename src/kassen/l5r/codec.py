"""JSON for the duel's frozen dataclasses, driven by their type hints (the state and actions of a
replayable :class:`~kassen.core.events.Chronicle`).

A dataclass becomes an object tagged with ``"type"`` (its class name in snake case); fields equal to
their defaults are left out, so logs stay short. Decoding reads the hints back: unions of dataclasses
choose by tag; enums, ``NewType`` ids, tuples and the pydantic tables are rebuilt exactly. Bad input
raises :class:`~kassen.core.errors.KassenError`.
"""

from __future__ import annotations

__all__ = ["from_json", "to_json"]

import dataclasses
import re
import types
from enum import Enum
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ValidationError

from kassen.core.errors import KassenError
from kassen.core.events import JSONValue


def _tag(cls: type) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def to_json(value: Any) -> JSONValue:
    """``value`` as plain JSON data."""
    if value is None or isinstance(value, bool | int | str):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, JSONValue] = {"type": _tag(type(value))}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and v == f.default:
                continue
            out[f.name] = to_json(v)
        return out
    raise KassenError(f"cannot write {type(value).__name__} as JSON")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def from_json(tp: Any, data: JSONValue) -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_json` output."""
    try:
        return _decode(tp, data)
    except KassenError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise KassenError(f"invalid JSON for {getattr(tp, '__name__', tp)}: {exc}") from None


def _decode(tp: Any, data: Any) -> Any:
    if tp is Any:
        return data
    if tp is type(None):
        if data is not None:
            raise TypeError("expected null")
        return None
    supertype = getattr(tp, "__supertype__", None)  # NewType
    if supertype is not None:
        return tp(_decode(supertype, data))
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return _decode_union(get_args(tp), data)
    if origin is Literal:
        if data not in get_args(tp):
            raise ValueError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(data, list):
            raise TypeError("expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], d) for d in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items")
        return tuple(_decode(a, d) for a, d in zip(args, data, strict=True))
    if isinstance(tp, type):
        if issubclass(tp, Enum):
            return tp(data)
        if issubclass(tp, bool):
            if not isinstance(data, bool):
                raise TypeError("expected true or false")
            return data
        if issubclass(tp, int):
            if isinstance(data, bool) or not isinstance(data, int):
                raise TypeError("expected an integer")
            return data
        if issubclass(tp, str):
            if not isinstance(data, str):
                raise TypeError("expected a string")
            return data
        if issubclass(tp, BaseModel):
            try:
                return tp.model_validate(data)
            except ValidationError as exc:
                raise ValueError(str(exc)) from None
        if dataclasses.is_dataclass(tp):
            return _decode_dataclass(tp, data)
    raise TypeError(f"cannot read {tp!r}")


def _decode_union(args: tuple[Any, ...], data: Any) -> Any:
    if data is None and type(None) in args:
        return None
    classes = [a for a in args if isinstance(a, type) and dataclasses.is_dataclass(a)]
    if isinstance(data, dict) and classes:
        tag = data.get("type")
        for cls in classes:
            if _tag(cls) == tag:
                return _decode_dataclass(cls, data)
        raise ValueError(f"unknown type {tag!r}")
    for a in args:
        if a is type(None):
            continue
        try:
            return _decode(a, data)
        except (TypeError, ValueError):
            continue
    raise ValueError(f"{data!r} matches none of the expected types")


def _decode_dataclass(cls: type, data: Any) -> Any:
    if not isinstance(data, dict):
        raise TypeError(f"expected an object for {cls.__name__}")
    tag = data.get("type")
    if tag is not None and tag != _tag(cls):
        raise ValueError(f"expected type {_tag(cls)!r}, got {tag!r}")
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise ValueError(f"unknown field(s) for {cls.__name__}: {', '.join(sorted(unknown))}")
    kwargs = {name: _decode(hints[name], value) for name, value in data.items() if name != "type"}
    return cls(**kwargs)
