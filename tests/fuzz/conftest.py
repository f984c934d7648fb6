"""The fuzz suite's fixtures and its counts at the end of a run (the harness is harness.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import summary


def pytest_terminal_summary(terminalreporter: Any) -> None:
    summary(terminalreporter)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The parent of each example's working directory (each example makes its own under it)."""
    return tmp_path_factory.mktemp("fuzz")
