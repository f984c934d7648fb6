"""``replace(obj, **changes)``: :func:`dataclasses.replace`, cheaper on the hot paths of the rules.

States are frozen dataclasses updated by replacement many times per action (a Sengoku unit has 43
fields, and an action copies a score of records). ``dataclasses.replace`` looks up and filters the
class's fields and runs ``__init__``, whose every store goes through ``object.__setattr__`` (a frozen
class forbids plain stores): about 0.25 µs a field. This one builds the same object another way:

- a slotted dataclass whose ``__init__`` is the one ``dataclasses`` generated, with no ``__post_init__``
  and no ``InitVar``, whose fields that ``__init__`` does not take have a plain default (a reading the
  record keeps of itself, such as a cached hash or index, which ``replace`` starts afresh): the copy is
  made as an instance of a *twin* class with the very same slots and no ``__setattr__`` of its own, by
  a function written once for the class (plain attribute stores, the fast path of the interpreter),
  and then given the record's class (``__class__`` assignment, allowed between identical slot
  layouts). What ``__init__`` would store, at about a tenth of the cost;
- any other plain dataclass: the class called with every field's value, the changes applied
  (``__init__`` and ``__post_init__`` run as in ``dataclasses.replace``);
- anything else, or a change ``__init__`` does not take: ``dataclasses.replace`` itself, for its own
  error.
"""

from __future__ import annotations

__all__ = ["keeper", "replace", "replacer"]

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: How to copy one class: its ``__init__`` field names, and the copier written for it (None: call the
#: class with every field's value).
_Plan = tuple[frozenset[str], tuple[str, ...], "Callable[[Any, dict[str, Any]], Any] | None"]

#: What to do for each dataclass replaced so far (one entry per class: bounded by the code); None: not
#: a plain dataclass, :func:`dataclasses.replace` does it.
_PLANS: dict[type, _Plan | None] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes`` (see :func:`dataclasses.replace`).

    >>> from kassen.core.explain import Step
    >>> replace(Step(1, "a", "R.1"), value=2)
    Step(value=2, reason='a', rule='R.1')
    """
    cls = type(obj)
    try:
        plan = _PLANS[cls]
    except KeyError:
        plan = _PLANS[cls] = _plan(obj)
    if plan is None or (changes and not plan[0].issuperset(changes)):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # its own error message
    copier = plan[2]
    if copier is not None:
        new: T = copier(obj, changes)
        return new
    kwargs = {name: getattr(obj, name) for name in plan[1]}
    kwargs.update(changes)
    return cls(**kwargs)


def _plan(obj: object) -> _Plan | None:
    """How to replace in ``obj``'s class: ``None`` unless it is a dataclass instance without ``InitVar``
    fields; its copier when :func:`_copier` can write one."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return None
    cls = type(obj)
    fields = dataclasses.fields(obj)
    if len(fields) != len(cls.__dataclass_fields__):
        return None  # an InitVar (or ClassVar) field: replace's own way
    names = tuple(f.name for f in fields if f.init)
    copier = _copier(cls, fields)
    if copier is None and len(names) != len(fields):
        return None  # fields __init__ does not take, and no copier: replace's own way
    return frozenset(names), names, copier


_Copier = Callable[[Any, dict[str, Any]], Any]


def _copier(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> _Copier | None:
    """The copier of a slotted dataclass whose ``__init__`` only stores its fields (see the module
    notes), checked on a trial copy; None for any other class."""
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or code.co_filename != "<string>" or hasattr(cls, "__post_init__"):
        return None  # not the generated __init__ of this very class, or more than storing fields
    params = getattr(cls, "__dataclass_params__", None)
    own_setattr: object = cls.__setattr__
    if not getattr(params, "frozen", False) and own_setattr is not object.__setattr__:
        return None  # a mutable class's __init__ stores through its own __setattr__
    slots = cls.__dict__.get("__slots__")
    if cls.__bases__ != (object,) or not isinstance(slots, tuple):
        return None  # the twin mirrors one slotted class straight on object
    if sorted(slots) != sorted(f.name for f in fields):
        return None
    for f in fields:
        if not f.init and (f.default is dataclasses.MISSING or f.default_factory is not dataclasses.MISSING):
            return None
    copy: _Copier = _written(cls, fields, slots, ())
    return copy if _works(cls, copy) else None


def _written(
    cls: type,
    fields: tuple[dataclasses.Field[Any], ...],
    slots: tuple[str, ...],
    named: tuple[str, ...],
    *,
    keep: bool = False,
) -> Any:
    """The copier's code for ``cls`` (a twin class with its very slots, plain stores, then the record's
    class): ``copy(r, changes)`` when ``named`` is empty, else ``copy(r, *values)`` storing each of
    ``named`` from its argument (:func:`replacer`). ``keep``: the fields ``__init__`` does not take are
    copied too, not started afresh (:func:`keeper`)."""
    twin = type(f"_{cls.__name__}Copy", (), {"__slots__": slots, "__module__": __name__})
    scope: dict[str, Any] = {"_new": object.__new__, "_Twin": twin, "_Class": cls, "_setattr": setattr}
    given = {name: f"v{i}" for i, name in enumerate(named)}
    params = ", ".join(["r", *given.values()]) if named else "r, changes"
    lines = [f"def copy({params}):", "    n = _new(_Twin)"]
    for f in fields:
        if f.name in given:
            lines.append(f"    n.{f.name} = {given[f.name]}")
        elif f.init or keep:
            lines.append(f"    n.{f.name} = r.{f.name}")
        else:
            scope[f"_default_{f.name}"] = f.default
            lines.append(f"    n.{f.name} = _default_{f.name}")
    if not named:
        lines += [
            "    if changes:",
            "        for name, value in changes.items():",
            "            _setattr(n, name, value)",
        ]
    lines += ["    n.__class__ = _Class", "    return n"]
    exec("\n".join(lines), scope)  # written here from the class's own field names
    return scope["copy"]


def replacer(cls: type[T], *names: str) -> Callable[..., T]:
    """``with_(obj, *values)``: ``replace(obj, **dict(zip(names, values)))`` for an instance of exactly
    ``cls``, written once for those fields (no keyword dictionary, no plan lookup: the hottest copies of
    a ruleset, such as popping a bout's agenda, take it). A class :func:`replace` copies its own way
    gets a function that calls it.

    >>> from kassen.core.explain import Step
    >>> with_value = replacer(Step, "value")
    >>> with_value(Step(1, "a", "R.1"), 2)
    Step(value=2, reason='a', rule='R.1')
    """
    if not dataclasses.is_dataclass(cls) or not isinstance(cls, type):
        raise TypeError(f"replacer takes a dataclass, not {cls!r}")
    fields = dataclasses.fields(cls)
    init = {f.name for f in fields if f.init}
    if not names or len(set(names)) != len(names) or not set(names) <= init:
        raise TypeError(f"replacer takes distinct __init__ fields of {cls.__name__}, not {names!r}")
    slots = cls.__dict__.get("__slots__")
    if _copier(cls, fields) is None or not isinstance(slots, tuple):

        def slow(obj: T, *values: Any) -> T:
            return replace(obj, **dict(zip(names, values, strict=True)))

        return slow
    fast: Callable[..., T] = _written(cls, fields, slots, names)
    return fast


def keeper(cls: type[T], *names: str) -> Callable[..., T]:
    """A copier of exactly ``cls`` that keeps the readings a record makes of itself (its fields
    ``__init__`` does not take, which :func:`replace` starts afresh): ``copy(obj, changes)`` with a dict
    of changes when no ``names`` are given, else ``copy(obj, *values)`` storing each of ``names``. The
    changes may name those readings too, to start them afresh (their default) or give them a value the
    caller knows still holds; nothing is checked (the caller's own fields, from its own code). For the
    hottest state copies, whose readings mostly survive a change (a battle's units by id while the units
    stay). TypeError for a class :func:`replace` does not copy with a twin (see the module notes)."""
    if not dataclasses.is_dataclass(cls) or not isinstance(cls, type):
        raise TypeError(f"keeper takes a dataclass, not {cls!r}")
    fields = dataclasses.fields(cls)
    slots = cls.__dict__.get("__slots__")
    every = {f.name for f in fields}
    if len(set(names)) != len(names) or not set(names) <= every:
        raise TypeError(f"keeper takes distinct fields of {cls.__name__}, not {names!r}")
    if _copier(cls, fields) is None or not isinstance(slots, tuple):
        raise TypeError(f"{cls.__name__} is not copied with a twin: keeper cannot keep its readings")
    copy: Callable[..., T] = _written(cls, fields, slots, names, keep=True)
    return copy


def _works(cls: type, copy: Callable[[Any, dict[str, Any]], Any]) -> bool:
    """Whether the twin's instances may become ``cls``'s (the interpreter refuses a layout that differs)."""
    try:
        probe = copy(_blank(cls), {})
    except TypeError:
        return False
    return type(probe) is cls


def _blank(cls: type) -> object:
    """An instance of ``cls`` with every slot set to None (only to try the copier on)."""
    blank: object = object.__new__(cls)
    for f in dataclasses.fields(cls):
        object.__setattr__(blank, f.name, None)
    return blank
