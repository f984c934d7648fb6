"""Load YAML into pydantic models; report every problem with file, line and field, load nothing on error.

Principle 11 of DESIGN.md: a typo never becomes a silent wrong answer. Models derive from
:class:`StrictModel` (unknown keys are errors, models are frozen). Line numbers come from the YAML node
tree, so an error on ``armor.heavy.defense`` points at the line where that value is written.
"""

from __future__ import annotations

__all__ = [
    "HouseDefault",
    "StrictModel",
    "duplicate_keys",
    "line_of",
    "load_model",
    "load_package_model",
    "load_text",
    "parse_yaml",
    "read_text",
    "require_every",
    "validation_issues",
]

from collections.abc import Iterable, Mapping
from enum import Enum
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from kassen.core.errors import ContentError, ContentIssue

M = TypeVar("M", bound=BaseModel)


class StrictModel(BaseModel):
    """Base for content models: unknown keys are errors, loaded content is immutable, and a number is
    never read from true/false (YAML reads ``yes``, ``no``, ``on``, ``off`` as booleans, which pydantic
    would otherwise turn into 1 and 0 without a word)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _no_booleans_for_numbers(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in _number_fields(cls):
                value = data.get(key)
                if isinstance(value, bool):
                    raise ValueError(
                        f"{key}: expected a number, got {str(value).lower()} "
                        "(in YAML, yes/no/on/off are true/false)"
                    )
        return data


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
        raise ContentError(ContentIssue(name, "(file)", f"cannot read: {exc.strerror or exc}")) from None
    except ValueError as exc:  # a NUL byte in the name, say
        raise ContentError(ContentIssue(name, "(file)", f"cannot read: {exc}")) from None
    if len(raw) > max_bytes:
        raise ContentError(ContentIssue(name, "(file)", f"larger than the limit of {max_bytes} bytes"))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(ContentIssue(name, "(file)", f"not UTF-8 text (byte {exc.start})")) from None


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
            ContentIssue(file, "(file)", f"{size} bytes is larger than the limit of {MAX_YAML_BYTES}")
        )
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            _check_shape(node, file)
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ContentError(ContentIssue(file, "(yaml)", f"invalid YAML: {problem}", line)) from None
    except RecursionError:
        raise ContentError(ContentIssue(file, "(yaml)", "nested too deeply")) from None
    except ValueError as exc:  # an integer of thousands of digits, say
        raise ContentError(ContentIssue(file, "(yaml)", f"a value kassen cannot read: {exc}")) from None
    finally:
        loader.dispose()
    issues = duplicate_keys(node, file)
    if issues:
        raise ContentError(issues)
    return data, node


def _check_shape(root: Any, file: str) -> None:
    """Refuse a node tree that nests too deeply, expands past the node limit, or contains itself."""
    count = 0
    # (node, depth, ids of the nodes on the way down): iterative, so depth never costs Python stack
    stack: list[tuple[Any, int, frozenset[int]]] = [(root, 1, frozenset())]
    while stack:
        node, depth, above = stack.pop()
        count += 1
        line = node.start_mark.line + 1
        if count > MAX_YAML_NODES:
            raise ContentError(
                ContentIssue(file, "(yaml)", f"more than {MAX_YAML_NODES} values once aliases are expanded")
            )
        if depth > MAX_YAML_DEPTH:
            raise ContentError(ContentIssue(file, "(yaml)", f"nested deeper than {MAX_YAML_DEPTH}", line))
        if id(node) in above:
            raise ContentError(ContentIssue(file, "(yaml)", "an alias that contains itself", line))
        if isinstance(node, yaml.ScalarNode) and not node.value.isascii():
            try:
                node.value.encode("utf-8")
            except UnicodeEncodeError:
                raise ContentError(
                    ContentIssue(file, "(yaml)", "an unpaired surrogate (\\ud800...) is not text", line)
                ) from None
        if isinstance(node, yaml.MappingNode):
            here = above | {id(node)}
            for k, v in node.value:
                stack.append((k, depth + 1, here))
                stack.append((v, depth + 1, here))
        elif isinstance(node, yaml.SequenceNode):
            here = above | {id(node)}
            stack.extend((v, depth + 1, here) for v in node.value)


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
                        f"key {key!r} given twice (first at line {seen[key]})",
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


def _message(err: Any) -> str:
    """Pydantic's message, with the value it refused when that helps (a wrong type, an unknown choice)."""
    msg = str(err["msg"])
    ctx = err.get("ctx") or {}
    if err.get("type") == "union_tag_invalid":
        name = str(ctx.get("discriminator", "tag")).strip("'")
        return f"unknown {name} {ctx.get('tag')!r}; expected one of {ctx.get('expected_tags')}"
    if err.get("type") in ("missing", "extra_forbidden"):
        return (
            "required field is missing" if err["type"] == "missing" else "unknown field (not in the format)"
        )
    value = err.get("input")
    if isinstance(value, str | int | float | bool) and not isinstance(value, dict):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        return f"{msg}, got {shown}"
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


def require_every(keys: Iterable[Enum], table: Mapping[Any, Any], what: str) -> None:
    """A table keyed by an enum must have a row for every member; raises ``ValueError`` (which the
    loader reports with file, line and field) naming the missing ones: ``missing grades: lord, pc``."""
    missing = [str(k.value) for k in keys if k not in table]
    if missing:
        raise ValueError(f"missing {what}: {', '.join(missing)}")
