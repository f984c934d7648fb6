"""The test-only coin-flip ruleset (tests/core/coinflip) for the lab's tests (``labflip`` writes a
scenario of a single roll whose chance is known exactly)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kassen.core.ruleset import register_ruleset, unregister_ruleset

CORE_TESTS = Path(__file__).resolve().parents[1] / "core"


@pytest.fixture
def coinflip() -> Iterator[None]:
    """The coin-flip ruleset registered for one test (and forgotten after, if this registered it)."""
    if str(CORE_TESTS) not in sys.path:
        sys.path.insert(0, str(CORE_TESTS))
    import coinflip as module

    from kassen.core.ruleset import loaded_rulesets

    had = "coinflip" in loaded_rulesets()
    register_ruleset(module.RULESET)
    yield
    if not had:
        unregister_ruleset("coinflip")
