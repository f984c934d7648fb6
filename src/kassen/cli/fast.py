"""The ``kassen`` console script: plain ``kassen roll ...`` and ``kassen odds ...`` answered at once,
everything else handed to the full Typer CLI (:mod:`kassen.cli.main`).

Importing Typer and Rich costs ten times Python's own start-up, and a dice roll needs neither. This entry
point reads the plain forms itself — ``roll EXPR [--seed N] [--unskilled] [--json]`` and
``odds EXPR --at-least T [--unskilled] [--json]``, options before or after the expression, ``--opt=value``
or ``--opt value`` — and prints exactly what the full CLI prints for them. Anything else (help, another
command, an option it does not know, a repeated option, a negative or unusual number, a dice error,
text that Rich would wrap or colour) goes to the full CLI untouched, before anything is printed, so
output and exit codes are the same either way (``tests/cli/test_fast_entry.py`` compares them).
"""

from __future__ import annotations

__all__ = ["main"]

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up is the point here)
if TYPE_CHECKING:
    from collections.abc import Sequence

#: Numbers the fast path reads itself; anything else (signs, spaces, underscores, other digits, huge
#: values) is left to the full CLI and its validation.
_MAX_DIGITS = 9
#: Environment variables that make Rich colour or size its output differently: then the full CLI prints.
_RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES")


class _Args:
    __slots__ = ("at_least", "command", "expression", "json", "seed", "unskilled")

    def __init__(self, command: str) -> None:
        self.command = command
        self.expression: str | None = None
        self.seed: int | None = None
        self.at_least: int | None = None
        self.unskilled = False
        self.json = False


def _number(text: str | None) -> int | None:
    if text is None or not (0 < len(text) <= _MAX_DIGITS) or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def parse_args(argv: Sequence[str]) -> _Args | None:
    """The plain ``roll``/``odds`` forms; ``None`` for anything the full CLI must read."""
    if not argv or argv[0] not in ("roll", "odds"):
        return None
    args = _Args(argv[0])
    seen: set[str] = set()
    rest = iter(argv[1:])
    for token in rest:
        if not token.startswith("-"):
            if args.expression is not None:
                return None
            args.expression = token
            continue
        name, eq, value = token.partition("=")
        if name in seen:
            return None
        seen.add(name)
        if name in ("--unskilled", "--json") and not eq:
            setattr(args, name[2:], True)
        elif (name, args.command) in (("--seed", "roll"), ("--at-least", "odds")):
            number = _number(value if eq else next(rest, None))
            if number is None:
                return None
            if name == "--seed":
                args.seed = number
            else:
                args.at_least = number
        else:
            return None
    if args.expression is None or (args.command == "odds" and args.at_least is None):
        return None
    return args


def _plain_width() -> int | None:
    """The width Rich would wrap at when it prints plain text (no terminal, no colour); ``None`` when it
    would colour or might behave otherwise."""
    if sys.platform == "win32" or any(name in os.environ for name in _RICH_ENV):
        return None
    try:
        if sys.stdout.isatty():
            return None
    except ValueError:
        return None
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):  # Rich asks each standard stream for a terminal size, in this order
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        return width or 80
    return 80


def _lines(args: _Args) -> list[str] | None:
    """What the full CLI prints for ``args`` (plain text or JSON), or ``None`` to leave it to it."""
    from kassen.core.rng import Rng
    from kassen.dice.parser import parse

    assert args.expression is not None
    expr = parse(args.expression, unskilled=args.unskilled)
    if args.command == "roll":
        from kassen.dice.roller import roll

        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
        result = roll(expr, Rng(seed))
        if args.json:
            import json

            data = result.to_json()
            data["seed"] = seed
            return [json.dumps(data, ensure_ascii=False)]
        from kassen.cli.render import dice_text

        lines = [dice_text(result)]
        if args.seed is None:
            lines.append(f"(seed {seed})")
        return lines
    from kassen.dice.exact import probability_at_least

    assert args.at_least is not None
    table = probability_at_least(expr, args.at_least)
    p = table.at_least(args.at_least)
    if args.json:
        import json

        data = {
            "expression": str(expr),
            "at_least": args.at_least,
            "probability": float(p),
            "fraction": f"{p.numerator}/{p.denominator}",
            "error_bound": float(table.error_bound),
        }
        return [json.dumps(data, ensure_ascii=False)]
    from kassen.cli.render import probability_text

    exactness = "exact" if table.exact else f"within {float(table.error_bound):.1e}"
    return [f"P({expr} >= {args.at_least}) = {probability_text(p)}  {exactness}"]


def answer(argv: Sequence[str]) -> bool:
    """Print the answer to ``argv`` if it is a plain form; ``False`` (nothing printed) otherwise."""
    args = parse_args(argv)
    if args is None:
        return False
    try:
        lines = _lines(args)
    except Exception:  # a dice error, a limit...: the full CLI words it (and exits) as it always has
        return False
    if lines is None:
        return False
    if not args.json:
        width = _plain_width()
        if width is None or any(len(line) >= width or not line.isascii() for line in lines):
            return False  # Rich would wrap, colour or re-encode it: let Rich print it
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()
    return True


def _english_asked(argv: Sequence[str]) -> bool:
    """Whether the words are surely English (no ``--lang``, no ``KASSEN_LANG``, no other locale): only then
    does this entry answer itself; the full CLI reads the language (:mod:`kassen.cli.language`)."""
    if any(a == "--lang" or a.startswith("--lang=") for a in argv) or os.environ.get("KASSEN_LANG"):
        return False
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return not value.lower().startswith("ja")
    return True


def main(argv: list[str] | None = None) -> None:
    """Console entry point (``kassen``): the plain forms here (in English: they print English words), the
    rest in :func:`kassen.cli.main.main`."""
    args = sys.argv[1:] if argv is None else argv
    if _english_asked(args) and answer(args):
        return
    from kassen.cli.main import main as full

    full(argv)
