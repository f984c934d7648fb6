"""One set of conventions for every command (issue 14): negative numbers as arguments, one seed rule,
numbers read the same way (ASCII digits), one wording per kind of mistake, help that shows values as a
user types them. Every command is found by walking the CLI, so a new one is held to the same rules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kassen.cli.main import app

SEED_MAX = 2**64 - 1
SEED_WORDS = "a seed is between 0 and 2**64 - 1"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input="")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _walk(command: Any, ctx: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from _walk(sub, ctx, (*path, name))
    else:
        yield path, command


ROOT = typer.main.get_command(app)
COMMANDS = dict(_walk(ROOT, typer.Context(ROOT), ()))

#: The smallest valid command line of every command that takes --seed (the seed goes last).
SEEDED: dict[tuple[str, ...], list[str]] = {
    ("roll",): ["roll", "2d6"],
    ("fight",): ["fight", "l5r/first-blood", "--brief"],
    ("play",): ["play", "l5r/first-blood"],
    ("lab", "run"): ["lab", "run", "l5r/first-blood", "-n", "1", "-q"],
    ("lab", "sweep"): ["lab", "sweep", "l5r/first-blood", "--vary", "max_turns=5", "-n", "1", "-q"],
    ("lab", "match"): ["lab", "match", "l5r/first-blood", "--a", "heuristic", "--b", "random", "-q"],
    ("lab", "solve"): [
        "lab",
        "solve",
        "duel",
        "--vary",
        "fighters.ryu.skill=4..6",
        "--target",
        "east=0.5",
        "-n",
        "1",
        "-q",
    ],
    ("lab", "sensitivity"): [
        "lab",
        "sensitivity",
        "duel",
        "--vary",
        "fighters.ryu.skill=4..6",
        "--vary",
        "fighters.ken.skill=4..6",
        "-n",
        "1",
        "--trajectories",
        "2",
        "-q",
    ],
    ("l5r", "attack"): ["l5r", "attack"],
    ("l5r", "duel"): ["l5r", "duel", "first-blood"],
    ("arena", "bout"): ["arena", "bout", "duel"],
    ("sengoku", "battle"): ["sengoku", "battle", "count-example"],
    ("sengoku", "attack"): ["sengoku", "attack", "--attacker", "samurai", "--target", "oni"],
    ("campaign", "aftermath"): ["campaign", "aftermath", "ford", "--autoplay"],
}


def test_every_command_taking_a_seed_is_listed() -> None:
    taking = {p for p, c in COMMANDS.items() if any("--seed" in getattr(x, "opts", []) for x in c.params)}
    assert taking == set(SEEDED)


@pytest.mark.parametrize("path", sorted(SEEDED))
@pytest.mark.parametrize("seed", ["-1", str(SEED_MAX + 1), "9" * 5000])
def test_one_seed_rule_everywhere_refused_outside_it_never_wrapped(path: tuple[str, ...], seed: str) -> None:
    code, out, err = run(*SEEDED[path], "--seed", seed)
    assert code == 2 and out == ""
    assert err.startswith("kassen: error: command line: --seed: " + SEED_WORDS), err
    assert err.count("\n") == 1


@pytest.mark.parametrize("path", [("roll",), ("l5r", "attack"), ("sengoku", "attack")])
def test_the_largest_seed_is_accepted(path: tuple[str, ...]) -> None:
    code, _, err = run(*SEEDED[path], "--seed", str(SEED_MAX))
    assert code == 0, err


@pytest.mark.parametrize(
    "args",
    [
        ("sengoku", "odds", "--modifier", "３", "--defense", "10"),
        ("l5r", "odds", "6k3", "--tn", "３"),
        ("arena", "check", "３"),
        ("roll", "2d6", "--seed", "３"),
        ("sengoku", "defense", "--natural-armor", "３"),
        ("arena", "damage", "--basic", "３", "--type", "cut", "--ht", "10"),
        ("lab", "run", "duel", "-n", "３"),
    ],
)
def test_numbers_are_ascii_digits_everywhere_with_one_wording(args: tuple[str, ...]) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert re.search(r"^kassen: error: .*command line: \S+: must be a whole number, got '３'$", err, re.M), (
        err
    )


@pytest.mark.parametrize(
    "args",
    [
        ("lab", "odds", "arena", "--skill", "３..5"),
        ("lab", "odds", "sengoku", "--modifiers", "３", "--defense", "10"),
        ("lab", "odds", "l5r", "--pools", "３k2", "--tn", "10"),
        ("lab", "sweep", "duel", "--vary", "fighters.ryu.skill=１０..１２", "-n", "1"),
        ("l5r", "odds", "３k2", "--tn", "10"),
        ("l5r", "attack", "--weapon", "３k2"),
    ],
)
def test_ranges_pools_and_swept_values_take_ascii_digits_too(args: tuple[str, ...]) -> None:
    code, _, err = run(*args)
    assert code == 2 and "numbers are written with ASCII digits 0-9" in err, err


@pytest.mark.parametrize("value", ["5.0", "1_0", "0x10", "+", "1e3"])
def test_what_python_would_read_as_a_number_is_refused_too(value: str) -> None:
    code, _, err = run("arena", "check", value)
    assert code == 2 and f"TARGET: must be a whole number, got {value!r}" in err


def test_every_whole_number_option_reads_numbers_one_way() -> None:
    """Every int option or argument goes through kassen.cli.numbers (ASCII digits, one wording): a new
    one that Typer would read by itself (``int("５")`` is 5) fails here, ``kassen serve``'s included."""
    loose = [
        (path, p.name)
        for path, command in COMMANDS.items()
        for p in command.params
        if "int" in str(p.type_descriptor.annotation)
        and getattr(p.type_descriptor.parameter_info.parser, "__name__", "") not in {"whole", "parse_seed"}
    ]
    assert loose == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("arena", "check", "-3"), "success"),
        (("roll", "-1d4+5", "--seed", "3"), "-1d4 + 5"),
        (("odds", "-1d4+5", "--at-least", "-2"), "100"),
        (("sengoku", "odds", "--modifier", "-3", "--defense", "10"), "2d10 -3"),
    ],
)
def test_negative_numbers_are_values_not_options(args: tuple[str, ...], words: str) -> None:
    code, out, err = run(*args)
    assert code == 0, err
    assert words in out


@pytest.mark.parametrize(
    "args", [("arena", "check", "--jsn"), ("arena", "check", "3", "--jsn"), ("roll", "--sed")]
)
def test_an_unknown_option_is_still_one(args: tuple[str, ...]) -> None:
    code, _, err = run(*args)
    assert code == 2 and "No such option" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ("sengoku", "attack", "--faces", "5,5", "--d100", "101"),
            "--d100: must be between 1 and 100, got 101",
        ),
        (("sengoku", "attack", "--faces", "5,5", "--d100", "0"), "--d100: must be between 1 and 100, got 0"),
        (("arena", "check", "5000"), "TARGET: must be between -1000 and 1000, got 5000"),
        (("sengoku", "battle", "demo", "--rounds", "0"), "--rounds: must be between 1 and 1000, got 0"),
    ],
)
def test_one_wording_for_a_number_out_of_range(args: tuple[str, ...], words: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and f"command line: {words}" in err, err


def test_a_pool_past_the_limit_names_it_like_a_roll_does() -> None:
    _, _, pool = run("l5r", "odds", "99999k3", "--tn", "10")
    _, _, dice = run("roll", "99999d10")
    assert "99999 dice in one pool; the limit is 9999" in pool
    assert "99999 dice in one roll; the limit is 1000" in dice


def test_several_problems_are_one_a_line() -> None:
    code, _, err = run("sengoku", "defense", "--natural-armor", "x", "--armor-bonus", "-1", "--grade", "boss")
    lines = err.splitlines()
    assert code == 2 and lines[0] == "kassen: error: 3 problems:"
    assert len(lines) == 4 and all(line.startswith("  command line: --") for line in lines[1:])


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_help_shows_values_as_a_user_types_them(path: tuple[str, ...]) -> None:
    code, out, _ = run(*path, "--help")
    assert code == 0
    assert not re.search(r"<(bool|str|int|float|list\[[a-z]+\]|Path)>", out), out


def test_help_shows_numbers_and_nothing_for_flags() -> None:
    _, out, _ = run("arena", "check", "--help")
    assert "TARGET" in out and "INTEGER" in out
    json_line = next(line for line in out.splitlines() if "--json" in line)
    assert re.search(r"--json\s+Print JSON", json_line), json_line
    _, out, _ = run("sengoku", "odds", "--help")
    assert re.search(r"--modifier\s+N\b", out) and re.search(r"--defense\s+N\b", out)
