"""Load YAML into pydantic models; report every problem with file, line and field, load nothing on error.

Principle 11 of DESIGN.md: a typo never becomes a silent wrong answer. Models derive from
:class:`StrictModel` (unknown keys are errors, models are frozen). Line numbers come from the YAML node
tree, so an error on ``armor.heavy.defense`` points at the line where that value is written.
"""

from __future__ import annotations

__all__ = ["HouseDefault", "StrictModel", "load_model", "load_package_model", "load_text"]

from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from kassen.core.errors import ContentError, ContentIssue

M = TypeVar("M", bound=BaseModel)


class StrictModel(BaseModel):
    """Base for content models: unknown keys are errors and loaded content is immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class HouseDefault(StrictModel):
    """Marks a value kassen supplies where the seed has a gap (GAP) or a reading to choose (RD).

    ``rule`` is the ledger ID, ``rationale`` says why this value; both are shown by the docs and CLI.
    """

    rule: str
    rationale: str


def load_text(text: str, model: type[M], file: str) -> M:
    """Parse YAML ``text`` (named ``file`` in errors) into ``model``."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ContentError(ContentIssue(file, "(yaml)", f"invalid YAML: {problem}", line)) from None
    if data is None:
        data = {}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        issues = [
            ContentIssue(
                file,
                ".".join(str(p) for p in err["loc"]) or "(root)",
                err["msg"],
                _line_of(node, err["loc"]),
            )
            for err in exc.errors()
        ]
        raise ContentError(issues) from None


def load_model(path: str | Path, model: type[M]) -> M:
    """Load one YAML file from disk into ``model``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(ContentIssue(str(p), "(file)", f"cannot read: {exc.strerror}")) from None
    return load_text(text, model, str(p))


def load_package_model(package: str, name: str, model: type[M]) -> M:
    """Load a YAML file bundled inside a package (``kassen.sengoku.data``, ``defense.yaml``)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return load_text(text, model, f"{package.replace('.', '/')}/{name}")


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
