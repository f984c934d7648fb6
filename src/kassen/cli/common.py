"""Shared by every CLI command: the user-error wrapper, JSON output and the console."""

from __future__ import annotations

__all__ = [
    "NEGATIVE_NUMBERS",
    "NegativeNumbers",
    "OneLineErrors",
    "OptionIssues",
    "console",
    "emit_json",
    "error_line",
    "error_text",
    "said",
    "tidy_help",
    "user_errors",
    "warning_line",
]

import difflib
import functools
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar, Union, get_args, get_origin

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

from kassen.cli.numbers import is_negative_number
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.i18n import N_, S_, _, ngettext, translate_text

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
                sys.stderr.write(error_line(issue_text(exc.issues[0])))
            else:  # every problem at once, one a line (a long line of them is hard to act on)
                lines = "".join(f"  {issue_text(issue)}\n" for issue in exc.issues)
                n = len(exc.issues)
                head = ngettext("{n} problem:", "{n} problems:", n).format(n=n)
                sys.stderr.write(error_line(head) + lines)
            raise typer.Exit(2) from None
        except KassenError as exc:
            sys.stderr.write(error_line(error_text(exc)))
            raise typer.Exit(2) from None

    return wrapper


def error_line(message: str) -> str:
    """``kassen: error: MESSAGE`` and a newline, in the reader's language."""
    return _("kassen: error: {message}").format(message=message) + "\n"


def warning_line(problem: object) -> str:
    """``kassen: warning: PROBLEM`` and a newline, in the reader's language."""
    text = error_text(problem) if isinstance(problem, KassenError) else str(problem)
    return _("kassen: warning: {message}").format(message=text) + "\n"


#: The places a content problem names when it is about no one field (``ContentIssue.field``).
FIELD_WORDS = (
    N_("(file)"),
    N_("(root)"),
    N_("(units)"),
    N_("(scenario)"),
    N_("(standard input)"),
    N_("(content)"),
)


#: Kana, kanji and full-width forms: text already in Japanese.
_JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def said(text: str) -> str:
    """English text kept in an error (made with ``S_``) in the reader's language: its template's
    translation, else, for ``where: why`` (a file, a field, an option before the reason), the place
    as it is and the reason translated in turn. A refusal that quotes the value refused
    (``Input should be a valid integer, got 'x'``) is said as its reason and the value. A text already
    in Japanese (made with ``_`` where it was raised) is said as it is: read again as English, the
    list in it was taken apart and its ids translated."""
    if _JAPANESE.search(text):
        return text
    found = translate_text(text)
    if found != text:
        return found
    head, got, value = text.rpartition(", got ")
    if got and head and translate_text(head) != head:
        return _("{message}, got {value}").format(message=translate_text(head), value=translate_text(value))
    head, sep, tail = text.partition(": ")
    if sep and tail and len(head) <= 200:
        return f"{head}: {said(tail)}"
    return text


def issue_text(issue: ContentIssue) -> str:
    """A content problem (``file:line: field: why``) with its reason in the reader's language."""
    at = f"{issue.file}:{issue.line}" if issue.line is not None else translate_text(issue.file)
    if at == OptionIssues.WHERE:
        at = _(OptionIssues.WHERE)
    field = translate_text(issue.field) if issue.field.startswith("(") else issue.field  # a key is as written
    return f"{at}: {field}: {said(issue.message)}"


def error_text(exc: KassenError) -> str:
    """What an error says, in the reader's language (its English text is kept in the exception, for the
    API and the logs)."""
    from kassen.core.errors import DiceError, IllegalActionError

    if isinstance(exc, ContentError):
        if len(exc.issues) == 1:
            return issue_text(exc.issues[0])
        n = len(exc.issues)
        return (
            ngettext("{n} problem:", "{n} problems:", n).format(n=n)
            + " "
            + "; ".join(issue_text(i) for i in exc.issues)
        )
    if isinstance(exc, DiceError):
        text = said(exc.message)
        if exc.column is not None:
            text += _(" at column {column}").format(column=exc.column)
        if exc.expression:
            shown = exc.expression if len(exc.expression) <= 60 else exc.expression[:57] + "..."
            text += _(" in {expression}").format(expression=repr(shown))
        return text
    if isinstance(exc, IllegalActionError):
        return f"{said(exc.message)} ({exc.rule})"
    path, message = getattr(exc, "path", None), getattr(exc, "message", None)
    if (
        isinstance(path, str)
        and isinstance(message, str)
        and str(exc) == (f"{path}: {message}" if path else message)
    ):
        return f"{path}: {said(message)}" if path else said(message)
    return said(str(exc))


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
        param = getattr(exc, "param", None)
        if isinstance(exc, typer.BadParameter) and param is not None and exc.message:
            # a value refused: worded like the options a command checks itself (OptionIssues)
            where, name = _(OptionIssues.WHERE), translate_text(_param_name(param))
            message = f"{where}: {name}: {said(' '.join(exc.message.split()))}"
        else:
            message = _("{message} (see --help)").format(message=said(" ".join(exc.format_message().split())))
        sys.stderr.write(error_line(message))
        raise typer.Exit(getattr(exc, "exit_code", 2)) from None


def _param_name(param: Any) -> str:
    """``--seed`` for an option, ``TARGET`` for an argument: as the command's help names it."""
    if getattr(param, "param_type_name", "") == "argument":
        return str(param.metavar or str(param.name).upper())
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")] or list(getattr(param, "opts", []))
    return str(opts[0]) if opts else str(param.name)


#: The words of Typer's and Click's usage errors (worded in English by them; these templates let
#: :func:`said` give them in the reader's language).
USAGE_WORDS = (
    N_("No such option: {option}"),
    N_("No such option: {option} (Possible options: {options})"),
    N_("No such command '{name}'."),
    N_("No such command '{name}'. Did you mean {names}?"),
    N_("Missing argument '{name}'."),
    N_("Missing option '{name}'."),
    N_("Missing parameter: {name}"),
    N_("Missing command."),
    N_("Option '{name}' requires an argument."),
    N_("Option '{name}' requires {n} arguments."),
    N_("Option '{name}' does not take a value."),
    N_("Got unexpected extra argument(s) ({args})"),
    N_("Argument '{name}' takes {n} values."),
    N_("Invalid value for {name}: {reason}"),
    N_("Invalid value: {reason}"),
    N_("Value {value} is not a valid {kind}."),
    N_("{value} is not one of {choices}."),
)

#: Typer's usage error (not exported by name): a mistake in how the command was typed.
_UsageError: type[Exception] = typer.BadParameter.__mro__[1]


class NegativeNumbers(TyperCommand):
    """A command whose arguments may be negative numbers or expressions (``arena check -3``,
    ``roll -1d4+5``): a token like ``-3`` is a value, not an option, while an unknown option
    (``--jsn``) is still refused as one. Use with :data:`NEGATIVE_NUMBERS` as context settings."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        params = self.get_params(ctx)
        known = {o for p in params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")}
        takes_value = {
            o
            for p in params
            if p.param_type_name == "option" and not getattr(p, "is_flag", False)
            for o in p.opts
        }
        skip = False
        for token in args:
            if skip:
                skip = False
                continue
            if token == "--":
                break
            name = token.split("=", 1)[0]
            if name in takes_value and "=" not in token:
                skip = True
            elif (
                token.startswith("-") and token != "-" and not is_negative_number(token) and name not in known
            ):
                close = difflib.get_close_matches(name, sorted(known), n=1)
                if close:
                    raise _UsageError(S_(USAGE_WORDS[1], option=name, options=close[0]))
                raise _UsageError(S_(USAGE_WORDS[0], option=name))
        return list(super().parse_args(ctx, args))


#: Context settings for :class:`NegativeNumbers`: unknown dash tokens reach the arguments.
NEGATIVE_NUMBERS: dict[str, Any] = {"ignore_unknown_options": True}


class OneLineErrors(TyperGroup):
    """A Typer group whose usage errors are one line on stderr, exit 2, like every other user error
    (Typer's default is a multi-line usage panel), and whose help shows each option's value as a user
    types it (:func:`tidy_help`). Pass it as ``typer.Typer(cls=OneLineErrors)``."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            tidy_help(command)
        return command

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        tidy_help(self, recurse=False)
        with _one_line_usage_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with _one_line_usage_errors():
            return super().invoke(ctx)


class OptionIssues:
    """Collects every problem found in a command's options, then raises them together as one
    :class:`ContentError` (so a user sees all their mistakes at once, one line each)."""

    WHERE = N_("command line")

    def __init__(self) -> None:
        self.items: list[ContentIssue] = []

    def add(self, option: str, message: str) -> None:
        self.items.append(ContentIssue(self.WHERE, option, message))

    def raise_any(self) -> None:
        if self.items:
            raise ContentError(self.items)


_TIDY = "_kassen_tidy_help"
_LABELS: dict[Any, str] = {int: "INTEGER", float: "FLOAT", str: "TEXT", Path: "PATH"}


def _label(annotation: Any) -> str | None:
    """What a user types for a value of this type: INTEGER, TEXT, PATH, [a|b|c]; None for a flag."""
    origin = get_origin(annotation)
    if origin is Union or type(annotation).__name__ == "UnionType":
        args = [a for a in get_args(annotation) if a is not type(None)]
        return _label(args[0]) if len(args) == 1 else "TEXT"
    if origin in (list, tuple):  # a repeatable option: one value each time
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        return _label(args[0]) if args else "TEXT"
    if annotation is bool:
        return None
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "[" + "|".join(str(m.value) for m in annotation) + "]"
    if isinstance(annotation, type) and issubclass(annotation, Path):
        return "PATH"
    return _LABELS.get(annotation, "TEXT")


def _tidy_param(param: Any) -> None:
    if getattr(param, "param_type_name", "") == "argument" and param.metavar is None:
        param.metavar = str(param.name).upper()
    if getattr(param, "is_flag", False) and getattr(param, "is_bool_flag", True):
        label: str | None = None  # a flag takes no value: show none
    elif getattr(param, "param_type_name", "") == "option" and param.metavar is not None:
        return  # an option's own metavar (SEED, N, auto|table) is what it shows
    else:
        descriptor = getattr(param, "type_descriptor", None)
        label = _label(descriptor.annotation) if descriptor is not None else None
        if label is None and descriptor is not None:
            return
    # Typer 0.29 shows its own type names (<int>, <bool>, <list[str]>): replace them on this object only
    object.__setattr__(param, "display_type_rich", lambda ctx: label)


def tidy_help(command: Any, *, recurse: bool = True) -> None:
    """Show every option's value in ``--help`` as a user types it: nothing for a flag, INTEGER for a
    number, TEXT, PATH, an option's own metavar (SEED, N); an argument by its name in capitals.

    Idempotent; ``recurse`` tidies a group's subcommands too (they are tidied again harmlessly when run).
    Every command tidied also prints its help in the reader's language (:mod:`kassen.cli.helptext`).
    """
    from kassen.cli.helptext import translate_help

    translate_help(command)
    if getattr(command, _TIDY, False):
        return
    if recurse:
        object.__setattr__(command, _TIDY, True)
    params = list(getattr(command, "params", []))
    try:
        help_option = command.get_help_option(typer.Context(command))
    except Exception:  # pragma: no cover - a command without a help option
        help_option = None
    for param in [*params, *([help_option] if help_option is not None else [])]:
        _tidy_param(param)
    if recurse:
        for sub in getattr(command, "commands", {}).values():
            tidy_help(sub)


#: ``--policy SIDE=SPEC`` (repeatable): who plays a side (:mod:`kassen.core.named`).
PolicyOption = Annotated[
    list[str] | None,
    typer.Option(
        "--policy",
        metavar=N_("SIDE=SPEC"),
        help=(
            N_(
                "Who plays a side: scenario, heuristic, random, first-legal or search "
                "(search:iterations=800, search:time=1.0, search:omniscient); repeat for each side. "
                "Default: the scenario's own."
            )
        ),
    ),
]


def side_policies(items: list[str] | None) -> dict[str, str]:
    """``--policy`` values read strictly (side → spec); a bad one is a one-line error naming the allowed
    names or parameters."""
    from kassen.core.named import parse_policies

    return {side: str(spec) for side, spec in parse_policies(items or []).items()}
