"""A small immutable record base for the dice types: value equality, hashing, a dataclass-style repr,
pickling, and no assignment after ``__init__``.

Why not ``dataclasses``: ``kassen roll`` and ``kassen odds`` must start in a few tens of milliseconds, and
importing :mod:`dataclasses` (which imports :mod:`inspect`) costs more than all of kassen.dice; the dice
package imports nothing from :mod:`typing` or :mod:`dataclasses` at run time for the same reason.
"""

from __future__ import annotations

__all__ = ["Record"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from typing import ClassVar


class Record:
    """Subclasses list their fields in ``__slots__`` order as ``__match_args__`` and set them in
    ``__init__`` with ``self._set(...)``."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _set(self, *values: object) -> None:
        for name, value in zip(self.__match_args__, values, strict=True):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The record's fields, in order (what ``dataclasses.fields`` listed)."""
        return cls.__match_args__

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of an immutable {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of an immutable {type(self).__name__}")

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        return type(self), self._values()
