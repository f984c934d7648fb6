"""Where batches of fights run: this process, local worker processes, or Ray tasks.

Every backend returns each batch's records under its batch index; the caller combines them in seed
order, so the results never depend on which worker finished first. ``on_batch(batch, records)`` is
called as batches finish (the progress bar; a sweep stores each cell as soon as it is complete).

* ``local`` with one job plays in this process; with more, a :class:`~concurrent.futures.ProcessPoolExecutor`
  (forked where the platform forks, so workers start with the scenario already read);
* ``ray`` sends each batch as a Ray task (``kassen[ray]``): to the cluster at ``address``, or to a
  local Ray started on demand with ``jobs`` CPUs and shut down afterwards.
"""

from __future__ import annotations

__all__ = ["Backend", "batches", "run_batches", "session"]

import importlib.util
import logging
import math
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, Literal

from kassen.i18n import _
from kassen.lab.engine import Batch, FightRecord, play_batch
from kassen.lab.limits import MAX_BATCH, LabError

Backend = Literal["local", "ray"]
OnBatch = Callable[[Batch, list[FightRecord]], None]


def batch_size(fights: int, jobs: int) -> int:
    """Fights per batch: about eight batches per worker (so the workers stay busy to the end and the
    progress bar moves), at most :data:`MAX_BATCH` (so a Ray task's scheduling cost stays small)."""
    return max(1, min(MAX_BATCH, math.ceil(fights / (jobs * 8))))


def batches(
    name: str,
    text: str,
    content: Sequence[str],
    seeds: Sequence[int],
    jobs: int,
    max_actions: int | None,
    *,
    cell: int = 0,
    start: int = 0,
    size: int | None = None,
    policies: Sequence[tuple[str, str]] = (),
) -> list[Batch]:
    """``seeds`` cut into batches (indexes from ``start``), each side in ``policies`` played by its
    named policy."""
    step = size or batch_size(len(seeds), jobs)
    named = tuple(policies)
    return [
        Batch(start + i, name, text, tuple(content), tuple(seeds[j : j + step]), max_actions, cell, named)
        for i, j in enumerate(range(0, len(seeds), step))
    ]


def run_batches(
    work: Sequence[Batch],
    *,
    jobs: int,
    backend: Backend = "local",
    address: str | None = None,
    on_batch: OnBatch | None = None,
    keep: bool = True,
) -> dict[int, list[FightRecord]]:
    """Every batch's records, by batch index; none when not ``keep`` (``on_batch`` takes each batch's
    as it finishes, and they are dropped after)."""
    if backend == "ray":
        return _ray(work, jobs, address, on_batch, keep)
    if backend != "local":
        raise LabError(_("unknown backend {backend} (local or ray)").format(backend=repr(str(backend)[:20])))
    if jobs == 1 or len(work) <= 1:
        out: dict[int, list[FightRecord]] = {}
        for b in work:
            records = play_batch(b)
            if keep:
                out[b.index] = records
            if on_batch:
                on_batch(b, records)
        return out
    return _processes(work, jobs, on_batch, keep)


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _processes(
    work: Sequence[Batch], jobs: int, on_batch: OnBatch | None, keep: bool
) -> dict[int, list[FightRecord]]:
    out: dict[int, list[FightRecord]] = {}
    workers = min(jobs, len(work))
    guard = (os.getpid(),)
    with ProcessPoolExecutor(workers, mp_context=_context(), initializer=_die_with, initargs=guard) as pool:
        pending: dict[Future[list[FightRecord]], Batch] = {pool.submit(play_batch, b): b for b in work}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    b = pending.pop(fut)
                    records = fut.result()
                    if keep:
                        out[b.index] = records
                    if on_batch:
                        on_batch(b, records)
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    return out


def _die_with(parent: int) -> None:
    """A worker's first act: end when the process that started it ends, however it ends. A worker
    blocks on its task pipe, and a parent killed by SIGKILL (or by SIGTERM before it could shut its
    pool down) never closes it: the worker would wait forever, adopted by init. On Linux the kernel
    kills it (``PR_SET_PDEATHSIG``); elsewhere a watch thread sees its parent change and exits."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the watch thread alone
        pass
    if os.getppid() != parent:  # the parent died before the guard was set
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="kassen-parent").start()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(1)


def ray_available() -> bool:
    """Whether Ray is installed (without importing it: that takes half a second)."""
    return importlib.util.find_spec("ray") is not None


def reachable(address: str, timeout: float = 5.0) -> bool:
    """Whether ``HOST:PORT`` (or ``ray://HOST:PORT``) answers a TCP connection within ``timeout``
    seconds (``auto`` and other forms are left to Ray). Ray itself retries an unreachable cluster
    for minutes, printing as it goes."""
    text = address.removeprefix("ray://")
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return True
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


@contextmanager
def session(backend: Backend, jobs: int, address: str | None) -> Iterator[None]:
    """Hold one Ray session open across several :func:`run_batches` calls (a sequential run's looks,
    a sweep's rounds): started here when none runs, shut down on the way out. Nothing for ``local``."""
    if backend != "ray":
        yield
        return
    started = _ray_start(jobs, address)
    try:
        yield
    finally:
        if started:
            import ray

            ray.shutdown()


def _ray_start(jobs: int, address: str | None) -> bool:
    """Start (or join) Ray unless it runs already; whether this call started it."""
    try:
        import ray
    except ImportError:
        raise LabError(_("the ray backend needs Ray: pip install 'kassen[ray]'")) from None
    started = False
    if not ray.is_initialized():
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
            "configure_logging": True,
        }
        if address and not reachable(address):
            raise LabError(
                _("cannot reach the Ray cluster at {address} (nothing answers there)").format(
                    address=repr(address[:100])
                )
            )
        try:
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=jobs, **options)
        except Exception as exc:  # Ray's own errors: one line, whatever they are
            if address:
                message = _("cannot start the Ray cluster at {address}: {error}").format(
                    address=address, error=exc
                )
            else:
                message = _("cannot start a local Ray: {error}").format(error=exc)
            raise LabError(message[:300]) from None
        started = True
    return started


def _ray(
    work: Sequence[Batch], jobs: int, address: str | None, on_batch: OnBatch | None, keep: bool
) -> dict[int, list[FightRecord]]:
    import ray

    started = _ray_start(jobs, address)
    try:
        task = ray.remote(num_cpus=1)(play_batch)
        refs = {task.remote(b): b for b in work}
        out: dict[int, list[FightRecord]] = {}
        left = list(refs)
        while left:
            done, left = ray.wait(left, num_returns=1)
            for ref in done:
                b = refs.pop(ref)
                records = ray.get(ref)
                if keep:
                    out[b.index] = records
                if on_batch:
                    on_batch(b, records)
        return out
    finally:
        if started:
            ray.shutdown()
