"""The runnable examples in the attack-resolution modules' docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "kassen.sengoku.attack",
    "kassen.sengoku.check",
    "kassen.sengoku.death",
    "kassen.sengoku.fate",
    "kassen.sengoku.odds",
    "kassen.sengoku.resolution",
    "kassen.sengoku.technique",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
