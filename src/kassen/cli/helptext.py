"""``--help`` in the reader's language, translated when it is shown.

Typer reads a command's help (its ``help=`` and each option's ``help=``) when the CLI modules are imported,
before ``--lang`` is known. So help strings are marked with :func:`~kassen.i18n.N_` where they are written
(``@app.command("roll", help=N_("Roll dice..."))``, ``typer.Option(help=N_("..."))``) and translated here,
each time a help screen is printed: :func:`translate_help` gives every command under the ``kassen`` group
(its own and every installed command group, whoever wrote it) a ``format_help`` that prints a *translated
copy* of the command — help texts, metavars, the usage line — never changing the command itself.

Typer's own words (the panel titles Options/Arguments/Commands, ``[required]``, ``[default: ...]``) are
module constants of :mod:`typer.rich_utils`: they are set to the current language only while one help
screen is printed, under a lock, and put back afterwards, so nothing is left changed between
invocations (tests run many invocations in both languages in one process). While a help screen in
another language than English is printed, its texts also wrap between any two characters (Japanese
has no spaces to break lines at; Typer's tables would cut such a line short).

English is printed exactly as Typer prints it: the translated copy is only made for another language.
"""

from __future__ import annotations

__all__ = ["TYPER_WORDS", "translate_help", "translated_label"]

import copy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kassen.i18n import N_, SOURCE, _, current_language

_INSTALLED = "_kassen_translated_help"
_lock = threading.RLock()

#: Typer's words, by the name of the :mod:`typer.rich_utils` constant that holds them (``{value}``: the
#: constant's positional ``{}``).
TYPER_WORDS: dict[str, str] = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEFAULT_STRING": N_("[default: {value}]"),
    "ENVVAR_STRING": N_("[env var: {value}]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}

#: Words of the usage line and the value labels (what a user types), shared by every command; a command
#: author marks their own metavars with ``N_`` (``metavar=N_("SIDE=SPEC")``).
_USAGE_WORDS = (
    N_("Usage:"),
    N_("[OPTIONS]"),
    N_("COMMAND [ARGS]..."),
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
    N_("INTEGER"),
    N_("FLOAT"),
    N_("TEXT"),
    N_("PATH"),
    N_("FILE"),
    N_("DIR"),
    N_("SEED"),
    N_("SIDE=SPEC"),
    N_("NAME=VALUE"),
    N_("NAME"),
    N_("SCENARIO"),
    N_("EXPRESSION"),
    N_("RULE"),
    N_("KEY"),
    N_("KIND"),
    N_("CHRONICLE"),
    N_("CHARACTER"),
    N_("TEMPLATE"),
    N_("CAMPAIGN"),
    N_("PLAYER"),
    N_("TARGET"),
    N_("SIDE"),
    N_("SPEC"),
    N_("SPEC,SPEC,..."),
    N_("SIDE=RATE"),
    N_("KIND=N"),
    N_("PATH=V"),
    N_("PATH=LO..HI"),
    N_("ADDRESS"),
    N_("PORT"),
    N_("SECONDS"),
    N_("DAYS"),
    N_("BYTES"),
    N_("WIDTH"),
    N_("RATE"),
    N_("POOL"),
)


def translated_label(label: str | None) -> str | None:
    """A value label (``INTEGER``, ``SEED``, ``SCENARIO``) in the current language; a list of choices
    (``[auto|table]``: the values a user types) as it is."""
    if label is None or label.startswith("["):
        return label
    return _(label)


def _text(value: str | None) -> str | None:
    """A help text in the current language: the catalog's translation of the marked string (as it is
    where the catalog has none: a help text is never pieced together from templates)."""
    return _(value) if value else value


def _shown_param(param: Any) -> Any:
    shown = copy.copy(param)
    if getattr(param, "help", None):
        shown.help = _text(param.help)
    if getattr(param, "metavar", None):
        shown.metavar = translated_label(param.metavar)
    original = param.display_type_rich
    shown.display_type_rich = lambda ctx: translated_label(original(ctx))
    return shown


def _shown_command(command: Any, *, deep: bool) -> Any:
    """A copy of ``command`` whose words are in the current language (``deep``: its parameters, usage
    line and subcommands too; a subcommand listed in a group's help needs only its help)."""
    shown = copy.copy(command)
    shown.help = _text(command.help)
    shown.short_help = _text(command.short_help)
    if not deep:
        return shown
    if getattr(command, "options_metavar", None):
        shown.options_metavar = _(command.options_metavar)
    if getattr(command, "subcommand_metavar", None):
        shown.subcommand_metavar = _(command.subcommand_metavar)
    shown.get_params = lambda ctx: [_shown_param(p) for p in command.get_params(ctx)]

    def get_usage(ctx: Any) -> str:
        formatter = ctx.make_formatter()
        pieces = shown.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_("Usage:") + " ")
        return str(formatter.getvalue()).rstrip("\n")

    shown.get_usage = get_usage
    if hasattr(command, "commands"):

        def get_command(ctx: Any, name: str) -> Any:
            found = command.get_command(ctx, name)
            return None if found is None else _shown_command(found, deep=False)

        shown.get_command = get_command
    return shown


@contextmanager
def _typer_words() -> Iterator[None]:
    """Typer's own words in the current language while one help screen is printed, then put back."""
    from typer import rich_utils

    saved = {name: getattr(rich_utils, name) for name in TYPER_WORDS if hasattr(rich_utils, name)}
    saved["_make_rich_text"] = make_text = rich_utils._make_rich_text

    def folded(**kwargs: Any) -> Any:
        # Japanese has no spaces to wrap at: a line breaks between any two characters (Rich's "fold"),
        # where Typer's tables would cut it short with an ellipsis
        made = make_text(**kwargs)
        if hasattr(made, "overflow"):
            made.overflow = "fold"
        return made

    try:
        for name in TYPER_WORDS:
            if name in saved:
                setattr(rich_utils, name, _(TYPER_WORDS[name]).replace("{value}", "{}"))
        rich_utils._make_rich_text = folded
        yield
    finally:
        for name, value in saved.items():
            setattr(rich_utils, name, value)


def translate_help(command: Any) -> None:
    """Give ``command`` a help screen in the current language (idempotent; English unchanged)."""
    if getattr(command, _INSTALLED, False):
        return
    cls_format_help = type(command).format_help

    def format_help(ctx: Any, formatter: Any) -> Any:
        with _lock:  # Typer's words are module constants: one help screen at a time
            if current_language() == SOURCE:
                return cls_format_help(command, ctx, formatter)
            with _typer_words():
                return cls_format_help(_shown_command(command, deep=True), ctx, formatter)

    object.__setattr__(command, "format_help", format_help)
    object.__setattr__(command, _INSTALLED, True)
