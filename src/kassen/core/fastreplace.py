"""``replace(obj, **changes)``: :func:`dataclasses.replace`, cheaper on the hot paths of the rules.

States are frozen dataclasses updated by replacement many times per action; ``dataclasses.replace``
looks up and filters the class's fields on every call, which costs more than building the new object.
This one keeps, for each class, what it needs to build the copy, and builds the same object as
``dataclasses.replace`` (the same refusal of a field that ``__init__`` does not take):

- a slotted dataclass whose ``__init__`` is the one ``dataclasses`` generated and that has no
  ``__post_init__`` (its ``__init__`` does nothing but store each field): the copy is made by storing
  the old values and the changes straight into a new object's slots, read all at once with
  :func:`operator.attrgetter` — what that ``__init__`` would store, without calling it;
- any other plain dataclass: the class called with every field's value, the changes applied
  (``__init__`` and ``__post_init__`` run as in ``dataclasses.replace``).
"""

from __future__ import annotations

__all__ = ["replace"]

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from types import MemberDescriptorType
from typing import Any, TypeVar

T = TypeVar("T")


class _Plan:
    """How to copy instances of one class: its ``__init__`` field names and, when its instances may be
    copied slot by slot, the getter of all their values and each slot's setter."""

    __slots__ = ("fields", "names", "setters", "slot_setters", "values")

    def __init__(self, names: tuple[str, ...], slots: dict[str, Callable[[object, object], None]] | None):
        self.names = names
        self.fields = frozenset(names)
        self.setters = slots
        self.slot_setters = tuple(slots[name] for name in names) if slots is not None else ()
        getter = attrgetter(*names) if names else None
        if slots is None or getter is None:
            self.values: Callable[[object], tuple[object, ...]] | None = None
        elif len(names) == 1:
            self.values = lambda obj: (getter(obj),)
        else:
            self.values = getter


#: What to do for each dataclass replaced so far (one entry per class: bounded by the code).
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
    if plan is None or not plan.fields.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # its own error message
    values = plan.values
    if values is not None:
        setters = plan.setters
        assert setters is not None
        new = object.__new__(cls)
        for setter, value in zip(plan.slot_setters, values(obj), strict=True):
            setter(new, value)
        for name, value in changes.items():  # over the old value just stored
            setters[name](new, value)
        return new
    kwargs = {name: getattr(obj, name) for name in plan.names}
    kwargs.update(changes)
    return cls(**kwargs)


def _plan(obj: object) -> _Plan | None:
    """``None`` unless ``obj`` is a dataclass instance whose every field is an ``__init__`` field (no
    InitVar, no ClassVar, no ``init=False``): then calling the class with every field's value is what
    ``replace`` does; and its slots' setters when storing into the slots is what ``__init__`` does."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return None
    cls = type(obj)
    fields = dataclasses.fields(obj)
    if not all(f.init for f in fields) or len(fields) != len(cls.__dataclass_fields__):
        return None
    names = tuple(f.name for f in fields)
    return _Plan(names, _slot_setters(cls, names))


def _slot_setters(cls: type, names: tuple[str, ...]) -> dict[str, Callable[[object, object], None]] | None:
    """Each field's slot setter, when the class's ``__init__`` is dataclasses' own (it only stores the
    fields), there is no ``__post_init__`` and every field is a slot; else ``None``."""
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or code.co_filename != "<string>" or hasattr(cls, "__post_init__"):
        return None  # not the generated __init__ of this very class, or more than storing fields
    params = getattr(cls, "__dataclass_params__", None)
    own_setattr: object = cls.__setattr__
    if not getattr(params, "frozen", False) and own_setattr is not object.__setattr__:
        return None  # a mutable class's __init__ stores through its own __setattr__
    setters: dict[str, Callable[[object, object], None]] = {}
    for name in names:
        slot = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if not isinstance(slot, MemberDescriptorType):
            return None
        setters[name] = slot.__set__
    return setters
