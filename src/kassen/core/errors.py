"""One error hierarchy for all of kassen, each class with a stable ``code``.

Everything kassen raises on bad input derives from :class:`KassenError`, so an interface can catch one
type, print one line and exit 2. Rules never raise bare ``ValueError``/``KeyError`` at users.
"""

from __future__ import annotations

__all__ = [
    "S_",
    "ArgumentError",
    "ContentError",
    "ContentIssue",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "IllegalActionError",
    "KassenError",
    "TypedDiceError",
    "check_whole",
    "did_you_mean",
    "kind_of",
]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `kassen roll` imports this module
if TYPE_CHECKING:
    from collections.abc import Iterable


def S_(template: str, /, **values: object) -> str:
    """:func:`kassen.i18n.S_` (English text kept in an error, translated where it is shown) for the modules
    ``kassen roll`` imports, which must not import :mod:`kassen.i18n` (nor what it imports): the same
    English text, ``template`` filled with ``values``."""
    return template.format(**values) if values else template


class KassenError(ValueError):
    """Root of every error kassen raises on bad input. ``code`` is stable across versions."""

    code = "kassen"


class ArgumentError(KassenError, TypeError):
    """A Python API argument of the wrong kind (``at_least(None, 5)``, a target that is not a whole
    number): the message names the argument and what it takes. A :class:`TypeError` too, as Python's
    own would be, so either ``except`` catches it."""

    code = "argument"


def kind_of(value: object) -> str:
    """``"None"``, ``"a str"``, ``"an int"``: what a refused argument was, for a message."""
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def check_whole(value: object, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` if it is a whole number (an ``int``, never a ``bool``) within ``lo .. hi``; else an
    :class:`ArgumentError` (the wrong kind) or a :class:`KassenError` (out of range) naming ``name``."""
    if value.__class__ is not int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ArgumentError(
                S_("{name} is a whole number, not {kind_of}", name=name, kind_of=kind_of(value))
            )
        value = int(value)
    assert isinstance(value, int)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        shown = value if value.bit_length() <= 64 else "so large a number"
        low = "" if lo is None else f"at least {lo}"
        high = "" if hi is None else f"at most {hi}"
        raise KassenError(
            S_(
                "{name} is {items}, not {shown}",
                name=name,
                items=" and ".join(x for x in (low, high) if x),
                shown=shown,
            )
        )
    return value


class DiceError(KassenError):
    """A dice expression that cannot be parsed, rolled or computed.

    ``expression`` is the text as given; ``column`` is 1-based, or ``None`` when the error is about the
    expression as a whole (a limit on the total number of dice, say).
    """

    code = "dice"

    def __init__(self, message: str, expression: str = "", column: int | None = None) -> None:
        self.message = message
        self.expression = expression
        self.column = column
        where = f" at column {column}" if column is not None else ""
        shown = expression if len(expression) <= 60 else expression[:57] + "..."
        quoted = f" in {shown!r}" if expression else ""
        super().__init__(f"{message}{where}{quoted}")


class DiceSyntaxError(DiceError):
    """The expression does not follow the dice grammar."""

    code = "dice.syntax"


class DiceLimitError(DiceError):
    """The expression is well-formed but exceeds a documented limit (``limit`` names it)."""

    code = "dice.limit"

    def __init__(self, message: str, expression: str = "", column: int | None = None, *, limit: str) -> None:
        self.limit = limit
        super().__init__(message, expression, column)


class IllegalActionError(KassenError):
    """An action the rules do not allow now; ``rule`` is the ledger ID that forbids it."""

    code = "illegal_action"

    def __init__(self, message: str, *, rule: str) -> None:
        self.message = message
        self.rule = rule
        super().__init__(f"{message} ({rule})")


class TypedDiceError(KassenError):
    """Faces typed for a roll that do not fit it: too few, too many, or a face the die does not have."""

    code = "dice.typed"


class ContentIssue:
    """One problem found in a content file: where, which field, and why.

    An immutable value (compared and hashed by its fields), written by hand rather than as a dataclass:
    ``kassen roll`` imports this module, and importing :mod:`dataclasses` would double its start-up.
    """

    __slots__ = ("field", "file", "line", "message")
    __match_args__ = ("file", "field", "message", "line")
    file: str
    field: str
    message: str
    line: int | None

    def __init__(self, file: str, field: str, message: str, line: int | None = None) -> None:
        for name, value in (("file", file), ("field", field), ("message", message), ("line", line)):
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[str, str, str, int | None]:
        return (self.file, self.field, self.message, self.line)

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, ContentIssue) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"ContentIssue(file={self.file!r}, field={self.field!r}, message={self.message!r}, "
            f"line={self.line!r})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a ContentIssue")

    def __reduce__(self) -> tuple[type[ContentIssue], tuple[str, str, str, int | None]]:
        return ContentIssue, self._key()

    def __str__(self) -> str:
        at = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{at}: {self.field}: {self.message}"


class ContentError(KassenError):
    """Content (YAML catalogs, scenarios, command-line profiles) failed validation.

    Every issue found is reported at once in ``issues``; nothing is loaded.
    """

    code = "content"

    def __init__(self, issues: list[ContentIssue] | ContentIssue) -> None:
        self.issues = [issues] if isinstance(issues, ContentIssue) else list(issues)
        if len(self.issues) == 1:
            text = str(self.issues[0])
        else:
            text = f"{len(self.issues)} problems: " + "; ".join(str(i) for i in self.issues)
        super().__init__(text)


def did_you_mean(given: object, known: Iterable[object]) -> str:
    """``"; did you mean 'kenjutsu'?"`` when ``given`` is close to one of ``known`` (difflib), else
    ``""``: the tail of a message that refuses a name (a skill, a unit, a zone, a key)."""
    if not isinstance(given, str) or not given or len(given) > 200:
        return ""
    import difflib  # imported when a suggestion is needed: `kassen roll` imports this module

    close = difflib.get_close_matches(given, sorted({str(k) for k in known}), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""
