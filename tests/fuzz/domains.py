"""Every number of a ruleset's scenario and content models, with the range it may take: found by
walking the pydantic models (nested models, mappings, lists, optional fields), so that the tests can
check that each has both bounds and can set scenario values to them."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel

#: A step of a path: a field name, ``[]`` (any item of a list) or ``*`` (any value of a mapping).
Path = tuple[str, ...]


@dataclass(frozen=True)
class Number:
    """A number a model holds at ``path``, and the range its field gives (None: no bound that side)."""

    path: Path
    lo: int | Fraction | None
    hi: int | Fraction | None
    kind: type

    @property
    def text(self) -> str:
        return ".".join(self.path).replace(".[]", "[]")


def _bounds(metadata: typing.Iterable[Any]) -> tuple[Any, Any]:
    lo = hi = None
    for m in metadata:
        for name in ("ge", "gt"):
            if getattr(m, name, None) is not None:
                lo = getattr(m, name)
        for name in ("le", "lt"):
            if getattr(m, name, None) is not None:
                hi = getattr(m, name)
        inner = getattr(m, "metadata", None)
        if inner:
            ilo, ihi = _bounds(inner)
            lo = ilo if ilo is not None else lo
            hi = ihi if ihi is not None else hi
    return lo, hi


def _numbers(tp: Any, metadata: list[Any], path: Path, seen: set[type]) -> Iterator[Number]:
    origin = get_origin(tp)
    if origin is Annotated:
        inner, *extra = get_args(tp)
        yield from _numbers(inner, [*metadata, *extra], path, seen)
    elif origin in (Union, types.UnionType):
        for arg in get_args(tp):
            if arg is not type(None):
                yield from _numbers(arg, metadata, path, seen)
    elif origin in (dict, typing.Mapping) or getattr(origin, "__name__", "") == "Mapping":
        yield from _numbers(get_args(tp)[1], [], (*path, "*"), seen)
    elif origin in (list, tuple, set, frozenset) or getattr(origin, "__name__", "") == "Sequence":
        for arg in get_args(tp):
            if arg is not Ellipsis:
                yield from _numbers(arg, [], (*path, "[]"), seen)
    elif isinstance(tp, type) and issubclass(tp, BaseModel):
        yield from numbers(tp, path, seen)
    elif tp in (int, float, Fraction):
        lo, hi = _bounds(metadata)
        yield Number(path, lo, hi, tp)


def numbers(model: type[BaseModel], path: Path = (), seen: set[type] | None = None) -> Iterator[Number]:
    """Every number ``model`` holds (each nested model walked once)."""
    seen = set() if seen is None else seen
    if model in seen:
        return
    seen.add(model)
    for name, info in model.model_fields.items():
        yield from _numbers(info.annotation, list(info.metadata), (*path, info.alias or name), seen)


def content_models() -> dict[str, type[BaseModel]]:
    """The models of every content section of the three rulesets (a scenario's ``content:`` block
    writes them too)."""
    import kassen.sengoku.catalog as catalog
    import kassen.sengoku.house as house
    from kassen.arena.rules import ArenaRules
    from kassen.l5r.tables import L5Tables

    out: dict[str, type[BaseModel]] = {"arena": ArenaRules, "l5r": L5Tables}
    for name, (_, model) in catalog.SECTIONS.items():
        out[f"sengoku {name}"] = model
    for name, model in catalog.TABLES.items():
        out[f"sengoku {name}"] = model
    for model in vars(house).values():
        flow = isinstance(model, type) and issubclass(model, house.FlowDefault)
        if flow and model is not house.FlowDefault:
            out[f"sengoku house {model.__name__}"] = model
    return out
