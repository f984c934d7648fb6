"""The codec's readers and writers of the compound kinds of type (:mod:`kassen.core.codec` compiles a
type and hands these kinds here): an enum and a ``Literal`` (one of their values, a near miss named), a
tuple (of any length up to the list limit, or of fixed items), a string-keyed mapping, a pydantic model,
a dataclass (an object of all its fields, unknown keys refused, missing fields named; with its ``kind``
inside a union) and a union (dataclasses discriminated by ``"kind"``, other members tried in turn).
Every error is a :class:`~kassen.core.codec.FormatError` naming its path.
"""

from __future__ import annotations

__all__: list[str] = []  # read by kassen.core.codec._compile

import dataclasses
import typing
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ValidationError

from kassen.core.codec import (
    MAX_ITEMS,
    FormatError,
    Reader,
    Writer,
    _at,
    _compile,
    _hints,
    _identity,
    _is_dataclass,
    _items,
    _near,
    _not_one_of,
    _show,
    _wrong,
    kind_of,
)
from kassen.core.errors import KassenError
from kassen.i18n import N_, S_


def _enum(cls: type[Enum]) -> tuple[Reader, Writer]:
    by_value = {m.value: m for m in cls}
    names = ", ".join(str(v) for v in by_value)

    def read(data: Any, path: str) -> Enum:
        if isinstance(data, bool | dict | list) or data is None:
            raise _wrong(path, S_("one of {names}", names=names), data)
        member = by_value.get(data)
        if member is None:
            raise FormatError(path, _not_one_of(data, names, by_value))
        return member

    def write(value: Enum) -> Any:
        return value.value

    return read, write


def _literal(values: tuple[Any, ...]) -> tuple[Reader, Writer]:
    names = ", ".join(str(v) for v in values)

    def read(data: Any, path: str) -> Any:
        for v in values:
            if type(v) is type(data) and v == data:
                return v
        raise FormatError(path, _not_one_of(data, names, values))

    return read, _identity


def _tuple(args: tuple[Any, ...]) -> tuple[Reader, Writer]:
    if len(args) == 2 and args[1] is Ellipsis:
        item_read, item_write = _compile(args[0])

        def read_all(data: Any, path: str) -> tuple[Any, ...]:
            return tuple(item_read(v, _at(path, i)) for i, v in enumerate(_items(data, path)))

        def write_all(value: tuple[Any, ...]) -> list[Any]:
            return [item_write(v) for v in value]

        return read_all, write_all
    parts = [_compile(a) for a in args]

    def read_fixed(data: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise _wrong(path, S_("a list of {n} items", n=len(parts)), data)
        if len(data) != len(parts):
            raise FormatError(
                path, S_("expected {n_parts} items, got {n_data}", n_parts=len(parts), n_data=len(data))
            )
        return tuple(r(v, _at(path, i)) for i, (v, (r, _)) in enumerate(zip(data, parts, strict=True)))

    def write_fixed(value: tuple[Any, ...]) -> list[Any]:
        return [w(v) for v, (_, w) in zip(value, parts, strict=True)]

    return read_fixed, write_fixed


def _mapping(value_tp: Any) -> tuple[Reader, Writer]:
    value_read, value_write = _compile(value_tp)

    def read(data: Any, path: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise _wrong(path, N_("an object"), data)
        if len(data) > MAX_ITEMS:
            raise FormatError(
                path,
                S_(
                    "an object of {n_data} keys is larger than {max_items}",
                    n_data=len(data),
                    max_items=MAX_ITEMS,
                ),
            )
        return {k: value_read(v, _at(path, k)) for k, v in data.items()}

    def write(value: Mapping[str, Any]) -> dict[str, Any]:
        return {k: value_write(v) for k, v in value.items()}

    return read, write


def _model(cls: type[BaseModel]) -> tuple[Reader, Writer]:
    def read(data: Any, path: str) -> BaseModel:
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = path
            for part in err["loc"]:
                where = _at(where, part)
            raise FormatError(where, err["msg"]) from None

    def write(value: BaseModel) -> Any:
        return value.model_dump(mode="json")

    return read, write


def _dataclass(cls: type, tagged: bool) -> tuple[Reader, Writer]:
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    names = tuple(f.name for f in fields)
    if tagged and "kind" in names:
        raise TypeError(f"{cls.__name__} has a field named 'kind', which its union uses as the tag")
    compiled = {f.name: _compile(hints[f.name]) for f in fields}
    required = {
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    known = ", ".join(names)
    tag = kind_of(cls)
    allowed = {*names, "kind"} if tagged else set(names)

    def read(data: Any, path: str) -> Any:
        if not isinstance(data, dict):
            raise _wrong(path, f"an object ({cls.__name__})", data)
        for key in data:
            if key not in allowed:
                near = _near(key, names)
                raise FormatError(
                    _at(path, str(key)), S_("unknown field (fields: {known}){near}", known=known, near=near)
                )
        for name in names:
            if name in required and name not in data:
                raise FormatError(_at(path, name), S_("field required"))
        kwargs = {k: compiled[k][0](v, _at(path, k)) for k, v in data.items() if k != "kind" or not tagged}
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise FormatError(path, S_("not a valid {name}: {exc}", name=cls.__name__, exc=exc)) from None

    writers = tuple((name, compiled[name][1]) for name in names)

    def write(value: Any) -> dict[str, Any]:
        out = {name: w(getattr(value, name)) for name, w in writers}
        if tagged:
            out["kind"] = tag
        return out

    return read, write


def _union(members: tuple[Any, ...]) -> tuple[Reader, Writer]:
    nullable = type(None) in members
    rest = tuple(m for m in members if m is not type(None))
    classes = tuple(m for m in rest if _is_dataclass(m))
    others = tuple(m for m in rest if not _is_dataclass(m))
    tagged = len(classes) > 1
    by_kind: dict[str, tuple[Reader, Writer]] = {}
    by_class: dict[type, Writer] = {}
    for c in classes:
        rw = _compile(c, tagged)
        by_kind[kind_of(c)] = rw
        by_class[c] = rw[1]
    if tagged and len(by_kind) != len(classes):
        raise TypeError(f"two classes of {members!r} share a kind")
    kinds = ", ".join(by_kind)
    plain = [_compile(m) for m in others]
    wanted = " or ".join(
        [*(f"a {'/'.join(by_kind)} object" for _ in classes[:1]), *(_describe(m) for m in others)]
        + (["null"] if nullable else [])
    )

    def read(data: Any, path: str) -> Any:
        if data is None and nullable:
            return None
        if isinstance(data, dict) and classes:
            if not tagged:
                return by_kind[kind_of(classes[0])][0](data, path)
            kind = data.get("kind")
            if kind is None:
                raise FormatError(_at(path, "kind"), S_("field required (one of {kinds})", kinds=kinds))
            rw = by_kind.get(kind) if isinstance(kind, str) else None
            if rw is None:
                raise FormatError(_at(path, "kind"), _not_one_of(kind, kinds, by_kind))
            return rw[0](data, path)
        errors: list[FormatError] = []
        for r, _ in plain:
            try:
                return r(data, path)
            except FormatError as exc:
                # kept without its traceback, whose frames hold this list: no reference cycle is left
                # when a later member reads the value (kassen.core.collector)
                errors.append(exc.with_traceback(None))
        if len(errors) == 1:
            raise errors[0]
        raise _wrong(path, wanted, data)

    def write(value: Any) -> Any:
        if value is None:
            return None
        w = by_class.get(type(value))
        if w is not None:
            return w(value)
        for m, (_, pw) in zip(others, plain, strict=True):
            if _matches(value, m):
                return pw(value)
        raise KassenError(
            S_("cannot write {show} as one of {members}", show=_show(value), members=repr(members))
        )

    return read, write


def _describe(tp: Any) -> str:
    return {
        int: N_("an integer"),
        str: N_("a string"),
        bool: N_("true/false"),
        Fraction: N_("a fraction"),
    }.get(tp, getattr(tp, "__name__", str(tp)))


def _matches(value: Any, tp: Any) -> bool:
    base = get_args(tp)[0] if get_origin(tp) is typing.Annotated else tp
    base = getattr(base, "__supertype__", base)
    origin = get_origin(base)
    if origin is tuple:
        return isinstance(value, tuple)
    if origin is Literal:
        return value in get_args(base)
    if isinstance(base, type):
        if base is int:
            return isinstance(value, int) and not isinstance(value, bool)
        return isinstance(value, base)
    return False
