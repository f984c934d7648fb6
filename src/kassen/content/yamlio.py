"""Load YAML into pydantic models; report every problem with file, line and field, load nothing on error.

Principle 11 of DESIGN.md: a typo never becomes a silent wrong answer. Models derive from
:class:`StrictModel` (unknown keys are errors, models are frozen). Line numbers come from the YAML node
tree, so an error on ``armor.heavy.defense`` points at the line where that value is written.
"""

from __future__ import annotations

__all__ = [
    "MAX_NUMBER",
    "HouseDefault",
    "StrictModel",
    "duplicate_keys",
    "line_of",
    "load_model",
    "load_package_model",
    "load_text",
    "parse_yaml",
    "read_text",
    "refuse_too_many",
    "require_every",
    "validation_issues",
]

import difflib
from collections.abc import Iterable, Mapping
from enum import Enum
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Self, TypeVar, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, ValidatorFunctionWrapHandler, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from kassen.core.errors import ContentError, ContentIssue
from kassen.core.text import control_in
from kassen.i18n import N_, S_

M = TypeVar("M", bound=BaseModel)


#: The largest number (in size) a content or scenario file may give where its field sets no range of its
#: own: beyond any table's needs, and small enough that no rule's arithmetic on it can run away.
MAX_NUMBER = 1_000_000_000

_EXTRA = S_("unknown field (not in the format)")


class StrictModel(BaseModel):
    """Base for content models: unknown keys are errors (with the nearest known key as a suggestion),
    loaded content is immutable, a number is never read from true/false (YAML reads ``yes``, ``no``,
    ``on``, ``off`` as booleans, which pydantic would otherwise turn into 1 and 0 without a word), and a
    number whose field sets no upper bound is within ±:data:`MAX_NUMBER` (``skill: 1000000000000`` is a
    typo, not a character)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __copy__(self) -> Self:
        # A copy (``model_copy``, ``copy.copy``) is new tables, perhaps with other values: it starts
        # without what this object worked out and remembers of itself (its ``cached_property`` values,
        # kept beside the fields: the memos of the rules' readings, a lookup table).
        copied = super().__copy__()
        _forget_readings(copied)
        return copied

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        copied = super().__deepcopy__(memo)
        _forget_readings(copied)
        return copied

    @model_validator(mode="before")
    @classmethod
    def _no_booleans_for_numbers(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in _number_fields(cls):
                value = data.get(key)
                if isinstance(value, bool):
                    raise ValueError(
                        S_(
                            "{key}: expected a number, got {value} (in YAML, yes/no/on/off are true/false)",
                            key=key,
                            value=str(value).lower(),
                        )
                    )
            for key in _unbounded_fields(cls):
                for where, value in _numbers_in(data.get(key), key):
                    if abs(value) > MAX_NUMBER:
                        raise ValueError(f"{where}: {value} is out of range (at most ±{MAX_NUMBER:,})")
        return data

    @model_validator(mode="wrap")
    @classmethod
    def _suggest_known_keys(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(data)
        except ValidationError as exc:
            raise _with_suggestions(cls, exc, data) from None


def _forget_readings(model: BaseModel) -> None:
    """Drop what ``model`` remembers of itself beside its fields (see ``StrictModel.__copy__``)."""
    fields = type(model).model_fields
    for name in [k for k in model.__dict__ if k not in fields]:
        del model.__dict__[name]


def _spurious_too_short(error: Any, errors: list[Any], data: Any) -> bool:
    """A list "too short after validation" only because some of its items have errors of their own
    (two fighters written, one misspelt): that item's error says it all."""
    if error["type"] != "too_short" or len(error["loc"]) != 1 or not isinstance(data, dict):
        return False
    key = error["loc"][0]
    given = data.get(key)
    wanted = (error.get("ctx") or {}).get("min_length", 0)
    item_errors = any(len(e["loc"]) > 1 and e["loc"][0] == key for e in errors)
    return isinstance(given, list | tuple) and len(given) >= wanted and item_errors


def _with_suggestions(model: type[BaseModel], exc: ValidationError, data: Any = None) -> ValidationError:
    """``exc`` with each unknown key of ``model`` itself (not of a nested model: that one suggested its
    own) saying which known key it is closest to: ``skil: unknown field ...; did you mean 'skill'?``;
    and without a list's "too short" that only its items' own errors caused."""
    errors = exc.errors()
    spurious = [e for e in errors if _spurious_too_short(e, errors, data)]
    if (
        not spurious
        and not any(e["type"] == "extra_forbidden" and e["msg"] != _EXTRA for e in errors)
        and not any(e["type"] == "extra_forbidden" and len(e["loc"]) == 1 for e in errors)
    ):
        return exc
    errors = [e for e in errors if not any(e is x for x in spurious)]
    names = [info.alias or name for name, info in model.model_fields.items()]
    details: list[InitErrorDetails] = []
    try:
        for e in errors:
            if e["type"] == "extra_forbidden":
                message = e["msg"] if e["msg"].startswith(_EXTRA) else _EXTRA
                if len(e["loc"]) == 1 and message == _EXTRA:
                    close = difflib.get_close_matches(str(e["loc"][0]), names, n=1, cutoff=0.6)
                    message = (
                        S_("{message}; did you mean {close}?", message=message, close=repr(close[0]))
                        if close
                        else S_("{message}; known: {names}", message=message, names=", ".join(names))
                    )
                details.append(
                    {
                        "type": PydanticCustomError("extra_forbidden", message),
                        "loc": e["loc"],
                        "input": e["input"],
                    }
                )
            else:
                detail: InitErrorDetails = {"type": e["type"], "loc": e["loc"], "input": e["input"]}
                if "ctx" in e:
                    detail["ctx"] = e["ctx"]
                details.append(detail)
        return ValidationError.from_exception_data(exc.title, details)
    except (KeyError, TypeError, ValueError):  # an error pydantic cannot rebuild: keep it as it was
        return exc


def _numbers_in(value: Any, where: str) -> Iterable[tuple[str, int | float]]:
    """Every number in ``value``: itself, or the values of a mapping or list of numbers (``skills``)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, int | float) and not isinstance(v, bool):
                yield f"{where}.{k}", v
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            if isinstance(v, int | float) and not isinstance(v, bool):
                yield f"{where}.{i}", v


def _has_upper(metadata: Iterable[Any]) -> bool:
    """Whether pydantic metadata (``Field(le=...)``, ``Le(...)``) sets an upper bound."""
    for m in metadata:
        if getattr(m, "le", None) is not None or getattr(m, "lt", None) is not None:
            return True
        if _has_upper(getattr(m, "metadata", ())):
            return True
    return False


def _inner_bounded(tp: Any) -> bool:
    """Whether the numbers of a mapping or list type carry their own upper bound
    (``dict[str, Annotated[int, Field(le=10)]]``)."""
    for arg in get_args(tp):
        if get_origin(arg) is Annotated and _has_upper(get_args(arg)[1:]):
            return True
        if _inner_bounded(arg):
            return True
    return False


@cache
def _unbounded_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The keys of ``model``'s fields that hold numbers (alone, or in a mapping or list) with no upper
    bound of their own (``Field(le=...)``); a field named ``seed`` is bounded by the seed rule instead."""
    out = []
    for name, info in model.model_fields.items():
        if name == "seed" or _has_upper(info.metadata) or _inner_bounded(info.annotation):
            continue
        kinds = [a for a in _flat(info.annotation) if a is not type(None)]
        numeric = False
        for kind in kinds:
            origin = get_origin(kind)
            args = [a for a in get_args(kind) if a is not Ellipsis]
            if origin is dict:
                args = args[1:]  # the values (a mapping's keys are names)
            inner = [x for a in args for x in _flat(a)]
            # a number alone, or among what a mapping or list holds (``armor: {torso: 3, skull: {...}}``)
            held = any(x in (int, float) for x in inner)
            if kind in (int, float) or (origin in (dict, list, tuple) and held):
                numeric = True
        if numeric:
            out.append(info.alias or name)
    return tuple(out)


@cache
def _number_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The keys of ``model``'s fields that take only numbers (int, float, Fraction, optional or not)."""
    out = []
    for name, info in model.model_fields.items():
        kinds = [a for a in _flat(info.annotation) if a is not type(None)]
        if kinds and all(k in (int, float, Fraction) for k in kinds):
            out.append(info.alias or name)
    return tuple(out)


def _flat(tp: Any) -> list[Any]:
    origin = get_origin(tp)
    if origin is Annotated:
        return _flat(get_args(tp)[0])
    if origin in (Union, UnionType):
        return [x for a in get_args(tp) for x in _flat(a)]
    return [tp]


class HouseDefault(StrictModel):
    """Marks a value kassen supplies where the seed has a gap (GAP) or a reading to choose (RD).

    ``rule`` is the ledger ID, ``rationale`` says why this value; both are shown by the docs and CLI.
    """

    rule: str
    rationale: str


#: Limits on every YAML text kassen reads (content layers, scenarios): bytes, nesting, and nodes once
#: aliases are expanded (a "billion laughs" file of nested aliases is refused at once, not expanded).
MAX_YAML_BYTES = 4 * 1024 * 1024
MAX_YAML_DEPTH = 64
MAX_YAML_NODES = 200_000
#: The longest text one value may hold: a name or a description (the longest bundled one is under 2,000
#: characters). A unit named by 100,000 characters was read, and every account printed it at each line.
MAX_YAML_SCALAR = 10_000
#: libyaml's loader when PyYAML has it (7x faster: a 3,000-unit scenario is refused in a fraction of a
#: second), else PyYAML's own; both build the same nodes, so the checks below are the same.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_text(text: str, model: type[M], file: str) -> M:
    """Parse YAML ``text`` (named ``file`` in errors) into ``model``."""
    data, node = parse_yaml(text, file)
    if data is None:
        data = {}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(validation_issues(exc, file, node)) from None


def read_text(path: str | Path, *, max_bytes: int = MAX_YAML_BYTES) -> str:
    """The UTF-8 text of the file at ``path``; anything that stops it (no such file, a name too long,
    a directory, too big, not UTF-8) is one :class:`ContentError` naming the file."""
    p = Path(path)
    name = str(p) if len(str(p)) <= 120 else str(p)[:117] + "..."
    try:
        with p.open("rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise ContentError(
            ContentIssue(name, "(file)", S_("cannot read: {value}", value=exc.strerror or exc))
        ) from None
    except ValueError as exc:  # a NUL byte in the name, say
        raise ContentError(ContentIssue(name, "(file)", S_("cannot read: {exc}", exc=exc))) from None
    if len(raw) > max_bytes:
        raise ContentError(
            ContentIssue(
                name, "(file)", S_("larger than the limit of {max_bytes} bytes", max_bytes=max_bytes)
            )
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(
            ContentIssue(name, "(file)", S_("not UTF-8 text (byte {start})", start=exc.start))
        ) from None


def load_model(path: str | Path, model: type[M]) -> M:
    """Load one YAML file from disk into ``model``."""
    return load_text(read_text(path), model, str(path))


def load_package_model(package: str, name: str, model: type[M]) -> M:
    """Load a YAML file bundled inside a package (``kassen.sengoku.data``, ``defense.yaml``)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return load_text(text, model, f"{package.replace('.', '/')}/{name}")


def parse_yaml(text: str, file: str) -> tuple[Any, Any]:
    """Parse YAML ``text`` into ``(data, node)``: plain data and its node tree (for line numbers).

    Parsed once. Invalid YAML, text over :data:`MAX_YAML_BYTES`, nesting past :data:`MAX_YAML_DEPTH`,
    more than :data:`MAX_YAML_NODES` nodes once aliases are expanded, an alias that contains itself, an
    unpaired surrogate, an integer too long to read, and
    keys given twice in one mapping (which a YAML parser otherwise lets the last one win, silently) raise
    :class:`ContentError`, every duplicate at once.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_YAML_BYTES:
        raise ContentError(
            ContentIssue(
                file,
                "(file)",
                S_(
                    "{size} bytes is larger than the limit of {max_yaml_bytes}",
                    size=size,
                    max_yaml_bytes=MAX_YAML_BYTES,
                ),
            )
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        at = text.count("\n", 0, exc.start) + 1
        raise ContentError(
            ContentIssue(file, "(yaml)", S_("an unpaired surrogate (\\ud800...) is not text"), at)
        ) from None
    _check_events(text, file)
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        raise _invalid(exc, file) from None
    except RecursionError:
        raise ContentError(ContentIssue(file, "(yaml)", S_("nested too deeply"))) from None
    except ValueError:  # an integer of thousands of digits (Python reads none over 4,300)
        raise ContentError(
            ContentIssue(file, "(yaml)", S_("an integer too long to read (over 4,300 digits)"))
        ) from None
    finally:
        loader.dispose()
    issues = duplicate_keys(node, file)
    if issues:
        raise ContentError(issues)
    return data, node


def _invalid(exc: yaml.YAMLError, file: str) -> ContentError:
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or str(exc)
    return ContentError(ContentIssue(file, "(yaml)", S_("invalid YAML: {problem}", problem=problem), line))


def _shape(file: str, message: str, line: int | None = None) -> ContentError:
    return ContentError(ContentIssue(file, "(yaml)", message, line))


def _check_events(text: str, file: str) -> None:
    """Refuse, before any node is built, a text that nests too deeply, holds more than
    :data:`MAX_YAML_NODES` values once its aliases are expanded, has an alias that contains itself or an
    unpaired surrogate. It reads the parser's events only (a tenth of what building the nodes costs)
    and stops at the first value over the limit, so a file of 200,000 keys is refused in a fraction of
    a second instead of being built whole first."""
    loader = _LOADER(text)
    count = 0
    # One frame per open collection: its anchor (or None) and the count when it opened.
    open_: list[tuple[str | None, int]] = []
    sizes: dict[str, int] = {}  # the values each anchor stands for, aliases within it expanded
    try:
        while loader.check_event():
            event = loader.get_event()
            kind = type(event)
            line = event.start_mark.line + 1 if event.start_mark is not None else None
            if kind is yaml.ScalarEvent:
                count += 1
                value = event.value
                if not value.isascii():
                    try:
                        value.encode("utf-8")
                    except UnicodeEncodeError:
                        raise _shape(
                            file, S_("an unpaired surrogate (\\ud800...) is not text"), line
                        ) from None
                if len(value) > MAX_YAML_SCALAR:
                    raise _shape(
                        file,
                        S_(
                            "a text of {size} characters is longer than the limit of {limit}",
                            size=f"{len(value):,}",
                            limit=f"{MAX_YAML_SCALAR:,}",
                        ),
                        line,
                    )
                found = control_in(value)  # written "\e", "\0", "\x1b"... in a double-quoted scalar
                if found is not None:
                    raise _shape(
                        file, S_("the control character {char} is not allowed in text", char=found), line
                    )
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                count += 1
                open_.append((event.anchor, count))
                if len(open_) >= MAX_YAML_DEPTH:
                    raise _shape(file, S_("nested deeper than {depth}", depth=MAX_YAML_DEPTH), line)
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                anchor, opened = open_.pop()
                if anchor is not None:
                    sizes[anchor] = count - opened + 1
            elif kind is yaml.AliasEvent:
                if any(a == event.anchor for a, _ in open_):
                    raise _shape(file, S_("an alias that contains itself"), line)
                count += sizes.get(event.anchor, 1)
            if count > MAX_YAML_NODES:
                raise _shape(
                    file,
                    S_(
                        "more than {count} values (counted once aliases are expanded)",
                        count=f"{MAX_YAML_NODES:,}",
                    ),
                )
    except yaml.YAMLError as exc:
        raise _invalid(exc, file) from None
    finally:
        loader.dispose()


def duplicate_keys(node: Any, file: str, path: tuple[str, ...] = ()) -> list[ContentIssue]:
    """Every key given twice in the same YAML mapping, each naming the line of both."""
    issues: list[ContentIssue] = []
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for k, v in node.value:
            key = str(k.value)
            if key in seen and key != "<<":
                where = ".".join((*path, key))
                issues.append(
                    ContentIssue(
                        file,
                        where,
                        S_("key {key} given twice (first at line {seen})", key=repr(key), seen=seen[key]),
                        k.start_mark.line + 1,
                    )
                )
            seen.setdefault(key, k.start_mark.line + 1)
            issues += duplicate_keys(v, file, (*path, key))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            issues += duplicate_keys(item, file, (*path, str(i)))
    return issues


def validation_issues(
    exc: ValidationError | Iterable[Mapping[str, Any]],
    file: str,
    node: Any,
    *,
    prefix: tuple[Any, ...] = (),
    label: str | None = None,
) -> list[ContentIssue]:
    """One :class:`ContentIssue` per pydantic error (a ``ValidationError``, or its ``errors()`` edited).
    ``prefix`` is where the validated value sits in the file's node tree (for the line); ``label``
    replaces that prefix in the field's name (``maneuvers.thrust`` reads better than ``maneuvers.3``)."""
    errors = exc.errors() if isinstance(exc, ValidationError) else exc
    head = label if label is not None else ".".join(str(p) for p in prefix)
    issues = []
    for err in errors:
        loc = tuple(err["loc"])
        tail = ".".join(str(p) for p in loc)
        field = ".".join(x for x in (head, tail) if x) or "(root)"
        issues.append(ContentIssue(file, field, _message(err), line_of(node, (*prefix, *loc))))
    return issues


#: Pydantic's own messages as content checks show them (pydantic words them in English; these templates let
#: :func:`kassen.i18n.translate_text` give them in the reader's language).
PYDANTIC_MESSAGES = (
    N_("Input should be a valid integer"),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid integer, got a number with a fractional part"),
    N_("Input should be a valid number"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be a finite number"),
    N_("Input should be a valid string"),
    N_("Input should be a valid boolean"),
    N_("Input should be a valid boolean, unable to interpret input"),
    N_("Input should be a valid dictionary"),
    N_("Input should be a valid list"),
    N_("Input should be a valid tuple"),
    N_("Input should be a valid dictionary or instance of {class_name}"),
    N_("Input should be greater than {gt}"),
    N_("Input should be greater than or equal to {ge}"),
    N_("Input should be less than {lt}"),
    N_("Input should be less than or equal to {le}"),
    N_("Input should be {expected}"),
    N_("Input should be None"),
    N_("Keys should be strings"),
    N_("String should have at least {min_length} characters"),
    N_("String should have at least {min_length} character"),
    N_("String should have at most {max_length} characters"),
    N_("String should have at most {max_length} character"),
    N_("String should match pattern {pattern}"),
    N_("List should have at least {min_length} items after validation, not {actual_length}"),
    N_("List should have at least {min_length} item after validation, not {actual_length}"),
    N_("List should have at most {max_length} items after validation, not {actual_length}"),
    N_("List should have at most {max_length} item after validation, not {actual_length}"),
    N_("Dictionary should have at least {min_length} items after validation, not {actual_length}"),
    N_("Dictionary should have at most {max_length} items after validation, not {actual_length}"),
    N_("Value should have at least {min_length} items after validation, not {actual_length}"),
    N_("Value should have at most {max_length} items after validation, not {actual_length}"),
    N_("Tuple should have at least {min_length} items after validation, not {actual_length}"),
    N_("Tuple should have at least {min_length} item after validation, not {actual_length}"),
    N_("Tuple should have at most {max_length} items after validation, not {actual_length}"),
    N_("Tuple should have at most {max_length} item after validation, not {actual_length}"),
    N_("Set should have at least {min_length} items after validation, not {actual_length}"),
    N_("Set should have at most {max_length} items after validation, not {actual_length}"),
)


def _message(err: Any) -> str:
    """Pydantic's message, with the value it refused when that helps (a wrong type, an unknown choice);
    a validator's own message without pydantic's "Value error, " in front of it."""
    msg = str(err["msg"])
    if err.get("type") == "value_error":
        msg = msg.removeprefix("Value error, ")
    ctx = err.get("ctx") or {}
    if err.get("type") == "union_tag_invalid":
        name = str(ctx.get("discriminator", "tag")).strip("'")
        return S_(
            "unknown {name} {tag}; expected one of {expected}",
            name=name,
            tag=repr(ctx.get("tag")),
            expected=ctx.get("expected_tags"),
        )
    if err.get("type") == "missing":
        return S_("required field is missing")
    if err.get("type") == "extra_forbidden":
        return msg if msg.startswith(_EXTRA) else _EXTRA
    value = err.get("input")
    if isinstance(value, str | int | float | bool) and not isinstance(value, dict):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        return S_("{message}, got {value}", message=msg, value=shown)
    return msg


def line_of(node: Any, loc: tuple[Any, ...]) -> int | None:
    """1-based line of the YAML node at ``loc`` (a path of keys and indexes), or of its nearest parent."""
    return _line_of(node, loc)


def _line_of(node: Any, loc: tuple[Any, ...]) -> int | None:
    """1-based line of the YAML node at ``loc`` (pydantic's error location), or of its nearest parent."""
    line = node.start_mark.line + 1 if node is not None else None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == str(key):
                    node = v
                    line = k.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def refuse_too_many(data: Any, key: str, limit: int, what: str) -> None:
    """Refuse a scenario whose list ``key`` has more than ``limit`` items before any of them is validated
    (3,000 units are refused at once, not read one by one first): ``ValueError`` naming the limit."""
    if isinstance(data, dict):
        items = data.get(key)
        if isinstance(items, list) and len(items) > limit:
            raise ValueError(
                S_(
                    "{n} {key}; {what} fields at most {limit} (its ruleset's max_units)",
                    n=len(items),
                    key=key,
                    what=what,
                    limit=limit,
                )
            )


def require_every(keys: Iterable[Enum], table: Mapping[Any, Any], what: str) -> None:
    """A table keyed by an enum must have a row for every member; raises ``ValueError`` (which the
    loader reports with file, line and field) naming the missing ones: ``missing grades: lord, pc``."""
    missing = [str(k.value) for k in keys if k not in table]
    if missing:
        raise ValueError(f"missing {what}: {', '.join(missing)}")
