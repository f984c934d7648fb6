"""Driving ``kassen play`` in a pseudo-terminal (pexpect), as a person at a real terminal would: the
answers go through prompt_toolkit, Ctrl-C and a hang-up are real signals, and the transcript is every
byte the terminal showed (escape sequences stripped for reading)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect (kassen[dev]) drives the terminal tests")

ROOT = Path(__file__).resolve().parents[2]
#: prompt_toolkit starts every prompt by turning bracketed paste on
PROMPT = r"\x1b\[\?2004h"
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|[\x08\r\x07]")


class Terminal:
    """One ``kassen`` command (or a Python script) in a pseudo-terminal."""

    def __init__(self, args: Sequence[str], cwd: Path, *, script: bool = False, timeout: float = 60) -> None:
        env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", PYTHONPATH=str(ROOT / "src"))
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        argv = [*args] if script else ["-m", "kassen", *args]
        self.out: list[str] = []
        self.child: Any = pexpect.spawn(
            sys.executable,
            argv,
            cwd=str(cwd),
            env=env,
            encoding="utf-8",
            dimensions=(60, 400),
            timeout=timeout,
        )
        self.child.logfile_read = self

    # pexpect writes what it reads here
    def write(self, text: str) -> None:
        self.out.append(text)

    def flush(self) -> None:
        pass

    @property
    def transcript(self) -> str:
        return _ESCAPES.sub("", "".join(self.out))

    def prompt(self) -> bool:
        """Wait for the next prompt; False when the command ended instead."""
        return self.child.expect([PROMPT, pexpect.EOF]) == 0

    def answer(self, text: str) -> None:
        assert self.prompt(), f"the game ended before {text!r} could be typed:\n{self.transcript[-2000:]}"
        self.child.sendline(text)

    def answer_all(self, text: str, times: int) -> int:
        """Answer ``text`` to every prompt, at most ``times`` times; how many were answered."""
        for n in range(times):
            if not self.prompt():
                return n
            self.child.sendline(text)
        return times

    def end(self) -> int:
        """Wait for the command to end; its exit status (128 + n for a signal it died of)."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        if self.child.exitstatus is not None:
            return int(self.child.exitstatus)
        return 128 + int(self.child.signalstatus)
