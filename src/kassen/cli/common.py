"""Shared by every CLI command: the user-error wrapper, JSON output and the console."""

from __future__ import annotations

__all__ = ["console", "emit_json", "user_errors"]

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from kassen.core.errors import KassenError

console = Console(highlight=False)

P = ParamSpec("P")
R = TypeVar("R")


def user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Report a :class:`KassenError` as one line on stderr and exit 2 (no traceback).

    Put it under ``@app.command()`` on every command.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except KassenError as exc:
            sys.stderr.write(f"kassen: error: {exc}\n")
            raise typer.Exit(2) from None

    return wrapper


def emit_json(data: Any) -> None:
    """Write ``data`` as one JSON document on stdout (plain write: Rich would wrap long lines)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
