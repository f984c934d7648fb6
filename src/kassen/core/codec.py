"""One codec for every ruleset's states, actions and chronicles: typed, strict, path-naming.

``Codec(tp)`` reads and writes values of the type ``tp`` (frozen dataclasses, unions, tuples, enums,
``Literal``, ``Fraction``, ``NewType`` ids, pydantic models) as plain JSON data, walking the type
annotations once and keeping the compiled reader and writer:

* a dataclass is an object of all its fields; reading refuses an unknown key and a missing field that
  has no default, each naming its path (``log[3].action.target: field required``);
* a union of several dataclasses is discriminated by ``"kind"``: the class's ``KIND`` (a ``ClassVar``)
  or its name in snake case (``GmSetWounds`` → ``gm_set_wounds``);
* integers are range-checked (``Annotated[int, Bounds(lo, hi)]``, else ``|n| < 2**64``: an RNG position
  fits), ``bool`` is never an integer, strings and lists have size limits, free JSON (``Any``) has a
  depth limit;
* nothing but :class:`FormatError` (a :class:`~kassen.core.errors.KassenError`) ever escapes a read:
  no bare ``TypeError``/``KeyError``/``ValueError``/``RecursionError``.

:func:`parse_json` turns untrusted text into JSON data under the same rules (size, depth, no ``NaN``).
The readers and writers of the compound kinds (enums, literals, tuples, mappings, models, dataclasses,
unions) are in :mod:`kassen.core.codec_kinds`; free JSON of a declared shape in :mod:`kassen.core.jsondata`.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Move:
...     unit: str
...     steps: int = 1
>>> Codec(Move).load({"unit": "kuro", "stesp": 2})
Traceback (most recent call last):
...
kassen.core.codec.FormatError: stesp: unknown field (fields: unit, steps); did you mean 'steps'?
"""

from __future__ import annotations

__all__ = ["MAX_DEPTH", "Bounds", "Codec", "FormatError", "kind_of", "parse_json"]

import contextlib
import dataclasses
import difflib
import json
import re
import reprlib
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any, Generic, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from kassen.core.errors import KassenError
from kassen.core.text import control_in
from kassen.i18n import N_, S_

T = TypeVar("T")

#: Integers outside ``(-2**64, 2**64)`` are refused unless a field says otherwise.
INT_BOUND = 1 << 64
#: Longest string and list read.
MAX_STRING = 1_000_000
MAX_ITEMS = 1_000_000
#: Deepest nesting of free JSON (and of any JSON text :func:`parse_json` reads).
MAX_DEPTH = 64
#: Largest JSON text :func:`parse_json` reads, in bytes.
MAX_JSON_BYTES = 64 * 1024 * 1024

_FRACTION = re.compile(r"-?[0-9]{1,40}(/[0-9]{1,40})?")

Reader = Callable[[Any, str], Any]
Writer = Callable[[Any], Any]


class FormatError(KassenError):
    """JSON that does not have the shape its type wants; ``path`` says where (``log[3].action``)."""

    code = "format"

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


@dataclasses.dataclass(frozen=True, slots=True)
class Bounds:
    """The inclusive range of an integer field: ``Annotated[int, Bounds(0, 100)]``."""

    lo: int
    hi: int


def kind_of(cls: type) -> str:
    """The ``kind`` a dataclass is written under in a union: its ``KIND``, else its snake-case name."""
    explicit = getattr(cls, "KIND", None)
    if isinstance(explicit, str):
        return explicit
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _at(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit integer"  # repr() of a huge int can itself fail
    # a bounded repr: a value nested thousands deep (an action object built by hand) or huge must not
    # fail or take long to name
    text = _SHOWN.repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 3
_SHOWN.maxstring = _SHOWN.maxother = 40


def _no_surrogates(text: str, path: str) -> None:
    """A lone surrogate (``"\\ud800"``) is valid JSON but not text: refuse it where it is read."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise FormatError(path, S_("a string holds an unpaired surrogate, which is not text")) from None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return N_("true/false")
    if isinstance(value, int):
        return N_("an integer")
    if isinstance(value, float):
        return N_("a number with a fraction")
    if isinstance(value, str):
        return N_("a string")
    if isinstance(value, list):
        return N_("a list")
    if isinstance(value, dict):
        return N_("an object")
    return type(value).__name__


def _wrong(path: str, wanted: str, got: Any) -> FormatError:
    return FormatError(
        path, S_("expected {wanted}, got {json_type}", wanted=wanted, json_type=_json_type(got))
    )


def _items(data: Any, path: str) -> list[Any]:
    """``data`` as a JSON list of at most :data:`MAX_ITEMS` values (a tuple's or a list's)."""
    if not isinstance(data, list):
        raise _wrong(path, N_("a list"), data)
    if len(data) > MAX_ITEMS:
        raise FormatError(
            path,
            S_("a list of {n_data} items is longer than {max_items}", n_data=len(data), max_items=MAX_ITEMS),
        )
    return data


# -- compiling ---------------------------------------------------------------------------------------
@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


def _union_args(tp: Any) -> tuple[Any, ...] | None:
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return get_args(tp)
    return None


def _is_dataclass(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


@cache
def _compile(tp: Any, tagged: bool = False) -> tuple[Reader, Writer]:
    """Reader and writer for ``tp``; ``tagged`` writes a dataclass with its ``kind`` (inside a union).
    The compound kinds are read and written by :mod:`kassen.core.codec_kinds` (which compiles their
    members here)."""
    from kassen.core.codec_kinds import _dataclass, _enum, _literal, _mapping, _model, _tuple, _union

    if tp is Any or tp is object:
        return _read_any, _write_any
    if tp is type(None):
        return _read_none, _identity
    if get_origin(tp) is typing.Annotated:
        base, *extras = get_args(tp)
        bounds = next((e for e in extras if isinstance(e, Bounds)), None)
        if base is int and bounds is not None:
            return _int_reader(bounds.lo, bounds.hi), _identity
        return _compile(base, tagged)
    supertype = getattr(tp, "__supertype__", None)  # NewType
    if supertype is not None:
        return _compile(supertype, tagged)
    members = _union_args(tp)
    if members is not None:
        return _union(members)
    origin = get_origin(tp)
    if origin is Literal:
        return _literal(get_args(tp))
    if origin is tuple:
        return _tuple(get_args(tp))
    if origin is list or typing.is_typeddict(tp):  # plain JSON of a declared shape (event data)
        from kassen.core.jsondata import list_codec, typed_dict_codec

        return list_codec((get_args(tp) or (Any,))[0]) if origin is list else typed_dict_codec(tp)
    if origin in (dict, Mapping, typing.Mapping):
        key, value = get_args(tp) or (str, Any)
        if key is not str:
            raise TypeError(f"only string-keyed mappings are JSON: {tp!r}")
        return _mapping(value)
    if isinstance(tp, type):
        if issubclass(tp, Enum):
            return _enum(tp)
        if tp is bool:
            return _read_bool, _identity
        if tp is int:
            return _int_reader(-INT_BOUND + 1, INT_BOUND - 1), _identity
        if tp is str:
            return _read_str, _identity
        if tp is Fraction:
            return _read_fraction, _write_fraction
        if issubclass(tp, BaseModel):
            return _model(tp)
        if dataclasses.is_dataclass(tp):
            return _dataclass(tp, tagged)
    raise TypeError(f"the codec cannot write {tp!r}")


@cache
def _immutable(tp: Any) -> bool:
    """Whether every value the codec reads as ``tp`` is immutable all the way down: frozen dataclasses,
    tuples, enums, literals, strings, numbers, None and unions of them (not mappings, pydantic models or
    free JSON, which a caller could change after the codec has read them)."""
    if tp is type(None):
        return True
    if get_origin(tp) is typing.Annotated:
        return _immutable(get_args(tp)[0])
    supertype = getattr(tp, "__supertype__", None)  # NewType
    if supertype is not None:
        return _immutable(supertype)
    members = _union_args(tp)
    if members is not None:
        return all(_immutable(m) for m in members)
    origin = get_origin(tp)
    if origin is Literal:
        return True
    if origin is tuple:
        return all(a is Ellipsis or _immutable(a) for a in get_args(tp))
    if isinstance(tp, type):
        if issubclass(tp, Enum | bool | int | str | Fraction):
            return True
        if dataclasses.is_dataclass(tp) and not issubclass(tp, BaseModel):
            params = getattr(tp, "__dataclass_params__", None)
            hints = _hints(tp)
            return bool(params is not None and params.frozen) and all(
                _immutable(hints[f.name]) for f in dataclasses.fields(tp)
            )
    return False


def _identity(value: Any) -> Any:
    return value


def _read_none(data: Any, path: str) -> None:
    if data is not None:
        raise _wrong(path, N_("null"), data)


def _read_bool(data: Any, path: str) -> bool:
    if not isinstance(data, bool):
        raise _wrong(path, N_("true or false"), data)
    return data


def _int_reader(lo: int, hi: int) -> Reader:
    def read(data: Any, path: str) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise _wrong(path, N_("an integer"), data)
        if not lo <= data <= hi:
            shown = str(data) if data.bit_length() <= 64 else f"a {data.bit_length()}-bit integer"
            raise FormatError(path, S_("{shown} is out of range ({lo}..{hi})", shown=shown, lo=lo, hi=hi))
        return data

    return read


def _read_str(data: Any, path: str) -> str:
    if not isinstance(data, str):
        raise _wrong(path, N_("a string"), data)
    if len(data) > MAX_STRING:
        raise FormatError(
            path,
            S_(
                "a string of {n_data} characters is longer than {max_string}",
                n_data=len(data),
                max_string=MAX_STRING,
            ),
        )
    _no_surrogates(data, path)
    return data


def _read_fraction(data: Any, path: str) -> Fraction:
    if isinstance(data, bool) or not isinstance(data, int | str):
        raise _wrong(path, 'a fraction such as "3/2"', data)
    text = str(data)
    if not _FRACTION.fullmatch(text):
        raise FormatError(path, S_('{show} is not a fraction such as "3/2"', show=_show(data)))
    try:
        return Fraction(text)
    except ZeroDivisionError:
        raise FormatError(path, S_("{show} divides by zero", show=_show(data))) from None


def _write_fraction(value: Fraction) -> str:
    return str(value)


def _read_any(data: Any, path: str) -> Any:
    _check_json(data, path, 0)
    return data


def _write_any(value: Any) -> Any:
    return value


def _check_json(data: Any, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise FormatError(path, S_("nested deeper than {max_depth} levels", max_depth=MAX_DEPTH))
    if isinstance(data, dict):
        for k, v in data.items():
            if not isinstance(k, str):
                raise FormatError(path, S_("object keys are strings"))
            _no_surrogates(k, path)
            _check_json(v, _at(path, k), depth + 1)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _check_json(v, _at(path, i), depth + 1)
    elif isinstance(data, float):
        if data != data or data in (float("inf"), float("-inf")):
            raise FormatError(path, S_("NaN and Infinity are not JSON numbers"))
    elif isinstance(data, bool | str | int) or data is None:
        if isinstance(data, int) and not isinstance(data, bool) and abs(data) >= INT_BOUND:
            raise FormatError(path, S_("an integer out of range"))
        if isinstance(data, str):
            _no_surrogates(data, path)
    else:
        raise FormatError(path, S_("{name} is not JSON", name=type(data).__name__))


def _not_one_of(given: Any, names: str, known: Iterable[Any]) -> str:
    """``'brath' is not one of begin, breath, hold; did you mean 'breath'?`` (the hint when one is close)."""
    close = _closest(given, known)
    if close is None:
        return S_("{value} is not one of {names}", value=_show(given), names=names)
    return S_(
        "{value} is not one of {names}; did you mean {near}?",
        value=_show(given),
        names=names,
        near=repr(close),
    )


def _closest(given: Any, known: Iterable[Any]) -> str | None:
    """The one of ``known`` that a string ``given`` is closest to (a typo of it), if any."""
    if not isinstance(given, str) or len(given) > 100:
        return None
    close = difflib.get_close_matches(given, [str(k) for k in known], n=1, cutoff=0.6)
    return close[0] if close else None


def _near(given: Any, known: Iterable[Any]) -> str:
    """``; did you mean 'attack'?`` when ``given`` is a string close to one of ``known``, else ``""``."""
    close = _closest(given, known)
    return "" if close is None else f"; did you mean {close!r}?"


class Codec(Generic[T]):
    """Reads and writes values of one type as JSON data (see the module notes).

    >>> from fractions import Fraction
    >>> c = Codec(tuple[int, Fraction])
    >>> c.dump((1, Fraction(1, 2)))
    [1, '1/2']
    >>> c.load([1, "1/2"])
    (1, Fraction(1, 2))
    """

    __slots__ = ("_by_value", "_immutable", "_read", "_reads_back", "_write", "tp")

    #: How many values :meth:`reads_back` remembers (emptied when full).
    KNOWN = 4096

    def __init__(self, tp: Any) -> None:
        self.tp = tp
        self._read, self._write = _compile(tp)
        self._immutable = _immutable(tp)
        # values known to read back as themselves, by identity (each kept alive with its entry, so its id
        # is never another object's while it is remembered)
        self._reads_back: dict[int, Any] = {}
        # round trips' results by value, each with its repr: an equal value of the same class whose repr
        # is the same too (so no ``True`` where the result has ``1``, no ``1.0``, no enum for its text)
        # writes the same JSON, so that result is what its own round trip would give
        self._by_value: dict[Any, tuple[Any, str]] = {}

    def dump(self, value: T) -> Any:
        """``value`` as JSON data (dicts, lists, strings, integers, booleans, None)."""
        return self._write(value)

    def load(self, data: Any, path: str = "") -> T:
        """The value ``data`` describes; :class:`FormatError` naming the path when it does not."""
        try:
            value: T = self._read(data, path)
        except FormatError:
            raise
        except RecursionError:
            raise FormatError(path, S_("nested too deeply")) from None
        return value

    def reads_back(self, value: Any) -> bool:
        """Whether ``value`` is known to read back as itself (:meth:`remember`): ``load(dump(value))``
        would give an equal value of its class, and every value of the type is immutable all the way
        down, so ``value`` may stand for that round trip's result."""
        return self._reads_back.get(id(value)) is value

    def knows(self, value: Any) -> bool:
        """Whether ``value`` is known to read back as itself without the round trip: it
        :meth:`reads_back`, or an earlier round trip's result (:meth:`remember`) is equal to it, of its
        class and with the same ``repr`` all the way down (an action built afresh with the same fields:
        a scenario's scripts in each fight it opens), and from now on it :meth:`reads_back` too.
        Anything unhashable, or not quite the same, is False: the caller makes the round trip, which
        judges it."""
        if self._reads_back.get(id(value)) is value:
            return True
        try:
            entry = self._by_value.get(value)
            if entry is None or type(entry[0]) is not type(value) or repr(value) != entry[1]:
                return False
        except Exception:  # a hostile or unhashable value: the round trip reports it
            return False
        self._keep(self._reads_back, id(value), value)
        return True

    def remember(self, value: Any, loaded: Any) -> None:
        """Note that ``load(dump(value))`` gave ``loaded``: when that is ``value`` again (equal, of the
        same class) and the type is immutable, :meth:`reads_back` answers yes for ``value`` from now on,
        and :meth:`knows` for a value just like it."""
        if not self._immutable or type(loaded) is not type(value) or loaded != value:
            return
        self._keep(self._reads_back, id(value), value)
        with contextlib.suppress(TypeError):  # unhashable after all: known by identity only
            self._keep(self._by_value, loaded, (loaded, repr(loaded)))

    def _keep(self, table: dict[Any, Any], key: Any, entry: Any) -> None:
        """``table[key] = entry``, the table emptied first when it holds :attr:`KNOWN` entries."""
        if len(table) >= self.KNOWN:
            table.clear()
        table[key] = entry


#: What Python's JSON parser says of a text it cannot read, as words of the catalog (so said in the
#: reader's language); a message not listed is shown as the parser gave it.
_JSON_SAYS = {
    "Expecting value": N_("a value was expected"),
    "Expecting property name enclosed in double quotes": N_("a key in double quotes was expected"),
    "Expecting ',' delimiter": N_("a comma was expected"),
    "Expecting ':' delimiter": N_("a colon was expected"),
    "Extra data": N_("more text after the end"),
    "Unterminated string starting at": N_("a string is not closed"),
    "Invalid control character at": N_("a control character inside a string"),
    "Invalid \\escape": N_("an escape that JSON does not have"),
}


def parse_json(text: str | bytes, *, what: str = "JSON", max_bytes: int = MAX_JSON_BYTES) -> Any:
    """Untrusted JSON text as data: at most ``max_bytes``, UTF-8, no ``NaN``/``Infinity``, no key given
    twice in one object, no unpaired surrogate, not nested past what the parser allows. Anything else is
    one :class:`FormatError` naming ``what``. (Free JSON read through a :class:`Codec` is also held to
    :data:`MAX_DEPTH`.)"""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise FormatError(
            "",
            S_(
                "{what} is {size} bytes, more than the limit of {max_bytes}",
                what=what,
                size=size,
                max_bytes=max_bytes,
            ),
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FormatError(
                "", S_("{what} is not UTF-8 (byte {start})", what=what, start=exc.start)
            ) from None

    def refuse(name: str) -> Any:
        raise FormatError("", S_("{what} contains {name}, which is not a JSON number", what=what, name=name))

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise FormatError(
                    "", S_("{what} gives the key {show} twice in one object", what=what, show=_show(key))
                )
            out[key] = value
        return out

    try:
        data = json.loads(text, parse_constant=refuse, object_pairs_hook=unique)
    except FormatError:
        raise
    except json.JSONDecodeError as exc:
        where = S_("line {line} column {column}", line=exc.lineno, column=exc.colno)
        msg = _JSON_SAYS.get(exc.msg, exc.msg)  # the parser's words, in the catalog where it has them
        raise FormatError(
            "", S_("{what} is not valid JSON: {msg} at {where}", what=what, msg=msg, where=where)
        ) from None
    except RecursionError:
        raise FormatError("", S_("{what} is nested too deeply", what=what)) from None
    except ValueError:  # the only one json raises past the above: an integer of thousands of digits
        raise FormatError(
            "", S_("{what} holds an integer too long to read (over 4,300 digits)", what=what)
        ) from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise FormatError(
            "", S_("{what} holds an unpaired surrogate (\\ud800...), which is not text", what=what)
        ) from None
    # A control character is written "\u00XX" in JSON text (never raw: the parser refuses them), so only
    # a text with such an escape is walked (kassen.core.text says why none is kept).
    if _ESCAPED_CONTROL.search(text):
        found = _control_in(data)
        if found is not None:
            raise FormatError(
                "",
                S_(
                    "{what} holds the control character {char}, which is not allowed in text",
                    what=what,
                    char=found,
                ),
            )
    return data


#: A JSON escape that may stand for a control character (checked on the parsed strings).
_ESCAPED_CONTROL = re.compile(r"\\u00[0-9a-fA-F]{2}")


def _control_in(data: Any) -> str | None:
    """The first control character of a string anywhere in ``data`` (parsed JSON: keys too)."""
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            found = control_in(item)
            if found is not None:
                return found
        elif isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return None
