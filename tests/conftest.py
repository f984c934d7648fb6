"""Settings shared by the whole suite: the fuzz suite's Hypothesis profiles (tests/fuzz).

``fuzz-quick`` runs in ``make test`` (a few examples per target, the whole fuzz suite well under a
minute); ``fuzz-long`` runs behind the ``slow`` marker (``make test-slow``), at least 20,000 generated
inputs over every target. ``KASSEN_FUZZ_EXAMPLES=N`` overrides the long run's examples per target.
Other property tests keep Hypothesis's default profile.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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
