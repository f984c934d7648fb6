"""The ``kassen`` console script (kassen.cli.fast) answers plain ``roll``/``odds`` itself and hands the
rest to the full Typer CLI: either way, the output and the exit code are those of the full CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable

import pytest

from kassen.cli import fast
from kassen.cli.main import main as full_main

Run = tuple[int, str, str]

#: Forms the fast path answers itself (asserted below, so the comparison is not a comparison of the full
#: CLI with itself).
PLAIN = [
    ["roll", "2d10+5", "--seed", "3"],
    ["roll", "--seed=3", "7k3"],
    ["roll", "4d6kh3", "--seed", "9", "--json"],
    ["roll", "3d6!", "--seed", "1", "--unskilled"],
    ["roll", "7k3", "--unskilled", "--seed", "5"],
    ["roll", "10d10!+3", "--seed", "12"],
    ["roll", "5d10kl2 - 3", "--seed", "77"],
    ["roll", "1d1", "--seed", "0", "--json"],
    ["odds", "2d10", "--at-least", "11"],
    ["odds", "7k3", "--at-least", "25", "--json"],
    ["odds", "--at-least=30", "10k5"],
    ["odds", "2d10+3", "--at-least", "0"],
    ["odds", "2d6!", "--at-least", "40"],
    ["odds", "1d20-1d6!", "--at-least", "5"],
    ["odds", "7k3", "--at-least", "25", "--unskilled"],
    ["odds", "10k10", "--at-least", "60"],
]
#: Forms it must leave to the full CLI: help, errors, options it does not read, output Rich would wrap.
OTHERS = [
    [],
    ["--version"],
    ["roll", "--help"],
    ["odds", "-h"],
    ["roll"],
    ["roll", "2dx", "--seed", "1"],
    ["roll", "0d6", "--seed", "1"],
    ["roll", "2d10", "--seed"],
    ["roll", "2d10", "--seed", "abc"],
    ["roll", "2d10", "--seed", "-1"],
    ["roll", "2d10", "--seed", "1", "--seed", "2"],
    ["roll", "2d10", "--bogus"],
    ["roll", "2d10", "2d6"],
    ["roll", "2d10", "--json=1"],
    ["roll", "-2d6", "--seed", "4"],
    ["roll", "100d10", "--seed", "1"],
    ["odds", "2d10"],
    ["odds", "2d10", "--at-least", "x"],
    ["odds", "2d10", "--at-least", "-3"],
    ["odds", "1000d1000", "--at-least", "5"],
    ["odds", "2d10", "--seed", "1", "--at-least", "3"],
    ["scenarios"],
]


def run(entry: Callable[[list[str]], None], argv: list[str], capsys: pytest.CaptureFixture[str]) -> Run:
    try:
        entry(list(argv))
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", PLAIN + OTHERS, ids=lambda a: " ".join(a) or "(none)")
def test_same_output_and_exit_code_as_the_full_cli(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(fast.main, argv, capsys) == run(full_main, argv, capsys)


@pytest.mark.parametrize("argv", PLAIN, ids=" ".join)
def test_plain_forms_are_answered_without_the_full_cli(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert fast.answer(argv)
    out, err = capsys.readouterr()
    assert out.endswith("\n") and not err


@pytest.mark.parametrize("argv", OTHERS, ids=lambda a: " ".join(a) or "(none)")
def test_other_forms_are_left_to_the_full_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert not fast.answer(argv)
    assert capsys.readouterr() == ("", "")  # nothing printed before handing over


def test_an_unseeded_roll_prints_its_seed_like_the_full_cli(capsys: pytest.CaptureFixture[str]) -> None:
    shape = re.compile(r"2d10 \+ 5: \[\d+, \d+\] \+ 5 = \d+\n\(seed \d+\)\n")
    for entry in (fast.main, full_main):
        code, out, err = run(entry, ["roll", "2d10+5"], capsys)
        assert code == 0 and not err and shape.fullmatch(out), out
    code, out, _ = run(fast.main, ["roll", "2d10", "--json"], capsys)
    assert code == 0 and 0 <= json.loads(out)["seed"] < 2**32


_IMPORTS = (
    "import sys\nfrom kassen.cli.fast import main\nmain(sys.argv[1:])\n"
    "heavy = ('typer', 'rich', 'click', 'icepool', 'pydantic', 'yaml', 'kassen.sengoku', 'kassen.l5r',"
    " 'kassen.arena', 'kassen.core.engine', 'dataclasses')\n"
    "print(sorted(m for m in heavy if m in sys.modules))"
)


@pytest.mark.parametrize(
    "argv", [["roll", "2d10", "--seed", "1"], ["odds", "2d10", "--at-least", "11"], ["roll", "7k3", "--json"]]
)
def test_a_plain_roll_imports_no_cli_library_and_no_ruleset(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS, *argv], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_console_script_hands_help_to_the_full_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS, "roll", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "Usage" in done.stdout
