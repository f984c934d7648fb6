"""The fuzz suite's harness (tests/fuzz): run one generated input, check its outcome, count it.

Every input must end in one of two ways: a success (exit 0 / a value), or a clean refusal (exit 2 with
one ``kassen: error:`` message / a :class:`~kassen.core.errors.KassenError`) that leaves nothing behind
(no file written). Never a traceback or exit 1, never a hang: an input still running after
:data:`HANG_SECONDS` is stopped and fails the test; one over :data:`SLOW_SECONDS` is counted. The counts
of a run are printed at its end (``fuzz: N inputs: S successes, E clean errors, ...``).
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import settings
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.errors import KassenError

#: An input slower than this is counted (the issue's bound for an answer or a refusal).
SLOW_SECONDS = 2.0
#: An input still running after this is a hang: stopped, and the test fails.
HANG_SECONDS = float(os.environ.get("KASSEN_FUZZ_HANG", "60"))
#: Examples per target in the long run (``make test-slow``): 20,000 inputs in all.
LONG = {
    "dice": 6000,
    "cli": 5000,
    "cli-fights": 1500,
    "scenario": 3000,
    "catalog": 1500,
    "chronicle": 3000,
}

T = TypeVar("T")
TALLY: Counter[str] = Counter()
SLOWEST: list[tuple[float, str]] = []


def quick() -> settings:
    return settings(settings.get_profile("fuzz-quick"))


def long(target: str) -> settings:
    scale = float(os.environ.get("KASSEN_FUZZ_SCALE", "1"))
    return settings(settings.get_profile("fuzz-long"), max_examples=max(1, int(LONG[target] * scale)))


class Hang(BaseException):
    """Raised by the alarm in an input that runs past :data:`HANG_SECONDS` (a BaseException, so no
    ``except Exception`` of the code under test swallows it)."""


@contextmanager
def timed(label: str) -> Iterator[None]:
    """Run the body under the hang alarm; count it, and count it as slow past :data:`SLOW_SECONDS`."""

    def stop(signum: int, frame: Any) -> None:
        raise Hang(f"{label}: still running after {HANG_SECONDS:.0f} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        took = time.perf_counter() - start
        TALLY["inputs"] += 1
        if took > SLOW_SECONDS:
            TALLY["over 2 s"] += 1
            SLOWEST.append((took, label[:160]))
            SLOWEST.sort(reverse=True)
            del SLOWEST[5:]


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


def run_cli(args: list[str], workdir: Path, given: str = "") -> tuple[int, str, str]:
    """Run ``kassen ARGS`` in-process in ``workdir``; check its outcome (module docstring)."""
    before = files_under(workdir)
    label = "kassen " + " ".join(args)
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        with timed(label):
            result = CliRunner().invoke(app, args, input=given)
    finally:
        os.chdir(cwd)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        TALLY["tracebacks"] += 1
        raise AssertionError(f"{label}: {type(exc).__name__}: {exc}") from exc
    assert result.exit_code in (0, 2), f"{label}: exit {result.exit_code}: {result.stderr[-800:]}"
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, label
    if result.exit_code == 2:
        TALLY["clean errors"] += 1
        if not args or "--help" in args:  # a bare group prints its usage
            return result.exit_code, result.stdout, result.stderr
        if "--json" in args and result.stdout.strip():
            json.loads(result.stdout)  # a refusal asked for in JSON is one JSON document
        else:
            assert "kassen: error: " in result.stderr or "Usage:" in result.stdout + result.stderr, (
                f"{label}: exit 2 without a message: {result.stderr[-300:]}"
            )
        written = files_under(workdir) - before
        assert not written, f"{label}: refused, but wrote {sorted(map(str, written))}"
    else:
        TALLY["successes"] += 1
        if "--json" in args and "--help" not in args and result.stdout.strip():
            json.loads(result.stdout)  # a success in JSON is one JSON document
    return result.exit_code, result.stdout, result.stderr


def run_api(label: str, call: Callable[[], T]) -> T | None:
    """Run a Python API call: its value, or ``None`` when it refused with a KassenError."""
    try:
        with timed(label):
            value = call()
    except KassenError:
        TALLY["clean errors"] += 1
        return None
    except Hang:
        raise
    except Exception as exc:
        TALLY["tracebacks"] += 1
        raise AssertionError(f"{label}: {type(exc).__name__}: {exc}") from exc
    TALLY["successes"] += 1
    return value


def summary(terminalreporter: Any) -> None:
    """Print the run's counts (called by this folder's conftest at the end of the session)."""
    if not TALLY["inputs"]:
        return
    t = TALLY
    terminalreporter.write_line(
        f"fuzz: {t['inputs']:,} inputs: {t['successes']:,} successes, {t['clean errors']:,} clean errors, "
        f"{t['tracebacks']} tracebacks, {t['over 2 s']} over 2 s"
    )
    for took, label in SLOWEST:
        terminalreporter.write_line(f"  {took:.1f} s  {label}")
