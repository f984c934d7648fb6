"""Settings shared by the whole suite: the fuzz suite's Hypothesis profiles (tests/fuzz), the check of
every typed event, and no save left behind in the folder the suite runs from.

``fuzz-quick`` runs in ``make test`` (a few examples per target, the whole fuzz suite well under a
minute); ``fuzz-long`` runs behind the ``slow`` marker (``make test-slow``), at least 20,000 generated
inputs over every target. ``KASSEN_FUZZ_EXAMPLES=N`` overrides the long run's examples per target.
Other property tests keep Hypothesis's default profile.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

#: No deadline per example (a fight takes its time; the fuzz suite checks its own 2 s bound and counts
#: what passes it), no database (each run generates afresh, nothing written under the project).
_COMMON = {
    "deadline": None,
    "database": None,
    "derandomize": False,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
}
settings.register_profile("fuzz-quick", max_examples=12, **_COMMON)  # type: ignore[arg-type]
settings.register_profile(
    "fuzz-long",
    max_examples=int(os.environ.get("KASSEN_FUZZ_EXAMPLES", "0")) or 2_500,
    **_COMMON,  # type: ignore[arg-type]
)


@pytest.fixture(autouse=True, scope="session")
def _every_typed_event_checked() -> Iterator[None]:
    """Every event a ruleset that declares its event types logs in any test is what its kind declares
    (``RulesetInfo.event_types``, :func:`kassen.core.events.check_event`): checked as it is made."""
    from kassen.core.events import check_event
    from kassen.l5r.events import EVENT_TYPES
    from kassen.l5r.turn import L5Turn

    made = L5Turn.event

    def checked(self: L5Turn, kind: str, text: str, rule: str = "", **kw: Any) -> None:
        before = len(self.events)
        made(self, kind, text, rule, **kw)
        for event in self.events[before:]:
            check_event(EVENT_TYPES, event.kind, event.data, f"{event.kind}.data")

    L5Turn.event = checked  # type: ignore[method-assign]
    try:
        yield
    finally:
        L5Turn.event = made  # type: ignore[method-assign]


_LEFT_BEHIND = ("kassen-autosave-*.json", "kassen-save-*.json")


@pytest.fixture(autouse=True)
def _no_save_left_in_the_working_directory() -> Iterator[None]:
    """A test that plays at the terminal saves in its own temporary folder: an autosave or fallback save
    (``kassen play`` interrupted without ``--save``) left in the folder the suite runs from is removed
    and fails the test that left it."""
    where = Path.cwd()
    before = {p for pattern in _LEFT_BEHIND for p in where.glob(pattern)}
    yield
    left = {p for pattern in _LEFT_BEHIND for p in where.glob(pattern)} - before
    for path in left:
        path.unlink(missing_ok=True)
    assert not left, f"the test left {sorted(p.name for p in left)} in {where}"
