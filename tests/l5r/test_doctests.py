"""The examples in the ruleset's docstrings run (DESIGN principle 14)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "kassen.l5r",
    "kassen.l5r.pool",
    "kassen.l5r.wounds",
    "kassen.l5r.calc",
    "kassen.l5r.content",
    "kassen.l5r.scenario",
    "kassen.l5r.ruleset",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
