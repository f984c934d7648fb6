"""Where the answers of a game at the terminal come from.

At a terminal, prompt_toolkit reads each answer: the line can be edited (arrows, Home/End, Ctrl-W …)
and the answers given earlier in the session come back with the up arrow. Anything else (a pipe, a
file, a test) is read line by line, so a whole game can be scripted: ``yes 1 | kassen play demo``.
Either way an answer is one stripped line; end of input (Ctrl-D) is None; Ctrl-C raises
:class:`KeyboardInterrupt` for the session to save the game.
"""

from __future__ import annotations

__all__ = ["MAX_ANSWER", "Answers", "answers_for"]

import sys
from collections.abc import Iterator
from typing import Any, TextIO

#: The longest answer read (``save PATH`` with the longest path a system allows).
MAX_ANSWER = 4096 + 5


def _too_long(n: int) -> str:
    from kassen.i18n import _

    return _("kassen: an answer is at most {most} characters, not {n}").format(most=MAX_ANSWER, n=n) + "\n"


class Answers:
    """Answers read line by line from ``lines`` (a pipe or a file: nothing is echoed)."""

    def __init__(self, lines: Iterator[str], out: TextIO) -> None:
        self.lines = lines
        self.out = out

    def ask(self) -> str | None:
        """The next non-empty answer, or None at the end of input. What was said is flushed first: a
        person typing at a terminal whose output goes to a pipe (``kassen play ... | tee game.log``)
        sees the menu before answering it."""
        self.out.flush()
        for line in self.lines:
            text = line.strip()
            if len(text) > MAX_ANSWER:  # said, never cut short (a path cut short is another file)
                self.out.write(_too_long(len(text)))
                continue
            if text:
                return text
        return None


class TerminalAnswers(Answers):
    """Answers typed at a terminal, with line editing and the session's history (prompt_toolkit)."""

    def __init__(self, out: TextIO) -> None:
        super().__init__(iter(()), out)
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        self.session: Any = PromptSession(history=InMemoryHistory())

    def ask(self) -> str | None:
        self.out.flush()
        while True:
            try:
                text = str(self.session.prompt("> ")).strip()
            except EOFError:
                return None
            if len(text) > MAX_ANSWER:
                self.out.write(_too_long(len(text)))
                continue
            if text:
                return text


def answers_for(stdin: TextIO, out: TextIO) -> Answers:
    """prompt_toolkit when both ends are a terminal, else the lines of ``stdin``."""
    if stdin.isatty() and out.isatty() and stdin is sys.stdin:
        try:
            return TerminalAnswers(out)
        except Exception:  # a terminal prompt_toolkit cannot drive: read plain lines
            pass
    return Answers((line for line in stdin), out)
