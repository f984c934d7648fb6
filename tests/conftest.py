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
    (``RulesetInfo.event_types``, :func:`kassen.core.events.check_event`): checked as it is made, after
    each ``resolve`` and ``follow_up`` of every bundled ruleset and the coin-flip duel (a fight, the
    simulation mode and a test's own driver all go through them)."""
    import inspect
    import sys
    from pathlib import Path

    from kassen.core.events import check_event
    from kassen.core.ruleset import bundled_ruleset_names, find_ruleset

    sys.path.insert(0, str(Path(__file__).parent / "core"))
    import coinflip

    rulesets = [find_ruleset(name) for name in bundled_ruleset_names()] + [coinflip.RULESET]
    saved: list[tuple[type, str, Any]] = []

    def checking(cls: type, name: str, types: Any) -> None:
        raw = inspect.getattr_static(cls, name)
        made = getattr(cls, name)
        static = isinstance(raw, staticmethod)

        def checked(*args: Any) -> Any:
            turn = args[0] if static else args[1]
            before = len(turn.events)
            out = made(*args)
            for event in turn.events[before:]:
                check_event(types, event.kind, event.data, f"{event.kind}.data")
            return out

        saved.append((cls, name, raw))
        setattr(cls, name, staticmethod(checked) if static else checked)

    for rs in rulesets:
        for name in ("resolve", "follow_up"):
            checking(type(rs), name, rs.info.event_types)
    try:
        yield
    finally:
        for cls, name, made in saved:
            setattr(cls, name, made)


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
