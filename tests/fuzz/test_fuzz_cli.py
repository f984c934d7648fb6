"""Fuzz every CLI entry point with generated command lines: each exits 0, or 2 with one clear message
and nothing written; never a traceback, exit 1 or a hang (tests/fuzz/conftest.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from harness import long, quick, run_cli
from hypothesis import given
from strategies import COMMANDS, FAST, FIGHTS, command_lines, write_fixtures


def _case(args: list[str], parent: Path) -> None:
    root = Path(tempfile.mkdtemp(dir=parent))
    write_fixtures(root)
    run_cli(args, root)


def test_the_fuzz_reaches_every_command() -> None:
    paths = {c.path for c in COMMANDS}
    assert {
        ("roll",),
        ("arena", "check"),
        ("sengoku", "odds"),
        ("l5r", "duel"),
        ("content", "validate"),
    } <= paths
    assert ("serve",) not in paths and FAST and FIGHTS


@quick()
@given(args=command_lines(FAST))
def test_command_lines_exit_0_or_2(args: list[str], workdir: Path) -> None:
    _case(args, workdir)


@quick()
@given(args=command_lines(FIGHTS))
def test_fight_command_lines_exit_0_or_2(args: list[str], workdir: Path) -> None:
    _case(args, workdir)


@pytest.mark.slow
@long("cli")
@given(args=command_lines(FAST))
def test_command_lines_exit_0_or_2_long(args: list[str], workdir: Path) -> None:
    _case(args, workdir)


@pytest.mark.slow
@long("cli-fights")
@given(args=command_lines(FIGHTS))
def test_fight_command_lines_exit_0_or_2_long(args: list[str], workdir: Path) -> None:
    _case(args, workdir)
