"""The test-only coin-flip ruleset is registered for the tests of this folder (and forgotten after)."""

from __future__ import annotations

from collections.abc import Iterator

import coinflip
import pytest

from kassen.core.ruleset import register_ruleset, unregister_ruleset


@pytest.fixture(autouse=True, scope="session")
def _coinflip_registered() -> Iterator[None]:
    register_ruleset(coinflip.RULESET)
    yield
    unregister_ruleset("coinflip")
