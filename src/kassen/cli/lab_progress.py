"""The lab's progress bar (fights/s, time elapsed and left, on stderr when it is a terminal) and the
way a long run ends on Ctrl-C or SIGTERM (one line, exit 130)."""

from __future__ import annotations

__all__ = ["interruptible", "progress_bar"]

import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from kassen.i18n import _, pgettext


# -- progress -------------------------------------------------------------------------------------------
class _LazyBar:
    """Starts its display (and the display's refresh thread) on the first fights done, which is after
    the worker processes were forked: no thread runs in the process while it forks."""

    def __init__(self, make: Callable[[], Any], total: int, label: str) -> None:
        self.make, self.total, self.label = make, total, label
        self.began = time.monotonic()  # Rich's clock: the elapsed time counts from here
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, n: int) -> None:
        if self.bar is None:
            self.bar = self.make()
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=self.total)
            for task in self.bar.tasks:
                task.start_time = self.began
        self.bar.advance(self.task, n)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@contextmanager
def progress_bar(total: int, label: str, show: bool) -> Iterator[Callable[[int], None] | None]:
    """A Rich progress bar on stderr with fights/s and time left, when ``show`` and stderr is a
    terminal; yields the callback that advances it (None when hidden)."""
    if not show or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Speed(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            if speed is None:
                return Text(_("  … fights/s"))
            return Text(pgettext("lab", "{speed} fights/s").format(speed=f"{speed:7.1f}"))

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Speed(),
        TextColumn(pgettext("lab progress", "elapsed")),
        TimeElapsedColumn(),
        TextColumn(pgettext("lab progress", "left")),
        TimeRemainingColumn(),
    )
    lazy = _LazyBar(
        lambda: Progress(*columns, console=Console(stderr=True), transient=False),
        total,
        _progress_label(label),
    )
    try:
        yield lazy
    finally:
        lazy.stop()


def _progress_label(label: str) -> str:
    """The progress bar's label (``fights``) in words."""
    return pgettext("lab", "fights") if label == "fights" else label


@contextmanager
def interruptible(out: Path | None) -> Iterator[None]:
    """Ctrl-C or SIGTERM: one line and exit 130 (a sweep's finished cells stay in ``out`` for a rerun);
    the worker processes are shut down on the way out (and die with this process if it is killed)."""

    def terminated(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    except KeyboardInterrupt:
        if out:
            line = _(
                "kassen: interrupted; the finished cells are kept in {out}: rerun with the same --out "
                "to go on"
            )
        else:
            line = _("kassen: interrupted")
        sys.stderr.write(line.format(out=out) + "\n")
        raise typer.Exit(130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
