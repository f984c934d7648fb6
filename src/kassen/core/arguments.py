"""The Python API's argument checks at a package's door: :func:`checked` wraps a public function so an
argument of the wrong kind is an :class:`~kassen.core.errors.ArgumentError` naming it (as the CLI
refuses a bad option), never an ``AttributeError`` from deep inside.

The check reads the function's own annotations (``int`` is never a ``bool``; a ``Sequence`` is never a
string; a union, ``Literal``, ``None`` and a class are checked; what it cannot read passes), and what
the function still raises on a value it cannot use (a ``KeyError`` for an unknown location, a
``TypeError`` from a record of the wrong shape) becomes a :class:`~kassen.core.errors.KassenError`
naming the function. Only the door is wrapped: the rules call the plain functions.
"""

from __future__ import annotations

__all__ = ["check_exports", "checked"]

import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from kassen.core.errors import ArgumentError, KassenError, kind_of
from kassen.i18n import S_

F = TypeVar("F", bound=Callable[..., Any])


def _fits(value: object, tp: Any) -> bool:
    if tp is Any or isinstance(tp, TypeVar | str):
        return True
    if tp is None or tp is type(None):
        return value is None
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return any(_fits(value, arg) for arg in typing.get_args(tp))
    if origin is typing.Literal:
        return any(value == arg and type(value) is type(arg) for arg in typing.get_args(tp))
    if origin is not None:
        if origin in (Sequence, tuple, list) or (isinstance(origin, type) and issubclass(origin, Sequence)):
            return isinstance(value, origin) and not isinstance(value, str | bytes)
        if isinstance(origin, type) and issubclass(origin, Mapping | MutableMapping):
            return isinstance(value, Mapping)
        if origin is type:
            return isinstance(value, type)
        if (
            isinstance(origin, type)
            and origin.__module__ == "collections.abc"
            and origin.__name__ == "Callable"
        ):
            return callable(value)
        return True
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, int | float | Fraction) and not isinstance(value, bool)
    if tp is Fraction:
        return isinstance(value, int | Fraction) and not isinstance(value, bool)
    if isinstance(tp, type):
        if getattr(tp, "_is_protocol", False):
            return True  # a protocol (DieSource): its use tells
        return isinstance(value, tp)
    return True


def _words(tp: Any) -> str:
    text = getattr(tp, "__name__", None) if not typing.get_args(tp) else None
    return text or str(tp).replace("typing.", "").replace("collections.abc.", "").replace("NoneType", "None")


def checked(f: F) -> F:
    """``f`` with its arguments checked against its annotations (see the module's text)."""
    sig = inspect.signature(f)
    hints: dict[str, Any] | None = None

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal hints
        if hints is None:
            try:
                hints = typing.get_type_hints(f)
            except Exception:  # an annotation only the type checker can read: no checks by type
                hints = {}
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as exc:
            raise ArgumentError(f"{f.__name__}(): {exc}") from None
        for name, value in bound.arguments.items():
            tp = hints.get(name)
            if tp is not None and not _fits(value, tp):
                raise ArgumentError(
                    S_(
                        "{name}(): {name2} is {words}, not {kind_of}",
                        name=f.__name__,
                        name2=name,
                        words=_words(tp),
                        kind_of=kind_of(value),
                    )
                )
        try:
            return f(*args, **kwargs)
        except KassenError:
            raise
        except (TypeError, AttributeError) as exc:
            raise ArgumentError(
                S_("{name}(): an argument of the wrong kind ({exc})", name=f.__name__, exc=exc)
            ) from None
        except (KeyError, ValueError, IndexError) as exc:
            raise KassenError(
                S_("{name}(): a value it cannot use ({exc})", name=f.__name__, exc=exc)
            ) from None

    return typing.cast(F, wrapper)


def check_exports(namespace: dict[str, Any], names: Sequence[str]) -> None:
    """Wrap each plain function among ``names`` in ``namespace`` (a package's ``globals()``)."""
    for name in names:
        obj = namespace.get(name)
        if inspect.isfunction(obj):
            namespace[name] = checked(obj)
