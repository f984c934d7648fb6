"""Type-directed JSON for frozen dataclasses (ruleset states, actions, scheduled tasks).

``dump(value, tp)`` and ``load(data, tp)`` walk the type annotation: ints, strs, bools, ``None``,
``Fraction`` (as ``"3/2"``), enums (their value), ``Literal``, unions, ``tuple[X, ...]`` and dataclasses.
A dataclass inside a union of several dataclasses carries its class name under ``"type"``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class P:
...     x: int
...     r: Fraction
>>> load(dump(P(1, Fraction(1, 2)), P), P)
P(x=1, r=Fraction(1, 2))
"""

from __future__ import annotations

__all__ = ["dump", "load"]

import dataclasses
import types
import typing
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from kassen.core.errors import KassenError


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _union_members(tp: Any) -> tuple[Any, ...] | None:
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return get_args(tp)
    return None


def dump(value: Any, tp: Any) -> Any:
    """``value`` (of type ``tp``) as plain JSON data."""
    members = _union_members(tp)
    if members is not None:
        if value is None:
            return None
        for m in members:
            if m is type(None):
                continue
            if isinstance(m, type) and dataclasses.is_dataclass(m) and isinstance(value, m):
                out = dump(value, m)
                classes = [c for c in members if dataclasses.is_dataclass(c)]
                if len(classes) > 1:
                    out = {"type": m.__name__, **out}
                return out
        non_dc = [m for m in members if m is not type(None) and not dataclasses.is_dataclass(m)]
        return dump(value, non_dc[0]) if len(non_dc) == 1 else _plain(value)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = _hints(tp)
        return {f.name: dump(getattr(value, f.name), hints[f.name]) for f in dataclasses.fields(tp)}
    origin = get_origin(tp)
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return [dump(v, args[0]) for v in value]
        return [dump(v, a) for v, a in zip(value, args, strict=True)]
    return _plain(value)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, bool | int | str) or value is None:
        return value
    raise KassenError(f"cannot write {value!r} as JSON")


def load(data: Any, tp: Any) -> Any:
    """The value of type ``tp`` that :func:`dump` wrote as ``data``."""
    members = _union_members(tp)
    if members is not None:
        if data is None and type(None) in members:
            return None
        classes = [m for m in members if isinstance(m, type) and dataclasses.is_dataclass(m)]
        if classes and isinstance(data, dict):
            if len(classes) == 1:
                return load(data, classes[0])
            name = data.get("type")
            for c in classes:
                if c.__name__ == name:
                    return load({k: v for k, v in data.items() if k != "type"}, c)
            raise KassenError(f"unknown type {name!r} in JSON")
        others = [m for m in members if m is not type(None) and not dataclasses.is_dataclass(m)]
        for m in others:
            try:
                return load(data, m)
            except (KassenError, ValueError, TypeError):
                continue
        raise KassenError(f"cannot read {data!r} as {tp}")
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(data, dict):
            raise KassenError(f"expected an object for {tp.__name__}, got {data!r}")
        hints = _hints(tp)
        kwargs = {f.name: load(data[f.name], hints[f.name]) for f in dataclasses.fields(tp) if f.name in data}
        return tp(**kwargs)
    origin = get_origin(tp)
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(v, args[0]) for v in data)
        return tuple(load(v, a) for v, a in zip(data, args, strict=True))
    if origin is Literal:
        if data not in get_args(tp):
            raise KassenError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if tp is Fraction:
        return Fraction(str(data))
    if tp is bool:
        if not isinstance(data, bool):
            raise KassenError(f"expected true/false, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise KassenError(f"expected an integer, got {data!r}")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise KassenError(f"expected a string, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise KassenError(f"expected null, got {data!r}")
        return None
    raise KassenError(f"cannot read JSON into {tp!r}")
