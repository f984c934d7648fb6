"""Shared by every CLI command: the user-error wrapper, JSON output and the console."""

from __future__ import annotations

__all__ = ["OneLineErrors", "OptionIssues", "console", "emit_json", "user_errors"]

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from typer.core import TyperGroup

from kassen.core.errors import ContentError, ContentIssue, KassenError

console = Console(highlight=False)

P = ParamSpec("P")
R = TypeVar("R")


def user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Report a :class:`KassenError` as one line on stderr and exit 2 (no traceback); a
    :class:`ContentError` with several problems lists them one a line under that line.

    Put it under ``@app.command()`` on every command.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ContentError as exc:
            if len(exc.issues) == 1:
                sys.stderr.write(f"kassen: error: {exc}\n")
            else:  # every problem at once, one a line (a long line of them is hard to act on)
                lines = "".join(f"  {issue}\n" for issue in exc.issues)
                sys.stderr.write(f"kassen: error: {len(exc.issues)} problems:\n{lines}")
            raise typer.Exit(2) from None
        except KassenError as exc:
            sys.stderr.write(f"kassen: error: {exc}\n")
            raise typer.Exit(2) from None

    return wrapper


def emit_json(data: Any) -> None:
    """Write ``data`` as one JSON document on stdout (plain write: Rich would wrap long lines)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


@contextmanager
def _one_line_usage_errors() -> Iterator[None]:
    try:
        yield
    except typer.TyperException as exc:  # Typer's usage errors: missing option, unknown command, bad value
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare group prints its help: leave that alone
            raise
        message = " ".join(exc.format_message().split())
        sys.stderr.write(f"kassen: error: {message} (see --help)\n")
        raise typer.Exit(getattr(exc, "exit_code", 2)) from None


class OneLineErrors(TyperGroup):
    """A Typer group whose usage errors are one line on stderr, exit 2, like every other user error
    (Typer's default is a multi-line usage panel). Pass it as ``typer.Typer(cls=OneLineErrors)``."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        with _one_line_usage_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with _one_line_usage_errors():
            return super().invoke(ctx)


class OptionIssues:
    """Collects every problem found in a command's options, then raises them together as one
    :class:`ContentError` (so a user sees all their mistakes at once, one line each)."""

    WHERE = "command line"

    def __init__(self) -> None:
        self.items: list[ContentIssue] = []

    def add(self, option: str, message: str) -> None:
        self.items.append(ContentIssue(self.WHERE, option, message))

    def raise_any(self) -> None:
        if self.items:
            raise ContentError(self.items)
