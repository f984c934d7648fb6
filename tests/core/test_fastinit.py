"""``@fast_init`` builds the very records the generated ``__init__`` builds, refuses the same calls with
the same messages, and leaves the classes it cannot speed up alone."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest

from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace


def _pair(**kw: Any) -> tuple[type, type]:
    """The same frozen slotted record twice, the second with ``@fast_init``."""

    def make() -> type:
        @dataclass(frozen=True, slots=True, **kw)
        class Rec:
            a: int
            b: str = "b"
            c: tuple[int, ...] = field(default_factory=tuple)
            d: list[int] = field(default_factory=list)
            e: int = field(default=7, init=False)
            f: list[int] = field(default_factory=lambda: [1], init=False)
            g: int = field(default=0, kw_only=True)
            h: str = field(kw_only=True, default="h")

        return Rec

    return make(), fast_init(make())


PLAIN, FAST = _pair()
CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, "x"), {}),
    ((1, "x", (2, 3)), {}),
    ((1, "x", (2,), [4]), {}),
    ((), {"a": 1, "c": (5,), "g": 3}),
    ((1,), {"h": "z", "g": -1, "b": "q"}),
]
BAD: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}),  # a missing
    ((1, "x", (), [], 9), {}),  # too many positionally (g is keyword-only)
    ((1,), {"e": 2}),  # not an __init__ field
    ((1,), {"zz": 2}),  # unknown
    ((1,), {"a": 2}),  # twice
]


def _fields(obj: object) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]


def test_the_records_are_the_same() -> None:
    assert FAST.__init__ is not PLAIN.__init__
    assert FAST.__init__.__qualname__ == "_pair.<locals>.make.<locals>.Rec.__init__"
    for args, kw in CALLS:
        assert _fields(FAST(*args, **kw)) == _fields(PLAIN(*args, **kw))
    # a default factory is called afresh for each record, as the generated __init__ does
    x, y = FAST(1), FAST(1)
    assert x.d == [] and x.d is not y.d and x.f == [1] and x.f is not y.f


def test_the_refusals_are_the_same() -> None:
    for args, kw in BAD:
        with pytest.raises(TypeError) as plain:
            PLAIN(*args, **kw)
        with pytest.raises(TypeError) as fast:
            FAST(*args, **kw)
        assert str(fast.value) == str(plain.value)


def test_the_signature_and_frozenness_stay() -> None:
    def shape(cls: type) -> list[tuple[str, Any, bool]]:
        return [
            (p.name, p.kind, p.default is inspect.Parameter.empty)
            for p in inspect.signature(cls.__init__).parameters.values()  # type: ignore[misc]
        ]

    assert shape(FAST) == shape(PLAIN)
    rec = FAST(1)
    with pytest.raises(FrozenInstanceError):
        rec.a = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del rec.a  # type: ignore[misc]
    # replace (both the fast one and dataclasses') build the same record
    assert _fields(replace(rec, b="r")) == _fields(dataclasses.replace(PLAIN(1), b="r"))
    assert FAST(1) == FAST(1) and FAST(1) != FAST(2)


def test_a_field_without_default_outside_init_stays_unset() -> None:
    @fast_init
    @dataclass(frozen=True, slots=True)
    class Later:
        a: int
        memo: int = field(init=False)

    rec = Later(3)
    assert rec.a == 3
    with pytest.raises(AttributeError):
        _ = rec.memo


def test_other_classes_are_left_alone() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(slots=True)
    class Mutable:
        a: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("negative")

    class Plain:
        def __init__(self, a: int) -> None:
            self.a = a

    for cls in (NoSlots, Mutable, Checked, Plain):
        before = cls.__dict__["__init__"]
        assert fast_init(cls) is cls and cls.__dict__["__init__"] is before
    with pytest.raises(ValueError, match="negative"):
        Checked(-1)


def test_the_bundled_records_use_it() -> None:
    # the hot records of the rules are built by it (the point of the decorator)
    assert Step.__init__.__qualname__ == "Step.__init__"
    assert Step(1, "a") == Step(1, "a", "")
