"""A `--jobs 2` sweep killed from outside leaves no worker behind: with SIGTERM it shuts its pool down,
with SIGKILL (no chance to clean up) the kernel ends the workers with it. Workers left waiting on a
pipe, adopted by init, once lived on after such a kill."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

KASSEN = str(Path(sys.executable).with_name("kassen"))


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # a thread that just ended
            out |= {int(x) for x in (task / "children").read_text().split()}
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killing_a_two_job_sweep_leaves_no_worker(tmp_path: Path, sig: signal.Signals) -> None:
    command = [
        KASSEN, "lab", "sweep", "duel", "--vary", "fighters.ryu.skill=10..16",
        "--vary", "fighters.ken.skill=11..15", "--fights", "400", "--jobs", "2",
        "--out", str(tmp_path / "out"), "-q",
    ]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the sweep's workers never started"
        time.sleep(0.5)  # the workers are busy with their fights
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [w for w in workers if _alive(w)]
        assert left == [], f"workers left after {sig.name}: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
