"""A command group whose ruleset commands load only when used.

``kassen roll 2d10`` must not import three rulesets. The ruleset command groups (``sengoku``, ``l5r``,
``arena``, ``content``...) are entry points in the group ``kassen.commands`` (``name = "module:app"``,
a Typer app): :class:`LazyGroup` lists them by name and imports one only when it is called (or when
``--help`` describes them). Adding a ruleset's commands edits nothing here.
"""

from __future__ import annotations

__all__ = ["LazyGroup"]

import importlib
import sys
from functools import cache
from importlib import metadata
from typing import Any

import typer

from kassen.cli.common import OneLineErrors, tidy_help

_GROUP = "kassen.commands"


@cache
def _entry_points() -> dict[str, str]:
    return {ep.name: ep.value for ep in metadata.entry_points(group=_GROUP)}


@cache
def _load(name: str) -> Any:
    target = _entry_points().get(name)
    if target is None:
        return None
    module, _sep, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        command = typer.main.get_command(obj) if isinstance(obj, typer.Typer) else obj
    except Exception as exc:  # a broken plugin must not take `kassen --help` down with it
        from kassen.cli.common import warning_line
        from kassen.i18n import _

        problem = _("the command group {name} cannot be loaded: {error}").format(name=repr(name), error=exc)
        sys.stderr.write(warning_line(problem))
        return None
    command.name = name
    return command


class LazyGroup(OneLineErrors):
    """The top-level ``kassen`` group: its own commands, plus the installed command groups, lazily; and
    ``--lang`` anywhere on the command line (:mod:`kassen.cli.language`)."""

    def main(self, args: Any = None, *rest: Any, **extra: Any) -> Any:
        from kassen.cli.language import take_language
        from kassen.i18n import LanguageError, use_language

        try:
            lang, argv = take_language(sys.argv[1:] if args is None else list(args))
        except LanguageError as exc:
            sys.stderr.write(f"kassen: error: {exc}\n")
            raise SystemExit(2) from None
        with use_language(lang):
            return super().main(argv, *rest, **extra)

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(_entry_points()))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        loaded = _load(cmd_name)
        if loaded is not None:
            tidy_help(loaded)
        return loaded
