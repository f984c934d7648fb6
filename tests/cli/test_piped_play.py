"""``kassen play`` with its output going to a pipe (``kassen play ... | tee game.log``) while someone
answers: each menu is out before the answer is read, not held in the pipe's buffer until the game ends."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_each_menu_reaches_a_pipe_before_its_answer_is_read(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    env.pop("PYTHONUNBUFFERED", None)  # a pipe's output is block-buffered, as on a user's machine
    game = subprocess.Popen(
        [sys.executable, "-m", "kassen", "play", "arena/duel", "--seed", "4", "--human", "east"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert game.stdin is not None and game.stdout is not None
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"give up (loses the match)\n" not in seen:
            left = deadline - time.monotonic()
            assert left > 0, f"the menu never reached the pipe: {seen[-500:]!r}"
            ready, _, _ = select.select([game.stdout], [], [], left)
            if ready:
                chunk = os.read(game.stdout.fileno(), 65536)
                assert chunk, (
                    f"kassen play ended before its menu: {game.stderr.read() if game.stderr else ''}"
                )
                seen += chunk
        assert b"Ryu (subturn 1): choose a maneuver\n  1. attack" in seen  # the answer not given yet
        game.stdin.write(b"quit\n")
        game.stdin.close()
        assert game.wait(timeout=60) == 0
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
