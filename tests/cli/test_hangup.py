"""A hang-up stops terminal play wherever it lands: its exception is an interruption (as Ctrl-C's), so
an event loop that logs and drops the exceptions of its callbacks (asyncio, under prompt_toolkit's
prompt) passes it on, and the game is saved instead of waiting for input from a terminal that is gone."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import pytest

from kassen.cli.play import _HangUp


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="needs POSIX signals")
def test_a_hang_up_raised_inside_an_event_loop_callback_reaches_the_game() -> None:
    def hang_up(signum: int, frame: Any) -> None:
        raise _HangUp

    def busy() -> None:
        os.kill(os.getpid(), signal.SIGUSR1)  # the signal lands while a callback runs
        start = time.monotonic()
        while time.monotonic() - start < 0.05:
            pass

    async def prompt() -> str:
        asyncio.get_running_loop().call_soon(busy)
        await asyncio.sleep(0.3)
        return "still waiting for input"

    before = signal.signal(signal.SIGUSR1, hang_up)
    try:
        with pytest.raises(_HangUp):
            asyncio.run(prompt())
    finally:
        signal.signal(signal.SIGUSR1, before)
    # Ctrl-C's handling in terminal play comes after the hang-up's: a hang-up exits 129, not 130
    assert issubclass(_HangUp, KeyboardInterrupt)
