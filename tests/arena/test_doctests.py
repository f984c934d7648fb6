"""The runnable examples in the arena's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "kassen.arena",
    "kassen.arena.audience",
    "kassen.arena.checks",
    "kassen.arena.content",
    "kassen.arena.damage",
    "kassen.arena.fighter",
    "kassen.arena.injury",
    "kassen.arena.knockback",
    "kassen.arena.odds",
    "kassen.arena.report",
    "kassen.arena.rules",
    "kassen.arena.ruleset",
    "kassen.arena.scenario",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
