"""The lab's documented limits and its error type.

Every number a user can pass is checked against these before anything runs or is written, so a hostile
or mistyped option is one line on stderr and exit 2 (:class:`LabError`), never a long run or a
half-written ``--out`` directory.
"""

from __future__ import annotations

__all__ = [
    "MAX_BATCH",
    "MAX_CELLS",
    "MAX_FIGHTS",
    "MAX_JOBS",
    "MAX_ODDS_CELLS",
    "MAX_PATH_CHARS",
    "MAX_PATH_PARTS",
    "MAX_POINTS",
    "MAX_SENSITIVITY_PATHS",
    "MAX_SWEEP_FIGHTS",
    "MAX_VALUES",
    "MAX_VALUE_CHARS",
    "MAX_VARY",
    "SEED_MAX",
    "LabError",
    "check_count",
    "check_jobs",
    "check_seed_range",
    "cpu_count",
]

import os
from typing import Any

from kassen.core.errors import KassenError
from kassen.i18n import _

#: Most fights in one run (or in one cell of a sweep).
MAX_FIGHTS = 200_000
#: Most cells in one sweep grid (the product of the numbers of values).
MAX_CELLS = 400
#: Most fights in a whole sweep (cells x fights).
MAX_SWEEP_FIGHTS = 2_000_000
#: Most ``--vary`` paths in one sweep, and values per path.
MAX_VARY = 4
MAX_VALUES = 50
#: Longest ``--vary`` path (characters, dotted parts) and value (characters).
MAX_PATH_CHARS = 200
MAX_PATH_PARTS = 16
MAX_VALUE_CHARS = 64
#: Most paths ``kassen lab sensitivity`` ranks, and most points (scenarios) it plays.
MAX_SENSITIVITY_PATHS = 12
MAX_POINTS = 2_000
#: Most worker processes (or Ray CPUs of a local Ray).
MAX_JOBS = 256
#: Most fights one batch (one task) plays.
MAX_BATCH = 250
#: Most cells of one exact table (rows x columns).
MAX_ODDS_CELLS = 20_000
#: Seeds are 0 .. 2**64 - 1 (the core's range): fight i of a run uses seed S + i.
SEED_MAX = (1 << 64) - 1


class LabError(KassenError):
    """A lab option, path or output directory the lab refuses; the message names it."""

    code = "lab"


def check_count(value: Any, name: str, limit: int, *, minimum: int = 1) -> int:
    """``value`` if it is a whole number in ``minimum .. limit``, else a :class:`LabError`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LabError(_("{name} is a whole number, not {kind}").format(name=name, kind=type(value).__name__))
    if not minimum <= value <= limit:
        shown = value if abs(value) < 10**15 else "…"
        raise LabError(
            _("{name} must be between {minimum} and {limit}, got {shown}").format(
                name=name, minimum=minimum, limit=limit, shown=shown
            )
        )  # the CLI's wording
    return value


def check_jobs(jobs: Any) -> int:
    """A number of workers: 1 .. :data:`MAX_JOBS`."""
    return check_count(jobs, "jobs", MAX_JOBS)


def check_seed_range(seed: Any, fights: int) -> int:
    """The first seed of a run: every seed ``seed .. seed + fights - 1`` must be a valid seed."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise LabError(_("seed is a whole number, not {kind}").format(kind=type(seed).__name__))
    if not 0 <= seed <= SEED_MAX - fights + 1:
        raise LabError(
            _("seed must be between 0 and 2**64 - {fights} so that every fight's seed S+i is valid").format(
                fights=fights
            )
        )
    return seed


def cpu_count() -> int:
    """CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1
